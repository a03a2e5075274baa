"""cost.py -- issue 28's size and speed figures in instructions (make bench),
each beside its target.

  /usr/bin/python3 tools/bench/cost.py [--hdo build/hdo] [--digits 30]
      [--max-seconds 2] [--only startup,events,dense,fpu] [CASE.hdae ...]

Instruction counts from valgrind's callgrind (tools/bench/callgrind.py):
on a machine shared with other jobs they are the same from run to run,
where CPU time is not.  The figures:

  startup  instructions of `hdo --version`: the dynamic loader and the
           libraries' constructors, paid by every command.  Target 5 M.
  events   per case with events at D digits (default every): the share of
           hdo_run's instructions spent on events -- the guards' floors,
           the location (hdo_event_locate_after(_own), hdo_event_zero_order
           and its value's and slope's own errors,
           hdo_run_guard_value_floor, hdo_run_guard_slope_floor_at: D-112,
           D-130),
           the event time's digits (hdo_run_event_digits), the transition
           (hdo_run_handle_event, hdo_run_sliding_event) -- less what the
           phases of summary.json's timing count elsewhere (the samples
           before the event are dense output; the consistent
           reinitialisation and the first entry's mode build and KM
           analysis are reinit and reduction; the entered mode's kept
           expansion is integration), each only where made inside an
           event (the profile names these calls by their callers;
           docs/decisions.md D-107) -- and per event.
           Target: at most 30% of the run.  Cases whose plain run takes
           more than --max-seconds of CPU are left out (named in the
           output): under callgrind they would take many minutes.
  dense    the pendulum at D digits with the default 1,000 rows: the dense
           output (the samples, their magnitudes for the rows' digits,
           and writing trajectory.csv) against the integration (the
           stepper's apply, step size and evolve).  Target: at most 1x.
  fpu      the 20-mass FPU chain (tests/certify/models/fpu20.hdae) at D
           digits: instructions inside hdo_run and in the Taylor expansion
           (hdo_taylor_expand).  Target: half the figures measured before
           issue 28 (FPU_BEFORE below).
  radau    Van der Pol mu = 1000 (cases/vanderpol.hdae) under --method
           implicit at --radau-digits (default 30 60 100): hdo_run's
           instructions and the steps, the exponent b of instructions ~
           D^b between each pair and fitted over all.  Targets: the
           steps independent of D, b at most 2.5.  About 7 minutes of
           valgrind (the 100-digit run).

A figure is a record of this build on this machine (the same binary and
libraries give the same counts), not a test: nothing here fails a build.
"""
import argparse
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind  # noqa: E402
from cases import fit_exponent  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
STEP_FNS = ("hdo_run_stoppable", "step")  # the driver's step (run.c)
EVENT_FNS = {"hdo_run_guard_floors", "hdo_event_locate_after",
             "hdo_event_locate_after_own", "hdo_event_zero_order",
             "hdo_event_zero_order_at", "hdo_run_guard_value_floor",
             "hdo_run_guard_slope_floor_at",
             "hdo_run_event_digits",
             "hdo_run_handle_event", "hdo_run_sliding_event",
             "hdo_run_event_at_end"}
HANDLERS = ("hdo_run_handle_event", "handle_event",  # its body (event.c)
            "hdo_run_sliding_event")
# what emits the samples before an event (the second since issue 24)
SAMPLERS = ("hdo_run_emit_samples", "hdo_run_event_samples_begin")
STEPPER = ("taylor_", "radau_")
# fpu20 at 30 digits before issue 28 (commit d662ce4, this machine's
# Debian 12 libraries): hdo_run's instructions and the Taylor expansion's
# (hdo_taylor_expand); the target is half of them.
FPU_BEFORE = {30: (1717.36e6, 66.31e6)}
# the other figures before issue 28, for the record beside the targets
STARTUP_BEFORE = 31.28e6
DENSE_BEFORE = 1.43  # dense output / integration, pendulum -d 30


def mega(n):
    return "%.2f M" % (n / 1e6)


# the expansion and step size of a mode entered at an event, which its
# first step finds kept (reinit.c, taylor_step.c): integration's
ENTERED = ("hdo_run_expand_entered",)


def stepper_fn(f):
    return f.startswith(STEPPER)


def base(name):
    """A function's name without its context ("FN'caller'...")."""
    return name.split("'")[0]


def integration(p):
    return sum(n for caller, c in p.calls.items()
               if base(caller) in STEP_FNS + ENTERED
               for callee, n in c.items() if stepper_fn(callee))


