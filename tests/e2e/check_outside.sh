#!/usr/bin/env bash
# check_outside.sh -- the developers' outside set of hdo check (issue 26,
# tools/outside_set.py): 45 SciPy candidates of three closed-form models
# in five tools' formats; every verdict that the closed form decides with
# a factor 10 margin must be right (39 of them).  Needs SciPy.
set -u
source "$(dirname "$0")/common.bash"
if ! "$PY" -c 'import scipy' 2>/dev/null; then
    echo "SKIP check_outside: SciPy is not installed (python3-scipy)"
    exit 0
fi
out=$("$PY" tools/outside_set.py "$HDO" "$tmp" 2>&1)
rc=$?
grep -E 'WRONG|Traceback|Error' <<<"$out" | head -n 20
tail -n 2 <<<"$out"
exit $rc
