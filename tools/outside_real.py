#!/usr/bin/env python3
"""outside_real.py -- `hdo check` on real tools' results (issue 26): FMI
cross-check results (modelica/fmi-cross-check, results/...) of the Test
FMUs BouncingBall, Dahlquist, VanDerPol and Stair and of the FMUSDK models
dq and vanDerPol, simulated by MasterSim, SimGrid-FMI, OMSimulator,
Dymola, AMESim and AVL Model.CONNECT, and Octave's ode45 / ode15s on the
bouncing ball (csvwrite without a header, and with one).  The files are
third-party data and are not in the repository: FILES below says where each
comes from (repository path and commit); put them in one folder, under the
names given, and run

    tools/outside_real.py DIR [HDO]

Each file is judged twice.  First independently of hdo: its error against
the closed form (ball: the impact times and parabolas of the FMU's rule;
Dahlquist: exp(-t); Stair: 1 + floor(t); VanDerPol: an mpmath Taylor run,
mpmath.odefun at 25 digits), measured as hdo's tube is (distance of each
value from the range of the exact solution over [t - time_abs, t +
time_abs], over value_abs + value_rel |exact|), and the event-time error
over time_abs for a file that gives events (rows at one time that differ).
The right verdict is PASS below 1/10 of the tolerance, FAIL above 10
times it, undecided between (the rule of tools/outside_set.py).  Then hdo
check on it with the model and tolerance file of tests/outside/ (and
--columns for a file without a header).  Each file is judged at the
tolerance file's values and at 100 times them (a looser user).  Prints one line per file and
"outside_real: N passed, N failed" (right and wrong verdicts among the
decided); exit 1 on a wrong verdict, 2 when no file is found."""
import csv, math, os, subprocess, sys

