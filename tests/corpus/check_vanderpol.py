#!/usr/bin/env python3
"""check_vanderpol -- Van der Pol, mu = 1000, scaled (y' = z, z' = mu^2((1 - y^2) z - y)),
on [0, 2] against an independent 50-digit Radau IIA run and the Test Set's
published values.

1. tests/corpus/data/vanderpol.csv holds y, z at t = 0.1, 0.2, ..., 2 from
   tests/corpus/stiffref.py: Radau IIA with 12 stages (order 23) in mpmath
   at 50 digits, run twice (rtol 1e-30 and 1e-34, step doubling); the two
   runs must agree to 1e-27 (mixed measure |a - b|/(1 + |b|)).  Regenerate
   with `/usr/bin/python3 tests/corpus/stiffref.py vanderpol` (minutes); it
   is stored because that is too long for `make check`; the check recomputes
   run 1 to t = 0.1 (24 steps) and finds the recorded agreement again, so the
   file is what the script computes.  Nothing in it comes from hdo.
2. The Test Set for IVP Solvers, problem VDPOL (eps = 1e-6 = 1/mu^2, the same
   scaled equation; vdpol.f, solut: RADAU in extended precision, uround
   1e-19, rtol = atol = 1.1e-18) prints y(2) = 0.1706167732170483e1 and
   z(2) = -0.8928097010247975 (16 digits, about 14 of them right): the data
   file and hdo must agree with them to NEED_PUB mixed digits.  (Some copies
   of the test set, e.g. R's deTestSet, give 0.1706167732170469e1 and
   -0.8928097010248125e-3 instead: the unscaled equation on [0, 2000], whose
   x' is z/mu.)
3. hdo at 30 digits with --every 0.1: NEED digits against the data file at
   all twenty checkpoints, including t = 0.8 just before the fast jump
   (t = 0.807) and t = 0.9 after it.
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpmath import mpf
import stiffref

PUBLISHED = {"y": "0.1706167732170483e1", "z": "-0.8928097010247975"}
NEED = 25
NEED_PUB = 13

if __name__ == "__main__":
    stiffref.check("vanderpol", [("--every", "0.1")], PUBLISHED, NEED, NEED_PUB, mpf("1e-27"))
