// Loads the bundled extension (dist/extension.js) and activates it. The
// real VS Code cannot be downloaded here, so the `vscode` module is a small
// stand-in that records what the extension asks of the editor; the
// language client itself is tested against the real server in
// conformance.test.js.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const manifest = require("../package.json");

function fakeVscode(settings) {
  const calls = { commands: [], errors: [], opened: [] };
  const disposable = { dispose() {} };
  const channel = { info() {}, warn() {}, error() {}, show() {}, dispose() {} };
  const vscode = {
    window: {
      createOutputChannel: () => channel,
      showErrorMessage: async (msg, ...items) => {
        calls.errors.push({ msg, items });
        return items[0];
      },
      showWarningMessage: async () => undefined,
    },
    commands: {
      registerCommand: (id) => {
        calls.commands.push(id);
        return disposable;
      },
      executeCommand: async () => undefined,
    },
    workspace: {
      getConfiguration: () => ({ get: (key, dflt) => (key in settings ? settings[key] : dflt) }),
      onDidChangeConfiguration: () => disposable,
    },
    env: { openExternal: async (uri) => calls.opened.push(uri.toString()) },
    Uri: { parse: (s) => ({ toString: () => s }) },
  };
  // vscode-languageclient subclasses editor types (Diagnostic, CodeAction,
  // ...) when its modules load; plain classes stand in for those.
  return { vscode: new Proxy(vscode, { get: (o, k) => (k in o ? o[k] : class {}) }), calls };
}

function loadExtension(vscode) {
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === "vscode" ? vscode : load.call(this, request, ...rest);
  };
  try {
    const file = path.join(__dirname, "..", "dist", "extension.js");
    delete require.cache[file];
    return require(file);
  } finally {
    Module._load = load;
  }
}

test("activation without acg-lsp: commands registered, install link offered", async () => {
  const { vscode, calls } = fakeVscode({ "server.path": "/nonexistent/acg-lsp" });
  const ext = loadExtension(vscode);
  await ext.activate({ subscriptions: [] });
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual([...calls.commands].sort(), contributed, "every contributed command is registered, nothing else");
  assert.equal(calls.errors.length, 1);
  assert.match(calls.errors[0].msg, /go install github\.com\/acg-dev\/acg\/cmd\/acg-lsp@latest/);
  assert.deepEqual(calls.errors[0].items, ["Install instructions", "Open settings"]);
  assert.equal(calls.opened[0], "https://github.com/acg-dev/acg#install-the-language-server");
  await ext.deactivate();
});

test("manifest: activation events cover every file kind the client selects", () => {
  const events = manifest.activationEvents;
  for (const lang of ["python", "typescript", "typescriptreact", "javascript", "javascriptreact"]) {
    assert.ok(events.includes(`onLanguage:${lang}`), lang);
  }
  for (const glob of ["**/.mcp.json", "**/mcp.json", "**/.claude/settings*.json", "**/.claude/agents/*.md",
    "**/.codex/config.toml", "**/.gemini/settings.json", "**/mcp_config.json", "**/.zed/settings.json"]) {
    assert.ok(events.includes(`workspaceContains:${glob}`), glob);
  }
  assert.equal(manifest.engines.vscode, "^" + require("@types/vscode/package.json").version, "engines.vscode matches @types/vscode");
  const lc = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "node_modules", "vscode-languageclient", "package.json"), "utf8"));
  assert.equal(lc.engines.vscode, manifest.engines.vscode, "vscode-languageclient's engine matches ours");
});

test("manifest: marketplace and Open VSX metadata, icon and licence shipped", () => {
  for (const k of ["publisher", "displayName", "description", "license", "icon", "homepage"]) {
    assert.ok(typeof manifest[k] === "string" && manifest[k] !== "", k);
  }
  assert.equal(manifest.license, "Apache-2.0");
  assert.match(manifest.repository.url, /^https:\/\/github\.com\//);
  assert.ok(manifest.bugs.url, "bugs.url");
  assert.match(manifest.galleryBanner.color, /^#[0-9A-Fa-f]{6}$/);
  assert.ok(["dark", "light"].includes(manifest.galleryBanner.theme));
  assert.ok(manifest.categories.includes("Linters") && manifest.keywords.length >= 5);
  // The marketplace wants a PNG of at least 128x128 px: read its IHDR.
  const png = fs.readFileSync(path.join(__dirname, "..", manifest.icon));
  assert.equal(png.subarray(1, 4).toString(), "PNG");
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  const ignore = fs.readFileSync(path.join(__dirname, "..", ".vscodeignore"), "utf8").split("\n");
  for (const f of ["!LICENSE", "!" + manifest.icon, "!server/acg-lsp", "!server/acg-lsp.exe"]) {
    assert.ok(ignore.includes(f), `.vscodeignore ships ${f}`);
  }
  assert.equal(manifest.contributes.configuration.properties["acg.server.path"].default, "",
    "empty default: bundled binary, then PATH");
});
