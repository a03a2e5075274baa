#!/usr/bin/env python3
"""check_emep -- the Test Set's EMEP problem (66 species, cases/emep.hdae)
at t = 417600 against the published values.

The Test Set for IVP Solvers, problem EMEP (emep.f, solut), prints the
solution at t = 417600 computed by RADAU5 with rtol = 1e-14 and atol =
1e-8 (17,817 steps): 16 digits printed, of which the tolerance allows
about 14 on the large components; the absolute tolerance 1e-8 leaves
y[38] (O(1D), 8e-38 at night) without a digit.  hdo must agree with
each component above 1e-30 to the digits in NEED (the measured
agreement minus half a digit).

O (y[36]) is not held to its published value.  t = 417600 is the
sunset itself (20 h); the published O, 3.7279265, is the day's side
(the night's rates give 1.09 there), but it is 4.8 digits off O's own
equation: O relaxes in 1.3e-5 s, so O(T) follows from the other species
over the last milliseconds.  o_ref() below solves O' = P(t) - L(t) O by
quadrature in mpmath, P and L from the published values of the other
species (cubics in t over the last 2 ms, their derivatives from the
model's day right-hand side): 3.72798171449, against which hdo agrees
to 11.9 digits and the published O to 4.8 (decisions.md D-098).
Nothing here comes from hdo.

usage: check_emep.py [DIR]   (DIR: an `hdo run` output of cases/emep.hdae
to check instead of running it at 16 digits)
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import re
from mpmath import mp, mpf, log10, exp, cos, sin, sqrt, pi, quad
import hdocheck

PUBLISHED = """
0.2564580511140732e+08 0.5146134770952715e+11 0.2315679957701715e+12
0.1130936599472892e+14 0.3459285326034955e+14 0.1027236550974901e+12
0.8508735586836855e+11 0.4131285674624012e+10 0.1270937854717943e+10
0.5632880890404914e+10 0.8263821552730888e+11 0.3293552658908353e+11
0.1054058186206315e+12 0.3150308585365321e+13 0.2488383936633755e+08
0.1097565615411556e+11 0.1365196557629180e+11 0.3852048230503094e+12
0.1137462721600089e+09 0.2850982205905218e+11 0.3786933619791445e+12
0.3832384333863027e+10 0.4804939902203071e+07 0.3390546081092960e+08
0.3494452929972591e+11 0.1490576370801779e+08 0.1000567871868853e+08
0.1856753061984312e+10 0.2272206156875160e+07 0.5168375883757783e+10
0.2317595952406701e+07 0.3035139656996921e+10 0.5928979479102226e+07
0.2515297290687841e+10 0.4569678276203798e+07 0.3727926507368739e+01
0.4063589349848112e+05 0.8159151146269279e-37 0.5577590724412284e+09
0.7684596616753747e+09 0.5338491777959816e+10 0.6048604025328409e+12
0.4222237216819787e+08 0.3681852767009784e+10 0.5835731567978018e+07
0.1456507159081862e+10 0.8862868684014137e+10 0.9338753312528582e+09
0.3595753586682656e+10 0.4622427584057254e+09 0.2395910064875511e+09
0.6080936586253302e+10 0.7704108297342240e+09 0.3386220860753221e+10
0.1838264387030593e+10 0.1973252346091884e+10 0.1313403940892729e+07
0.1344471764571674e+10 0.2568483117244701e+07 0.1131854591900057e+10
0.4591537937818946e+07 0.8609382282952802e+09 0.3509560971283513e+09
0.6682350971104786e+09 0.3207356403011160e+09 0.1144987634882048e+09
""".split()

# the digits hdo must reach against each published value (index 1..66;
# measured at 16 digits minus half a digit, at most 14); y[36] (O)
# against O_REF, not against its published value (above).
NEED = {1: 11.1, 2: 12.9, 3: 13.1, 4: 14.0, 5: 14.0, 6: 14.0, 7: 13.1,
        8: 12.9, 9: 12.7, 10: 12.7, 11: 13.3, 12: 13.4, 13: 13.4, 14: 13.8,
        15: 11.8, 16: 12.5, 17: 12.4, 18: 14.0, 19: 12.6, 20: 13.1,
        21: 14.0, 22: 12.5, 23: 12.5, 24: 13.1, 25: 13.6, 26: 12.4,
        27: 12.4, 28: 14.0, 29: 12.3, 30: 13.0, 31: 12.3, 32: 13.1,
        33: 12.3, 34: 13.2, 35: 12.4, 36: 11.4, 37: 11.9, 39: 11.3,
        40: 11.4, 41: 12.1, 42: 13.6, 43: 12.5, 44: 13.2, 45: 12.4,
        46: 13.2, 47: 13.6, 48: 13.6, 49: 14.0, 50: 14.0, 51: 14.0,
        52: 13.7, 53: 13.5, 54: 12.6, 55: 12.4, 56: 13.1, 57: 13.2,
        58: 14.0, 59: 13.2, 60: 11.4, 61: 12.2, 62: 13.8, 63: 13.5,
        64: 11.9, 65: 13.6, 66: 13.2}

def o_ref(pub):
    """O at T = 417600 (the left limit: day rates) from O' = P - L O, P
    and L from the other species pub[1..66], each a cubic in t over
    [T - 2 ms, T] from its derivatives in the model's day equations
    (read from cases/emep.hdae and evaluated here in mpmath, decimal
    constants exact): O(T) = int exp(-int_s^T L) P(s) ds, L = rc1 +
    rc5 y[1] a cubic too, so its integral is exact; O(T - 2 ms)'s share
    is exp(-154).  O weighs the species over the last 1e-4 s: with
    species linear in t the reference moves by 1e-16 of O, quadratic by
    4e-23; cubic, hdo's 30-digit O meets it to 28.5 digits."""
    mp.dps = 60
    with open(hdocheck.case_path("emep")) as f:
        src = f.read()
    env = {"exp": exp, "cos": cos, "sin": sin, "sqrt": sqrt, "pi": +pi,
           "mpf": mpf}

    def py(ex):  # decimal constants exact (a Python float is off 1e-17)
        ex = re.sub(r"(?<![\w.\[])(\d+\.?\d*(?:[eE][-+]?\d+)?)",
                    r"mpf('\1')", ex)
        return ex.replace("^", "**")
    for name, ex in re.findall(r"^param (\w+) = (.*)$", src, re.M):
        env[name] = eval(py(ex), {}, env)
    day = src.split("mode day")[1].split("\nend")[0]
    rhs = {int(k): compile(py(ex), "emep", "eval")
           for k, ex in re.findall(r"der\(y\[(\d+)\]\) = (.*)", day)}
    T, D, W = mpf(417600), mpf(345600), mpf("2e-3")
    K = range(1, 67)

    def f(y, t):
        e = dict(env)
        e.update(y=y, t=t, d=D)
        return [None] + [eval(rhs[k], {}, e) for k in K]
    y = [None] + [mpf(x) for x in pub]
    dy = f(y, T)
    # y'' and y''' by central differences along the curve (steps 1e-12
    # and 1e-8 at 60 digits: below 1e-30 of O)
    e1, e2 = mpf("1e-12"), mpf("1e-8")
    fp = f([None] + [y[k] + e1 * dy[k] for k in K], T + e1)
    fm = f([None] + [y[k] - e1 * dy[k] for k in K], T - e1)
    d2 = [None] + [(fp[k] - fm[k]) / (2 * e1) for k in K]
    fp = f([None] + [y[k] + e2 * dy[k] + e2 * e2 / 2 * d2[k] for k in K],
           T + e2)
    fm = f([None] + [y[k] - e2 * dy[k] + e2 * e2 / 2 * d2[k] for k in K],
           T - e2)
    d3 = [None] + [(fp[k] - 2 * dy[k] + fm[k]) / (e2 * e2) for k in K]

    def P(u):  # O's production at T - u
        z = [None] + [y[k] - u * (dy[k] - u * (d2[k] / 2 - u * d3[k] / 6))
                      for k in K]
        z[36] = mpf(0)
        e = dict(env)
        e.update(y=z, t=T - u, d=D)
        return eval(rhs[36], {}, e)
    # L(T - u) = l0 + l1 u + l2 u^2 + l3 u^3 from y[1]'s derivatives
    r1, r5 = env["rc1"], env["rc5"]
    l0, l1, l2, l3 = r1 + r5 * y[1], -r5 * dy[1], r5 * d2[1] / 2, \
        -r5 * d3[1] / 6
    cuts = [mpf(0)] + [mpf(k) / l0 for k in (1, 4, 16, 64)] + [W]
    lint = lambda u: u * (l0 + u * (l1 / 2 + u * (l2 / 3 + u * l3 / 4)))
    val = quad(lambda u: exp(-lint(u)) * P(u), cuts)
    mp.dps = 40
    return +val


