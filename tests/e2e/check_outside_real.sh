#!/usr/bin/env bash
# check_outside_real.sh -- the outside set of real tools' files (issue 26,
# tools/outside_real.py): FMI cross-check results and Octave runs, which
# are third-party data and not in the repository.  With HDO_OUTSIDE_REAL
# set to the folder that holds them (under the names the script lists),
# every verdict that the closed form decides must be right; without it
# the test is skipped.
set -u
source "$(dirname "$0")/common.bash"
if [[ -z ${HDO_OUTSIDE_REAL:-} || ! -d $HDO_OUTSIDE_REAL ]]; then
    echo "SKIP check_outside_real: HDO_OUTSIDE_REAL names no folder of tools/outside_real.py's files"
    exit 0
fi
out=$("$PY" tools/outside_real.py "$HDO_OUTSIDE_REAL" "$HDO" 2>&1)
rc=$?
grep -E -A1 'WRONG|Traceback|Error' <<<"$out" | head -n 20
tail -n 2 <<<"$out"
exit $rc
