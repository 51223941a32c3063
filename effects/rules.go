package effects

import (
	_ "embed"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/extract"
)

//go:embed rules.yaml
var rulesYAML []byte

// The npm ecosystem's rules (Node's modules and npm packages) are a file of
// their own, read with the PyPI one into one table: the qualified names of
// the two never meet (a JavaScript global is globalThis.X, a Python
// builtin builtins.X), so one lookup serves both front ends.
//
//go:embed rules_npm.yaml
var npmRulesYAML []byte

// Rules maps qualified call names to what they mean.
type Rules struct {
	kinds     map[string]string // exact qualified name -> kind
	methods   map[string]string // bare method name -> kind (similarity_search)
	returns   map[string]string
	mreturns  map[string]string
	purePfx   []string // module prefixes with no effects
	pureExact map[string]bool
	llm       map[string]bool
	owners    map[string]bool   // every dotted prefix of a listed call: types with listed methods
	attrs     map[string]string // typed attributes: pathlib.Path.parent -> pathlib.Path
	schemas   map[string]bool   // base classes of data-only schemas (pydantic.BaseModel)
	items     map[string]string // element types of typed sequences: pathlib.Path.parents -> pathlib.Path
	data      map[string]bool   // methods of plain values (str.strip, dict.get)
	// jsData are the methods of JavaScript's plain values (padStart,
	// forEach, push): they count only for calls in JavaScript/TypeScript
	// files, where a Python object's push() or map() is no array method.
	jsData map[string]bool
	// patterns are listed calls with a "*" segment standing for any one
	// member (a Prisma model: @prisma/client.PrismaClient.*.findMany).
	patterns []rulePattern
	// byName are generic calls that run the API method their first
	// argument names (slack_sdk's api_call("chat.postMessage")), by the
	// type whose methods those names are.
	byName map[string]string
	// runners are calls that run a callable they are handed with the
	// arguments after it (asyncio.to_thread(f, *args)): callee -> the
	// callable's position.
	runners map[string]int
}

type rulePattern struct {
	segs []string
	kind string
}

type rulesFile struct {
	Returns map[string]string `yaml:"returns"`
	Attrs   map[string]string `yaml:"attributes"`
	Items   map[string]string `yaml:"items"`
	Data    []string          `yaml:"data_methods"`
	// Ecosystem "npm" marks the JavaScript file: its data_methods are
	// JavaScript's (jsData).
	Ecosystem string              `yaml:"ecosystem"`
	JSData    []string            `yaml:"-"`
	Opaque    []string            `yaml:"opaque"`
	Calls     map[string][]string `yaml:"calls"`
	// Modules are packages whose export is itself the function called
	// (axios(config), got(url), execa(cmd)): a name without a dot that is
	// a module, not a method of every object as in calls.
	Modules map[string][]string `yaml:"modules"`
	LLM     []string            `yaml:"llm"`
	Schemas []string            `yaml:"schema_bases"`
	ByName  map[string]string   `yaml:"by_name"`
	Runners map[string]int      `yaml:"runs_callable"`
}

// kindRoles gives each kind its canonical role for the chain patterns.
var kindRoles = map[string]string{
	"http_read": "browse_url", "search": "browse_url", "http_send": "http_request", "agent_send": "http_request", "http_method": "http_request", "http_client": "http_request",
	"http_fetch": "http_request", "http_config": "http_request",
	"email_read": "read_email", "email_send": "send_email", "socket_recv": "http_request", "socket_send": "http_request",
	"exec": "shell_execute", "eval": "execute_code", "file_read": "read_file", "file_list": "list_directory",
	"file_write": "write_file", "file_delete": "write_file", "db_exec": "database_query", "db_fetch": "database_query",
	"db_write": "database_query", "db_delete": "database_query", "env_read": "read_env", "cloud_read": "s3_get", "cloud_write": "write_file",
	"cloud_send": "http_request", "vector_read": "vector_store_read", "vector_write": "vector_store_write",
	"memory_read": "read_memory", "memory_write": "update_memory", "git_push": "git_push", "browser": "browse_url",
	"http_delete": "http_request", "message_read": "read_email", "message_send": "send_email", "remote_write": "external_api",
	"remote_delete": "external_api", "remote_read": "external_api", "shared_read": "read_file", "payment": "external_api", "page_read": "browse_url", "page_action": "form_fill",
}

