#!/usr/bin/env bash
# Runs every test of the project: the Go tests (unit, golden, LSP in-process
# and end-to-end) and, where their tools are installed, the real-editor
# client tests. Says clearly what it skips and why.
set -euo pipefail
cd "$(dirname "$0")/.."

editors_tmp=$(mktemp -d)
trap 'rm -rf "$editors_tmp"' EXIT

# Python tool sets (Semgrep, the agent frameworks) from PyPI, one pinned
# virtual environment each, built side by side (mostly downloads); their
# paths reach the Go tests as ACG_VENV_<NAME>. Without Python the tests that
# need them skip and say so.
if command -v "${PYTHON:-python3}" >/dev/null; then
  names=()
  for req in scripts/requirements/*.txt; do
    [ -e "$req" ] || continue
    name=$(basename "$req" .txt)
    names+=("$name")
    echo "== python environment $name"
    scripts/pyenv.sh "$name" >"$editors_tmp/venv-$name" 2>"$editors_tmp/venv-$name.log" &
  done
  failed=0
  wait || true
  for name in "${names[@]}"; do
    dir=$(cat "$editors_tmp/venv-$name")
    if [ -z "$dir" ]; then
      echo "python environment $name failed:"; cat "$editors_tmp/venv-$name.log"; failed=1
      continue
    fi
    export "ACG_VENV_$(echo "$name" | tr 'a-z-' 'A-Z_')=$dir"
  done
  [ $failed = 0 ] || exit 1
fi

# npm tool sets (the agent frameworks' TypeScript packages and tsc), one
# pinned install each from scripts/npm/NAME; their paths reach the Go tests
# as ACG_NPM_<NAME>. Without npm the tests that need them skip and say so.
if command -v npm >/dev/null; then
  for pkg in scripts/npm/*/package.json; do
    [ -e "$pkg" ] || continue
    name=$(basename "$(dirname "$pkg")")
    echo "== npm packages $name"
    if ! dir=$(scripts/npmenv.sh "$name" 2>"$editors_tmp/npm-$name.log"); then
      echo "npm packages $name failed:"; cat "$editors_tmp/npm-$name.log"; exit 1
    fi
    export "ACG_NPM_$(echo "$name" | tr 'a-z-' 'A-Z_')=$dir"
  done
fi

echo "== go vet"
go vet ./...
echo "== go test"
# -json, summarised: the "ok package" lines and failures as go test prints
# them, and every skipped test with its reason (a test that skips for a
# missing tool did not pass). The script fails with go test.
go build -o "$editors_tmp/testsummary" ./internal/testsummary
go test -json ./... | "$editors_tmp/testsummary" -skips "$editors_tmp/go-skips"

# Real-editor client tests, each against the same acg-lsp binary
# ($ACG_LSP, else built here once). All run even when one fails.
if [ -z "${ACG_LSP:-}" ]; then
  echo "== go build ./cmd/acg-lsp (for the editor tests)"
  go build -o "$editors_tmp/acg-lsp" ./cmd/acg-lsp
  export ACG_LSP=$editors_tmp/acg-lsp
fi
editors_failed=()
skipped=()
skip() { echo "SKIPPED: $1"; skipped+=("$1"); }

# What users install: the release script's host build, the wheel in a fresh
# virtual environment, the npm packages with npx, the .vsix in code-server,
# the Action's scan step and the pre-commit hook's command line.
echo "== release artifacts, installed as users install them"
ACG_SKIP_FILE=$editors_tmp/dist-skips scripts/test-dist.sh || editors_failed+=(dist)
if [ -s "$editors_tmp/dist-skips" ]; then
  while IFS= read -r line; do skipped+=("$line"); done <"$editors_tmp/dist-skips"
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  skip "VS Code extension tests: node/npm not found (install Node.js 20+)"
elif [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  skip "VS Code extension tests: Node.js $(node --version) is older than 20"
else
  echo "== VS Code extension (node $(node --version))"
  (cd editors/vscode && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm test) ||
    editors_failed+=(vscode)
fi

if command -v "${NVIM:-nvim}" >/dev/null; then
  echo "== Neovim plugin"
  editors/neovim/test/run.sh || editors_failed+=(neovim)
else
  skip "Neovim plugin tests: nvim not found (apt-get install neovim)"
fi

if ! command -v "${EMACS:-emacs}" >/dev/null; then
  skip "Emacs eglot test: emacs not found (apt-get install emacs-nox elpa-eglot)"
elif ! "${EMACS:-emacs}" --batch --eval "(require 'eglot)" >/dev/null 2>&1; then
  skip "Emacs eglot test: eglot is not installed (Emacs 29+ has it; else apt-get install elpa-eglot)"
else
  echo "== Emacs eglot"
  editors/emacs/run.sh || editors_failed+=(emacs)
fi

# Everything that did not run, last, so that it is seen.
if [ -s "$editors_tmp/go-skips" ] || [ ${#skipped[@]} -gt 0 ]; then
  echo
  echo "== skipped"
  [ -s "$editors_tmp/go-skips" ] && cat "$editors_tmp/go-skips"
  if [ ${#skipped[@]} -gt 0 ]; then
    echo "SKIPPED editor tests (${#skipped[@]}):"
    printf '  %s\n' "${skipped[@]}"
  fi
fi

if [ ${#editors_failed[@]} -gt 0 ]; then
  echo "editor and install tests failed: ${editors_failed[*]}"
  exit 1
fi
