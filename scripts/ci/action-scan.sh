#!/usr/bin/env bash
# The scan step of the GitHub Action (action.yml): SARIF for code scanning,
# the text report in the log, and the exit code of --fail-on. Inputs come as
# environment variables so that the Action and the tests run the same lines.
#   ACG_PATHS (default .), ACG_FAIL_ON (default high), ACG_SARIF (default acg.sarif)
set -uo pipefail
paths=${ACG_PATHS:-.}
fail_on=${ACG_FAIL_ON:-high}
sarif=${ACG_SARIF:-acg.sarif}
# shellcheck disable=SC2086 # paths is a list
acg scan --format sarif --fail-on none $paths >"$sarif"
code=$?
[ $code = 0 ] || { echo "acg: scan failed (exit $code)" >&2; exit $code; }
# shellcheck disable=SC2086
acg scan --fail-on "$fail_on" $paths
