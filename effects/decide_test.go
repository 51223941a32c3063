package effects_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/python"
)

// localResolver resolves calls to functions of the same file, which is all
// these single-file cases need (cross-file resolution is the workspace's).
type localResolver struct{ f *extract.File }

func (r localResolver) Callee(c *extract.Call) *extract.Func {
	name := c.Qual
	switch c.HeadKind {
	case extract.HeadLocal, extract.HeadSelf:
		if cls := r.f.Classes[name]; cls != nil {
			return cls.Methods["__init__"]
		}
	case extract.HeadObject:
		// MyClass().method
		cls, m, ok := strings.Cut(name, "().")
		if !ok || r.f.Classes[cls] == nil {
			return nil
		}
		return r.f.Classes[cls].Methods[m]
	default:
		return nil
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		cls := r.f.Classes[name[:i]]
		if cls == nil {
			return nil
		}
		return cls.Methods[name[i+1:]]
	}
	for _, fn := range r.f.Funcs {
		if fn.Qual == name {
			return fn
		}
	}
	return nil
}

func (r localResolver) FuncOf(e *extract.Expr) *extract.Func { return nil }

func (r localResolver) Requalify(c *extract.Call) (string, bool) { return "", false }
func (r localResolver) RunsTool(c *extract.Call) bool            { return false }

