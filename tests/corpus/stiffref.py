#!/usr/bin/env python3
"""stiffref -- an independent stiff integrator in mpmath for the corpus checks.

Radau IIA with s stages (order 2s - 1, L-stable, stiffly accurate) for
M y' = f(t, y) with a constant, possibly singular, mass matrix M: the index-1
DAEs of the corpus (Robertson, the transistor amplifier) and stiff ODEs (Van
der Pol).  Written here from Hairer & Wanner, Solving ODEs II, sections IV.5
and IV.8, and shares nothing with hdo (whose Radau IIA is C over MPFR): its
own tableau (nodes as roots of P_s(2c - 1) - P_{s-1}(2c - 1) by
mpmath.polyroots, A from the exact integrals of the Lagrange basis), its own
Newton (the simplified Newton iteration of IV.8 on the s n stage
equations, residuals at 50 digits, corrections solved in binary64 with the
problem's hand-written Jacobian), and its own error control (step doubling:
one step of h against two of h/2, the accepted value the two halves).

The checks compare hdo at a few checkpoints with a run of this integrator at
50 digits.  Those runs take minutes, too long for `make check`, so they are
stored in tests/corpus/data/<case>.csv by

    /usr/bin/python3 tests/corpus/stiffref.py <case> [<case> ...]

(cases: robertson, vanderpol, transistor_amplifier), which integrates every
case twice, at two tolerances (1e-30 and 1e-34; the amplifier 1e-24 and
1e-28) in two processes, and writes the second run's values with the agreement of the two
(the data file's stated accuracy) in its header.  Nothing here reads anything from hdo.
"""
import multiprocessing
import os
import sys
import time
from fractions import Fraction

import numpy as np
import scipy.linalg
from mpmath import mp, mpf, matrix, polyroots, inverse, fabs, exp, sin, pi

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


# ---- the Radau IIA tableau ------------------------------------------------

def _legendre(k):
    """the coefficients (constant term first) of P_k as Fractions."""
    p0, p1 = [Fraction(1)], [Fraction(0), Fraction(1)]
    if k == 0:
        return p0
    for n in range(1, k):
        # (n + 1) P_{n+1} = (2n + 1) x P_n - n P_{n-1}
        a = [Fraction(0)] + [Fraction(2 * n + 1) * c for c in p1]
        b = [Fraction(n) * c for c in p0] + [Fraction(0)] * (len(a) - len(p0))
        p0, p1 = p1, [(x - y) / (n + 1) for x, y in zip(a, b)]
    return p1


class Tableau:
    """nodes c (c_s = 1) and the matrix A of the s-stage Radau IIA method."""

    def __init__(self, s):
        self.s = s
        ps, pm = _legendre(s), _legendre(s - 1)
        q = [a - (pm[i] if i < len(pm) else 0) for i, a in enumerate(ps)]
        # q(x), x = 2c - 1: polyroots wants the leading coefficient first
        with mp.workprec(mp.prec + 100):
            xs = polyroots([mpf(x.numerator) / x.denominator for x in reversed(q)],
                           maxsteps=200, extraprec=400)
            c = sorted((mp.re(x) + 1) / 2 for x in xs)
            c[-1] = mpf(1)
            V = matrix(s, s)
            for i in range(s):
                for k in range(s):
                    V[i, k] = c[i] ** k
            L = inverse(V)          # l_j(tau) = sum_k L[k, j] tau^k
            A = matrix(s, s)
            for i in range(s):
                for j in range(s):
                    A[i, j] = sum(L[k, j] * c[i] ** (k + 1) / (k + 1) for k in range(s))
        self.c = [+x for x in c]
        self.A = A
        self.Alist = [[A[i, j] for j in range(s)] for i in range(s)]


# ---- one Radau IIA step ---------------------------------------------------

class Problem:
    """M (n x n list), f(t, y) -> list, jac(t, y) -> n x n list, y0, t0,
    atol (list; the error weight of component i is atol[i] + rtol |y_i|)."""

    def __init__(self, name, names, M, f, jac, y0, t0, atol):
        self.name, self.names, self.M, self.f, self.jac = name, names, M, f, jac
        self.y0, self.t0, self.atol = y0, t0, atol
        self.n = len(y0)


STATS = [0]


