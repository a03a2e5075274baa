#!/usr/bin/env bash
# run_noise_span.sh -- Taylor's noise window over a span below 1 reads
# noise as the same run scaled to a span of 1 does (the scale rule;
# decisions.md D-118: the window's horizon T = max(u, |t0|, span), u =
# min(1, span), as D-112's time tolerance and event horizon).
#
# 1. x' = 1/S, v' = (v + 1)(c^2 - 3 + (d^2 - 5))/S with the states c =
#    sqrt(3), d = sqrt(5) (zero, computed as rounding noise: -1.8e-40 at
#    30 digits; two roots, since either squares to its integer exactly
#    at some digit counts), so v's series is a noise tail of radius
#    about 2^prec S, and the guard x (1/2 - x) < 0, zero at t = 0 and
#    rising: its crossing at t = S/2 in closed form, to D - 1 digits of
#    itself; x = 1 at t_end = S to D - 1 digits, v = 0 within 10^-(D-1)
#    (of v + 1); S = 1, 1e-10, 1e-30, 1e-60, 1e-100 at 16, 30, 60
#    digits, each within a step of S = 1's count.  With T = max(1, |t0|,
#    span) the tail at S = 1e-30 (30 digits) was a series, a natural
#    step of 7.7e9 over a span of 1e-30, over which the guard's rate was
#    within the zero rule's tolerance: the event at t = 0 (main: 8 of
#    the 15 so, S <= 1e-30 at 16 and 30 digits, S <= 1e-60 at 60).
# 2. cases/stick_slip_belt.hdae with time scaled by S (k/S^2, F_s/S^2,
#    gamma S, v_dr/S, t_end 15 S; x unchanged) at 30 digits: the 7
#    events, sliding-start and sliding-end alternating, at S times the
#    times an mpmath reference computes here (odefun on each slip arc,
#    the stick arcs in closed form to x = 1/3), to D - 1 digits of
#    themselves; x = 1/3 at each sliding end; the step count within 2 of
#    S = 1's (the sliding noise of D-090 is read as noise at every S).
set -u
. "$(dirname "$0")/common.bash"

passes=0
fails=0
report() { # name, message (empty: pass)
    if [[ -z $2 ]]; then
        passes=$((passes + 1))
        echo "PASS $1"
    else
        fails=$((fails + 1))
        echo "FAIL $1: $2"
    fi
}
steps_of() { grep -o '"steps": [0-9]*' "$1/summary.json" | grep -o '[0-9]*$'; }

noise_model() { # S
    cat <<EOF
model noise_span
param s = $1
var x = 0, v = 0, c = sqrt(3), d = sqrt(5)
mode a
  der(x) = 1/s
  der(c) = 0
  der(d) = 0
  der(v) = (v + 1)*(c*c - 3 + (d*d - 5))/s
  when x*(0.5 - x) < 0 goto b
end
mode b
  der(x) = 1/s
  der(c) = 0
  der(d) = 0
  der(v) = 0
end
start a at 0
until $1
EOF
}

for D in 16 30 60; do
    n1=""
    for S in 1 1e-10 1e-30 1e-60 1e-100; do
        name="noise_span_${S}_d$D"
        out=$tmp/$name
        noise_model "$S" >"$tmp/noise.hdae"
        if ! "$HDO" run "$tmp/noise.hdae" -d "$D" -o "$out" >"$tmp/log" 2>&1; then
            report "$name" "$(tail -n 1 "$tmp/log")"
            continue
        fi
        n=$(steps_of "$out")
        [[ $S == 1 ]] && n1=$n
        why=$("$PY" - "$out" "$D" "$S" "$n" "${n1:-0}" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, fabs, log10
out, D, S, n, n1 = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
mp.dps = D + 20
S = mpf(S)
def rel(a, b):
    d = fabs(a - b) / fabs(b)
    return 999 if d == 0 else float(-log10(d))
ev = list(csv.DictReader(open(out + "/events.csv")))
if len(ev) != 1:
    print("%d events, expected 1" % len(ev)); sys.exit()
t = mpf(ev[0]["time"])
if t == 0 or rel(t, S / 2) < D - 1:
    print("event at %s, expected %s (S/2) to %d digits" % (ev[0]["time"], mp.nstr(S / 2, D), D - 1)); sys.exit()
last = list(csv.DictReader(open(out + "/trajectory.csv")))[-1]
if mpf(last["time"]) != S:
    print("last row at %s, expected %s" % (last["time"], S)); sys.exit()
if rel(mpf(last["x"]), mpf(1)) < D - 1:
    print("x = %s at t_end, expected 1" % last["x"]); sys.exit()
if fabs(mpf(last["v"])) > mpf(10) ** (1 - D):
    print("v = %s at t_end, expected 0" % last["v"]); sys.exit()
if n1 and abs(n - n1) > 1:
    print("%d steps, %d at S = 1" % (n, n1))
PYEOF
)
        report "$name" "$why"
    done
