#!/usr/bin/env bash
# run_radau_first_step.sh -- the implicit method's first step on a free
# fall whose state spans 180 decades (decisions.md D-126): x = 1,
# y = 3.4e-122, vx = -1.96e-182, vy = 5.77e-61 from t0 = 4.31e-62 to 1
# under g = 9.8 (a pendulum's rope gone slack; /work/notes/slack_radau).
# At 16 digits y and vy are below their floors (tol^2 of x), so the
# time scale was |x|/|vx| = 5e181 and the first step 3.4e180: its Newton
# iteration cannot converge (the y rows' residual, 5.8e361, is computed
# to 2^-170 of itself against a stopping tolerance of 1.3e-49), each
# failure shrank h by 4, and 60 of them ended at 2.6e144 ("the implicit
# method's step collapsed", exit 2).  Now the step is at most the run's
# span and a long run of rejections shrinks h ever faster.
#
# 1. The model with time and lengths scaled by S (t0, t_end, x, y times
#    S, g over S, the velocities kept) and with the states scaled by S
#    (x, y, vx, vy, g times S), S = 1, 1e-20, 1e-60, at 16, 30 and 60
#    digits, --method implicit: the final state against the closed form
#    x = x0 + vx T, y = y0 + vy0 T - g T^2 / 2, vy = vy0 - g T, vx = vx0
#    (T = t_end - t0; mpmath here) to D - 1 significant digits of each
#    value.
# 2. The same until 1e120 at 16 digits: the step capped at the span
#    fails Newton from 1e120 to below 4e52 (the rule of the rejections
#    in a row, hdo_radau_reject_streak, gets there in 12 tries); y and vy
#    to D - 1 digits (x and vx are tol^2 below y there: absolute, D-011).
set -u
. "$(dirname "$0")/common.bash"

fails=0
passes=0

# final_state OUT D RC T0 TEND X Y VX VY G VARS: the last row of OUT's
# trajectory against the closed form, VARS the variables checked
final_state() {
    "$PY" - "$@" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, fabs, log10
out, D, rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mp.dps = 2 * D + 400
t0, te, x, y, vx, vy, g = (mpf(a) for a in sys.argv[4:11])
names = sys.argv[11].split(",")
T = te - t0
ref = {"x": x + vx * T, "y": y + vy * T - g * T * T / 2, "vx": vx,
       "vy": vy - g * T}
try:
    rows = list(csv.DictReader(open(out + "/trajectory.csv")))
except OSError as e:
    print("no result (exit %d): %s" % (rc, e)); sys.exit(1)
if rc != 0 or not rows or mpf(rows[-1]["time"]) != te:
    print("exit %d, %d rows" % (rc, len(rows))); sys.exit(1)
worst, what = 3 * D, ""
for v in names:
    d = fabs(mpf(rows[-1][v]) - ref[v])
    dig = 3 * D if d == 0 else float(-log10(d / fabs(ref[v])))
    if dig < worst:
        worst, what = dig, v
print("%.1f digits (need %d)%s" % (worst, D - 1, " at " + what if what else ""))
sys.exit(0 if worst >= D - 1 else 1)
PYEOF
}

run_case() { # name D t0 tend x y vx vy g vars
    local name=$1 D=$2
    printf 'model slack\nparam g = %s\nvar x = %s, y = %s, vx = %s, vy = %s\nmode slack\n  der(x) = vx\n  der(y) = vy\n  der(vx) = 0\n  der(vy) = -g\nend\nstart slack at %s\nuntil %s\n' \
        "$9" "$5" "$6" "$7" "$8" "$3" "$4" >"$tmp/$name.hdae"
    timeout 300 "$HDO" run "$tmp/$name.hdae" -d "$D" --method implicit \
        -o "$tmp/$name" >"$tmp/$name.log" 2>&1
    local rc=$?
    local res verdict=PASS
    if res=$(final_state "$tmp/$name" "$D" "$rc" "$3" "$4" "$5" "$6" "$7" \
        "$8" "$9" "${10}"); then
        passes=$((passes + 1))
    else
        fails=$((fails + 1))
        verdict=FAIL
    fi
    echo "$verdict $name: $res $(grep -o 'error:.*' "$tmp/$name.log" | head -1)"
}

for k in 0 20 60; do
    for D in 16 30 60; do
        # time and lengths by S = 10^-k
        run_case "time_e-${k}_d$D" "$D" "4.31e-$((62 + k))" "1e-$k" "1e-$k" \
            "3.4e-$((122 + k))" "-1.96e-182" "5.77e-61" "9.8e$k" x,y,vx,vy
        # the states by S
        run_case "states_e-${k}_d$D" "$D" "4.31e-62" "1" "1e-$k" \
            "3.4e-$((122 + k))" "-1.96e-$((182 + k))" "5.77e-$((61 + k))" \
            "9.8e-$k" x,y,vx,vy
    done
done
run_case "long_span_d16" 16 "4.31e-62" "1e120" 1 "3.4e-122" "-1.96e-182" \
    "5.77e-61" "9.8" y,vy

echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
