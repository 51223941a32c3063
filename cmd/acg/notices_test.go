package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// incompleteTree is the inbox demo plus input acg cannot read: a file
// over the size limit, a binary one and an .mcp.json that does not parse.
func incompleteTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"agent.py", "tools.py", "__init__.py"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/inbox", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big := "x = 1\n" + strings.Repeat("#", 2<<20)
	for name, body := range map[string]string{
		"big.py":    big,
		"bin.py":    "\x00\x01binary",
		".mcp.json": `{"mcpServers": {"web": {"command": "npx", "args": [}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var wantNotices = map[string]string{"big.py": "too-large", "bin.py": "binary", ".mcp.json": "parse-error"}

// TestSkippedInputIsReported: skipped files and a config that does not
// parse are notices in JSON, SARIF and text, and the scan exits 3 under
// the default --fail-on even with no finding at or above it.
func TestSkippedInputIsReported(t *testing.T) {
	dir := incompleteTree(t)

	out, errs, code := run(t, dir, "--format", "json", "--fail-on", "none")
	if code != exitOK {
		t.Errorf("--fail-on none: exit %d, want 0: %s", code, errs)
	}
	var doc struct {
		Notices []struct{ File, Kind, Message string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, n := range doc.Notices {
		got[n.File] = n.Kind
		if n.Message == "" {
			t.Errorf("notice for %s has no message", n.File)
		}
	}
	for file, kind := range wantNotices {
		if got[file] != kind {
			t.Errorf("json: notice for %s = %q, want %q (all: %+v)", file, got[file], kind, doc.Notices)
		}
	}

	out, _, _ = run(t, dir, "--format", "sarif", "--fail-on", "none")
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Level     string
					Message   struct{ Text string }
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						} `json:"physicalLocation"`
					}
				} `json:"toolExecutionNotifications"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("sarif: %d invocations, want 1", len(log.Runs[0].Invocations))
	}
	seen := map[string]string{}
	for _, n := range log.Runs[0].Invocations[0].Notifications {
		if len(n.Locations) != 1 || n.Message.Text == "" || (n.Level != "warning" && n.Level != "error") {
			t.Errorf("sarif: malformed notification %+v", n)
			continue
		}
		seen[n.Locations[0].PhysicalLocation.ArtifactLocation.URI] = n.Level
	}
	for file := range wantNotices {
		if seen[file] == "" {
			t.Errorf("sarif: no toolExecutionNotification for %s (%v)", file, seen)
		}
	}

	// Text: a notices section, never "no findings" alone, exit 3.
	inboxFixed := t.TempDir()
	for _, name := range []string{"agent.py", "tools.py", "__init__.py"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/inbox-fixed", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(inboxFixed, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(inboxFixed, ".mcp.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = run(t, inboxFixed)
	if code != exitIncomplete {
		t.Errorf("text: exit %d, want %d (input incomplete): %s", code, exitIncomplete, errs)
	}
	if !strings.Contains(out, "notices") || !strings.Contains(out, ".mcp.json:1:") {
		t.Errorf("text output lacks the notices section:\n%s", out)
	}
	last := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
	if strings.Contains(last, "no findings") && !strings.Contains(last, "not read") {
		t.Errorf("summary says no findings without the notice: %q", last)
	}

	// A finding at or above --fail-on still exits 1.
	if _, _, code := run(t, dir); code != exitFindings {
		t.Errorf("findings and notices: exit %d, want %d", code, exitFindings)
	}
}

// TestMaxFileSize: the size limit is an option.
func TestMaxFileSize(t *testing.T) {
	dir := incompleteTree(t)
	out, errs, code := run(t, dir, "--format", "json", "--fail-on", "none", "--max-file-size", "3MB")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, `"file": "big.py",`+"\n      \"kind\": \"too-large\"") || strings.Contains(out, `"too-large"`) {
		t.Errorf("--max-file-size 3MB still skips big.py:\n%s", out)
	}
	out, _, _ = run(t, dir, "--format", "json", "--fail-on", "none", "--max-file-size", "1000")
	if !strings.Contains(out, `"kind": "too-large"`) || !strings.Contains(out, `"file": "agent.py"`) {
		t.Errorf("--max-file-size 1000 does not skip agent.py:\n%s", out)
	}
	for _, bad := range []string{"-1", "big", "0"} {
		if _, errs, code := run(t, dir, "--max-file-size", bad); code != exitUsage || !strings.Contains(errs, "--max-file-size") {
			t.Errorf("--max-file-size %s: exit %d, %s", bad, code, errs)
		}
	}
}
