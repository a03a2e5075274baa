#!/usr/bin/env python3
"""check_diode_bridge -- Siconos' DiodeBridge by the closed form of its RLC arcs.

Whatever the sign of v, the bridge draws |v|/R from the tank with the sign of
v, so v'' + v'/(RC) + v/(LC) = 0: v = exp(-a t)(v0 cos bt + (v0' + a v0)/b sin
bt), a = 1/(2RC), b = sqrt(1/(LC) - a^2), v0 = 10, v0' = -v0/(RC); iL = -C v'
- v/R.  For v > 0: i1 = i4 = iR = v/R, i2 = i3 = 0, w2 = v, w4 = 0; for v < 0:
i2 = i3 = iR = -v/R, i1 = i4 = 0, w2 = 0, w4 = -v.  Events at the zeros of v,
t_k = (atan2(-v0 b, v0' + a v0) + k pi)/b.  All values at every row (at an
event both rows are the common value: every diode quantity is 0 there).
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, sqrt, exp, sin, cos, atan2, pi

mp.dps = 50
L, C, R = mpf(1) / 100, mpf(1) / 1000000, mpf(1000)
v0 = mpf(10)
a = 1 / (2 * R * C)
b = sqrt(1 / (L * C) - a * a)
dv0 = -v0 / (R * C)
TEND = mpf(5) / 1000


def vv(t):
    e = exp(-a * t)
    c1, c2 = v0, (dv0 + a * v0) / b
    v = e * (c1 * cos(b * t) + c2 * sin(b * t))
    dv = -a * v + e * b * (-c1 * sin(b * t) + c2 * cos(b * t))
    return v, dv


def main():
    H.NAME = "diode_bridge"
    D = 30
    need = D - 5
    ph = atan2(-v0 * b, dv0 + a * v0)
    want = []
    k = 0
    while True:
        t = (ph + k * pi) / b
        k += 1
        if t <= 0:
            continue
        if t >= TEND:
            break
        want.append(t)
    out = H.run("diode_bridge", D, args=("--every", "0.0000999"))
    ev = H.events(out)
    w_ = H.Worst()
    H.compare_events(ev, [(t, None) for t in want], w_, tscale=TEND)
    for e in ev:
        if e["kind"] not in ("switch", "simultaneous"):
            H.fail("event at %s has kind %s" % (e["time"], e["kind"]))
    tr = H.Traj(out)
    vs, ism = v0, v0 / R
    for r in tr.rows:
        t = tr.t(r)
        v, dv = vv(t)
        iL = -C * dv - v / R
        p, n = max(v, 0), max(-v, 0)
        want_r = {"v": v, "iL": iL, "w2": p, "w4": n, "i1": p / R, "i4": p / R,
                  "i2": n / R, "i3": n / R, "iR": abs(v) / R}
        for var, x in want_r.items():
            sc = vs if var in ("v", "w2", "w4") else (ism if var != "iL" else v0 * sqrt(C / L))
            w_.add(H.digits(tr.val(r, var), x, sc), "%s at t=%s" % (var, r[0][:12]))
    H.finish(w_, need, "%d events, first %s" % (len(ev), mp.nstr(want[0], 21)))


if __name__ == "__main__":
    main()
