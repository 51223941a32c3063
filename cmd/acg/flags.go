package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// newFlagSet makes the flag set of a subcommand, following the usual CLI
// conventions: flags are documented as --flag (both --flag and -flag are
// accepted, as Go's flag package does); -h and --help print the usage to
// stdout (the parse then returns flag.ErrHelp: exit 0); a bad flag prints
// the error and a pointer to --help to stderr (exit 2). synopsis follows
// "usage: acg NAME"; about, if any, is a paragraph under it.
func newFlagSet(name, synopsis, about string, stdout, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	var failure bytes.Buffer // what flag wrote before calling Usage
	fs.SetOutput(&failure)
	fs.Usage = func() {
		if failure.Len() > 0 {
			msg := strings.TrimSpace(failure.String())
			failure.Reset()
			msg = flagInMessage.ReplaceAllString(msg, "$1--$2")
			fmt.Fprintf(stderr, "acg %s: %s\nrun 'acg %s --help' for the flags\n", name, msg, name)
			return
		}
		printUsage(stdout, fs, "usage: acg "+name+" "+synopsis, about)
	}
	return fs
}

// flagInMessage is a flag named in one of the flag package's errors
// ("invalid value … for flag -format", "flag needs an argument: -root").
var flagInMessage = regexp.MustCompile(`(flag |: )-([A-Za-z0-9][\w-]*)`)

// printUsage writes a synopsis and every flag as --name VALUE with its
// description and default.
func printUsage(w io.Writer, fs *flag.FlagSet, synopsis, about string) {
	var b strings.Builder
	b.WriteString(synopsis + "\n")
	if about != "" {
		b.WriteString("\n" + about + "\n")
	}
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			b.WriteString("\nflags:\n")
			first = false
		}
		value, usage := flag.UnquoteUsage(f)
		b.WriteString("  --" + f.Name)
		if value != "" {
			b.WriteString(" " + value)
		}
		b.WriteString("\n      " + usage)
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(&b, " (default %s)", f.DefValue)
		}
		b.WriteString("\n")
	})
	io.WriteString(w, b.String())
}
