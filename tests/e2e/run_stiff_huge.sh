#!/usr/bin/env bash
# run_stiff_huge.sh -- the implicit method (Radau IIA) on a mode whose
# h J is beyond double's range: the block Newton solve (radau_block.c,
# in double) refuses it, and the full Newton matrix in MPFR must take
# over, as radau_block.c says (review of issue #18's Radau cost work).
#
# Model: x' = -lam (x - cos t), x(0) = 1, lam = 1e300, on [0, 1]:
#     x(t) = (lam^2 cos t + lam sin t) / (lam^2 + 1) + C e^(-lam t),
# C = 1 - lam^2 / (lam^2 + 1) (mpmath at D + 20 digits).  Before the fix
# the refused block factorisation shrank the step (MAX_REJECT quarters)
# and the run ended in "the implicit method's step collapsed to 3.02e-38"
# at t = 0.  Checked at 30 digits with --every 1/4: every row against the
# closed form to >= D - 2 digits, every step implicit.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/huge.hdae" <<'EOF'
model huge
var x = 1
mode a
  der(x) = -1e300*(x - cos(t))
end
start a at 0
until 1
EOF

D=30
out="$tmp/out"
if ! "$HDO" run "$tmp/huge.hdae" -d "$D" --method implicit --every 0.25 \
    -o "$out" >"$tmp/log" 2>&1; then
    echo "FAIL stiff_huge: hdo run failed: $(tail -n 1 "$tmp/log")"
    exit 1
fi
res=$("$PY" - "$out" "$D" <<'PYEOF'
import csv, json, sys
from mpmath import mp, mpf, cos, sin, exp, fabs, log10
out, D = sys.argv[1], int(sys.argv[2])
mp.dps = D + 20
lam = mpf(10) ** 300
def xref(t):
    P = (lam**2 * cos(t) + lam * sin(t)) / (lam**2 + 1)
    return P + (1 - lam**2 / (lam**2 + 1)) * exp(-lam * t)
worst, rows = D + 10, 0
for row in csv.DictReader(open(out + "/trajectory.csv")):
    ref = xref(mpf(row["time"]))
    d = fabs(mpf(row["x"]) - ref) / max(1, fabs(ref))
    worst = min(worst, D + 10 if d == 0 else int(-log10(d)))
    rows += 1
summ = json.load(open(out + "/summary.json"))
if rows != 5 or summ.get("implicit_steps", 0) != summ["steps"]:
    print("%d rows, implicit_steps %s of %s" % (rows, summ.get("implicit_steps"), summ["steps"]))
    sys.exit(1)
print(worst, rows, summ["steps"])
sys.exit(0 if worst >= D - 2 else 2)
PYEOF
)
rc=$?
if [[ $rc -ne 0 ]]; then
    echo "FAIL stiff_huge: ${res:-checker crashed} (worst digits, rows, steps)"
    exit 1
fi
read -r dig rows steps <<<"$res"
echo "PASS stiff_huge: x' = -1e300 (x - cos t), $rows rows against the closed form to $dig digits ($steps implicit steps)"
