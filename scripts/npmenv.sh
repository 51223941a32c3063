#!/usr/bin/env bash
# Installs (or reuses) the npm packages of one tool set for the tests that
# need real JavaScript/TypeScript packages: scripts/npmenv.sh NAME installs
# scripts/npm/NAME/package.json with its package-lock.json (exact pins, `npm
# ci`) into ${ACG_NPM:-~/.cache/acg/npm}/NAME and prints that directory
# (node_modules/ is inside it). The counterpart of scripts/pyenv.sh.
#
# Reinstalled only when the package or lock file changes (a stamp holds
# their hash), so a warm machine pays nothing. Install scripts are not run
# (--ignore-scripts): the tests only type-check against the packages'
# declarations and run tsc, whose native compiler ships inside its package.
# Nothing from a scanned repository is ever installed or run here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?usage: scripts/npmenv.sh NAME}
src=$root/scripts/npm/$name
[ -f "$src/package.json" ] && [ -f "$src/package-lock.json" ] ||
  { echo "npmenv: no $src/package.json and package-lock.json" >&2; exit 2; }
# Outside the checkout by default, so that clones and worktrees share them.
cache=${ACG_NPM:-${XDG_CACHE_HOME:-$HOME/.cache}/acg/npm}
dir=$cache/$name
want=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ -f "$dir/.acg-stamp" ] && [ "$(cat "$dir/.acg-stamp")" = "$want" ] && [ -d "$dir/node_modules" ]; then
  echo "$dir"
  exit 0
fi
command -v npm >/dev/null || { echo "npmenv: npm not found (install Node.js 20+)" >&2; exit 2; }
rm -rf "$dir"
mkdir -p "$dir"
cp "$src/package.json" "$src/package-lock.json" "$dir/"
# Engine warnings are expected: some packages declare Node 22 while the
# tests only read their types.
(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
echo "$want" > "$dir/.acg-stamp"
echo "$dir"
