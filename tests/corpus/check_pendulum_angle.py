#!/usr/bin/env python3
"""check_pendulum_angle -- the angle-ODE pendulum against the elliptic closed form
of check_pendulum (x = L sin th, y = -L cos th, om = th'; event times (2k-1) K(1/2)/w),
and against the Cartesian index-3 model `pendulum` (second formulation): x and y
at the common output times must agree to the working precision."""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import check_pendulum as P
from mpmath import mp, mpf, sqrt

mp.dps = 50


def main():
    H.NAME = "pendulum_angle"
    D = 30
    need = D - 5
    out = H.run("pendulum_angle", D)
    w_ = H.Worst()
    ev = H.events(out)
    t1 = P.K / P.w
    H.compare_events(ev, [((2 * k - 1) * t1, "switch") for k in (1, 2, 3)], w_)
    tr = H.Traj(out)
    rows = tr.grid(5) + [tr.last()]
    for r in rows:
        ex = P.exact(tr.t(r))
        for v in ("x", "y"):
            w_.add(H.digits(tr.val(r, v), ex[v], 1), "%s at t=%s" % (v, r[0][:12]))
        # om = th' ; x' = L cos(th) th' = -y om  ->  om = -vx/y where y != 0
        if abs(ex["y"]) > mpf("0.1"):
            w_.add(H.digits(tr.val(r, "om"), -ex["vx"] / ex["y"] / P.L, P.SCALE["vx"]), "om at t=%s" % r[0][:12])
    # second formulation: the Cartesian model at the same grid times
    out2 = H.run("pendulum", D)
    tr2 = H.Traj(out2)
    cart = {r[0]: r for r in tr2.grid()}
    n = 0
    for r in tr.grid():
        if r[0] in cart:
            n += 1
            for v in ("x", "y"):
                w_.add(H.digits(tr.val(r, v), tr2.val(cart[r[0]], v), 1), "%s vs pendulum at t=%s" % (v, r[0][:12]))
    if n < 10:
        H.fail("only %d common output times with pendulum" % n)
    H.finish(w_, need, "%d rows compared with pendulum" % n)


if __name__ == "__main__":
    main()
