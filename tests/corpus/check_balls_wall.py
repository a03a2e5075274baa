#!/usr/bin/env python3
"""check_balls_wall -- two balls and a wall with Newton's law and Moreau's
rule, in exact rationals.

Free flight between impacts (no gravity): positions linear in t.  The next
impact is the first zero of a gap (x1, x2 - x1) whose velocity is negative.
At an impact the closed contacts (gaps exactly 0) take impulses P >= 0 from
0 <= P perp (1 + e) g'- + G P >= 0, G = W^T M^-1 W, solved here by
enumeration of the index sets in fractions (code of its own, not hdo's);
the velocities jump by M^-1 W P.  Two runs: from x1 = 1 (five impacts: t = 2,
3, 7/2, 4, 5) and with -p x10=0 (one impact on both contacts at t = 3).
Compared: the event times and kinds, positions and velocities at every row
(the right row of an impact after the jump).
"""
import sys
import os
import itertools
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from fractions import Fraction as F
from mpmath import mp, mpf

mp.dps = 50
M = [F(1), F(2)]
E = F(1, 2)
W = [[F(1), F(-1)], [F(0), F(1)]]  # W[ball][contact]: gaps x1, x2 - x1
TEND = F(10)


def gaps(x):
    return [x[0], x[1] - x[0]]


def moreau(closed, gdot):
    """P >= 0 on the closed contacts with w = (1 + e) g'- + G P >= 0, P w = 0."""
    n = len(closed)
    G = [[sum(W[b][i] * W[b][j] / M[b] for b in range(2)) for j in closed] for i in closed]
    q = [(1 + E) * gdot[i] for i in closed]
    sols = []
    for act in itertools.product([0, 1], repeat=n):
        idx = [a for a in range(n) if act[a]]
        P = [F(0)] * n
        if idx:
            # solve G[idx, idx] P = -q[idx] by Gaussian elimination
            A = [[G[i][j] for j in idx] + [-q[i]] for i in idx]
            k = len(idx)
            ok = True
            for c in range(k):
                piv = next((r for r in range(c, k) if A[r][c] != 0), None)
                if piv is None:
                    ok = False
                    break
                A[c], A[piv] = A[piv], A[c]
                for r in range(k):
                    if r != c and A[r][c] != 0:
                        f = A[r][c] / A[c][c]
                        A[r] = [a - f * b for a, b in zip(A[r], A[c])]
            if not ok:
                continue
            for c in range(k):
                P[idx[c]] = A[c][k] / A[c][c]
        w = [q[i] + sum(G[i][j] * P[j] for j in range(n)) for i in range(n)]
        if all(p >= 0 for p in P) and all(x >= 0 for x in w) and all(P[i] * w[i] == 0 for i in range(n)):
            if P not in sols:
                sols.append(P)
    if len(sols) != 1:
        H.fail("Moreau's problem has %d solutions" % len(sols))
    return sols[0]


def simulate(x10):
    x, v, t = [x10, F(3)], [F(0), F(-1)], F(0)
    arcs, evs = [], []
    while True:
        g, gd = gaps(x), gaps(v)
        cand = [-g[i] / gd[i] for i in range(2) if gd[i] < 0 and g[i] > 0]
        dt = min(cand) if cand else None
        if dt is None or t + dt >= TEND:
            arcs.append((t, TEND, list(x), list(v)))
            return arcs, evs
        arcs.append((t, t + dt, list(x), list(v)))
        t += dt
        x = [x[b] + v[b] * dt for b in range(2)]
        g, gd = gaps(x), gaps(v)
        closed = [i for i in range(2) if g[i] == 0]
        P = moreau(closed, gd)
        for b in range(2):
            v[b] += sum(W[b][c] * p for c, p in zip(closed, P)) / M[b]
        evs.append((t, list(v)))


def q(fr):
    return mpf(fr.numerator) / fr.denominator


def one(x10, args, w_):
    arcs, evs = simulate(x10)
    out = H.run("balls_wall", 30, args=args + ("--every", "0.37"))
    ev = H.events(out)
    H.compare_events(ev, [(q(t), "impact") for t, _ in evs], w_, tscale=10)
    tr = H.Traj(out)
    rows = tr.rows
    for i, r in enumerate(rows):
        t = tr.t(r)
        right = i > 0 and rows[i - 1][0] == r[0]
        left = i + 1 < len(rows) and rows[i + 1][0] == r[0]
        for a, b, x0, v0 in arcs:
            ta, tb = q(a), q(b)
            if (left and abs(tb - t) < mpf(10) ** -25) or (right and abs(ta - t) < mpf(10) ** -25) or \
                    (not left and not right and ta <= t <= tb):
                te = tb if left else (ta if right else t)
                for bb, (xn, vn) in enumerate((("x1", "v1"), ("x2", "v2"))):
                    w_.add(H.digits(tr.val(r, xn), q(x0[bb]) + q(v0[bb]) * (te - ta), 3), "%s at t=%s (x10=%s)" % (xn, r[0][:10], x10))
                    w_.add(H.digits(tr.val(r, vn), q(v0[bb]), 1), "%s at t=%s (x10=%s)" % (vn, r[0][:10], x10))
                for fn in ("fw", "fc"):
                    w_.add(H.digits(tr.val(r, fn), 0, 1), "%s at t=%s" % (fn, r[0][:10]))
                break
        else:
            H.fail("row at t = %s on no arc" % r[0])
    return len(evs)


def main():
    H.NAME = "balls_wall"
    w_ = H.Worst()
    n1 = one(F(1), (), w_)
    n2 = one(F(0), ("-p", "x10=0"), w_)
    H.finish(w_, 25, "%d impacts from x1 = 1, %d (on both contacts) from x1 = 0" % (n1, n2))


if __name__ == "__main__":
    main()
