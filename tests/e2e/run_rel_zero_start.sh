#!/usr/bin/env bash
# run_rel_zero_start.sh -- a relation whose value at the start is tiny but
# not zero: y' = 1 from 0 and der(x) = if D > 0 then 1 else 0 with
# D = 1e-30 - y + k y^2.  D(0) = 1e-30 is a value known to y's error, not
# a zero within tol times D's size over the step (D-016's rule), which
# made the sign pattern at the start a spurious crossing at t = 0 (16
# digits for k = 0 and 1e20, 30 digits for k = 1e20; decisions.md
# D-125).  Every crossing is a root of D (the quadratic formula in
# mpmath) to D - 1 digits, there is none other, and x(2) is the time D
# spends positive.  k = 1e28 at 16 digits: after the first crossing
# (1.01e-30) the step is 1 long and D's size over it 1e28, so D'(0) =
# 0.98 was taken for a zero and the second crossing (9.9e-29) put at the
# first; D'(0) is now a value known to its own error (D-130).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
fails=0
passes=0
cat >"$tmp/rel.hdae" <<'EOF'
model rel
param k = 0
var y = 0, x = 0
mode m
  der(y) = 1
  der(x) = if 1e-30 - y + k*y^2 > 0 then 1 else 0
end
start m
until 2
EOF
for k in 0 1e20 -1e25 1e28; do
    for D in 16 30 60; do
        out="$tmp/r-$k-$D"
        if ! "$HDO" run "$tmp/rel.hdae" -d "$D" -p k="$k" -o "$out" >/dev/null 2>"$tmp/err"; then
            echo "FAIL rel_zero_start k = $k, $D digits: $(head -n 1 "$tmp/err")"
            fails=$((fails + 1))
            continue
        fi
        if msg=$("$PY" - "$out" "$k" "$D" 2>&1 <<'PY'
import csv, sys
from mpmath import mp, mpf, sqrt, fabs
mp.dps = 100
d, k, D = sys.argv[1], mpf(sys.argv[2]), int(sys.argv[3])
a = mpf(10) ** -30
tol = mpf(10) ** (1 - D)
# the roots of a - y + k y^2 in (0, 2]
if k == 0:
    roots = [a]
else:
    disc = 1 - 4 * a * k
    roots = sorted(r for r in ((1 - sqrt(disc)) / (2 * k), (1 + sqrt(disc)) / (2 * k))
                   if 0 < r <= 2)
ev = list(csv.DictReader(open(d + "/events.csv")))
assert len(ev) == len(roots), "%d events (%s), not %d" % (
    len(ev), ", ".join(e["time"] for e in ev), len(roots))
for e, r in zip(ev, roots):
    assert e["kind"] == "crossing", e["kind"]
    assert fabs(mpf(e["time"]) - r) <= tol * r, "crossing at %s, not %s" % (
        e["time"], mp.nstr(r, 20))
x2 = roots[0] + (2 - roots[1] if len(roots) > 1 else 0)
last = list(csv.DictReader(open(d + "/trajectory.csv")))[-1]
assert fabs(mpf(last["x"]) - x2) <= tol * x2, "x(2) = %s, not %s" % (
    last["x"], mp.nstr(x2, D + 2))
PY
        ); then
            passes=$((passes + 1))
        else
            echo "FAIL rel_zero_start k = $k, $D digits: $(echo "$msg" | tail -n 1)"
            fails=$((fails + 1))
        fi
    done
done
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
