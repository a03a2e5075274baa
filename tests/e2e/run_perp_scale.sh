#!/usr/bin/env bash
# run_perp_scale.sh -- complementarity at every scale: the circuits of the
# corpus are linear and homogeneous in their sources (an ideal diode's
# conditions are too: 0 <= S i perp S u >= 0 is 0 <= i perp u >= 0), so
# scaling the sources by S = 10^-40 and 10^40 scales every value by S and
# keeps every event time.  Each case runs at 30 digits with the source
# scaled (-p), and every event time and every value (S times the
# unscaled run's) must agree to 28 digits, relative to the variable's
# largest magnitude over the run (a value passing through zero has the
# digits of its arc, not of its own size).  What tests/e2e/scaled_twin.sh
# does for the other cases by rewriting the variables, which it cannot do
# for a condition's own equation A = 0.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
fails=0
passes=0
one() { # case param value every
    local c=$1 p=$2 v=$3 every=$4 s
    "$HDO" run "cases/$c.hdae" --digits 30 --every "$every" -o "$tmp/$c-1" >/dev/null 2>"$tmp/err" ||
        { echo "FAIL perp_scale $c: $(head -n 1 "$tmp/err")"; fails=$((fails + 1)); return; }
    for s in 1e-40 1e40; do
        local val
        val=$("$PY" -c "from fractions import Fraction as F; print(F('$v') * F('$s'))")
        if ! "$HDO" run "cases/$c.hdae" --digits 30 --every "$every" -p "$p=$val" -o "$tmp/$c-$s" >/dev/null 2>"$tmp/err"; then
            echo "FAIL perp_scale $c at S = $s: $(head -n 1 "$tmp/err")"
            fails=$((fails + 1))
            continue
        fi
        if msg=$("$PY" - "$tmp/$c-1" "$tmp/$c-$s" "$s" <<'PY'
import csv, sys
from mpmath import mp, mpf, log10, fabs
mp.dps = 60
a, b, S = sys.argv[1], sys.argv[2], mpf(sys.argv[3])
def rows(d):
    r = list(csv.reader(open(d + "/trajectory.csv")))
    return r[0], r[1:]
ha, ra = rows(a)
hb, rb = rows(b)
assert ha == hb and len(ra) == len(rb), "%d rows, scaled %d" % (len(ra), len(rb))
ea = list(csv.DictReader(open(a + "/events.csv")))
eb = list(csv.DictReader(open(b + "/events.csv")))
assert len(ea) == len(eb), "%d events, scaled %d" % (len(ea), len(eb))
worst = mpf(60)
for x, y in zip(ea, eb):
    assert x["kind"] == y["kind"], "event kinds %s, %s" % (x["kind"], y["kind"])
    d = fabs(mpf(x["time"]) - mpf(y["time"]))
    if d:
        worst = min(worst, -log10(d / max(fabs(mpf(x["time"])), mpf(1) / 10 ** 6)))
big = [max(fabs(mpf(r[i])) for r in ra if r[i] != "") for i in range(2, len(ha))]
for x, y in zip(ra, rb):
    assert x[0] == y[0], "row times %s, %s" % (x[0], y[0])
    for i in range(2, len(ha)):
        if x[i] == "" or big[i - 2] == 0:
            continue
        d = fabs(mpf(x[i]) * S - mpf(y[i])) / (big[i - 2] * S)
        if d:
            worst = min(worst, -log10(d))
print("%.1f" % worst)
sys.exit(0 if worst >= 28 else 1)
PY
        ); then
            passes=$((passes + 1))
        else
            echo "FAIL perp_scale $c at S = $s: $msg digits (need 28)"
            fails=$((fails + 1))
        fi
    done
}
one rectifier_diode V 10 0.00049
one diode_bridge V0 10 0.0000499
one boost_converter_ideal U 24 0.0000999
echo "perp_scale: $passes passed, $fails failed"
((fails == 0))
