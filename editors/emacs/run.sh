#!/usr/bin/env bash
# Runs acg-eglot-test.el in batch Emacs against the real acg-lsp on a copy
# of testdata/inbox. ACG_LSP names the server; unset, it is built from this
# checkout. EMACS names the editor (emacs); eglot must be loadable (built in
# from Emacs 29, Debian's elpa-eglot before).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
emacs=${EMACS:-emacs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${ACG_LSP:-}" ]; then
  (cd "$repo" && go build -o "$tmp/acg-lsp" ./cmd/acg-lsp)
  ACG_LSP=$tmp/acg-lsp
fi
"$emacs" --version | head -1
cp -r "$repo/testdata/inbox" "$tmp/inbox"
start=$SECONDS
if ACG_LSP=$ACG_LSP ACG_TEST_ROOT=$tmp/inbox timeout 120 "$emacs" --batch -l "$here/acg-eglot-test.el" >"$tmp/log" 2>&1; then
  grep -v '^Loading ' "$tmp/log" | sed 's/^/    /'
  echo "ok   eglot inbox ($((SECONDS - start)) s)"
  echo "emacs: 1 passed, 0 failed"
else
  grep -v '^Loading ' "$tmp/log" | sed 's/^/    /'
  echo "FAIL eglot inbox ($((SECONDS - start)) s)"
  echo "emacs: 0 passed, 1 failed"
  exit 1
fi
