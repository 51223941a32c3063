package incremental

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/resolve"
)

// agentFacts is what a fixture must resolve to: each agent by name with
// the names of its tools, the agents it reaches, and the tools whose use
// is gated.
type agentFacts struct {
	tools []string
	links []string
	gated []string
}

// facts reads the agents of a snapshot by name.
func facts(g *capgraph.Graph) map[string]agentFacts {
	out := map[string]agentFacts{}
	for _, a := range g.Agents {
		out[a.Name] = agentFacts{}
	}
	for _, u := range g.Uses {
		a, t := g.Agents[u.Agent], g.Tools[u.Tool]
		if a == nil || t == nil {
			continue
		}
		f := out[a.Name]
		f.tools = resolve.AppendUniq(f.tools, t.Name)
		if len(u.Gates) > 0 {
			f.gated = resolve.AppendUniq(f.gated, t.Name)
		}
		out[a.Name] = f
	}
	for _, l := range g.Links {
		from, to := g.Agents[l.From], g.Agents[l.To]
		if from == nil || to == nil {
			continue
		}
		f := out[from.Name]
		f.links = resolve.AppendUniq(f.links, to.Name)
		out[from.Name] = f
	}
	for n, f := range out {
		sort.Strings(f.tools)
		sort.Strings(f.links)
		sort.Strings(f.gated)
		out[n] = f
	}
	return out
}

