// Package incremental owns the workspace: the files of a scan root, the
// front end that reads each (by kind), their extracted facts keyed by
// content, immutable snapshots, and the scheduling of analysis: which files
// form a group that resolve builds together (components.go) and which
// groups an edit invalidates. The CLI and the language server analyse
// snapshots with the same pipeline (extract → resolve → effects → capgraph
// → policy).
//
// Invariant: no framework meaning lives here; what a tool list, a crew, a
// client config or an MCP server means is package resolve's.
package incremental
