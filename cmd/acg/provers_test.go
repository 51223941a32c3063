package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/prove/sarif"
	"github.com/acg-dev/acg/prove/standin"
)

// The test binary doubles as opengrep and codeql (package standin): neither
// can be installed here.
func TestMain(m *testing.M) {
	standin.Main()
	os.Exit(m.Run())
}

func TestDoctor(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var out, errb bytes.Buffer
	if code := doctor(nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "builtin   available") || !strings.Contains(out.String(), "opengrep  missing") || !strings.Contains(out.String(), "codeql    missing") {
		t.Errorf("without tools:\n%s", out.String())
	}
	t.Setenv("ACG_STANDIN", "opengrep")
	out.Reset()
	doctor([]string{"--opengrep", os.Args[0]}, &out, &errb)
	if !strings.Contains(out.String(), "opengrep  available  1.27.1 ("+os.Args[0]+")") {
		t.Errorf("with opengrep:\n%s", out.String())
	}
}

// TestScanEngineOpengrep runs `acg scan --engine opengrep` end to end with
// the stand-in replaying a log of the inbox's flows. That log is acg's own
// builtin output relabelled as Opengrep's (no real Opengrep run of the
// inbox exists); it checks the plumbing: external flows alone make the
// toxic-flow finding, credited to opengrep.
func TestScanEngineOpengrep(t *testing.T) {
	snap, _, err := incremental.Load(context.Background(), "../../testdata/inbox", nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := sarif.Write(snap.Analyze().Flows, "")
	rep.Runs[0].Tool.Driver.Name = "Opengrep OSS"
	var buf bytes.Buffer
	if err := rep.Write(&buf); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "inbox.sarif")
	if err := os.WriteFile(log, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("ACG_STANDIN", "opengrep")
	t.Setenv("ACG_STANDIN_SARIF", log)
	var out, errb bytes.Buffer
	code := scan(asProject([]string{"--format", "json", "--engine", "opengrep", "--opengrep", os.Args[0], "../../testdata/inbox"}), &out, &errb)
	if code != exitFindings {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"rule": "toxic-flow"`) || !strings.Contains(out.String(), `"decided_by": "opengrep"`) {
		t.Errorf("no toxic-flow from opengrep:\n%s", out.String())
	}
	// A named engine that is not installed is a usage error.
	t.Setenv("PATH", t.TempDir())
	if code := scan(asProject([]string{"--engine", "codeql", "../../testdata/inbox"}), &out, &errb); code != exitUsage {
		t.Errorf("missing codeql: exit %d", code)
	}
}
