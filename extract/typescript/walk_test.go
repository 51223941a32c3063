package typescript

import (
	"context"
	"testing"

	"github.com/acg-dev/acg/extract"
)

func parse(t *testing.T, rel, src string) *extract.File {
	t.Helper()
	tree, err := Parse(context.Background(), rel, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	return Extract(rel, []byte(src), tree)
}

func funcNamed(f *extract.File, name string) *extract.Func {
	for _, fn := range f.Funcs {
		if fn.Name == name {
			return fn
		}
	}
	return nil
}

func callOf(fn *extract.Func, qual string) *extract.Call {
	if fn == nil {
		return nil
	}
	for _, c := range fn.Calls {
		if c.Qual == qual {
			return c
		}
	}
	return nil
}

// Qualified names follow the ts-common convention: specifier (no node:)
// plus member path; default imports and require are the module; new X()
// is X's qual; in-tree imports use the module key.
func TestQualifiedNames(t *testing.T) {
	src := `import * as fs from "node:fs";
import axios from "axios";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { sendEmail as send } from "./tools.js";
import helper from "../lib/helper";
const cp = require("child_process");
const { readFileSync } = require("fs");

export function run(path: string) {
  const a = fs.readFileSync(path, "utf8");
  axios.get("https://x.example");
  axios({ url: "https://x.example" });
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool("t", {}, async () => ({ content: [] }));
  send(a);
  helper();
  cp.exec("ls");
  readFileSync(path);
  fetch("https://y.example");
  JSON.parse(a);
  const key = process.env.API_KEY;
}
`
	f := parse(t, "src/agent/main.ts", src)
	if f.Lang != extract.LangTypeScript || f.Module != "src/agent/main" {
		t.Fatalf("lang %q module %q", f.Lang, f.Module)
	}
	run := funcNamed(f, "run")
	for _, q := range []string{"fs.readFileSync", "axios.get", "axios", "@modelcontextprotocol/sdk/server/mcp.js.McpServer",
		"@modelcontextprotocol/sdk/server/mcp.js.McpServer().registerTool", "src/agent/tools.sendEmail", "src/lib/helper.default",
		"child_process.exec", "fs.readFileSync", "globalThis.fetch", "globalThis.JSON.parse", "process.env.__getitem__"} {
		if callOf(run, q) == nil {
			t.Errorf("no call %s", q)
		}
	}
	if c := callOf(run, "@modelcontextprotocol/sdk/server/mcp.js.McpServer"); c == nil || c.Expr.Kind != extract.ExprCall || c.HeadKind != extract.HeadImport {
		t.Errorf("new McpServer(...) is an import-qualified call: %+v", c)
	}
	// The path parameter reaches readFileSync's first argument.
	if c := callOf(run, "fs.readFileSync"); c == nil || len(c.Args) == 0 || len(c.Args[0].Flow.Params()) != 1 {
		t.Errorf("parameter flow into fs.readFileSync: %+v", c)
	}
	// a (from readFileSync) reaches send(a): a call result flows.
	if c := callOf(run, "src/agent/tools.sendEmail"); c == nil || len(c.Args[0].Flow.Calls()) == 0 {
		t.Errorf("call flow into send: %+v", c)
	}
}

// Object literals, arrow functions named <outer>.<key>, shorthand keys,
// spreads, template strings, destructuring, await and returns.
func TestExprsAndFlows(t *testing.T) {
	src := `import { tool } from "ai";
const extra = { b: 1 };
export const weatherTool = tool({
  description: "Weather",
  strict: true,
  retries: null,
  execute: async ({ city }) => {
    const url = ` + "`https://w.example/${city}`" + `;
    const res = await fetch(url);
    const { temp } = await res.json();
    return { temp, city };
  },
  ...extra,
});
const obj = { execute() { return 1; }, run };
function run(x) { const y = x; return y; }
`
	f := parse(t, "weather.ts", src)
	exec := funcNamed(f, "weatherTool.execute")
	if exec == nil || !exec.Async || len(exec.Params) != 1 {
		t.Fatalf("weatherTool.execute: %+v", exec)
	}
	mod := f.Funcs[0]
	c := callOf(mod, "ai.tool")
	if c == nil || c.AssignedTo != "weatherTool" {
		t.Fatalf("tool call: %+v", c)
	}
	opts := c.Expr.Arg(0, "")
	if opts == nil || opts.Kind != extract.ExprDict || !opts.Spread {
		t.Fatalf("options: %+v", opts)
	}
	want := map[string]extract.ExprKind{"description": extract.ExprStr, "strict": extract.ExprBool, "retries": extract.ExprNone, "execute": extract.ExprName}
	for i, k := range opts.Keys {
		if kind, ok := want[k.Str]; ok {
			if opts.Elems[i].Kind != kind {
				t.Errorf("%s: kind %d want %d", k.Str, opts.Elems[i].Kind, kind)
			}
			delete(want, k.Str)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing keys %v", want)
	}
	if e := field(opts, "execute"); e == nil || e.Name != "weatherTool.execute" {
		t.Errorf("execute names its func: %+v", e)
	}
	fetch := callOf(exec, "globalThis.fetch")
	if fetch == nil || len(fetch.Args[0].Flow.Params()) != 1 || fetch.Args[0].Flow[0].Key != "city" {
		t.Errorf("template string carries the destructured parameter and its prefix: %+v", fetch)
	}
	if callOf(exec, "globalThis.fetch().json") == nil {
		t.Errorf("method on an awaited fetch result: %+v", exec.Calls)
	}
	if len(exec.Returns.Calls()) == 0 || len(exec.Returns.Params()) == 0 {
		t.Errorf("returned object carries the fetch result and the parameter: %+v", exec.Returns)
	}
	if funcNamed(f, "obj.execute") == nil {
		t.Error("object method is a func named obj.execute")
	}
	obj := extract.Deref(&extract.Expr{Kind: extract.ExprName, Name: "obj", Scope: f.Scope})
	if e := field(obj, "run"); e == nil || e.Kind != extract.ExprName || e.Name != "run" {
		t.Errorf("shorthand key: %+v", e)
	}
	if r := funcNamed(f, "run"); r == nil || len(r.Returns.Params()) != 1 {
		t.Errorf("run returns its parameter: %+v", r)
	}
}

func TestModuleKeys(t *testing.T) {
	for rel, want := range map[string]string{"src/tools.ts": "src/tools", "src/tools/index.ts": "src/tools", "a.mjs": "a", "index.js": "index"} {
		if got := ModuleKey(rel); got != want {
			t.Errorf("ModuleKey(%s) = %s, want %s", rel, got, want)
		}
	}
	for spec, want := range map[string]string{"./tools.js": "src/tools", "../lib": "lib", "./dir/index": "src/dir", "node:fs": "fs", "@ai-sdk/openai": "@ai-sdk/openai"} {
		if got := Specifier("src/agent.ts", spec); got != want {
			t.Errorf("Specifier(%s) = %s, want %s", spec, got, want)
		}
	}
	if !Declaration("types/x.d.ts") || Declaration("x.ts") {
		t.Error("declaration files")
	}
}

// A class's methods are Class.method; this.method() calls are HeadSelf;
// a field built by a known constructor types this.field calls.
func TestClasses(t *testing.T) {
	src := `import { WebClient } from "@slack/web-api";
export class Notifier {
  client = new WebClient(process.env.SLACK_TOKEN);
  async notify(text: string) {
    this.log(text);
    await this.client.chat.postMessage({ channel: "#x", text });
  }
  log(m: string) { console.log(m); }
}
`
	f := parse(t, "n.ts", src)
	n := funcNamed(f, "notify")
	if n == nil || n.Qual != "Notifier.notify" {
		t.Fatalf("method: %+v", n)
	}
	if c := callOf(n, "Notifier.log"); c == nil || c.HeadKind != extract.HeadSelf {
		t.Errorf("this.log: %+v", n.Calls)
	}
	if c := callOf(n, "@slack/web-api.WebClient().chat.postMessage"); c == nil || len(c.Args[0].Flow.Params()) != 1 {
		t.Errorf("this.client.chat.postMessage: %+v", n.Calls)
	}
}

// What a loop pushes into a local array reaches the array's later uses.
func TestMutationsCarryFlows(t *testing.T) {
	src := `import { ImapFlow } from "imapflow";
export async function read(limit: number) {
  const client = new ImapFlow({ host: "h" });
  const messages: string[] = [];
  for await (const msg of client.fetch("1:*", { source: true })) {
    messages.push(` + "`${msg.source}`" + `);
  }
  const seen = new Map();
  seen.set("k", limit);
  return [messages.join("\n"), seen];
}
`
	f := parse(t, "r.ts", src)
	fn := funcNamed(f, "read")
	fetch := callOf(fn, "imapflow.ImapFlow().fetch")
	if fetch == nil {
		t.Fatalf("calls: %+v", fn.Calls)
	}
	found := false
	for _, o := range fn.Returns {
		if o.Call == fetch.Index {
			found = true
		}
	}
	if !found || len(fn.Returns.Params()) != 1 {
		t.Errorf("returns %+v: want the fetch result (through push) and the parameter (through set)", fn.Returns)
	}
}
