#!/usr/bin/python3
"""refcompare.py -- compares a regenerated golden reference with the stored one.

The second, independent implementation of `hdo ref compare`'s rule: the
self-test of tests/e2e/references.sh wants both to give the same verdict on
every planted change (ref.json, the options, is hdo's alone).

usage: refcompare.py CASE STORED_DIR FRESH_DIR [--digits N]

Reads trajectory.csv, events.csv and summary.json of both folders (the files
`hdo run` writes) with Python's decimal module -- none of hdo's own comparison
code -- and prints one line:

    PASS CASE: agree to A digits (T trajectory rows, E events[, bit-identical])

or FAIL lines naming the case, the file, the line, the column and both values.
Exit status 0 when everything agrees to N significant digits (default 35),
1 otherwise, 2 when a file is missing or unreadable.

The rule (docs/decisions.md D-041, "Golden references"): two numbers a
(stored) and b (fresh) agree to

    digits(a, b) = -log10( |a - b| / max(|a|, |b|, 10^-5 * S) )

where S is the largest magnitude of that column in the stored file (the time
column and the event times use the time column's S).  Above 10^-5 S this is
the relative error; below it the floor makes it an absolute error of
10^-(N+5) S.  Why: hdo measures its own accuracy relative to the column's
scale (--verify, ref/result/agreement.c) and works with the local tolerance
10^-(D+5); a value that is zero in exact arithmetic (a contact force before
contact, lambda at t0, a state that crosses zero at an event) is computed to
an absolute accuracy near 10^-(D+5) S, so its relative digits are
meaningless.  At D = 40 and N = 35 the rule asks for 35 significant digits of
every value within five decades of its column's scale and 40 digits of S
below that: the five digits of slack between the stored 40 digits and the
35 compared are what a legitimate change of the engine (another step
sequence, another summation order) may move.  An all-zero column has S = 1.

Events must have the same count, index, from, to, kind and guard text; rows
the same count, mode and empty cells.  summary.json: "seconds" and "timing"
(wall and CPU times), "hdo_version" and
"command_line" are not compared; "steps", "implicit_steps" (the steps the
implicit method took, a subset of steps), "method_arcs" (where --method
auto's switch put the implicit method: a cost choice, issue #28),
"average_order", "max_residual" and "absolute_values" (how many values of
a variable fell below its scale floor: noise at the floor moves the count,
while the values themselves are held by the rule above, decisions.md D-137)
describe the computation, not the result, and are reported as notes when
they change; "verified_digits" fails
only when the fresh run no longer verifies the N digits the stored one did;
t0 and t_end are compared as numbers; every other key present in both must be
equal.  A key present in only one file is a note (a format change).
"""
import csv
import decimal
import json
import os
import sys
from decimal import Decimal

decimal.getcontext().prec = 80
FLOOR_DECADES = 5
MAX_REPORTS = 5          # failures printed per file before "... and K more"
# wall and CPU times of the run; hdo's version and the command line (with
# its output folder) say what produced the result, not what it is
NOT_COMPARED = {"seconds", "timing", "hdo_version", "command_line"}
NOTED = {"steps", "implicit_steps", "method_arcs", "max_residual",
         "average_order", "absolute_values"}


class Failures:
    def __init__(self, case):
        self.case = case
        self.count = {}
        self.total = 0

    def add(self, fname, msg):
        self.total += 1
        n = self.count.get(fname, 0) + 1
        self.count[fname] = n
        if n <= MAX_REPORTS:
            print("FAIL %s: %s: %s" % (self.case, fname, msg))

    def flush(self):
        for fname, n in sorted(self.count.items()):
            if n > MAX_REPORTS:
                print("FAIL %s: %s: ... and %d more differences"
                      % (self.case, fname, n - MAX_REPORTS))


def num(s):
    try:
        d = Decimal(s)
    except decimal.InvalidOperation:
        return None
    return d if d.is_finite() else None


def digits(a, b, scale, cap):
    """Agreeing digits of a and b under the rule above, capped at cap."""
    diff = abs(a - b)
    if diff == 0:
        return Decimal(cap)
    floor = scale * Decimal(10) ** -FLOOR_DECADES
    den = max(abs(a), abs(b), floor)
    d = -(diff / den).log10()
    return min(d, Decimal(cap))


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError("%s is empty" % path)
    return rows[0], rows[1:]


def col_scales(header, rows, numeric_from):
    """Largest magnitude per numeric column (1 for an all-zero column)."""
    sc = [Decimal(0)] * len(header)
    for r in rows:
        for j in range(numeric_from, min(len(r), len(header))):
            v = num(r[j]) if r[j] != "" else None
            if v is not None and abs(v) > sc[j]:
                sc[j] = abs(v)
    return [s if s > 0 else Decimal(1) for s in sc]


