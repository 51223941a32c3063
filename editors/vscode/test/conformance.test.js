// Drives the real acg-lsp over stdio through vscode-languageserver-protocol
// on the inbox example: initialize, open, diagnostics with related
// information, hover, quick fix, apply it, diagnostics cleared, shutdown.
//
// Two client profiles: the capabilities vscode-languageclient 11 sends
// (pull diagnostics, UTF-16 only), and a push-only client that prefers UTF-8
// (what Neovim 0.10+, Helix and eglot look like to the server). The server
// binary is $ACG_LSP, else built from this checkout.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const rpc = require("vscode-languageserver-protocol/node");
const { Client, serverBinary, copyTree, repoRoot } = require("./lspclient");
const { renderGraph } = require("../out/graphView.js");

// What vscode-languageclient 11.0.0 fills in (its features'
// fillClientCapabilities), trimmed to the parts acg-lsp can use.
const vscodeCapabilities = {
  general: { positionEncodings: ["utf-16"], markdown: { parser: "marked", version: "1.1.0" } },
  window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: true } }, showDocument: { support: true } },
  workspace: {
    applyEdit: true,
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    executeCommand: { dynamicRegistration: true },
    workspaceEdit: { documentChanges: true, resourceOperations: ["create", "rename", "delete"], failureHandling: "textOnlyTransactional", normalizesLineEndings: true },
    diagnostics: { refreshSupport: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
    publishDiagnostics: { relatedInformation: true, versionSupport: false, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true, dataSupport: true },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false, relatedInformation: true, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true, dataSupport: true, markupMessageSupport: false },
    hover: { dynamicRegistration: true, contentFormat: ["markdown", "plaintext"] },
    codeAction: {
      dynamicRegistration: true,
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ["edit", "command"] },
      codeActionLiteralSupport: { codeActionKind: { valueSet: ["", "quickfix", "refactor", "source"] } },
      honorsChangeAnnotations: true,
    },
  },
};

// A push-only client offering UTF-8 first.
const pushUTF8Capabilities = {
  general: { positionEncodings: ["utf-8", "utf-16"] },
  window: { workDoneProgress: true },
  workspace: { applyEdit: true, configuration: true, workspaceFolders: true, workspaceEdit: { documentChanges: true } },
  textDocument: {
    synchronization: { didSave: true },
    publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true, versionSupport: true },
    hover: { contentFormat: ["markdown", "plaintext"] },
    codeAction: {
      isPreferredSupport: true,
      dataSupport: true,
      codeActionLiteralSupport: { codeActionKind: { valueSet: ["", "quickfix", "refactor", "source"] } },
    },
  },
};

// The "acg" section as VS Code returns it with the extension's defaults.
const vscodeSettings = {
  server: { path: "acg-lsp" },
  enabledRules: [],
  severityThreshold: "low",
  debounceMs: 150,
  proverPaths: { opengrep: "", semgrep: "", codeql: "" },
  engine: "auto",
  trace: { server: "off" },
};

const profiles = [
  { name: "vscode (pull, utf-16)", capabilities: vscodeCapabilities, settings: vscodeSettings, encoding: "utf-16", pull: true },
  { name: "push, utf-8 preferred", capabilities: pushUTF8Capabilities, settings: {}, encoding: "utf-8", pull: false },
];

let tmp;
let binary;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "acg-vscode-"));
  binary = serverBinary(tmp);
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const acgFindings = (diags) => (diags ?? []).filter((d) => d.source === "acg");

