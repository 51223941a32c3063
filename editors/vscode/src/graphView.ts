// Renders the server's acg.showGraph answer (JSON format: the output
// contract per workspace folder plus graph nodes and edges) as Markdown a
// person can read. Free of the vscode module so the tests can run it on
// the real server's answer.

interface Agent {
  id: string;
  name: string;
  framework: string;
  file: string;
  line: number;
  tools: string[];
  capabilities: string[];
}

interface Tool {
  id: string;
  name: string;
  file: string;
  line: number;
  effects: Record<string, boolean>;
  decided_by: Record<string, string>;
}

interface Finding {
  rule: string;
  severity: string;
  agent: string;
  chain?: string[];
  location: { file: string; line: number };
  remediation?: string;
}

interface Edge {
  from: string;
  to: string;
  kind: string; // graph.json: one edge per kind
}

interface Folder {
  root: string;
  agents?: Agent[];
  tools?: Tool[];
  findings?: Finding[];
  edges?: Edge[];
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function toolEffects(t: Tool): string {
  const on = Object.keys(t.effects ?? {})
    .filter((k) => t.effects[k])
    .sort()
    .map((k) => `${k} (${t.decided_by?.[k] ?? "?"})`);
  return on.length > 0 ? on.join(", ") : "none";
}

function renderFolder(f: Folder, out: string[]): void {
  out.push(`## ${f.root}`, "");
  const tools = new Map((f.tools ?? []).map((t) => [t.id, t]));
  const agents = f.agents ?? [];
  if (agents.length === 0) {
    out.push("No agents found.", "");
  }
  for (const a of agents) {
    out.push(`### ${a.name} — ${a.framework}, ${a.file}:${a.line}`, "");
    out.push(`Reaches: ${a.capabilities.length > 0 ? a.capabilities.join(", ") : "nothing risky"}`, "");
    if (a.tools.length > 0) {
      out.push("| tool | where | effects (decided by) |", "|---|---|---|");
      for (const id of a.tools) {
        const t = tools.get(id);
        out.push(t ? `| ${cell(t.name)} | ${t.file}:${t.line} | ${cell(toolEffects(t))} |` : `| ${cell(id)} | | unknown |`);
      }
      out.push("");
    }
    const links = (f.edges ?? []).filter((e) => e.from === a.id && e.kind !== "uses");
    for (const e of links) {
      out.push(`- ${e.kind} → ${e.to}`);
    }
    if (links.length > 0) out.push("");
    const findings = (f.findings ?? []).filter((x) => x.agent === a.name);
    for (const x of findings) {
      const chain = x.chain && x.chain.length > 0 ? ` (${x.chain.join(" → ")})` : "";
      out.push(`- **${x.severity.toUpperCase()}** \`${x.rule}\`${chain} at ${x.location.file}:${x.location.line}`);
      if (x.remediation) out.push(`  - fix: ${x.remediation}`);
    }
    if (findings.length > 0) out.push("");
  }
}

export function renderGraph(graph: unknown): string {
  const folders = ((graph as { folders?: Folder[] })?.folders ?? []) as Folder[];
  const out = ["# acg capability graph", ""];
  if (folders.length === 0) {
    out.push("No workspace folder is being analysed.");
  }
  for (const f of folders) {
    renderFolder(f, out);
  }
  return out.join("\n");
}