// labelsOf analyses the function `tool` of src as a tool.
func labelsOf(t *testing.T, src string) (*effects.Effects, []string) {
	t.Helper()
	tree, err := python.Parse(context.Background(), []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	f := python.Extract("t.py", []byte(src), tree)
	var fn *extract.Func
	for _, x := range f.Funcs {
		if x.Name == "tool" {
			fn = x
		}
	}
	if fn == nil {
		t.Fatal("no function named tool")
	}
	e := effects.NewAnalyzer(localResolver{f}).ToolFunc(fn, false)
	var on []string
	for _, l := range effects.Labels {
		if e.Has(l) {
			on = append(on, string(l))
		}
	}
	sort.Strings(on)
	return e, on
}

func TestCallDecisions(t *testing.T) {
	const all = "executes_code irreversible network_egress reads_private untrusted_input writes_state"
	cases := []struct {
		name, src, want string
		by              effects.Decider // decider of every present label ("" = rules)
	}{
		{"get returned is untrusted input", `
import requests
def tool():
    return requests.get("https://news.example.com/feed").text`, "untrusted_input", ""},
		{"get to a model-chosen url is also egress", `
import requests
def tool(url):
    return requests.get(url).text`, "network_egress untrusted_input", ""},
		{"query to a fixed host is a search api: untrusted only", `
import requests
def tool(q):
    return requests.get("https://api.search.example/v1", params={"q": q}).text`, "untrusted_input", ""},
		{"f-string url with fixed host", `
import httpx
def tool(q):
    return httpx.get(f"https://api.example.com/search?q={q}").json()`, "untrusted_input", ""},
		{"f-string url with model host", `
import httpx
def tool(host):
    return httpx.get(f"https://{host}/x").text`, "network_egress untrusted_input", ""},
		{"fixed request returning only a status is neither", `
import requests
def tool():
    r = requests.post("https://hooks.example.com/ping", timeout=3)
    return f"status {r.status_code}"`, "", ""},
		{"delete is irreversible", `
import requests
def tool(item):
    requests.delete("https://api.example.com/items/" + item)
    return "gone"`, "irreversible network_egress writes_state", ""},
		{"post to a fixed host is not irreversible by itself", `
import requests
def tool(q):
    return requests.post("https://api.search.example/v1/search", json={"q": q}).json()["answer"]`, "network_egress untrusted_input", ""},
		{"post of a parameter is egress", `
import requests
def tool(body):
    requests.post("https://hooks.example.com/x", json={"text": body})
    return "ok"`, "network_egress", ""},
		{"post result returned is also untrusted", `
import requests
def tool(body):
    return requests.post("https://api.example.com/ask", data=body).text`, "network_egress untrusted_input", ""},
		{"session post through with-statement", `
import requests
def tool(url, body):
    with requests.Session() as s:
        s.post(url, data=body)
    return "sent"`, "irreversible network_egress", ""},
		{"method chosen at run time fails closed to send or delete", `
import requests
def tool(method, url, body):
    requests.request(method, url, data=body)
    return "done"`, "irreversible network_egress writes_state", ""},
		{"GET through requests.request", `
import requests
def tool():
    return requests.request("GET", "https://example.com/a").text`, "untrusted_input", ""},
		{"imap fetch returned: untrusted and private", `
import imaplib
def tool():
    conn = imaplib.IMAP4_SSL("imap.example.com")
    _, data = conn.fetch(b"1", "(RFC822)")
    return data[0][1].decode()`, "reads_private untrusted_input", ""},
		{"imap fetch not returned", `
import imaplib
def tool():
    conn = imaplib.IMAP4_SSL("imap.example.com")
    _, data = conn.fetch(b"1", "(RFC822)")
    return str(len(data))`, "", ""},
		{"env var in a header is not a private read", `
import os, requests
def tool():
    r = requests.get("https://api.example.com/me", headers={"Authorization": os.environ["TOKEN"]})
    return str(r.status_code)`, "", ""},
		{"env var returned", `
import os
def tool(name):
    return os.environ.get(name, "")`, "reads_private", ""},
		{"smtp send of model text", `
import smtplib
def tool(to, body):
    with smtplib.SMTP("localhost") as s:
        s.sendmail("me@example.com", [to], body)
    return "sent"`, "irreversible network_egress", ""},
		{"shell with model command can do everything", `
import subprocess
def tool(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True).stdout`, all, ""},
		{"fixed command output returned is private", `
import subprocess
def tool():
    return subprocess.check_output(["git", "log", "-1"], text=True)`, "reads_private", ""},
		{"eval of model code", `
def tool(expr):
    return str(eval(expr))`, all, ""},
		{"open for reading, returned", `
def tool(name):
    with open(f"notes/{name}.md") as fh:
        return fh.read()`, "reads_private", ""},
		{"open for writing", `
def tool(text):
    with open("out.txt", "w") as fh:
        fh.write(text)
    return "saved"`, "writes_state", ""},
		{"open with computed mode fails closed to both", `
def tool(mode):
    with open("x.txt", mode) as fh:
        return fh.read()`, "reads_private writes_state", ""},
		{"pathlib read through a module constant", `
from pathlib import Path
NOTES = Path.home() / "notes.md"
def tool():
    return NOTES.read_text()`, "reads_private", ""},
		{"delete is irreversible", `
import shutil
def tool(path):
    shutil.rmtree(path)
    return "gone"`, "irreversible writes_state", ""},
		{"select returned", `
import sqlite3
def tool(k):
    cur = sqlite3.connect("a.db").cursor()
    cur.execute("SELECT v FROM t WHERE k = ?", (k,))
    return str(cur.fetchall())`, "reads_private", ""},
		{"delete statement", `
import sqlite3
def tool(k):
    conn = sqlite3.connect("a.db")
    conn.execute("DELETE FROM t WHERE k = ?", (k,))
    conn.commit()
    return "ok"`, "irreversible writes_state", ""},
		{"model-written sql", `
import sqlite3
def tool(sql):
    return str(sqlite3.connect("a.db").execute(sql).fetchall())`, "irreversible reads_private writes_state", ""},
		{"only builds a string", `
def tool(to, body):
    """Send mail via smtplib.SMTP(...).sendmail — documented, not done."""
    # subprocess.run(body, shell=True)
    return f"would send {body!r} to {to}"`, "", ""},
		{"logging is not egress", `
import logging
def tool(to, body):
    logging.getLogger("x").info("send %s %s", to, body)
    return "queued"`, "", ""},
		{"helper in the same file carries the parameter", `
import requests
def _send(u, payload):
    return requests.post(u, json=payload)
def tool(url, text):
    _send(url, {"t": text})
    return "ok"`, "irreversible network_egress", ""},
		{"helper called with constants only", `
import requests
def _ping(u):
    return requests.post(u)
def tool(text):
    _ping("https://example.com/ping")
    return "ok"`, "", ""},
		{"method of a local class", `
import requests
class Client:
    def __init__(self):
        self.s = requests.Session()
    def send(self, url, body):
        self.s.post(url, data=body)
def tool(url, body):
    Client().send(url, body)
    return "ok"`, "irreversible network_egress", ""},
		{"unknown library call fails closed", `
import mystery
def tool(x):
    return mystery.do(x)`, all, effects.ByDefault},
		{"a method the rules do not list on a modelled client fails closed", `
from slack_sdk import WebClient
def tool(user):
    return WebClient(token="t").admin_users_remove(user=user)`, all, effects.ByDefault},
		{"building a tool object does nothing; running it is unknown", `
from langchain_core.tools import tool as make_tool
from pydantic import BaseModel
class Done(BaseModel):
    ok: bool
def tool(x):
    schema_only = make_tool(Done)
    return make_tool(x).invoke({"q": x})`, all, effects.ByDefault},
		{"building a schema-only tool object does nothing", `
from langchain_core.tools import tool as make_tool
from pydantic import BaseModel
class Done(BaseModel):
    ok: bool
def tool(x):
    return [make_tool(Done)]`, "", ""},
		{"unknown call with constants only still may write", `
import mystery
def tool():
    mystery.reset()
    return "ok"`, "irreversible writes_state", effects.ByDefault},
		{"vector store search", `
from langchain_chroma import Chroma
store = Chroma(collection_name="docs")
def tool(q):
    return "\n".join(d.page_content for d in store.similarity_search(q))`, "reads_private untrusted_input", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, on := labelsOf(t, tc.src)
			if got := strings.Join(on, " "); got != tc.want {
				t.Errorf("labels = %q, want %q", got, tc.want)
				for _, l := range effects.Labels {
					for _, ev := range e.Get(l).Evidence {
						t.Logf("  %s: %s (%s)", l, ev.Detail, e.Get(l).DecidedBy)
					}
				}
			}
			want := tc.by
			if want == "" {
				want = effects.ByRules
			}
			for _, l := range effects.Labels {
				if e.Has(l) && e.Get(l).DecidedBy != want {
					t.Errorf("%s decided by %s, want %s", l, e.Get(l).DecidedBy, want)
				}
				if !e.Has(l) && e.Get(l).DecidedBy != effects.ByRules {
					t.Errorf("absent %s decided by %s, want rules", l, e.Get(l).DecidedBy)
				}
			}
		})
	}
}

