#!/usr/bin/env python3
"""check_belt_three_blocks -- three blocks on a belt (Aljarbouh-Caillaud case study 2).

Independent formulation (frictionsim): each block's stick condition decouples,
|u_j - k_j x_j| < F_cj, with x_j' = v_d, v_j = v_d while stuck; every configuration
(8 slip patterns and their stuck subsets) is linear and integrated exactly by the
matrix exponential of the 9x9 augmented system (mpmath.expm, 50 digits); events
(slip ends, unsticking) by findroot.  Compared: the number and times of all
events in (0, 100] (kinds not compared), and x_j, v_j on the output grid and at
t = 100.  Pointwise on every output row of hdo: its mode is the reference
configuration there (a stuck block j: the sliding mode over both signs of j,
named by its modes in file order; rows within 10^-10 of an event excepted),
v_j = v_d for every stuck block, and its stick force |u_j - k_j x_j| at hdo's
state is within F_cj.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import frictionsim as FS
from mpmath import mp, mpf, matrix, fabs

mp.dps = 50
k = mpf(1) / 100
vd = mpf(1) / 2
Fc = [mpf(14) / 100, mpf(13) / 100, mpf(12) / 100]
# m x'' = u - k_j x_j - F_j ; u1 = k12 (x2 - x1) + k13 (x3 - x1) ...
K = [[-3 * k, k, k], [k, -3 * k, k], [k, k, -3 * k]]
e = lambda i: [1 if q == i else 0 for q in range(3)]
ne = lambda i: [-1 if q == i else 0 for q in range(3)]
SYS = FS.System([mpf(1)] * 3, K, [0, 0, 0], [0, 0, 0], mpf(0), [(e(j), ne(j), Fc[j], vd) for j in range(3)])
X0 = ["4.7799", "0.2797", "4.0038", "1.7144", "1.2922", "4.1263"]
NAMES = ["x1", "x2", "x3", "v1", "v2", "v3"]


def check_decoupled():
    """the stick force of block j (the friction force that cancels
    u_j - k_j x_j) involves its own spring and coupling forces only,
    whatever the other blocks do"""
    z = [mpf("0.3"), mpf("-1.1"), mpf("2.5"), vd, vd, vd, 1, 0, 1]
    F, _ = SYS.forces((0, 0, 0), z)
    for j in range(3):
        own = sum(K[j][q] * z[q] for q in range(3))
        assert fabs(F[j] - own) < mpf(10) ** -45, (j, F[j], own)
        for other in ((1, 1, 1), (-1, -1, -1), (1, -1, 1)):
            conf = tuple(0 if q == j else other[q] for q in range(3))
            assert fabs(SYS.forces(conf, z)[0][j] - F[j]) < mpf(10) ** -45


ORDER = ["ppp", "ppm", "pmp", "pmm", "mpp", "mpm", "mmp", "mmm"]   # file order


def mode_name(conf):
    ok = [q for q in ORDER if all(c == 0 or q[j] == ("p" if c > 0 else "m") for j, c in enumerate(conf))]
    return ok[0] if len(ok) == 1 else "sliding(%s)" % ",".join(ok)


def pointwise(tr, evs, arcs, w_):
    etimes = [e[0] for e in evs]
    for r in tr.rows:
        t = tr.t(r)
        if all(fabs(t - te) > mpf(10) ** -10 for te in etimes):
            ref = [a[0] for a in arcs if a[1] <= t <= a[3]][0]
            if tr.mode(r) != mode_name(ref):
                H.fail("mode %s at t=%s, the reference is in %s" % (tr.mode(r), r[0], mode_name(ref)))
        x = [tr.val(r, "x%d" % (j + 1)) for j in range(3)]
        name = tr.mode(r)
        stuck = [j for j in range(3) if name.startswith("sliding(") and
                 len({q[j] for q in name[8:-1].split(",")}) == 2]
        for j in stuck:
            w_.add(H.digits(tr.val(r, "v%d" % (j + 1)), vd, 1), "v%d = vd at t=%s" % (j + 1, r[0][:10]))
            F = sum(K[j][q] * x[q] for q in range(3))
            if fabs(F) > Fc[j] + mpf(10) ** -20:
                H.fail("stick force of block %d = %s beyond %s at t=%s" % (j + 1, mp.nstr(F, 10), mp.nstr(Fc[j], 10), r[0]))


def main():
    H.NAME = "belt_three_blocks"
    check_decoupled()
    D = 30
    need = D - 5
    tend = mpf(100)
    z0 = matrix([mpf(s) for s in X0] + [1, 0, 1])
    evs, arcs = SYS.simulate((1, 1, 1), z0, mpf(0), tend, n_scan=400)
    out = H.run("belt_three_blocks", D)
    ev = [x for x in H.events(out, skip_t0=0) if x["t"] < tend]
    w_ = H.Worst()
    H.compare_events(ev, [(x[0], None) for x in evs], w_, check_kinds=False)
    tr = H.Traj(out)
    for r in tr.grid(10) + [tr.last()]:
        z = FS.state(arcs, tr.t(r))
        for i, v in enumerate(NAMES):
            w_.add(H.digits(tr.val(r, v), z[i], 10), "%s at t=%s" % (v, r[0][:10]))
    pointwise(tr, evs, arcs, w_)
    H.finish(w_, need, "%d events: %s" % (len(evs), ", ".join(mp.nstr(x[0], 8) for x in evs)))


if __name__ == "__main__":
    main()
