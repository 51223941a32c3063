"""Run ZIRAN's tool-chain analyzer on the capability graph acg wrote.

Usage: python ziran_chain.py GRAPH.json   (acg scan --graph GRAPH.json)

ZIRAN reads no code for chains: its analyzer works on a NetworkX graph that
its adapters fill from a live agent, traces or Claude Code tool lists. This
gives it the same shape acg found in the generated code: agent nodes using
their tools, each tool's result returning into its agent's context, and
each handoff a delegation edge. ZIRAN matches tools by name against its
pattern database, so each generated tool is named in ZIRAN's vocabulary by
what the generator made it do (KINDS); nodes are otherwise as acg saw them.
Cycles are not enumerated, as in ZIRAN's own static audit of agents
(claude_code_audit.agent_chains). Prints one JSON line: seconds spent in
building the graph and in analyze(), and the chains found.
"""

import json
import sys
import time

from ziran.application.knowledge_graph.chain_analyzer import ToolChainAnalyzer
from ziran.application.knowledge_graph.graph import AttackKnowledgeGraph, EdgeType

# The generator's tool kinds (internal/gentree chainKinds) in ZIRAN's words.
KINDS = {
    "fetch": "http_request",
    "read_note": "read_file",
    "post": "http_request",
    "send_mail": "send_email",
    "run": "shell_execute",
}


def ziran_name(name: str) -> str:
    kind, _, n = name.rpartition("_")
    return f"{KINDS.get(kind, kind)}_{n}" if n.isdigit() else name


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as fh:
        doc = json.load(fh)
    start = time.perf_counter()
    g = AttackKnowledgeGraph()
    kind = {n["id"]: n["kind"] for n in doc["nodes"]}
    tool_id, used = {}, set()
    for n in doc["nodes"]:
        if n["kind"] == "agent":
            g.add_agent_node(n["id"])
        elif n["kind"] == "tool":
            name = ziran_name(n["name"])
            while name in used:  # ZIRAN keys tools by name
                name += "_"
            used.add(name)
            tool_id[n["id"]] = name
            g.add_tool(name)
    for e in doc["edges"]:
        src, dst = e["from"], e["to"]
        if e["kind"] == "uses" and kind.get(dst) == "tool":
            g.add_edge(src, tool_id[dst], EdgeType.USES_TOOL)
            g.add_edge(tool_id[dst], src, EdgeType.LEADS_TO)
        elif kind.get(src) == "agent" and kind.get(dst) == "agent":
            g.add_delegation_edge(src, dst, e["kind"])
    built = time.perf_counter()
    chains = ToolChainAnalyzer(g).analyze(include_cycles=False)
    done = time.perf_counter()
    print(json.dumps({"build_s": round(built - start, 3), "analyze_s": round(done - built, 3), "chains": len(chains)}))


if __name__ == "__main__":
    main()
