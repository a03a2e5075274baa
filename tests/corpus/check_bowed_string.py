#!/usr/bin/env python3
"""check_bowed_string -- the size case: modal closed form of the first slip arc,
and a second hdo run at higher precision.

First arc (slip_neg, from rest, v_rel = -v0 < 0): the interior nodes obey
rho u'' = kk D u + e_c mu_f F_N (D the Dirichlet second-difference matrix); in
the discrete sine basis phi_j(i) = sin(j pi i/N) (D phi_j = -4 sin^2(j pi/2N) phi_j)
each mode is a forced oscillator from rest:
  w_c(t) = sum_j (b_j/omega_j) sin(omega_j t) sin(j pi c/N),
  b_j = (2/N)(mu_f F_N/rho) sin(j pi c/N), omega_j^2 = (kk/rho) 4 sin^2(j pi/2N),
and the bow: vb = v0 cos(Omega t) - mu_f F_N t/m_b.  The first event is the first
root of w_c - vb (scan + findroot, 40 digits); compared with hdo's first event
time and with vb, w10, u10 there.  Then hdo at 40 digits must agree with hdo at 30
digits on every event time and on yb, vb, u10, w10 at t = 6 (25 digits).
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, sin, cos, pi, sqrt, findroot, fabs

mp.dps = 40
N, c = 100, 10
Ls, tau, rho, mb, v0, Om, muf, FN = mpf("0.7"), mpf(55), mpf("0.5"), mpf(1), mpf("0.5"), mpf(2), mpf("0.4"), mpf(18)
dx = Ls / N
kk = tau / dx ** 2
F = muf * FN
MODES = [(j, sqrt(kk / rho * 4 * sin(j * pi / (2 * N)) ** 2), (2 * F / (N * rho)) * sin(j * pi * c / N)) for j in range(1, N)]


def string_c(t):
    wc = sum(b / om * sin(om * t) * sin(j * pi * c / N) for j, om, b in MODES)
    uc = sum(b / om ** 2 * (1 - cos(om * t)) * sin(j * pi * c / N) for j, om, b in MODES)
    return uc, wc


def bow(t):
    return v0 * cos(Om * t) - F * t / mb


def first_event():
    g = lambda t: bow(t) - string_c(t)[1]        # > 0 while v_rel < 0
    h = mpf("0.0005")
    t = mpf(0)
    while g(t + h) > 0:
        t += h
    lo, hi = t, t + h
    for _ in range(20):
        mid = (lo + hi) / 2
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    return findroot(g, (lo, hi), solver="anderson")


def main():
    H.NAME = "bowed_string"
    t1 = first_event()
    uc, wc = string_c(t1)
    out = H.run("bowed_string", 30)
    ev = H.events(out)
    if not ev:
        H.fail("no events")
    w_ = H.Worst()
    w_.add(H.digits(ev[0]["t"], t1, 1), "first event time")
    tr = H.Traj(out)
    pr = tr.pairs_near(ev[0]["t"], mpf(10) ** -20)
    if pr:
        w_.add(H.digits(tr.val(pr[0][0], "vb"), bow(t1), 1), "vb at the first event")
        w_.add(H.digits(tr.val(pr[0][0], "w10"), wc, 1), "w10 at the first event")
        w_.add(H.digits(tr.val(pr[0][0], "u10"), uc, mpf("0.01")), "u10 at the first event")
    out2 = H.run("bowed_string", 40)
    ev2 = H.events(out2)
    if len(ev2) != len(ev):
        H.fail("%d events at 30 digits, %d at 40" % (len(ev), len(ev2)))
    for a, b in zip(ev, ev2):
        w_.add(H.digits(a["t"], b["t"], 1), "event %s, 30 vs 40 digits" % a["index"])
    tr2 = H.Traj(out2)
    for v in ("yb", "vb", "u10", "w10"):
        w_.add(H.digits(tr.val(tr.last(), v), tr2.val(tr2.last(), v), 1), "%s at t=6, 30 vs 40 digits" % v)
    H.finish(w_, 25, "first stick at %s; %d events" % (mp.nstr(t1, 20), len(ev)))


if __name__ == "__main__":
    main()
