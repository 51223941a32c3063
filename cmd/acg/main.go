// Command acg scans agent code and configs for dangerous capability paths.
package main

import (
	"fmt"
	"os"

	buildversion "github.com/acg-dev/acg/internal/version"
)

const usage = `usage: acg <command> [arguments]

commands:
  scan [PATH ...]   analyse agent code and configs (run 'acg scan -h')
  explain TOOL      show why each effect label of a tool was decided
  doctor            show which flow provers are available, and their versions
  version           print the version
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	switch os.Args[1] {
	case "scan":
		os.Exit(scan(os.Args[2:], os.Stdout, os.Stderr))
	case "explain":
		os.Exit(explain(os.Args[2:], os.Stdout, os.Stderr))
	case "doctor":
		os.Exit(doctor(os.Args[2:], os.Stdout, os.Stderr))
	case "version", "--version", "-version":
		fmt.Println("acg", version)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "acg: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
}

// version is the running build's (internal/version).
var version = buildversion.String()
