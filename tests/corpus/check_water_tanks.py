#!/usr/bin/env python3
"""check_water_tanks -- Zeno switching of two leaking tanks, exact rationals.

eps = 3/4, (x1, x2) = (0, 1): V = x1 + x2 falls at 2 eps - 1 = 1/2; dwell times
d_k = V0 r^k/eps, r = (1 - eps)/eps = 1/3, switch k at t_k = 2 (1 - 3^-k), where
the draining tank is empty and the other holds 3^-k; Zeno point
V0/(2 eps - 1) = 2 (the limit of t_k: second formula); x = 0 afterwards.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from fractions import Fraction as Fr
from mpmath import mp, mpf

mp.dps = 50


def main():
    H.NAME = "water_tanks"
    D = 30
    need = D - 5
    eps = Fr(3, 4)
    r = (1 - eps) / eps
    out = H.run("water_tanks", D)
    ev = H.events(out)
    tr = H.Traj(out)
    w_ = H.Worst()
    sw, zeno = H.zeno_split(ev, "empty")
    if len(sw) < 15:
        H.fail("only %d switches before the Zeno point" % len(sw))
    t, V, mode = Fr(0), Fr(1), "fill1"
    pairs = tr.event_pairs()
    for k, x in enumerate(sw, 1):
        d = V / eps
        t += d
        V = V * r
        nxt = "fill2" if mode == "fill1" else "fill1"
        assert t == 2 * (1 - Fr(1, 3 ** k))
        if x["from"] != mode or x["to"] != nxt:
            H.fail("switch %d is %s -> %s, expected %s -> %s" % (k, x["from"], x["to"], mode, nxt))
        w_.add(H.digits(x["t"], mpf(t.numerator) / t.denominator, 1), "switch %d time" % k)
        pr = [p for p in pairs if p[0][0] == x["time"]]
        if pr and k <= 25:
            full, empty = ("x1", "x2") if mode == "fill1" else ("x2", "x1")
            w_.add(H.digits(tr.val(pr[0][1], full), mpf(V.numerator) / V.denominator, 1), "%s at switch %d" % (full, k))
            w_.add(H.digits(tr.val(pr[0][1], empty), 0, 1), "%s at switch %d" % (empty, k))
        mode = nxt
    w_.add(H.digits(zeno["t"], 2, 1), "zeno time")
    last = tr.last()
    if tr.mode(last) != "empty":
        H.fail("last row not in mode empty")
    for v in ("x1", "x2"):
        w_.add(H.digits(tr.val(last, v), 0, 1), "%s at the end" % v)
    H.finish(w_, need, "%d switches, zeno at %s" % (len(sw), mp.nstr(zeno["t"], 20)))


if __name__ == "__main__":
    main()
