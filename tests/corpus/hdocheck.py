"""hdocheck -- shared helpers for the independent corpus checks.

Every tests/corpus/check_<name>.py computes its expected values itself
(closed forms, matrix exponentials, mpmath.odefun, published references),
then runs `$HDO run cases/<name>.hdae --digits D -o <tmpdir>` with this
module, reads events.csv / trajectory.csv, and prints one line
`PASS <name>: <figure> digits (need <required>)` or `FAIL <name>: ...`,
exiting 0 or 1.  Nothing here ever reads an expected value from hdo.
"""
import csv
import os
import re
import subprocess
import sys
import tempfile
import shutil

from mpmath import mp, mpf, log10, fabs, findroot

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HDO = os.environ.get("HDO", os.path.join(ROOT, "build", "hdo"))
if not os.path.isabs(HDO):
    HDO = os.path.join(ROOT, HDO)

NAME = "?"
_tmpdirs = []


def case_path(name):
    return os.path.join(ROOT, "cases", name + ".hdae")


def fail(msg, name=None):
    print("FAIL %s: %s" % (name or NAME, msg))
    _cleanup()
    sys.exit(1)


def _cleanup():
    for d in _tmpdirs:
        shutil.rmtree(d, ignore_errors=True)


def run_digits(digits):
    """The digits a check's run takes: HDOCHECK_DIGITS when set, else the
    check's own.  For checks against published values, whose figures do
    not depend on D: tools/heavy_checks.py runs the Test Set's at 16 and
    30."""
    return int(os.environ.get("HDOCHECK_DIGITS") or digits)


def run(name, digits=30, text=None, args=(), timeout=3600, path=None):
    """Runs hdo on cases/<name>.hdae (or on `path`, a model file outside
    cases/, relative to the repository root; or on `text`, a modified copy of
    the model) and returns the output directory.  Fails the check on any
    error."""
    tmp = tempfile.mkdtemp(prefix="hdocheck-%s-" % name)
    _tmpdirs.append(tmp)
    model = case_path(name)
    if path is not None:
        model = path if os.path.isabs(path) else os.path.join(ROOT, path)
    if text is not None:
        model = os.path.join(tmp, name + ".hdae")
        with open(model, "w") as f:
            f.write(text)
    out = os.path.join(tmp, "out")
    digits = run_digits(digits)
    # HDOCHECK_ARGS: options added to every run (tests/e2e/corpus_implicit.sh
    # runs the checks under --method implicit); with HDOCHECK_IMPLICIT=1 a
    # run in which the implicit method took no step fails the check
    extra = os.environ.get("HDOCHECK_ARGS", "").split()
    cmd = [HDO, "run", model, "--digits", str(digits), "-o", out] + list(args) + extra
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=timeout)
    except FileNotFoundError:
        fail("cannot execute %s" % HDO)
    except subprocess.TimeoutExpired:
        fail("hdo run timed out after %d s" % timeout)
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
        fail("hdo run -d %d exited %d: %s" % (digits, p.returncode, last))
    for f in ("events.csv", "trajectory.csv"):
        if not os.path.exists(os.path.join(out, f)):
            fail("hdo run wrote no %s" % f)
    if os.environ.get("HDOCHECK_IMPLICIT") == "1":
        with open(os.path.join(out, "summary.json")) as f:
            m = re.search(r'"implicit_steps": (\d+)', f.read())
        if m is None or int(m.group(1)) == 0:
            fail("the implicit method took no step (%s)" % " ".join(extra))
    # HDOCHECK_SUMMARY=DIR: a copy of the run's summary.json kept as
    # DIR/<name>-<digits>.json (its CPU time and steps, for
    # tools/heavy_checks.py), since the output folder is removed
    keep = os.environ.get("HDOCHECK_SUMMARY")
    if keep and os.path.exists(os.path.join(out, "summary.json")):
        shutil.copy(os.path.join(out, "summary.json"),
                    os.path.join(keep, "%s-%d.json" % (name, digits)))
    return out


def model_text(name):
    with open(case_path(name)) as f:
        return f.read()


def events(out, skip_t0=None):
    """events.csv as a list of dicts; 'time' converted to mpf.  With skip_t0,
    events at exactly that time whose kind is sliding-start or
    reinit-adjusted (bookkeeping of the start) are dropped."""
    evs = []
    with open(os.path.join(out, "events.csv")) as f:
        for r in csv.DictReader(f):
            r = dict(r)
            r["t"] = mpf(r["time"])
            evs.append(r)
    if skip_t0 is not None:
        evs = [e for e in evs if not (e["t"] == skip_t0 and e["kind"] in ("sliding-start", "reinit-adjusted"))]
    return evs



