package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseIgnore(t *testing.T) {
	tests := []struct {
		in     string
		ok     bool
		rules  []string
		reason string
		err    string
	}{
		{"# acg: ignore[rule-of-two] webhook is ours", true, []string{"rule-of-two"}, "webhook is ours", ""},
		{"#acg:ignore[rule-of-two, missing-approval]   sandboxed ", true, []string{"rule-of-two", "missing-approval"}, "sandboxed", ""},
		{"# noqa: E501  # acg: ignore[toxic-flow] fixed upstream", true, []string{"toxic-flow"}, "fixed upstream", ""},
		{"# acg: ignore[rule-of-two]", true, []string{"rule-of-two"}, "", "a reason is required"},
		{"# acg: ignore[rule-of-two]   ", true, []string{"rule-of-two"}, "", "a reason is required"},
		{"# acg: ignore[rule-of-two] reason", true, nil, "", `replace "reason" with the reason`},
		{"# acg: ignore because", true, nil, "", "write the rules in brackets"},
		{"# acg: ignore[] why", true, nil, "", "name the rule"},
		{"# acg: ignore[rule-of-two why", true, nil, "", "no closing bracket"},
		{"# acg: ignore[Rule Of Two] why", true, nil, "", `"Rule Of Two" is not a rule name`},
		{"# a plain comment", false, nil, "", ""},
		{"# acg: the agent graph", false, nil, "", ""},
		{"# acg: ignored[x] y", false, nil, "", ""},
	}
	for _, tt := range tests {
		ig, ok, err := ParseIgnore(tt.in)
		if ok != tt.ok {
			t.Errorf("%q: ok=%v", tt.in, ok)
			continue
		}
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if ok && (!reflect.DeepEqual(ig.Rules, tt.rules) || ig.Reason != tt.reason) {
			t.Errorf("%q: got %+v", tt.in, ig)
		}
	}
}

const src = `import x

# why: reviewed
# acg: ignore[rule-of-two] reviewed
agent = create(  # acg: ignore[missing-approval] gated by proxy
    tools=[a],
)

y = \
    create(tools=[b])

# acg: ignore[rule-of-two] not adjacent

z = create()
`

func TestApplies(t *testing.T) {
	lines := Lines([]byte(src))
	tests := []struct {
		comment, finding int
		want             bool
	}{
		{4, 5, true},    // directly above
		{5, 5, true},    // trailing
		{5, 6, false},   // trailing on another line
		{12, 14, false}, // a blank line breaks the block
		{9, 10, true},   // continuation: the logical line starts at 9
	}
	for _, tt := range tests {
		if got := Applies(lines, tt.comment, tt.finding); got != tt.want {
			t.Errorf("comment %d finding %d: %v", tt.comment, tt.finding, got)
		}
	}
	// Line 3 is in the comment block above line 5, so position alone
	// covers it; whether it is an ignore comment is ParseIgnore's job.
	if !Applies(lines, 3, 5) {
		t.Error("comment block above not walked")
	}
}

func TestIgnoreEdit(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		reason    string
		want      Edit
	}{
		{"top level", "a = 1\nagent = f()\n", 2, "", Edit{Line: 2, Text: "# acg: ignore[rule-of-two] \n", ReasonOffset: 27}},
		{"indented", "def f():\n    agent = g()\n", 2, "ours", Edit{Line: 2, Text: "    # acg: ignore[rule-of-two] ours\n", ReasonOffset: 31}},
		{"continuation", "x = \\\n  g()\n", 2, "", Edit{Line: 1, Text: "# acg: ignore[rule-of-two] \n", ReasonOffset: 27}},
		{"crlf", "a = 1\r\n\tb = 2\r\n", 2, "", Edit{Line: 2, Text: "\t# acg: ignore[rule-of-two] \r\n", ReasonOffset: 28}},
		{"line past the end", "a = 1", 9, "", Edit{Line: 1, Text: "# acg: ignore[rule-of-two] \n", ReasonOffset: 27}},
	}
	for _, tt := range tests {
		got := IgnoreEdit([]byte(tt.src), tt.line, "rule-of-two", tt.reason)
		if got != tt.want {
			t.Errorf("%s: got %+v want %+v", tt.name, got, tt.want)
		}
		// The edit, applied, must itself parse as the suppression it means.
		if tt.reason != "" {
			ig, ok, err := ParseIgnore(strings.TrimSpace(got.Text))
			if !ok || err != nil || !ig.Covers("rule-of-two") || ig.Reason != tt.reason {
				t.Errorf("%s: edit does not parse back: %+v %v", tt.name, ig, err)
			}
		}
	}
}
