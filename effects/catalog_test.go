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
