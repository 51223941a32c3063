// Package gentree generates realistic agent workspaces of any size for
// benchmarks: tool modules with network, file, database and shell tools,
// and agent modules wiring them into LangGraph and OpenAI Agents agents
// across files.
package gentree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Write generates n Python files under root (n ≥ 2) and returns the total
// number of lines written.
func Write(root string, n int) (lines int, err error) {
	for i := 0; i < n; i++ {
		var name, body string
		if i%4 == 3 {
			name, body = fmt.Sprintf("pkg%d/agents_%d.py", i/20, i), agentModule(i)
		} else {
			name, body = fmt.Sprintf("pkg%d/tools_%d.py", i/20, i), toolModule(i)
		}
		full := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			return 0, err
		}
		lines += strings.Count(body, "\n")
		if init := filepath.Join(filepath.Dir(full), "__init__.py"); !exists(init) {
			if err := os.WriteFile(init, nil, 0o644); err != nil {
				return 0, err
			}
		}
	}
	return lines, nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func toolModule(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `"""Generated tool module %d."""
import json
import os
import sqlite3
import subprocess
from pathlib import Path

import requests
from langchain_core.tools import tool

BASE = Path(os.environ.get("DATA_DIR", "/srv/data"))
`, i)
	for j := 0; j < 4; j++ {
		k := i*10 + j
		fmt.Fprintf(&b, `

def _normalise_%[1]d(text: str) -> str:
    cleaned = " ".join(text.split())
    return cleaned[:2000]


@tool
def fetch_%[1]d(url: str) -> str:
    """Fetch a page and return its text."""
    resp = requests.get(url, timeout=10)
    resp.raise_for_status()
    return _normalise_%[1]d(resp.text)


@tool
def read_%[1]d(name: str) -> str:
    """Read a stored document."""
    path = BASE / f"{name}.json"
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return json.dumps(data.get("body", ""))


@tool
def query_%[1]d(customer: str) -> str:
    """Look up orders of a customer."""
    conn = sqlite3.connect(str(BASE / "orders.db"))
    cur = conn.cursor()
    cur.execute("SELECT id, total FROM orders WHERE customer = ?", (customer,))
    rows = cur.fetchall()
    conn.close()
    return "\n".join(f"{r[0]}: {r[1]}" for r in rows)


@tool
def notify_%[1]d(channel: str, message: str) -> str:
    """Post a message to a chat webhook."""
    payload = {"channel": channel, "text": _normalise_%[1]d(message)}
    r = requests.post("https://hooks.example.com/services/T000", json=payload, timeout=10)
    return "ok" if r.ok else "failed"


def _git_status_%[1]d() -> str:
    return subprocess.run(["git", "status", "--short"], capture_output=True, text=True).stdout
`, k)
	}
	return b.String()
}

func agentModule(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"Generated agent module %d.\"\"\"\nfrom agents import Agent, function_tool\nfrom langgraph.prebuilt import create_react_agent\n\n", i)
	src := []int{i - 1, i - 2, i - 3}
	for _, s := range src {
		fmt.Fprintf(&b, "from .tools_%d import fetch_%d, read_%d, notify_%d\n", s, s*10, s*10+1, s*10+2)
	}
	fmt.Fprintf(&b, `

@function_tool
def summarise_%[1]d(text: str) -> str:
    """Summarise text."""
    return text[:200]


researcher_%[1]d = create_react_agent("openai:gpt-4o", [fetch_%[2]d, read_%[3]d], name="researcher_%[1]d")
notifier_%[1]d = create_react_agent("openai:gpt-4o", [read_%[4]d, notify_%[5]d], name="notifier_%[1]d")
helper_%[1]d = Agent(name="helper_%[1]d", tools=[summarise_%[1]d])
triage_%[1]d = Agent(name="triage_%[1]d", handoffs=[helper_%[1]d])
`, i, src[0]*10, src[1]*10+1, src[2]*10+1, src[2]*10+2)
	return b.String()
}

