#!/usr/bin/env bash
# run_close_zeros.sh -- two zeros of a guard 2e-10 apart inside one natural step are both found.
#
# x' = 1 from x(0) = 0: the Taylor series is exact, so the integrator's
# natural step covers the whole interval [0, 3] at once, and the guard
# S = (x - 1)^2 - 10^-20 is positive at both ends of it: only a certified
# root search sees its two zeros.  Mode a leaves at the first one
# (S falls through zero at t = 1 - 10^-10), mode b (guard with the
# opposite sign) at the second (t = 1 + 10^-10), into mode c.
# Independent check: the exact zeros 1 -+ 10^-10 (decimal arithmetic in
# Python's fractions), at D = 30 and 60; pass at >= D - 2 digits.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/close.hdae" <<'MODEL'
model close_zeros
var x = 0
mode a
  der(x) = 1
  when (x - 1)^2 < 1e-20 goto b
end
mode b
  der(x) = 1
  when (x - 1)^2 > 1e-20 goto c
end
mode c
  der(x) = 1
end
start a
until 3
MODEL

figures=""
for D in 30 60; do
    out="$tmp/out$D"
    if ! "$HDO" run "$tmp/close.hdae" -d "$D" -o "$out" >"$tmp/log" 2>&1; then
        echo "FAIL close_zeros: hdo run -d $D failed: $(tail -n 1 "$tmp/log")"
        exit 1
    fi
    res=$("$PY" - "$out" "$D" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, log10, fabs
out, D = sys.argv[1], int(sys.argv[2])
mp.dps = D + 20
ev = list(csv.DictReader(open(out + '/events.csv')))
got = [(r['from'], r['to']) for r in ev]
if got != [('a', 'b'), ('b', 'c')]:
    print('events %s, expected a->b, b->c' % got); sys.exit(1)
worst = D + 10
for r, exact in zip(ev, [1 - mpf(10) ** -10, 1 + mpf(10) ** -10]):
    d = fabs(mpf(r['time']) - exact)
    worst = min(worst, D + 10 if d == 0 else int(-log10(d)))
print('%d %s %s' % (worst, mp.nstr(mpf(ev[0]['time']), 14), mp.nstr(mpf(ev[1]['time']), 14)))
sys.exit(0 if worst >= D - 2 else 2)
PYEOF
)
    if [[ $? -ne 0 ]]; then
        echo "FAIL close_zeros: D=$D: ${res:-checker crashed}"
        exit 1
    fi
    read -r dig t1 t2 <<<"$res"
    figures+=" D=$D: zeros at $t1 and $t2 to $dig digits;"
done
echo "PASS close_zeros:${figures%;}"
