#!/usr/bin/env python3
"""check_boost_converter -- Wunderlich's four-mode boost converter by matrix exponentials.

After reduction every mode is a linear ODE in (vC, iL) (augmented with 1):
open_on: C vC' = iL - vC/R, L iL' = Vi - vC; closed_off: C vC' = -vC/R, L iL' = Vi;
open_off: iL = 0, C vC' = -vC/R; closed_on: vC = 0, L iL' = Vi.  Events: PWM at the
exact rationals 0.16 k + 0.1 (close) and 0.16 k (open); diode: open_on leaves when
iD = iL < 0, closed_off when vD = -vC > 0, open_off when vD = Vi - vC > 0.
Entering open_off forces iL = 0 (that transition's kind is
`reinit-adjusted`), and with vC < Vi the diode turns on at
once (open_off -> open_on at the same time).  Start: open_on with vC = iL = 10 kept
(the consistent completion of the all-10 start vector).  Arcs by mpmath.expm
(50 digits), diode events by findroot on the closed form.  Compared: every event
(time, mode change), vC and iL at every event and on the output grid.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import pwlin as W
from mpmath import mp, mpf, matrix, expm

mp.dps = 50
Vi, R, C, L = mpf(48), mpf(2), mpf(1) / 100, mpf(1)
A = {"open_on": matrix([[-1 / (R * C), 1 / C, 0], [-1 / L, 0, Vi / L], [0, 0, 0]]),
     "closed_off": matrix([[-1 / (R * C), 0, 0], [0, 0, Vi / L], [0, 0, 0]]),
     "open_off": matrix([[-1 / (R * C), 0, 0], [0, 0, 0], [0, 0, 0]]),
     "closed_on": matrix([[0, 0, 0], [0, 0, Vi / L], [0, 0, 0]])}
G = {"open_on": [("open_off", [0, 1, 0])], "closed_off": [("closed_on", [-1, 0, 0])],
     "open_off": [("open_on", [1, 0, -Vi])], "closed_on": []}
PWM = {"open_on": "closed_off", "open_off": "closed_off", "closed_off": "open_off", "closed_on": "open_on"}


def consistent(mode, z):
    if mode == "open_off":
        return matrix([z[0], 0, 1])
    if mode == "closed_on":
        return matrix([0, z[1], 1])
    return z


def immediate(mode, z):
    if mode == "open_off" and Vi - z[0] > 0:
        return "open_on"
    if mode == "closed_off" and -z[0] > 0:
        return "closed_on"
    return None


def simulate(tend):
    z, t, mode = matrix([10, 10, 1]), mpf(0), "open_on"
    evs, arcs = [], []
    pwm = [mpf(16) * k / 100 + d for k in range(8) for d in (mpf(1) / 10, mpf(16) / 100)]
    for tp in sorted(pwm) + [tend]:
        tp = min(tp, tend)
        while True:
            hit = W.first_root(A[mode], z, t, tp, G[mode], n=32) if G[mode] and tp > t else None
            if hit is None:
                arcs.append((mode, t, z, tp))
                z = expm(A[mode] * (tp - t)) * z
                t = tp
                break
            th, to, zh = hit
            arcs.append((mode, t, z, th))
            zh = consistent(to, zh)
            evs.append((th, mode, to, zh))
            t, z, mode = th, zh, to
        if t >= tend:
            return evs, arcs
        to = PWM[mode]
        z = consistent(to, z)
        evs.append((t, mode, to, z))
        mode = to
        nx = immediate(mode, z)
        if nx:
            evs.append((t, mode, nx, z))
            mode = nx


def main():
    H.NAME = "boost_converter"
    D = 30
    need = D - 5
    tend = mpf(1)
    evs, arcs = simulate(tend)
    out = H.run("boost_converter", D)
    ev = [e for e in H.events(out) if e["t"] < tend]
    w_ = H.Worst()
    H.compare_events(ev, [(e[0], None) for e in evs], w_)
    for e, x in zip(ev, evs):
        want = "reinit-adjusted" if x[2] == "open_off" and x[1] == "closed_off" else "switch"
        if e["kind"] not in (want, "simultaneous"):
            H.fail("event at %s has kind %s, expected %s" % (e["time"], e["kind"], want))
    tr = H.Traj(out)
    pairs = tr.event_pairs()
    for i, ((t, fr, to, z), e) in enumerate(zip(evs, ev)):
        if e["from"] != fr or e["to"] != to:
            H.fail("event %d at %s is %s -> %s, expected %s -> %s" % (i + 1, e["time"], e["from"], e["to"], fr, to))
        prs = [p for p in pairs if p[0][0] == e["time"]]
        for p in prs:
            if tr.mode(p[1]) == to:
                w_.add(H.digits(tr.val(p[1], "vC"), z[0], 50), "vC after event %d" % (i + 1))
                w_.add(H.digits(tr.val(p[1], "iL"), z[1], 50), "iL after event %d" % (i + 1))
    for r in tr.grid(5) + [tr.last()]:
        t = tr.t(r)
        for mode, t0, z0, t1 in arcs:
            if t0 <= t <= t1 and t0 < t1:
                z = expm(A[mode] * (t - t0)) * z0
                w_.add(H.digits(tr.val(r, "vC"), z[0], 50), "vC at t=%s" % r[0][:10])
                w_.add(H.digits(tr.val(r, "iL"), z[1], 50), "iL at t=%s" % r[0][:10])
                break
    H.finish(w_, need, "%d events (thesis: 13 switch points)" % len(evs))


if __name__ == "__main__":
    main()