for (const profile of profiles) {
  test(`inbox end to end: ${profile.name}`, async (t) => {
    const root = copyTree(path.join(repoRoot, "testdata", "inbox"), path.join(tmp, profile.pull ? "pull" : "push", "inbox"));
    const client = new Client(binary, { root, capabilities: profile.capabilities, settings: profile.settings });
    t.after(() => client.kill());

    const init = await client.start();
    assert.equal(client.encoding, profile.encoding, "negotiated position encoding");
    assert.ok(init.capabilities.hoverProvider, "hoverProvider advertised");
    assert.ok(init.capabilities.codeActionProvider, "codeActionProvider advertised");
    const commands = init.capabilities.executeCommandProvider?.commands ?? [];
    for (const c of ["acg.rescan", "acg.showGraph"]) assert.ok(commands.includes(c), `command ${c} advertised: ${commands}`);

    const agent = await client.open("agent.py");
    const tools = client.uri("tools.py");
    // In pull mode the first pull may race the initial workspace scan; the
    // server then answers with a refresh when its analysis is ready.
    const diags = await client.waitFor("rule-of-two on agent.py", () => {
      const ds = acgFindings(client.diagnostics.get(agent));
      return ds.some((d) => d.code === "rule-of-two") && ds;
    });
    assert.equal(client.pullMode(), profile.pull, "diagnostic mode (pull iff the client offers it)");

    const r2 = diags.find((d) => d.code === "rule-of-two");
    assert.equal(r2.severity, rpc.DiagnosticSeverity.Error);
    assert.match(r2.message, /inbox_assistant/);
    assert.equal(r2.range.start.line, 8, "on the agent's declaration (agent.py line 9)");
    assert.match(r2.codeDescription?.href ?? "", /rule-of-two/);
    assert.ok(r2.data !== undefined, "data carries what the quick fix needs");
    const related = r2.relatedInformation ?? [];
    const relatedText = related.map((ri) => `${path.basename(new URL(ri.location.uri).pathname)}:${ri.location.range.start.line + 1} ${ri.message}`);
    for (const tool of ["read_email", "read_notes", "send_http"]) {
      assert.ok(related.some((ri) => ri.location.uri === tools && ri.message.includes(tool)), `related information names ${tool}: ${relatedText.join("; ")}`);
    }
    // The step that decided send_http's egress: requests.post on line 37.
    assert.ok(related.some((ri) => ri.location.uri === tools && ri.location.range.start.line === 36), `path step at tools.py:37: ${relatedText.join("; ")}`);

    // Hover on send_http in the tools=[...] list.
    const text = client.text(agent);
    const lines = text.split("\n");
    const toolsLine = lines.findIndex((l) => l.includes("tools=["));
    const hover = await client.request(rpc.HoverRequest.type, {
      textDocument: { uri: agent },
      position: { line: toolsLine, character: lines[toolsLine].indexOf("send_http") + 2 },
    });
    const hoverText = typeof hover?.contents === "string" ? hover.contents : hover?.contents?.value ?? JSON.stringify(hover?.contents);
    assert.equal(hover?.contents?.kind, "markdown", "hover is markdown");
    assert.match(hoverText, /send_http/);
    assert.match(hoverText, /network_egress/);
    assert.match(hoverText, /rules/);

    // Quick fix, asked as VS Code's lightbulb asks: every diagnostic under
    // the cursor, as the client holds it.
    const under = diags.filter((d) => d.range.start.line <= r2.range.start.line && d.range.end.line >= r2.range.start.line);
    const actions = await client.request(rpc.CodeActionRequest.type, {
      textDocument: { uri: agent },
      range: r2.range,
      context: { diagnostics: under, triggerKind: rpc.CodeActionTriggerKind.Invoked },
    });
    const fixes = (actions ?? []).filter((a) => a.kind === "quickfix");
    assert.ok(fixes.length > 0, `a quickfix is offered: ${JSON.stringify(actions)}`);
    const titles = fixes.map((a) => a.title);
    assert.equal(new Set(titles).size, titles.length, `each fix once for ${under.length} diagnostics: ${titles.join(" | ")}`);
    let fix = fixes.find((a) => a.isPreferred) ?? fixes[0];
    assert.ok(fix.isPreferred, "the approval gate is the preferred fix");
    if (fix.edit === undefined && init.capabilities.codeActionProvider?.resolveProvider) {
      fix = await client.request(rpc.CodeActionResolveRequest.type, fix);
    }
    assert.ok(fix.edit, `the fix carries an edit: ${JSON.stringify(fix)}`);
    const touched = await client.applyEdit(fix.edit);
    assert.ok(touched.includes(tools), "the gate goes into tools.py");
    const fixed = client.text(tools);
    assert.match(fixed, /^from langgraph\.types import interrupt$/m);
    const gate = fixed.split("\n").findIndex((l) => l.includes("interrupt("));
    const def = fixed.split("\n").findIndex((l) => l.startsWith("def send_http("));
    const post = fixed.split("\n").findIndex((l) => l.includes("requests.post("));
    assert.ok(def < gate && gate < post, `interrupt() sits in send_http before the POST:\n${fixed}`);
    // interrupt() needs a checkpointer: the same fix gives the agent one.
    assert.match(client.text(agent), /checkpointer=InMemorySaver\(\)/);

    // The next analysis clears every acg diagnostic on both files.
    await client.waitFor("diagnostics cleared", () => {
      const left = [...acgFindings(client.diagnostics.get(agent)), ...acgFindings(client.diagnostics.get(tools))];
      return left.length === 0;
    });

    // Applying the same fix again must not be offered: no finding, no action.
    const again = await client.request(rpc.CodeActionRequest.type, {
      textDocument: { uri: agent },
      range: r2.range,
      context: { diagnostics: [], triggerKind: rpc.CodeActionTriggerKind.Invoked },
    });
    assert.equal((again ?? []).filter((a) => a.kind === "quickfix").length, 0, "no quick fix once gated");

    // Pull or push, never both.
    assert.ok(profile.pull ? client.pulls > 0 && client.pushes === 0 : client.pulls === 0 && client.pushes > 0, `pulls ${client.pulls}, pushes ${client.pushes}`);

    const { code } = await client.shutdown();
    assert.equal(code, 0, `exit code after shutdown+exit\nstderr:\n${client.stderr}`);
  });
}

