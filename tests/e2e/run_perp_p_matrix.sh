#!/usr/bin/env bash
# run_perp_p_matrix.sh -- a P-matrix does not decide the active set
# (decisions.md D-115): 0 <= z perp x + z >= 0 has D = 1, one solution of
# the problem at every point (hdo analyze says so), and from x = -1e-45
# (below x's floor, 10^-35 of its nominal 1) the exact problem on the
# entry values has z = -x = 1e-45 (the set x + z = 0) alone.  The run's
# rule is the zero rule on each set's series: both sets continue, with
# one solution within z's floor, and the first in mask order (z = 0) is
# taken, so z is exactly 0 in every row and x = -1e-45 - 1e-50 t (its
# closed form, to 28 digits).  A shortcut that expanded only the LCP's
# set would print z = 1e-45 + 1e-50 t.  The two refusals where such a
# certificate holds are tests/hostile/run/perp-p-matrix-*.hdae.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
fails=0
passes=0
cat >"$tmp/pm.hdae" <<'M'
model pm
var x = -1e-45 nominal 1, z nominal 1
mode m
  der(x) = -1e-50
  0 <= z perp x + z >= 0
end
start m
until 1
M
if "$HDO" analyze "$tmp/pm.hdae" 2>&1 | grep -q "P-matrix: yes"; then
    passes=$((passes + 1))
else
    echo "FAIL p_matrix: hdo analyze does not find D = 1 a P-matrix"
    fails=$((fails + 1))
fi
if ! "$HDO" run "$tmp/pm.hdae" --digits 30 --every 0.125 -o "$tmp/pm" >/dev/null 2>"$tmp/err"; then
    echo "FAIL p_matrix run: $(head -n 1 "$tmp/err")"
    fails=$((fails + 1))
elif msg=$("$PY" - "$tmp/pm/trajectory.csv" 2>&1 <<'PY'
import csv, sys
from fractions import Fraction as F
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 9, "%d rows" % len(rows)
# the exact LCP on the entry values: w = q + z, q = x(0) = -1e-45
q = F(-1, 10**45)
z_lcp = max(F(0), -q)
assert z_lcp == F(1, 10**45)
for r in rows:
    t, x, z = F(r["time"]), F(r["x"]), F(r["z"])
    assert z == 0, "z = %s at t = %s (the first set is z = 0)" % (r["z"], r["time"])
    want = -F(1, 10**45) - F(1, 10**50) * t
    assert abs(x - want) <= abs(want) / 10**28, "x = %s at t = %s" % (r["x"], r["time"])
print("z = 0 in %d rows (the LCP's z is %s)" % (len(rows), float(z_lcp)))
PY
); then
    passes=$((passes + 1))
else
    echo "FAIL p_matrix: $(echo "$msg" | tail -n 1)"
    fails=$((fails + 1))
fi
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
