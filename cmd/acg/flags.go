package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
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

// sizeFlag is a byte count written as 2097152, 2048K or 2M.
type sizeFlag int64

func (s *sizeFlag) String() string {
	switch n := int64(*s); {
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n > 0 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	default:
		return fmt.Sprint(n)
	}
}

func (s *sizeFlag) Set(v string) error {
	num, mult := strings.ToUpper(strings.TrimSpace(v)), int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSuffix(num, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return fmt.Errorf("want a positive number of bytes such as 2097152, 4M or 512K")
	}
	*s = sizeFlag(n * mult)
	return nil
}