// TestFixturesFindEveryAgent: the agent-finding fixtures of issue 11
// (negatives first): every agent is found, with exactly its tools, the
// agents it runs and the approvals that stand before its tools.
func TestFixturesFindEveryAgent(t *testing.T) {
	cases := []struct {
		dir  string
		want map[string]agentFacts
	}{
		{"openai-agents/neg-generic-agent", map[string]agentFacts{
			"notes":     {tools: []string{"count_words", "remember"}},
			"support":   {tools: []string{"count_words"}},
			"Assistant": {tools: []string{"count_words"}},
		}},
		{"openai-agents/pos-generic-agent", map[string]agentFacts{
			"desk": {tools: []string{"fetch_page", "post_webhook", "read_notes"}},
		}},
		{"langgraph/neg-fluent-builder", map[string]agentFacts{
			"graph": {tools: []string{"add", "chatbot"}},
		}},
		{"langgraph/pos-fluent-builder", map[string]agentFacts{
			"graph": {tools: []string{"chatbot", "fetch", "read_notes", "send_http"}},
		}},
		{"langgraph/neg-returned-builder-gated", map[string]agentFacts{
			"build_graph": {tools: []string{"chatbot", "fetch", "read_notes", "send_http"},
				gated: []string{"fetch", "read_notes", "send_http"}},
		}},
		{"langgraph/pos-returned-builder", map[string]agentFacts{
			"build_graph": {tools: []string{"chatbot", "fetch", "read_notes", "send_http"}},
		}},
		{"langgraph/pos-react-in-node", map[string]agentFacts{
			"workflow":   {tools: []string{"plan", "research"}, links: []string{"researcher"}},
			"researcher": {tools: []string{"fetch", "read_notes", "send_http"}},
		}},
		{"langgraph/pos-react-in-imported-node", map[string]agentFacts{
			"workflow":   {tools: []string{"research"}, links: []string{"researcher"}},
			"researcher": {tools: []string{"fetch", "read_notes", "send_http"}},
		}},
		{"langgraph/neg-langchain-react-in-node", map[string]agentFacts{
			"inbox":     {tools: []string{"assistant", "find_time", "read_email"}, links: []string{"agent"}},
			"agent":     {tools: []string{"list_events"}},
			"scheduler": {tools: []string{"list_events"}},
		}},
		{"langgraph/neg-method-nodes", map[string]agentFacts{
			"WorkFlow": {tools: []string{"check_new_emails", "summarise", "wait_next_run"}},
		}},
		{"langgraph/neg-dispatch-registry-imported-gated", map[string]agentFacts{
			"create_workflow": {tools: []string{"call_model", "run_sql", "search", "tool_node"}, gated: []string{"run_sql", "search"}},
		}},
		{"langchain/neg-mcp-client-in-code", map[string]agentFacts{
			"researcher": {tools: []string{"fetch", "tavily-crawl", "tavily-extract", "tavily-map", "tavily-search",
				"tavily_crawl", "tavily_extract", "tavily_map", "tavily_research", "tavily_search"}},
		}},
		{"langchain/pos-mcp-client-in-code", map[string]agentFacts{
			"assistant": {tools: []string{"create_directory", "crm/*", "directory_tree", "edit_file", "get_file_info",
				"list_allowed_directories", "list_directory", "list_directory_with_sizes", "move_file", "read_file",
				"read_media_file", "read_multiple_files", "read_text_file", "search_files", "write_file"}},
		}},
		{"langchain/neg-toolkit-agents", map[string]agentFacts{
			"json_agent": {tools: []string{"json_spec_get_value", "json_spec_list_keys"}},
		}},
		{"langchain/pos-toolkit-agents", map[string]agentFacts{
			"python_agent": {tools: []string{"Python_REPL"}},
			"frame_agent":  {tools: []string{"python_repl_ast"}},
			"csv_agent":    {tools: []string{"python_repl_ast"}},
			"sql_agent":    {tools: []string{"sql_db_list_tables", "sql_db_query", "sql_db_query_checker", "sql_db_schema"}},
		}},
		{"mcpconfig/neg-roo-confirms", map[string]agentFacts{
			"roo-code": {tools: []string{"create_directory", "directory_tree", "edit_file", "fetch", "get_file_info",
				"list_allowed_directories", "list_directory", "list_directory_with_sizes", "move_file", "read_file",
				"read_media_file", "read_multiple_files", "read_text_file", "search_files", "write_file"},
				gated: []string{"create_directory", "directory_tree", "edit_file", "fetch", "get_file_info",
					"list_allowed_directories", "list_directory_with_sizes", "move_file", "read_file",
					"read_media_file", "read_multiple_files", "read_text_file", "search_files", "write_file"}},
		}},
		{"langchain/neg-agent-executor", map[string]agentFacts{
			"executor":   {tools: []string{"multiply"}},
			"from_tools": {tools: []string{"multiply"}},
		}},
		{"langchain/pos-initialize-agent", map[string]agentFacts{
			"research_agent": {tools: []string{"fetch", "read_notes", "send_http"}},
		}},
		{"deepagents/neg-interrupt-on", map[string]agentFacts{
			"report_agent": {tools: []string{"send_report", "task", "web_search", "write_todos"},
				links: []string{"editor", "researcher"}, gated: []string{"send_report"}},
			"researcher": {tools: []string{"web_search"}},
			"editor":     {tools: []string{"send_report", "web_search"}, gated: []string{"send_report"}},
		}},
		{"deepagents/pos-subagent-ungated", map[string]agentFacts{
			"assistant": {tools: []string{"send_report", "task", "write_todos"}, links: []string{"mailer"}, gated: []string{"send_report"}},
			"mailer":    {tools: []string{"read_inbox", "send_report"}},
		}},
		{"deepagents/pos-subagents-from-factory", map[string]agentFacts{
			"writer": {tools: []string{"delete", "edit_file", "glob", "grep", "ls", "read_file", "task", "word_count", "write_file", "write_todos"},
				links: []string{"writer.subagent"}},
			"writer.subagent": {tools: []string{"delete", "edit_file", "glob", "grep", "ls", "read_file", "web_search", "write_file"}},
		}},
		{"factories/neg-literal-selection", map[string]agentFacts{
			"assistant": {tools: []string{"check_calendar", "write_email"}},
		}},
		{"factories/pos-literal-selection", map[string]agentFacts{
			"mail_assistant": {tools: []string{"fetch_emails_tool", "send_email_tool", "write_email"}},
			"drafts":         {tools: []string{"check_calendar", "schedule_meeting", "write_email"}},
		}},
		{"crewai/neg-commented-tool", map[string]agentFacts{
			"Researcher": {tools: []string{"Search the internet with Serper"}},
		}},
		{"crewai/pos-rag-subclass", map[string]agentFacts{
			"Researcher": {tools: []string{"Read website content", "publish", "team_docs"}},
		}},
		{"claudecode/neg-lenient-frontmatter", map[string]agentFacts{
			"doc-finder": {tools: []string{"Grep", "Read"}},
		}},
		{"claudecode/pos-lenient-frontmatter", map[string]agentFacts{
			"web-researcher": {tools: []string{"Bash", "Read", "WebFetch"}},
		}},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			s, warns := load(t, filepath.Join("..", "testdata", filepath.FromSlash(c.dir)))
			for _, w := range warns {
				t.Errorf("warning: %v", w)
			}
			res := s.Analyze()
			for _, p := range res.Problems {
				if strings.Contains(p.Message, "frontmatter") {
					t.Errorf("problem: %s", p.Message)
				}
			}
			got := facts(res.Graph)
			for name, w := range c.want {
				g, ok := got[name]
				if !ok {
					names := make([]string, 0, len(got))
					for n := range got {
						names = append(names, n)
					}
					sort.Strings(names)
					t.Errorf("agent %q not found among %v", name, names)
					continue
				}
				if strings.Join(g.tools, ",") != strings.Join(w.tools, ",") {
					t.Errorf("%s: tools %v, want %v", name, g.tools, w.tools)
				}
				if strings.Join(g.links, ",") != strings.Join(w.links, ",") {
					t.Errorf("%s: reaches %v, want %v", name, g.links, w.links)
				}
				if strings.Join(g.gated, ",") != strings.Join(w.gated, ",") {
					t.Errorf("%s: gated %v, want %v", name, g.gated, w.gated)
				}
			}
		})
	}
}

