// Command acg scans agent code and configs for dangerous capability paths.
package main

import (
	"fmt"
	"io"
	"os"

	buildversion "github.com/acg-dev/acg/internal/version"
)

const usage = `usage: acg <command> [arguments]

commands:
  scan [PATH ...]   analyse agent code and configs (acg scan --help)
  explain TOOL      show why each effect label of a tool was decided
  doctor            show which flow provers are available, and their versions
  traces TRACES     find the dangerous tool sequences recorded runs walked (acg traces --help)
  demo              run the exploit story: scan, exploit, quick fix, blocked, clean
  version           print the version
  help [COMMAND]    show this help, or a command's
`

// commands are the subcommands; each returns its exit status.
var commands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"scan": scan, "explain": explain, "doctor": doctor, "demo": demoCmd, "traces": tracesCmd,
}

func main() { os.Exit(run0(os.Args[1:], os.Stdout, os.Stderr)) }

// run0 dispatches a command line. Help asked for goes to stdout with
// status 0; a usage error goes to stderr with status 2.
func run0(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	if cmd := commands[args[0]]; cmd != nil {
		return cmd(args[1:], stdout, stderr)
	}
	switch args[0] {
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "acg", version)
		return exitOK
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			if cmd := commands[args[1]]; cmd != nil {
				return cmd([]string{"--help"}, stdout, stderr)
			}
			fmt.Fprintf(stderr, "acg help: unknown command %q\n\n%s", args[1], usage)
			return exitUsage
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "acg: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// version is the running build's (internal/version).
var version = buildversion.String()
