#!/usr/bin/env bash
# run_scaled_guard.sh -- the implicit method (Radau IIA) on a switching
# function of large scale that starts at zero after an event (review of
# issue #18).
#
# Model: a ball, h'' = -g, h(0) = 1, v(0) = 0, with the guard 1e12*h < 0:
# at the first impact t1 = sqrt(2/g) it goes from mode fly to mode up with
# v = -e v; in mode up the same guard leads to mode dead at the next impact
# t2 = t1 + 2 e t1 (closed form: after the impact v = e g t1 upwards, back
# at h = 0 after 2 v / g).  Right after the first impact h is the event
# location's rounding (of either sign), so 1e12 h is a tiny number at the
# arc's start; the zero rule must read it as zero (KM Remark 12) and find
# the ball leaving upwards.  Before the fix the guard's polynomial was
# held to the tolerance relative to max(1, |g(y0)|) = 1, the step after
# the impact fell to 3e-8, and over that horizon the zero rule took the
# rounding for a crossing: at 20 digits the run went up -> dead at t1
# itself and exited 0 (and the one-mode ball, 1e15*h, ended in a false
# "chattering" error at 30 digits).  Checked at 20, 30 and 60 digits:
# the two events' times against t1 and t2 to >= D - 2 digits, the modes
# fly -> up -> dead, and the same for the one-mode ball's four impacts
# (t_{k+1} = t_k + 2 e^k t1).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/up.hdae" <<'EOF'
model up
param g = 9.81
param e = 0.7
var h = 1
var v = 0
mode fly
  der(h) = v
  der(v) = -g
  when 1e12*h < 0 goto up with v = -e*v
end
mode up
  der(h) = v
  der(v) = -g
  when 1e12*h < 0 goto dead with v = 0
end
mode dead
  der(h) = 0
  der(v) = 0
end
start fly at 0
until 2
EOF
cat >"$tmp/ball.hdae" <<'EOF'
model ball
param g = 9.81
param e = 0.7
var h = 1
var v = 0
mode fly
  der(h) = v
  der(v) = -g
  when 1e15*h < 0 goto fly with v = -e*v
end
start fly at 0
until 2
EOF

fails=0
for D in 20 30 60; do
    for m in up ball; do
        out="$tmp/out_${m}_$D"
        if ! "$HDO" run "$tmp/$m.hdae" -d "$D" --method implicit -o "$out" \
            >"$tmp/log" 2>&1; then
            echo "FAIL scaled_guard_${m}_$D: hdo run failed: $(tail -n 1 "$tmp/log")"
            fails=$((fails + 1))
            continue
        fi
        res=$("$PY" - "$out" "$D" "$m" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, sqrt, fabs, log10
out, D, m = sys.argv[1], int(sys.argv[2]), sys.argv[3]
mp.dps = D + 20
g, e = mpf("9.81"), mpf("0.7")
t1 = sqrt(2 / g)
if m == "up":
    want = [(t1, "fly", "up"), (t1 + 2 * e * t1, "up", "dead")]
else:
    want, t = [], t1
    for k in range(10):
        if t > 2:
            break
        want.append((t, "fly", "fly"))
        t += 2 * e ** (k + 1) * t1
ev = list(csv.DictReader(open(out + "/events.csv")))
got = [(r["time"], r["from"], r["to"]) for r in ev]
if len(got) != len(want):
    print("%d events, expected %d: %s" % (len(got), len(want), got))
    sys.exit(1)
worst = D + 10
for (tg, fg, tog), (tw, fw, tow) in zip(got, want):
    if (fg, tog) != (fw, tow):
        print("event %s -> %s at %s, expected %s -> %s" % (fg, tog, tg, fw, tow))
        sys.exit(1)
    d = fabs(mpf(tg) - tw)
    worst = min(worst, D + 10 if d == 0 else int(-log10(d)))
print(worst, len(got))
sys.exit(0 if worst >= D - 2 else 2)
PYEOF
)
        rc=$?
        if [[ $rc -ne 0 ]]; then
            echo "FAIL scaled_guard_${m}_$D: ${res:-checker crashed} (worst digits, events)"
            fails=$((fails + 1))
            continue
        fi
        read -r dig nev <<<"$res"
        echo "PASS scaled_guard_${m}_$D: $nev events against the closed form to $dig digits"
    done
done
exit $((fails > 0))
