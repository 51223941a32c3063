package effects_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// TestNpmClassify: Node's modules and npm packages are decided by the
// qualified names of the TypeScript front end (rules_npm.yaml), through
// constructors and factories (new pg.Pool().query, createTransport()
// .sendMail), a Prisma model of any name, and JavaScript's globals under
// globalThis; the Python names keep their meaning beside them.
func TestNpmClassify(t *testing.T) {
	r := effects.DefaultRules()
	cases := []struct {
		qual string
		head extract.HeadKind
		want string
	}{
		{"globalThis.fetch", extract.HeadBuiltin, "http_fetch"},
		{"googleapis.google.calendar().events.list", extract.HeadObject, "email_read"},
		{"googleapis.google.gmail().users.messages.send", extract.HeadObject, "email_send"},
		{"googleapis.google.gmail().users.drafts.create", extract.HeadObject, "cloud_write"},
		{"googleapis.google.drive().files.delete", extract.HeadObject, "remote_delete"},
		{"undici.request", extract.HeadImport, "http_fetch"},
		{"https.request", extract.HeadImport, "http_fetch"},
		{"http.request().write", extract.HeadObject, "socket_send"},
		{"axios", extract.HeadImport, "http_config"},
		{"axios.get", extract.HeadImport, "http_read"},
		{"axios.post", extract.HeadImport, "http_send"},
		{"axios.create().delete", extract.HeadObject, "http_delete"},
		{"got.post", extract.HeadImport, "http_send"},
		{"fs.readFileSync", extract.HeadImport, "file_read"},
		{"fs/promises.readFile", extract.HeadImport, "file_read"},
		{"fs.promises.readdir", extract.HeadImport, "file_list"},
		{"fs/promises.writeFile", extract.HeadImport, "file_write"},
		{"fs.rmSync", extract.HeadImport, "file_delete"},
		{"fs/promises.open", extract.HeadImport, "file_open"},
		{"fs.existsSync", extract.HeadImport, "pure"},
		{"child_process.exec", extract.HeadImport, "exec"},
		{"child_process.spawn", extract.HeadImport, "exec"},
		{"child_process.execFile", extract.HeadImport, "exec"},
		{"globalThis.eval", extract.HeadBuiltin, "eval"},
		{"globalThis.Function", extract.HeadBuiltin, "eval"},
		{"vm.runInNewContext", extract.HeadImport, "eval"},
		{"vm.Script().runInThisContext", extract.HeadObject, "eval"},
		{"nodemailer.createTransport().sendMail", extract.HeadObject, "email_send"},
		{"imapflow.ImapFlow().fetch", extract.HeadObject, "email_read"},
		{"imapflow.ImapFlow().fetchOne", extract.HeadObject, "email_read"},
		{"imapflow.ImapFlow().getMailboxLock", extract.HeadObject, "pure"},
		{"imapflow.ImapFlow().getMailboxLock().release", extract.HeadObject, "pure"},
		{"pg.Pool().query", extract.HeadObject, "db_exec"},
		{"pg.Client().query", extract.HeadObject, "db_exec"},
		{"pg.Pool().connect().query", extract.HeadObject, "db_exec"},
		{"mysql2/promise.createPool().execute", extract.HeadObject, "db_exec"},
		{"better-sqlite3().prepare().all", extract.HeadObject, "db_fetch"},
		{"better-sqlite3().prepare().run", extract.HeadObject, "db_write"},
		{"@prisma/client.PrismaClient().user.findMany", extract.HeadObject, "db_fetch"},
		{"@prisma/client.PrismaClient().invoice.deleteMany", extract.HeadObject, "db_delete"},
		{"@prisma/client.PrismaClient().$queryRawUnsafe", extract.HeadObject, "db_exec"},
		{"@slack/web-api.WebClient().chat.postMessage", extract.HeadObject, "message_send"},
		{"@slack/web-api.WebClient().conversations.history", extract.HeadObject, "message_read"},
		{"@slack/web-api.WebClient().chat.delete", extract.HeadObject, "remote_delete"},
		{"@octokit/rest.Octokit().rest.issues.create", extract.HeadObject, "remote_write"},
		{"@octokit/rest.Octokit().rest.issues.get", extract.HeadObject, "http_read"},
		{"@octokit/rest.Octokit().rest.repos.getContent", extract.HeadObject, "shared_read"},
		// SDKs called inside tool bodies: clients typed through their
		// constructors and builder chains.
		{"@supabase/supabase-js.createClient().from().select().eq", extract.HeadObject, "pure"},
		{"@supabase/supabase-js.createClient().from().select", extract.HeadObject, "db_fetch"},
		{"@supabase/supabase-js.createClient().from().insert", extract.HeadObject, "db_write"},
		{"@supabase/supabase-js.createClient().from().upsert", extract.HeadObject, "db_write"},
		{"@supabase/supabase-js.createClient().from().delete", extract.HeadObject, "db_delete"},
		{"@supabase/supabase-js.createClient().rpc", extract.HeadObject, "db_exec"},
		{"@supabase/supabase-js.createClient().storage.from().download", extract.HeadObject, "cloud_read"},
		{"@supabase/supabase-js.createClient().storage.from().upload", extract.HeadObject, "cloud_write"},
		{"@supabase/supabase-js.createClient().storage.from().remove", extract.HeadObject, "remote_delete"},
		{"@supabase/supabase-js.createClient().auth.admin.deleteUser", extract.HeadObject, "unknown"},
		{"mongodb.MongoClient().db().collection().find", extract.HeadObject, "db_fetch"},
		{"mongodb.MongoClient().db().collection().find().toArray", extract.HeadObject, "pure"},
		{"mongodb.MongoClient().db().collection().insertOne", extract.HeadObject, "db_write"},
		{"mongodb.MongoClient().db().collection().deleteMany", extract.HeadObject, "db_delete"},
		{"mongodb.MongoClient().bulkWrite", extract.HeadObject, "unknown"},
		{"ioredis().get", extract.HeadObject, "db_fetch"},
		{"ioredis.Redis().set", extract.HeadObject, "db_write"},
		{"ioredis().del", extract.HeadObject, "db_delete"},
		{"ioredis().publish", extract.HeadObject, "unknown"},
		{"redis.createClient().connect().get", extract.HeadObject, "db_fetch"},
		{"redis.createClient().del", extract.HeadObject, "db_delete"},
		{"@aws-sdk/client-s3.S3().getObject", extract.HeadObject, "cloud_read"},
		{"@aws-sdk/client-s3.S3().deleteObject", extract.HeadObject, "remote_delete"},
		// The command given to S3Client.send is not part of its name.
		{"@aws-sdk/client-s3.S3Client().send", extract.HeadObject, "unknown"},
		{"@aws-sdk/client-s3.GetObjectCommand", extract.HeadImport, "pure"},
		{"resend.Resend().emails.send", extract.HeadObject, "email_send"},
		{"@sendgrid/mail.send", extract.HeadImport, "email_send"},
		{"@sendgrid/mail.setApiKey", extract.HeadImport, "pure"},
		{"twilio().messages.create", extract.HeadObject, "message_send"},
		{"@notionhq/client.Client().pages.create", extract.HeadObject, "remote_write"},
		{"@notionhq/client.Client().dataSources.query", extract.HeadObject, "shared_read"},
		{"@notionhq/client.Client().blocks.children.list", extract.HeadObject, "shared_read"},
		{"@anthropic-ai/sdk().messages.create", extract.HeadObject, "llm"},
		{"@anthropic-ai/sdk.Anthropic().beta.files.upload", extract.HeadObject, "unknown"},
		{"cheerio.load", extract.HeadImport, "pure"},
		{"cheerio.load()().text", extract.HeadObject, "pure"},
		{"cheerio.fromURL", extract.HeadImport, "http_read"},
		{"@mendable/firecrawl-js().scrape", extract.HeadObject, "http_read"},
		{"@mendable/firecrawl-js().search", extract.HeadObject, "search"},
		{"@mendable/firecrawl-js().interact", extract.HeadObject, "unknown"},
		{"@tavily/core.tavily().search", extract.HeadObject, "search"},
		{"@tavily/core.tavily().extract", extract.HeadObject, "http_read"},
		{"exa-js().search", extract.HeadObject, "search"},
		{"exa-js().getContents", extract.HeadObject, "http_read"},
		{"discord.js.Client().channels.fetch().send", extract.HeadObject, "message_send"},
		{"discord.js.Client().channels.fetch().messages.fetch", extract.HeadObject, "message_read"},
		{"discord.js.Client().channels.fetch().delete", extract.HeadObject, "unknown"},
		// A client built by calling a default export is named by the bare
		// specifier: it stays unknown, its methods typed.
		{"ioredis", extract.HeadImport, "unknown"},
		{"process.env.__getitem__", extract.HeadImport, "env_read"},
		{"globalThis.process.env.__getitem__", extract.HeadBuiltin, "env_read"},
		{"process.env", extract.HeadImport, "env_read"},
		{"globalThis.JSON.parse", extract.HeadBuiltin, "pure"},
		{"globalThis.JSON.stringify", extract.HeadBuiltin, "pure"},
		{"globalThis.Math.max", extract.HeadBuiltin, "pure"},
		{"globalThis.encodeURIComponent", extract.HeadBuiltin, "pure"},
		{"zod.z.object", extract.HeadImport, "pure"},
		{"zod.z.string().email", extract.HeadObject, "pure"},
		{"path.join", extract.HeadImport, "pure"},
		// A LangChain JS chat model with tools bound is still a model.
		{"@langchain/openai.ChatOpenAI().bindTools().invoke", extract.HeadObject, "llm"},
		{"@langchain/openai.ChatOpenAI().invoke", extract.HeadObject, "llm"},
		// Python's names are unchanged by the npm file.
		{"imaplib.IMAP4_SSL().fetch", extract.HeadObject, "email_read"},
		{"requests.post", extract.HeadImport, "http_send"},
		// A client type the rules model: an unlisted method is unknown
		// (fail closed), not pure.
		{"@slack/web-api.WebClient().admin.users.remove", extract.HeadObject, "unknown"},
		{"pg.Pool().copyFrom", extract.HeadObject, "unknown"},
	}
	for _, tc := range cases {
		got, _ := r.Classify(&extract.Call{Qual: tc.qual, HeadKind: tc.head})
		if got != tc.want {
			t.Errorf("Classify(%s) = %s, want %s", tc.qual, got, tc.want)
		}
	}
	// A method named like a JavaScript API on a value of unknown type is
	// no call of that API: data methods only are pure, the rest unknown.
	for _, tc := range []struct{ qual, want string }{
		{"x.fetch", "unknown"},
		{"x.sendMail", "unknown"},
		{"x.strip", "pure"},
		{"x.search", "unknown"},
	} {
		if got, _ := r.Classify(&extract.Call{Qual: tc.qual, HeadKind: extract.HeadData}); got != tc.want {
			t.Errorf("Classify(data %s) = %s, want %s", tc.qual, got, tc.want)
		}
	}
	// JavaScript's value methods are data in JavaScript and TypeScript
	// files only: in Python, remote.push() on a value of unknown type may
	// be a git push, pool.map() runs functions.
	for _, tc := range []struct{ qual, file, want string }{
		{"x.padStart", "src/a.ts", "pure"},
		{"x.forEach", "src/a.mjs", "pure"},
		{"x.push", "src/a.tsx", "pure"},
		{"x.push", "tools.py", "unknown"},
		{"x.map", "tools.py", "unknown"},
		{"x.padStart", "tools.py", "unknown"},
		{"x.strip", "src/a.ts", "pure"},
	} {
		c := &extract.Call{Qual: tc.qual, HeadKind: extract.HeadData, Loc: extract.Loc{File: tc.file}}
		if got, _ := r.Classify(c); got != tc.want {
			t.Errorf("Classify(data %s in %s) = %s, want %s", tc.qual, tc.file, got, tc.want)
		}
	}
}