// LoadRules parses rules files into one table; the embedded ones are
// DefaultRules. A name that two files (or two kinds) give different
// meanings is an error.
func LoadRules(files ...[]byte) (*Rules, error) {
	var rf rulesFile
	for i, data := range files {
		var f rulesFile
		if err := yaml.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("rules (file %d): %w", i+1, err)
		}
		if err := rf.merge(&f); err != nil {
			return nil, err
		}
	}
	r := &Rules{kinds: map[string]string{}, methods: map[string]string{}, returns: map[string]string{},
		mreturns: map[string]string{}, pureExact: map[string]bool{}, llm: map[string]bool{}}
	for k, v := range rf.Returns {
		if strings.Contains(k, ".") {
			r.returns[k] = v
		} else {
			r.mreturns[k] = v
		}
	}
	for kind, names := range rf.Calls {
		for _, n := range names {
			switch {
			case kind == "pure" && strings.ToLower(n) == n && !strings.HasSuffix(n, ".*"):
				r.purePfx = append(r.purePfx, n)
			case kind == "pure":
				r.pureExact[n] = true
			case !strings.Contains(n, "."):
				r.methods[n] = kind
			case strings.Contains("."+n+".", ".*."):
				r.patterns = append(r.patterns, rulePattern{segs: strings.Split(n, "."), kind: kind})
			default:
				if prev, dup := r.kinds[n]; dup && prev != kind {
					return nil, fmt.Errorf("rules: %s is both %s and %s", n, prev, kind)
				}
				r.kinds[n] = kind
			}
		}
	}
	for kind, names := range rf.Modules {
		for _, n := range names {
			if prev, dup := r.kinds[n]; dup && prev != kind {
				return nil, fmt.Errorf("rules: %s is both %s and %s", n, prev, kind)
			}
			r.kinds[n] = kind
		}
	}
	for _, n := range rf.LLM {
		r.llm[n] = true
	}
	r.attrs = rf.Attrs
	r.schemas = map[string]bool{}
	for _, n := range rf.Schemas {
		r.schemas[n] = true
	}
	r.items = rf.Items
	r.byName = rf.ByName
	r.runners = rf.Runners
	r.data = map[string]bool{}
	for _, m := range rf.Data {
		r.data[m] = true
	}
	r.jsData = map[string]bool{}
	for _, m := range rf.JSData {
		r.jsData[m] = true
	}
	for k, v := range r.attrs {
		if k == v || !strings.Contains(k, ".") {
			return nil, fmt.Errorf("rules: attribute %s: %s is not a typed attribute", k, v)
		}
	}
	r.owners = map[string]bool{}
	for _, t := range rf.Opaque {
		r.owners[t] = true
	}
	for n := range r.kinds {
		for i := strings.LastIndexByte(n, '.'); i > 0; i = strings.LastIndexByte(n[:i], '.') {
			r.owners[n[:i]] = true
		}
	}
	return r, nil
}

// merge adds another rules file's entries.
func (rf *rulesFile) merge(o *rulesFile) error {
	var err error
	if rf.Returns, err = mergeMap("returns", rf.Returns, o.Returns); err != nil {
		return err
	}
	if rf.Attrs, err = mergeMap("attributes", rf.Attrs, o.Attrs); err != nil {
		return err
	}
	if rf.Items, err = mergeMap("items", rf.Items, o.Items); err != nil {
		return err
	}
	if rf.ByName, err = mergeMap("by_name", rf.ByName, o.ByName); err != nil {
		return err
	}
	if rf.Runners, err = mergeMap("runs_callable", rf.Runners, o.Runners); err != nil {
		return err
	}
	if o.Ecosystem == "npm" {
		rf.JSData = append(rf.JSData, o.Data...)
	} else {
		rf.Data = append(rf.Data, o.Data...)
	}
	rf.Opaque = append(rf.Opaque, o.Opaque...)
	rf.LLM = append(rf.LLM, o.LLM...)
	rf.Schemas = append(rf.Schemas, o.Schemas...)
	if rf.Calls == nil {
		rf.Calls = map[string][]string{}
	}
	for k, v := range o.Calls {
		rf.Calls[k] = append(rf.Calls[k], v...)
	}
	if rf.Modules == nil {
		rf.Modules = map[string][]string{}
	}
	for k, v := range o.Modules {
		rf.Modules[k] = append(rf.Modules[k], v...)
	}
	return nil
}

func mergeMap[V comparable](what string, a, b map[string]V) (map[string]V, error) {
	if a == nil {
		a = map[string]V{}
	}
	for k, v := range b {
		if prev, dup := a[k]; dup && prev != v {
			return nil, fmt.Errorf("rules: %s %s is both %v and %v", what, k, prev, v)
		}
		a[k] = v
	}
	return a, nil
}

var defaultRules = func() *Rules {
	r, err := LoadRules(rulesYAML, npmRulesYAML)
	if err != nil {
		panic(err) // the embedded file is checked by tests
	}
	return r
}()

