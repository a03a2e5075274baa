#!/usr/bin/env python3
"""check_car_axis -- the car axis problem against the published reference at t = 3.

Reference: Test Set for IVP Solvers (Mazzia, Magherini), problem "car axis",
routine soln/carsoln: the authors' quadruple-precision RADAU5 run printed with
16 significant digits (repeated verbatim in every driver of the test set, e.g.
the MEBDFI and MATLAB drivers).  The check compares all ten components at t = 3
in the mixed measure |hdo - ref|/(1 + |ref|) (the test set's mescd with
atol/rtol = 1).  Only 16 printed digits were found (no ~20-digit reference in
the stored sources), and they are not all significant: hdo at 30 and at 40
digits agrees with itself to 30 digits but with the published values only to
about 12 digits in the positions and 10 (mixed; 7 relative) in the multipliers,
the accuracy one expects of a reference computed with a finite tolerance.  The
check therefore needs 9 mixed digits: it catches any modelling error, but not
errors of hdo below 1e-9.  A 20+-digit independent reference is an open item.
"""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdocheck as H
from mpmath import mp, mpf, fabs

mp.dps = 50
REF = [("xl", "0.4934557842755629e-1"), ("yl", "0.4969894602303324e+0"),
       ("xr", "0.1041742524885400e+1"), ("yr", "0.3739110272652214e+0"),
       ("ul", "-0.7705836840321485e-1"), ("vl", "0.7446866596327776e-2"),
       ("ur", "0.1755681574942899e-1"), ("vr", "0.7703410437794031e+0"),
       ("lambda1", "-0.4736886750784630e-2"), ("lambda2", "-0.1104680411345730e-2")]


def main():
    H.NAME = "car_axis"
    out = H.run("car_axis", 30)
    tr = H.Traj(out)
    last = tr.last()
    if tr.t(last) != 3:
        H.fail("last row at t = %s, not 3" % last[0])
    w_ = H.Worst()
    for v, s in REF:
        ref = mpf(s)
        w_.add(H.digits(tr.val(last, v), ref, 1 + fabs(ref)), "%s at t=3" % v)
    H.finish(w_, 9, "mixed digits against the 16 published digits (reference-limited)")


if __name__ == "__main__":
    main()
