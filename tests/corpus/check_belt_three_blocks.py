#!/usr/bin/env python3
"""check_belt_three_blocks -- three blocks on a belt (Aljarbouh-Caillaud case study 2).

Independent formulation (frictionsim): each block's stick condition decouples,
|u_j - k_j x_j| < F_cj, with x_j' = v_d, v_j = v_d while stuck; every configuration
(8 slip patterns and their stuck subsets) is linear and integrated exactly by the
matrix exponential of the 9x9 augmented system (mpmath.expm, 50 digits); events
(slip ends, unsticking) by findroot.  Compared: the number and times of all
events in (0, 100] (kinds and mode names not compared: hdo names its sliding
modes itself), and x_j, v_j on the output grid and at t = 100.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import frictionsim as FS
from mpmath import mp, mpf, matrix

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


def main():
    H.NAME = "belt_three_blocks"
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
    H.finish(w_, need, "%d events: %s" % (len(evs), ", ".join(mp.nstr(x[0], 8) for x in evs)))


if __name__ == "__main__":
    main()
