package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSemgrepEngine runs the real Semgrep ($ACG_VENV_SEMGREP): acg doctor
// names it, its version and what auto runs; `acg scan --engine semgrep`
// on the demo reports the toxic-flow proven by semgrep; --engine auto takes
// it when there is no Opengrep.
func TestSemgrepEngine(t *testing.T) {
	venv := os.Getenv("ACG_VENV_SEMGREP")
	if venv == "" {
		t.Skip("ACG_VENV_SEMGREP is not set: run scripts/test.sh, or scripts/pyenv.sh semgrep and export ACG_VENV_SEMGREP=$PWD/.venvs/semgrep")
	}
	prog := filepath.Join(venv, "bin", "semgrep")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("ACG_OPENGREP", "")
	t.Setenv("ACG_CODEQL", "")
	t.Setenv("ACG_SEMGREP", "")
	t.Setenv("ACG_CONFIG", filepath.Join(t.TempDir(), "none.yaml"))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var out, errb bytes.Buffer
	doctor([]string{"--semgrep", prog}, &out, &errb)
	for _, want := range []string{"semgrep   available  1.185.0 (" + prog + ")", "opengrep  missing", "auto runs: builtin, semgrep"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("doctor lacks %q:\n%s%s", want, out.String(), errb.String())
		}
	}
	demo, _ := filepath.Abs("../../testdata/inbox")
	for _, engine := range []string{"semgrep", "auto"} {
		t.Setenv("ACG_SEMGREP", prog) // the environment names it this time
		out.Reset()
		errb.Reset()
		code := scan([]string{"--engine", engine, "--format", "json", "--root", demo, demo}, &out, &errb)
		if code != exitFindings {
			t.Fatalf("%s: exit %d: %s", engine, code, errb.String())
		}
		var doc struct {
			Findings []struct {
				Rule      string `json:"rule"`
				DecidedBy string `json:"decided_by"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		var by []string
		for _, f := range doc.Findings {
			if f.Rule == "toxic-flow" {
				by = append(by, f.DecidedBy)
			}
		}
		want := "semgrep"
		if engine == "auto" {
			want = "builtin" // the builtin engine's flow is merged first
		}
		if len(by) != 1 || by[0] != want {
			t.Errorf("%s: toxic-flow decided by %v, want %s\n%s", engine, by, want, errb.String())
		}
	}
}
