package policy

import "testing"

func TestInTestCode(t *testing.T) {
	for p, want := range map[string]bool{
		"tests/helpers.py": true, "pkg/tests/agent.py": true, "tests/demo.ipynb": true, "notebooks/demo.ipynb": false, "test_agent.py": true, "pkg/agent_test.py": true,
		"conftest.py": true, "web/__tests__/agent.ts": true, "web/agent.test.ts": true, "web/agent.spec.tsx": true,
		`tests\win.py`: true,
		// Names that only resemble tests are production.
		"contest.py": false, "testing_tools.py": false, "latest.py": false, "attest/agent.py": false,
		"tests.py": false, "test.py": false, "web/agent.ts": false, "web/test.ts": false, "agent.py": false,
	} {
		if got := InTestCode(p); got != want {
			t.Errorf("InTestCode(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestForTests: a finding in test code is info (and marked) unless tests
// are included; the analysis' finding is never changed; a threshold drops
// what falls below it after the change.
func TestForTests(t *testing.T) {
	prod := &Finding{ID: "p", Severity: Critical, Location: Location{File: "app/agent.py"}}
	test := &Finding{ID: "t", Severity: Critical, Location: Location{File: "tests/agent.py"}}
	fs := []*Finding{prod, test}
	got := ForTests(fs, false, "")
	if len(got) != 2 || got[0] != prod || got[1].Severity != Info || !got[1].TestCode {
		t.Fatalf("default: %+v", got)
	}
	if test.Severity != Critical || test.TestCode {
		t.Error("ForTests changed the analysis' finding")
	}
	got = ForTests(fs, true, "")
	if len(got) != 2 || got[1].Severity != Critical || !got[1].TestCode {
		t.Errorf("--include-tests: %+v", got[1])
	}
	if got = ForTests(fs, false, "low"); len(got) != 1 || got[0] != prod {
		t.Errorf("threshold low keeps info findings: %+v", got)
	}
	if Info.Rank() >= Low.Rank() {
		t.Error("info must rank below low: it fails no scan")
	}
}

// TestHops: a step names a long handoff path by its ends, not in full.
func TestHops(t *testing.T) {
	if got := hops([]string{"a", "b", "c"}); got != "a → b → c" {
		t.Errorf("short path: %q", got)
	}
	long := []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"}
	if got := hops(long); got != "a1 → a2 → … 4 more … → a7 → a8" {
		t.Errorf("long path: %q", got)
	}
}
