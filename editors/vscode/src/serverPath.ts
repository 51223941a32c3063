// Finding the acg-lsp binary. Kept free of the vscode module so the Node
// tests can exercise it directly.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const INSTALL_COMMAND = "go install github.com/acg-dev/acg/cmd/acg-lsp@latest";
export const INSTALL_URL = "https://github.com/acg-dev/acg#install-the-language-server";

function isExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform === "win32") {
      return true;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function candidates(dir: string, name: string, env: NodeJS.ProcessEnv): string[] {
  if (process.platform !== "win32" || path.extname(name) !== "") {
    return [path.join(dir, name)];
  }
  const exts = (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter((e) => e !== "");
  return exts.map((e) => path.join(dir, name + e.toLowerCase()));
}

// Where `go install` puts binaries. An editor launched from a desktop menu
// often has a PATH without them, which is the most common reason a freshly
// installed acg-lsp "is not found".
function goBinDirs(env: NodeJS.ProcessEnv): string[] {
  const dirs: string[] = [];
  if (env.GOBIN) {
    dirs.push(env.GOBIN);
  }
  for (const gopath of (env.GOPATH ?? "").split(path.delimiter)) {
    if (gopath !== "") {
      dirs.push(path.join(gopath, "bin"));
    }
  }
  dirs.push(path.join(os.homedir(), "go", "bin"));
  return dirs;
}

/**
 * Where a platform-specific .vsix carries its server: server/acg-lsp (.exe on
 * Windows) inside the extension. scripts/release.sh puts it there.
 */
export function bundledServerPath(extensionDir: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(extensionDir, "server", platform === "win32" ? "acg-lsp.exe" : "acg-lsp");
}

/**
 * Resolves the server to an executable file. A configured value wins, as the
 * user asked for it: a path with a directory part (or `~/`) is taken as
 * given, a bare name is looked up on PATH and then in Go's install
 * directories. Unset (empty), the binary bundled in a platform-specific .vsix
 * comes first, then acg-lsp on PATH and in Go's install directories (the
 * universal .vsix, or a platform without a build). Returns undefined when
 * nothing executable is found.
 */
export function resolveServerPath(
  configured: string,
  env: NodeJS.ProcessEnv = process.env,
  extensionDir?: string,
): string | undefined {
  if (configured.trim() === "" && extensionDir !== undefined) {
    const bundled = bundledServerPath(extensionDir);
    if (isExecutable(bundled)) {
      return bundled;
    }
  }
  let name = configured.trim() === "" ? "acg-lsp" : configured.trim();
  if (name === "~" || name.startsWith("~/")) {
    name = path.join(os.homedir(), name.slice(1));
  }
  if (name.includes("/") || name.includes(path.sep)) {
    return isExecutable(name) ? path.resolve(name) : undefined;
  }
  const pathDirs = (env.PATH ?? "").split(path.delimiter).filter((d) => d !== "");
  for (const dir of [...pathDirs, ...goBinDirs(env)]) {
    for (const file of candidates(dir, name, env)) {
      if (isExecutable(file)) {
        return file;
      }
    }
  }
  return undefined;
}

/** The message shown when the server cannot be found. */
export function missingServerMessage(configured: string): string {
  const what = configured.trim() === ""
    ? "this platform has no bundled acg-lsp and acg-lsp was not found on PATH or in Go's bin directory"
    : configured.trim() === "acg-lsp"
    ? "acg-lsp was not found on PATH or in Go's bin directory"
    : `acg-lsp was not found at "${configured}" (setting acg.server.path)`;
  return `acg: ${what}. Install it with \`${INSTALL_COMMAND}\`, or set acg.server.path to the binary.`;
}
