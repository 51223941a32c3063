package extract

import "sort"

// BindKind says how a name got its value.
type BindKind uint8

const (
	BindAssign BindKind = iota
	BindDef             // function definition
	BindClass           // class definition
	BindImport
	BindParam
	BindAppend // x.append(v), x.extend(v), x += v, x.attr.append(v)
	BindLoop   // for x in v / with v as x
)

// Binding is one assignment of a name in a scope, in source order.
type Binding struct {
	Name  string
	Kind  BindKind
	Value *Expr
	Func  *Func
	Class *Class
	Imp   *Import
	// Attr is set for appends to an attribute list: faq.handoffs.append(x)
	// binds "faq" with Attr "handoffs".
	Attr string
	Loc  Loc
	// Guards are the conditions under which the binding happens (the ifs
	// around it), outermost first.
	Guards []Guard
	// Unpacked is the right-hand side a tuple target takes element
	// UnpackIndex of (tools, client = await load_tools()); Value is nil then.
	Unpacked    *Expr
	UnpackIndex int
}

// Guard is a condition that must hold (or, Neg, fail) for code to run:
// `if include_gmail:` guards what its block binds. A factory resolved with
// literal arguments drops what a guard decided by them excludes.
type Guard struct {
	Cond *Expr
	Neg  bool
}

// Scope maps names to their bindings. Function scopes chain to the module.
type Scope struct {
	Parent   *Scope
	Func     *Func
	Bindings map[string][]*Binding
}

func NewScope(parent *Scope, fn *Func) *Scope {
	return &Scope{Parent: parent, Func: fn, Bindings: map[string][]*Binding{}}
}

func (s *Scope) Add(b *Binding) { s.Bindings[b.Name] = append(s.Bindings[b.Name], b) }

// Lookup returns the bindings of name in the nearest scope that binds it.
func (s *Scope) Lookup(name string) []*Binding {
	for sc := s; sc != nil; sc = sc.Parent {
		if bs := sc.Bindings[name]; len(bs) > 0 {
			return bs
		}
	}
	return nil
}

