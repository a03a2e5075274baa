#!/usr/bin/env python3
"""check_rectifier_diode -- the ideal-diode half-wave rectifier, closed form.

V = 10, w = 100 pi, R = 100, C = 1e-3.  Conducting arcs: vC = V sin(w t), id =
C V w cos(w t) + V sin(w t)/R, ud = 0; they end where id = 0: tan(w t) =
-w R C, t = (pi - atan(w R C))/w + k/50.  Blocking arcs: id = 0, vC = vC(t1)
exp(-(t - t1)/(R C)), ud = V sin(w t) - vC; they end where vC meets the rising
source (findroot from a bracket).  From t = 0 (vC = 0 = source) the diode
conducts.  Second formulation: tests/corpus/rectifier_diode_modes.hdae, the
two active sets written as modes by hand, run by hdo: every cell of its
trajectory and every event time must agree with the complementarity model's
to the digits asked (two formulations, same digits).
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, pi, sin, cos, exp, atan

mp.dps = 50
V, R, C = mpf(10), mpf(100), mpf(1) / 1000
w = 2 * pi * 50
TEND = mpf(5) / 100


def arcs():
    """[(kind, t0, t1, vC(t0))] and the event times."""
    out, evs = [], []
    t, kind, v0 = mpf(0), "on", mpf(0)
    while t < TEND:
        if kind == "on":
            k = int(t * 50)
            t1 = (pi - atan(w * R * C)) / w + mpf(k) / 50
            if t1 <= t:
                t1 += mpf(1) / 50
            t1 = min(t1, TEND)
            out.append(("on", t, t1, None))
            if t1 < TEND:
                evs.append(t1)
            t, kind, v0 = t1, "off", V * sin(w * t1)
        else:
            g = lambda s: v0 * exp(-(s - t) / (R * C)) - V * sin(w * s)
            # the source rises through vC in the next period's first quarter
            k = int(t * 50) + 1
            lo, hi = mpf(k) / 50, mpf(k) / 50 + mpf(1) / 200
            if lo >= TEND:
                out.append(("off", t, TEND, v0))
                break
            t1 = H.refine_root(g, lo, hi)
            out.append(("off", t, min(t1, TEND), v0))
            if t1 < TEND:
                evs.append(t1)
            t, kind = t1, "on"
    return out, evs


def exact(arcs_, t, right):
    """The closed form at t on the arc that ends at t (right = False: the
    left row of an event) or starts there (right = True)."""
    for kind, a, b, v0 in arcs_:
        if (a < t <= b) if not right else (a <= t < b) or (t == b == TEND):
            if kind == "on":
                return V * sin(w * t), C * V * w * cos(w * t) + V * sin(w * t) / R, mpf(0)
            vc = v0 * exp(-(t - a) / (R * C))
            return vc, mpf(0), V * sin(w * t) - vc
    H.fail("no arc at t = %s" % t)


def main():
    H.NAME = "rectifier_diode"
    D = 30
    need = D - 5
    a, want = arcs()
    out = H.run("rectifier_diode", D, args=("--every", "0.0009"))
    ev = H.events(out)
    w_ = H.Worst()
    H.compare_events(ev, [(t, "switch") for t in want], w_)
    tr = H.Traj(out)
    scale = {"vC": V, "id": C * V * w, "ud": 2 * V}
    for i, r in enumerate(tr.rows):
        t = tr.t(r)
        # an event's left row belongs to the arc before it, its right row
        # (the same time, listed second) to the arc after
        right = i > 0 and tr.rows[i - 1][0] == r[0]
        if i == 0:
            right = True
        tt = t
        if not right and i + 1 < len(tr.rows) and tr.rows[i + 1][0] == r[0]:
            # the left row: evaluated at the exact event time of its arc
            tt = min((b for _, x, b, _ in a if abs(b - t) < mpf(10) ** -20), default=t)
        elif right:
            tt = min((x for _, x, b, _ in a if abs(x - t) < mpf(10) ** -20), default=t)
        ex = exact(a, tt, right)
        for var, x in zip(("vC", "id", "ud"), ex):
            w_.add(H.digits(tr.val(r, var), x, scale[var]), "%s at t=%s" % (var, r[0][:12]))
    # the second formulation, cell by cell
    out2 = H.run("rectifier_diode", D, path="tests/corpus/rectifier_diode_modes.hdae",
                 args=("--every", "0.0009"))
    tr2 = H.Traj(out2)
    if len(tr2.rows) != len(tr.rows):
        H.fail("%d rows, the two-mode model %d" % (len(tr.rows), len(tr2.rows)))
    for r, r2 in zip(tr.rows, tr2.rows):
        w_.add(H.digits(tr.t(r), tr2.t(r2), 1), "time of row at t=%s" % r[0][:12])
        for var in ("vC", "id", "ud"):
            w_.add(H.digits(tr.val(r, var), tr2.val(r2, var), scale[var]),
                   "%s against the two-mode model at t=%s" % (var, r[0][:12]))
    ev2 = H.events(out2)
    if len(ev2) != len(ev):
        H.fail("%d events, the two-mode model %d" % (len(ev), len(ev2)))
    for i, (e, e2) in enumerate(zip(ev, ev2)):
        w_.add(H.digits(e["t"], e2["t"], 1), "event %d against the two-mode model" % (i + 1))
    H.finish(w_, need, "%d events, first turn-off %s" % (len(ev), mp.nstr(want[0], 20)))


if __name__ == "__main__":
    main()
