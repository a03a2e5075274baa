#!/usr/bin/env python3
"""check_three_block_friction -- Aljarbouh-Caillaud case study 1 (two friction interfaces).

Independent formulation (frictionsim): the physical stick forces, which reproduce
the paper's closed-form sliding fields (56)-(59) on each face (common acceleration
(A -+ F_c2)/(m + M1) etc., A = u - k x_m) and (60) on the intersection (all three
together, acceleration A/3); each configuration is linear with the forcing
u = 0.1 sin(0.073 t) carried by two extra states, so every arc is the matrix
exponential of a 9x9 matrix (mpmath.expm, 50 digits); events by findroot.  The
face fields (56)-(60) are asserted against frictionsim at a sample state.
Compared: number and times of all events in (0, 120], and the six states on the
output grid and at t = 120.  Pointwise on every output row of hdo (grid and
event rows): the mode hdo reports is the configuration of the reference there
(rows within 10^-10 of an event excepted), a row on a face or on the
intersection lies on its surfaces (v_m = v_M1 and/or v_m = v_M2), and the
paper's closed-form stick force of that face, from (56)-(60) -- M1 (A -+ F_c2)/2
on a, M2 (A -+ F_c1)/2 on b, A/3 on both surfaces of the intersection --
evaluated at hdo's state is within its friction limit.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
import frictionsim as FS
from mpmath import mp, mpf, matrix, fabs

mp.dps = 50
m = M1 = M2 = mpf(1)
k = mpf(88) / 100
Fc1, Fc2 = mpf(1996) / 100000, mpf(62) / 1000
Aamp, om = mpf(1) / 10, mpf(73) / 1000
# states (xm, xM1, xM2, vm, vM1, vM2); interface 1: r1 = vm - vM1, force -F1 on m, +F1 on M1
SYS = FS.System([m, M1, M2], [[-k, 0, 0], [0, 0, 0], [0, 0, 0]], [0, 0, 0], [Aamp, 0, 0], om,
                [([1, -1, 0], [-1, 1, 0], Fc1, 0), ([1, 0, -1], [-1, 0, 1], Fc2, 0)])
X0 = ["0.8295", "0.8491", "0.3725", "0.5932", "0.8726", "0.9335"]
NAMES = ["xm", "xM1", "xM2", "vm", "vM1", "vM2"]


def check_fields():
    z = [mpf("0.1"), 0, 0, mpf("0.3"), mpf("0.3"), mpf("0.3"), 1, mpf("0.5"), mpf("0.8")]
    Au = Aamp * z[7] - k * z[0]
    d = SYS.deriv((0, 1), z)            # face a1: (56)
    assert fabs(d[3] - (Au - Fc2) / (m + M1)) < mpf(10) ** -45 and fabs(d[4] - d[3]) < mpf(10) ** -45 and fabs(d[5] - Fc2 / M2) < mpf(10) ** -45
    d = SYS.deriv((0, -1), z)           # face a2: (57)
    assert fabs(d[3] - (Au + Fc2) / (m + M1)) < mpf(10) ** -45 and fabs(d[5] + Fc2 / M2) < mpf(10) ** -45
    d = SYS.deriv((1, 0), z)            # face b1: (58)
    assert fabs(d[3] - (Au - Fc1) / (m + M2)) < mpf(10) ** -45 and fabs(d[4] - Fc1 / M1) < mpf(10) ** -45
    d = SYS.deriv((-1, 0), z)           # face b2: (59)
    assert fabs(d[3] - (Au + Fc1) / (m + M2)) < mpf(10) ** -45 and fabs(d[4] + Fc1 / M1) < mpf(10) ** -45
    d = SYS.deriv((0, 0), z)            # intersection: (60)
    assert all(fabs(d[i] - Au / (m + M1 + M2)) < mpf(10) ** -45 for i in (3, 4, 5))


# hdo's mode names for the configurations (sign of v_r1, sign of v_r2; 0: stuck)
MODE = {(1, 1): "q1", (-1, 1): "q2", (-1, -1): "q3", (1, -1): "q4",
        (0, 1): "sliding(q1,q2)", (0, -1): "sliding(q3,q4)",
        (1, 0): "sliding(q1,q4)", (-1, 0): "sliding(q2,q3)",
        (0, 0): "sliding(q1,q2,q3,q4)"}


def pointwise(tr, evs, arcs, w_):
    """mode, surfaces and the closed-form stick forces at every row of hdo"""
    etimes = [e[0] for e in evs]
    conf_of = {v: k for k, v in MODE.items()}
    for r in tr.rows:
        t = tr.t(r)
        if tr.mode(r) not in conf_of:
            H.fail("unknown mode %s at t=%s" % (tr.mode(r), r[0]))
        c = conf_of[tr.mode(r)]
        if all(fabs(t - te) > mpf(10) ** -10 for te in etimes):
            ref = [a[0] for a in arcs if a[1] <= t <= a[3]][0]
            if ref != c:
                H.fail("mode %s at t=%s, the reference is in %s" % (tr.mode(r), r[0], MODE[ref]))
        xm, vm, vM1, vM2 = (tr.val(r, v) for v in ("xm", "vm", "vM1", "vM2"))
        Au = Aamp * mp.sin(om * t) - k * xm
        if c[0] == 0:
            w_.add(H.digits(vm, vM1, 1), "v_m = v_M1 at t=%s" % r[0][:10])
        if c[1] == 0:
            w_.add(H.digits(vm, vM2, 1), "v_m = v_M2 at t=%s" % r[0][:10])
        if c == (0, 0):                     # (60): all three together
            F1 = F2 = Au / 3
        elif c[0] == 0:                     # (56), (57): m and M1 together
            F1, F2 = M1 * (Au - c[1] * Fc2) / (m + M1), None
        elif c[1] == 0:                     # (58), (59): m and M2 together
            F1, F2 = None, M2 * (Au - c[0] * Fc1) / (m + M2)
        else:
            F1 = F2 = None
        slack = mpf(10) ** -20
        for F, Fc, nm in ((F1, Fc1, "F1"), (F2, Fc2, "F2")):
            if F is not None and fabs(F) > Fc + slack:
                H.fail("stick force %s = %s beyond its limit %s at t=%s in %s"
                       % (nm, mp.nstr(F, 10), mp.nstr(Fc, 10), r[0], tr.mode(r)))


def main():
    H.NAME = "three_block_friction"
    D = 30
    need = D - 5
    check_fields()
    tend = mpf(120)
    z0 = matrix([mpf(s) for s in X0] + [1, 0, 1])
    evs, arcs = SYS.simulate((-1, -1), z0, mpf(0), tend, n_scan=600)
    out = H.run("three_block_friction", D)
    ev = [x for x in H.events(out, skip_t0=0) if x["t"] < tend]
    w_ = H.Worst()
    H.compare_events(ev, [(x[0], None) for x in evs], w_, check_kinds=False)
    tr = H.Traj(out)
    for r in tr.grid(10) + [tr.last()]:
        z = FS.state(arcs, tr.t(r))
        for i, v in enumerate(NAMES):
            w_.add(H.digits(tr.val(r, v), z[i], 1), "%s at t=%s" % (v, r[0][:10]))
    pointwise(tr, evs, arcs, w_)
    H.finish(w_, need, "%d events: %s" % (len(evs), ", ".join(mp.nstr(x[0], 8) + str(x[2]) for x in evs)))


if __name__ == "__main__":
    main()