def radau_step(P, tab, t, y, h, newton_tol):
    """One step of size h from (t, y); returns y(t + h) or None when the
    simplified Newton iteration does not converge.  The stage increments Z
    solve G(Z) = (I (x) M) Z - h (A (x) I) F(y + Z) = 0, F the stage values
    of f; each iteration computes G in mpmath at the working precision and
    corrects Z by the solution of (I (x) M - h A (x) J) dZ = -G in binary64
    (J the Jacobian at the step's start): the iteration matrix only steers
    the convergence, the fixed point is the exact solution of G = 0."""
    n, s = P.n, tab.s
    J = np.array([[float(v) for v in row] for row in P.jac(t, y)])
    Mf = np.array([[float(v) for v in row] for row in P.M])
    Af = np.array([[float(tab.A[i, j]) for j in range(s)] for i in range(s)])
    K = np.kron(np.eye(s), Mf) - float(h) * np.kron(Af, J)
    try:
        fac = scipy.linalg.lu_factor(K)
    except (ValueError, np.linalg.LinAlgError):
        return None
    Z = [[mpf(0)] * n for _ in range(s)]
    w = [P.atol[m] + P.rtol * fabs(y[m]) for m in range(n)]
    hA = [[h * a for a in row] for row in tab.Alist]
    Mnz = [[(j, P.M[m][j]) for j in range(n) if P.M[m][j]] for m in range(n)]
    prev = None
    for it in range(30):
        F = [P.f(t + tab.c[i] * h, [y[m] + Z[i][m] for m in range(n)]) for i in range(s)]
        FT = [[F[j][m] for j in range(s)] for m in range(n)]
        G = []
        for i in range(s):
            for m in range(n):
                G.append(mp.fsum(v * Z[i][j] for j, v in Mnz[m]) - mp.fdot(hA[i], FT[m]))
        STATS[0] += 1
        d = scipy.linalg.lu_solve(fac, -np.array([float(g) for g in G]))
        if not np.all(np.isfinite(d)):
            return None
        norm = 0.0
        for i in range(s):
            for m in range(n):
                dz = mpf(d[i * n + m])
                Z[i][m] += dz
                norm = max(norm, abs(float(dz / w[m])))
        if norm <= newton_tol:
            return [y[m] + Z[s - 1][m] for m in range(n)]
        if prev is not None and norm > 0.9 * prev and it > 2:
            return None
        prev = norm
    return None


def integrate(P, s, rtol, checkpoints, h0, log=None):
    """y at every checkpoint (increasing, beyond t0): step doubling with
    steps clipped to the checkpoints.  Returns (values, accepted steps,
    rejected steps)."""
    tab = Tableau(s)
    P.rtol = rtol
    p = 2 * s - 1
    t, y, h = P.t0, list(P.y0), h0
    out, acc, rej = [], 0, 0
    start = time.time()
    for tc in checkpoints:
        while t < tc:
            last = t + h >= tc
            hh = tc - t if last else h
            big = radau_step(P, tab, t, y, hh, mpf("1e-3"))
            half = radau_step(P, tab, t, y, hh / 2, mpf("1e-3"))
            two = radau_step(P, tab, t + hh / 2, half, hh / 2, mpf("1e-3")) if half else None
            if big is None or two is None:
                h, rej = hh / 4, rej + 1
                continue
            err = max(fabs(big[m] - two[m]) / (P.atol[m] + rtol * fabs(two[m]))
                      for m in range(P.n)) / (2 ** p - 1)
            fac = mpf("0.9") * (1 / max(err, mpf(10) ** -300)) ** (mpf(1) / (p + 1))
            fac = min(mpf(3), max(mpf("0.2"), fac))
            if err <= 1:
                t, y, acc = (tc if last else t + hh), two, acc + 1
                if not last:
                    h = hh * fac
                elif fac < 1:
                    h = min(h, hh * fac)
            else:
                h, rej = hh * fac, rej + 1
        out.append(list(y))
        if log:
            log("  %s t=%s  %d steps, %d rejected, %.0f s"
                % (P.name, mp.nstr(tc, 6), acc, rej, time.time() - start))
    return out, acc, rej


# ---- the three problems ---------------------------------------------------

def _diag(d):
    n = len(d)
    return [[mpf(d[i]) if i == j else mpf(0) for j in range(n)] for i in range(n)]


