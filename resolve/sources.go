package resolve

import "github.com/acg-dev/acg/extract"

// resolveSources joins what the agent sources other than plain Python
// constructors say: MCP servers started from code, MCP client configs,
// Claude Code projects, and CrewAI crews. It runs after every Python
// agent's own tool list is resolved.
func (b *builder) resolveSources(files []*extract.File) {
	b.resolveCodeClients(files)
	b.resolveClients(files)
	b.resolveClaude(files)
	b.resolveCrews(files)
}
