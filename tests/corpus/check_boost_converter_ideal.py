#!/usr/bin/env python3
"""check_boost_converter_ideal -- the boost converter with an ideal diode (a
complementarity condition; the switch by two PWM modes), against
(1) the exact matrix-exponential simulator of check_boost_converter_ccm:
every event time and (iL, vC) after it, and the end state; (2) the corpus'
hand-written three-mode model of the same circuit, run by hdo: every event
time and iL, vC at every row, the same digits (two formulations); (3) the
same with the switch as an `if` in one mode
(tests/corpus/boost_converter_ideal_if.hdae: its PWM edges are crossings),
row by row.  Run for R = 100 (DCM, cases/boost_converter_dcm.hdae) and,
with -p R=10, for R = 10 (CCM, cases/boost_converter_ccm.hdae).
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import check_boost_converter_ccm as B
from mpmath import mp, mpf

mp.dps = 50


def one(R, modes_case, w_):
    tend = mpf(1) / 100
    evs, zend = B.simulate(R, tend)
    args = () if R == 100 else ("-p", "R=%d" % R)
    out = H.run("boost_converter_ideal", 30, args=args + ("--every", "0.0000999"))
    ev = [e for e in H.events(out) if e["t"] < tend]
    tr = H.Traj(out)
    if len(ev) != len(evs):
        H.fail("R = %d: %d events, expected %d" % (R, len(ev), len(evs)))
    pairs = {p[0][0]: p for p in tr.event_pairs()}
    iscale, vscale = mpf(10), mpf(100)
    for i, (e, (t, fr, to, z)) in enumerate(zip(ev, evs)):
        w_.add(H.digits(e["t"], t, mpf(1) / 10000), "R=%d event %d time (relative to T)" % (R, i + 1))
        p = pairs.get(e["time"])
        if p:
            w_.add(H.digits(tr.val(p[1], "iL"), z[0], iscale), "R=%d iL at event %d" % (R, i + 1))
            w_.add(H.digits(tr.val(p[1], "vC"), z[1], vscale), "R=%d vC at event %d" % (R, i + 1))
    last = tr.last()
    w_.add(H.digits(tr.val(last, "iL"), zend[0], iscale), "R=%d iL at the end" % R)
    w_.add(H.digits(tr.val(last, "vC"), zend[1], vscale), "R=%d vC at the end" % R)
    # the hand-written modes, and the `if` form, row by row
    for other, path in ((modes_case, None), ("if form", "tests/corpus/boost_converter_ideal_if.hdae")):
        out2 = H.run(modes_case if path is None else "boost_converter_ideal", 30, path=path,
                     args=(args if path is not None else ()) + ("--every", "0.0000999"))
        tr2 = H.Traj(out2)
        ev2 = H.events(out2)
        if len(ev2) != len(H.events(out)) or len(tr2.rows) != len(tr.rows):
            H.fail("R = %d: %d events and %d rows, %s %d and %d" % (
                R, len(H.events(out)), len(tr.rows), other, len(ev2), len(tr2.rows)))
        for i, (e, e2) in enumerate(zip(H.events(out), ev2)):
            w_.add(H.digits(e["t"], e2["t"], mpf(1) / 10000), "R=%d event %d against %s" % (R, i + 1, other))
        for r, r2 in zip(tr.rows, tr2.rows):
            w_.add(H.digits(tr.t(r), tr2.t(r2), mpf(1) / 10000), "R=%d row time %s" % (R, r[0][:12]))
            w_.add(H.digits(tr.val(r, "iL"), tr2.val(r2, "iL"), iscale), "R=%d iL against %s at %s" % (R, other, r[0][:12]))
            w_.add(H.digits(tr.val(r, "vC"), tr2.val(r2, "vC"), vscale), "R=%d vC against %s at %s" % (R, other, r[0][:12]))
    return len(ev)


def main():
    H.NAME = "boost_converter_ideal"
    w_ = H.Worst()
    n1 = one(100, "boost_converter_dcm", w_)
    n2 = one(10, "boost_converter_ccm", w_)
    H.finish(w_, 25, "%d events (R = 100), %d (R = 10)" % (n1, n2))


if __name__ == "__main__":
    main()