def robertson():
    """Robertson's kinetics as the index-1 DAE of Hairer-Wanner (VI.1.3):
    y1' = -0.04 y1 + 1e4 y2 y3, y2' = 0.04 y1 - 1e4 y2 y3 - 3e7 y2^2,
    0 = y1 + y2 + y3 - 1; y(0) = (1, 0, 0)."""
    k1, k2, k3 = mpf(4) / 100, mpf(10) ** 4, 3 * mpf(10) ** 7

    def f(t, y):
        return [-k1 * y[0] + k2 * y[1] * y[2],
                k1 * y[0] - k2 * y[1] * y[2] - k3 * y[1] ** 2,
                y[0] + y[1] + y[2] - 1]

    def jac(t, y):
        return [[-k1, k2 * y[2], k2 * y[1]],
                [k1, -k2 * y[2] - 2 * k3 * y[1], -k2 * y[1]],
                [mpf(1), mpf(1), mpf(1)]]
    # y2 stays below 4e-5 and ends at 8e-14: its weight is 1e-13 of the others'
    return Problem("robertson", ["y1", "y2", "y3"], _diag([1, 1, 0]), f, jac,
                   [mpf(1), mpf(0), mpf(0)], mpf(0), None), [mpf(1), mpf("1e-13"), mpf(1)]


def vanderpol():
    """Van der Pol with mu = 1000 in Hairer-Wanner's scaled form (IV.8.15;
    the Test Set's VDPOL): y' = z, z' = mu^2 ((1 - y^2) z - y), i.e. time
    t = x/mu and z = mu dy/dx of y'' - mu (1 - y^2) y' + y = 0 in x;
    y(0) = 2, z(0) = 0."""
    mu2 = mpf(1000) ** 2

    def f(t, y):
        return [y[1], mu2 * ((1 - y[0] ** 2) * y[1] - y[0])]

    def jac(t, y):
        return [[mpf(0), mpf(1)], [mu2 * (-2 * y[0] * y[1] - 1), mu2 * (1 - y[0] ** 2)]]
    return Problem("vanderpol", ["y", "z"], _diag([1, 1]), f, jac,
                   [mpf(2), mpf(0)], mpf(0), None), [mpf(1), mpf(1)]


def transistor_amplifier():
    """The Test Set's transistor amplifier (transamp.f, transres/transfunc),
    M y' = f(t, y): rows 1, 2: C1 (y2' - y1') = f1, C1 (y1' - y2') = f2;
    row 3: -C2 y3' = f3; rows 4, 5 and 7, 8 like 1, 2 with C3 and C5;
    row 6: -C4 y6' = f6; f the currents of transfunc; Ub = 6, UF = 0.026,
    alpha = 0.99, beta = 1e-6, R0 = 1000, R1..R9 = 9000, Ck = k 1e-6,
    Ue(t) = 0.1 sin(200 pi t); y(0) = (0, 3, 3, 6, 3, 3, 6, 0)."""
    ub, uf, alpha, beta = mpf(6), mpf(26) / 1000, mpf(99) / 100, mpf(10) ** -6
    r0, rk = mpf(1000), mpf(9000)
    C = [k * mpf(10) ** -6 for k in range(1, 6)]

    def fts(t, y):
        uet = sin(200 * pi * t) / 10
        e1, e2 = exp((y[1] - y[2]) / uf), exp((y[4] - y[5]) / uf)
        fac1, fac2 = beta * (e1 - 1), beta * (e2 - 1)
        return [(y[0] - uet) / r0,
                y[1] / rk + (y[1] - ub) / rk + (1 - alpha) * fac1,
                y[2] / rk - fac1,
                (y[3] - ub) / rk + alpha * fac1,
                y[4] / rk + (y[4] - ub) / rk + (1 - alpha) * fac2,
                y[5] / rk - fac2,
                (y[6] - ub) / rk + alpha * fac2,
                y[7] / rk]

    def jac(t, y):
        d1 = beta * exp((y[1] - y[2]) / uf) / uf
        d2 = beta * exp((y[4] - y[5]) / uf) / uf
        J = [[mpf(0)] * 8 for _ in range(8)]
        J[0][0] = 1 / r0
        J[1][1], J[1][2] = 2 / rk + (1 - alpha) * d1, -(1 - alpha) * d1
        J[2][1], J[2][2] = -d1, 1 / rk + d1
        J[3][1], J[3][2], J[3][3] = alpha * d1, -alpha * d1, 1 / rk
        J[4][4], J[4][5] = 2 / rk + (1 - alpha) * d2, -(1 - alpha) * d2
        J[5][4], J[5][5] = -d2, 1 / rk + d2
        J[6][4], J[6][5], J[6][6] = alpha * d2, -alpha * d2, 1 / rk
        J[7][7] = 1 / rk
        return J

    # transres: delta = M y' - fts with M's rows (-C1, C1), (C1, -C1), -C2,
    # (-C3, C3), (C3, -C3), -C4, (-C5, C5), (C5, -C5)
    M = [[mpf(0)] * 8 for _ in range(8)]
    for (i, j), cc in (((0, 1), C[0]), ((3, 4), C[2]), ((6, 7), C[4])):
        M[i][i], M[i][j], M[j][i], M[j][j] = -cc, cc, cc, -cc
    M[2][2], M[5][5] = -C[1], -C[3]
    y0 = [mpf(0), mpf(3), mpf(3), mpf(6), mpf(3), mpf(3), mpf(6), mpf(0)]
    return Problem("transistor_amplifier", ["y%d" % i for i in range(1, 9)], M, fts, jac,
                   y0, mpf(0), None), [mpf(1)] * 8


