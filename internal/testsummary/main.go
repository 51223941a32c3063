// Command testsummary reads `go test -json` on stdin and prints what a
// plain `go test` prints (the "ok package time" and FAIL lines, and the
// output of failing tests), then every skipped test with its reason, so
// that a test skipped for a missing tool (chromium, cedar) is not mistaken
// for one that passed. It exits 1 when a test or package failed.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of test2json output.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

type key struct{ pkg, test string }

// skip is a skipped test and why.
type skip struct {
	pkg, test, reason string
}

func main() { os.Exit(run()) }

func run() int {
	skipsTo := flag.String("skips", "", "write the skipped tests to `FILE` instead of after the summary")
	flag.Parse()
	var skipW io.Writer = os.Stdout
	if *skipsTo != "" {
		f, err := os.Create(*skipsTo)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			return 2
		}
		defer f.Close()
		skipW = f
	}
	failed, err := summarise(os.Stdin, os.Stdout, skipW)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		return 2
	}
	if failed {
		return 1
	}
	return 0
}

// summarise copies the go test summary to w and lists the skipped tests
// on skipW.
func summarise(r io.Reader, w, skipW io.Writer) (failed bool, err error) {
	out := map[key][]string{}
	var skips []skip
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if json.Unmarshal(line, &e) != nil || e.Action == "" {
			fmt.Fprintln(w, string(line)) // not test2json (a build error)
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output", "build-output":
			if e.Test == "" {
				if t := strings.TrimSpace(e.Output); t != "PASS" && t != "FAIL" && !strings.HasPrefix(t, "=== ") && t != "" {
					fmt.Fprint(w, e.Output)
				}
				continue
			}
			out[k] = append(out[k], e.Output)
		case "fail":
			if e.Test != "" {
				failed = true
				fmt.Fprint(w, strings.Join(out[k], ""))
			} else {
				failed = true
			}
			delete(out, k)
		case "build-fail":
			failed = true
		case "skip":
			if e.Test != "" {
				skips = append(skips, skip{e.Package, e.Test, reason(out[k])})
			}
			delete(out, k)
		case "pass":
			delete(out, k)
		}
	}
	if err := sc.Err(); err != nil {
		return true, err
	}
	if len(skips) > 0 {
		sort.Slice(skips, func(i, j int) bool {
			if skips[i].pkg != skips[j].pkg {
				return skips[i].pkg < skips[j].pkg
			}
			return skips[i].test < skips[j].test
		})
		fmt.Fprintf(skipW, "SKIPPED Go tests (%d): they did not run, so they did not pass\n", len(skips))
		for _, s := range skips {
			fmt.Fprintf(skipW, "  %s %s: %s\n", s.pkg, s.test, s.reason)
		}
	}
	return failed, nil
}

// reason is what a skipped test logged ("render_test.go:110: chromium not
// found"), without the === and --- lines.
func reason(lines []string) string {
	var parts []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}
