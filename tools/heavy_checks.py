#!/usr/bin/env python3
"""heavy_checks -- the independent checks of the heavy cases (the Test
Set's large and very stiff problems, issue 28) at 16 and 30 digits.

  /usr/bin/python3 tools/heavy_checks.py [--hdo build/hdo]
      [--digits 16 30] [--timeout 1800] [--jobs N] [--target 60] [CASE ...]

CASE defaults to the cases tests/corpus/pending.txt lists: their checks
take minutes, so `make check` skips them and `make run` runs them here.
`make bench` names the five problems of issue 28 (with the water tube,
which is in make check) for the time figures beside the issue's target.

Each CASE's tests/corpus/check_CASE.py runs once per digit count D with
HDOCHECK_DIGITS=D (its hdo run at D digits; these checks compare with
published values, so their figures do not depend on D) and
HDOCHECK_SUMMARY (the run's summary.json is kept).  One row per run:
the check's verdict (PASS, FAIL, or TIMEOUT after --timeout seconds),
the hdo run's CPU seconds and steps (summary.json), whether the run at
16 digits meets the target (--target CPU seconds: issue 28 asks for
under a minute on 2 cores), and the check's own line.  The last line
is "heavy checks: N passed, N failed".  Exit 0 when every check passed
(a timeout is a failure), 1 otherwise, 2 on bad usage.
"""
import argparse
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"


def pending_cases():
    """The case names tests/corpus/pending.txt lists ("name: reason")."""
    names = []
    with open(os.path.join(ROOT, "tests", "corpus", "pending.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and ":" in line:
                names.append(line.split(":", 1)[0].strip())
    return names


def run_check(case, digits, hdo, timeout, keep):
    """(verdict, the check's last line, summary dict or None)."""
    env = dict(os.environ, HDO=hdo, HDOCHECK_DIGITS=str(digits),
               HDOCHECK_SUMMARY=keep)
    script = os.path.join(ROOT, "tests", "corpus", "check_%s.py" % case)
    # a session of its own, so that a timeout ends the check's hdo too
    p = subprocess.Popen([PY, script], env=env, cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        lines = out.strip().splitlines() or ["(no output)"]
        verdict = "PASS" if p.returncode == 0 else "FAIL"
        line = lines[-1]
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        verdict, line = "TIMEOUT", "no result in %d s" % timeout
    summary = None
    path = os.path.join(keep, "%s-%d.json" % (case, digits))
    if os.path.exists(path):
        with open(path) as f:
            summary = json.load(f)
    return verdict, line, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hdo", default=os.path.join(ROOT, "build", "hdo"))
    ap.add_argument("--digits", type=int, nargs="+", default=[16, 30])
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--target", type=float, default=60.0,
                    help="CPU seconds the 16-digit run should stay under")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    hdo = os.path.abspath(a.hdo)
    cases = a.cases or pending_cases()
    for c in cases:
        if not os.path.exists(os.path.join(ROOT, "tests", "corpus",
                                           "check_%s.py" % c)):
            print("heavy_checks: no tests/corpus/check_%s.py" % c,
                  file=sys.stderr)
            return 2
    print("Heavy cases: their independent checks at %s digits (cpu_s and "
          "steps: the hdo run's summary.json; target: under %g CPU s at "
          "16 digits, issue 28)" % (" and ".join(map(str, a.digits)),
                                     a.target))
    jobs = [(c, d) for c in cases for d in a.digits]
    results = {}
    with tempfile.TemporaryDirectory(prefix="heavy-checks-") as keep:
        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
            futs = {ex.submit(run_check, c, d, hdo, a.timeout, keep): (c, d)
                    for c, d in jobs}
            for fut in concurrent.futures.as_completed(futs):
                c, d = futs[fut]
                results[(c, d)] = fut.result()
                print("[%d/%d] %s at %d digits: %s" % (
                    len(results), len(jobs), c, d, results[(c, d)][0]),
                    flush=True)
    print("%-12s %6s %8s %9s %8s  %-9s %s" % (
        "case", "digits", "verdict", "cpu_s", "steps", "target", "check"))
    passed = failed = 0
    for c, d in jobs:
        verdict, line, summary = results[(c, d)]
        cpu = steps = "-"
        target = "-"
        if summary is not None:
            cpu_s = summary.get("timing", {}).get("cpu_s")
            if cpu_s is not None:
                cpu = "%.1f" % cpu_s
                if d == 16:
                    target = "met" if cpu_s < a.target else "not met"
            steps = str(summary.get("steps", "-"))
        if d == 16 and verdict == "TIMEOUT":
            target = "not met"
        print("%-12s %6d %8s %9s %8s  %-9s %s" % (c, d, verdict, cpu, steps,
                                                  target, line))
        if verdict == "PASS":
            passed += 1
        else:
            failed += 1
    print("heavy checks: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
