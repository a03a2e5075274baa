#!/usr/bin/env python3
"""check_three_balls_moreau -- Example 5.1 of the seed paper with Moreau's rule.

The paper's pairwise inelastic impacts at t = 0 (each replaces two balls'
velocities by their mean: 1-2, 2-3, 1-2, ...) converge to (1/3, 1/3, 1/3),
the error shrinking by 4 per pair; computed here in fractions for 60 pairs
and its limit taken as the exact (1/3, 1/3, 1/3) (the remaining error is
below 4^-59).  hdo applies one impact on both contacts at t = 0: every row
must hold v = (1/3, 1/3, 1/3), x_i = t/3, forces 0; no event (the impact is
at the start: summary.json's start_adjusted is true).
"""
import sys
import os
import json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from fractions import Fraction as F
from mpmath import mp, mpf

mp.dps = 50


def main():
    H.NAME = "three_balls_moreau"
    v = [F(1), F(0), F(0)]
    for k in range(60):
        a, b = (0, 1) if k % 2 == 0 else (1, 2)
        v[a] = v[b] = (v[a] + v[b]) / 2
    third = F(1, 3)
    if any(abs(x - third) > F(1, 4 ** 29) for x in v):
        H.fail("the pairwise sequence does not approach 1/3: %s" % v)
    out = H.run("three_balls_moreau", 30, args=("--every", "0.1"))
    w_ = H.Worst()
    if H.events(out):
        H.fail("%d events, expected none" % len(H.events(out)))
    with open(os.path.join(out, "summary.json")) as f:
        if json.load(f).get("start_adjusted") is not True:
            H.fail("start_adjusted is not true")
    tr = H.Traj(out)
    for r in tr.rows:
        t = tr.t(r)
        for i in (1, 2, 3):
            w_.add(H.digits(tr.val(r, "v%d" % i), mpf(1) / 3, 1), "v%d at t=%s" % (i, r[0][:8]))
            w_.add(H.digits(tr.val(r, "x%d" % i), t / 3, 1), "x%d at t=%s" % (i, r[0][:8]))
        for fn in ("f1", "f2"):
            w_.add(H.digits(tr.val(r, fn), 0, 1), "%s at t=%s" % (fn, r[0][:8]))
    H.finish(w_, 25, "limit (1/3, 1/3, 1/3) in one impact; %d rows" % len(tr.rows))


if __name__ == "__main__":
    main()
