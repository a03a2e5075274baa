"""run.py -- hdo beside heyoka (issue 28): the same problems, the same
horizons, the same working precision and tolerance, each result scored
against the independent references of reference.py.

  /usr/bin/python3 tools/bench/heyoka/run.py --hdo build/hdo
      --bench build/heyoka-bench [--digits 30 60 100 200] [--repeats 3]
      [--timeout 300] [--work DIR] [--csv FILE] [PROBLEM ...]

--bench is heyoka_bench.cpp built by build.sh against a heyoka install.
Per problem and digit count D, hdo runs `hdo run MODEL -d D --every T`
(rows at the start, the end and the events only) and heyoka_bench runs
with hdo's working precision and tolerance, read from hdo's summary.json,
so that both integrate to the same tolerance in the same precision.

Times are CPU seconds, the least of --repeats runs (fewer when the runs
take long; the machine is shared, wall time is not comparable):
  hdo      timing.cpu_s of summary.json: hdo_run (the reduction, the
           consistent start, the integration, the events), without the
           process' start-up, the parsing and the output files;
  heyoka   propagate_until from the start to the end, events included,
           without building the integrator;
  ratio    hdo / heyoka of these two;
  proc     each program's whole process (hdo: start-up, parsing, output;
           heyoka: the Taylor decomposition and LLVM's compilation, the
           `jit` column, and the repeated propagations counted once).
Digits: -log10 of the largest error over the event times and the state at
the end, absolute for values under 1 in magnitude and relative above (all
values here are O(1) but the ball's end height, 7.4e-5); "events 3/11!"
when a tool finds a different number of events than the reference. hdo
writes its values to D significant digits, heyoka_bench to its working
precision (D + 10 digits): hdo's figure cannot exceed about D.
"""
import argparse
import csv
import json
import math
import os
import resource
import subprocess
import sys

import mpmath
from mpmath import mpf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..",
                                   ".."))
HERE = os.path.relpath(os.path.dirname(os.path.abspath(__file__)), TOP)

# name: (hdo model, hdo's extra options, the end time, what each side runs)
PROBLEMS = {
    "pendulum": (HERE + "/pendulum_ode.hdae", [], "3",
                 "angle ODE, no events"),
    "pendulum_events": ("tools/bench/pendulum_angle_ode.hdae", [], "3",
                        "angle ODE, x = 0 crossings as events"),
    "pendulum_dae": ("cases/pendulum_angle.hdae", [], "3",
                     "hdo: index-1 DAE (x, y algebraic); heyoka: its ODE"),
    "pendulum_cart": ("cases/pendulum.hdae", [], "3",
                      "hdo: Cartesian index-3 DAE; heyoka: Cartesian ODE, "
                      "lambda by hand"),
    "ball": ("cases/bouncing_ball.hdae", ["--until", "2.5"], "2.5",
             "11 impacts (resets) to t = 2.5, before the Zeno point"),
    "fpu": ("tests/certify/models/fpu20.hdae", [], "10",
            "20-mass FPU-beta chain, 40 states, t = 10"),
}


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, timeout):
    """(CompletedProcess or None on timeout, process CPU seconds)"""
    c0 = child_cpu()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, child_cpu() - c0
    return p, child_cpu() - c0


def read_hdo(out):
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(out, "events.csv")) as f:
        events = [mpf(r["time"]) for r in csv.DictReader(f)]
    with open(os.path.join(out, "trajectory.csv")) as f:
        rows = list(csv.DictReader(f))
    final = {k.replace("[", "").replace("]", ""): mpf(v)
             for k, v in rows[-1].items()
             if k not in ("time", "mode") and v not in ("", None)}
    return summary, events, final


def run_hdo(args, name, digits):
    model, extra, t_end, _ = PROBLEMS[name]
    out = os.path.join(args.work, "hdo", "%s-%d" % (name, digits))
    cmd = [args.hdo, "run", os.path.join(TOP, model), "-d", str(digits),
           "-o", out, "--every", t_end] + extra
    best_run = best_proc = None
    spent = 0.0
    for _ in range(args.repeats):
        p, proc = timed(cmd, args.timeout)
        if p is None:
            return {"error": "timeout"}
        if p.returncode != 0:
            return {"error": (p.stderr.strip().splitlines() or ["?"])[-1]}
        summary, events, final = read_hdo(out)
        cpu = summary["timing"]["cpu_s"]
        best_run = cpu if best_run is None else min(best_run, cpu)
        best_proc = proc if best_proc is None else min(best_proc, proc)
        spent += proc
        if spent > args.repeat_budget:
            break
    return {"run": best_run, "proc": best_proc, "steps": summary["steps"],
            "bits": summary["precision_bits"], "tol": summary["tolerance"],
            "events": events, "final": final}


