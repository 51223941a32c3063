// Command gen writes one of the benchmark shapes (internal/gentree) into a
// directory, for scripts/bench.sh and for profiling by hand:
//
//	go run ./bench/gen -shape chain -tools 1000 -agents 200 DIR
//	go run ./bench/gen -shape single -tools 1000 DIR
//	go run ./bench/gen -shape workspace -files 200 DIR
//	go run ./bench/gen -shape tree -files 10000 DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/acg-dev/acg/internal/gentree"
)

func main() {
	shape := flag.String("shape", "chain", "chain (tools in tools/5 agents, each handing off to the next), single (tools in one agent), workspace (files with one 2,000-line agent module) or tree (files of tool and agent modules)")
	tools := flag.Int("tools", 100, "tools (chain, single)")
	agents := flag.Int("agents", 0, "agents (chain; default tools/5)")
	files := flag.Int("files", 200, "Python files (workspace, tree)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gen [flags] DIR")
		os.Exit(2)
	}
	if err := write(flag.Arg(0), *shape, *tools, *agents, *files); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir, shape string, tools, agents, files int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var err error
	switch shape {
	case "chain":
		if agents == 0 {
			agents = max(1, tools/5)
		}
		_, err = gentree.HandoffChain(dir, tools, agents)
	case "single":
		_, err = gentree.SingleAgent(dir, tools)
	case "workspace":
		_, err = gentree.Workspace(dir, files)
	case "tree":
		_, err = gentree.Write(dir, files)
	default:
		err = fmt.Errorf("unknown shape %q", shape)
	}
	return err
}
