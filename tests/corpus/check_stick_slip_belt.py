#!/usr/bin/env python3
"""check_stick_slip_belt -- mass on a belt (Wunderlich 7.2.3), Filippov sliding.

Slip arcs: x' = v, v' = -k x -+ F_s/(1 + gamma |v - v_dr|) (m = 1), integrated by
mpmath.odefun (Taylor series) at 40 digits from each arc's start; the arc ends
where v returns to v_dr (scan with step 0.02, bisection, findroot).  There: stick
(Filippov sliding) if |k x| < F_s, else the other slip mode.  Stick arcs in closed
form: x = x_s + v_dr (t - t_s), v = v_dr, left at x = F_s/k = 1/3 into slip_neg
(x' = v_dr > 0, so x = -1/3 is never the exit).  Second formula: the first slip
end is recomputed at 50 digits.  Compared: event times and kinds (after t = 0),
x, v at the events and on the output grid.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, odefun, findroot, fabs

mp.dps = 40
k, Fs, gam, vdr = mpf(3), mpf(1), mpf(3), mpf("0.2")


def rhs(mode):
    if mode == "slip_pos":
        return lambda t, y: [y[1], -k * y[0] - Fs / (1 + gam * (y[1] - vdr))]
    return lambda t, y: [y[1], -k * y[0] + Fs / (1 - gam * (y[1] - vdr))]


def slip_arc(mode, t0, x0, v0, tend):
    f = odefun(rhs(mode), t0, [x0, v0])
    sg = 1 if mode == "slip_pos" else -1
    g = lambda t: sg * (f(t)[1] - vdr)       # >= 0 feasible
    h = mpf("0.02")
    t, seen_pos = t0, False
    while t < tend:
        tn = min(t + h, tend)
        gv = g(tn)
        if gv > 0:
            seen_pos = True
        elif gv < 0 and (seen_pos or g(t) > 0):
            return f, H.refine_root(g, t, tn, 20)
        t = tn
    return f, None


def simulate(tend):
    t, x, v, mode = mpf(0), mpf(0), mpf(0), "slip_neg"
    evs, arcs = [], []
    while True:
        if mode == "stick":
            te = t + (Fs / k - x) / vdr
            if te > tend:
                arcs.append(("stick", t, (x, v), tend))
                return evs, arcs
            arcs.append(("stick", t, (x, v), te))
            x, v = Fs / k, vdr
            evs.append((te, "stick", "slip_neg", x, v))
            t, mode = te, "slip_neg"
            continue
        f, te = slip_arc(mode, t, x, v, tend)
        if te is None:
            arcs.append((mode, t, f, tend))
            return evs, arcs
        arcs.append((mode, t, f, te))
        x, v = f(te)[0], vdr
        if fabs(k * x) < Fs:
            nxt = "stick"
        else:
            nxt = "slip_pos" if mode == "slip_neg" else "slip_neg"
        evs.append((te, mode, nxt, x, v))
        t, mode = te, nxt


def state(arcs, t):
    for mode, t0, f, t1 in arcs:
        if t0 <= t <= t1:
            if mode == "stick":
                return f[0] + vdr * (t - t0), vdr
            y = f(t)
            return y[0], y[1]


def main():
    H.NAME = "stick_slip_belt"
    D = 30
    need = D - 5
    tend = mpf(15)
    evs, arcs = simulate(tend)
    with mp.workdps(50):
        _, t1b = slip_arc("slip_neg", mpf(0), mpf(0), mpf(0), mpf(1))
    assert fabs(evs[0][0] - t1b) < mpf(10) ** -35, (evs[0][0], t1b)
    assert fabs(evs[0][0] - mpf("0.26758")) < mpf(10) ** -5 and fabs(evs[1][0] - mpf("1.80892")) < mpf(10) ** -5
    out = H.run("stick_slip_belt", D)
    ev = [e for e in H.events(out, skip_t0=0) if e["t"] < tend]
    w_ = H.Worst()
    kinds = [("sliding-end" if fr == "stick" else "sliding-start" if to == "stick" else "switch") for _, fr, to, _, _ in evs]
    H.compare_events(ev, [(e[0], kd) for e, kd in zip(evs, kinds)], w_)
    tr = H.Traj(out)
    pairs = {p[0][0]: p for p in tr.event_pairs()}
    for i, ((t, fr, to, x, v), e) in enumerate(zip(evs, ev)):
        p = pairs.get(e["time"])
        if p:
            w_.add(H.digits(tr.val(p[0], "x"), x, 1), "x at event %d" % (i + 1))
            w_.add(H.digits(tr.val(p[0], "v"), v, 1), "v at event %d" % (i + 1))
    for r in tr.grid(20) + [tr.last()]:
        x, v = state(arcs, tr.t(r))
        w_.add(H.digits(tr.val(r, "x"), x, 1), "x at t=%s" % r[0][:10])
        w_.add(H.digits(tr.val(r, "v"), v, 1), "v at t=%s" % r[0][:10])
    H.finish(w_, need, "%d events: %s" % (len(evs), ", ".join(mp.nstr(e[0], 12) for e in evs)))


if __name__ == "__main__":
    main()
