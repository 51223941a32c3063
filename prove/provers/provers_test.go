package provers

import (
	"context"
	"testing"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/incremental"
)

func TestSelect(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("ACG_OPENGREP", "")
	t.Setenv("ACG_CODEQL", "")
	cases := []struct {
		engine   string
		builtin  bool
		external int
		err      bool
	}{
		{"builtin", true, 0, false},
		{"auto", true, 0, false},
		{"", true, 0, false},
		{"opengrep", false, 0, true},
		{"codeql", false, 0, true},
		{"semgrep", false, 0, true},
	}
	for _, c := range cases {
		sel, err := Select(c.engine, Settings{})
		if (err != nil) != c.err || sel.Builtin != c.builtin || len(sel.External) != c.external {
			t.Errorf("%q: %+v %v", c.engine, sel, err)
		}
	}
}

// TestFromConfig: .acg.yaml fills paths and rules the flags left empty and
// switches provers off for auto; a named engine ignores the switch.
func TestFromConfig(t *testing.T) {
	cfg, err := config.Parse(".acg.yaml", []byte("provers:\n  builtin: false\n  codeql: false\n  opengrep: {path: /opt/og/opengrep, rules: [rules/agents.yaml]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := Settings{}.FromConfig(cfg, "/ws")
	if s.Opengrep != "/opt/og/opengrep" || len(s.OpengrepRules) != 1 || s.OpengrepRules[0] != "/ws/rules/agents.yaml" || !s.Off["codeql"] || !s.Off["builtin"] || s.Off["opengrep"] {
		t.Fatalf("%+v", s)
	}
	if s := (Settings{Opengrep: "/bin/og"}).FromConfig(cfg, "/ws"); s.Opengrep != "/bin/og" {
		t.Errorf("the flag lost to the config: %q", s.Opengrep)
	}
	t.Setenv("PATH", t.TempDir())
	if sel, _ := Select("auto", s); sel.Builtin || len(sel.External) != 0 {
		t.Errorf("auto: %+v", sel)
	}
	if sel, _ := Select("builtin", s); !sel.Builtin {
		t.Errorf("named builtin: %+v", sel)
	}
}

// TestStore: stored flows are served while their files are unchanged, and
// dropped after an edit.
func TestStore(t *testing.T) {
	ctx := context.Background()
	snap, _, err := incremental.Load(ctx, "../../testdata/inbox", nil)
	if err != nil {
		t.Fatal(err)
	}
	flows := snap.Analyze().Flows
	if len(flows) == 0 {
		t.Fatal("no flows")
	}
	var s Store
	s.Put("opengrep", "tools.py", snap, flows)
	if got := s.Flows(snap); len(got) != len(flows) {
		t.Fatalf("%d flows, want %d", len(got), len(flows))
	}
	if Fingerprint(snap) == "" || Fingerprint(snap) != Fingerprint(snap.With(2, nil, nil)) {
		t.Error("fingerprint of an unchanged tree changed")
	}
	old := snap.File("tools.py")
	edited, err := incremental.NewFile(ctx, "tools.py", append(append([]byte{}, old.Src...), "\n# edited\n"...), nil)
	if err != nil {
		t.Fatal(err)
	}
	next := snap.With(2, []*incremental.File{edited}, nil)
	if got := s.Flows(next); len(got) != 0 {
		t.Errorf("%d stale flows served after an edit", len(got))
	}
	if Fingerprint(next) == Fingerprint(snap) {
		t.Error("fingerprint did not change with the tree")
	}
}