test("rescan and showGraph commands answer", async (t) => {
  const root = copyTree(path.join(repoRoot, "testdata", "inbox"), path.join(tmp, "commands", "inbox"));
  const client = new Client(binary, { root, capabilities: vscodeCapabilities, settings: vscodeSettings });
  t.after(() => client.kill());
  await client.start();
  await client.open("agent.py");
  await client.request(rpc.ExecuteCommandRequest.type, { command: "acg.rescan", arguments: [] });
  const graph = await client.request(rpc.ExecuteCommandRequest.type, { command: "acg.showGraph", arguments: [] });
  // What "acg: Show Capability Graph" opens.
  const shown = renderGraph(graph);
  assert.match(shown, /^### inbox_assistant — langgraph, agent\.py:9$/m, shown);
  assert.match(shown, /^Reaches: UNTRUSTED_SOURCE, READ_PRIVATE, EGRESS$/m, shown);
  assert.match(shown, /^\| send_http \| tools\.py:35 \| irreversible \(rules\), network_egress \(rules\) \|$/m, shown);
  assert.match(shown, /^- \*\*CRITICAL\*\* `rule-of-two`.* at agent\.py:9$/m, shown);
  const { code } = await client.shutdown();
  assert.equal(code, 0, `exit code after shutdown+exit\nstderr:\n${client.stderr}`);
});

test("settings: workspace/configuration and didChangeConfiguration filter findings", async (t) => {
  const root = copyTree(path.join(repoRoot, "testdata", "inbox"), path.join(tmp, "settings", "inbox"));
  const settings = { ...vscodeSettings, severityThreshold: "critical" };
  const client = new Client(binary, { root, capabilities: pushUTF8Capabilities, settings });
  t.after(() => client.kill());
  await client.start();
  // The rules VS Code's settings UI offers are the checks the server runs
  // (it names them in its first log line).
  const line = await client.waitFor("the server's list of checks", () => client.logs.find((l) => /checks:/.test(l)));
  const served = line.replace(/^.*checks:\s*/, "").split(/\s+/).filter(Boolean).sort();
  const offered = [...require("../package.json").contributes.configuration.properties["acg.enabledRules"].items.enum].sort();
  assert.deepEqual(offered, served, "acg.enabledRules enum in package.json vs the server's checks");
  const agent = await client.open("agent.py");
  const codes = () => new Set(acgFindings(client.diagnostics.get(agent)).map((d) => d.code));
  // critical only: rule-of-two (critical) stays, missing-approval (high) goes.
  await client.waitFor("threshold critical", () => codes().has("rule-of-two") && !codes().has("missing-approval"));
  // The user edits settings.json; VS Code sends the section itself.
  client.settings = { ...vscodeSettings, enabledRules: ["missing-approval"] };
  await client.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, { settings: { acg: client.settings } });
  await client.waitFor("only missing-approval when it is the one rule enabled", () => [...codes()].join() === "missing-approval");
  // The pull style: settings null, the server asks again.
  client.settings = vscodeSettings;
  await client.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, { settings: null });
  await client.waitFor("every finding with the defaults", () => codes().has("missing-approval") && codes().has("rule-of-two"));
  const { code } = await client.shutdown();
  assert.equal(code, 0);
});