func TestGates(t *testing.T) {
	cases := []struct {
		name, src string
		gated     bool
	}{
		{"interrupt before the post", `
import requests
from langgraph.types import interrupt
def tool(url, body):
    ok = interrupt({"url": url})
    if ok != "yes":
        return "rejected"
    requests.post(url, data=body)
    return "sent"`, true},
		{"interrupt after the post", `
import requests
from langgraph.types import interrupt
def tool(url, body):
    requests.post(url, data=body)
    interrupt({"sent": url})
    return "sent"`, false},
		{"interrupt only on one branch", `
import requests
from langgraph.types import interrupt
def tool(url, body, careful):
    if careful:
        interrupt({"url": url})
    requests.post(url, data=body)
    return "sent"`, false},
		{"interrupt in an if condition dominates the body", `
import requests
from langgraph.types import interrupt
def tool(url, body):
    if interrupt({"url": url}) == "yes":
        requests.post(url, data=body)
    return "done"`, true},
		{"an unrelated function named interrupt is no gate", `
import requests
def interrupt(x):
    return x
def tool(url, body):
    interrupt(url)
    requests.post(url, data=body)
    return "sent"`, false},
		{"a helper that always asks gates its callers", `
import requests
from langgraph.types import interrupt
def approve(what):
    answer = interrupt(what)
    return answer
def tool(url, body):
    approve({"url": url})
    requests.post(url, data=body)
    return "sent"`, true},
		{"elicitation before the action", `
import requests
async def tool(url: str, body: str, ctx: Context) -> str:
    answer = await ctx.elicit("Send it?", schema=Confirm)
    requests.post(url, data=body)
    return "sent"`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := labelsOf(t, tc.src)
			if !e.Has(effects.NetworkEgress) {
				t.Fatal("no egress found")
			}
			if got := e.Get(effects.NetworkEgress).Gated(); got != tc.gated {
				t.Errorf("gated = %v, want %v", got, tc.gated)
			}
		})
	}
}

