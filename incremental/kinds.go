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
	// Claude Code plugins: plugin.json / marketplace.json, and the
	// agents/*.md and hooks/hooks.json that count only beside a plugin.json.
	KindClaudePlugin      = "claude-plugin"
	KindClaudePluginAgent = "claude-plugin-agent"
	KindClaudePluginHooks = "claude-plugin-hooks"
	// KindHookScript is a script under .claude/ that a Claude Code hook
	// can run (Python ones are KindPython and read the same way): only
	// what it can answer is kept (extract/hooks.go).
	KindHookScript = "claude-hook-script"
	// KindInstructions is a file a client loads as instructions into
	// every session (AGENTS.md, CLAUDE.md, .cursorrules …): only its
	// hidden instructions are kept (tool-poisoning).
	KindInstructions = "agent-instructions"
	// KindModuleConfig is a module-resolution config of JavaScript and
	// TypeScript (tsconfig.json, package.json, pnpm-workspace.yaml): read
	// by resolve when an import names a package or a path alias.
	KindModuleConfig = "module-config"
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
		case extract.ClaudePluginKind(rel) == "plugin" || extract.ClaudePluginKind(rel) == "marketplace":
			return KindClaudePlugin
		case extract.ClaudePluginKind(rel) == "agent":
			return KindClaudePluginAgent
		case extract.ClaudePluginKind(rel) == "hooks":
			return KindClaudePluginHooks
		case extract.CrewYAMLKind(rel) != "":
			return KindCrewYAML
		case extract.IsHookScript(rel):
			return KindHookScript
		case extract.InstructionReader(rel) != "":
			return KindInstructions
		case extract.ModuleConfigKind(rel) != "":
			return KindModuleConfig
		}
		return ""
	})
	noTree := func(x func(string, []byte) *extract.File) Extractor {
		return func(rel string, src []byte, _ *sitter.Tree) *extract.File { return x(rel, src) }
	}
	RegisterExtractor(KindMCPConfig, noTree(extract.MCPConfig))
	RegisterExtractor(KindClaudeSettings, noTree(extract.ClaudeSettingsFile))
	// A subagent's prompt is model-facing text (tool-poisoning).
	subagent := func(x func(string, []byte) *extract.File) Extractor {
		return noTree(func(rel string, src []byte) *extract.File {
			f := x(rel, src)
			extract.SubagentText(f, src)
			return f
		})
	}
	RegisterExtractor(KindClaudeAgent, subagent(extract.ClaudeAgentFile))
	RegisterExtractor(KindCrewYAML, noTree(extract.CrewYAML))
	RegisterExtractor(KindClaudePlugin, noTree(extract.ClaudePluginFile))
	RegisterExtractor(KindClaudePluginAgent, subagent(extract.ClaudePluginAgentFile))
	RegisterExtractor(KindClaudePluginHooks, noTree(extract.ClaudeSettingsFile))
	RegisterExtractor(KindHookScript, noTree(extract.HookScriptFile))
	RegisterExtractor(KindInstructions, noTree(extract.InstructionFile))
	RegisterExtractor(KindModuleConfig, noTree(func(rel string, src []byte) *extract.File {
		f := extract.ModuleConfigFile(rel, src)
		f.Keys = extract.ModuleConfigKeys(f)
		return f
	}))
}
