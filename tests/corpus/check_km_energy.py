#!/usr/bin/env python3
"""check_km_energy -- switching function that is a first integral (KM Example 16).

Expected: no events at all; H(p, q) = H0 = -m g L cos(1) on every output row to
the working precision (relative to m g L); q, p against the closed form
sin(q/2) = k sn(K(k^2) - w t | k^2), k = sin(1/2), w = sqrt(g/L)
(p = m L^2 q'... here p = m q' with L = 1 as in the model: q' = p/m), i.e.
q = 2 asin(k sn(u)), p = m q' = -2 m k w cn(u) (since d/dt asin(k sn) = k cn dn u'/ (cos(q/2)) = -k w cn).
Second formula: the closed form is also checked at t = 0.3 against
mpmath.odefun (Taylor) of the ODE itself.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, sin, cos, asin, sqrt, ellipk, ellipfun, odefun

mp.dps = 50
m, g, L = mpf(1), mpf("9.81"), mpf(1)
k = sin(mpf(1) / 2)
M = k ** 2
w = sqrt(g / L)
K = ellipk(M)
H0 = -m * g * L * cos(1)


def exact(t):
    u = K - w * t
    q = 2 * asin(k * ellipfun("sn", u, M))
    p = -2 * m * k * w * ellipfun("cn", u, M)
    return q, p


def main():
    H.NAME = "km_energy"
    D = 30
    need = D - 5
    with mp.workdps(40):
        f = odefun(lambda t, y: [-m * g * L * sin(y[1]), y[0] / m], 0, [mpf(0), mpf(1)])
        y = f(mpf("0.3"))
    q3, p3 = exact(mpf("0.3"))
    assert abs(y[1] - q3) < mpf(10) ** -35 and abs(y[0] - p3) < mpf(10) ** -34, (y, q3, p3)
    out = H.run("km_energy", D)
    ev = H.events(out)
    if ev:
        H.fail("%d spurious events (first at %s, %s)" % (len(ev), ev[0]["time"], ev[0]["guard"]))
    tr = H.Traj(out)
    w_ = H.Worst()
    sc = m * g * L
    for r in tr.rows:
        q, p = tr.val(r, "q"), tr.val(r, "p")
        w_.add(H.digits(p ** 2 / (2 * m) - m * g * L * cos(q), H0, sc), "H - H0 at t=%s" % r[0][:10])
    for r in tr.grid(5) + [tr.last()]:
        q, p = exact(tr.t(r))
        w_.add(H.digits(tr.val(r, "q"), q, 1), "q at t=%s" % r[0][:10])
        w_.add(H.digits(tr.val(r, "p"), p, 2 * k * w), "p at t=%s" % r[0][:10])
    if tr.mode(tr.last()) != "moving":
        H.fail("left mode moving")
    H.finish(w_, need, "no events; H = H0 kept")


if __name__ == "__main__":
    main()