func TestEvidenceKeepsLocations(t *testing.T) {
	e, _ := labelsOf(t, `
import requests
def tool(body):
    x = body.upper()
    return requests.post("https://hooks.example.com/x", data=x).text
`)
	r := e.Get(effects.NetworkEgress)
	if len(r.Evidence) == 0 {
		t.Fatal("no evidence")
	}
	ev := r.Evidence[0]
	if ev.Loc.Start.Line != 5 || ev.Loc.File != "t.py" {
		t.Errorf("evidence at %s:%d, want t.py:5", ev.Loc.File, ev.Loc.Start.Line)
	}
	var msgs []string
	for _, s := range ev.Steps {
		msgs = append(msgs, s.Msg)
	}
	if got := strings.Join(msgs, " | "); got != "parameter body | x | reaches requests.post" {
		t.Errorf("steps = %q", got)
	}
}

func TestModelCallsHaveNoEffects(t *testing.T) {
	for _, src := range []string{`
from langchain.chat_models import init_chat_model
llm = init_chat_model("openai:gpt-4.1")
bound = llm.bind_tools([], tool_choice="any")
def tool(state):
    return {"messages": [bound.invoke(state["messages"])]}`, `
from openai import OpenAI
client = OpenAI()
def tool(q):
    return client.chat.completions.create(model="m", messages=[{"role": "user", "content": q}]).choices[0].message.content`, `
from langchain_openai import ChatOpenAI
def tool(q):
    return ChatOpenAI(model="m").with_structured_output(dict).invoke(q)`,
	} {
		if _, on := labelsOf(t, src); len(on) != 0 {
			t.Errorf("a model call has no effect label, got %v for\n%s", on, src)
		}
	}
}

func TestURLPrefixThroughConstants(t *testing.T) {
	for _, src := range []string{`
import requests
TICKETS = "https://helpdesk.example.com/api/tickets"
def tool(ticket_id):
    return requests.get(f"{TICKETS}/{ticket_id}").text`, `
import requests
BASE = "https://helpdesk.example.com/"
def tool(ticket_id):
    return requests.get(BASE + ticket_id).text`,
	} {
		if _, on := labelsOf(t, src); strings.Join(on, " ") != "untrusted_input" {
			t.Errorf("a constant base URL fixes the host: got %v for\n%s", on, src)
		}
	}
}

// TestClientHousekeeping: configuring a modelled client (its headers, its
// adapters) is not a request, while a method the rules do not list stays
// unknown (TestCallDecisions).
func TestClientHousekeeping(t *testing.T) {
	e, on := labelsOf(t, `
import requests
def tool(token):
    s = requests.Session()
    s.headers.update({"Authorization": "Bearer " + token})
    s.mount("https://", None)
    s.close()
    return "ready"`)
	if len(on) != 0 {
		t.Errorf("labels = %v, want none", on)
		for _, l := range effects.Labels {
			for _, ev := range e.Get(l).Evidence {
				t.Logf("  %s: %s", l, ev.Detail)
			}
		}
	}
}