// Names returns the bound names in a stable order.
func (s *Scope) Names() []string {
	out := make([]string, 0, len(s.Bindings))
	for n := range s.Bindings {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Class is a class definition.
type Class struct {
	Name    string
	Bases   []*Expr
	Attrs   map[string]*Expr // class-level assignments (name: str = "...")
	Methods map[string]*Func
	Loc     Loc
	NameLoc Loc
	Scope   *Scope
	// Decorators of the class (@CrewBase …).
	Decorators []*Expr
	// AttrTypes are the types of attributes as written: class-level
	// annotations (`items: list[Draft]`), annotations and literals that
	// methods assign to self (`self.items = []` is "builtins.list").
	AttrTypes map[string]string
	SelfTypes map[string]string
	// SelfValues are the values any method stores in an attribute of self
	// (`self.tools = {...}` in __init__, `self.tools[k] = t`), in source
	// order: a read of self.tools elsewhere in the class is one of them.
	SelfValues map[string][]*Expr
}

// Param is a function parameter.
type Param struct {
	Name       string
	Annotation string
	Default    *Expr
	// DefaultCall is the dotted name a default value calls
	// (`client=httpx.Client()`: "httpx.Client"), read as the parameter's
	// type when nothing else gives one.
	DefaultCall string
	Loc         Loc
	// Injected marks parameters the framework fills in rather than the model
	// (self, RunnableConfig, ToolRuntime, InjectedState, RunContextWrapper,
	// MCP Context …): they do not carry model-chosen data.
	Injected bool
}

// Func is a function or method with its intra-procedural flow facts. The
// module body is represented as a Func named "<module>".
type Func struct {
	Name       string
	Qual       string // Class.method or outer.inner
	Class      string
	Async      bool
	Params     []Param
	Decorators []*Expr
	Loc        Loc // the whole definition (decorators excluded)
	NameLoc    Loc
	// Body is the span of the function body; BodyIndent is its indentation
	// and BodyInsert where a statement can go first (after a docstring).
	Body       Loc
	BodyIndent string
	BodyInsert Point
	Docstring  bool
	Scope      *Scope
	Calls      []*Call
	Returns    Flow
	// ReturnExprs are the returned expressions; ReturnType the annotation.
	// Routers name their targets there (return "tools", -> Literal["a","b"]).
	ReturnExprs []*Expr
	// ReturnGuards[i] are the guards of ReturnExprs[i].
	ReturnGuards [][]Guard
	ReturnType   string
	// Items are the string-keyed item assignments of the body
	// (spec["tools"] = [...]): a dict built up key by key.
	Items []Item
	// Gates are the calls in this body that ask a human (interrupt, elicit).
	Gates []*Call
	// AlwaysGates is true when a gate runs unconditionally before any
	// statement after it, so calling this function gates what follows.
	AlwaysGates bool
	// SelfApprovals are approvals the body asks for before it acts, in a
	// framework's own way (bodygate.go); a tool running this body has them.
	SelfApprovals []*Approval
	Parent        *Func
	ClassDef      *Class // the class of a method
	// StateReturned: the method stores a call's result in an attribute of
	// self that a method of the class returns, so what it fetched reaches
	// the model once the state is read back, whatever its caller does with
	// this call's own result.
	StateReturned bool
}

// Item is one assignment d[key] = value to a name: Key is the literal
// key, or "" with AnyKey when the key is computed (a cache filled under
// f"gmail_{user}"), which tells what values the container holds but not
// under which key.
type Item struct {
	Name, Key string
	AnyKey    bool
	Value     *Expr
	Loc       Loc
}

// HeadKind says what the first component of a callee refers to.
type HeadKind uint8

const (
	HeadUnknown HeadKind = iota // a name bound nowhere we can see
	HeadImport                  // Qual is module-qualified
	HeadLocal                   // a def or class of this file: Qual is its name
	HeadSelf                    // self.method(): Qual is Class.method
	HeadBuiltin                 // Qual is builtins.<name>
	HeadObject                  // method on a local object built by a known call: Qual is "<ctor>().method"
	HeadData                    // method on plain data (a parameter, a literal): str/list/dict methods
)

// Call is one call site with the flows into its arguments.
//
// The small fields (HeadKind and the flags) are together, so they share a
// word: there is a Call per call site of every file.
type Call struct {
	Index    int
	Func     *Func
	Qual     string
	HeadKind HeadKind
	// Returned is set when the call's result reaches a return of its function.
	Returned bool
	// Gate is set when this call itself asks a human (see isGateCall).
	Gate bool
	// BuildsAgent is set when the call constructs an agent a framework
	// adapter found (create_react_agent(...) inside a node): running the
	// result runs that agent, whose own tools say what it can do.
	BuildsAgent bool
	// RunsTool is set on a graph node's dispatch of a tool the model chose
	// (tools_by_name[call["name"]].invoke(args), see dispatch.go): it runs
	// one of the agent's own tools, whose effects are those tools'.
	RunsTool bool
	Expr     *Expr
	Args     []Arg
	Recv     Flow
	// Dom is the index of the nearest call that always runs before this one
	// (-1 if none). Following Dom links gives every dominating call, which is
	// how an approval gate before an action is recognised.
	Dom        int
	ReturnStep *Step
	// ReturnFields are the attributes of the call's value that reach a
	// return when only attributes of it do (cfg.signature returned, the
	// rest of cfg used to configure); nil when the whole value reaches one.
	ReturnFields []string
	AssignedTo   string
	Loc          Loc
}

// Arg is one argument of a call.
type Arg struct {
	Kw   string // keyword, or "" for positional
	Pos  int    // position among positionals, -1 for keywords
	Flow Flow
	// Lit is the value of a plain string literal; Prefix the constant text a
	// string expression starts with (f-strings, concatenations).
	Lit    *string
	Prefix string
	Const  bool // no flow at all: literals and containers of literals
	Loc    Loc
}

// Origin is where a value came from: a parameter or a call result, with the
// assignment steps it took on the way.
type Origin struct {
	Param int // index into Func.Params, or -1
	Call  int // index into Func.Calls, or -1
	// Key is the field of a parameter the value was read from
	// (state["email"], state.email, state.get("email")), "" for the whole
	// parameter. A graph node's state fields are told apart by it: a field
	// only the graph's input fills carries no model-produced data.
	Key  string
	Step *Step
}

// Step is one hop of a flow, linked backwards to the previous hop.
type Step struct {
	Loc  Loc
	Msg  string
	Prev *Step
}

// Steps returns the chain from its first hop to s.
func (s *Step) Steps() []*Step {
	var out []*Step
	for p := s; p != nil; p = p.Prev {
		out = append(out, p)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Flow is a set of origins.
type Flow []Origin

func (f Flow) has(o Origin) bool {
	for _, x := range f {
		if x.Param == o.Param && x.Call == o.Call && x.Key == o.Key {
			return true
		}
	}
	return false
}

func Union(a, b Flow) Flow {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make(Flow, len(a), len(a)+len(b))
	copy(out, a)
	for _, o := range b {
		if !out.has(o) {
			out = append(out, o)
		}
	}
	return out
}

// Params returns the indices of parameters in the flow, each once.
func (f Flow) Params() []int {
	var out []int
	seen := map[int]bool{}
	for _, o := range f {
		if o.Param >= 0 && !seen[o.Param] {
			seen[o.Param] = true
			out = append(out, o.Param)
		}
	}
	return out
}

// field narrows the whole-parameter origins of a flow to one field of the
// parameter: the flow of state["key"] given the flow of state. Origins
// already narrowed keep their first field (state["email"]["id"] is the
// email field), and call results are whole values.
func (f Flow) Field(key string) Flow {
	narrow := false
	for _, o := range f {
		if o.Param >= 0 && o.Key == "" {
			narrow = true
		}
	}
	if !narrow || key == "" {
		return f
	}
	var out Flow
	for _, o := range f {
		if o.Param >= 0 && o.Key == "" {
			o.Key = key
		}
		if !out.has(o) {
			out = append(out, o)
		}
	}
	return out
}

// Attr is Field for an attribute read (x.name): it narrows call results
// too, so that which attributes of a call's value reach a return is known
// (settings.model_name handed to a model factory, settings.signature
// returned: Call.ReturnFields). Readers of call origins that ignore Key
// see the same calls as before.
func (f Flow) Attr(key string) Flow {
	out := f.Field(key)
	narrow := false
	for _, o := range out {
		if o.Call >= 0 && o.Param < 0 && o.Key == "" {
			narrow = true
		}
	}
	if !narrow || key == "" {
		return out
	}
	var res Flow
	for _, o := range out {
		if o.Call >= 0 && o.Param < 0 && o.Key == "" {
			o.Key = key
		}
		if !res.has(o) {
			res = append(res, o)
		}
	}
	return res
}

// Calls returns the indices of calls whose results are in the flow.
func (f Flow) Calls() []int {
	var out []int
	for _, o := range f {
		if o.Call >= 0 {
			out = append(out, o.Call)
		}
	}
	return out
}

// Dominators returns the calls that always run before c, nearest first.
func (c *Call) Dominators() []*Call {
	var out []*Call
	for i := c.Dom; i >= 0 && i < len(c.Func.Calls); i = c.Func.Calls[i].Dom {
		out = append(out, c.Func.Calls[i])
	}
	return out
}

// Method returns the last dotted component of the callee.
func (c *Call) Method() string { return LastDot(c.Qual) }

// ArgAt returns the keyword argument kw, else positional pos.
func (c *Call) ArgAt(pos int, kw string) *Arg {
	if kw != "" {
		for i := range c.Args {
			if c.Args[i].Kw == kw {
				return &c.Args[i]
			}
		}
	}
	for i := range c.Args {
		if c.Args[i].Kw == "" && c.Args[i].Pos == pos {
			return &c.Args[i]
		}
	}
	return nil
}

func LastDot(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return s[i+1:]
		}
	}
	return s
}
