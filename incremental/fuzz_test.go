package incremental_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/internal/fuzzseed"
	"github.com/acg-dev/acg/internal/outcheck"
	"github.com/acg-dev/acg/prove/builtin"
	"github.com/acg-dev/acg/report"
)

// The fuzzers feed arbitrary bytes through the whole pipeline that
// `acg scan` runs (extraction, resolution, effects, the capability graph,
// the builtin prover, the checks, the config) and check every output with
// outcheck: nothing panics, JSON and SARIF parse (SARIF against the
// schema), the SVG map is XML, text carries no control character.
// Their seed corpora in testdata/fuzz are the project's testdata (see
// TestWriteFuzzSeeds), so a plain `go test` runs them as a regression.
// Long runs: docs/testing.md.

// pipeline analyses the files as a scan of them would, from memory, and
// checks every output. shared files (already built) join the fuzzed ones.
func pipeline(t *testing.T, files map[string][]byte, shared ...*incremental.File) {
	t.Helper()
	ctx := context.Background()
	all := append([]*incremental.File(nil), shared...)
	for rel, src := range files {
		f, err := incremental.NewFile(ctx, rel, src, nil)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		all = append(all, checkFile(t, f))
	}
	res := incremental.NewSnapshot("/fuzz-root", 1, all).Analyze()
	doc := report.NewDocument(res.Graph, res.Findings)
	doc.Suppressed = res.Suppressed
	if _, err := outcheck.CheckAll(doc); err != nil {
		t.Fatal(err)
	}
}

// checkFile fails on what the analysis would hide: an extractor's panic
// becomes a skipped file and a prover's panic no flows, so that one bad
// file never takes a scan down; the fuzzer wants to see them.
func checkFile(t *testing.T, f *incremental.File) *incremental.File {
	t.Helper()
	if strings.HasPrefix(f.Skipped, "extraction failed") {
		t.Fatalf("%s: the extractor panicked: %s", f.Path, f.Skipped)
	}
	if f.Facts() != nil {
		builtin.Prove(f.Facts(), f.Src, "")
	}
	return f
}

// FuzzPython is one Python file of any content.
//
//	go test ./incremental -run '^$' -fuzz '^FuzzPython$' -fuzztime 30m
func FuzzPython(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte) {
		pipeline(t, map[string][]byte{"agent.py": src})
	})
}

// FuzzPythonPair is an agent module and the tools module it imports from,
// in one package, so that names resolve across files.
//
//	go test ./incremental -run '^$' -fuzz '^FuzzPythonPair$' -fuzztime 30m
func FuzzPythonPair(f *testing.F) {
	f.Fuzz(func(t *testing.T, agent, tools []byte) {
		pipeline(t, map[string][]byte{"app/__init__.py": nil, "app/agent.py": agent, "app/tools.py": tools})
	})
}

// configKinds are the paths of every config kind acg reads, each at its
// place in the companion workspace (testdata/combined, with the inbox
// demo under inbox/), which FuzzConfig's input replaces.
var configKinds = []string{
	".mcp.json",
	".vscode/mcp.json",
	".cursor/mcp.json",
	"claude_desktop_config.json",
	".claude/settings.json",
	".claude/agents/researcher.md",
	"crew/config/agents.yaml",
	"crew/config/tasks.yaml",
	".acg.yaml",
}

// kindOf is the configKinds index a testdata file seeds, or -1.
func kindOf(rel string) int {
	base := filepath.Base(rel)
	switch {
	case base == ".mcp.json":
		return 0
	case base == "mcp.json" && filepath.Base(filepath.Dir(rel)) == ".vscode":
		return 1
	case base == "mcp.json" && filepath.Base(filepath.Dir(rel)) == ".cursor":
		return 2
	case base == "claude_desktop_config.json":
		return 3
	case incremental.Kind(rel) == incremental.KindClaudeSettings:
		return 4
	case incremental.Kind(rel) == incremental.KindClaudeAgent:
		return 5
	case incremental.Kind(rel) == incremental.KindCrewYAML && strings.HasPrefix(base, "agents."):
		return 6
	case incremental.Kind(rel) == incremental.KindCrewYAML:
		return 7
	case base == ".acg.yaml":
		return 8
	}
	return -1
}

