// A small LSP client on vscode-languageserver-protocol, the protocol layer
// vscode-languageclient (and so VS Code) speaks through. It does what the
// editor does around the server: answers server requests, keeps open
// documents, pulls diagnostics the way VS Code does when the server offers
// pull, stores pushed ones otherwise, and applies workspace edits.
"use strict";

const cp = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL, fileURLToPath } = require("node:url");
const rpc = require("vscode-languageserver-protocol/node");
const { TextDocument } = require("vscode-languageserver-textdocument");

const repoRoot = path.resolve(__dirname, "..", "..", "..");

// serverBinary returns the acg-lsp to test: $ACG_LSP when set, else one
// built from this checkout into dir.
function serverBinary(dir) {
  if (process.env.ACG_LSP) {
    return process.env.ACG_LSP;
  }
  const out = path.join(dir, "acg-lsp");
  cp.execFileSync("go", ["build", "-o", out, "./cmd/acg-lsp"], { cwd: repoRoot, stdio: "inherit" });
  return out;
}

// copyTree copies a fixture so edits never touch testdata.
function copyTree(from, to) {
  fs.cpSync(from, to, { recursive: true });
  return to;
}

function languageId(file) {
  if (file.endsWith(".py")) return "python";
  if (/\.[mc]?ts$/.test(file)) return "typescript";
  if (file.endsWith(".tsx")) return "typescriptreact";
  if (/\.[mc]?js$/.test(file)) return "javascript";
  if (file.endsWith(".jsx")) return "javascriptreact";
  if (file.endsWith(".json")) return "json";
  if (file.endsWith(".md")) return "markdown";
  return "plaintext";
}

// offsetAt converts an LSP position in the negotiated encoding to a JS
// string index. Columns past the end of the line clamp to it, as editors do.
function offsetAt(text, pos, encoding) {
  let lineStart = 0;
  for (let l = 0; l < pos.line; l++) {
    const nl = text.indexOf("\n", lineStart);
    if (nl < 0) return text.length;
    lineStart = nl + 1;
  }
  let lineEnd = text.indexOf("\n", lineStart);
  if (lineEnd < 0) lineEnd = text.length;
  if (encoding === "utf-16") {
    return Math.min(lineStart + pos.character, lineEnd);
  }
  let units = 0;
  let i = lineStart;
  while (i < lineEnd && units < pos.character) {
    const cpt = text.codePointAt(i);
    const width = cpt > 0xffff ? 2 : 1;
    if (encoding === "utf-8") {
      units += cpt < 0x80 ? 1 : cpt < 0x800 ? 2 : cpt < 0x10000 ? 3 : 4;
    } else {
      units += 1; // utf-32
    }
    i += width;
  }
  return i;
}

// positionAt is offsetAt's inverse.
function positionAt(text, offset, encoding) {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  const lineText = before.slice(before.lastIndexOf("\n") + 1);
  if (encoding === "utf-16") return { line, character: lineText.length };
  let character = 0;
  for (const ch of lineText) {
    const cpt = ch.codePointAt(0);
    character += encoding === "utf-8" ? (cpt < 0x80 ? 1 : cpt < 0x800 ? 2 : cpt < 0x10000 ? 3 : 4) : 1;
  }
  return { line, character };
}

class Client {
  /**
   * @param {string} binary acg-lsp
   * @param {object} opts root: workspace folder; capabilities: ClientCapabilities;
   *   settings: the "acg" configuration section
   */
  constructor(binary, opts) {
    this.binary = binary;
    this.root = opts.root;
    this.capabilities = opts.capabilities;
    this.settings = opts.settings ?? {};
    this.docs = new Map(); // uri -> TextDocument (content is authoritative; positions converted by us)
    this.diagnostics = new Map(); // uri -> Diagnostic[]
    this.resultIds = new Map(); // uri -> pull resultId
    this.registrations = new Map(); // method -> registerOptions
    this.progress = []; // $/progress values in arrival order
    this.logs = [];
    this.stderr = "";
    this.pulls = 0;
    this.pushes = 0;
  }

  uri(rel) {
    return pathToFileURL(path.join(this.root, rel)).href;
  }