// SchemaBase reports whether a qualified class name is a base of data-only
// schemas (pydantic.BaseModel, typing.TypedDict).
func (r *Rules) SchemaBase(qual string) bool { return r.schemas[qual] }

// DefaultRules returns the embedded call rules.
func DefaultRules() *Rules { return defaultRules }

// Normalize turns a call chain such as "pathlib.Path.home().read_text" into
// the typed name the rules use ("pathlib.Path.read_text").
func (r *Rules) Normalize(qual string) string {
	segs := strings.Split(qual, "().")
	cur := segs[0]
	for _, s := range segs[1:] {
		cur = r.returnType(cur) + "." + s
	}
	if strings.HasSuffix(cur, "()") {
		cur = r.returnType(strings.TrimSuffix(cur, "()"))
	}
	// Attributes of known types are typed too (pathlib.Path.parent is a
	// Path, pathlib.Path.suffix a str): the longest such prefix, a few times.
	for n := 0; n < 4; n++ {
		changed := false
		for i := strings.LastIndexByte(cur, '.'); i > 0; i = strings.LastIndexByte(cur[:i], '.') {
			if seq, ok := strings.CutSuffix(cur[:i], "[]"); ok {
				// An element of a typed sequence (Path.parents[2]).
				if t, ok := r.items[seq]; ok {
					cur, changed = t+cur[i:], true
					break
				}
			}
			if t, ok := r.attrs[cur[:i]]; ok {
				cur, changed = t+cur[i:], true
				break
			}
		}
		if !changed {
			break
		}
	}
	return cur
}

func (r *Rules) returnType(q string) string {
	if t, ok := r.returns[q]; ok {
		return t
	}
	// A method of a known type may be listed under that type.
	last := lastDot(q)
	if t, ok := r.mreturns[last]; ok {
		return t
	}
	if i := strings.LastIndexByte(q, '.'); i > 0 {
		owner := q[:i]
		if isClassName(lastDot(owner)) && (strings.HasPrefix(last, "from_") || last == "create" || last == "connect") {
			return owner // factory: SQLDatabase.from_uri() is an SQLDatabase
		}
	}
	if isClassName(last) {
		return q // an instance of the class
	}
	return q + "()"
}

