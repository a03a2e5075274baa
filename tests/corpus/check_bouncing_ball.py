#!/usr/bin/env python3
"""check_bouncing_ball -- impacts and Zeno point against the closed form.

t1 = sqrt(2 h0/g); impact k at t_k = t1 + 2 t1 (e + ... + e^(k-1)); velocity
before impact k: -g t1 e^(k-1), after: -e times that; accumulation point
t* = t1 (1 + e)/(1 - e) = 2.5586339655858085...  (checked against the partial sums
of the series, a second formula); then rest: h = v = 0, f = g at t = 3.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, sqrt, nsum, inf

mp.dps = 50


def main():
    H.NAME = "bouncing_ball"
    D = 30
    need = D - 5
    g, e, h0 = mpf("9.81"), mpf("0.7"), mpf(1)
    t1 = sqrt(2 * h0 / g)
    tz = t1 * (1 + e) / (1 - e)
    tz2 = t1 + nsum(lambda k: 2 * t1 * e ** k, [1, inf])
    assert abs(tz - tz2) < mpf(10) ** -45
    assert abs(tz - mpf("2.5586339655858085")) < mpf(10) ** -15
    out = H.run("bouncing_ball", D)
    ev = H.events(out)
    tr = H.Traj(out)
    w_ = H.Worst()
    bounces, zeno = H.zeno_split(ev, "rest")
    if len(bounces) < 20:
        H.fail("only %d impacts followed before the Zeno point" % len(bounces))
    vscale = g * t1
    pairs = tr.event_pairs()
    t = t1
    for k, x in enumerate(bounces, 1):
        if x["from"] != "fly" or x["to"] != "fly":
            H.fail("event %d is %s -> %s" % (k, x["from"], x["to"]))
        w_.add(H.digits(x["t"], t, 1), "impact %d time" % k)
        pr = [p for p in pairs if p[0][0] == x["time"]]
        if pr and k <= 40:
            vl = -g * t1 * e ** (k - 1)
            w_.add(H.digits(tr.val(pr[0][0], "v"), vl, vscale), "v before impact %d" % k)
            w_.add(H.digits(tr.val(pr[0][1], "v"), -e * vl, vscale), "v after impact %d" % k)
            w_.add(H.digits(tr.val(pr[0][0], "h"), 0, 1), "h at impact %d" % k)
        t += 2 * e ** k * t1
    w_.add(H.digits(zeno["t"], tz, 1), "zeno time")
    last = tr.last()
    if tr.mode(last) != "rest" or tr.t(last) != 3:
        H.fail("last row is not rest at t = 3")
    w_.add(H.digits(tr.val(last, "h"), 0, 1), "h at t=3")
    w_.add(H.digits(tr.val(last, "v"), 0, vscale), "v at t=3")
    w_.add(H.digits(tr.val(last, "f"), g, g), "f at t=3")
    H.finish(w_, need, "%d impacts, zeno at %s" % (len(bounces), mp.nstr(zeno["t"], 20)))


if __name__ == "__main__":
    main()
