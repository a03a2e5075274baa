#!/usr/bin/env bash
# run_stiff_events.sh -- the implicit method (Radau IIA) on a stiff mode with
# a `when` clause and a reset, against its closed form (issue #18).
#
# Model: der(x) = -lam (x - s cos t), der(s) = 0, x(0) = 1, s(0) = 1,
# lam = 1000; when x < -1/2 the sign s flips (s = -s), so x leaves -1/2
# on a fast transient towards s cos t and the next crossing comes half a
# period later: 3 events on [0, 10].  On each arc
#     x(t) = s P(t) + C e^(-lam (t - t_e)),
#     P(t) = (lam^2 cos t + lam sin t) / (lam^2 + 1),
# C from x at the arc's start (x(0) = 1, x(t_e) = -1/2), and the event
# times are the roots of x(t) = -1/2, found by mpmath's findroot at D + 20
# digits from the closed form alone.  Run with --method implicit at 30 and
# 60 digits (and --every 1/4, rows inside the fast transients included):
# the event times and x on every row (the two rows of each event: -1/2) must
# agree with the closed form to >= D - 2 digits (relative to
# max(1, |x|)), and summary.json must say that the implicit method took
# every step.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/stiff_switch.hdae" <<'EOF'
model stiff_switch
param lam = 1000
var x = 1
var s = 1
mode track
  der(x) = -lam*(x - s*cos(t))
  der(s) = 0
  when x < -1/2 goto track with s = -s
end
start track at 0
until 10
EOF

fails=0
for D in 30 60; do
    out="$tmp/out$D"
    if ! "$HDO" run "$tmp/stiff_switch.hdae" -d "$D" --method implicit \
        --every 0.25 -o "$out" >"$tmp/log$D" 2>&1; then
        echo "FAIL stiff_events_$D: hdo run failed: $(tail -n 1 "$tmp/log$D")"
        fails=$((fails + 1))
        continue
    fi
    res=$("$PY" - "$out" "$D" <<'PYEOF'
import csv, json, sys
from mpmath import mp, mpf, cos, sin, exp, fabs, log10, findroot, acos, pi
out, D = sys.argv[1], int(sys.argv[2])
mp.dps = D + 20
lam = mpf(1000)

def P(t):
    return (lam**2 * cos(t) + lam * sin(t)) / (lam**2 + 1)

# arcs: (start, s, C); x = s P(t) + C exp(-lam (t - start))
arcs = [(mpf(0), 1, 1 - P(0))]
events = []
while len(events) < 10:
    t0, s, C = arcs[-1]
    x = lambda t: s * P(t) + C * exp(-lam * (t - t0)) + mpf(1) / 2
    # the first sign change of x + 1/2 after the arc's start (x leaves
    # -1/2 upwards at an event), bracketed on a grid of 1/100, refined
    a = t0 + mpf(1) / 1000
    while x(a) > 0 and a < 11:
        a += mpf(1) / 100
    if a >= 11:
        break
    te = findroot(x, (a - mpf(1) / 100, a), solver="anderson")
    if te > 10:
        break
    events.append(te)
    arcs.append((te, -s, -mpf(1) / 2 - (-s) * P(te)))

def xref(t):
    k = 0
    while k + 1 < len(arcs) and arcs[k + 1][0] <= t:
        k += 1
    t0, s, C = arcs[k]
    return s * P(t) + C * exp(-lam * (t - t0))

def dig(got, ref):
    d = fabs(got - ref) / max(1, fabs(ref))
    return D + 10 if d == 0 else int(-log10(d))

worst = D + 10
ev = list(csv.DictReader(open(out + "/events.csv")))
if len(ev) != len(events) or len(events) != 3:
    print("%d events, expected %d" % (len(ev), len(events)))
    sys.exit(1)
for r, te in zip(ev, events):
    worst = min(worst, dig(mpf(r["time"]), te))
# the two rows of an event hold x(t_e) = -1/2 (x is continuous); the
# printed t_e is off by 10^-D, which the arc after the event, of slope
# lam (x - s cos t), would turn into 10^(3-D) at the printed time
etimes = set(r["time"] for r in ev)
rows = 0
for row in csv.DictReader(open(out + "/trajectory.csv")):
    ref = -mpf(1) / 2 if row["time"] in etimes else xref(mpf(row["time"]))
    worst = min(worst, dig(mpf(row["x"]), ref))
    rows += 1
summ = json.load(open(out + "/summary.json"))
if summ.get("implicit_steps", 0) != summ["steps"]:
    print("implicit_steps %s of %s steps" % (summ.get("implicit_steps"),
                                             summ["steps"]))
    sys.exit(1)
print("%d %d %d" % (worst, rows, summ["steps"]))
sys.exit(0 if worst >= D - 2 else 2)
PYEOF
)
    rc=$?
    if [[ $rc -ne 0 ]]; then
        echo "FAIL stiff_events_$D: ${res:-checker crashed}"
        fails=$((fails + 1))
        continue
    fi
    read -r dig rows steps <<<"$res"
    echo "PASS stiff_events_$D: 3 events and $rows rows of x against the closed form to $dig digits ($steps implicit steps)"
done
exit $((fails > 0))