import mpmath

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "tests", "outside", "models")
TOLS = os.path.join(ROOT, "tests", "outside", "tolerances")
XC = "modelica/fmi-cross-check"
# name in DIR, model, tool, origin (repository path), commit, hdo options,
# format notes (cosim: Dymola's two rows per output time, the held value
# first)
R = "results/2.0/cs/"
FILES = [
    ("simgrid-cs-0.0.2-BouncingBall_out.csv", "BouncingBall", "SimGrid-FMI 2019",
     R + "linux64/SimGrid-FMI/2019/Test-FMUs/0.0.2/BouncingBall/BouncingBall_out.csv",
     "5882474e64991e22d82a9ccb6840e1625f6931ce", [], ""),
    ("simgrid-cs-0.0.2-Dahlquist_out.csv", "Dahlquist", "SimGrid-FMI 2019",
     R + "linux64/SimGrid-FMI/2019/Test-FMUs/0.0.2/Dahlquist/Dahlquist_out.csv",
     "e7899a132370a654e2fad05bd31f6968ca5ef9f5", [], ""),
    ("simgrid-cs-0.0.2-Stair_out.csv", "Stair", "SimGrid-FMI 2019",
     R + "linux64/SimGrid-FMI/2019/Test-FMUs/0.0.2/Stair/Stair_out.csv",
     "e7899a132370a654e2fad05bd31f6968ca5ef9f5", [], ""),
    ("simgrid-cs-0.0.2-VanDerPol_out.csv", "VanDerPol", "SimGrid-FMI 2019",
     R + "linux64/SimGrid-FMI/2019/Test-FMUs/0.0.2/VanDerPol/VanDerPol_out.csv",
     "5882474e64991e22d82a9ccb6840e1625f6931ce", [], ""),
    ("mastersim-darwin64-cs2-0.0.2-BouncingBall_out.csv", "BouncingBall", "MasterSim 0.7.0",
     R + "darwin64/MasterSim/0.7.0/Test-FMUs/0.0.2/BouncingBall/BouncingBall_out.csv",
     "c046f3b7fbc139b66cc99ea73f4d7a0aa0764121", [], ""),
    ("mastersim-darwin64-cs2-0.0.2-Dahlquist_out.csv", "Dahlquist", "MasterSim 0.7.0",
     R + "darwin64/MasterSim/0.7.0/Test-FMUs/0.0.2/Dahlquist/Dahlquist_out.csv",
     "953e6ea610ef42ef06eeeb6c1a479a739b5bd831", [], ""),
    ("mastersim-darwin64-cs2-0.0.2-Stair_out.csv", "Stair", "MasterSim 0.7.0",
     R + "darwin64/MasterSim/0.7.0/Test-FMUs/0.0.2/Stair/Stair_out.csv",
     "5882474e64991e22d82a9ccb6840e1625f6931ce", [], ""),
    ("mastersim-darwin64-cs2-0.0.2-VanDerPol_out.csv", "VanDerPol", "MasterSim 0.7.0",
     R + "darwin64/MasterSim/0.7.0/Test-FMUs/0.0.2/VanDerPol/VanDerPol_out.csv",
     "4d104e32f2e1f9c95a46294f84a7eaa6c36cf888", [], ""),
    ("mastersim-win64-cs2-fmusdk-dq_out.csv", "Dahlquist", "MasterSim 0.7.0",
     R + "win64/MasterSim/0.7.0/FMUSDK/2.0.3/dq/dq_out.csv",
     "1ec0bdfa88531cf425aaa5c531dc43a73c2293d9", [], ""),
    ("oms-cs-0.0.1-Stair_out.csv", "Stair", "OMSimulator v2.1.1",
     R + "linux64/OMSimulator/v2.1.1/Test-FMUs/0.0.1/Stair/Stair_out.csv",
     "564c093109e04f0ca57c99679991628020c93d3c", [], ""),
    ("oms-cs-0.0.2-Stair_out.csv", "Stair", "OMSimulator v2.1.1",
     R + "linux64/OMSimulator/v2.1.1/Test-FMUs/0.0.2/Stair/Stair_out.csv",
     "564c093109e04f0ca57c99679991628020c93d3c", [], ""),
    ("dymola2016-cs2-fmusdk-dq_out.csv", "Dahlquist", "Dymola 2016",
     R + "win64/Dymola/2016/FMUSDK/2.0.3/dq/dq_out.csv",
     "d76bb92a801ea0618c2cd0d62a75dffb15eb6a14", [], "cosim"),
    ("amesim-cs2-fmusdk-dq_out.csv", "Dahlquist", "AMESim 15",
     R + "win64/AMESim/15/FMUSDK/2.0.4/dq/dq_out.csv",
     "d76bb92a801ea0618c2cd0d62a75dffb15eb6a14", [], ""),
    ("avl-cs2-fmusdk-dq_out.csv", "Dahlquist", "AVL Model.CONNECT v2019_R1",
     R + "win64/AVL_Model.CONNECT/v2019_R1/FMUSDK/2.0.3/dq/dq_out.csv",
     "98692fbc73956b4e0cae028197fb5b9b08197639", [], ""),
    ("avl-cs2-fmusdk-vanDerPol_out.csv", "VanDerPol", "AVL Model.CONNECT 2015.1",
     R + "win64/AVL_Model.CONNECT/2015.1/FMUSDK/2.0.3/vanDerPol/vanDerPol_out.csv",
     "d76bb92a801ea0618c2cd0d62a75dffb15eb6a14", [], ""),
    ("mastersim-win64-cs2-fmusdk-vanDerPol_out.csv", "VanDerPol", "MasterSim 0.7.0",
     R + "win64/MasterSim/0.7.0/FMUSDK/2.0.4/vanDerPol/vanDerPol_out.csv",
     "1ec0bdfa88531cf425aaa5c531dc43a73c2293d9", [], ""),
    ("oms-me-0.0.1-Dahlquist_out.csv", "Dahlquist", "OMSimulator v2.1.1",
     "results/2.0/me/linux64/OMSimulator/v2.1.1/Test-FMUs/0.0.1/Dahlquist/Dahlquist_out.csv",
     "564c093109e04f0ca57c99679991628020c93d3c", [], ""),
]
OCT = "tools/outside_real_ball.m (Octave 7.3.0)"
for name, cols in (("octave-ode45-tight-csvwrite.csv", True),
                   ("octave-ode45-default-header.csv", False),
                   ("octave-ode15s-default-header.csv", False),
                   ("octave-ode15s-rtol1e-6-csvwrite.csv", True)):
    FILES.append((name, "BouncingBall", "Octave " + name.split("-")[1], OCT, "-",
                  ["--columns", "time,h,v"] if cols else [], "noheader" if cols else ""))

# each file is checked at the tolerance file's values and at 100 times them
SCALES = (1.0, 100.0)
G, E, VMIN = 9.81, 0.7, 0.1
END = {"BouncingBall": 3.0, "Dahlquist": 10.0, "VanDerPol": 20.0, "Stair": 10.0}


def ball_flights():
    """[(t_start, v_start)] of each flight, and the time the ball rests."""
    t1 = math.sqrt(2 / G)
    fl, t, v = [(0.0, 0.0, 1.0)], t1, G * t1
    while True:
        v *= E
        if v < VMIN:
            return fl, t
        fl.append((t, v, 0.0))
        t += 2 * v / G


FLIGHTS, REST = ball_flights()
EVENTS = {"BouncingBall": [f[0] for f in FLIGHTS[1:]] + [REST],
          "Stair": [float(k) for k in range(1, 10)], "Dahlquist": [], "VanDerPol": []}


def vdp_solution():
    mpmath.mp.dps = 25
    return mpmath.odefun(lambda t, y: [y[1], (1 - y[0] ** 2) * y[1] - y[0]], 0, [2, 0])


VDP = None


def exact(model, t, side=1):
    """the exact values at t (side -1: the left limit at an event)."""
    global VDP
    if model == "Dahlquist":
        return {"x": math.exp(-t)}
    if model == "Stair":
        k = math.floor(t)
        if side < 0 and k == t:
            k -= 1
        return {"counter": float(1 + k)}
    if model == "VanDerPol":
        if VDP is None:
            VDP = vdp_solution()
        y = VDP(mpmath.mpf(t))
        return {"x0": float(y[0]), "x1": float(y[1])}
    if t > REST or (t == REST and side > 0):
        return {"h": 0.0, "v": 0.0}
    for s, v0, h0 in reversed(FLIGHTS):
        if t > s or (t == s and (side > 0 or s == 0)):
            u = t - s
            return {"h": h0 + v0 * u - G * u * u / 2, "v": v0 - G * u}
    return {"h": 1.0, "v": 0.0}


