#!/usr/bin/env python3
"""check_pendulum -- Cartesian index-3 pendulum against the Jacobi elliptic closed form.

Closed form (mpmath, 50 digits): theta from the downward vertical, released at
rest from theta0 = pi/2: m = sin^2(theta0/2) = 1/2, w = sqrt(g/L),
u = K(m) - w t, sin(theta/2) = sqrt(m) sn(u|m), so
x = 2 sqrt(m) L sn dn, y = -L (1 - 2 m sn^2),
x' = -2 sqrt(m) L w cn (dn^2 - m sn^2), y' = -4 m L w sn cn dn,
lambda = (vx^2 + vy^2 - g y)/L^2 (constraint differentiated twice).
x = 0 at t_k = (2k - 1) K(1/2)/w.  Compared: the three event times, the event
states, and x, y, vx, vy, lambda on the output grid (every 5th row).
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, sqrt, ellipk, ellipfun, pi

mp.dps = 50
g, L = mpf("9.8"), mpf(1)
m = mpf(1) / 2
w = sqrt(g / L)
K = ellipk(m)


def exact(t):
    u = K - w * t
    sn, cn, dn = ellipfun("sn", u, m), ellipfun("cn", u, m), ellipfun("dn", u, m)
    x = 2 * sqrt(m) * L * sn * dn
    y = -L * (1 - 2 * m * sn ** 2)
    vx = -2 * sqrt(m) * L * w * cn * (dn ** 2 - m * sn ** 2)
    vy = -4 * m * L * w * sn * cn * dn
    lam = (vx ** 2 + vy ** 2 - g * y) / L ** 2
    return {"x": x, "y": y, "vx": vx, "vy": vy, "lambda": lam}


SCALE = {"x": 1, "y": 1, "vx": sqrt(2 * g * L), "vy": sqrt(2 * g * L), "lambda": 3 * g}


def compare_rows(tr, rows, w_, names, tag=""):
    for r in rows:
        t = tr.t(r)
        ex = exact(t)
        for v in names:
            w_.add(H.digits(tr.val(r, v), ex[v], SCALE[v]), "%s%s at t=%s" % (tag, v, r[0][:12]))


def main():
    H.NAME = "pendulum"
    D = 30
    need = D - 5
    # second formula for the first zero: the period integral
    t1 = K / w
    from mpmath import quad, sin
    # energy integral t1 = int_0^{pi/2} ds / sqrt(2 (g/L) sin s) (s = pi/2 - theta)
    t1b = quad(lambda u: 2 * u / sqrt(2 * g / L * sin(u * u)), [0, sqrt(pi / 2)])  # s = u^2
    assert abs(t1 - t1b) < mpf(10) ** -40, (t1, t1b)
    assert abs(t1 - mpf("0.5922624305438362778664826")) < mpf(10) ** -24
    out = H.run("pendulum", D)
    ev = H.events(out)
    w_ = H.Worst()
    exp = [((2 * k - 1) * t1, "switch") for k in (1, 2, 3)]
    H.compare_events(ev, exp, w_)
    tr = H.Traj(out)
    names = ["x", "y", "vx", "vy", "lambda"]
    for (t, _), e in zip(exp, ev):
        pairs = tr.pairs_near(e["t"], mpf(10) ** -20)
        if not pairs:
            H.fail("no left/right rows at the event t=%s" % e["time"])
        for r in pairs[0]:
            for v, ref in (("x", 0), ("y", -L), ("lambda", 3 * g)):
                w_.add(H.digits(tr.val(r, v), ref, SCALE[v]), "%s at event t=%s" % (v, e["time"][:10]))
    compare_rows(tr, tr.grid(5) + [tr.last()], w_, names)
    H.finish(w_, need, "x = 0 at %s" % mp.nstr(t1, 25))


if __name__ == "__main__":
    main()