if __name__ == "__main__":
    assert len(PUBLISHED) == 66
    if len(sys.argv) > 1:
        out = hdocheck.Traj(sys.argv[1])
    else:
        out = hdocheck.Traj(hdocheck.run("emep", digits=16,
                                         args=("--every", "40320")))
    last = out.last()
    if out.t(last) != 417600 or last[out.col["mode"]] != "day":
        hdocheck.fail("the last row is not t = 417600 in mode day (the "
                      "left limit at the sunset)", "emep")
    oref = o_ref(PUBLISHED)
    opub = mpf(PUBLISHED[35])
    worst = None
    for i, text in enumerate(PUBLISHED, 1):
        ref = oref if i == 36 else mpf(text)
        if ref < mpf("1e-30"):
            continue  # O(1D) at night: below the published atol
        var = "y[%d]" % i
        x = out.val(last, var)
        d = 99 if x == ref else float(-log10(abs(x - ref) / abs(ref)))
        need = NEED[i]
        if d < need:
            hdocheck.fail("%s = %s against %s: %.1f digits (need %.1f)"
                          % (var, x, "O's own equation, %s" % mp.nstr(ref, 15)
                             if i == 36 else "the published " + text, d, need),
                          "emep")
        worst = d if worst is None or d < worst else worst
    dpub = float(-log10(abs(opub - oref) / oref))
    print("PASS emep: 65 components at t = 417600 agree with the Test "
          "Set's published values (O: with O's own equation over the "
          "published species, %s; the published O is %.1f digits off it) "
          "to %.1f digits or more (their own accuracy)"
          % (mp.nstr(oref, 12), dpub, worst))
