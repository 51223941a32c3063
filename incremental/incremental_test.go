package incremental

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// writeTree writes files under a temporary root.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, s := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func load(t *testing.T, root string) (*Snapshot, []Warning) {
	t.Helper()
	s, w, err := Load(context.Background(), root, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, w
}

const toolsPy = `
import requests
from langchain_core.tools import tool

@tool
def send_http(url: str, body: str) -> str:
    """POST."""
    return str(requests.post(url, data=body).status_code)
`

// usesOf returns the tool ids an agent uses.
func usesOf(s *Snapshot, agent string) []string {
	var out []string
	for _, u := range s.Analyze().Graph.Uses {
		if strings.HasSuffix(u.Agent, "#"+agent) {
			out = append(out, u.Tool)
		}
	}
	sort.Strings(out)
	return out
}

func TestImportsResolveAcrossFiles(t *testing.T) {
	cases := map[string]string{
		"from":          "from app.tools import send_http\nagent = create_react_agent('m', [send_http])\n",
		"relative":      "from .tools import send_http\nagent = create_react_agent('m', [send_http])\n",
		"module alias":  "import app.tools as t\nagent = create_react_agent('m', [t.send_http])\n",
		"from package":  "from app import tools\nagent = create_react_agent('m', [tools.send_http])\n",
		"function list": "from .tools import send_http\ndef build():\n    ts = [send_http]\n    return create_react_agent('m', ts)\n",
	}
	for name, agent := range cases {
		t.Run(name, func(t *testing.T) {
			root := writeTree(t, map[string]string{
				"src/app/__init__.py": "",
				"src/app/tools.py":    toolsPy,
				"src/app/agent.py":    "from langgraph.prebuilt import create_react_agent\n" + agent,
			})
			s, _ := load(t, root)
			want := "src/app/tools.py#send_http"
			ag := "agent"
			if name == "function list" {
				ag = "build"
			}
			if got := usesOf(s, ag); len(got) != 1 || got[0] != want {
				t.Errorf("uses = %v, want [%s]", got, want)
			}
		})
	}
}

func TestUnrelatedNamesNeverConnect(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a/tools.py": toolsPy,
		// b uses a name it never imports: it must not bind to a/tools.py.
		"b/agent.py": "from langgraph.prebuilt import create_react_agent\nagent = create_react_agent('m', [send_http])\n",
	})
	s, _ := load(t, root)
	uses := usesOf(s, "agent")
	if len(uses) != 1 || strings.Contains(uses[0], "a/tools.py") {
		t.Fatalf("uses = %v: the undefined name must become an unknown tool, not a/tools.py's", uses)
	}
	for _, tl := range s.Analyze().Graph.Tools {
		if tl.ID == uses[0] && tl.Effects.Get("network_egress").DecidedBy != "default" {
			t.Errorf("an unresolved tool fails closed (default), got %s", tl.Effects.Get("network_egress").DecidedBy)
		}
	}
}

func TestBadFilesAreSkippedWithWarnings(t *testing.T) {
	big := strings.Repeat("# padding line\n", MaxFileSize/14+10)
	root := writeTree(t, map[string]string{
		"ok.py":     toolsPy,
		"binary.py": "import os\x00\x01\x02",
		"huge.py":   big,
		"broken.py": "def f(:\n  pass\n",
	})
	s, warns := load(t, root)
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.String())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"binary.py: skipped: binary content", "huge.py: skipped:"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings %q lack %q", joined, want)
		}
	}
	if f := s.File("broken.py"); f == nil || f.Facts() == nil || len(f.Facts().Problems) == 0 {
		t.Error("a file with a syntax error is extracted and its problem kept")
	}
	if s.File("ok.py").Facts() == nil || len(s.File("ok.py").Facts().Tools) != 1 {
		t.Error("good files are unaffected")
	}
}

func TestSnapshotWithSharesUnchangedFiles(t *testing.T) {
	root := writeTree(t, map[string]string{"a.py": toolsPy, "b.py": "x = 1\n"})
	s, _ := load(t, root)
	nb, err := NewFile(context.Background(), "b.py", []byte("y = 2\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	s2 := s.With(2, []*File{nb}, nil)
	if s2.File("a.py") != s.File("a.py") {
		t.Error("unchanged files are shared between snapshots")
	}
	if s.File("b.py") == s2.File("b.py") || string(s.File("b.py").Src) != "x = 1\n" {
		t.Error("the old snapshot is not changed")
	}
	s3 := s2.With(3, nil, []string{"a.py"})
	if s3.File("a.py") != nil || len(s3.Files()) != 1 {
		t.Error("removed files are gone")
	}
}

func TestParameterResolvesThroughCallsInTheFile(t *testing.T) {
	root := writeTree(t, map[string]string{"main.py": `
from agents import Agent
from agents.mcp import MCPServer, MCPServerStdio

async def run(mcp_server: MCPServer):
    agent = Agent(name="Assistant", mcp_servers=[mcp_server])

async def main():
    async with MCPServerStdio(params={"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}) as server:
        await run(server)
`})
	s, _ := load(t, root)
	uses := usesOf(s, "Assistant")
	if len(uses) < 5 {
		t.Fatalf("uses = %v: the filesystem server's tools, through run(server)", uses)
	}
	for _, u := range uses {
		if strings.Contains(u, "?") {
			t.Errorf("unresolved member %s", u)
		}
	}
}

func TestToolsDefinedAsMethodsOfAPlainClass(t *testing.T) {
	root := writeTree(t, map[string]string{
		"tools/browser.py": `
import os, requests
from langchain.tools import tool

class BrowserTools():
    @tool("Scrape website content")
    def scrape(website):
        """Scrape a page."""
        url = f"https://chrome.browserless.io/content?token={os.environ['TOKEN']}"
        return requests.request("POST", url, data=website).text
`,
		"agents.py": `
from crewai import Agent
from tools.browser import BrowserTools

researcher = Agent(role="Researcher", goal="g", backstory="b", tools=[BrowserTools.scrape])
`})
	s, _ := load(t, root)
	uses := usesOf(s, "Researcher")
	if len(uses) != 1 || uses[0] != "tools/browser.py#scrape" {
		t.Fatalf("uses = %v, want the decorated method", uses)
	}
	e := s.Analyze().Graph.Tools[uses[0]].Effects
	if e.Has("reads_private") {
		t.Error("the token in the request URL does not come back in the response")
	}
	if !e.Has("untrusted_input") || !e.Has("network_egress") {
		t.Error("the page comes back (untrusted) and the model's URL goes out (egress)")
	}
}

func TestAgentsBuiltByMethodsOfAHelperClass(t *testing.T) {
	root := writeTree(t, map[string]string{
		"agents.py": `
from crewai import Agent
from crewai_tools import ScrapeWebsiteTool

class ResearchAgents():
    def researcher(self):
        return Agent(role="Researcher", goal="g", backstory="b", tools=[ScrapeWebsiteTool()])
`,
		"main.py": `
from crewai import Crew
from agents import ResearchAgents

agents = ResearchAgents()
researcher = agents.researcher()
crew = Crew(agents=[researcher], tasks=[])
`})
	s, _ := load(t, root)
	for id, tl := range s.Analyze().Graph.Tools {
		if strings.Contains(id, "?") {
			t.Errorf("unresolved member %s (%s)", id, tl.Name)
		}
	}
}
