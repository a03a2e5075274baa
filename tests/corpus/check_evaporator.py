#!/usr/bin/env python3
"""check_evaporator -- KM Example 18: two linear modes, Filippov sliding on L = L_th.

Linear arcs (z = (p, L, 1)): low: I p' = -Rp p, C L' = -L/Rb + f_in; high:
I p' = -Rp p + L, C L' = -p/I - L/Rb + f_in; by mpmath.expm (50 digits), events
by findroot (pwlin).  On L = L_th the low field always points up, so a return of
the high mode to L_th starts sliding (its field points down there: p > 0.085);
the sliding arc is closed form: 1 - alpha = I (f_in - L_th/Rb)/p,
p' = -p + 0.0136/p, so p^2 = 0.0136 + (p_s^2 - 0.0136) exp(-2 (t - t_s)), L = L_th;
it would end where p = 0.085 (never, since p tends to 0.11662 > 0.085).
Compared: events (times, kinds), p and L at the events and on the grid.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import pwlin as W
from mpmath import mp, mpf, matrix, expm, sqrt, exp

mp.dps = 50
Rb, Rp, I, C, fin, Lth = mpf(1), mpf(1) / 2, mpf(1) / 2, mpf(15), mpf(1) / 4, mpf(8) / 100
A = {"low": matrix([[-Rp / I, 0, 0], [0, -1 / (Rb * C), fin / C], [0, 0, 0]]),
     "high": matrix([[-Rp / I, 1 / I, 0], [-1 / (I * C), -1 / (Rb * C), fin / C], [0, 0, 0]])}
c2 = I * (fin - Lth / Rb) * Lth / I     # 0.0136


def guards(d):
    return {"low": [("high", [0, -1, Lth + d])], "high": [("low", [0, 1, -(Lth - d)])]}


def simulate(tend, d=None):
    """d = None: Filippov; d > 0: hysteresis band d."""
    G = guards(d or 0)
    z, t, mode = matrix([mpf(5) / 100, mpf(6) / 100, 1]), mpf(0), "low"
    evs, arcs = [], []
    while t < tend:
        if mode == "sliding":
            arcs.append(("sliding", t, z, tend))
            return evs, arcs
        hit = W.first_root(A[mode], z, t, tend, G[mode], n=max(64, int((tend - t) * 8)))
        if hit is None:
            arcs.append((mode, t, z, tend))
            return evs, arcs
        th, to, zh = hit
        arcs.append((mode, t, z, th))
        if d is None and mode == "high":
            to = "sliding"
            zh = matrix([zh[0], Lth, 1])
        evs.append((th, mode, to, zh))
        t, z, mode = th, zh, to
    return evs, arcs


def state(arcs, t):
    for mode, t0, z0, t1 in arcs:
        if t0 <= t <= t1:
            if mode == "sliding":
                return sqrt(c2 + (z0[0] ** 2 - c2) * exp(-2 * (t - t0))), Lth
            z = expm(A[mode] * (t - t0)) * z0
            return z[0], z[1]


def run_check(name, d):
    H.NAME = name
    D = 30
    need = D - 5
    tend = mpf(20)
    assert abs(c2 - mpf("0.0136")) < mpf(10) ** -45
    evs, arcs = simulate(tend, d)
    out = H.run(name, D)
    ev = [e for e in H.events(out) if e["t"] < tend]
    w_ = H.Worst()
    H.compare_events(ev, [(e[0], None) for e in evs], w_)
    tr = H.Traj(out)
    pairs = {p[0][0]: p for p in tr.event_pairs()}
    for i, ((t, fr, to, z), e) in enumerate(zip(evs, ev)):
        if d is not None and (e["from"] != fr or e["to"] != to):
            H.fail("event %d at %s is %s -> %s, expected %s -> %s" % (i + 1, e["time"], e["from"], e["to"], fr, to))
        if d is None and to == "sliding" and e["kind"] != "sliding-start":
            H.fail("event %d at %s is %s, expected sliding-start" % (i + 1, e["time"], e["kind"]))
        p = pairs.get(e["time"])
        if p and i % 5 == 0:
            w_.add(H.digits(tr.val(p[0], "p"), z[0], mpf("0.1")), "p at event %d" % (i + 1))
            w_.add(H.digits(tr.val(p[0], "L"), z[1], mpf("0.1")), "L at event %d" % (i + 1))
    for r in tr.grid(10) + [tr.last()]:
        p_, L_ = state(arcs, tr.t(r))
        w_.add(H.digits(tr.val(r, "p"), p_, mpf("0.1")), "p at t=%s" % r[0][:10])
        w_.add(H.digits(tr.val(r, "L"), L_, mpf("0.1")), "L at t=%s" % r[0][:10])
    H.finish(w_, need, "%d events: %s" % (len(evs), ", ".join(mp.nstr(e[0], 10) for e in evs[:4])))


if __name__ == "__main__":
    run_check("evaporator", None)
