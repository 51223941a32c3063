#!/usr/bin/env bash
# Tests what users install: builds the host's release artifacts with the
# release script (--native: linux-amd64, the system C compiler), installs the
# wheel into a fresh virtual environment and the npm packages into a fresh
# project (offline, from the built files), and scans the example with each;
# checks the .vsix files and runs the linux-x64 one in code-server
# (editors/vscode/e2e/run.sh; a skip for lack of network goes to
# $ACG_SKIP_FILE);
# cross-builds linux-arm64 as a release does and runs it under qemu-aarch64;
# then runs the GitHub Action's scan step and the pre-commit hook's command
# line with the installed acg. Run by scripts/test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-dist: $*" >&2; exit 1; }

# expect_scan CMD...: the example's scan exits 1 (findings at --fail-on) and
# reports the Rule of Two on the inbox assistant.
expect_scan() {
  local out code=0
  out=$("$@" scan "$root/testdata/inbox" 2>&1) || code=$?
  [ $code = 1 ] || fail "$* scan exited $code, want 1:"$'\n'"$out"
  grep -q "CRITICAL \[rule-of-two\] Agent inbox_assistant" <<<"$out" || fail "$* scan: no rule-of-two:"$'\n'"$out"
}

echo "== release artifacts (linux-amd64, native)"
"$root/scripts/release.sh" --native --targets linux-amd64 --version v0.0.1 --out "$tmp/dist" >/dev/null
# Checksums, build info, each package's binaries and platform fields, and a
# scan by the built binary (the release-time check of the cross builds,
# scripts/release.sh --verify, without the targets this build lacks).
python3 "$root/scripts/release/verify.py" --dist "$tmp/dist" --version v0.0.1 --targets linux-amd64 --native >/dev/null ||
  fail "scripts/release/verify.py failed on the native build"
vsix=$tmp/dist/acg-vscode-0.0.1-linux-x64.vsix
unzip -l "$vsix" >"$tmp/vsix-list" || fail "no linux-x64 .vsix"
for f in extension/server/acg-lsp extension/LICENSE.txt extension/images/icon.png extension/dist/extension.js; do
  grep -q " $f\$" "$tmp/vsix-list" || fail ".vsix lacks $f"
done
unzip -p "$vsix" extension.vsixmanifest | grep -q 'TargetPlatform="linux-x64"' || fail ".vsix is not linux-x64"
! unzip -l "$tmp/dist/acg-vscode-0.0.1.vsix" | grep -q server/ || fail "the universal .vsix bundles a server"

echo "== the linux-x64 .vsix in a real VS Code (code-server, headless chromium)"
code=0
# The screenshot goes to docs/ only when asked (ACG_UPDATE_SCREENSHOTS=1),
# as goldens do: a test run leaves the checkout as it was.
shot=$tmp/vscode-code-server.png
[ "${ACG_UPDATE_SCREENSHOTS:-}" = 1 ] && shot=$root/docs/vscode-code-server.png
"$root/editors/vscode/e2e/run.sh" --vsix "$vsix" --screenshot "$shot" || code=$?
if [ $code = 3 ]; then
  msg="VS Code e2e (code-server): its tools could not be installed for lack of network"
  echo "SKIPPED: $msg"
  [ -n "${ACG_SKIP_FILE:-}" ] && echo "$msg" >>"$ACG_SKIP_FILE"
elif [ $code != 0 ]; then
  fail "the .vsix in code-server failed"
fi

echo "== linux-arm64: cross-built with zig, run under qemu-aarch64"
# The other linux build, made as a release makes it (zig cc, static musl),
# verified like one (scripts/release/verify.py: checksums, the binaries in
# every package, version and a scan run under user-mode emulation), and
# its scan must say what the native build's says, byte for byte.
if command -v qemu-aarch64 >/dev/null; then
  "$root/scripts/release.sh" --targets linux-arm64 --version v0.0.1 --out "$tmp/arm64" --verify >"$tmp/arm64.log" 2>&1 ||
    { tail -20 "$tmp/arm64.log" >&2; fail "the linux-arm64 release build or its verification failed"; }
  a=0; (cd "$root" && "$tmp/dist/bin/linux-amd64/acg" scan testdata/inbox --format json >"$tmp/amd64.json") || a=$?
  b=0; (cd "$root" && qemu-aarch64 "$tmp/arm64/bin/linux-arm64/acg" scan testdata/inbox --format json >"$tmp/arm64.json") || b=$?
  [ $a = 1 ] && [ $b = 1 ] || fail "scans of testdata/inbox exited $a (amd64) and $b (arm64), want 1"
  cmp -s "$tmp/amd64.json" "$tmp/arm64.json" || fail "linux-arm64's scan JSON differs from linux-amd64's"
else
  msg="linux-arm64 build: qemu-aarch64 is not installed (Debian: apt-get install qemu-user), so it was not run"
  echo "SKIPPED: $msg"
  [ -n "${ACG_SKIP_FILE:-}" ] && echo "$msg" >>"$ACG_SKIP_FILE"
fi

echo "== pip install the wheel into a fresh virtual environment"
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q --disable-pip-version-check --no-index "$tmp"/dist/*.whl
"$tmp/venv/bin/acg" version | grep -q "0.0.1" || fail "wheel: acg version is $("$tmp/venv/bin/acg" version)"
expect_scan "$tmp/venv/bin/acg"
"$tmp/venv/bin/acg-lsp" --version | grep -q "0.0.1" || fail "wheel: acg-lsp --version is not the release's"

if command -v npm >/dev/null; then
  echo "== npm install the packages into a fresh project, run with npx"
  mkdir "$tmp/npm"
  (cd "$tmp/npm" && npm init -y >/dev/null &&
    npm install --offline --no-audit --no-fund --omit=optional --loglevel=error \
      "$tmp"/dist/acg-dev-acg-linux-x64-*.tgz "$tmp"/dist/agent-capability-graph-*.tgz >/dev/null)
  (cd "$tmp/npm" && expect_scan npx --no-install acg)
else
  echo "SKIPPED: npm package test: npm not found"
fi

echo "== GitHub Action scan step, pre-commit hook command line"
export PATH="$tmp/venv/bin:$PATH"
(cd "$tmp" && ACG_PATHS="$root/testdata/inbox" ACG_FAIL_ON=none ACG_SARIF="$tmp/acg.sarif" \
  "$root/scripts/ci/action-scan.sh" >/dev/null) || fail "action scan step failed with --fail-on none"
python3 - "$tmp/acg.sarif" <<'PY' || fail "action: the SARIF has no rule-of-two result"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert any(r["ruleId"] == "rule-of-two" for run in runs for r in run["results"])
PY
code=0
(cd "$tmp" && ACG_PATHS="$root/testdata/inbox" ACG_SARIF="$tmp/acg2.sarif" "$root/scripts/ci/action-scan.sh" >/dev/null) || code=$?
[ $code = 1 ] || fail "action scan step exited $code on findings with fail-on high, want 1"
entry=$(sed -n 's/^  entry: //p' "$root/.pre-commit-hooks.yaml")
[ -n "$entry" ] || fail "no entry in .pre-commit-hooks.yaml"
code=0
# shellcheck disable=SC2086 # the hook's command line, as pre-commit splits it
(cd "$root/testdata/inbox" && $entry >/dev/null) || code=$?
[ $code = 1 ] || fail "pre-commit entry '$entry' exited $code in testdata/inbox, want 1"
(cd "$root/testdata/unrelated-names" && $entry >/dev/null) || fail "pre-commit entry '$entry' fails on a clean tree"
echo "test-dist: ok"