# ---- the stored runs --------------------------------------------------------

# name: (problem, stages, checkpoints, first step, the two tolerances)
def cases():
    return {
        "robertson": (robertson, 12, [mpf(10) ** k for k in range(-5, 12)],
                      mpf("1e-8"), ("1e-30", "1e-34")),
        "vanderpol": (vanderpol, 12, [mpf(k) / 10 for k in range(1, 21)],
                      mpf("1e-6"), ("1e-30", "1e-34")),
        "transistor_amplifier": (transistor_amplifier, 10, [mpf(k) / 100 for k in range(1, 21)],
                                 mpf("1e-6"), ("1e-24", "1e-28")),
    }


def _run(args):
    name, rtol = args
    mp.dps = 50
    mk, s, cps, h0, tols = cases()[name]
    P, w = mk()
    rtol = mpf(rtol)
    P.atol = [rtol * x for x in w]
    t0 = time.time()
    vals, acc, rej = integrate(P, s, rtol, cps, h0,
                               log=lambda m: print(m + " (rtol %s)" % mp.nstr(rtol, 2), flush=True))
    return vals, acc, rej, time.time() - t0, rtol


def generate(name, log=print):
    """runs the case at its two tolerances (in two processes) and writes
    tests/corpus/data/<name>.csv."""
    mp.dps = 50
    mk, s, cps, h0, tols = cases()[name]
    P, w = mk()
    with multiprocessing.Pool(2) as pool:
        runs = pool.map(_run, [(name, x) for x in tols])
    (v1, a1, r1, s1, t1), (v2, a2, r2, s2, t2) = runs
    agree = []
    for k in range(len(cps)):
        agree.append(max(fabs(v1[k][m] - v2[k][m]) / (w[m] + fabs(v2[k][m])) for m in range(P.n)))
    path = os.path.join(DATA, name + ".csv")
    os.makedirs(DATA, exist_ok=True)
    with open(path, "w") as f:
        f.write("# %s -- written by `/usr/bin/python3 tests/corpus/stiffref.py %s`; do not edit.\n" % (name, name))
        f.write("# Radau IIA, %d stages (order %d), mpmath at %d digits, step doubling.\n"
                % (s, 2 * s - 1, mp.dps))
        f.write("# run 1: rtol %s, %d steps (%d rejected), %.0f s; run 2: rtol %s, %d steps (%d rejected), %.0f s.\n"
                % (mp.nstr(t1, 2), a1, r1, s1, mp.nstr(t2, 2), a2, r2, s2))
        f.write("# largest |run1 - run2| / (w + |run2|) over the checkpoints (w: the error weights %s): %s\n"
                % (" ".join(mp.nstr(x, 2) for x in w), mp.nstr(max(agree), 3)))
        f.write("# the values below are run 2's; column agree: that measure at this checkpoint.\n")
        f.write("t,%s,agree\n" % ",".join(P.names))
        for k, tc in enumerate(cps):
            f.write("%s,%s,%s\n" % (mp.nstr(tc, 50), ",".join(mp.nstr(x, 45) for x in v2[k]),
                                    mp.nstr(agree[k], 3)))
    log("wrote %s" % path)


def load(name):
    """(names, rows of mpf, header lines) of tests/corpus/data/<name>.csv."""
    path = os.path.join(DATA, name + ".csv")
    head, rows = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                head.append(line.rstrip())
            elif line.startswith("t,"):
                names = line.strip().split(",")
            elif line.strip():
                rows.append([mpf(x) for x in line.strip().split(",")])
    return names, rows, head


if __name__ == "__main__":
    for nm in sys.argv[1:] or list(cases()):
        generate(nm, log=lambda m: print(m, flush=True))


# ---- the comparison the checks make ------------------------------------------

