package incremental

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/extract"
)

// File kinds beyond Python: MCP client configs, Claude Code settings and
// subagents, and crews' YAML configs. Each has its own extractor; what
// they say is joined with the Python facts when a snapshot is resolved.
const (
	KindMCPConfig      = "mcp-config"
	KindClaudeSettings = "claude-settings"
	KindClaudeAgent    = "claude-agent"
	KindCrewYAML       = "crew-yaml"
)

func init() {
	RegisterKind(func(rel string) string {
		switch {
		case extract.MCPClientOf(rel) != "":
			return KindMCPConfig
		case extract.ClaudeFileKind(rel) == "settings":
			return KindClaudeSettings
		case extract.ClaudeFileKind(rel) == "agent":
			return KindClaudeAgent
		case extract.CrewYAMLKind(rel) != "":
			return KindCrewYAML
		}
		return ""
	})
	noTree := func(x func(string, []byte) *extract.File) Extractor {
		return func(rel string, src []byte, _ *sitter.Tree) *extract.File { return x(rel, src) }
	}
	RegisterExtractor(KindMCPConfig, noTree(extract.MCPConfig))
	RegisterExtractor(KindClaudeSettings, noTree(extract.ClaudeSettingsFile))
	RegisterExtractor(KindClaudeAgent, noTree(extract.ClaudeAgentFile))
	RegisterExtractor(KindCrewYAML, noTree(extract.CrewYAML))
}
