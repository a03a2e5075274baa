#!/usr/bin/env bash
# corpus_implicit.sh -- the corpus' independent checks (tests/corpus/
# check_<case>.py: closed forms, mpmath) run under --method implicit, on the
# cases with `when` clauses or sliding that the implicit method (Radau IIA)
# integrates (issue #18: Radau on modes with switching functions).  Each
# check runs hdo with HDOCHECK_ARGS added to its command line and, with
# HDOCHECK_IMPLICIT=1, fails when summary.json shows no implicit step; it
# prints its own PASS/FAIL line with the digits reached.  The slower checks
# of the same kind (boost_converter_dcm, evaporator_hysteresis,
# stick_slip_belt, pendulum_break: 12-80 s each) were run by hand
# (docs/decisions.md D-085) and are left out of make check.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fails=0
for c in bouncing_ball filippov_spiral water_tanks km_chattering \
    boost_converter_ccm evaporator stick_slip stick_slip_belt_static \
    stick_slip_hysteresis stick_slip_stick; do
    line=$(HDO="$HDO" HDOCHECK_ARGS="--method implicit" HDOCHECK_IMPLICIT=1 \
        "$PY" "tests/corpus/check_$c.py" 2>&1 | tail -n 1)
    rc=${PIPESTATUS[0]}
    if [[ $line == PASS* ]]; then
        echo "PASS implicit_${line#PASS }"
    else
        echo "FAIL implicit_$c: $line"
        fails=$((fails + 1))
    fi
done
exit $((fails > 0))
