"""check_many.py -- issue 26's speed target of `hdo check MODEL DIR` (make
bench): a folder of 50 candidates of one model, each on its own grid, is
checked with one reference run in less than 3 times the CPU time of one
check of one of them.

  /usr/bin/python3 tools/bench/check_many.py [--hdo build/hdo]
      [--case cases/car_axis.hdae] [--n 50] [--repeat 3] [--work DIR]

The candidates are one `hdo run` of the case interpolated linearly onto
50 uniform grids (the verdicts do not matter here, the cost does): no two
grids alike, so the one reference run is sampled at the union of 50
grids, five samples per candidate row, as a check of each alone samples
its own.  Two sizes: 80 to 227 rows (the measurement of decisions.md
D-032), and 500 to 1,137 rows (FMI cross-check results hold about as
many), where the reference's dense output at 200,000 sample times was
most of the cost (hdo_horner_rn, about 60% of the CPU time under perf,
7.8 times one check) until its samples were taken in double-double,
proven (docs/decisions.md D-096: 2.5 times).  CPU
time of the hdo processes (user + system), the smallest of --repeat runs
each: on a machine shared with other jobs CPU time is the steadier figure
(docs/decisions.md D-051).  A record, not a test: nothing here fails.
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile

TARGET = 3.0


def cpu_of(cmd):
    """CPU seconds of one run of cmd (its exit code 0 or 1: a verdict)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit(f"check_many: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdo", default="build/hdo")
    ap.add_argument("--case", default="cases/car_axis.hdae")
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--work")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="hdo-check-many-")
    os.makedirs(work, exist_ok=True)
    run = os.path.join(work, "run")
    subprocess.run([a.hdo, "run", a.case, "-o", run], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lines = open(os.path.join(run, "trajectory.csv")).read().splitlines()
    head = lines[0].split(",")
    cols = [i for i, n in enumerate(head) if n not in ("time", "mode")]
    rows = [l.split(",") for l in lines[1:]]
    data = [(float(r[0]), [float(r[i]) if r[i] else 0.0 for i in cols]) for r in rows]
    t0, t1 = data[0][0], data[-1][0]
    for lo, hi in ((80, 227), (500, 1137)):
        cands = os.path.join(work, f"candidates-{lo}")
        shutil.rmtree(cands, ignore_errors=True)
        os.makedirs(cands)
        for k in range(a.n):
            m = lo + (hi - lo) * k // max(1, a.n - 1)
            j = 0
            with open(os.path.join(cands, f"c{k:03d}.csv"), "w") as f:
                f.write(",".join(["time"] + [head[i] for i in cols]) + "\n")
                for i in range(m + 1):
                    t = t0 + (t1 - t0) * i / m
                    while j + 2 < len(data) and data[j + 1][0] <= t:
                        j += 1
                    (ta, va), (tb, vb) = data[j], data[j + 1]
                    w = 0.0 if tb == ta else min(1.0, max(0.0, (t - ta) / (tb - ta)))
                    f.write(",".join([repr(t)] + [repr(x + w * (y - x))
                                                  for x, y in zip(va, vb)]) + "\n")
        one = os.path.join(cands, f"c{a.n // 2:03d}.csv")
        c1 = min(cpu_of([a.hdo, "check", a.case, one]) for _ in range(a.repeat))
        cn = min(cpu_of([a.hdo, "check", a.case, cands]) for _ in range(a.repeat))
        ratio = cn / c1 if c1 > 0 else float("inf")
        print(f"check many: {os.path.basename(a.case)}, {a.n} candidates on {a.n} grids of "
              f"{lo} to {hi} rows: {cn:.2f} s CPU against {c1:.2f} s for one check (the "
              f"middle one): {ratio:.2f}x (target < {TARGET:g}x) "
              f"{'ok' if ratio < TARGET else 'OVER THE TARGET'}")
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