done

# the belt: the reference's event times once (mpmath, about 8 s)
"$PY" - >"$tmp/belt_ref" <<'PYEOF'
from mpmath import mp, mpf, odefun, findroot
mp.dps = 40
k, Fs, gam, vdr = mpf(3), mpf(1), mpf(3), mpf("0.2")
def slip_neg(t, y):
    return [y[1], -k * y[0] + Fs / (1 - gam * (y[1] - vdr))]
t0, x0, v0, ev = mpf(0), mpf(0), mpf(0), []
while True:
    f = odefun(slip_neg, t0, [x0, v0])
    g = lambda t: f(t)[1] - vdr
    t, h = t0, mpf("0.05")
    while g(t + h) < 0:
        t += h
    te = findroot(g, (t, t + h), solver="anderson")
    if te > 15:
        break
    xs = f(te)[0]
    assert abs(k * xs) < Fs  # sticks: the friction holds the spring
    ev.append(te)
    tx = te + (mpf(1) / 3 - xs) / vdr  # stick arc to x = F_s/k
    if tx > 15:
        break
    ev.append(tx)
    t0, x0, v0 = tx, mpf(1) / 3, vdr
for e in ev:
    print(mp.nstr(e, 38))
PYEOF
D=30
n1=""
for S in 1 1e-10 1e-30; do
    name="belt_span_${S}_d$D"
    out=$tmp/$name
    "$PY" - "$S" >"$tmp/belt.hdae" <<'PYEOF'
import re, sys
from mpmath import mp, mpf, nstr
mp.dps = 60
S = mpf(sys.argv[1])
src = open("cases/stick_slip_belt.hdae").read()
val = {"k": 3 / S**2, "Fs": 1 / S**2, "gam": 3 * S, "vdr": mpf("0.2") / S}
for p, v in val.items():
    src, n = re.subn(r"(?m)^param %s = .*$" % p, "param %s = %s" % (p, nstr(v, 50)), src)
    assert n == 1, p
src, n = re.subn(r"(?m)^until .*$", "until %s" % nstr(15 * S, 50), src)
assert n == 1
sys.stdout.write(src)
PYEOF
    if ! "$HDO" run "$tmp/belt.hdae" -d "$D" -o "$out" >"$tmp/log" 2>&1; then
        report "$name" "$(tail -n 1 "$tmp/log")"
        continue
    fi
    n=$(steps_of "$out")
    [[ $S == 1 ]] && n1=$n
    why=$("$PY" - "$out" "$D" "$S" "$n" "${n1:-0}" "$tmp/belt_ref" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, fabs, log10
out, D, S, n, n1 = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
mp.dps = D + 20
S = mpf(S)
ref = [mpf(l) * S for l in open(sys.argv[6]).read().split()]
def rel(a, b):
    d = fabs(a - b) / fabs(b)
    return 999 if d == 0 else float(-log10(d))
def fail(msg):
    print(msg); sys.exit()
ev = list(csv.DictReader(open(out + "/events.csv")))
if len(ev) != len(ref) or len(ref) != 7:
    fail("%d events, the reference %d" % (len(ev), len(ref)))
rows = list(csv.DictReader(open(out + "/trajectory.csv")))
for i, (e, r) in enumerate(zip(ev, ref)):
    kind = "sliding-start" if i % 2 == 0 else "sliding-end"
    if e["kind"] != kind:
        fail("event %d: %s, expected %s" % (i + 1, e["kind"], kind))
    if rel(mpf(e["time"]), r) < D - 1:
        fail("event %d at %s, expected %s to %d digits" % (i + 1, e["time"], mp.nstr(r, D), D - 1))
    if kind == "sliding-end":
        x = [mpf(w["x"]) for w in rows if w["time"] == e["time"] and w["mode"].startswith("sliding")]
        if not x or rel(x[-1], mpf(1) / 3) < D - 1:
            fail("x at sliding end %d: %s, expected 1/3" % (i + 1, x))
if n1 and abs(n - n1) > 2:
    fail("%d steps, %d at S = 1" % (n, n1))
PYEOF
)
    report "$name" "$why"
done

echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
