#!/usr/bin/env python3
"""check_three_balls -- livelock of pairwise inelastic impacts at t = 0.

Exact rationals: impacts alternate 1-2, 2-3, 1-2, ...; each replaces the two
velocities by their mean: v1 = 1, 1/2, 1/2, 3/8, 3/8, 11/32, ... (Camlibel et al.
Ex. 5.1); after 2k + 1 impacts the deviation from 1/3 is (1/6, 1/6, -1/3) 4^-k
(second formula, asserted); every impact and the Zeno event at t = 0; the limit
v = (1/3, 1/3, 1/3); afterwards x_i = t/3 (mode together).  Compared: the
velocities on both sides of every impact followed (the rows at t = 0 are the
grid row, then a left and a right row per event), the limit state on both sides
of the zeno event, and the last row.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from fractions import Fraction as Fr
from mpmath import mp, mpf

mp.dps = 50



def main():
    H.NAME = "three_balls"
    D = 30
    need = D - 5
    out = H.run("three_balls", D)
    ev = H.events(out)
    tr = H.Traj(out)
    w_ = H.Worst()
    imp, zeno = H.zeno_split(ev, "together", last=False)
    if len(imp) < 10:
        H.fail("only %d impacts followed" % len(imp))
    for e in ev:
        w_.add(H.digits(e["t"], 0, 1), "time of event %s" % e["index"])
    # Rows at t = 0 (cli.md): the grid row at t0, then the left and the
    # right row of every event, in event order (event_pairs() would pair
    # the grid row with the first left row here).
    rows0 = [r for r in tr.rows if mpf(r[0]) == 0]
    if len(rows0) != 1 + 2 * len(ev):
        H.fail("%d rows at t = 0, expected %d" % (len(rows0), 1 + 2 * len(ev)))
    v = [Fr(1), Fr(0), Fr(0)]
    for k, e in enumerate(imp, 1):
        if tr.mode(rows0[2 * k - 1]) != "free" or tr.mode(rows0[2 * k]) != "free":
            H.fail("impact %d is not free -> free" % k)
        for n, vn in enumerate(("v1", "v2", "v3")):
            w_.add(H.digits(tr.val(rows0[2 * k - 1], vn), H.q(v[n]), 1), "%s before impact %d" % (vn, k))
        i = 0 if k % 2 == 1 else 1
        m = (v[i] + v[i + 1]) / 2
        v[i] = v[i + 1] = m
        if k % 2 == 1:
            j = (k - 1) // 2
            dev = [Fr(1, 6) / 4 ** j, Fr(1, 6) / 4 ** j, -Fr(1, 3) / 4 ** j]
            assert [a - Fr(1, 3) for a in v] == dev
        if e["guard"].replace(" ", "") != ("x2-x1<0" if i == 0 else "x3-x2<0"):
            H.fail("impact %d has guard %s" % (k, e["guard"]))
        for n, vn in enumerate(("v1", "v2", "v3")):
            w_.add(H.digits(tr.val(rows0[2 * k], vn), H.q(v[n]), 1), "%s after impact %d" % (vn, k))
    # the zeno event: the limit state on both sides, positions still 0
    zl, zr = rows0[-2], rows0[-1]
    if tr.mode(zl) != "free" or tr.mode(zr) != "together":
        H.fail("the rows of the zeno event are %s -> %s" % (tr.mode(zl), tr.mode(zr)))
    for r, side in ((zl, "left"), (zr, "right")):
        for n in (1, 2, 3):
            w_.add(H.digits(tr.val(r, "v%d" % n), mpf(1) / 3, 1), "v%d %s of the zeno event" % (n, side))
            w_.add(H.digits(tr.val(r, "x%d" % n), 0, 1), "x%d %s of the zeno event" % (n, side))
    last = tr.last()
    if tr.mode(last) != "together" or tr.t(last) != 1:
        H.fail("last row not in mode together at t = 1")
    for r in [r for r in tr.rows if mpf(r[0]) > 0]:
        T = tr.t(r)
        if tr.mode(r) != "together":
            H.fail("mode %s at t = %s" % (tr.mode(r), r[0]))
        for n in (1, 2, 3):
            w_.add(H.digits(tr.val(r, "v%d" % n), mpf(1) / 3, 1), "v%d at t = %s" % (n, r[0][:8]))
            w_.add(H.digits(tr.val(r, "x%d" % n), T / 3, 1), "x%d at t = %s" % (n, r[0][:8]))
        for f in ("f12", "f23"):
            w_.add(H.digits(tr.val(r, f), 0, 1), "%s at t = %s" % (f, r[0][:8]))
    H.finish(w_, need, "%d impacts at t = 0" % len(imp))


if __name__ == "__main__":
    main()