def run_heyoka(args, name, bits, tol):
    cmd = [args.bench, name, str(bits), tol, str(args.repeats)]
    p, proc = timed(cmd, args.timeout)
    if p is None:
        return {"error": "timeout"}
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["?"])[-1]}
    r = {"events": [], "final": {}, "proc": proc}
    for line in p.stdout.splitlines():
        f = line.split()
        if f[0] == "event":
            r["events"].append(mpf(f[2]))
        elif f[0] == "final":
            r["final"][f[1]] = mpf(f[2])
        else:
            r[f[0]] = float(f[1]) if "." in f[1] or "e" in f[1] else int(f[1])
    r["run"] = r["run_cpu_s"]
    return r


def score(result, ref_events, ref_final, cap):
    """The digits of a result (see the module's text), or a reason."""
    if "error" in result:
        return "-"
    if len(result["events"]) != len(ref_events):
        return "events %d/%d!" % (len(result["events"]), len(ref_events))
    pairs = list(zip(result["events"], ref_events))
    for k, v in ref_final.items():
        if k not in result["final"]:
            return "no %s" % k
        pairs.append((result["final"][k], v))
    worst = max(abs(a - r) / max(1, abs(r)) for a, r in pairs)
    if worst == 0:
        return cap
    return min(cap, int(mpmath.floor(-mpmath.log10(worst) * 10)) / 10)


def cell(result):
    """A failed run's cell: timeout, or error (its message follows)."""
    return "timeout" if result.get("error") == "timeout" else "error"


def mark(digits, d):
    """Digits, with "!" when under D - 2: a wrong result at D digits."""
    if isinstance(digits, str):
        return digits
    return "%.1f%s" % (digits, "!" if digits < d - 2 else "")


def fmt(x, spec="%.3g"):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return spec % x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdo", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--digits", type=int, nargs="+", default=[30, 60, 100, 200])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--repeat-budget", type=float, default=5.0,
                    help="stop repeating hdo once its runs took this long")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--work", default=os.path.join(TOP, "build", "bench",
                                                   "heyoka"))
    ap.add_argument("--csv")
    ap.add_argument("problems", nargs="*")
    a = ap.parse_args()
    names = a.problems or list(PROBLEMS)
    for n in names:
        if n not in PROBLEMS:
            sys.exit("run.py: unknown problem '%s' (%s)" %
                     (n, ", ".join(PROBLEMS)))
    os.makedirs(os.path.join(a.work, "hdo"), exist_ok=True)

    cap = max(a.digits) + 20
    print("hdo against heyoka (taylor_adaptive<mppp::real>): CPU s, the "
          "least of %d runs; digits against the references of "
          "tools/bench/heyoka/reference.py (computed to %d digits)" %
          (a.repeats, cap))
    for n in names:
        print("  %-16s %s" % (n, PROBLEMS[n][3]))
    head = ("problem", "D", "hdo_s", "heyoka_s", "ratio", "hdo_proc",
            "hy_proc", "hy_jit", "ratio_proc", "hdo_dig", "hy_dig",
            "hdo_steps", "hy_steps", "hy_order")
    rows = []
    print()
    print("%-16s %4s %9s %9s %7s %9s %9s %9s %10s %8s %8s %9s %8s %8s" % head)
    for n in names:
        ev, fin = reference.reference(n, cap)
        for d in a.digits:
            h = run_hdo(a, n, d)
            if "error" in h:
                # heyoka still runs, at hdo's precision rule
                bits = math.ceil((d + 10) * 3.321928094887362)
                tol = "1e-%d" % (d + 5)
            else:
                bits, tol = h["bits"], h["tol"]
            y = run_heyoka(a, n, bits, tol)
            ratio = (h["run"] / y["run"]
                     if "run" in h and "run" in y and y["run"] > 0 else None)
            ratio_p = (h["proc"] / y["proc"]
                       if "proc" in h and "proc" in y and y["proc"] > 0
                       else None)
            row = (n, d, fmt(h.get("run", cell(h))),
                   fmt(y.get("run", cell(y))), fmt(ratio, "%.2f"),
                   fmt(h.get("proc")), fmt(y.get("proc")),
                   fmt(y.get("jit_cpu_s")), fmt(ratio_p, "%.2f"),
                   mark(score(h, ev, fin, cap), d),
                   mark(score(y, ev, fin, cap), d),
                   fmt(h.get("steps"), "%d"), fmt(y.get("steps"), "%d"),
                   fmt(y.get("order"), "%d"))
            rows.append(row)
            print("%-16s %4s %9s %9s %7s %9s %9s %9s %10s %8s %8s %9s %8s %8s"
                  % row, flush=True)
            for tool, r in (("hdo", h), ("heyoka", y)):
                if "error" in r and r["error"] != "timeout":
                    print("    %s: %s" % (tool, r["error"]))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(rows)
    print()
    print("ratio: hdo's hdo_run CPU over heyoka's propagation; ratio_proc: "
          "the whole processes (heyoka's includes building the integrator, "
          "hy_jit). Digits capped at %d; hdo writes D digits; '!': under "
          "D - 2 digits, a wrong result (its time compares nothing)." % cap)


if __name__ == "__main__":
    main()