def zeno_split(evs, into, last=True):
    """(the events before the Zeno point, the zeno event): fails the check
    unless there is exactly one zeno event, into mode `into`, and (with
    last) it is the last event."""
    zeno = [e for e in evs if e["kind"] == "zeno"]
    if len(zeno) != 1 or zeno[0]["to"] != into or (last and evs[-1] is not zeno[0]):
        fail("no single zeno event into %s%s" % (into, " at the end" if last else ""))
    return [e for e in evs if e["kind"] != "zeno"], zeno[0]


def refine_root(g, lo, hi, bisections=30):
    """The root of g in [lo, hi], g(lo) >= 0 > g(hi): bisection down to a
    bracket 2^-bisections as wide, then mpmath's Anderson (bracketing
    secant) to the working precision."""
    for _ in range(bisections):
        mid = (lo + hi) / 2
        if g(mid) >= 0:
            lo = mid
        else:
            hi = mid
    return findroot(g, (lo, hi), solver="anderson")

def q(fr):
    """A Fraction as an mpf at the working precision."""
    return mpf(fr.numerator) / fr.denominator

class Traj:
    def __init__(self, out):
        with open(os.path.join(out, "trajectory.csv")) as f:
            rd = csv.reader(f)
            self.head = next(rd)
            self.rows = [r for r in rd if r]
        self.col = {h: i for i, h in enumerate(self.head)}

    def val(self, row, var):
        s = row[self.col[var]]
        if s == "":
            return None
        return mpf(s)

    def t(self, row):
        return mpf(row[0])

    def mode(self, row):
        return row[1]

    def last(self):
        return self.rows[-1]

    def event_pairs(self):
        """(left, right) row pairs: consecutive rows with the same time."""
        pairs = []
        i = 0
        while i + 1 < len(self.rows):
            if self.rows[i][0] == self.rows[i + 1][0]:
                pairs.append((self.rows[i], self.rows[i + 1]))
                i += 2
            else:
                i += 1
        return pairs

    def pairs_near(self, t, tol):
        return [p for p in self.event_pairs() if fabs(mpf(p[0][0]) - t) <= tol]

    def grid(self, every=1):
        """rows that are not part of an event pair (the sampling grid)."""
        out = []
        n = len(self.rows)
        for i, r in enumerate(self.rows):
            same = (i > 0 and self.rows[i - 1][0] == r[0]) or (i + 1 < n and self.rows[i + 1][0] == r[0])
            if not same:
                out.append(r)
        return out[::every]


def digits(x, ref, scale=1, cap=None):
    """agreeing digits of x with ref, relative to scale (absolute/scale)."""
    cap = cap if cap is not None else mp.dps
    if x is None:
        return mpf(-99)
    d = fabs(mpf(x) - ref) / scale
    if d == 0:
        return mpf(cap)
    return min(mpf(cap), -log10(d))


class Worst:
    """keeps the smallest digit figure and where it occurred"""

    def __init__(self, cap=60):
        self.d = mpf(cap)
        self.where = "-"

    def add(self, d, where):
        if d < self.d:
            self.d = d
            self.where = where


def finish(worst, need, extra=""):
    fig = "%.1f" % float(worst.d)
    extra = ("; " + extra) if extra else ""
    if worst.d >= need:
        print("PASS %s: %s digits (need %s)%s" % (NAME, fig, need, extra))
        _cleanup()
        sys.exit(0)
    print("FAIL %s: %s digits (need %s), worst at %s%s" % (NAME, fig, need, worst.where, extra))
    _cleanup()
    sys.exit(1)


def compare_events(evs, expected, w, tscale=1, check_kinds=True, name_map=None):
    """expected: list of (time, kind or None).  Fails on a count mismatch."""
    if len(evs) != len(expected):
        ts = ", ".join(mp.nstr(e["t"], 8) + ":" + e["kind"] for e in evs[:12])
        xs = ", ".join(mp.nstr(t, 8) + ":" + str(k) for t, k in expected[:12])
        fail("%d events, expected %d (hdo: %s ...; expected: %s ...)" % (len(evs), len(expected), ts, xs))
    for i, (e, (t, kind)) in enumerate(zip(evs, expected)):
        if check_kinds and kind is not None and e["kind"] != kind:
            fail("event %d at %s is %s, expected %s" % (i + 1, e["time"], e["kind"], kind))
        w.add(digits(e["t"], t, tscale), "event %d time (t=%s)" % (i + 1, mp.nstr(t, 12)))
