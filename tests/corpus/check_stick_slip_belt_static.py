#!/usr/bin/env python3
"""check_stick_slip_belt_static -- Zelus stick-slip oscillator, closed form arcs.

Slip arcs: x'' = -(k/m)(x - xe), xe = -+mu_d m g/k (slip_pos/slip_neg), so with
w = sqrt(k/m): x = xe + (x0 - xe) cos(w s) + (v0/w) sin(w s), v = x'.  A slip arc
ends where v = v_b (scan + findroot, 50 digits); then stick, which is left at once
when |k x| > mu_s m g (slip_pos -> stick -> slip_neg at one time), otherwise
at the time where x (= x_s + v_b (t - t_s)) reaches -+mu_s m g/k.  Expected
(corpus.md, re-derived here): 0.34537021705871955 (zero relative velocity without
sticking), 1.4403488113689981 (stick), 4.3744593838596130 (breakaway),
5.5651402543540879 (stick), then periodic.  Compared: all events in [0, 10]
(times, mode changes), x, v, F at every event, and on the output grid.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, sqrt, sin, cos, findroot, fabs

mp.dps = 50
m, k, g, vb, mud, mus = mpf(1), mpf(10), mpf("9.81"), mpf("0.1"), mpf("0.8"), mpf("0.9")
w = sqrt(k / m)
XE = {"slip_pos": -mud * m * g / k, "slip_neg": mud * m * g / k}
FF = {"slip_pos": mud * m * g, "slip_neg": -mud * m * g}


def arc(mode, t0, x0, v0, t):
    s = t - t0
    if mode == "stick":
        return x0 + vb * s, vb
    xe = XE[mode]
    return xe + (x0 - xe) * cos(w * s) + v0 / w * sin(w * s), -(x0 - xe) * w * sin(w * s) + v0 * cos(w * s)


def simulate(tend):
    t, x, v, mode = mpf(0), mpf(0), mpf(5), "slip_pos"
    evs, arcs = [], []
    while True:
        if mode == "stick":
            # F = -k x; leave when F > mus m g (x < -xs) -> slip_pos, F < -mus m g -> slip_neg
            xs = mus * m * g / k
            if -k * x > mus * m * g:
                te, nxt = t, "slip_pos"
            elif -k * x < -mus * m * g:
                te, nxt = t, "slip_neg"
            else:
                te, nxt = t + (xs - x) / vb, "slip_neg"
        else:
            sg = 1 if mode == "slip_pos" else -1
            f = lambda u: sg * (arc(mode, t, x, v, u)[1] - vb)
            h = mpf("0.01")
            u, te = t, None
            while u < tend:
                if f(u + h) < 0:
                    te = H.refine_root(f, u, u + h)
                    break
                u += h
            nxt = "stick"
        if te is None or te > tend:
            arcs.append((mode, t, x, v, tend))
            return evs, arcs
        xe_, ve_ = arc(mode, t, x, v, te)
        if nxt == "stick":
            ve_ = vb
        arcs.append((mode, t, x, v, te))
        evs.append((te, mode, nxt, xe_, ve_))
        t, x, v, mode = te, xe_, ve_, nxt


def main():
    H.NAME = "stick_slip_belt_static"
    D = 30
    need = D - 5
    tend = mpf(10)
    evs, arcs = simulate(tend)
    ts = [e[0] for e in evs]
    for ref in ("0.34537021705871955", "1.4403488113689981", "4.3744593838596130", "5.5651402543540879"):
        assert min(fabs(t - mpf(ref)) for t in ts) < mpf(10) ** -15, ref
    out = H.run("stick_slip_belt_static", D)
    ev = H.events(out)
    w_ = H.Worst()
    H.compare_events(ev, [(e[0], None) for e in evs], w_)
    tr = H.Traj(out)
    pairs = tr.event_pairs()
    used = set()
    for i, ((te, fr, to, xe_, ve_), e) in enumerate(zip(evs, ev)):
        if e["from"] != fr or e["to"] != to:
            H.fail("event %d at %s is %s -> %s, expected %s -> %s" % (i + 1, e["time"], e["from"], e["to"], fr, to))
        for j, p in enumerate(pairs):
            if p[0][0] == e["time"] and j not in used:
                used.add(j)
                w_.add(H.digits(tr.val(p[0], "x"), xe_, 1), "x at event %d" % (i + 1))
                w_.add(H.digits(tr.val(p[0], "v"), ve_, 5), "v at event %d" % (i + 1))
                break
    for r in tr.grid(5) + [tr.last()]:
        t = tr.t(r)
        for mode, t0, x0, v0, t1 in arcs:
            if t0 <= t <= t1:
                x, v = arc(mode, t0, x0, v0, t)
                F = -k * x if mode == "stick" else FF[mode]
                w_.add(H.digits(tr.val(r, "x"), x, 1), "x at t=%s" % r[0][:10])
                w_.add(H.digits(tr.val(r, "v"), v, 5), "v at t=%s" % r[0][:10])
                w_.add(H.digits(tr.val(r, "F"), F, 10), "F at t=%s" % r[0][:10])
                break
    H.finish(w_, need, "%d events: %s" % (len(evs), ", ".join(mp.nstr(t, 10) for t in ts[:6])))


if __name__ == "__main__":
    main()
