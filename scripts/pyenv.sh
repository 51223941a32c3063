#!/usr/bin/env bash
# Creates (or reuses) a Python virtual environment for the tests that run real
# Python tools: scripts/pyenv.sh NAME builds $ACG_VENVS/NAME from
# scripts/requirements/NAME.txt (exact pins) and prints the environment's
# directory. Each tool set has its own environment because their pins
# conflict (Semgrep pins its own opentelemetry, click and rich).
#
# The environment is rebuilt only when its requirements file changes (a
# stamp holds the file's hash), so a warm machine pays nothing. Nothing from a
# scanned repository is ever installed or run here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?usage: scripts/pyenv.sh NAME}
# ACG_REQUIREMENTS names another folder of requirements files (the peers'
# environments of scripts/peers.sh, which the tests never build).
req=${ACG_REQUIREMENTS:-$root/scripts/requirements}/$name.txt
[ -f "$req" ] || { echo "pyenv: no requirements file $req" >&2; exit 2; }
# Outside the checkout by default, so that clones and worktrees share them.
venvs=${ACG_VENVS:-${XDG_CACHE_HOME:-$HOME/.cache}/acg/venvs}
dir=$venvs/$name
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ -f "$dir/.acg-stamp" ] && [ "$(cat "$dir/.acg-stamp")" = "$want" ] && [ -x "$dir/bin/python" ]; then
  echo "$dir"
  exit 0
fi
py=${PYTHON:-python3}
command -v "$py" >/dev/null || { echo "pyenv: $py not found (install Python 3.10+)" >&2; exit 2; }
rm -rf "$dir"
mkdir -p "$venvs"
"$py" -m venv "$dir" >&2
"$dir/bin/python" -m pip install -q --disable-pip-version-check --no-input -r "$req" >&2
echo "$want" > "$dir/.acg-stamp"
echo "$dir"
