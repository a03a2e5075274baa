#!/usr/bin/env bash
# run_pendulum.sh -- the Cartesian index-3 pendulum and the angle ODE against the closed form, with a DAE event at x = 0.
#
# Independent check (closed form, mpmath at D + 20 digits): released at
# rest from the horizontal (theta0 = pi/2, g = 9.8, L = 1), with
# m = sin^2(theta0/2) = 1/2, w = sqrt(g/L) and u = K(m) - w t,
#   sin(theta/2) = sqrt(m) sn(u|m),  x = L sin(theta) = 2 sqrt(m) sn dn L,
#   y = -L cos(theta) = -L (1 - 2 m sn^2);
# the first zero of x is at K(1/2)/w = 0.59226243054383627786648...
# (corpus.md).  The Cartesian model must locate that event (guard
# `x < 0`) and both models must match x and y at t = 5, each to at least
# D - 5 digits, at D = 30 and 50.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/cart.hdae" <<'MODEL'
model pendulum_cartesian
param g = 9.8
param L = 1
var x = 1, y = 0, vx = 0, vy = 0
var lambda
mode right
  der(x) = vx
  der(y) = vy
  der(vx) = -x*lambda
  der(vy) = -y*lambda - g
  x^2 + y^2 = L^2
  when x < 0 goto swing
end
mode swing
  der(x) = vx
  der(y) = vy
  der(vx) = -x*lambda
  der(vy) = -y*lambda - g
  x^2 + y^2 = L^2
end
start right at 0
until 5
MODEL

cat >"$tmp/angle.hdae" <<'MODEL'
model pendulum_angle
param g = 9.8
param L = 1
var th = pi/2, w = 0
mode swing
  der(th) = w
  der(w) = -g/L*sin(th)
end
start swing at 0
until 5
MODEL

figures=""
for D in 30 50; do
    for m in cart angle; do
        if ! "$HDO" run "$tmp/$m.hdae" -d "$D" -o "$tmp/$m$D" >"$tmp/log" 2>&1; then
            echo "FAIL pendulum: hdo run $m -d $D failed: $(tail -n 1 "$tmp/log")"
            exit 1
        fi
    done
    res=$("$PY" - "$tmp/cart$D" "$tmp/angle$D" "$D" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, sqrt, ellipk, ellipfun, sin, log10, fabs
cart, angle, D = sys.argv[1], sys.argv[2], int(sys.argv[3])
mp.dps = D + 20
g, L, m = mpf('9.8'), mpf(1), mpf(1) / 2
w = sqrt(g / L)
K = ellipk(m)
def xy(t):
    u = K - w * t
    sn, dn = ellipfun('sn', u, m=m), ellipfun('dn', u, m=m)
    return 2 * sqrt(m) * sn * dn * L, -L * (1 - 2 * m * sn ** 2)
def dig(a, b):
    d = fabs(mpf(a) - b)
    return D + 10 if d == 0 else float(-log10(d))
ev = list(csv.DictReader(open(cart + '/events.csv')))
if len(ev) != 1 or (ev[0]['from'], ev[0]['to']) != ('right', 'swing'):
    print('expected one event right -> swing, got %d' % len(ev)); sys.exit(1)
dev = dig(ev[0]['time'], K / w)
last = list(csv.DictReader(open(cart + '/trajectory.csv')))[-1]
x5, y5 = xy(mpf(5))
if mpf(last['time']) != 5:
    print('last Cartesian row not at t = 5'); sys.exit(1)
dc = min(dig(last['x'], x5), dig(last['y'], y5))
la = list(csv.DictReader(open(angle + '/trajectory.csv')))[-1]
th = mpf(la['th'])
da = min(dig(sin(th) * L, x5), dig(-L * mp.cos(th), y5))
worst = min(dev, dc, da)
print('%d %d %d' % (int(dev), int(dc), int(da)))
sys.exit(0 if worst >= D - 5 else 2)
PYEOF
)
    if [[ $? -ne 0 ]]; then
        echo "FAIL pendulum: D=$D: digits (event, Cartesian at 5, angle at 5) = ${res:-checker crashed}"
        exit 1
    fi
    read -r de dc da <<<"$res"
    figures+=" D=$D: event $de digits, Cartesian $dc, angle $da at t = 5;"
done
echo "PASS pendulum:${figures%;}"
