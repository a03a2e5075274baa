#!/usr/bin/env python3
"""check_pendulum_break -- accelerated pendulum with a cut rope, against the angle ODE.

Mode 1 (independent formulation): theta'' = (4 t - g sin theta)/L with theta from
the downward vertical (x = L sin theta, y = -L cos theta), integrated by
mpmath.odefun (Taylor series) at 45 digits; the cut where L^2 theta'^2 = 50 by
findroot (double-checked at 55 digits).  Mode 2: the parabola
x = xc + vxc (t - tc), y = yc + vyc (t - tc) - g (t - tc)^2/2.
Compared: the event time, the state at the event, the state on the output
grid before (every 10th row) and after the cut, and at t = 5.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, sin, cos, odefun, findroot

mp.dps = 45
g, L = mpf("9.81"), mpf(1)


def solve(dps):
    with mp.workdps(dps):
        f = odefun(lambda t, y: [y[1], (4 * t - g * sin(y[0])) / L], 0, [mpf(0), mpf(0)])
        tc = findroot(lambda t: L ** 2 * f(t)[1] ** 2 - 50, mpf("3.7297"))
        return f, tc


def main():
    H.NAME = "pendulum_break"
    D = 30
    need = D - 5
    f, tc = solve(45)
    _, tc2 = solve(55)
    assert abs(tc - tc2) < mpf(10) ** -40, (tc, tc2)
    th, om = f(tc)
    xc, yc = L * sin(th), -L * cos(th)
    vxc, vyc = L * cos(th) * om, L * sin(th) * om

    def exact(t):
        if t <= tc:
            a, b = f(t)
            return {"x": L * sin(a), "y": -L * cos(a), "vx": L * cos(a) * b, "vy": L * sin(a) * b}
        s = t - tc
        return {"x": xc + vxc * s, "y": yc + vyc * s - g * s * s / 2, "vx": vxc, "vy": vyc - g * s}

    out = H.run("pendulum_break", D)
    ev = H.events(out)
    w_ = H.Worst()
    H.compare_events(ev, [(tc, "switch")], w_)
    if ev[0]["from"] != "swing" or ev[0]["to"] != "fly":
        H.fail("event is %s -> %s" % (ev[0]["from"], ev[0]["to"]))
    tr = H.Traj(out)
    sc = {"x": 1, "y": 1, "vx": 10, "vy": 10}
    pr = tr.pairs_near(ev[0]["t"], mpf(10) ** -20)
    if not pr:
        H.fail("no rows at the event")
    for v, ref in (("x", xc), ("y", yc), ("vx", vxc), ("vy", vyc)):
        for r in pr[0]:
            w_.add(H.digits(tr.val(r, v), ref, sc[v]), "%s at the cut" % v)
    rows = [r for r in tr.grid() if tr.t(r) < tc][::10] + [r for r in tr.grid() if tr.t(r) > tc][::10] + [tr.last()]
    for r in rows:
        ex = exact(tr.t(r))
        for v in sc:
            w_.add(H.digits(tr.val(r, v), ex[v], sc[v]), "%s at t=%s" % (v, r[0][:10]))
    H.finish(w_, need, "cut at %s (theta = %s)" % (mp.nstr(tc, 25), mp.nstr(th, 15)))


if __name__ == "__main__":
    main()
