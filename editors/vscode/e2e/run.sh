#!/usr/bin/env bash
# The extension in a real VS Code (code-server) in headless chromium:
# installs the tools (install.sh), installs the linux-x64 .vsix into a fresh
# --extensions-dir, opens a copy of testdata/inbox with a fresh
# --user-data-dir and runs e2e.js (rule-of-two in the Problems view, the
# quick fix clears it). PATH and HOME are stripped so that only the
# acg-lsp bundled in the .vsix can serve.
#
#   run.sh --vsix FILE [--screenshot docs/vscode-code-server.png]
#
# Exit 3: the tools could not be installed for lack of network (the caller
# prints the reason and counts a skip). Tools live in $ACG_E2E_TOOLS
# (default ~/.cache/acg/vscode-e2e), reused between runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
vsix="" shot=$repo/docs/vscode-code-server.png
while [ $# -gt 0 ]; do
  case $1 in
    --vsix) vsix=$2; shift 2 ;;
    --screenshot) shot=$2; shift 2 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -f "$vsix" ] || { echo "run.sh: --vsix FILE is needed" >&2; exit 2; }
start=$SECONDS
tools=$("$here/install.sh" "${ACG_E2E_TOOLS:-$HOME/.cache/acg/vscode-e2e}") || exit $?
echo "vscode-e2e: tools ready ($((SECONDS - start)) s)"
tmp=$(mktemp -d)
cs_pid=""
cleanup() { [ -n "$cs_pid" ] && kill "$cs_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cs=$tools/node_modules/.bin/code-server
mkdir -p "$tmp/home" "$tmp/user/User" "$tmp/ext"
# No welcome page, trust prompt, telemetry or update checks in the way.
cat >"$tmp/user/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "security.workspace.trust.enabled": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "chat.disableAIFeatures": true,
  "files.autoSave": "off"
}
JSON
cp -r "$repo/testdata/inbox" "$tmp/inbox"
env_run() { env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$tmp/home" TMPDIR="$tmp" "$@"; }
env_run "$cs" --user-data-dir "$tmp/user" --extensions-dir "$tmp/ext" --install-extension "$vsix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }
ls "$tmp/ext"/acg-dev.acg-*/server/acg-lsp >/dev/null || { echo "run.sh: the installed extension has no server/acg-lsp"; exit 1; }
port=$((20000 + RANDOM % 20000))
env_run "$cs" --auth none --bind-addr "127.0.0.1:$port" --user-data-dir "$tmp/user" --extensions-dir "$tmp/ext" \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  "$tmp/inbox" >"$tmp/cs.log" 2>&1 &
cs_pid=$!
for _ in $(seq 100); do
  grep -q "HTTP server listening" "$tmp/cs.log" && break
  sleep 0.3
done
mkdir -p "$(dirname "$shot")"
code=0
ACG_PLAYWRIGHT=$tools/node_modules/playwright-core timeout 240 node "$here/e2e.js" "http://127.0.0.1:$port/?folder=$tmp/inbox" "$shot" || code=$?
if [ $code != 0 ]; then
  echo "--- code-server log"; tail -40 "$tmp/cs.log"
  find "$tmp/user/logs" -name '*acg*' -exec tail -30 {} \; 2>/dev/null || true
fi
echo "vscode-e2e: $([ $code = 0 ] && echo ok || echo FAIL) in $((SECONDS - start)) s"
exit $code
