package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/acg-dev/acg/demo"
	"github.com/acg-dev/acg/internal/pyrun"
)

// demoCmd runs the exploit story (package demo) with acg scan as its scan.
func demoCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("demo", "[flags]",
		"Runs the story behind acg on its example inbox assistant: scan, exploit (the agent runs under its real framework with a scripted, prompt-injected model; mail server and attacker webhook are stand-ins on 127.0.0.1), the quick fix through the language server, the same exploit blocked, a clean re-scan. Run it in acg's source tree after scripts/pyenv.sh frameworks.", stdout, stderr)
	venv := fs.String("venv", "", "the frameworks' virtual environment (default: $ACG_VENV_FRAMEWORKS, else .venvs/frameworks)")
	testdata := fs.String("testdata", "testdata", "acg's testdata directory, where the example agents are")
	only := fs.String("framework", "all", "which example: langgraph, openai-agents, langchain or all")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	examples := demo.Examples
	if *only != "all" {
		ex, ok := demo.ExampleNamed(*only)
		if !ok {
			fmt.Fprintf(stderr, "acg demo: unknown --framework %q (langgraph, openai-agents, langchain or all)\n", *only)
			return exitUsage
		}
		examples = []demo.Example{ex}
	}
	dir := *venv
	if dir == "" {
		dir = os.Getenv(pyrun.EnvVar)
	}
	if dir == "" {
		dir = filepath.Join(".venvs", "frameworks")
	}
	env, err := pyrun.FromVenv(dir)
	if err != nil {
		fmt.Fprintf(stderr, "acg demo: %v\n", err)
		return exitUsage
	}
	s, err := demo.NewScenario(env)
	if err != nil {
		fmt.Fprintf(stderr, "acg demo: %v\n", err)
		return exitUsage
	}
	defer s.Close()
	st := &demo.Story{Scenario: s, Testdata: *testdata, Out: stdout, Scan: demoScan}
	for _, ex := range examples {
		if _, err := st.Tell(context.Background(), ex); err != nil {
			fmt.Fprintf(stderr, "acg demo: %s: %v\n", ex.Name, err)
			return exitFindings
		}
	}
	return exitOK
}

// demoScan is the story's scan step: acg scan of the example's directory
// (builtin prover, so the story needs no other tool), clean or not.
func demoScan(dir string, w io.Writer) (bool, error) {
	switch code := scan([]string{"--engine", "builtin", "--root", dir, dir}, w, w); code {
	case exitOK:
		return true, nil
	case exitFindings:
		return false, nil
	default:
		return false, fmt.Errorf("acg scan exited %d", code)
	}
}
