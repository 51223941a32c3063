package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func cli(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := run0(args, &out, &errb)
	return out.String(), errb.String(), code
}

// TestHelpGoesToStdout: help that was asked for is output (stdout, exit
// 0), in every spelling, and documents flags as --flag.
func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{
		{"--help"}, {"-h"}, {"help"},
		{"scan", "--help"}, {"scan", "-h"}, {"scan", "-help"}, {"help", "scan"}, {"scan", "testdata", "--help"},
		{"doctor", "--help"}, {"help", "doctor"},
		{"explain", "--help"}, {"help", "explain"},
	} {
		out, errs, code := cli(args...)
		if code != exitOK || errs != "" || !strings.HasPrefix(out, "usage: acg") {
			t.Errorf("acg %s: exit %d, stdout %q, stderr %q; want the usage on stdout, exit 0", strings.Join(args, " "), code, out, errs)
		}
		if regexp.MustCompile(`(?m)^\s+-[a-z]`).MatchString(out) {
			t.Errorf("acg %s documents a flag as -flag:\n%s", strings.Join(args, " "), out)
		}
	}
	out, _, _ := cli("scan", "--help")
	for _, want := range []string{"--format FORMAT", "--fail-on SEVERITY", "--root DIR", "--max-file-size SIZE", "(default 2M)", "3 no finding"} {
		if !strings.Contains(out, want) {
			t.Errorf("acg scan --help lacks %q:\n%s", want, out)
		}
	}
}

// TestUsageErrorsGoToStderr: a bad flag or command is an error (stderr,
// exit 2) that names the flag as --flag.
func TestUsageErrorsGoToStderr(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"scan", "--nope"}, "--nope"},
		{[]string{"scan", "--format"}, "--format"},
		{[]string{"scan", "--max-file-size", "big"}, `invalid value "big" for flag --max-file-size`},
		{[]string{"doctor", "--nope"}, "--nope"},
		{[]string{"explain"}, "acg explain --help"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"help", "frobnicate"}, "unknown command"},
		{nil, "usage: acg"},
	} {
		out, errs, code := cli(tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("acg %s: exit %d, stdout %q, stderr %q; want exit 2 and %q on stderr", strings.Join(tc.args, " "), code, out, errs, tc.want)
		}
	}
}

// TestFlagsBothWays: -flag and --flag mean the same.
func TestFlagsBothWays(t *testing.T) {
	double, _, c1 := run(t, "--format", "json", "--fail-on", "none", "../../testdata/inbox")
	single, _, c2 := run(t, "-format", "json", "-fail-on", "none", "../../testdata/inbox")
	eq, _, c3 := run(t, "--format=json", "-fail-on=none", "../../testdata/inbox")
	if c1 != 0 || c2 != 0 || c3 != 0 || double != single || double != eq || !strings.HasPrefix(double, "{") {
		t.Errorf("--flag, -flag and --flag=value differ (exit %d %d %d)", c1, c2, c3)
	}
}