func str(s string) *extract.Expr  { return &extract.Expr{Kind: extract.ExprStr, Str: s} }
func name(s string) *extract.Expr { return &extract.Expr{Kind: extract.ExprName, Name: s} }
func callExpr(args ...*extract.Expr) *extract.Expr {
	return &extract.Expr{Kind: extract.ExprCall, Args: args}
}
func object(kv ...*extract.Expr) *extract.Expr {
	e := &extract.Expr{Kind: extract.ExprDict}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Keys, e.Elems = append(e.Keys, kv[i]), append(e.Elems, kv[i+1])
	}
	return e
}

// TestRequestMethod: the method of fetch(url, init), http.request(options)
// and axios(config) is read from the options object literal; GET when no
// options say otherwise; unknown when the options are computed or spread.
func TestRequestMethod(t *testing.T) {
	spread := object(str("method"), str("GET"))
	spread.Spread = true
	cases := []struct {
		kind   string
		call   *extract.Expr
		want   string
		known  bool
		reason string
	}{
		{"http_fetch", callExpr(name("url")), "GET", true, "fetch(url)"},
		{"http_fetch", callExpr(name("url"), object(str("method"), str("post"), str("body"), name("b"))), "POST", true, "fetch(url, {method: 'post'})"},
		{"http_fetch", callExpr(name("url"), object(str("headers"), name("h"))), "GET", true, "init without a method"},
		{"http_fetch", callExpr(name("url"), object(str("method"), str("DELETE"))), "DELETE", true, "DELETE"},
		{"http_fetch", callExpr(name("url"), object(str("method"), name("m"))), "", false, "a computed method"},
		{"http_fetch", callExpr(name("url"), name("init")), "", false, "options in a variable"},
		{"http_fetch", callExpr(name("url"), spread), "", false, "a spread may override the method"},
		{"http_fetch", callExpr(object(str("host"), str("x"), str("method"), str("PUT"))), "PUT", true, "http.request(options)"},
		{"http_fetch", callExpr(name("url"), name("<lambda@3>")), "GET", true, "http.request(url, res => ...)"},
		{"http_config", callExpr(object(str("url"), name("u"))), "GET", true, "axios({url})"},
		{"http_config", callExpr(object(str("url"), name("u"), str("method"), str("patch"))), "PATCH", true, "axios({method: 'patch'})"},
		{"http_config", callExpr(name("config")), "", false, "axios(config)"},
		{"http_config", callExpr(str("https://x"), object(str("method"), str("post"))), "POST", true, "axios(url, {method})"},
	}
	for _, tc := range cases {
		m, known := effects.RequestMethod(&extract.Call{Expr: tc.call}, tc.kind)
		if m != tc.want || known != tc.known {
			t.Errorf("%s: RequestMethod = %q, %v; want %q, %v", tc.reason, m, known, tc.want, tc.known)
		}
	}
}