# What the events' figure subtracts, as summary.json's phases count it
# elsewhere: the consistent reinitialisation and the mode built on first
# entry (hdo_run_reinit, hdo_run_mode_cache_get: reinit and reduction),
# the KM analysis of a mode on its first entry and the KM fallback's form
# (hdo_run_note_mode_used, hdo_run_mode_cache_km_fallback: reduction),
# and the expansion of a mode entered, which its first step finds kept
# (hdo_run_expand_entered's stepper calls: integration).  The profile
# names their calls by context, "FN'caller'caller's caller...", up to
# CTX_DEPTH callers (callgrind --separate-callers, CTX_OPTIONS): only
# those inside an event are subtracted, once (not again inside another
# of them).  Before D-107 every call outside the driver's step was: the
# run's start (its active-set decision, a first check_when_unique) came
# off the events, and the calls that complementarity.c's candidates make
# through hdo_run_reinit's parts stayed on.
KM_FNS = ("hdo_run_note_mode_used", "hdo_run_mode_cache_km_fallback")
OUTER_FNS = ("hdo_run_reinit", "hdo_run_mode_cache_get")
CTX_DEPTH = 12
CTX_OPTIONS = tuple("--separate-callers%d=%s" % (CTX_DEPTH, f)
                    for f in KM_FNS + OUTER_FNS + ENTERED)
# where a chain of callers is inside an event (EVENT_FNS' transitions)
IN_EVENT = ("hdo_run_handle_event", "handle_event", "hdo_run_sliding_event",
            "hdo_run_event_at_end", "hdo_run_take_transition",
            "hdo_run_take_transition_tr")


def in_event(name, caller):
    """Whether the call of context name (from caller) is inside an event
    and not inside another subtracted call.  A chain cut before it
    reaches the run's loop (deeper than CTX_DEPTH) counts as inside one,
    as before D-107."""
    chain = name.split("'")[1:] or [caller]
    for f in chain:  # from the nearest caller out
        if f in OUTER_FNS:
            return False
        if f in IN_EVENT:
            return True
        if f in STEP_FNS:  # the run's loop, outside any event
            return False
    return len(chain) >= CTX_DEPTH


def elsewhere(p):
    """Instructions inside events that other phases count."""
    out = 0
    for caller, c in p.calls.items():
        if base(caller) in ENTERED and in_event(caller, None):
            out += sum(n for callee, n in c.items() if stepper_fn(callee))
        for callee, n in c.items():
            if base(callee) in KM_FNS + OUTER_FNS and \
                    base(caller) not in STEP_FNS and in_event(callee, caller):
                out += n
    return out


def event_instructions(p):
    """The events phase of summary.json's timing, in instructions: the
    event functions the driver's step calls, less what they spend in other
    phases -- the samples before the event (dense output), and what
    elsewhere() names."""
    ev = p.called_from(STEP_FNS, lambda f: f in EVENT_FNS)
    ev -= p.called_from(HANDLERS, lambda f: f in SAMPLERS)
    return ev - elsewhere(p)


def startup(hdo):
    p, _ = callgrind.run([hdo, "--version"])
    print("startup: hdo --version %s (target 5 M; %s before issue 28)" %
          (mega(p.total), mega(STARTUP_BEFORE)))


def events(hdo, digits, cases, max_seconds, work):
    print("events at %d digits: share of hdo_run's instructions "
          "(target at most 30%%)" % digits)
    print("%-24s %7s %12s %12s %7s %12s %12s" %
          ("case", "events", "run", "events_ir", "share", "per_event",
           "integration"))
    worst = 0.0
    for model in cases:
        name = os.path.basename(model)[:-5]
        out = os.path.join(work, name)
        # a plain run first: its events, and its CPU time (under callgrind
        # a run takes about 50 times longer)
        try:
            r = subprocess.run([hdo, "run", model, "-d", str(digits), "-o",
                                out], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL,
                               timeout=10 * max_seconds + 5, check=False)
            s = json.load(open(os.path.join(out, "summary.json")))
        except (subprocess.TimeoutExpired, OSError, ValueError):
            print("%-24s (left out: more than %g s of wall time)" %
                  (name, 10 * max_seconds + 5))
            continue
        if r.returncode != 0 or s.get("events", 0) == 0:
            continue
        cpu = s.get("timing", {}).get("cpu_s", 0.0)
        if cpu > max_seconds:
            print("%-24s (left out: %.1f s of CPU, --max-seconds %g)" %
                  (name, cpu, max_seconds))
            continue
        p, rc = callgrind.run([hdo, "run", model, "-d", str(digits),
                               "-o", out], options=CTX_OPTIONS)
        if rc != 0:
            print("%-24s (exit %d)" % (name, rc))
            continue
        nev = json.load(open(os.path.join(out, "summary.json")))["events"]
        if nev == 0:
            continue
        run = p.into("hdo_run")
        ev = event_instructions(p)
        share = ev / run if run else 0.0
        worst = max(worst, share)
        print("%-24s %7d %12s %12s %6.1f%% %12s %12s" %
              (name, nev, mega(run), mega(ev), 100 * share,
               mega(ev / nev), mega(integration(p))))
    print("events: largest share %.1f%% (target at most 30%%)" %
          (100 * worst))


