#!/usr/bin/env python3
"""check_km_chattering -- KM Example 17: Filippov sliding between modes of different dimension.

Filippov (the case as written): x = -t on [-1, 0], then sliding on x = 0 until
t = 1 (1 - t^2 > 0), z = 1 throughout; one sliding-start event at t = 0 exactly
(events at t = 1 = t_end are not compared).  Hysteresis (the same model with
`chattering hysteresis 0.01`, KM's delta): mode m1 arcs x' = -1 from +0.01 (from
-t first) to -0.01 (length 0.02, after the first), mode m2 arcs
x = x0 + (t - t0) - (t^3 - t0^3)/3 until x = +0.01 (cubic root by findroot,
50 digits, checked by polyroots), z = 0 after the first return to m1.  Both runs
compared: event times, mode changes and x, z at the events and on the grid.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, findroot, polyroots, fabs

mp.dps = 50
D = 30
DEL = mpf("0.01")


def hysteresis_events():
    evs = [(DEL, "m1", "m2", -DEL, mpf(1))]  # x = -t reaches -0.01 at t = 0.01
    t, x = DEL, -DEL
    z = mpf(1)
    while True:
        # m2: x(t) = x + (t - t0) - (t^3 - t0^3)/3 = +DEL
        t0 = t
        f = lambda u: x + (u - t0) - (u ** 3 - t0 ** 3) / 3 - DEL
        if f(mpf(1)) < 0:
            return evs
        r = findroot(f, (t0, mpf(1)), solver="anderson")
        rr = [c.real for c in polyroots([-mpf(1) / 3, 0, 1, x - t0 + t0 ** 3 / 3 - DEL], maxsteps=200, extraprec=200) if fabs(c.imag) < mpf(10) ** -30 and t0 < c.real <= 1]
        assert rr and fabs(min(rr) - r) < mpf(10) ** -40, (r, rr)
        z = mpf(0)
        evs.append((r, "m2", "m1", DEL, z))
        t = r + 2 * DEL
        if t > 1:
            return evs
        evs.append((t, "m1", "m2", -DEL, z))
        x = -DEL


def main():
    H.NAME = "km_chattering"
    need = D - 5
    w_ = H.Worst()
    # Filippov
    out = H.run("km_chattering", D)
    ev = [e for e in H.events(out) if e["t"] < 1]
    H.compare_events(ev, [(mpf(0), "sliding-start")], w_)
    tr = H.Traj(out)
    for r in tr.rows:
        t = tr.t(r)
        w_.add(H.digits(tr.val(r, "x"), -t if t < 0 else 0, 1), "x at t=%s (filippov)" % r[0][:10])
        if tr.val(r, "z") is not None:
            w_.add(H.digits(tr.val(r, "z"), 1, 1), "z at t=%s (filippov)" % r[0][:10])
    # hysteresis
    text = H.model_text("km_chattering").replace("chattering filippov", "chattering hysteresis 0.01")
    assert "hysteresis 0.01" in text
    exp = hysteresis_events()
    out = H.run("km_chattering", D, text=text)
    ev = [e for e in H.events(out) if e["t"] < 1]
    H.compare_events(ev, [(e[0], None) for e in exp], w_)
    tr = H.Traj(out)
    pairs = {p[0][0]: p for p in tr.event_pairs()}
    for (t, fr, to, x, z), e in zip(exp, ev):
        if e["from"] != fr or e["to"] != to:
            H.fail("hysteresis event at %s is %s -> %s, expected %s -> %s" % (e["time"], e["from"], e["to"], fr, to))
        p = pairs.get(e["time"])
        if p:
            w_.add(H.digits(tr.val(p[0], "x"), x, 1), "x at hysteresis event t=%s" % e["time"][:10])
            if to == "m1":
                w_.add(H.digits(tr.val(p[1], "z"), z, 1), "z after hysteresis event t=%s" % e["time"][:10])
    H.finish(w_, need, "filippov: sliding from t = 0; hysteresis: %d switches" % len(exp))


if __name__ == "__main__":
    main()