// jsTool is a tool whose body makes one call with the model's argument in
// its first position (and opts in the second) and returns its result: the
// facts the TypeScript front end gives for
// `execute: async ({ x }) => await qual(x, opts)`.
func jsTool(qual string, head extract.HeadKind, opts *extract.Expr) *extract.Func {
	fn := &extract.Func{Name: "tool", Qual: "tool", Params: []extract.Param{{Name: "x"}}}
	ex := callExpr(name("x"))
	args := []extract.Arg{{Pos: 0, Flow: extract.Flow{{Param: 0, Call: -1}}}}
	if opts != nil {
		ex.Args = append(ex.Args, opts)
		args = append(args, extract.Arg{Pos: 1, Const: true})
	}
	c := &extract.Call{Index: 0, Func: fn, Qual: qual, HeadKind: head, Expr: ex, Args: args, Dom: -1, Returned: true}
	fn.Calls = []*extract.Call{c}
	fn.Returns = extract.Flow{{Param: -1, Call: 0}}
	return fn
}

// TestNpmDecisions: labels a tool's body gets from Node and npm calls.
func TestNpmDecisions(t *testing.T) {
	cases := []struct {
		qual string
		head extract.HeadKind
		opts *extract.Expr
		want string
	}{
		{"globalThis.fetch", extract.HeadBuiltin, nil, "network_egress untrusted_input"},
		// Data sent to a URL the model chose cannot be recalled (as requests.post).
		{"globalThis.fetch", extract.HeadBuiltin, object(str("method"), str("POST")), "irreversible network_egress untrusted_input"},
		{"globalThis.fetch", extract.HeadBuiltin, name("init"), "irreversible network_egress untrusted_input writes_state"},
		{"axios.get", extract.HeadImport, nil, "network_egress untrusted_input"},
		{"fs/promises.readFile", extract.HeadImport, nil, "reads_private"},
		{"fs.writeFileSync", extract.HeadImport, nil, "writes_state"},
		{"child_process.exec", extract.HeadImport, nil, "executes_code irreversible network_egress reads_private untrusted_input writes_state"},
		{"globalThis.eval", extract.HeadBuiltin, nil, "executes_code irreversible network_egress reads_private untrusted_input writes_state"},
		{"nodemailer.createTransport().sendMail", extract.HeadObject, nil, "irreversible network_egress"},
		{"imapflow.ImapFlow().fetch", extract.HeadObject, nil, "reads_private untrusted_input"},
		{"@slack/web-api.WebClient().chat.postMessage", extract.HeadObject, nil, "irreversible network_egress"},
		{"@supabase/supabase-js.createClient().from().select", extract.HeadObject, nil, "reads_private"},
		{"@supabase/supabase-js.createClient().from().delete", extract.HeadObject, nil, "irreversible writes_state"},
		{"mongodb.MongoClient().db().collection().insertOne", extract.HeadObject, nil, "writes_state"},
		{"resend.Resend().emails.send", extract.HeadObject, nil, "irreversible network_egress"},
		{"discord.js.Client().channels.fetch().messages.fetch", extract.HeadObject, nil, "reads_private untrusted_input"},
		{"@notionhq/client.Client().pages.create", extract.HeadObject, nil, "network_egress writes_state"},
		// A search API's query reaches only its own host.
		{"@tavily/core.tavily().search", extract.HeadObject, nil, "untrusted_input"},
		{"@mendable/firecrawl-js().scrape", extract.HeadObject, nil, "network_egress untrusted_input"},
		{"@anthropic-ai/sdk().messages.create", extract.HeadObject, nil, ""},
		{"cheerio.load", extract.HeadImport, nil, ""},
		{"process.env.__getitem__", extract.HeadImport, nil, "reads_private"},
		{"globalThis.JSON.parse", extract.HeadBuiltin, nil, ""},
		{"zod.z.object", extract.HeadImport, nil, ""},
	}
	for _, tc := range cases {
		fn := jsTool(tc.qual, tc.head, tc.opts)
		e := effects.NewAnalyzer(localResolver{&extract.File{}}).ToolFunc(fn, false)
		var on []string
		for _, l := range effects.Labels {
			if e.Has(l) {
				on = append(on, string(l))
			}
		}
		sort.Strings(on)
		if got := strings.Join(on, " "); got != tc.want {
			t.Errorf("%s: labels %q, want %q", tc.qual, got, tc.want)
		}
	}
}
