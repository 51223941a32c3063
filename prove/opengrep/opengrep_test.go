package opengrep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/standin"
)

// The test binary doubles as the Opengrep stand-in (see package standin):
// Opengrep itself cannot be installed here.
func TestMain(m *testing.M) {
	standin.Main()
	os.Exit(m.Run())
}

// standIn points a runner at this test binary acting as opengrep, replaying
// a real sample, and returns the argv log.
func standIn(t *testing.T, sample string) (*Runner, string) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("../../testdata/sarif", sample))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "argv.log")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // bundled rules and packs are written there
	t.Setenv("ACG_STANDIN", "opengrep")
	t.Setenv("ACG_STANDIN_SARIF", abs)
	t.Setenv("ACG_STANDIN_LOG", log)
	return &Runner{Binary: os.Args[0]}, log
}

func workspace(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("def f():\n    a = source1()\n    sink1(a)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestRunReplaysRealSample(t *testing.T) {
	r, log := standIn(t, "opengrep-py-taint-dataflow-traces.sarif")
	root := workspace(t, "targets/taint/taint.py")
	var progress []prove.Progress
	fls, err := r.Run(context.Background(), prove.Request{Root: root, Files: []string{"targets/taint/taint.py"},
		Progress: func(p prove.Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(fls) != 1 || fls[0].Tool != "opengrep" || len(fls[0].Steps) != 4 || fls[0].Sink.Loc.Start.Line != 9 {
		t.Fatalf("flows: %+v", fls)
	}
	argv, _ := os.ReadFile(log)
	rules, _ := r.rules()
	if want := strings.Join(Args([]string{rules}, []string{"targets/taint/taint.py"}), " ") + "\n"; string(argv) != want {
		t.Errorf("argv %q, want %q", argv, want)
	}
	if len(progress) != 2 || !progress[1].Done {
		t.Errorf("progress: %+v", progress)
	}
}

func TestVersion(t *testing.T) {
	r, _ := standIn(t, "opengrep-cpp-taint-trace.sarif")
	v, err := r.Version(context.Background())
	if err != nil || v != "1.27.1" {
		t.Fatalf("%q %v", v, err)
	}
}

// TestCancel: a scan that hangs stops when the context ends (the file
// changed again) and when the timeout passes.
func TestCancel(t *testing.T) {
	r, _ := standIn(t, "opengrep-py-taint-dataflow-traces.sarif")
	t.Setenv("ACG_STANDIN_SLEEP", "60s")
	root := workspace(t, "a.py")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	if _, err := r.Run(ctx, prove.Request{Root: root, Files: []string{"a.py"}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	r.Timeout = 200 * time.Millisecond
	if _, err := r.Run(context.Background(), prove.Request{Root: root, Files: []string{"a.py"}}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("timeout: %v", err)
	}
}

// TestToolError: a failing run is an error that says why (the stand-in
// refuses a target that does not exist).
func TestToolError(t *testing.T) {
	r, _ := standIn(t, "opengrep-py-taint-dataflow-traces.sarif")
	_, err := r.Run(context.Background(), prove.Request{Root: t.TempDir(), Files: []string{"missing.py"}})
	if err == nil || !strings.Contains(err.Error(), "missing.py") {
		t.Fatalf("error %v", err)
	}
}

func TestFind(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Find(""); err == nil {
		t.Error("found opengrep on an empty PATH")
	}
	if _, err := Find(filepath.Join(t.TempDir(), "opengrep")); err == nil {
		t.Error("found a missing binary")
	}
	if r, err := Find(os.Args[0]); err != nil || r.Binary != os.Args[0] {
		t.Errorf("%v %v", r, err)
	}
}

// TestBundledRules checks the rules' shape (the real Opengrep cannot load
// them here): taint mode, Python, tagged ends, sources and sinks.
func TestBundledRules(t *testing.T) {
	data, err := bundled.ReadFile("rules/agent-taint.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rules []struct {
			ID        string           `yaml:"id"`
			Mode      string           `yaml:"mode"`
			Languages []string         `yaml:"languages"`
			Severity  string           `yaml:"severity"`
			Message   string           `yaml:"message"`
			Metadata  map[string]any   `yaml:"metadata"`
			Sources   []map[string]any `yaml:"pattern-sources"`
			Sinks     []map[string]any `yaml:"pattern-sinks"`
		} `yaml:"rules"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, r := range doc.Rules {
		if r.Mode != "taint" || len(r.Languages) != 1 || r.Languages[0] != "python" || r.Message == "" || len(r.Sources) == 0 || len(r.Sinks) == 0 {
			t.Errorf("%s: incomplete rule", r.ID)
		}
		switch r.Severity {
		case "ERROR", "WARNING", "INFO":
		default:
			t.Errorf("%s: severity %q", r.ID, r.Severity)
		}
		var src, sink string
		tags, _ := r.Metadata["tags"].([]any)
		for _, tg := range tags {
			s, _ := tg.(string)
			if v, ok := strings.CutPrefix(s, "acg-source:"); ok {
				src = v
			}
			if v, ok := strings.CutPrefix(s, "acg-sink:"); ok {
				sink = v
			}
		}
		if r.ID != "acg-"+src+"-to-"+sink {
			t.Errorf("%s: tags say %s to %s", r.ID, src, sink)
		}
		kinds[src+">"+sink] = true
	}
	for _, k := range []string{"untrusted>return", "param>egress", "param>exec", "param>write", "untrusted>egress"} {
		if !kinds[k] {
			t.Errorf("no rule for %s", k)
		}
	}
}