// TestFactoryMethodOfAClass: tools=Search.tools(), a method called on the
// class that defines the tools, is the list it returns.
func TestFactoryMethodOfAClass(t *testing.T) {
	root := writeTree(t, map[string]string{
		"tools/__init__.py": "",
		"tools/search.py": `import requests
from langchain.tools import tool

class Search:
    @tool
    def search(query: str):
        """Search."""
        return requests.get("https://s.example/", params={"q": query}, timeout=5).text

    @tool
    def similar(url: str):
        """Similar pages."""
        return requests.get("https://s.example/similar", params={"u": url}, timeout=5).text

    def tools():
        return [Search.search, Search.similar]
`,
		"agents.py": `from crewai import Agent
from tools.search import Search

analyst = Agent(role="Analyst", goal="g", backstory="b", tools=Search.tools())
`,
	})
	s, _ := load(t, root)
	got := facts(s.Analyze().Graph)["Analyst"].tools
	if strings.Join(got, ",") != "search,similar" {
		t.Errorf("tools %v, want search, similar", got)
	}
}

// TestToolkitHeldBySelf: self.toolkit.get_tools() where the class sets
// toolkit = FileManagementToolkit(selected_tools=[...]) is the selected
// tools of the kit, not an unknown call.
func TestToolkitHeldBySelf(t *testing.T) {
	root := writeTree(t, map[string]string{
		"crew.py": `from crewai import Agent
from crewai.project import CrewBase, agent
from langchain_community.agent_toolkits.file_management.toolkit import FileManagementToolkit

@CrewBase
class Builder:
    toolkit = FileManagementToolkit(root_dir="workdir", selected_tools=["read_file", "list_directory"])

    @agent
    def engineer(self) -> Agent:
        return Agent(role="Engineer", goal="g", backstory="b", tools=[] + self.toolkit.get_tools())
`,
	})
	s, _ := load(t, root)
	got := facts(s.Analyze().Graph)["Engineer"].tools
	if len(got) != 2 || strings.Contains(strings.Join(got, ","), "get_tools") {
		t.Errorf("tools %v, want the kit's read and list tools", got)
	}
}
