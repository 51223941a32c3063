package extract

// Point is a position in a file. Line and Col are 1-based; Col counts UTF-16
// code units (the SARIF and LSP default), Byte is the 0-based byte offset in
// the file so that consumers negotiating UTF-8 can convert exactly.
type Point struct {
	Line int32 `json:"line"`
	Col  int32 `json:"column"`
	Byte int32 `json:"-"`
}

// Loc is a source range in one file, with the path relative to the scan root.
type Loc struct {
	File  string `json:"file"`
	Start Point  `json:"start"`
	End   Point  `json:"end"`
}

// Valid reports whether the location points somewhere.
func (l Loc) Valid() bool { return l.File != "" && l.Start.Line > 0 }

// Lang is the kind of input a file holds.
type Lang string

const (
	LangPython Lang = "python"
	// LangTypeScript and LangJavaScript are the files of the TypeScript
	// front end (extract/typescript): .ts/.tsx and .js/.jsx/.mjs/.cjs.
	LangTypeScript Lang = "typescript"
	LangJavaScript Lang = "javascript"
	LangJSON       Lang = "json"
	LangTOML       Lang = "toml"
	LangMarkdown   Lang = "markdown"
	LangYAML       Lang = "yaml"
	// LangText is a file read as text only (a hook script in shell or
	// JavaScript: see hooks.go).
	LangText Lang = "text"
)

// Code reports a programming language some front end reads (as opposed to
// a config or a text file).
func (l Lang) Code() bool {
	return l == LangPython || l == LangTypeScript || l == LangJavaScript
}

// File holds everything extracted from one file. It is a pure function of the
// file's path and bytes: nothing in it refers to other files except through
// unresolved references (Import, Ref).
type File struct {
	Path   string `json:"path"`
	Lang   Lang   `json:"lang"`
	Module string `json:"module,omitempty"` // dotted Python module name derived from the path
	// Package is the dotted package that relative imports start from.
	Package string `json:"package,omitempty"`
	// Keys are the names resolve finds this file under as a module (the
	// front end's registered key rule: docs/architecture.md "Front ends").
	Keys []string `json:"-"`

	Imports []Import `json:"imports,omitempty"`
	// ReExports are the modules whose every named export this file
	// exports too (TypeScript's export * from "./x"), as import names.
	ReExports []string          `json:"-"`
	Scope     *Scope            `json:"-"` // module scope: assignments, defs
	Funcs     []*Func           `json:"-"` // every function and method, in source order
	Classes   map[string]*Class `json:"-"`
	// TypeNames are the names the module declares as types only
	// (TypeScript type aliases and interfaces): erased at run time, so a
	// value typed by one has no methods of its own.
	TypeNames map[string]bool `json:"-"`
	Tools     []*Tool         `json:"tools,omitempty"`
	Agents    []*Agent        `json:"agents,omitempty"`
	Graphs    []*Graph        `json:"-"`
	// Compiles are builder.compile(...) calls on a graph builder made
	// elsewhere (a function imported from another file that returns one):
	// the workspace joins them to the agent of that builder.
	Compiles []*Compile `json:"-"`
	Problems []Problem  `json:"problems,omitempty"`

	// Servers are MCP servers: defined in code (FastMCP, low-level Server)
	// or started by a client (config entries, MCPServerStdio(...)).
	Servers []*MCPServer `json:"-"`
	// Client is set for an MCP client config file (.mcp.json, .vscode/mcp.json …).
	Client *Client `json:"-"`
	// Claude holds a Claude Code settings file; Subagent a .claude/agents/*.md.
	Claude   *ClaudeSettings `json:"-"`
	Subagent *Subagent       `json:"-"`
	// Plugin is set for a Claude Code plugin's plugin.json or a
	// marketplace.json.
	Plugin *ClaudePlugin `json:"-"`
	// Modules is set for a module-resolution config of JavaScript and
	// TypeScript (tsconfig.json, package.json, pnpm-workspace.yaml).
	Modules *ModuleConfig `json:"-"`
	// Crew holds CrewAI facts: crews, tasks, @CrewBase classes, tool hooks,
	// and the agents/tasks of a YAML config file.
	Crew *CrewFacts `json:"-"`
	// Hook is what the file can answer when a Claude Code hook runs it
	// (set for Python files and hook scripts under .claude/).
	Hook *HookScript `json:"-"`
	// Poison are hidden instructions in the file's model-facing text
	// (poisontext.go): tool docstrings and descriptions, subagent prompts,
	// instruction files.
	Poison []PoisonHit `json:"-"`

	// Source line starts, for position conversion by consumers.
	Lines []int `json:"-"`
}

// Problem is something about the file that limited extraction, such as a
// syntax error. It never stops extraction: tree-sitter recovers and we take
// what it recovered.
type Problem struct {
	Loc     Loc    `json:"loc"`
	Message string `json:"message"`
	// Syntax marks what the parser could not read in source code: the
	// facts come from its recovered tree and may miss what the damage hid.
	Syntax bool `json:"syntax,omitempty"`
	// Unread says that what the problem is about was left out of the
	// analysis (a notebook cell acg could not read): it is reported as a
	// notice (a code file's syntax errors are one notice per file).
	Unread bool `json:"unread,omitempty"`
}

// Import binds a local name to a module or to a symbol of a module.
// `import a.b as c` gives {Local:"c", Module:"a.b"}; `from .m import x as y`
// gives {Local:"y", Module:"m", Level:1, Symbol:"x"}.
type Import struct {
	Local  string `json:"local"`
	Module string `json:"module"`
	Symbol string `json:"symbol,omitempty"`
	Level  int    `json:"level,omitempty"` // leading dots of a relative import
	Loc    Loc    `json:"-"`
}

// Qualified returns the dotted name the import denotes, without resolving
// relative levels.
func (im Import) Qualified() string {
	if im.Symbol == "" {
		return im.Module
	}
	if im.Module == "" {
		return im.Symbol
	}
	return im.Module + "." + im.Symbol
}

// Compile is a compile(...) call on a builder this file does not build.
type Compile struct {
	// Builder is the call that returns the builder (build_graph()).
	Builder *Expr
	// Approvals and Checkpoint are what the compile call sets
	// (interrupt_before/after, checkpointer).
	Approvals  []*Approval
	Checkpoint bool
	Loc        Loc
}