def dense(hdo, digits, work):
    model = os.path.join(TOP, "cases", "pendulum.hdae")
    out = os.path.join(work, "pendulum-dense")
    p, _ = callgrind.run([hdo, "run", model, "-d", str(digits), "-o", out])
    samples = (p.called_from(STEP_FNS + HANDLERS, lambda f: f in SAMPLERS) +
               p.into("hdo_run_step_magnitudes", STEP_FNS) +
               p.into("hdo_run_emit_samples_point"))
    write = p.into("hdo_write_trajectory")
    integ = integration(p)
    print("dense output, pendulum at %d digits, 1,000 rows: samples %s + "
          "trajectory.csv %s = %s against integration %s: %.2fx "
          "(target at most 1x; %.2fx before issue 28)" %
          (digits, mega(samples), mega(write), mega(samples + write),
           mega(integ), (samples + write) / integ, DENSE_BEFORE))


def fpu(hdo, digits, work):
    model = os.path.join(TOP, "tests", "certify", "models", "fpu20.hdae")
    out = os.path.join(work, "fpu20")
    p, _ = callgrind.run([hdo, "run", model, "-d", str(digits), "-o", out])
    run = p.into("hdo_run")
    expand = p.into("hdo_taylor_expand")
    before = FPU_BEFORE.get(digits)
    if before is None:
        print("fpu20 at %d digits: hdo_run %s, Taylor expansion %s (no "
              "figure before issue 28 at these digits)" %
              (digits, mega(run), mega(expand)))
        return
    print("fpu20 at %d digits: hdo_run %s (target %s, half of %s before "
          "issue 28), Taylor expansion %s (target %s, half of %s)" %
          (digits, mega(run), mega(before[0] / 2), mega(before[0]),
           mega(expand), mega(before[1] / 2), mega(before[1])))


def radau(hdo, digits, work):
    """Van der Pol mu = 1000 under --method implicit: instructions of
    hdo_run and the steps at each digit count, and the exponents b of
    instructions ~ D^b (decisions.md D-105)."""
    model = os.path.join(TOP, "cases", "vanderpol.hdae")
    pts, steps = [], []
    for d in digits:
        out = os.path.join(work, "vdp-%d" % d)
        p, _ = callgrind.run([hdo, "run", model, "-d", str(d), "--method",
                              "implicit", "-o", out])
        with open(os.path.join(out, "summary.json")) as f:
            steps.append(json.load(f)["steps"])
        pts.append((d, p.into("hdo_run")))
        print("radau: Van der Pol mu = 1000, --method implicit, %d digits: "
              "%d steps, hdo_run %s" % (d, steps[-1], mega(pts[-1][1])))
    for (d0, n0), (d1, n1) in zip(pts, pts[1:]):
        print("radau: %d -> %d digits: D^%.2f" %
              (d0, d1, math.log(n1 / n0) / math.log(d1 / d0)))
    print("radau: steps %s at %s digits (target: independent of D), "
          "instructions D^%.2f over them (target at most D^2.5)" %
          (steps, digits, fit_exponent(pts)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hdo", default=os.path.join(TOP, "build", "hdo"))
    ap.add_argument("--digits", type=int, default=30)
    ap.add_argument("--max-seconds", type=float, default=2.0)
    ap.add_argument("--only", default="startup,events,dense,fpu,radau")
    ap.add_argument("--radau-digits", type=int, nargs="+",
                    default=[30, 60, 100])
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("cost: valgrind is not installed: no instruction counts")
        return 0
    cases = a.cases or sorted(glob.glob(os.path.join(TOP, "cases", "*.hdae")))
    hdo = os.path.abspath(a.hdo)
    only = a.only.split(",")
    work = tempfile.mkdtemp(prefix="hdo-cost-")
    try:
        if "startup" in only:
            startup(hdo)
        if "events" in only:
            events(hdo, a.digits, cases, a.max_seconds, work)
        if "dense" in only:
            dense(hdo, a.digits, work)
        if "fpu" in only:
            fpu(hdo, a.digits, work)
        if "radau" in only:
            radau(hdo, a.radau_digits, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
