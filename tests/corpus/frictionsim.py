"""frictionsim -- exact piecewise-linear simulation of masses with Coulomb friction
interfaces (independent of hdo's Filippov construction), for the corpus checks.

Model: M v' = K x + b + u_vec sin(om t) + sum_j n_j F_j,  x' = v.  Interface j
has relative velocity r_j = a_j . v - vd_j; slipping: F_j = s_j Fc_j (s_j = sign
r_j); stuck: r_j = 0 kept, F_j solved from a_j . v' = 0 (the physical stick force,
which equals the Filippov sliding field here: the paper's closed forms (56)-(60)
for the three-block system, the decoupled stick condition for the belt).
Stuck j is left where |F_j| reaches Fc_j (into slip with s_j = sign F_j); a slip
arc ends where r_j = 0, then stuck if all stick forces stay within their limits,
else the interfaces whose stick forces would exceed their limits slip in the
direction of those forces (checked consistent).  The augmented state z = (x, v, 1, sin, cos) makes every
configuration linear: z' = A z, arcs by mpmath.expm (pwlin)."""
from mpmath import mp, mpf, matrix, lu_solve, expm, fabs
import pwlin as W


def first_root(A, z0, t0, t1, guards, n=64):
    """pwlin.first_root with the root refined by a few bisection steps and
    then Newton's method on c . expm(A (t - t0)) z0 (derivative c . A z),
    kept inside the bracket (far fewer matrix exponentials than 40
    bisections; the roots here are simple: a guard that starts at 0 and
    leaves feasibly is not an event, as in pwlin)."""
    eps = mpf(10) ** (-mp.dps + 8)
    h = (t1 - t0) / n
    P = expm(A * h)
    z = z0
    prev = [W.dot(c, z) for _, c in guards]
    for k in range(1, n + 1):
        zn = P * z
        cur = [W.dot(c, zn) for _, c in guards]
        hits = []
        for gi, (key, c) in enumerate(guards):
            a, b = prev[gi], cur[gi]
            if not (b < 0 and a >= 0):
                continue
            ta, tb = t0 + (k - 1) * h, t0 + k * h
            if fabs(a) <= eps:
                hits.append((ta, gi))
                continue
            lo, hi = ta, tb
            zl = z
            for _ in range(6):
                mid = (lo + hi) / 2
                zm = expm(A * (mid - ta)) * zl
                if W.dot(c, zm) >= 0:
                    lo, zl, ta = mid, zm, mid
                else:
                    hi = mid
            r = (lo + hi) / 2
            for _ in range(60):
                zr = expm(A * (r - lo)) * zl
                f = W.dot(c, zr)
                d = W.dot(c, A * zr)
                rn = r - f / d if d != 0 else (lo + hi) / 2
                if f >= 0:
                    lo, zl = r, zr
                else:
                    hi = r
                if not (lo <= rn <= hi):
                    rn = (lo + hi) / 2
                if fabs(rn - r) <= fabs(r) * mpf(10) ** (-mp.dps + 3):
                    r = rn
                    break
                r = rn
            hits.append((r, gi))
        if hits:
            r, gi = min(hits)
            return r, guards[gi][0], expm(A * (r - t0)) * z0
        prev = cur
        z = zn
    return None


