// resolveServerPath on real files: PATH lookup, Go's bin directories,
// explicit paths, and the message a user sees when nothing is found.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { bundledServerPath, resolveServerPath, missingServerMessage, INSTALL_COMMAND } = require("../out/serverPath.js");

function tree() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "acg-path-"));
  const mk = (rel, mode) => {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, "#!/bin/sh\n");
    fs.chmodSync(p, mode);
    return p;
  };
  return { dir, mk };
}

test("resolveServerPath", { skip: process.platform === "win32" && "POSIX permissions" }, (t) => {
  const { dir, mk } = tree();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const onPath = mk("a/acg-lsp", 0o755);
  mk("b/acg-lsp", 0o644); // not executable: skipped
  const inGopath = mk("gopath/bin/acg-lsp", 0o755);
  const custom = mk("custom/my-acg", 0o755);
  const cases = [
    { name: "first executable on PATH", cfg: "acg-lsp", env: { PATH: [path.join(dir, "b"), path.join(dir, "a")].join(":") }, want: onPath },
    { name: "empty setting means acg-lsp", cfg: "  ", env: { PATH: path.join(dir, "a") }, want: onPath },
    { name: "GOPATH/bin when PATH lacks it", cfg: "acg-lsp", env: { PATH: path.join(dir, "b"), GOPATH: path.join(dir, "gopath") }, want: inGopath },
    { name: "GOBIN first", cfg: "acg-lsp", env: { PATH: "", GOBIN: path.join(dir, "gopath", "bin") }, want: inGopath },
    { name: "explicit path", cfg: custom, env: { PATH: "" }, want: custom },
    { name: "explicit path not executable", cfg: path.join(dir, "b", "acg-lsp"), env: { PATH: path.join(dir, "a") }, want: undefined },
    { name: "missing explicit path", cfg: path.join(dir, "nope", "acg-lsp"), env: { PATH: path.join(dir, "a") }, want: undefined },
    { name: "bare name nowhere", cfg: "acg-lsp-not-installed", env: { PATH: path.join(dir, "a"), GOPATH: path.join(dir, "gopath") }, want: undefined },
  ];
  for (const c of cases) {
    assert.equal(resolveServerPath(c.cfg, c.env), c.want, c.name);
  }
});

test("missingServerMessage says how to install", () => {
  assert.ok(missingServerMessage("acg-lsp").includes(INSTALL_COMMAND));
  assert.match(missingServerMessage("acg-lsp"), /not found on PATH/);
  assert.match(missingServerMessage("/opt/acg/acg-lsp"), /"\/opt\/acg\/acg-lsp" \(setting acg\.server\.path\)/);
});

test("bundled server: first when the setting is empty, never over a configured one", { skip: process.platform === "win32" && "POSIX permissions" }, (t) => {
  const { dir, mk } = tree();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const ext = path.join(dir, "ext");
  const onPath = mk("a/acg-lsp", 0o755);
  const env = { PATH: path.join(dir, "a") };
  // No server/ in the extension (the universal .vsix): PATH.
  assert.equal(resolveServerPath("", env, ext), onPath, "universal package falls back to PATH");
  const bundled = mk("ext/server/acg-lsp", 0o755);
  assert.equal(bundledServerPath(ext), bundled);
  assert.equal(bundledServerPath(ext, "win32"), path.join(ext, "server", "acg-lsp.exe"));
  assert.equal(resolveServerPath("", env, ext), bundled, "bundled binary first");
  assert.equal(resolveServerPath("acg-lsp", env, ext), onPath, "a configured bare name means PATH");
  const custom = mk("custom/acg-lsp", 0o755);
  assert.equal(resolveServerPath(custom, env, ext), custom, "a configured path wins");
  fs.chmodSync(bundled, 0o644);
  assert.equal(resolveServerPath("", env, ext), onPath, "a bundled file that is not executable is skipped");
  assert.match(missingServerMessage(""), /no bundled acg-lsp/);
});
