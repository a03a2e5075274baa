#!/usr/bin/env bash
# run_time_event.sh -- a time event `when t > 1.5` is located exactly, and the arcs around it are exact.
#
# Independent check (exact arithmetic): x' = 1 from x(0) = 0 until the
# event at t = 3/2 exactly, then x' = -1, so x(3/2) = 3/2 on both sides
# and x(t) = 3 - t after it (x(3) = 0); the sample rows at k/200 lie on
# these lines.  Passes when the event time and every sample agree with
# the exact values to at least D - 1 significant digits (all printed
# digits up to the last one's rounding), at D = 30 and 50.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/timed.hdae" <<'MODEL'
model timed
var x = 0
mode up
  der(x) = 1
  when t > 1.5 goto down
end
mode down
  der(x) = -1
end
start up
until 3
MODEL

figures=""
for D in 30 50; do
    out="$tmp/out$D"
    if ! "$HDO" run "$tmp/timed.hdae" -d "$D" -o "$out" --every 0.005 >"$tmp/log" 2>&1; then
        echo "FAIL time_event: hdo run -d $D failed: $(tail -n 1 "$tmp/log")"
        exit 1
    fi
    res=$("$PY" - "$out" "$D" <<'PYEOF'
import csv, sys
from fractions import Fraction as F
from mpmath import mp, mpf, log10, fabs
out, D = sys.argv[1], int(sys.argv[2])
mp.dps = D + 20
ev = list(csv.DictReader(open(out + '/events.csv')))
if len(ev) != 1 or (ev[0]['from'], ev[0]['to'], ev[0]['guard']) != ('up', 'down', 't > 1.5'):
    print('expected one event up -> down on t > 1.5, got %d' % len(ev)); sys.exit(1)
def digits(x, y):
    d = fabs(mpf(x) - mpf(y.numerator) / y.denominator)
    return D + 10 if d == 0 else float(-log10(d / 3))
worst = digits(ev[0]['time'], F(3, 2))
rows = list(csv.DictReader(open(out + '/trajectory.csv')))
at = [r for r in rows if r['time'] == ev[0]['time']]
if [r['mode'] for r in at] != ['up', 'down']:
    print('event rows at 1.5: %s' % [r['mode'] for r in at]); sys.exit(1)
n = 0
for r in rows:
    t = F(r['time'])
    x = t if r['mode'] == 'up' else 3 - t
    worst = min(worst, digits(r['x'], x)); n += 1
if len(rows) != 601 + 1:   # 601 grid rows, 1.5 itself replaced by the two event rows
    print('expected 602 rows, got %d' % len(rows)); sys.exit(1)
print('%d %s %d' % (int(worst), ev[0]['time'], n))
sys.exit(0 if worst >= D - 1 else 2)
PYEOF
)
    if [[ $? -ne 0 ]]; then
        echo "FAIL time_event: D=$D: ${res:-checker crashed}"
        exit 1
    fi
    read -r dig te n <<<"$res"
    figures+=" D=$D: event at $te, $dig digits over $n rows;"
done
echo "PASS time_event:${figures%;}"
