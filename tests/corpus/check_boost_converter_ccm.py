#!/usr/bin/env python3
"""check_boost_converter_ccm -- ideal boost converter (R = 10) by matrix exponentials.

Augmented state z = (iL, vC, 1).  on: L iL' = U, C vC' = -vC/R; off: L iL' = U - vC,
C vC' = iL - vC/R; dcm: iL = 0, C vC' = -vC/R.  PWM: on [kT, kT + T/2] (exact
rational switch times); off -> dcm when iL < 0; dcm -> off when vC < U.  Every
arc is expm of the 3x3 matrix (mpmath, 50 digits); the whole event sequence
(times, mode changes) and the states at every event are compared.  The periodic
steady state at switch-on is the fixed point of the one-period map
Phi_off Phi_on (solved exactly as a 2x2 linear system, and checked against the
value of corpus.md, 3.448693842807405457 / 48.67490290019986197).
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import pwlin as W
from mpmath import mp, mpf, matrix, expm, lu_solve, eye

mp.dps = 50
NAME = "boost_converter_ccm"
RVAL = 10


def model(R):
    U, L, C, T = mpf(24), mpf(1) / 10000, mpf(1) / 10000, mpf(1) / 10000
    A = {
        "on": matrix([[0, 0, U / L], [0, -1 / (R * C), 0], [0, 0, 0]]),
        "off": matrix([[0, -1 / L, U / L], [1 / C, -1 / (R * C), 0], [0, 0, 0]]),
        "dcm": matrix([[0, 0, 0], [0, -1 / (R * C), 0], [0, 0, 0]]),
    }
    guards = {"on": [], "off": [("dcm", [1, 0, 0])], "dcm": [("off", [0, 1, -U])]}
    return U, T, A, guards


def simulate(R, tend):
    U, T, A, guards = model(R)
    z = matrix([0, 0, 1])
    t = mpf(0)
    mode = "on"
    evs = []   # (t, from, to, z)
    k = 0
    while True:
        # next PWM time
        k += 1
        tp = k * T / 2
        if tp > tend:
            tp = tend
        while True:
            hit = W.first_root(A[mode], z, t, tp, guards[mode], n=16) if guards[mode] else None
            if hit is None:
                z = expm(A[mode] * (tp - t)) * z
                t = tp
                break
            th, to, zh = hit
            if to == "dcm":
                zh = matrix([0, zh[1], 1])
            evs.append((th, mode, to, zh))
            t, z, mode = th, zh, to
        if t >= tend:
            return evs, z
        # PWM toggle at t = k T/2
        if k % 2 == 1:
            to = "off"
        else:
            to = "on"
        evs.append((t, mode, to, z))
        mode = to


def steady_state(R):
    U, T, A, _ = model(R)
    P = expm(A["off"] * (T / 2)) * expm(A["on"] * (T / 2))
    M = matrix([[1 - P[0, 0], -P[0, 1]], [-P[1, 0], 1 - P[1, 1]]])
    return lu_solve(M, matrix([P[0, 2], P[1, 2]]))


def run_check(name, R, expect_ss=None):
    H.NAME = name
    D = 30
    need = D - 5
    tend = mpf(1) / 100
    evs, zend = simulate(R, tend)
    extra = ""
    if expect_ss:
        ss = steady_state(R)
        if abs(ss[0] - mpf(expect_ss[0])) > mpf(10) ** -17 or abs(ss[1] - mpf(expect_ss[1])) > mpf(10) ** -16:
            H.fail("derived steady state %s %s disagrees with corpus.md" % (ss[0], ss[1]))
        extra = "steady state iL = %s, vC = %s" % (mp.nstr(ss[0], 19), mp.nstr(ss[1], 19))
    out = H.run(name, D)
    # a PWM switch exactly at t_end may or may not be reported: not compared
    ev = [e for e in H.events(out) if e["t"] < tend]
    tr = H.Traj(out)
    w_ = H.Worst()
    if len(ev) != len(evs):
        H.fail("%d events, expected %d" % (len(ev), len(evs)))
    pairs = {p[0][0]: p for p in tr.event_pairs()}
    iscale, vscale = mpf(10), mpf(100)
    for i, (e, (t, fr, to, z)) in enumerate(zip(ev, evs)):
        if e["from"] != fr or e["to"] != to:
            H.fail("event %d at %s is %s -> %s, expected %s -> %s at %s" % (i + 1, e["time"], e["from"], e["to"], fr, to, mp.nstr(t, 15)))
        w_.add(H.digits(e["t"], t, mpf(1) / 10000), "event %d time (relative to T)" % (i + 1))
        p = pairs.get(e["time"])
        if p:
            w_.add(H.digits(tr.val(p[1], "iL"), z[0], iscale), "iL at event %d" % (i + 1))
            w_.add(H.digits(tr.val(p[1], "vC"), z[1], vscale), "vC at event %d" % (i + 1))
    last = tr.last()
    w_.add(H.digits(tr.val(last, "iL"), zend[0], iscale), "iL at the end")
    w_.add(H.digits(tr.val(last, "vC"), zend[1], vscale), "vC at the end")
    H.finish(w_, need, "%d events; %s" % (len(evs), extra))


if __name__ == "__main__":
    run_check(NAME, RVAL, ("3.448693842807405457", "48.67490290019986197"))