def main():
    args = sys.argv[1:]
    need = 35
    if "--digits" in args:
        i = args.index("--digits")
        need = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    case, stored, fresh = args
    fails = Failures(case)
    worst = None            # smallest agreement over all compared numbers
    identical = True
    notes = []

    def number(fname, where, col, sa, sb, scale, cap):
        nonlocal worst
        a, b = num(sa), num(sb)
        if a is None or b is None:
            fails.add(fname, "%s column %s: not a number: stored %r, fresh %r"
                      % (where, col, sa, sb))
            return
        d = digits(a, b, scale, cap)
        if worst is None or d < worst:
            worst = d
        if d < need:
            fails.add(fname, "%s column %s: stored %s, fresh %s: %.1f digits "
                      "(need %d)" % (where, col, sa, sb, d, need))

    try:
        th_a, tr_a = read_csv(os.path.join(stored, "trajectory.csv"))
        th_b, tr_b = read_csv(os.path.join(fresh, "trajectory.csv"))
        eh_a, ev_a = read_csv(os.path.join(stored, "events.csv"))
        eh_b, ev_b = read_csv(os.path.join(fresh, "events.csv"))
        with open(os.path.join(stored, "summary.json")) as f:
            sa = json.load(f, parse_float=Decimal)
        with open(os.path.join(fresh, "summary.json")) as f:
            sb = json.load(f, parse_float=Decimal)
    except (OSError, ValueError) as e:
        print("FAIL %s: cannot read: %s" % (case, e))
        return 2
    cap = int(sa.get("digits", 40))

    # Bit-identical CSV files are worth saying (summary.json always differs
    # in "seconds").
    for name in ("trajectory.csv", "events.csv"):
        with open(os.path.join(stored, name), "rb") as f1, \
                open(os.path.join(fresh, name), "rb") as f2:
            if f1.read() != f2.read():
                identical = False

    # trajectory.csv
    fn = "trajectory.csv"
    if th_a != th_b:
        fails.add(fn, "header differs: stored %s, fresh %s"
                  % (",".join(th_a), ",".join(th_b)))
    elif len(tr_a) != len(tr_b):
        fails.add(fn, "stored has %d rows, fresh %d" % (len(tr_a), len(tr_b)))
    else:
        sc = col_scales(th_a, tr_a, 0)
        tscale = sc[0]
        for i, (ra, rb) in enumerate(zip(tr_a, tr_b)):
            where = "line %d (t = %s)" % (i + 2, ra[0] if ra else "?")
            if len(ra) != len(th_a) or len(rb) != len(th_a):
                fails.add(fn, "%s: %d/%d cells, header has %d"
                          % (where, len(ra), len(rb), len(th_a)))
                continue
            number(fn, where, "time", ra[0], rb[0], tscale, cap)
            if ra[1] != rb[1]:
                fails.add(fn, "%s column mode: stored %s, fresh %s"
                          % (where, ra[1], rb[1]))
            for j in range(2, len(th_a)):
                if ra[j] == "" or rb[j] == "":
                    if ra[j] != rb[j]:
                        fails.add(fn, "%s column %s: stored %r, fresh %r"
                                  % (where, th_a[j], ra[j], rb[j]))
                    continue
                number(fn, where, th_a[j], ra[j], rb[j], sc[j], cap)

    # events.csv: the same events, the times as numbers
    fn = "events.csv"
    tscale = col_scales(th_a, tr_a, 0)[0] if tr_a else Decimal(1)
    if eh_a != eh_b:
        fails.add(fn, "header differs: stored %s, fresh %s"
                  % (",".join(eh_a), ",".join(eh_b)))
    elif len(ev_a) != len(ev_b):
        fails.add(fn, "stored has %d events, fresh %d" % (len(ev_a), len(ev_b)))
    else:
        it = eh_a.index("time") if "time" in eh_a else 1
        for i, (ra, rb) in enumerate(zip(ev_a, ev_b)):
            where = "line %d" % (i + 2)
            if len(ra) != len(eh_a) or len(rb) != len(eh_a):
                fails.add(fn, "%s: %d/%d cells, header has %d"
                          % (where, len(ra), len(rb), len(eh_a)))
                continue
            for j, col in enumerate(eh_a):
                if j == it:
                    number(fn, where, col, ra[j], rb[j], tscale, cap)
                elif ra[j] != rb[j]:
                    fails.add(fn, "%s column %s: stored %s, fresh %s"
                              % (where, col, ra[j], rb[j]))

    # summary.json
    fn = "summary.json"
    for k in sorted(set(sa) | set(sb)):
        if k in NOT_COMPARED:
            continue
        if k not in sa or k not in sb:
            notes.append("%s only in %s" % (k, "stored" if k in sa else "fresh"))
            continue
        va, vb = sa[k], sb[k]
        if k in NOTED:
            if va != vb:
                notes.append("%s %s -> %s" % (k, va, vb))
        elif k == "verified_digits":
            if va != vb:
                notes.append("verified_digits %s -> %s" % (va, vb))
            if va >= need > vb:
                fails.add(fn, "verified_digits: stored %s, fresh %s (need %d)"
                          % (va, vb, need))
        elif k in ("t0", "t_end"):
            number(fn, "key", k, str(va), str(vb), Decimal(1), cap)
        elif va != vb:
            fails.add(fn, "key %s: stored %s, fresh %s"
                      % (k, va, vb))

    fails.flush()
    if fails.total:
        print("FAIL %s: %d difference(s) beyond %d digits or in structure "
              "(smallest agreement %s digits)"
              % (case, fails.total, need,
                 "-" if worst is None else "%.1f" % worst))
        return 1
    shown = cap if worst is None else worst
    print("PASS %s: agree to %s digits (%d trajectory rows, %d events%s)%s"
          % (case, ("%d" % shown) if shown == int(shown) else "%.1f" % shown,
             len(tr_a), len(ev_a), ", bit-identical" if identical else "",
             ("; notes: " + "; ".join(notes)) if notes else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