var companion struct {
	once  sync.Once
	files map[string]*incremental.File
	err   error
}

// companionFiles are the workspace every fuzzed config joins: configs of
// each kind that name each other's servers and agents, a crew, an MCP
// server and the inbox demo's agent and tools, so that a config changes
// findings. Built once and shared, as unchanged files are between
// snapshots.
func companionFiles(tb testing.TB) map[string]*incremental.File {
	companion.once.Do(func() {
		companion.files = map[string]*incremental.File{}
		for dir, under := range map[string]string{"../testdata/combined": "", "../testdata/inbox": "inbox/"} {
			err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				rel = under + filepath.ToSlash(rel)
				if incremental.Kind(rel) == "" {
					return nil
				}
				src, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				f, err := incremental.NewFile(context.Background(), rel, src, nil)
				companion.files[rel] = f
				return err
			})
			if err != nil {
				companion.err = err
				return
			}
		}
	})
	if companion.err != nil {
		tb.Fatal(companion.err)
	}
	return companion.files
}

// FuzzConfig is one config file of any kind (configKinds[kind]) and any
// content, in a workspace of the other kinds.
//
//	go test ./incremental -run '^$' -fuzz '^FuzzConfig$' -fuzztime 30m
func FuzzConfig(f *testing.F) {
	files := companionFiles(f)
	f.Fuzz(func(t *testing.T, kind int, src []byte) {
		if kind < 0 {
			kind = -(kind + 1)
		}
		rel := configKinds[kind%len(configKinds)]
		var shared []*incremental.File
		for p, cf := range files {
			if p != rel {
				shared = append(shared, cf)
			}
		}
		pipeline(t, map[string][]byte{rel: src}, shared...)
	})
}

// TestWriteFuzzSeeds writes the fuzzers' seed corpora from testdata: every
// Python file for FuzzPython, every agent and tools module pair for
// FuzzPythonPair, and every config file for FuzzConfig under its kind.
// Run it when testdata gains a case, and commit what it writes:
//
//	ACG_WRITE_FUZZ_SEEDS=1 go test ./incremental -run TestWriteFuzzSeeds
func TestWriteFuzzSeeds(t *testing.T) {
	if !fuzzseed.Wanted() {
		t.Skip("set ACG_WRITE_FUZZ_SEEDS=1 to rewrite testdata/fuzz")
	}
	seeds := map[string]map[string]string{"FuzzPython": {}, "FuzzPythonPair": {}, "FuzzConfig": {}}
	byDir := map[string][]string{} // directory → its Python files
	err := filepath.WalkDir("../testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "golden" {
				return filepath.SkipDir // outputs, not inputs
			}
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, "../testdata/"))
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name := fuzzseed.Name(rel)
		switch {
		case strings.HasSuffix(rel, ".py"):
			seeds["FuzzPython"][name] = fuzzseed.Encode(src)
			byDir[filepath.Dir(p)] = append(byDir[filepath.Dir(p)], p)
		case kindOf(rel) >= 0:
			seeds["FuzzConfig"][name] = fuzzseed.Encode(kindOf(rel), src)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, pys := range byDir {
		sort.Strings(pys)
		var tools string
		for _, p := range pys {
			if filepath.Base(p) == "tools.py" {
				tools = p
			}
		}
		if tools == "" {
			continue
		}
		toolSrc, _ := os.ReadFile(tools)
		for _, p := range pys {
			if p == tools || filepath.Base(p) == "__init__.py" {
				continue
			}
			src, _ := os.ReadFile(p)
			rel := filepath.ToSlash(strings.TrimPrefix(filepath.Join(dir, filepath.Base(p)), "../testdata/"))
			seeds["FuzzPythonPair"][fuzzseed.Name(rel)] = fuzzseed.Encode(src, toolSrc)
		}
	}
	for target, files := range seeds {
		if err := fuzzseed.Write("testdata", target, files); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d seeds", target, len(files))
	}
}
