package gentree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// AgentModuleLines is the size of Workspace's agent module: the size of the
// file the language server's keystroke benchmarks edit.
const AgentModuleLines = 2000

// Workspace writes a synthetic but realistic agent project of files Python
// files under dir (files ≥ 6): Write's tool and agent modules across
// packages, their __init__.py files, and one agent module of
// AgentModuleLines lines (BigAgent) that imports tools from another module
// and breaks the Rule of Two. It returns the agent module's path relative
// to dir, slash-separated.
func Workspace(dir string, files int) (agentModule string, err error) {
	return WorkspaceLines(dir, files, AgentModuleLines)
}

// WorkspaceLines is Workspace with an agent module of about lines lines.
func WorkspaceLines(dir string, files, lines int) (agentModule string, err error) {
	// Write puts 20 modules in a package, each package with an __init__.py;
	// one file is the agent module.
	n := files - 1
	n -= (n + 20) / 21
	if n < 4 {
		return "", fmt.Errorf("gentree.Workspace: %d files is too few", files)
	}
	if _, err := Write(dir, n); err != nil {
		return "", err
	}
	rel := "pkg0/big_agent.py"
	return rel, os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(BigAgent(lines)), 0o644)
}

// BigAgent is a module of about lines lines: many helpers and local tools,
// tools imported from gentree's module tools_0, and an agent over all of
// them.
func BigAgent(lines int) string {
	var b strings.Builder
	b.WriteString(`"""A large agent module: many local tools and helpers around one agent."""
import json
import os
import subprocess
from pathlib import Path

import requests
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

from .tools_0 import fetch_0, notify_2, read_1
`)
	var toolNames []string
	for n := 0; strings.Count(b.String(), "\n") < lines-20; n++ {
		switch n % 4 {
		case 0:
			fmt.Fprintf(&b, `

def helper_%d(items: list, factor: int = 2) -> list:
    """Scale every item; a plain helper, not a tool."""
    out = []
    for item in items:
        if isinstance(item, int):
            out.append(item * factor)
        else:
            out.append(item)
    return out
`, n)
		case 1:
			fmt.Fprintf(&b, `

@tool
def compute_%d(a: int, b: int) -> str:
    """Add two numbers and describe the result."""
    total = helper_%d([a, b])
    return json.dumps({"sum": sum(total), "n": %d})
`, n, n-1, n)
			toolNames = append(toolNames, fmt.Sprintf("compute_%d", n))
		case 2:
			fmt.Fprintf(&b, `

@tool
def lookup_%d(key: str) -> str:
    """Look a key up in the local cache file."""
    path = Path.home() / ".cache" / "lookup_%d.json"
    data = json.loads(path.read_text())
    return str(data.get(key))
`, n, n)
			toolNames = append(toolNames, fmt.Sprintf("lookup_%d", n))
		case 3:
			fmt.Fprintf(&b, `

class Formatter%d:
    """Formats records for display."""

    def __init__(self, width: int = 80):
        self.width = width

    def render(self, record: dict) -> str:
        text = ", ".join(f"{k}={v}" for k, v in record.items())
        return text[: self.width]
`, n)
		}
	}
	if len(toolNames) > 40 {
		toolNames = toolNames[:40]
	}
	fmt.Fprintf(&b, `

model = ChatOpenAI(model="gpt-4o-mini")

big_agent = create_react_agent(
    model,
    tools=[fetch_0, read_1, notify_2, %s],
    prompt="You do everything.",
)
`, strings.Join(toolNames, ", "))
	return b.String()
}