class System:
    def __init__(self, masses, K, b, uvec, om, ifaces):
        """ifaces: list of (a_j, n_j, Fc_j, vd_j) with a_j, n_j lists of length n."""
        self.n = len(masses)
        self.m = masses
        self.K, self.b, self.uvec, self.om = K, b, uvec, om
        self.ifaces = ifaces
        self.N = 2 * self.n + 3

    def forces(self, conf, z):
        """friction forces F_j for configuration conf (tuple of +1/-1/0) at z"""
        n = self.n
        x = [z[i] for i in range(n)]
        base = [sum(self.K[i][k] * x[k] for k in range(n)) + self.b[i] * z[2 * n] + self.uvec[i] * z[2 * n + 1] for i in range(n)]
        F = [mpf(0)] * len(self.ifaces)
        stuck = [j for j, s in enumerate(conf) if s == 0]
        for j, s in enumerate(conf):
            if s != 0:
                F[j] = s * self.ifaces[j][2] * z[2 * n]   # affine: times the constant state 1
        if stuck:
            # a_j . M^-1 (base + sum n F) = 0 for stuck j
            acc0 = [(base[i] + sum(self.ifaces[j][1][i] * F[j] for j in range(len(F)) if conf[j] != 0)) / self.m[i] for i in range(n)]
            Mx = matrix(len(stuck), len(stuck))
            rhs = matrix(len(stuck), 1)
            for r, j in enumerate(stuck):
                a = self.ifaces[j][0]
                rhs[r] = -sum(a[i] * acc0[i] for i in range(n))
                for cc, l in enumerate(stuck):
                    Mx[r, cc] = sum(a[i] * self.ifaces[l][1][i] / self.m[i] for i in range(n))
            sol = lu_solve(Mx, rhs)
            for r, j in enumerate(stuck):
                F[j] = sol[r]
        return F, base

    def deriv(self, conf, z):
        n = self.n
        F, base = self.forces(conf, z)
        d = [z[n + i] for i in range(n)]
        d += [(base[i] + sum(self.ifaces[j][1][i] * F[j] for j in range(len(F)))) / self.m[i] for i in range(n)]
        d += [0, self.om * z[2 * n + 2], -self.om * z[2 * n + 1]]
        return d

    def matrix(self, conf):
        A = matrix(self.N, self.N)
        for col in range(self.N):
            e = [mpf(0)] * self.N
            e[col] = mpf(1)
            d = self.deriv(conf, e)
            for r in range(self.N):
                A[r, col] = d[r]
        return A

    def force_rows(self, conf):
        """F_j as linear functionals of z (rows)"""
        rows = []
        for col in range(self.N):
            e = [mpf(0)] * self.N
            e[col] = mpf(1)
            rows.append(self.forces(conf, e)[0])
        return [[rows[col][j] for col in range(self.N)] for j in range(len(self.ifaces))]

    def guards(self, conf):
        n = self.n
        out = []
        Fr = self.force_rows(conf)
        for j, s in enumerate(conf):
            a, nvec, Fc, vd = self.ifaces[j]
            if s != 0:
                c = [mpf(0)] * self.N
                for i in range(n):
                    c[n + i] = s * a[i]
                c[2 * n] = -s * vd
                out.append((("slip-end", j), c))
            else:
                cp = [-Fr[j][k] for k in range(self.N)]
                cp[2 * n] += Fc
                cm = [Fr[j][k] for k in range(self.N)]
                cm[2 * n] += Fc
                out.append((("unstick", j, +1), cp))
                out.append((("unstick", j, -1), cm))
        return out

    def simulate(self, conf, z, t0, tend, n_scan=64, max_events=500):
        conf = tuple(conf)
        t = t0
        evs, arcs = [], []
        while len(evs) < max_events:
            A = self.matrix(conf)
            G = self.guards(conf)
            hit = first_root(A, z, t, tend, G, n=n_scan)
            if hit is None:
                arcs.append((conf, t, z, tend, A))
                return evs, arcs
            th, key, zh = hit
            arcs.append((conf, t, z, th, A))
            new = list(conf)
            j = key[1]
            if key[0] == "slip-end":
                # j sticks; every stuck interface whose stick force would
                # exceed its limit slips instead, in the direction of that
                # force; the result must be consistent (the remaining stick
                # forces within their limits, each new slip accelerating
                # into its own side), else the event is ambiguous here
                new[j] = 0
                F, _ = self.forces(tuple(new), zh)
                viol = [l for l in range(len(new)) if new[l] == 0 and fabs(F[l]) > self.ifaces[l][2]]
                for l in viol:
                    new[l] = 1 if F[l] > 0 else -1
                if viol:
                    F2, _ = self.forces(tuple(new), zh)
                    d = self.deriv(tuple(new), zh)
                    ok = all(fabs(F2[l]) < self.ifaces[l][2] for l in range(len(new)) if new[l] == 0)
                    for l in viol:
                        acc = sum(self.ifaces[l][0][i] * d[self.n + i] for i in range(self.n))
                        ok = ok and acc * new[l] > 0
                    if not ok:
                        raise RuntimeError("ambiguous slip-end at t = %s" % th)
            else:
                new[j] = key[2]
            evs.append((th, conf, tuple(new), zh))
            t, z, conf = th, zh, tuple(new)
        raise RuntimeError("too many events")


def state(arcs, t):
    for conf, t0, z0, t1, A in arcs:
        if t0 <= t <= t1:
            return expm(A * (t - t0)) * z0
