#!/usr/bin/env bash
# adapters_perp.sh -- the IDA and SciPy adapters refuse a model with a
# complementarity condition as not applicable (exit 4), naming the
# condition and its line (counted by hand: line 37 of
# cases/rectifier_diode.hdae, line 44 of cases/diode_bridge.hdae, the
# first condition of each).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
passed=0
failed=0
expect() { # name rc-want regex command...
    local name=$1 want=$2 re=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [[ $rc == "$want" ]] && grep -Eq -- "$re" "$tmp/err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL adapters_perp $name: exit $rc, $(head -n 1 "$tmp/err")"
    fi
}
IDA=$(dirname "$HDO")/hdo-ida
if [[ -x $IDA ]]; then
    expect ida 4 "^hdo-ida: not applicable: cases/rectifier_diode\.hdae:37: the complementarity condition '0 <= id perp -ud >= 0'" \
        "$IDA" cases/rectifier_diode.hdae --out "$tmp/c.csv" --events "$tmp/e.csv"
else
    echo "SKIP adapters_perp ida: no $IDA"
fi
if "$PY" -c 'import scipy' 2>/dev/null; then
    expect scipy 4 "^hdo_scipy: not applicable: line 44: the complementarity condition '0 <= w2 perp i2 >= 0'" \
        "$PY" tools/scipy/hdo_scipy.py cases/diode_bridge.hdae --out "$tmp/c.csv" --events "$tmp/e.csv"
else
    echo "SKIP adapters_perp scipy: no scipy"
fi
echo "adapters: $passed passed, $failed failed"
((failed == 0))