def tolerances(model, scale=1.0):
    tol = {}
    for line in open(os.path.join(TOLS, model + ".tol")):
        line = line.split("#")[0].split("=")
        if len(line) == 2:
            tol[line[0].strip()] = line[1].strip()
    return (scale * float(tol["time_abs"]), scale * float(tol["value_abs"]),
            scale * float(tol["value_rel"]), tol["variables"].split())


def read(path, names, notes):
    """rows (t, {var: value}) of the variables `names` the file has."""
    with open(path, newline="") as fh:
        rows = [r for r in csv.reader(fh) if r]
    if notes == "noheader":
        head, body = ["time"] + names, rows
    else:
        head, body = [c.strip() for c in rows[0]], rows[1:]
    idx = {n: head.index(n) for n in names if n in head}
    out = [(float(r[0]), {n: float(r[i]) for n, i in idx.items()}) for r in body]
    if notes == "cosim":  # the first row of each output time is the held value
        out = [r for i, r in enumerate(out) if not (i + 1 < len(out) and out[i + 1][0] == r[0])]
    return out


def expected(model, rows, scale):
    """(PASS|FAIL|None, worst value ratio, worst event ratio, events given)"""
    ta, va, vr, names = tolerances(model, scale)
    end, evs = END[model], EVENTS[model]
    worst = 0.0
    for t, vals in rows:
        pts = [(max(0.0, t + k * ta / 2), 1) for k in range(-2, 3)]
        pts += [(e, s) for e in evs if abs(e - t) <= ta for s in (-1, 1)]
        ex = [exact(model, p, s) for p, s in pts]
        for n, c in vals.items():
            lo, hi = min(x[n] for x in ex), max(x[n] for x in ex)
            band = va + vr * max(abs(lo), abs(hi))
            worst = max(worst, max(0.0, lo - c, c - hi) / band)
    # the file's events: rows at one time that differ by more than the band
    cand = []
    for i in range(1, len(rows)):
        (t0, a), (t1, b) = rows[i - 1], rows[i]
        if t0 == t1 and any(abs(a[n] - b[n]) > va + vr * max(abs(a[n]), abs(b[n])) for n in a):
            if not cand or cand[-1] != t1:
                cand.append(t1)
    last = rows[-1][0]
    cand = [c for c in cand if abs(c - end) > ta]
    ref = [e for e in evs if e <= last - ta and abs(e - end) > ta]
    ev = 0.0
    if cand:
        ev = math.inf if len(cand) != len(ref) else max(
            [abs(a - b) / ta for a, b in zip(cand, ref)] + [0.0])
    m = max(worst, ev)
    return ("PASS" if m < 0.1 else "FAIL" if m > 10 else None), worst, ev, bool(cand)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    hdo = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build", "hdo")
    right = wrong = undecided = found = 0
    tools = set()
    for name, model, tool, origin, commit, opts, notes in FILES:
        path = os.path.join(d, name)
        if not os.path.exists(path):
            print(f"{name:52s} missing ({XC if commit != '-' else ''} {origin})")
            continue
        found += 1
        tools.add(tool.split()[0])
        rows = read(path, tolerances(model)[3], notes)
        for scale in SCALES:
            exp, w, ev, given = expected(model, rows, scale)
            ta, va, vr, _ = tolerances(model, scale)
            cmd = [hdo, "check", os.path.join(MODELS, model + ".hdae"), path,
                   "-t", os.path.join(TOLS, model + ".tol"), "--time-abs", repr(ta),
                   "--value-abs", repr(va), "--value-rel", repr(vr)] + opts
            p = subprocess.run(cmd, capture_output=True, text=True)
            got = {0: "PASS", 1: "FAIL"}.get(p.returncode, f"exit {p.returncode}")
            if exp is None:
                mark, undecided = "undecided", undecided + 1
            elif got == exp:
                mark, right = "right", right + 1
            else:
                mark, wrong = "WRONG", wrong + 1
            last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr.strip()
            print(f"{name:48s} x{scale:<4g} value {w:9.3g} events "
                  f"{(f'{ev:9.3g}' if given else '      -  ')} expected {exp or '-':4s} "
                  f"got {got:4s} {mark}")
            if mark == "WRONG":
                print("    " + last[:300])
    if not found:
        sys.exit(f"outside_real: none of the files is in {d}")
    print(f"outside real: {found} files of {len(tools)} tools ({', '.join(sorted(tools))}), "
          f"each at the tolerance file's values and at 100 times them: {found * len(SCALES)} "
          f"checks, {right + wrong} decided, {right} right, {undecided} undecided")
    print(f"outside_real: {right} passed, {wrong} failed")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
