package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/acg-dev/acg/prove/provers"
)

func doctor(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("doctor", "[flags]", "Shows which flow provers are available, and their versions.", stdout, stderr)
	var tools provers.Settings
	fs.StringVar(&tools.Opengrep, "opengrep", "", "path of the opengrep binary (default: $ACG_OPENGREP, else provers.opengrep.path in the user config, else PATH)")
	fs.StringVar(&tools.Semgrep, "semgrep", "", "path of the semgrep binary, the Opengrep-compatible engine when there is no opengrep (default: $ACG_SEMGREP, else provers.semgrep.path in the user config, else PATH)")
	fs.StringVar(&tools.CodeQL, "codeql", "", "path of the codeql binary (default: $ACG_CODEQL, else provers.codeql.path in the user config, else PATH)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	// Only the user names programs: the flags, the environment and the
	// user's config file. The current directory's .acg.yaml is a
	// repository's and is not read (docs/security.md). Doctor answers for
	// a scan of the current directory, so a user config inside it is
	// ignored as that scan would ignore it.
	user, ignored, err := provers.UserConfig(".")
	if err != nil {
		fmt.Fprintf(stderr, "acg doctor: %s\n", errorText(err))
		return exitUsage
	}
	if ignored != nil {
		printf(stderr, "acg: warning: %v\n", ignored)
	}
	tools.User = user
	provers.Doctor(context.Background(), tools, version, stdout)
	return exitOK
}