def check(name, runs, published, need, need_pub, data_max, recheck=True):
    """The corpus check of a stiff case (tests/corpus/check_<name>.py):
    1. tests/corpus/data/<name>.csv: its two runs agree to data_max (mixed,
       the error weights of cases()) at every checkpoint, and its values at
       the end time agree with the published ones to need_pub digits;
    2. hdo at 30 digits, one run per entry of runs (extra hdo run arguments
       such as --until and --every), at every checkpoint that is one of its
       output times: need digits against the data file, and the published
       values at the end time to need_pub digits.
    The measure is |a - b| / (w + |b|) per component, w its error weight.
    With recheck, run 1 is recomputed up to the first checkpoint to show
    that the file is what this script computes."""
    import hdocheck as H
    H.NAME = name
    mp.dps = 50
    names, rows, head = load(name)
    w = cases()[name][0]()[1]
    comps = names[1:-1]
    worst_agree = max(r[-1] for r in rows)
    if not worst_agree <= data_max:
        H.fail("tests/corpus/data/%s.csv: its two runs agree only to %s (need %s): regenerate it"
               % (name, mp.nstr(worst_agree, 3), mp.nstr(data_max, 2)))
    if recheck:
        # The file must be what this script computes: run 1 is recomputed
        # to the first checkpoint (cheap: its first steps) and must differ
        # from the stored run-2 value by exactly the recorded agreement
        # (deterministic arithmetic; equal to its 3 printed digits).
        mk, s, cps, h0, tols = cases()[name]
        P, _ = mk()
        rtol = mpf(tols[0])
        P.atol = [rtol * x for x in w]
        v1 = integrate(P, s, rtol, cps[:1], h0)[0][0]
        a = max(fabs(v1[m] - rows[0][1 + m]) / (w[m] + fabs(rows[0][1 + m])) for m in range(len(comps)))
        if not fabs(a - rows[0][-1]) <= rows[0][-1] / 100:
            H.fail("tests/corpus/data/%s.csv is not what tests/corpus/stiffref.py computes: at t=%s run 1 "
                   "recomputed differs from the stored value by %s, the file says %s: regenerate it"
                   % (name, mp.nstr(rows[0][0], 6), mp.nstr(a, 3), mp.nstr(rows[0][-1], 3)))
    t_end = rows[-1][0]
    pub = H.Worst()
    for m, v in enumerate(comps):
        ref = mpf(published[v])
        pub.add(H.digits(rows[-1][1 + m], ref, w[m] + fabs(ref)), "%s at t=%s (data file)" % (v, mp.nstr(t_end, 6)))
    if pub.d < need_pub:
        H.fail("the data file's values at t=%s agree with the published ones to %.1f digits only (need %d), worst %s"
               % (mp.nstr(t_end, 6), float(pub.d), need_pub, pub.where))
    worst = H.Worst()
    seen = set()
    for args in runs:
        tr = H.Traj(H.run(name, 30, args=args))
        times = [(tr.t(r), r) for r in tr.grid()]
        for row in rows:
            tc = row[0]
            hit = [r for t, r in times if fabs(t - tc) <= tc * mpf(10) ** -40]
            if not hit:
                continue
            seen.add(mp.nstr(tc, 10))
            for m, v in enumerate(comps):
                worst.add(H.digits(tr.val(hit[-1], v), row[1 + m], w[m] + fabs(row[1 + m]), cap=30),
                          "%s at t=%s" % (v, mp.nstr(tc, 6)))
            if tc == t_end:
                for m, v in enumerate(comps):
                    ref = mpf(published[v])
                    pub.add(H.digits(tr.val(hit[-1], v), ref, w[m] + fabs(ref)), "%s at t=%s (hdo)" % (v, mp.nstr(tc, 6)))
    if mp.nstr(t_end, 10) not in seen:
        H.fail("no hdo output row at the end time %s" % mp.nstr(t_end, 10))
    msg = ("%.1f digits against the 50-digit Radau IIA data at %d checkpoints (need %d; the data's own two runs"
           " agree to %s); %.1f digits of the published values at t=%s (need %d)"
           % (float(worst.d), len(seen), need, mp.nstr(worst_agree, 2), float(pub.d), mp.nstr(t_end, 6), need_pub))
    if worst.d < need:
        H.fail(msg + ", worst at " + worst.where)
    if pub.d < need_pub:
        H.fail(msg + ", worst at " + pub.where)
    print("PASS %s: %s" % (name, msg))
    H._cleanup()
    sys.exit(0)
