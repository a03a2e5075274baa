#!/usr/bin/env python3
"""check_three_balls -- livelock of pairwise inelastic impacts at t = 0.

Exact rationals: impacts alternate 1-2, 2-3, 1-2, ...; each replaces the two
velocities by their mean: v1 = 1, 1/2, 1/2, 3/8, 3/8, 11/32, ... (Camlibel et al.
Ex. 5.1); after 2k + 1 impacts the deviation from 1/3 is (1/6, 1/6, -1/3) 4^-k
(second formula, asserted); every impact and the Zeno event at t = 0; the limit
v = (1/3, 1/3, 1/3); afterwards x_i = t/3 (mode together).
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from fractions import Fraction as Fr
from mpmath import mp, mpf

mp.dps = 50


def q(fr):
    return mpf(fr.numerator) / fr.denominator


def main():
    H.NAME = "three_balls"
    D = 30
    need = D - 5
    out = H.run("three_balls", D)
    ev = H.events(out)
    tr = H.Traj(out)
    w_ = H.Worst()
    imp = [x for x in ev if x["kind"] != "zeno"]
    zeno = [x for x in ev if x["kind"] == "zeno"]
    if len(zeno) != 1 or zeno[0]["to"] != "together":
        H.fail("no single zeno event into together")
    if len(imp) < 10:
        H.fail("only %d impacts followed" % len(imp))
    for e in ev:
        w_.add(H.digits(e["t"], 0, 1), "time of event %s" % e["index"])
    v = [Fr(1), Fr(0), Fr(0)]
    pairs = [p for p in tr.event_pairs() if mpf(p[0][0]) == 0]
    for k, e in enumerate(imp, 1):
        i = 0 if k % 2 == 1 else 1
        m = (v[i] + v[i + 1]) / 2
        v[i] = v[i + 1] = m
        if k % 2 == 1:
            j = (k - 1) // 2
            dev = [Fr(1, 6) / 4 ** j, Fr(1, 6) / 4 ** j, -Fr(1, 3) / 4 ** j]
            assert [a - Fr(1, 3) for a in v] == dev
        if e["guard"].replace(" ", "") != ("x2-x1<0" if i == 0 else "x3-x2<0"):
            H.fail("impact %d has guard %s" % (k, e["guard"]))
        if k - 1 < len(pairs) and k <= 30:
            r = pairs[k - 1][1]
            for n, vn in enumerate(("v1", "v2", "v3")):
                w_.add(H.digits(tr.val(r, vn), q(v[n]), 1), "%s after impact %d" % (vn, k))
    last = tr.last()
    if tr.mode(last) != "together":
        H.fail("last row not in mode together")
    T = tr.t(last)
    for n in (1, 2, 3):
        w_.add(H.digits(tr.val(last, "v%d" % n), mpf(1) / 3, 1), "v%d at the end" % n)
        w_.add(H.digits(tr.val(last, "x%d" % n), T / 3, 1), "x%d at the end" % n)
    H.finish(w_, need, "%d impacts at t = 0" % len(imp))


if __name__ == "__main__":
    main()
