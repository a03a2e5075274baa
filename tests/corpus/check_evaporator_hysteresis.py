#!/usr/bin/env python3
"""check_evaporator_hysteresis -- KM Example 18 with `chattering hysteresis 0.0004`:
low leaves at L = L_th + 0.0004, high at L = L_th - 0.0004; every arc by the matrix
exponential of check_evaporator (mpmath.expm, 50 digits), every switch by findroot;
the whole switch sequence in [0, 20] and p, L at every 5th event and on the grid."""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_evaporator as E
from mpmath import mpf

if __name__ == "__main__":
    E.run_check("evaporator_hysteresis", mpf("0.0004"))
