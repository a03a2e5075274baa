#!/usr/bin/env python3
"""check_stick_slip -- two masses with dry friction (Wunderlich 7.2.2), Filippov sliding.

Closed form (mpmath, 50 digits): on an arc with accelerations
a(t) = c sin t + k (stick: both c = 1/2, k = 0; slip+: body 1 c = 1, k = -0.4,
body 2 k = +0.4; slip-: the signs of k reversed)
  v = v0 + c (cos t0 - cos t) + k (t - t0),
  x = x0 + v0 (t - t0) + c (cos t0 (t - t0) - sin t + sin t0) + k (t - t0)^2/2.
Stick (sliding) holds while |sin t| <= 2 mu N = 0.8 and ends at asin(0.8) + n pi
or pi - asin(0.8) + n pi where |sin t| grows through 0.8; a slip arc ends at the
first root of v_rel = cos t0 - cos t -+ 0.8 (t - t0) (scan + findroot); then stick
if |sin t| < 0.8, else the other slip mode.  Compared: event times and kinds
(sliding-start / sliding-end after t = 0), x1, x2, v1, v2 at every event, on the
output grid and at t = 10.  Second formula: each slip end is re-solved with
mpmath.findroot from a different start and with 70 digits.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, sin, cos, asin, pi, findroot, fabs

mp.dps = 50
MU_N = mpf("0.4")
ACC = {"stick": ((mpf(1) / 2, 0), (mpf(1) / 2, 0)),
       "slip_pos": ((1, -MU_N), (0, MU_N)),
       "slip_neg": ((1, MU_N), (0, -MU_N))}


def arc(mode, t0, s0, t):
    out = []
    for (c, k), (x0, v0) in zip(ACC[mode], ((s0[0], s0[2]), (s0[1], s0[3]))):
        dt = t - t0
        v = v0 + c * (cos(t0) - cos(t)) + k * dt
        x = x0 + v0 * dt + c * (cos(t0) * dt - sin(t) + sin(t0)) + k * dt * dt / 2
        out.append((x, v))
    return [out[0][0], out[1][0], out[0][1], out[1][1]]


def vrel(mode, t0, s0, t):
    s = arc(mode, t0, s0, t)
    return s[2] - s[3]


def stick_end(t0):
    """first t > t0 where |sin t| grows through 0.8 (sin t cos t > 0 there)"""
    a = asin(mpf("0.8"))
    cands = [c for n in range(8) for c in (a + n * pi, pi - a + n * pi)
             if c > t0 + mpf(10) ** -30 and sin(c) * cos(c) > 0]
    return min(cands)


def slip_end(mode, t0, s0, tend, h=mpf("0.01")):
    sgn = 1 if mode == "slip_pos" else -1
    t = t0 + h
    while t <= tend + h:
        if sgn * vrel(mode, t0, s0, t) < 0:
            r = H.refine_root(lambda u: sgn * vrel(mode, t0, s0, u), t - h, t)
            with mp.workdps(70):
                r2 = findroot(lambda u: vrel(mode, t0, s0, u), r + mpf(10) ** -12)
            assert fabs(r - r2) < mpf(10) ** -45
            return r if r <= tend else None
        t += h
    return None


def simulate(tend, stick_start=True):
    """returns the events [(t, from, to, state)] and the piecewise solution."""
    t, s, mode = mpf(0), [mpf(1), mpf(1), mpf(0), mpf(0)], "stick"
    evs, arcs = [], []
    while True:
        if mode == "stick":
            te = stick_end(t)
            nxt = "slip_pos" if sin(te) > 0 else "slip_neg"
        else:
            te = slip_end(mode, t, s, tend)
            nxt = "stick"
        if te is None or te > tend:
            arcs.append((mode, t, s, tend))
            return evs, arcs
        se = arc(mode, t, s, te)
        if mode != "stick":
            se[3] = se[2]           # v_rel = 0 exactly at the root
            if fabs(sin(te)) > mpf("0.8"):
                nxt = "slip_neg" if mode == "slip_pos" else "slip_pos"
        arcs.append((mode, t, s, te))
        evs.append((te, mode, nxt, se))
        t, s, mode = te, se, nxt


def state_at(arcs, t):
    for mode, t0, s0, t1 in arcs:
        if t0 <= t <= t1:
            return arc(mode, t0, s0, t)
    raise ValueError(t)


SC = {"x1": 10, "x2": 10, "v1": 1, "v2": 1}


def compare_states(tr, arcs, w_, every=10):
    for r in tr.grid(every) + [tr.last()]:
        ex = state_at(arcs, tr.t(r))
        for i, v in enumerate(("x1", "x2", "v1", "v2")):
            w_.add(H.digits(tr.val(r, v), ex[i], SC[v]), "%s at t=%s" % (v, r[0][:10]))


def main():
    H.NAME = "stick_slip"
    D = 30
    need = D - 5
    evs, arcs = simulate(mpf(10))
    assert len(evs) == 6, len(evs)
    out = H.run("stick_slip", D)
    ev = H.events(out, skip_t0=0)
    w_ = H.Worst()
    kinds = [("sliding-end" if fr == "stick" else "sliding-start" if to == "stick" else "switch") for _, fr, to, _ in evs]
    H.compare_events(ev, [(e[0], k) for e, k in zip(evs, kinds)], w_)
    tr = H.Traj(out)
    pairs = tr.event_pairs()
    for (te, fr, to, se), e in zip(evs, ev):
        pr = [p for p in pairs if p[0][0] == e["time"]]
        if pr:
            for i, v in enumerate(("x1", "x2", "v1", "v2")):
                for r in pr[0]:
                    w_.add(H.digits(tr.val(r, v), se[i], SC[v]), "%s at event t=%s" % (v, e["time"][:10]))
    compare_states(tr, arcs, w_)
    H.finish(w_, need, "switches at " + ", ".join(mp.nstr(e[0], 12) for e in evs))


if __name__ == "__main__":
    main()
