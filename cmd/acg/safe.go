package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/internal/termsafe"
)

// printf writes a message to stderr with every string, error and Stringer
// argument made safe for the terminal (termsafe.Sprintf): warnings,
// problems and errors name files and things from the scanned repository.
func printf(w io.Writer, format string, args ...any) {
	fmt.Fprint(w, termsafe.Sprintf(format, args...))
}

// errorText renders err for the terminal. A config error keeps one line
// per problem, each made safe on its own, so a quoted value can neither
// add a line nor rewrite one; any other error is one safe line.
func errorText(err error) string {
	msg := err.Error()
	var ce config.Errors
	if !errors.As(err, &ce) || !strings.HasSuffix(msg, ce.Error()) {
		return termsafe.String(msg)
	}
	// What wraps the problems is acg's own text ("…is not valid:\n"):
	// its line breaks are kept.
	head := termsafe.Strings(strings.Split(strings.TrimSuffix(msg, ce.Error()), "\n"))
	problems := make([]string, len(ce))
	for i, e := range ce {
		problems[i] = termsafe.String(e.Error())
	}
	return strings.Join(head, "\n") + strings.Join(problems, "\n")
}
