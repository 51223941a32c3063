#!/usr/bin/env bash
# Packages the VS Code extension as a .vsix, platform-specific when given a
# binary (the marketplace's convention, also Open VSX's: one .vsix per
# `vsce --target`, the server bundled under server/), universal without one
# (the extension then looks for acg-lsp on PATH).
#
#   vsix.sh --version 1.2.3 --out DIST [--target linux-x64 --bin DIR] [--no-build]
#
# The extension is built in editors/vscode (npm ci when node_modules is
# missing, then typecheck and build; --no-build: already done); each package is made in a staging copy so
# that a binary never lands in the source tree and parallel targets do not
# share files. Run by scripts/release.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ext=$root/editors/vscode
version="" out="" target="" bin="" build=1
while [ $# -gt 0 ]; do
  case $1 in
    --version) version=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "vsix.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$version" ] && [ -n "$out" ] || { echo "vsix.sh: --version and --out are needed" >&2; exit 2; }
if [ $build = 1 ] || [ ! -f "$ext/dist/extension.js" ]; then
  (cd "$ext" && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error >/dev/null; } &&
    npm run --silent typecheck && npm run --silent build >/dev/null)
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/dist" "$stage/images"
cp "$ext/package.json" "$ext/README.md" "$ext/LICENSE" "$ext/.vscodeignore" "$stage/"
cp "$ext/dist/extension.js" "$stage/dist/"
cp "$ext/images/icon.png" "$stage/images/"
# The release's version; no prepublish step, the bundle above is built and
# the staging copy has no node_modules to build it with.
node -e '
const fs = require("fs"), [file, v] = process.argv.slice(1);
const m = JSON.parse(fs.readFileSync(file, "utf8"));
m.version = v;
delete m.scripts["vscode:prepublish"];
fs.writeFileSync(file, JSON.stringify(m, null, 2) + "\n");
' "$stage/package.json" "$version"
name=acg-vscode-$version
args=(--no-dependencies)
if [ -n "$target" ]; then
  [ -n "$bin" ] || { echo "vsix.sh: --target needs --bin" >&2; exit 2; }
  exe=""; case $target in win32-*) exe=.exe ;; esac
  mkdir -p "$stage/server"
  cp "$bin/acg-lsp$exe" "$stage/server/acg-lsp$exe"
  chmod 755 "$stage/server/acg-lsp$exe"
  args+=(--target "$target")
  name=$name-$target
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
(cd "$stage" && "$ext/node_modules/.bin/vsce" package "${args[@]}" --out "$out/$name.vsix" >/dev/null)
echo "$out/$name.vsix"