// HandoffChain generates the multi-agent shape whose findings used to grow
// with the square of its size: tools mixed kinds of tools spread over
// agents OpenAI Agents SDK agents (one module each), every agent handing off
// to the next, so the first agent reaches every tool downstream. It returns
// the number of files written.
func HandoffChain(root string, tools, agents int) (files int, err error) {
	if agents < 1 {
		agents = 1
	}
	per := (tools + agents - 1) / agents
	for a := 0; a < agents; a++ {
		var b strings.Builder
		fmt.Fprintf(&b, `"""Generated agent %d of a handoff chain."""
import json
import os
import smtplib
import subprocess

import requests
from agents import Agent, function_tool
`, a)
		if a+1 < agents {
			fmt.Fprintf(&b, "\nfrom .agent_%d import agent_%d\n", a+1, a+1)
		}
		var names []string
		for k := 0; k < per && a*per+k < tools; k++ {
			n := a*per + k
			name := fmt.Sprintf("%s_%d", chainKinds[n%len(chainKinds)].name, n)
			names = append(names, name)
			fmt.Fprintf(&b, "\n\n@function_tool\n"+chainKinds[n%len(chainKinds)].body, name)
		}
		handoffs := ""
		if a+1 < agents {
			handoffs = fmt.Sprintf(", handoffs=[agent_%d]", a+1)
		}
		fmt.Fprintf(&b, "\n\nagent_%d = Agent(name=\"agent_%d\", instructions=\"Step %d.\", tools=[%s]%s)\n",
			a, a, a, strings.Join(names, ", "), handoffs)
		full := filepath.Join(root, "chain", fmt.Sprintf("agent_%d.py", a))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return files, err
		}
		if err := os.WriteFile(full, []byte(b.String()), 0o644); err != nil {
			return files, err
		}
		files++
	}
	return files, os.WriteFile(filepath.Join(root, "chain", "__init__.py"), nil, 0o644)
}

// chainKinds are the tools of a handoff chain, in turn: untrusted input,
// private data, egress, an irreversible message and code execution, each
// decided from the code.
var chainKinds = []struct{ name, body string }{
	{"fetch", `def %s(url: str) -> str:
    """Fetch a page and return its text."""
    return requests.get(url, timeout=10).text
`},
	{"read_note", `def %s(name: str) -> str:
    """Read a private note."""
    with open(os.path.join("/srv/notes", name), encoding="utf-8") as fh:
        return fh.read()
`},
	{"post", `def %s(url: str, body: str) -> str:
    """Post data to a URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)
`},
	{"send_mail", `def %s(to: str, body: str) -> str:
    """Send an email."""
    with smtplib.SMTP_SSL("smtp.example.com") as s:
        s.sendmail("bot@example.com", [to], body)
    return "sent"
`},
	{"run", `def %s(command: str) -> str:
    """Run a shell command."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
`},
}

// ToolFile returns one tool module of at least lines lines (the blocks of
// Write's tool modules, one after the other): the size of file the
// language server's on-save provers are measured on.
func ToolFile(lines int) string {
	var b strings.Builder
	for i := 0; strings.Count(b.String(), "\n") < lines; i++ {
		b.WriteString(toolModule(i))
	}
	return b.String()
}

// SingleAgent generates the flat shape: tools tools of the handoff chain's
// mixed kinds in one module, all given to one OpenAI Agents SDK agent. It
// returns the number of files written.
func SingleAgent(root string, tools int) (files int, err error) {
	var b strings.Builder
	b.WriteString(`"""Generated agent with many tools."""
import json
import os
import smtplib
import subprocess

import requests
from agents import Agent, function_tool
`)
	names := make([]string, 0, tools)
	for n := 0; n < tools; n++ {
		k := chainKinds[n%len(chainKinds)]
		name := fmt.Sprintf("%s_%d", k.name, n)
		names = append(names, name)
		fmt.Fprintf(&b, "\n\n@function_tool\n"+k.body, name)
	}
	fmt.Fprintf(&b, "\n\nagent = Agent(name=\"agent\", instructions=\"Do everything.\", tools=[%s])\n", strings.Join(names, ", "))
	dir := filepath.Join(root, "single")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "__init__.py"), nil, 0o644); err != nil {
		return 0, err
	}
	return 2, os.WriteFile(filepath.Join(dir, "agent.py"), []byte(b.String()), 0o644)
}
