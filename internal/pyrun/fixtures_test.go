package pyrun_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/acg-dev/acg/internal/pyrun"
)

// notPrograms are the fixtures that are deliberately not programs a
// framework can run, with the reason.
var notPrograms = map[string]string{
	"hostile/tools.py": "an invalid UTF-8 byte in a tool name: the scanner must survive it, Python refuses it",
	"hostile/agent.py": "imports hostile/tools.py",
	"google-adk/neg-functiontool-factory/calendar_tools.py": "FunctionTool.from_defaults is LlamaIndex's spelling, which ADK lacks (AttributeError), as in the real code it mirrors",
	"google-adk/neg-functiontool-factory/agent.py":          "imports calendar_tools.py",
}

// scripts are fixtures whose module body must not run in the check: only
// their imports run, and their framework calls are checked against the
// signatures.
var scripts = map[string]string{
	"claudecode/neg-ask-and-hook/.claude/hooks/check_url.py":        "a Claude Code hook: reads its event from stdin when run",
	"claudecode/neg-hook-asks/.claude/hooks/pre_tool_use.py":        "a Claude Code hook: reads its event from stdin when run",
	"claudecode/pos-hook-blocks-only/.claude/hooks/pre_tool_use.py": "a Claude Code hook: reads its event from stdin when run",
	"crewai/pos-task-tools/crew.py":                                 "starts an MCP server (npx) and kicks off the crew at import",
	"effects/pos-config-narrows/crew.py":                            "WebsiteSearchTool indexes its site at construction (network)",
	"effects/neg-hosted-config/hosted.py":                           "creates a hosted container with client.containers.create at import (network)",
	"effects/pos-hosted-config/hosted.py":                           "creates a hosted container with client.containers.create at import (network)",
	"effects/neg-toolkit-pick-by-name/agent.py":                     "GmailToolkit() reads credentials.json at construction",
	"effects/pos-toolkit-pick-by-name/agent.py":                     "GmailToolkit() reads credentials.json at construction",
	"effects/pos-sdk-read-send/agent.py":                            "builds Google API clients at import (application default credentials)",
	"effects/neg-attr-returned-client/agent.py":                     "builds a Gmail API client at import (application default credentials)",
	"effects/pos-attr-returned-unknown/agent.py":                    "builds a Gmail API client at import (application default credentials)",
	"langchain/pos-toolkit-agents/agent.py":                         "reads sales.csv into a dataframe at import",
}

// environments are the virtual environments the fixtures need: CrewAI's
// pins (mcp<2, openai<3) exclude openai-agents and mcp 2, so it has its own.
var environments = []string{"ACG_VENV_FRAMEWORKS", "ACG_VENV_CREWAI", "ACG_VENV_AUTH0"}

// TestFixturesAreRealPrograms: every Python fixture compiles, imports
// under the real, pinned frameworks with the network blocked, and calls
// only framework attributes that exist, with arguments their signatures
// accept. A fixture that uses an API the framework does not have is a bug
// in the fixture (issue 13).
func TestFixturesAreRealPrograms(t *testing.T) {
	if os.Getenv(pyrun.EnvVar) == "" {
		t.Skip(pyrun.ErrNoEnv)
	}
	root, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() && rel == "golden" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			if _, excluded := notPrograms[rel]; !excluded {
				files = append(files, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var importsOnly []string
	for rel := range scripts {
		importsOnly = append(importsOnly, rel)
	}
	for rel := range mergeKeys(notPrograms, scripts) {
		if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
			t.Errorf("exclusion %s: %v (drop it)", rel, err)
		}
	}
	verdicts := map[string][]pyrun.FileResult{}
	var envNames []string
	var missing []string
	for _, v := range environments {
		dir := os.Getenv(v)
		if dir == "" {
			missing = append(missing, v)
			continue
		}
		env, err := pyrun.FromVenv(dir)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		res, err := env.CheckFixtures(ctx, root, files, importsOnly)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		envNames = append(envNames, v)
		for _, r := range res {
			verdicts[r.File] = append(verdicts[r.File], r)
		}
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			// A fixture is a real program when one pinned environment runs
			// it: FastMCP v1 code (mcp.server.fastmcp) runs under mcp 1.x,
			// which CrewAI's environment has, and not under mcp 2.
			var ok bool
			var skips, fails []string
			for i, r := range verdicts[f] {
				switch r.Status {
				case "ok":
					ok = true
					if len(r.Stubbed) > 0 {
						t.Logf("stubbed (not frameworks, not installed): %s", strings.Join(r.Stubbed, ", "))
					}
				case "fail":
					fails = append(fails, fmt.Sprintf("%s: %s", envNames[i], r.Detail))
				default:
					skips = append(skips, r.Detail)
				}
			}
			if ok {
				for _, m := range fails {
					t.Logf("runs in another environment; %s", m)
				}
				return
			}
			for _, m := range fails {
				t.Error(m)
			}
			if !t.Failed() {
				if len(missing) > 0 {
					t.Skipf("%s; %s not set", strings.Join(skips, "; "), strings.Join(missing, ", "))
				}
				t.Errorf("no environment can run it: %s", strings.Join(skips, "; "))
			}
		})
	}
}

func mergeKeys(ms ...map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			out[k] = true
		}
	}
	return out
}