func isClassName(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// Classify returns the kind of a call: a rule kind, "pure", "llm", "local"
// (resolve it in the tree) or "unknown".
func (r *Rules) Classify(c *extract.Call) (kind, name string) {
	switch c.HeadKind {
	case extract.HeadData:
		return r.dataCall(c.Method(), c.Qual, jsCall(c))
	case extract.HeadLocal, extract.HeadSelf:
		return "local", c.Qual
	}
	name = r.Normalize(c.Qual)
	if k := r.lookup(name); k != "" {
		return k, name
	}
	if i := strings.LastIndex(c.Qual, "[]."); i > 0 && strings.Contains(name, "[].") {
		// An element of a typed value whose element type is not listed.
		// Of what a known call returned (a read's response, a parsed
		// document: hist["Close"].to_string()), it is data like the
		// response itself; otherwise only data methods are pure.
		if inner, ok := strings.CutSuffix(c.Qual[:i], "()"); ok {
			ic := *c
			ic.Qual, ic.HeadKind = inner, extract.HeadObject
			if k, _ := r.Classify(&ic); k != "unknown" && !r.modelled(r.Normalize(inner)) {
				return "pure", name
			}
		}
		return r.dataCall(c.Method(), name, jsCall(c))
	}
	if raw := c.Qual; raw != name {
		if k := r.lookup(raw); k != "" {
			return k, name
		}
	}
	if c.HeadKind == extract.HeadBuiltin {
		return "pure", name
	}
	// A method on the result of a pure call (a parsed message, a built
	// request) reads that value: data. Not when the result has a modelled
	// type (a client whose methods are listed by name): a method the rules
	// do not list is unknown there (fail closed).
	if i := strings.LastIndex(c.Qual, "()."); i > 0 {
		recv := r.Normalize(c.Qual[:i])
		switch k := r.lookup(recv); {
		case k == "llm":
			return k, name
		case k != "" && !r.modelled(recv):
			// The value a pure call built, or the response a read
			// returned (search results' .get): data.
			return "pure", name
		}
	}
	if k, ok := r.methods[c.Method()]; ok && c.HeadKind == extract.HeadObject {
		return k, name
	}
	if via, ok := r.byName[name]; ok {
		// client.apiCall("search.messages", ...): the API method its first
		// argument names, when that is a literal.
		if a := c.ArgAt(0, "method"); a != nil && a.Lit != nil && *a.Lit != "" {
			rc := *c
			rc.Qual, rc.HeadKind = via+"."+*a.Lit, extract.HeadObject
			return r.Classify(&rc)
		}
	}
	if c.HeadKind == extract.HeadObject && jsCall(c) {
		if i := strings.LastIndex(c.Qual, "()."); i > 0 && strings.Contains(c.Qual[i+3:], ".") {
			// message.metadata.dateSent.toISOString() with message a
			// chat.Message: a member the rules do not model is a value of
			// unknown type, on which only data methods compute.
			return r.dataCall(c.Method(), name, true)
		}
	}
	return "unknown", name
}

// dataCall classifies a method called on a value whose type acg does not
// know. Only the methods of plain values (data_methods) compute on data; a
// method no builtin value has means the value is an object whose type was
// lost (a rebound global, an in-tree helper's result), and the call is
// unknown rather than pure.
func (r *Rules) dataCall(method, name string, js bool) (kind, _ string) {
	if k, ok := r.methods[method]; ok {
		return k, name
	}
	if r.data[method] || (js && r.jsData[method]) {
		return "pure", name
	}
	return "unknown", name
}

// CallableAt is the position of the callable a runner call is handed
// (runs_callable: asyncio.to_thread(requests.post, url) runs requests.post
// with url), by the call's raw or normalised callee; ok is false for any
// other call.
func (r *Rules) CallableAt(c *extract.Call) (int, bool) {
	if p, ok := r.runners[c.Qual]; ok {
		return p, true
	}
	p, ok := r.runners[r.Normalize(c.Qual)]
	return p, ok
}

// modelled reports whether a call's result has a type the rules list
// methods of (returns: a client constructor such as slack_sdk.WebClient).
func (r *Rules) modelled(callee string) bool {
	t, ok := r.returns[callee]
	return ok && r.owners[t]
}

func (r *Rules) lookup(name string) string {
	if k, ok := r.kinds[name]; ok {
		return k
	}
	if k := r.pattern(name); k != "" {
		return k
	}
	if _, ok := r.returns[name]; ok {
		return "pure" // a constructor or getter whose result's methods are listed
	}
	if strings.HasPrefix(name, "builtins.") && !strings.Contains(name[len("builtins."):], ".") {
		return "pure" // builtins not listed as calls (open, eval …) compute values
	}
	if r.llm[name] {
		return "llm"
	}
	if r.pureExact[name] {
		return "pure"
	}
	// The checks below run for every call no table names: they compare
	// without building strings (a cold scan makes this lookup for most
	// calls).
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		if r.pureStar(name[:i]) {
			return "pure" // every method of a value type (a response, a message), and of its parts
		}
	}
	for _, p := range r.purePfx {
		if name == p || dottedPrefix(name, p) {
			return "pure"
		}
	}
	// llm entries cover their clients' method chains (llm.Client.chat.completions.create).
	for k := range r.llm {
		if dottedPrefix(name, k) || (strings.HasSuffix(k, ".*") && strings.HasPrefix(name, k[:len(k)-1])) {
			return "llm"
		}
	}
	return ""
}

// pureStar reports "<prefix>.*" among the pure entries.
func (r *Rules) pureStar(prefix string) bool {
	var buf [128]byte
	if len(prefix)+2 > len(buf) {
		return r.pureExact[prefix+".*"]
	}
	b := append(append(buf[:0], prefix...), '.', '*')
	return r.pureExact[string(b)] // no allocation: the compiler looks up by the bytes
}

// dottedPrefix reports name = p + "." + something, without building the
// joined string: the lookup runs for every call the prover meets, against
// every listed prefix, and the concatenations were half of the builtin
// prover's time on a real repository.
func dottedPrefix(name, p string) bool {
	return len(name) > len(p) && name[len(p)] == '.' && strings.HasPrefix(name, p)
}

// pattern finds a listed call with "*" segments that name matches, segment
// for segment.
func (r *Rules) pattern(name string) string {
	if len(r.patterns) == 0 {
		return ""
	}
	segs := strings.Split(name, ".")
	for _, p := range r.patterns {
		if len(p.segs) != len(segs) {
			continue
		}
		ok := true
		for i, s := range p.segs {
			if s != "*" && s != segs[i] {
				ok = false
				break
			}
		}
		if ok {
			return p.kind
		}
	}
	return ""
}

// jsCall reports whether a call is in JavaScript or TypeScript source (by
// its file's extension), whose plain values have methods of their own.
func jsCall(c *extract.Call) bool {
	f := c.Loc.File
	if f == "" && c.Func != nil {
		f = c.Func.Loc.File
	}
	for _, e := range []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		if strings.HasSuffix(f, e) {
			return true
		}
	}
	return false
}
