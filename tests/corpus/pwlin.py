"""pwlin -- exact arcs of piecewise-affine systems for the corpus checks.

An arc is z(t) = expm(A (t - t0)) z0 for an augmented state z (the affine and
sinusoidal inputs are extra states: 1' = 0, s' = w c, c' = -w s), evaluated with
mpmath.expm at the working precision.  Guards are linear functionals c . z that
are feasible while >= 0.  first_root() scans the arc in sub-steps (one matrix
exponential, then powers) and refines the first sign change with findroot
(bisection-safe: anderson on a bracket, then checked)."""
from mpmath import mp, mpf, expm, matrix, findroot, fabs


def vec(z):
    return matrix(z)


def dot(c, z):
    return sum(c[i] * z[i] for i in range(len(c)))


def flow(A, z0, dt):
    return expm(A * dt) * z0


def first_root(A, z0, t0, t1, guards, n=64, eps=None):
    """guards: list of (key, c).  Returns (t, key, z) of the first guard that
    becomes negative in (t0, t1], or None.  A guard that is 0 at t0 and
    positive just after is not an event (leaves in the feasible direction)."""
    eps = eps if eps is not None else mpf(10) ** (-mp.dps + 8)
    h = (t1 - t0) / n
    P = expm(A * h)
    z = z0
    prev = [dot(c, z) for _, c in guards]
    for k in range(1, n + 1):
        zn = P * z
        cur = [dot(c, zn) for _, c in guards]
        hits = []
        for gi, (key, c) in enumerate(guards):
            a, b = prev[gi], cur[gi]
            if b < 0 and a >= 0:
                ta, tb = t0 + (k - 1) * h, t0 + k * h
                if fabs(a) <= eps:          # at 0 and going negative: immediate
                    hits.append((ta, gi))
                    continue
                f = lambda t: dot(c, expm(A * (t - t0)) * z0)
                # bisection to a small bracket, then secant
                lo, hi = ta, tb
                for _ in range(40):
                    mid = (lo + hi) / 2
                    if f(mid) >= 0:
                        lo = mid
                    else:
                        hi = mid
                try:
                    r = findroot(f, (lo, hi), solver="anderson")
                    if not (lo - (hi - lo) <= r <= hi + (hi - lo)):
                        raise ValueError
                except Exception:
                    r = lo
                    for _ in range(mp.prec):
                        mid = (lo + hi) / 2
                        if f(mid) >= 0:
                            lo = mid
                        else:
                            hi = mid
                    r = (lo + hi) / 2
                hits.append((r, gi))
        if hits:
            r, gi = min(hits)
            return r, guards[gi][0], expm(A * (r - t0)) * z0
        prev = cur
        z = zn
    return None
