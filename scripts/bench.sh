#!/usr/bin/env bash
# The project's benchmark command: runs every Go benchmark COUNT times
# (default 6) and prints medians with confidence intervals (benchstat).
# Usage: scripts/bench.sh [go test -bench regexp] [packages...]
# Figures are machine-dependent: compare runs on one machine, and read the
# ratios (scan vs bare parse) rather than absolute times.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern="${1:-.}"
shift || true
pkgs=("$@")
[ ${#pkgs[@]} -eq 0 ] && pkgs=(./...)
count="${COUNT:-6}"
out="$(mktemp)"
go test -run '^$' -bench "$pattern" -benchtime "${BENCHTIME:-10x}" -count "$count" "${pkgs[@]}" | tee "$out" | grep -E '^(Benchmark|ok|FAIL)' >&2
echo
go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da "$out"