  async start() {
    this.proc = cp.spawn(this.binary, [], { cwd: this.root, stdio: ["pipe", "pipe", "pipe"] });
    this.exited = new Promise((resolve) => this.proc.on("exit", (code, signal) => resolve({ code, signal })));
    this.proc.stderr.on("data", (b) => (this.stderr += b.toString()));
    const conn = rpc.createProtocolConnection(
      new rpc.StreamMessageReader(this.proc.stdout),
      new rpc.StreamMessageWriter(this.proc.stdin),
    );
    this.conn = conn;
    conn.onRequest(rpc.ConfigurationRequest.type, (params) =>
      params.items.map((item) => (item.section === undefined || item.section === "acg" ? this.settings : null)),
    );
    conn.onRequest(rpc.RegistrationRequest.type, (params) => {
      for (const r of params.registrations) this.registrations.set(r.method, r.registerOptions ?? {});
      return null;
    });
    conn.onRequest(rpc.UnregistrationRequest.type, (params) => {
      for (const r of params.unregisterations) this.registrations.delete(r.method);
      return null;
    });
    conn.onRequest(rpc.WorkDoneProgressCreateRequest.type, () => null);
    conn.onRequest(rpc.DiagnosticRefreshRequest.type, () => {
      void this.pullAll();
      return null;
    });
    conn.onRequest(rpc.ApplyWorkspaceEditRequest.type, async (params) => {
      await this.applyEdit(params.edit);
      return { applied: true };
    });
    conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
      this.pushes++;
      this.diagnostics.set(p.uri, p.diagnostics);
    });
    conn.onNotification(rpc.LogMessageNotification.type, (p) => this.logs.push(p.message));
    conn.onNotification(rpc.ShowMessageNotification.type, (p) => this.logs.push(p.message));
    conn.onNotification("$/progress", (p) => this.progress.push(p));
    conn.listen();
    const rootUri = pathToFileURL(this.root).href;
    this.init = await conn.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: "acg-conformance", version: "1" },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: path.basename(this.root) }],
      capabilities: this.capabilities,
      initializationOptions: {},
    });
    this.encoding = this.init.capabilities.positionEncoding ?? "utf-16";
    await conn.sendNotification(rpc.InitializedNotification.type, {});
    return this.init;
  }

  // pullMode tells whether diagnostics come by textDocument/diagnostic:
  // the client offered it and the server provides it, statically or by
  // registration.
  pullMode() {
    return (
      this.capabilities.textDocument?.diagnostic !== undefined &&
      (this.init.capabilities.diagnosticProvider !== undefined || this.registrations.has("textDocument/diagnostic"))
    );
  }

  async open(rel) {
    const uri = this.uri(rel);
    const text = fs.readFileSync(path.join(this.root, rel), "utf8");
    const doc = TextDocument.create(uri, languageId(rel), 1, text);
    this.docs.set(uri, doc);
    await this.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: doc.languageId, version: 1, text },
    });
    if (this.pullMode()) await this.pull(uri);
    return uri;
  }

  text(uri) {
    return this.docs.get(uri).getText();
  }

  // pull asks for one document's diagnostics as VS Code does after an open
  // or a change.
  async pull(uri) {
    this.pulls++;
    const report = await this.conn.sendRequest(rpc.DocumentDiagnosticRequest.type, {
      textDocument: { uri },
      previousResultId: this.resultIds.get(uri),
    });
    this.storeReport(uri, report);
    for (const [u, r] of Object.entries(report.relatedDocuments ?? {})) this.storeReport(u, r);
  }

  storeReport(uri, report) {
    if (report.kind === "full") this.diagnostics.set(uri, report.items);
    if (report.resultId !== undefined) this.resultIds.set(uri, report.resultId);
  }

  async pullAll() {
    if (!this.pullMode()) return;
    await Promise.all([...this.docs.keys()].map((u) => this.pull(u)));
  }

  // change sends edits (ranges in the negotiated encoding, against the
  // current text) as one incremental didChange, bottom-up so each range is
  // still valid when its turn comes.
  async change(uri, edits) {
    if (!this.docs.has(uri)) {
      await this.open(path.relative(this.root, fileURLToPath(uri)));
    }
    let text = this.text(uri);
    const withOffsets = edits
      .map((e, i) => ({ e, i, start: offsetAt(text, e.range.start, this.encoding), end: offsetAt(text, e.range.end, this.encoding) }))
      .sort((a, b) => b.start - a.start || b.i - a.i);
    const contentChanges = [];
    for (const { e, start, end } of withOffsets) {
      contentChanges.push({
        range: { start: positionAt(text, start, this.encoding), end: positionAt(text, end, this.encoding) },
        text: e.newText,
      });
      text = text.slice(0, start) + e.newText + text.slice(end);
    }
    const old = this.docs.get(uri);
    const doc = TextDocument.create(uri, old.languageId, old.version + 1, text);
    this.docs.set(uri, doc);
    await this.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: doc.version },
      contentChanges,
    });
    if (this.pullMode()) await this.pullAfterChange(uri);
  }

  // pullAfterChange re-pulls like VS Code: the changed document, and every
  // open one when the server says results depend on other files.
  async pullAfterChange(uri) {
    const opts = this.init.capabilities.diagnosticProvider ?? this.registrations.get("textDocument/diagnostic") ?? {};
    if (opts.interFileDependencies) await this.pullAll();
    else await this.pull(uri);
  }

  // applyEdit applies a WorkspaceEdit the way an editor does: documents not
  // open yet are opened first, then changed.
  async applyEdit(edit) {
    const perUri = new Map();
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) perUri.set(uri, edits);
    for (const dc of edit.documentChanges ?? []) {
      if (dc.kind !== undefined) throw new Error(`unexpected resource operation ${dc.kind}`);
      const open = this.docs.get(dc.textDocument.uri);
      if (dc.textDocument.version != null && open && open.version !== dc.textDocument.version) {
        throw new Error(`edit for ${dc.textDocument.uri} v${dc.textDocument.version}, editor has v${open.version}`);
      }
      perUri.set(dc.textDocument.uri, [...(perUri.get(dc.textDocument.uri) ?? []), ...dc.edits]);
    }
    for (const [uri, edits] of perUri) await this.change(uri, edits);
    return [...perUri.keys()];
  }

  request(type, params) {
    return this.conn.sendRequest(type, params);
  }

  async waitFor(what, cond, timeoutMs = 20000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = cond();
      if (v) return v;
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\nserver stderr:\n${this.stderr}\nlog:\n${this.logs.join("\n")}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  // shutdown stops the server as vscode-languageclient does: shutdown,
  // exit, then end the server's stdin; VS Code kills it 2 s later if it is
  // still alive, here we report that as a failure.
  async shutdown() {
    await this.conn.sendRequest(rpc.ShutdownRequest.type);
    await this.conn.sendNotification(rpc.ExitNotification.type);
    this.conn.end();
    const res = await Promise.race([
      this.exited,
      new Promise((r) => setTimeout(() => r({ code: "still running 2 s after exit" }), 2000)),
    ]);
    this.conn.dispose();
    return res;
  }

  kill() {
    if (this.proc && this.proc.exitCode === null) this.proc.kill();
  }
}

module.exports = { Client, serverBinary, copyTree, offsetAt, positionAt, repoRoot };
