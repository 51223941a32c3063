package outcheck

import (
	"strings"
	"testing"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/report"
)

// Each check accepts what acg writes and rejects what a hostile input
// would make of it: a check that cannot fail guards nothing.
func TestChecksRejectBrokenOutput(t *testing.T) {
	bad := map[string][]string{
		FormatText: {"agent: \x1b[2K\x1b[1Aall clear\n", "a\rb", "del\x7f", "c1 \u009b2J", "raw c1 \x9b2J",
			"bidi \u202eevil", "isolate \u2066x\u2069", "nul\x00"},
		FormatJSON:  {"", "{", `{"a":1} {"b":2}`, "nan"},
		FormatJSONL: {`{"a":1}` + "\n", report.ChainEventTag + "{\n", report.ChainEventTag + `{"a":1}`},
		FormatSARIF: {"{}", `{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`, "not json"},
		FormatSVG: {"", "<svg><g></svg>", "<svg>a & b</svg>", "<svg>\x1b</svg>", "<svg>\xff</svg>", "<html></html>",
			"<svg/><svg/>", `<svg x="a<b"/>`},
	}
	for format, inputs := range bad {
		for _, in := range inputs {
			if err := Check(format, []byte(in)); err == nil {
				t.Errorf("%s: %q passed", format, in)
			}
		}
	}
	good := map[string][]string{
		FormatText:  {"", "plain\n\ttab ✓ 備考 📝 é\n", "invalid but not control \xff\xfe\n"},
		FormatJSON:  {"{}\n", `{"name":"\u001b[2K"}`},
		FormatJSONL: {"", report.ChainEventTag + `{"a":1}` + "\n"},
		FormatSARIF: {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"acg"}},"results":[]}]}`},
		FormatSVG:   {`<?xml version="1.0"?>` + "\n<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a &amp; b &#x1F4DD;</text></svg>\n"},
	}
	for format, inputs := range good {
		for _, in := range inputs {
			if err := Check(format, []byte(in)); err != nil {
				t.Errorf("%s: %q: %v", format, in, err)
			}
		}
	}
}

// An empty scan renders in every format and passes every check.
func TestCheckAllEmpty(t *testing.T) {
	out, err := CheckAll(report.NewDocument(&capgraph.Graph{}, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Formats {
		if _, ok := out[f]; !ok {
			t.Errorf("no %s output", f)
		}
	}
}

func TestNoSecrets(t *testing.T) {
	secret := "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	err := NoSecrets([]byte("token "+secret), "", secret)
	if err == nil {
		t.Fatal("secret not found")
	}
	if strings.Contains(err.Error(), secret) {
		t.Fatal("the error echoes the secret")
	}
	if NoSecrets([]byte("token ghp_***"), secret) != nil {
		t.Fatal("masked secret reported")
	}
}
