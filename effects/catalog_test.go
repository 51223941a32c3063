package effects

import "testing"

func TestEmbeddedDataLoads(t *testing.T) {
	c, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tools) < 100 || len(c.MCPServers) < 20 {
		t.Fatalf("catalog too small: %d tools, %d servers", len(c.Tools), len(c.MCPServers))
	}
	for _, tc := range []struct{ qual, name string }{
		{"langchain_community.tools.ShellTool", "terminal"},
		{"langchain_community.tools.shell.tool.ShellTool", "terminal"},
		{"agents.WebSearchTool", "web_search"},
		// LangChain.js community tools, keyed by their npm module.
		{"@langchain/community/tools/gmail.GmailSendMessage", "gmail_send_message"},
		{"@langchain/community/tools/google_calendar.GoogleCalendarViewTool", "google_calendar_view"},
		// A class of the same name in the Python package is the Python entry.
		{"langchain_community.tools.gmail.GmailSendMessage", "send_gmail_message"},
	} {
		if got := c.Tool(tc.qual); got == nil || got.Name != tc.name {
			t.Errorf("Tool(%q) = %+v, want name %q", tc.qual, got, tc.name)
		}
	}
	if c.Tool("mypkg.ShellTool") != nil {
		t.Error("a ShellTool from an unknown package must not match the catalog")
	}
	if _, err := LoadRules(rulesYAML); err != nil {
		t.Fatal(err)
	}
}

// TestHostedTypes: a hosted tool spec's type finds its entry exactly, or
// by the longest dated-version prefix; a client-run type finds nothing
// (it fails closed where the spec is used).
func TestHostedTypes(t *testing.T) {
	c := DefaultCatalog()
	cases := map[string]string{
		"web_search_20250305":           "anthropic",
		"web_fetch_20250910":            "anthropic",
		"web_search_preview":            "openai",
		"web_search_preview_2025_03_11": "openai",
		"file_search":                   "openai",
		"computer_use_preview":          "",
		"bash_20250124":                 "",
		"web_search_":                   "",
	}
	for typ, want := range cases {
		got := ""
		if h := c.Hosted(typ); h != nil {
			got = h.Provider
		}
		if got != want {
			t.Errorf("Hosted(%q) = %q, want %q", typ, got, want)
		}
	}
	if h := c.Hosted("web_search_preview_2025_03_11"); h == nil || h.Type != "web_search_preview_" {
		t.Errorf("the longest prefix should win, got %+v", h)
	}
}
