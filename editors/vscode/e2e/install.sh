#!/usr/bin/env bash
# Installs what the real-VS-Code test needs, pinned: code-server (VS Code in
# a browser, from npm), playwright-core (from npm) to drive Debian's chromium,
# and the Debian packages code-server's native modules build against.
#
#   install.sh DIR     # prints DIR when code-server and playwright-core are there
#
# Exits 3 when a download fails for lack of network (the caller says so and
# skips); any other failure exits 1. A finished DIR is reused (marker file).
#
# code-server 4.100.3 is the last release for Node.js 20 (later ones want
# 22/24). Its install builds VS Code's native modules with node-gyp (needs
# libkrb5-dev for kerberos) and runs @vscode/ripgrep's postinstall, which
# fetches rg from GitHub releases; that script uses a cached download when
# there is one, so the cache is seeded with Debian's rg (same major version).
set -euo pipefail
CODE_SERVER=4.100.3
PLAYWRIGHT_CORE=1.65.1
dir=${1:?usage: install.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
stamp="$dir/.installed-code-server-$CODE_SERVER-playwright-core-$PLAYWRIGHT_CORE"
if [ -e "$stamp" ]; then
  echo "$dir"
  exit 0
fi
log="$dir/install.log"
: >"$log"
network() { # the log names a failed download: exit 3
  if grep -qiE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|Temporary failure resolving|Could not resolve host|Failed to fetch' "$log"; then
    echo "install.sh: no network for $1 (see $log)" >&2
    exit 3
  fi
  echo "install.sh: $1 failed; the log's end:" >&2
  tail -30 "$log" >&2
  exit 1
}

pkgs=()
command -v chromium >/dev/null || pkgs+=(chromium)
command -v rg >/dev/null || pkgs+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || pkgs+=(libkrb5-dev)
command -v pkg-config >/dev/null || pkgs+=(pkg-config)
command -v make >/dev/null && command -v g++ >/dev/null || pkgs+=(build-essential)
if [ ${#pkgs[@]} -gt 0 ]; then
  echo "install.sh: apt-get install ${pkgs[*]}" >&2
  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${pkgs[@]}"; } >>"$log" 2>&1 ||
    network "apt-get install ${pkgs[*]}"
fi

# The ripgrep cache, in a TMPDIR of our own: <tmp>/vscode-ripgrep-cache-<pkg
# version>/ripgrep-<rg release>-<target>.tar.gz holding rg.
tmp="$dir/tmp"
mkdir -p "$tmp"
case $(uname -m) in
  x86_64) rgtarget=x86_64-unknown-linux-musl ;;
  aarch64) rgtarget=aarch64-unknown-linux-musl ;;
  *) echo "install.sh: no ripgrep target for $(uname -m)" >&2; exit 1 ;;
esac
(cd "$tmp" && rm -rf cs && mkdir cs && cd cs && npm pack --silent "code-server@$CODE_SERVER" >>"$log" 2>&1) ||
  network "npm pack code-server@$CODE_SERVER"
rgbin=$(command -v rg)
for v in $(tar -xzOf "$tmp"/cs/code-server-*.tgz --wildcards 'package/lib/vscode/npm-shrinkwrap.json' 'package/lib/vscode/extensions/npm-shrinkwrap.json' 2>/dev/null |
  node -e '
let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
  // Two JSON documents back to back: pull every @vscode/ripgrep version.
  const out = new Set();
  for (const m of s.matchAll(/"node_modules\/@vscode\/ripgrep":\s*\{\s*"version":\s*"([^"]+)"/g)) out.add(m[1]);
  console.log([...out].join(" "));
});'); do
  cache="$tmp/vscode-ripgrep-cache-$v"
  mkdir -p "$cache"
  for r in v13.0.0-10 v13.0.0-4; do
    tar -C "$(dirname "$rgbin")" -czf "$cache/ripgrep-$r-$rgtarget.tar.gz" rg
  done
done

echo "install.sh: npm install code-server@$CODE_SERVER playwright-core@$PLAYWRIGHT_CORE into $dir (builds native modules, a few minutes)" >&2
start=$SECONDS
(cd "$dir" && [ -f package.json ] || echo '{"private": true}' >"$dir/package.json")
# npm_config_yes: node-pty's postinstall runs `npx node-gyp`, which a "yes = false"
# npm config cancels.
TMPDIR=$tmp npm_config_unsafe_perm=true npm_config_yes=true npm install --prefix "$dir" --no-audit --no-fund --unsafe-perm \
  "code-server@$CODE_SERVER" "playwright-core@$PLAYWRIGHT_CORE" >>"$log" 2>&1 ||
  network "npm install code-server"
echo "install.sh: installed in $((SECONDS - start)) s" >&2
[ -x "$dir/node_modules/.bin/code-server" ] || { echo "install.sh: no code-server binary after install" >&2; exit 1; }
touch "$stamp"
echo "$dir"
