package effects

import (
	"fmt"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// decision decides what one call contributes to a tool's effects.
type decision struct {
	a        *Analyzer
	e        *Effects
	c        *extract.Call
	kind     string
	name     string
	mask     uint64   // parameters carrying model-chosen data
	priv     privMask // parameters carrying private data the caller read
	depth    int
	returned bool // the call's result reaches the model
	gated    bool
	gateLoc  extract.Loc
	via      []extract.Loc
	urlPos   int // position of the URL argument: 1 after a method (requests.request(method, url))
}

func (d *decision) ev(l Label, role, detail string, steps *extract.Step) {
	ev := Evidence{Label: l, Kind: d.kind, Role: role, Loc: d.c.Loc, Detail: detail, Gated: d.gated,
		GateLoc: d.gateLoc, Via: d.via, Call: d.c}
	_, ev.ModelData = d.data()
	if steps != nil {
		ev.Steps = steps.Steps()
		if last := ev.Steps[len(ev.Steps)-1]; last.Msg != "returned" && last.Msg != "yielded" {
			// Flows into a call end at the call.
			ev.Steps = append(ev.Steps, &extract.Step{Loc: d.c.Loc, Msg: "reaches " + d.name, Prev: last})
		}
	}
	by := ByRules
	if d.kind == "unknown" {
		by = ByDefault
	}
	d.e.add(ev, by)
}

// data reports whether any argument or the receiver carries model-chosen data.
func (d *decision) data() (*extract.Step, bool) {
	for _, a := range d.c.Args {
		if s := callerStep(a.Flow, d.mask); s != nil || carries(a.Flow, d.mask) {
			return s, true
		}
	}
	if s := callerStep(d.c.Recv, d.mask); s != nil {
		return s, true
	}
	return nil, false
}

func (d *decision) retStep() *extract.Step { return d.c.ReturnStep }

func (d *decision) decide() {
	n := d.name
	role := kindRoles[d.kind]
	switch d.kind {
	case "pure", "llm":
	case "http_read", "browser":
		d.read(n)
	case "search":
		d.search(n)
	case "http_send":
		d.send(n, "sends model-chosen data with "+n)
	case "agent_send":
		d.agentSend(n)
	case "http_delete":
		d.delete(n)
	case "http_method":
		d.urlPos = 1
		m := ""
		if a := d.c.ArgAt(0, "method"); a != nil && a.Lit != nil {
			m = strings.ToUpper(*a.Lit)
		}
		switch m {
		case "GET", "HEAD", "OPTIONS":
			d.kind = "http_read"
			d.read(n + "(" + m + ")")
		case "DELETE":
			d.kind = "http_delete"
			d.delete(n + "(DELETE)")
		case "":
			// A method chosen at run time may be DELETE: fail closed.
			d.kind = "http_send"
			d.send(n, "sends model-chosen data with "+n+" (a computed method)")
			d.delete(n + " (a computed method may be DELETE)")
		default:
			d.kind = "http_send"
			d.send(n, "sends model-chosen data with "+n+" ("+m+")")
		}
	case "http_fetch", "http_config":
		d.byOptions(n)
	case "http_client":
		if d.c.ArgAt(1, "data") != nil || d.c.ArgAt(-1, "json") != nil {
			d.send(n, "sends model-chosen data with "+n)
		} else {
			d.read(n)
		}
	case "email_read":
		if d.returned {
			d.ev(UntrustedInput, role, "returns mail content fetched by "+n+" (third parties write it)", d.retStep())
			d.ev(ReadsPrivate, role, "returns the user's mail fetched by "+n, d.retStep())
		}
	case "email_send", "cloud_send":
		if s, ok := d.data(); ok {
			if d.kind == "email_send" {
				role = "send_email"
			}
			d.ev(NetworkEgress, role, "sends a message carrying model-chosen data with "+n, s)
			d.ev(Irreversible, role, "a sent message cannot be recalled ("+n+")", s)
		}
		d.envOut("in a message sent with "+n, nil)
	case "message_read":
		if d.returned {
			d.ev(UntrustedInput, role, "returns messages fetched by "+n+" (third parties write them)", d.retStep())
			d.ev(ReadsPrivate, role, "returns the workspace's messages fetched by "+n, d.retStep())
		}
	case "message_send":
		if s, ok := d.data(); ok {
			d.ev(NetworkEgress, role, "sends a message carrying model-chosen data with "+n, s)
			d.ev(Irreversible, role, "a sent message cannot be recalled ("+n+")", s)
		}
		d.envOut("in a message sent with "+n, nil)
	case "remote_write":
		d.ev(WritesState, role, "creates or changes a record of a remote service with "+n, nil)
		if s, ok := d.data(); ok {
			d.ev(NetworkEgress, role, "sends model-chosen data to a remote service with "+n, s)
		}
		d.bodyDelete(n)
	case "remote_delete":
		d.ev(WritesState, role, "deletes a record of a remote service with "+n, nil)
		d.ev(Irreversible, role, "a deleted record is gone ("+n+")", nil)
	case "remote_read":
		if d.returned {
			d.ev(ReadsPrivate, role, "returns private records of a remote service read by "+n, d.retStep())
		}
	case "shared_read":
		if d.returned {
			d.ev(UntrustedInput, role, "returns documents fetched by "+n+" (other people write them)", d.retStep())
			d.ev(ReadsPrivate, role, "returns the workspace's documents fetched by "+n, d.retStep())
		}
	case "payment":
		s, _ := d.data()
		d.ev(NetworkEgress, role, "sends a payment instruction with "+n, s)
		d.ev(WritesState, role, "moves money with "+n, s)
		d.ev(Irreversible, role, "a payment cannot be taken back by the agent ("+n+")", s)
	case "page_action":
		// A click or typed text on a live page acts on whatever site the
		// page is: it may submit a form, post, buy or delete (the browser
		// MCP servers' browser_click/browser_type are catalogued alike).
		d.ev(WritesState, role, "acts on a live web page with "+n, nil)
		d.ev(Irreversible, role, "a submitted form or post cannot be taken back ("+n+")", nil)
		for _, a := range d.c.Args {
			// The text typed, not the element a model-chosen locator found.
			if s := callerStep(a.Flow, d.mask); s != nil || carries(a.Flow, d.mask) {
				d.ev(NetworkEgress, role, "types model-chosen text into a web page with "+n, s)
				break
			}
		}
	case "page_read":
		if d.returned {
			d.ev(UntrustedInput, "browse_url", "returns page content read by "+n+" (third parties write it)", d.retStep())
		}
	case "socket_recv":
		if d.returned {
			d.ev(UntrustedInput, role, "returns bytes received from the network by "+n, d.retStep())
		}
	case "socket_send":
		if s, ok := d.data(); ok {
			d.ev(NetworkEgress, role, "sends model-chosen data over a socket with "+n, s)
		}
		d.envOut("over a socket with "+n, nil)
	case "exec", "eval":
		d.run(n)
	case "file_open":
		d.open(n)
	case "file_read", "file_list":
		if d.returned {
			d.ev(ReadsPrivate, d.pathRole(role), "returns local file data read by "+n, d.retStep())
		}
	case "file_write":
		if scratchTarget(d.c) || credentialWrite(d.c.Func, d.c, d.mask) || fixedDirectory(d.c, d.mask) {
			break // a temporary file of its own, a credential cache, a fixed directory (scratch.go)
		}
		d.ev(WritesState, role, "writes files with "+n, nil)
		d.envOut("into a file with "+n, nil)
	case "file_delete":
		if scratchTarget(d.c) {
			break
		}
		d.ev(WritesState, role, "deletes files with "+n, nil)
		d.ev(Irreversible, role, "deleted files are gone ("+n+")", nil)
	case "db_exec":
		d.sql(n)
	case "db_fetch":
		if d.returned {
			d.ev(ReadsPrivate, role, "returns database rows fetched by "+n, d.retStep())
		}
	case "db_write":
		d.ev(WritesState, role, "writes to a database with "+n, nil)
	case "db_delete":
		d.ev(WritesState, role, "deletes database rows with "+n, nil)
		d.ev(Irreversible, role, "deleted rows are gone ("+n+")", nil)
	case "env_read":
		if d.returned {
			d.ev(ReadsPrivate, role, "returns environment variables read by "+n, d.retStep())
		}
	case "cloud_read":
		if d.returned {
			d.ev(ReadsPrivate, cloudRole(n), "returns cloud data read by "+n, d.retStep())
		}
	case "cloud_write":
		d.ev(WritesState, role, "changes cloud resources with "+n, nil)
		if s, ok := d.data(); ok {
			d.ev(NetworkEgress, role, "sends model-chosen data to the cloud with "+n, s)
		}
		d.bodyDelete(n)
	case "vector_read":
		if d.returned {
			d.ev(UntrustedInput, role, "returns retrieved documents from "+n+" (their authors may be third parties)", d.retStep())
			d.ev(ReadsPrivate, role, "returns retrieved documents from "+n, d.retStep())
		}
	case "vector_write", "memory_write":
		d.ev(WritesState, role, "stores data with "+n, nil)
	case "memory_read":
		if d.returned {
			d.ev(ReadsPrivate, role, "returns stored memory read by "+n, d.retStep())
		}
	case "git_push":
		s, _ := d.data()
		d.ev(NetworkEgress, role, "pushes commits with "+n, s)
		d.ev(WritesState, role, "changes a remote repository with "+n, s)
		d.ev(Irreversible, role, "a pushed commit is public ("+n+")", s)
	case "unknown":
		d.unknown(n)
	}
}

// read: a request whose response may come back to the model. It is egress
// only when the model chooses where it goes: a query sent to a fixed host
// (a search API) reaches no one the attacker controls (DESIGN.md edge cases).
func (d *decision) read(n string) {
	if d.returned {
		d.ev(UntrustedInput, "browse_url", "returns content fetched by "+n+" (third parties write it)", d.retStep())
	}
	if a := d.urlArg(); a != nil && carries(a.Flow, d.mask) && !fixedHost(a.Prefix) {
		d.ev(NetworkEgress, "http_request", "fetches a model-chosen URL with "+n, callerStep(a.Flow, d.mask))
		d.envOut("to a model-chosen URL with "+n, a)
	} else if len(d.c.Args) == 0 && carries(d.c.Recv, d.mask) {
		// WebBaseLoader(url).load(), Article(url).download(): a fetch
		// given nothing fetches what its constructor was given.
		d.ev(NetworkEgress, "http_request", "fetches a model-chosen URL given to the constructor of the object "+n+" runs on", callerStep(d.c.Recv, d.mask))
	}
}

// search: a query to a search API on its own fixed host. It returns web
// content (untrusted); the query reaches only the search provider, so it is
// egress only when private data goes out in it (DESIGN.md edge cases: a
// search API is untrusted_input only).
func (d *decision) search(n string) {
	if d.returned {
		d.ev(UntrustedInput, "browse_url", "returns web content found by "+n+" (third parties write it)", d.retStep())
	}
	flows := make([]extract.Flow, 0, len(d.c.Args)+1)
	for _, a := range d.c.Args {
		flows = append(flows, a.Flow)
	}
	if len(d.c.Args) == 0 {
		// WikipediaLoader(query=q).load(): the query is what the
		// constructor was given.
		flows = append(flows, d.c.Recv)
	}
	for _, fl := range flows {
		if src, ok := d.a.privateIn(d.c.Func, fl, d.priv, d.depth); ok {
			what := "private data the caller read"
			if src != nil {
				what = "private data read by " + src.Qual
			}
			d.ev(NetworkEgress, "http_request", "sends "+what+" to the search API in "+n, nil)
			return
		}
	}
}

func (d *decision) urlArg() *extract.Arg { return URLArg(d.c, d.urlPos) }

// URLArg is a request call's URL argument: by keyword (url, uri, link),
// else the positional argument at pos (0, or 1 after a method as in
// requests.request(method, url)). The builtin prover reads the same one.
func URLArg(c *extract.Call, pos int) *extract.Arg {
	for _, kw := range []string{"url", "uri", "link"} {
		if a := c.ArgAt(-1, kw); a != nil {
			return a
		}
	}
	return c.ArgAt(pos, "")
}

// FixedHost is fixedHost for the provers, so a request to a fixed host is
// not an egress sink there either.
func FixedHost(prefix string) bool { return fixedHost(prefix) }

// fixedHost reports whether a URL's constant prefix already fixes its host
// ("https://api.example.com/search?q=" does; "https://" + host does not).
func fixedHost(prefix string) bool {
	i := strings.Index(prefix, "://")
	return i >= 0 && strings.IndexByte(prefix[i+3:], '/') > 0
}

// send: a request that carries data out. A POST is not irreversible by
// itself: a query or an update sent by POST to a fixed host is not a
// message. Data sent to a destination the model chose is (anyone can be
// at that URL, and what reached them cannot be recalled); messages,
// payments, deletions and pushes have kinds of their own.
func (d *decision) send(n, why string) {
	if s, ok := d.data(); ok {
		d.ev(NetworkEgress, "http_request", why, s)
		if a := d.urlArg(); a != nil && carries(a.Flow, d.mask) && !fixedHost(a.Prefix) {
			d.ev(Irreversible, "http_request", "data sent to a model-chosen URL cannot be recalled ("+n+")", callerStep(a.Flow, d.mask))
			d.envOut("to a model-chosen URL with "+n, a)
		}
	}
	if d.returned {
		d.ev(UntrustedInput, "browse_url", "returns the response of "+n+" (third parties write it)", d.retStep())
	}
}

// agentSend: a message to a remote agent (A2A). The destination is the
// agent the client was built for (its card's URL), not an argument; the
// reply is another agent's text.
func (d *decision) agentSend(n string) {
	if s, ok := d.data(); ok {
		d.ev(NetworkEgress, "http_request", "sends model-chosen data to a remote agent with "+n, s)
	}
	if d.returned {
		d.ev(UntrustedInput, "browse_url", "returns the reply of a remote agent through "+n+" (another agent writes it)", d.retStep())
	}
}

// delete: an HTTP DELETE removes what the URL names.
func (d *decision) delete(n string) {
	s, ok := d.data()
	if ok {
		d.ev(NetworkEgress, "http_request", "sends a DELETE carrying model-chosen data with "+n, s)
	}
	d.ev(WritesState, "http_request", "deletes a remote resource with "+n, s)
	d.ev(Irreversible, "http_request", "a deleted resource is gone ("+n+")", s)
	if d.returned {
		d.ev(UntrustedInput, "browse_url", "returns the response of "+n+" (third parties write it)", d.retStep())
	}
}

// run: a command or code. With model-chosen input it can do anything.
func (d *decision) run(n string) {
	role := kindRoles[d.kind]
	if s, ok := d.data(); ok {
		what := "runs a model-chosen command with " + n
		if d.kind == "eval" {
			what = "evaluates model-chosen code with " + n
		}
		for _, l := range Labels {
			d.ev(l, role, what+" (a shell can do everything)", s)
		}
		return
	}
	first := d.c.ArgAt(0, "args")
	if first == nil {
		first = d.c.ArgAt(0, "cmd")
	}
	if first != nil && !first.Const {
		d.ev(ExecutesCode, role, "runs a command built at run time with "+n, nil)
		d.ev(Irreversible, role, "commands cannot be undone ("+n+")", nil)
		return
	}
	if d.returned {
		d.ev(ReadsPrivate, "", "returns the output of a fixed command run by "+n, d.retStep())
	}
}

// bodyDelete adds the deletion a write's batch body names (bodyops.go).
func (d *decision) bodyDelete(n string) {
	if op := deleteOp(d.c); op != "" {
		d.ev(Irreversible, kindRoles[d.kind], fmt.Sprintf("its request body asks for %s, which cannot be undone (%s)", op, n), nil)
	}
}

// open: open(path, mode) reads or writes by its mode.
func (d *decision) open(n string) {
	mode, known := "r", true
	if a := d.c.ArgAt(1, "mode"); a != nil {
		if a.Lit != nil {
			mode = *a.Lit
		} else {
			known = false
		}
	}
	write := !known || strings.ContainsAny(mode, "wax+")
	read := !known || !strings.ContainsAny(mode, "wax") || strings.Contains(mode, "+")
	if read && d.returned {
		d.ev(ReadsPrivate, d.pathRole("read_file"), "returns local file data read by "+n, d.retStep())
	}
	if write && !scratchTarget(d.c) && !credentialCacheOpen(d.c.Func, callIndex(d.c), d.mask) {
		d.ev(WritesState, "write_file", fmt.Sprintf("opens a file for writing with %s (mode %q)", n, mode), nil)
	}
}

// pathRole refines read_file to read_secret_file for secret paths.
func (d *decision) pathRole(role string) string {
	if a := d.c.ArgAt(0, "file"); a != nil && secretPath.MatchString(a.Prefix) {
		return "read_secret_file"
	}
	return role
}

// sql decides a database statement by its text.
func (d *decision) sql(n string) {
	role := "database_query"
	verb, arg := SQLStatement(d.c)
	if ReadOnlySQL(verb) {
		if d.returned {
			d.ev(ReadsPrivate, role, "returns rows of a query run by "+n, d.retStep())
		}
		return
	}
	switch verb {
	case "INSERT", "UPDATE", "REPLACE", "MERGE", "CREATE", "ALTER", "UPSERT", "GRANT", "REVOKE":
		d.ev(WritesState, role, verb+" statement run by "+n, nil)
		return
	case "DELETE", "DROP", "TRUNCATE":
		d.ev(WritesState, role, verb+" statement run by "+n, nil)
		d.ev(Irreversible, role, verb+" cannot be undone ("+n+")", nil)
		return
	}
	if arg != nil && carries(arg.Flow, d.mask) {
		s := callerStep(arg.Flow, d.mask)
		d.ev(ReadsPrivate, role, "runs model-written SQL with "+n, s)
		d.ev(WritesState, role, "runs model-written SQL with "+n+" (it may write)", s)
		d.ev(Irreversible, role, "model-written SQL may delete data ("+n+")", s)
		return
	}
	// SQL text we cannot read: fail closed.
	d.kind = "unknown"
	d.ev(WritesState, role, "runs SQL whose text is not literal with "+n, nil)
	if d.returned {
		d.ev(ReadsPrivate, role, "returns rows of SQL whose text is not literal ("+n+")", d.retStep())
	}
}

// SQLStatement finds the SQL text argument of a database call and the
// statement's verb, read from its constant prefix ("" when it has none).
func SQLStatement(c *extract.Call) (verb string, arg *extract.Arg) {
	for _, kw := range []string{"sql", "statement", "query", "command", "operation", "clause"} {
		if arg = c.ArgAt(-1, kw); arg != nil {
			break
		}
	}
	if arg == nil {
		arg = c.ArgAt(0, "")
	}
	if arg != nil {
		verb, _, _ = strings.Cut(strings.ToUpper(strings.TrimSpace(arg.Prefix)), " ")
	}
	return verb, arg
}

// ReadOnlySQL reports whether a statement verb only reads.
func ReadOnlySQL(verb string) bool {
	switch verb {
	case "SELECT", "WITH", "SHOW", "PRAGMA", "EXPLAIN", "DESCRIBE", "DESC":
		return true
	}
	return false
}

// unknown: a call whose effects nothing settles. Fail closed on what the
// call could do given what flows in and out of it.
func (d *decision) unknown(n string) {
	what := fmt.Sprintf("calls %s, whose effects are unknown", n)
	if d.returned {
		d.ev(UntrustedInput, "", what+", and returns its result", d.retStep())
		d.ev(ReadsPrivate, "", what+", and returns its result", d.retStep())
	}
	if s, ok := d.data(); ok {
		d.ev(NetworkEgress, "", what+", with model-chosen data", s)
		d.ev(ExecutesCode, "", what+", with model-chosen data", s)
	}
	d.ev(WritesState, "", what, nil)
	d.ev(Irreversible, "", what, nil)
	// Where an environment value goes into a call acg cannot read, it may
	// go out: fail closed.
	d.envOut("to "+n+", whose effects are unknown (it may send it out)", nil)
}

// envOut adds reads_private when a value read from the environment goes
// out with the call (what says where): a secret in a header to a
// model-chosen URL, a message, a file, a call acg cannot read. A value
// handed to a request to a fixed host, a client constructor or a model
// factory configures it and is not sent to anyone the attacker picks
// (settings.go). A client built with one (httpx.Client(headers=...))
// sends it with every request it makes. The URL of a request is where it
// goes, not what it sends: an environment value in it is the endpoint
// (f"{os.environ['API_BASE']}/items/{item}"), so it is left out.
func (d *decision) envOut(what string, url *extract.Arg) {
	src, ok := d.envArg(url)
	if !ok {
		return
	}
	from := "a value read from the environment by the caller"
	if src != nil {
		from = fmt.Sprintf("the environment value read by %s (line %d)", src.Qual, src.Loc.Start.Line)
	}
	d.ev(ReadsPrivate, kindRoles["env_read"], "sends "+from+" "+what, nil)
}

// envArg finds a value read from the environment among the call's
// arguments (the message, the body, the headers: a message's transport or
// a file's path configures where it goes), the receiver of a call acg
// cannot read, and the arguments of the generic HTTP client that makes a
// request (a provider SDK's client sends its key to the provider's own
// host, whatever URL it is asked to read).
func (d *decision) envArg(url *extract.Arg) (*extract.Call, bool) {
	fn := d.c.Func
	for i := range d.c.Args {
		a := &d.c.Args[i]
		if a == url {
			continue
		}
		if src, ok := d.a.envIn(fn, a.Flow, d.priv, d.depth); ok {
			return src, true
		}
	}
	if d.kind == "unknown" {
		return d.a.envIn(fn, d.c.Recv, d.priv, d.depth)
	}
	if fn == nil {
		return nil, false
	}
	for _, o := range d.c.Recv {
		if o.Call < 0 || o.Call >= len(fn.Calls) || o.Call == d.c.Index || !httpClientCtor(fn.Calls[o.Call].Qual) {
			continue
		}
		for _, a := range fn.Calls[o.Call].Args {
			if src, ok := d.a.envIn(fn, a.Flow, d.priv, d.depth); ok {
				return src, true
			}
		}
	}
	return nil, false
}

func cloudRole(n string) string {
	switch lastDot(n) {
	case "get_secret_value":
		return "secrets_manager"
	case "decrypt":
		return "kms_decrypt"
	case "get_parameter", "get_parameters", "get_parameters_by_path":
		return "ssm_get_parameter"
	case "scan", "query", "get_item":
		return "database_query"
	}
	return "s3_get"
}

// byOptions decides a JavaScript request whose method is a key of an
// options object: fetch(url, { method }), http.request(options),
// axios(config) (http_config: the options come first, or after a URL).
// A method that cannot be read from an object literal may be any method,
// DELETE included: send and delete (fail closed).
func (d *decision) byOptions(n string) {
	m, known := RequestMethod(d.c, d.kind)
	switch {
	case !known:
		d.kind = "http_send"
		d.send(n, "sends model-chosen data with "+n+" (a computed method)")
		d.delete(n + " (a computed method may be DELETE)")
	case m == "GET" || m == "HEAD" || m == "OPTIONS":
		d.kind = "http_read"
		d.read(n + "(" + m + ")")
	case m == "DELETE":
		d.kind = "http_delete"
		d.delete(n + "(DELETE)")
	default:
		d.kind = "http_send"
		d.send(n, "sends model-chosen data with "+n+" ("+m+")")
	}
}

// RequestMethod is the HTTP method of an http_fetch or http_config call
// (rules_npm.yaml), and whether it is known; the prover asks it too.
func RequestMethod(c *extract.Call, kind string) (string, bool) {
	return jsMethod(c.Expr, kind == "http_config")
}

// jsMethod reads the HTTP method of a call from its options object: the
// "method" key of an object literal (GET when absent, as fetch, Node's
// http.request and axios default). configFirst: the options are the first
// argument unless that is a URL string (axios(config), axios(url, config)).
func jsMethod(call *extract.Expr, configFirst bool) (string, bool) {
	if call == nil {
		return "", false
	}
	var opts *extract.Expr
	first := call.Arg(0, "")
	switch {
	case configFirst && first != nil && !stringish(first):
		opts = first
	case !configFirst && first != nil && first.Kind == extract.ExprDict:
		opts = first // http.request(options[, callback])
	default:
		opts = call.Arg(1, "")
		if opts != nil && opts.Kind == extract.ExprName && strings.HasPrefix(opts.Name, "<lambda@") {
			// http.request(url, res => ...): an inline function is no
			// options object (the front end names it <lambda@line>).
			opts = nil
		}
	}
	if opts == nil {
		if len(call.Args) > 0 && call.Args[len(call.Args)-1].Kind == extract.ExprSplat {
			return "", false // fetch(...args)
		}
		return "GET", true
	}
	if opts.Kind != extract.ExprDict || opts.Spread {
		return "", false
	}
	for i, k := range opts.Keys {
		if k == nil || k.Kind != extract.ExprStr || k.Str != "method" {
			continue
		}
		if i < len(opts.Elems) {
			if v, ok := opts.Elems[i].StrValue(); ok {
				return strings.ToUpper(v), true
			}
		}
		return "", false
	}
	return "GET", true
}

func stringish(e *extract.Expr) bool {
	return e.Kind == extract.ExprStr || e.Kind == extract.ExprFString
}

// httpClientCtor reports whether a call builds a generic HTTP client,
// whose default headers and auth go with every request to wherever it is
// sent.
func httpClientCtor(q string) bool {
	switch q {
	case "httpx.Client", "httpx.AsyncClient", "requests.Session", "requests.session", "aiohttp.ClientSession", "urllib3.PoolManager":
		return true
	}
	return false
}
