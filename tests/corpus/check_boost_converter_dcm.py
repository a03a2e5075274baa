#!/usr/bin/env python3
"""check_boost_converter_dcm -- the ideal boost converter with R = 100 (discontinuous
conduction every period), by matrix exponentials: see check_boost_converter_ccm
(the same exact simulator; the DCM arcs have iL = 0 exactly)."""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_boost_converter_ccm as B

if __name__ == "__main__":
    B.run_check("boost_converter_dcm", 100)
