#!/usr/bin/env bash
# Runs acg's peers side by side with acg on the fixtures (testdata/*/CASE.md)
# and on the real-code evaluation targets (bench/real/manifest.yaml, from
# the mirrors), and prints the numbers docs/peers.md reports. Not part of
# CI: it installs the peers (pinned, scripts/peers/NAME.txt) into their own
# virtual environments under .venvs/peers, one each, since their pins
# conflict. No peer code goes into the repository.
#
#   scripts/peers.sh [--mirrors /work/.mirror] [--out DIR]
#
# Every peer runs offline (under `unshare -n` when it is available), on a
# copy of the scanned files, with a timeout; only their static modes run
# (ziran audit, agentic-radar scan --export-graph-json, agent-audit-kit
# scan). Nothing of a scanned repository is executed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mirrors=/work/.mirror
out=${TMPDIR:-/tmp}/acg-peers
while [ $# -gt 0 ]; do
  case $1 in
    --mirrors) mirrors=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: scripts/peers.sh [--mirrors DIR] [--out DIR]" >&2; exit 2 ;;
  esac
done
rm -rf "$out"
mkdir -p "$out/runs" "$out/trees"

peers=(ziran agentic-radar agent-audit-kit)
for p in "${peers[@]}"; do
  echo "== environment $p" >&2
  start=$(date +%s)
  ACG_REQUIREMENTS=$root/scripts/peers ACG_VENVS=$root/.venvs/peers "$root/scripts/pyenv.sh" "$p" >/dev/null
  echo "   ready in $(( $(date +%s) - start ))s" >&2
done
venv=$root/.venvs/peers
echo "== go build ./cmd/acg" >&2
(cd "$root" && go build -o "$out/acg" ./cmd/acg)

offline=()
if command -v unshare >/dev/null && unshare -n true 2>/dev/null; then
  offline=(unshare -n)
fi

# run NAME TARGET KIND CMD...: one timed run; stdout and stderr kept, the
# exit code and seconds in NAME.meta (KIND: fixture or repo).
run() {
  local name=$1 target=$2 kind=$3
  shift 3
  local f=$out/runs/$name
  local t0 t1 rc=0
  t0=$(date +%s.%N)
  (cd "$out/runs" && timeout 600 "${offline[@]}" "$@" >"$f.out" 2>"$f.err") || rc=$?
  t1=$(date +%s.%N)
  printf '%s\t%s\t%s\t%s\n' "$target" "$kind" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" >"$f.meta"
}

slug() { echo "$1" | tr '/' '_'; }

# peers TARGET KIND DIR FRAMEWORKS: the peers on one tree (Agentic Radar
# once per framework it reads: langgraph, crewai, openai-agents).
peers() {
  local target=$1 kind=$2 dir=$3 fws=$4 s
  s=$(slug "$target")
  run "ziran@$s" "$target" "$kind" "$venv/ziran/bin/ziran" audit "$dir" --format json
  run "agent-audit-kit@$s" "$target" "$kind" "$venv/agent-audit-kit/bin/agent-audit-kit" scan "$dir" --format json -o "$out/runs/agent-audit-kit@$s.json"
  for fw in $fws; do
    case $fw in langgraph | crewai | openai-agents) ;; *) continue ;; esac
    run "agentic-radar-$fw@$s" "$target" "$kind" "$venv/agentic-radar/bin/agentic-radar" scan "$fw" -i "$dir" -o "$out/runs/agentic-radar-$fw@$s.html" --export-graph-json
  done
}

# Fixtures: acg on each (its resolution joins the files of a tree, and the
# fixtures reuse module names), the peers once over all of them (they read
# file by file; their findings are attributed to fixtures by path), Agentic
# Radar once per framework folder.
echo "== fixtures" >&2
fixtures=$out/trees/fixtures
mkdir -p "$fixtures"
(cd "$root/testdata" && find . -name CASE.md -not -path './golden/*' | sort | sed 's|^\./||; s|/CASE.md$||') >"$out/fixtures.txt"
while IFS= read -r rel; do
  mkdir -p "$fixtures/$rel"
  cp -r "$root/testdata/$rel/." "$fixtures/$rel/"
  echo "   acg $rel" >&2
  run "acg@fixture_$(slug "$rel")" "$rel" fixture "$out/acg" scan --engine builtin --format json --fail-on none --root "$fixtures" "$fixtures/$rel"
done <"$out/fixtures.txt"
echo "   peers over all fixtures" >&2
peers fixtures all "$fixtures" ""
for fw in langgraph crewai openai-agents; do
  run "agentic-radar-$fw@fixtures" fixtures all "$venv/agentic-radar/bin/agentic-radar" scan "$fw" -i "$fixtures/$fw" -o "$out/runs/agentic-radar-$fw@fixtures.html" --export-graph-json
done

echo "== real-code targets" >&2
python3 - "$root/bench/real/manifest.yaml" >"$out/targets.tsv" <<'EOF2'
import sys, yaml
for t in yaml.safe_load(open(sys.argv[1]))["targets"]:
    print("\t".join([t["repo"], t["commit"], " ".join(t.get("paths") or ["."]), " ".join(t.get("frameworks") or [])]))
EOF2
while IFS=$'\t' read -r repo commit paths fws; do
  git=$mirrors/${repo/\//+}/repo
  if ! git -C "$git" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "   $repo: no mirror with $commit, skipped" >&2
    continue
  fi
  tree=$out/trees/repos/${repo/\//+}
  mkdir -p "$tree"
  # shellcheck disable=SC2086 # paths is a list
  git -C "$git" archive "$commit" -- $paths 2>/dev/null | tar -x -C "$tree" 2>/dev/null || true
  echo "   $repo" >&2
  run "acg@$(slug "$repo")" "$repo" repo "$out/acg" scan --engine builtin --format json --fail-on none --root "$tree" "$tree"
  peers "$repo" repo "$tree" "$fws"
done <"$out/targets.tsv"

echo "== summary" >&2
python3 "$root/scripts/peers_summary.py" "$out" "$root"
