#!/usr/bin/env python3
"""check_stick_slip_stick -- the explicit stick mode against the closed form of
check_stick_slip (same switch times; here every change is a `switch` between the
named modes stick/slip_pos/slip_neg), F = sin(t)/2 while stuck and +-mu N while
slipping, x1, x2, v1, v2 at every event and on the output grid."""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import check_stick_slip as S
from mpmath import mp, mpf, sin

mp.dps = 50


def main():
    H.NAME = "stick_slip_stick"
    D = 30
    need = D - 5
    evs, arcs = S.simulate(mpf(10))
    out = H.run("stick_slip_stick", D)
    ev = H.events(out)
    w_ = H.Worst()
    H.compare_events(ev, [(e[0], None) for e in evs], w_)
    for (te, fr, to, se), e in zip(evs, ev):
        if e["from"] != fr or e["to"] != to:
            H.fail("event at %s is %s -> %s, expected %s -> %s" % (e["time"], e["from"], e["to"], fr, to))
    tr = H.Traj(out)
    pairs = tr.event_pairs()
    for (te, fr, to, se), e in zip(evs, ev):
        for p in [p for p in pairs if p[0][0] == e["time"]][:1]:
            for i, v in enumerate(("x1", "x2", "v1", "v2")):
                for r in p:
                    w_.add(H.digits(tr.val(r, v), se[i], S.SC[v]), "%s at event t=%s" % (v, e["time"][:10]))
    S.compare_states(tr, arcs, w_)
    for r in tr.grid(10):
        mode = tr.mode(r)
        F = sin(tr.t(r)) / 2 if mode == "stick" else (S.MU_N if mode == "slip_pos" else -S.MU_N)
        w_.add(H.digits(tr.val(r, "F"), F, 1), "F at t=%s" % r[0][:10])
    H.finish(w_, need, "%d switches" % len(evs))


if __name__ == "__main__":
    main()
