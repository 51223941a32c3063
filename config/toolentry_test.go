package config

import (
	"strings"
	"testing"
)

// TestToolEntryEdit: the entry the quick fix writes parses once its reason
// is filled, declares the proven labels and leaves the assumed ones as
// comments (absent), wherever the file stands; the placeholder is an error.
func TestToolEntryEdit(t *testing.T) {
	assumed := []AssumedLabel{{"executes_code", "calls shelve.move, whose effects are unknown"}, {"writes_state", "line\nbreak"}}
	for name, src := range map[string]string{
		"missing":      "",
		"comments":     "# acg settings\n",
		"no tools":     "version: 1\nseverity_threshold: low",
		"empty tools":  "version: 1\ntools:\n",
		"tools listed": "version: 1\ntools:\n    - tool: other\n      effects: []\n      reason: checked by hand\nsuppressions: []\n",
		"crlf":         "version: 1\r\ntools:\r\n  - tool: other\r\n    effects: []\r\n    reason: checked\r\n",
	} {
		e, err := ToolEntryEdit([]byte(src), "tools.py#archive", "archive", []string{"network_egress"}, assumed)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e.Text[e.ReasonOffset:e.ReasonOffset+len(ReasonPlaceholder)] != ReasonPlaceholder {
			t.Fatalf("%s: ReasonOffset does not point at the placeholder:\n%s", name, e.Text)
		}
		out := src[:e.Offset] + e.Text + src[e.Offset:]
		if _, err := Parse(FileName, []byte(out)); err == nil || !strings.Contains(err.Error(), "placeholder") {
			t.Errorf("%s: the placeholder reason must be an error, got %v:\n%s", name, err, out)
		}
		filled := src[:e.Offset] + e.Text[:e.ReasonOffset] + "reads only its own bucket" + e.Text[e.ReasonOffset+len(ReasonPlaceholder):] + src[e.Offset:]
		c, err := Parse(FileName, []byte(filled))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, filled)
		}
		os := c.Overrides("tools.py#archive", "archive")
		if len(os) != 1 || !os[0].Complete || len(os[0].Effects) != 1 || !os[0].Effects["network_egress"] {
			t.Errorf("%s: override %+v\n%s", name, os, filled)
		}
		if !strings.Contains(filled, "# - executes_code  # assumed (fail-closed default): calls shelve.move") || !strings.Contains(filled, ": line break") {
			t.Errorf("%s: the assumed labels are not named:\n%s", name, filled)
		}
	}
	// Nothing proven: the list holds only comments, which declares no
	// effects at all.
	e, _ := ToolEntryEdit(nil, "t", "", nil, assumed)
	filled := e.Text[:e.ReasonOffset] + "pure" + e.Text[e.ReasonOffset+len(ReasonPlaceholder):]
	c, err := Parse(FileName, []byte(filled))
	if err != nil || len(c.Tools) != 1 || !c.Tools[0].Complete || len(c.Tools[0].Effects) != 0 {
		t.Errorf("nothing proven: %+v %v\n%s", c, err, filled)
	}
	if _, err := ToolEntryEdit([]byte("tools: [ ]\n"), "t", "", nil, nil); err == nil {
		t.Error("a flow list cannot take the entry")
	}
	if _, err := ToolEntryEdit([]byte("tools: [\n"), "t", "", nil, nil); err == nil {
		t.Error("a config that does not parse")
	}
}
