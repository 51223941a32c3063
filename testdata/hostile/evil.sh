#!/bin/sh
# Part of acg's hostile-repository fixture: acg must never run this. If it
# does, it leaves a marker (at $ACG_HOSTILE_MARKER, else ./HOSTILE_SCRIPT_RAN)
# that the test looks for, and does nothing else.
echo "$0 $*" >> "${ACG_HOSTILE_MARKER:-./HOSTILE_SCRIPT_RAN}"
echo "evil 1.0.0"
