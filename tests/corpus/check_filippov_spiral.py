#!/usr/bin/env python3
"""check_filippov_spiral -- relay spiral into the origin, exact rationals.

From (1, 2) in Q1 with velocity (1, -3): x2 = 0 at 2/3 (x1 = 5/3); then each quarter
turn takes 1/3 of the previous one: t_k = 3/2 - (5/6) 3^-(k-1) (k >= 2), the state
at each switch is exact (the arc is followed with exact Fractions and checked
against that formula); arrival at the origin (|x1| + |x2|)/2 = 3/2; x = 0 afterwards.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from fractions import Fraction as Fr
from mpmath import mp, mpf

mp.dps = 50
VEL = {"q1": (1, -3), "q4": (-3, -1), "q3": (-1, 3), "q2": (3, 1)}
NEXT = {"q1": "q4", "q4": "q3", "q3": "q2", "q2": "q1"}



def main():
    H.NAME = "filippov_spiral"
    D = 30
    need = D - 5
    out = H.run("filippov_spiral", D)
    ev = H.events(out)
    tr = H.Traj(out)
    w_ = H.Worst()
    sw, zeno = H.zeno_split(ev, "origin")
    if len(sw) < 15:
        H.fail("only %d switches before the Zeno point" % len(sw))
    t, x, mode = Fr(0), [Fr(1), Fr(2)], "q1"
    pairs = tr.event_pairs()
    for k, e in enumerate(sw, 1):
        vx, vy = VEL[mode]
        # time to reach the axis that the velocity points to (the coordinate that decreases in size)
        cands = []
        if x[0] != 0 and (x[0] > 0) != (vx > 0):
            cands.append(-x[0] / vx)
        if x[1] != 0 and (x[1] > 0) != (vy > 0):
            cands.append(-x[1] / vy)
        dt = min(cands)
        t += dt
        x = [x[0] + vx * dt, x[1] + vy * dt]
        if k >= 2:
            assert t == Fr(3, 2) - Fr(5, 6) / 3 ** (k - 1)
        nxt = NEXT[mode]
        if e["from"] != mode or e["to"] != nxt:
            H.fail("switch %d is %s -> %s, expected %s -> %s" % (k, e["from"], e["to"], mode, nxt))
        w_.add(H.digits(e["t"], H.q(t), 1), "switch %d time" % k)
        pr = [p for p in pairs if p[0][0] == e["time"]]
        if pr and k <= 25:
            for i, v in enumerate(("x1", "x2")):
                w_.add(H.digits(tr.val(pr[0][1], v), H.q(x[i]), 1), "%s at switch %d" % (v, k))
        mode = nxt
    w_.add(H.digits(zeno["t"], mpf(3) / 2, 1), "zeno time")
    last = tr.last()
    if tr.mode(last) != "origin":
        H.fail("last row not in mode origin")
    for v in ("x1", "x2"):
        w_.add(H.digits(tr.val(last, v), 0, 1), "%s at the end" % v)
    H.finish(w_, need, "%d switches, zeno at %s" % (len(sw), mp.nstr(zeno["t"], 20)))


if __name__ == "__main__":
    main()
