// Package resolve is the resolution stage: it joins the facts of every file
// of a snapshot into the capability graph. It resolves names across files
// (only through imports; Index), turns tool-list expressions into tools
// (catalog classes, toolkits, plain functions, in-tree factories; a
// fail-closed unknown tool for what cannot be followed), reads graph state
// fields, and joins what other sources say: MCP servers started from code
// or client configs, Claude Code projects and plugins, CrewAI crews.
//
// Invariant: resolve reads extract facts only (never bytes or trees) and is
// a pure function of the set of files it is given; incremental decides
// which files form a group and when to build it again, recording every
// module lookup through Index.Rec.
package resolve
