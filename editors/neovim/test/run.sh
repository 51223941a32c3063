#!/usr/bin/env bash
# Runs the Neovim plugin's tests in headless Neovim: config.lua (file
# matching, roots, lsp/acg.lua) and inbox.lua against the real acg-lsp on
# the inbox example, once as shipped and once with a CJK agent name (where
# Neovim 0.7's byte columns differ from UTF-16). ACG_LSP names the server;
# unset, it is built from this checkout. NVIM names the editor (nvim).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$here/../.." && pwd)
nvim=${NVIM:-nvim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${ACG_LSP:-}" ]; then
  (cd "$repo" && go build -o "$tmp/acg-lsp" ./cmd/acg-lsp)
  ACG_LSP=$tmp/acg-lsp
fi
export ACG_LSP
"$nvim" --version | head -1

passed=0 failed=0
run() { # name script [root agent]
  local name=$1 script=$2 start=$SECONDS
  if ACG_TEST_ROOT=${3:-} ACG_TEST_AGENT=${4:-} timeout 120 \
    "$nvim" --headless -u NONE -i NONE -n --cmd "set rtp^=$here" --cmd 'runtime plugin/acg.lua' \
    -c "luafile $here/test/$script" >"$tmp/$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $name ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    echo "FAIL $name ($((SECONDS - start)) s)"
    sed 's/^/    /' "$tmp/$name.log"
  fi
}

run config config.lua

# The plugin installed as a native package (a start package under
# 'packpath'), with its help tags generated as the README says; help.lua
# checks that :help acg and every tag and link resolve.
pkg=$tmp/site/pack/acg/start/acg
mkdir -p "$(dirname "$pkg")"
cp -r "$here" "$pkg"
rm -f "$pkg/doc/tags"
start=$SECONDS
if ACG_TEST_DOC=$pkg/doc/acg.txt timeout 60 "$nvim" --headless -u NONE -i NONE -n \
  --cmd "set packpath^=$tmp/site" -c packloadall -c "helptags $pkg/doc" \
  -c "luafile $here/test/help.lua" >"$tmp/help.log" 2>&1; then
  passed=$((passed + 1))
  echo "ok   help ($((SECONDS - start)) s): $(tail -1 "$tmp/help.log")"
else
  failed=$((failed + 1))
  echo "FAIL help ($((SECONDS - start)) s)"
  sed 's/^/    /' "$tmp/help.log"
fi

cp -r "$repo/testdata/inbox" "$tmp/inbox"
run inbox inbox.lua "$tmp/inbox" inbox_assistant

cp -r "$repo/testdata/inbox" "$tmp/inbox-cjk"
sed -i 's/inbox_assistant/受信箱/' "$tmp/inbox-cjk/agent.py"
run inbox-cjk inbox.lua "$tmp/inbox-cjk" 受信箱

echo "neovim: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
