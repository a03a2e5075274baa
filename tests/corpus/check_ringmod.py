#!/usr/bin/env python3
"""check_ringmod -- the Test Set's ring modulator (15 states,
cases/ringmod.hdae) at t = 1e-3 against the published values.

The Test Set for IVP Solvers, problem RINGMOD (ringmod.f, solut), prints
the solution at t = 1e-3 computed by RADAU with rtol = atol = 1e-12 (27,195
steps): 16 digits printed, about 10-12 of them right.  hdo runs at 16
digits and must agree with each of the fifteen components to the digits in
NEED (the measured agreement minus half a digit, 9.6-12.1 digits).
Nothing here comes from hdo.
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpmath import mpf, log10
import hdocheck

PUBLISHED = [
    ("-0.2339057358486745e-1", 10.1), ("-0.7367485485540825e-2", 9.7),
    ("0.2582956709291169e0", 9.0), ("-0.4064465721283450e0", 9.2),
    ("-0.4039455665149794e0", 9.2), ("0.2607966765422943e0", 9.0),
    ("0.1106761861269975e0", 11.0), ("0.2939904342435596e-6", 11.5),
    ("-0.2840029933642329e-7", 9.1), ("0.7267198267264553e-3", 10.9),
    ("0.7929487196960840e-3", 10.6), ("-0.7255283495698965e-3", 10.5),
    ("-0.7941401968526521e-3", 11.0), ("0.7088495416976114e-4", 10.3),
    ("0.2390059075236570e-4", 10.2),
]

if __name__ == "__main__":
    out = hdocheck.Traj(hdocheck.run("ringmod", digits=16,
                                     args=("--every", "1e-4")))
    last = out.last()
    worst = None
    for i, (text, need) in enumerate(PUBLISHED, 1):
        var = "y[%d]" % i
        x, ref = out.val(last, var), mpf(text)
        d = 99 if x == ref else float(-log10(abs(x - ref) / abs(ref)))
        if d < need:
            hdocheck.fail("%s = %s against the published %s: %.1f digits "
                          "(need %.1f)" % (var, x, text, d, need), "ringmod")
        worst = d if worst is None or d < worst else worst
    print("PASS ringmod: the fifteen components at t = 1e-3 agree with the "
          "Test Set's published values to %.1f digits or more (their own "
          "accuracy)" % worst)
