#!/usr/bin/env bash
# run_radau_span.sh -- the implicit method (Radau IIA) over a span far
# below 1 decides as over the same run at scale 1 (the scale rule;
# decisions.md D-119: Radau's step cap on arcs with guards is max(u,
# |t0|), u = min(1, span), as the driver's event horizon, D-112).
#
# cases/bouncing_ball.hdae scaled in time by S (h0 = S^2, g = 9.81, until
# 3 S; time S, length S^2) with --method implicit, S = 1e-5, 1e-10,
# 1e-20, 1e-30, at 16 and 30 digits: impact k at t1 (1 + 2 sum_{j<k}
# e^j), t1 = S sqrt(2 / g), the Zeno point t1 (1 + e) / (1 - e), from
# mpmath here; every impact and the Zeno point to D - 1 digits, and as
# many impacts as the unscaled implicit run's, within 2 (a Zeno point
# declared early is still right, but the run decided otherwise).  With
# the cap max(1, |t0|) the steps grew to 1 s over a span of 3 S: the
# runs chattered at h = 0 (exit 2) for S <= 1e-10 and declared Zeno 29
# impacts early at S = 1e-5.
set -u
. "$(dirname "$0")/common.bash"

fails=0
passes=0
check() { # name, status, message
    if [[ $2 -eq 0 ]]; then
        passes=$((passes + 1))
        echo "PASS $1: $3"
    else
        fails=$((fails + 1))
        echo "FAIL $1: $3"
    fi
}

for D in 16 30; do
    "$HDO" run cases/bouncing_ball.hdae -d "$D" --method implicit \
        -o "$tmp/ball_1_$D" >"$tmp/log" 2>&1
    n1=$(($(wc -l <"$tmp/ball_1_$D/events.csv") - 1))
    for S in 1e-5 1e-10 1e-20 1e-30; do
        sed -e "s/^var h = 1\$/var h = ${S}^2/" -e "s/^until 3\$/until 3 * $S/" \
            cases/bouncing_ball.hdae >"$tmp/ball.hdae"
        out="$tmp/ball_${S}_$D"
        "$HDO" run "$tmp/ball.hdae" -d "$D" --method implicit -o "$out" \
            >"$tmp/log" 2>&1
        rc=$?
        res=$("$PY" - "$out" "$D" "$S" "$rc" "$n1" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, sqrt, fabs, log10
out, D, rc, n1 = sys.argv[1], int(sys.argv[2]), int(sys.argv[4]), int(sys.argv[5])
mp.dps = 2 * D + 20
S, g, e = mpf(sys.argv[3]), mpf("9.81"), mpf("0.7")
t1 = S * sqrt(2 / g)
try:
    ev = list(csv.DictReader(open(out + "/events.csv")))
except OSError as err:
    print("no result (exit %d): %s" % (rc, err)); sys.exit(1)
if rc != 0 or len(ev) < 2 or ev[-1]["kind"] != "zeno":
    print("exit %d, %d events, last %s" % (rc, len(ev), ev[-1]["kind"] if ev else "-"))
    sys.exit(1)
worst, tk = 3 * D, t1
for k in range(1, len(ev)):
    d = fabs(mpf(ev[k - 1]["time"]) - tk)
    worst = min(worst, 3 * D if d == 0 else float(-log10(d / tk)))
    tk += 2 * t1 * e ** k
ts = t1 * (1 + e) / (1 - e)
d = fabs(mpf(ev[-1]["time"]) - ts)
worst = min(worst, 3 * D if d == 0 else float(-log10(d / ts)))
print("%d impacts (unscaled %d), Zeno at %s; all to %.1f digits (need %d)"
      % (len(ev) - 1, n1 - 1, mp.nstr(mpf(ev[-1]["time"]), 13), worst, D - 1))
sys.exit(0 if worst >= D - 1 and abs(len(ev) - n1) <= 2 else 1)
PYEOF
)
        check "radau_span_ball_${S}_d$D" $? "$res"
    done
done
echo "radau_span: $passes passed, $fails failed"
exit $((fails > 0))
