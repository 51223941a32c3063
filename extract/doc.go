// Package extract holds the language-neutral facts every front end produces
// (File, Func, Call, Flow, Scope, Expr, Tool, Agent, Approval, Graph,
// MCPServer, CrewFacts) and the readers of the files that are not code:
// MCP client configs, agent client settings, Claude Code settings, subagents
// and plugins, crew YAML, hook scripts.
//
// Invariant: nothing here parses a programming language. A language front
// end (extract/python; extract/typescript) turns one file into a *File and
// runs its framework adapters; everything after extraction (incremental,
// effects, capgraph, policy) reads these facts only.
package extract
