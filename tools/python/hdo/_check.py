"""hdo._check -- Model.check: `hdo check` on a candidate given as arrays or
as a SciPy OdeResult, and the Verdict it returns."""

import math
from collections import namedtuple

import numpy as np

from . import _hdo
from ._exact import _param_list

#: One compared variable of a Verdict: per candidate row (numpy arrays of
#: len(v.time)) its value, whether the cell had one (present), the range
#: [lo, hi] the reference takes within time_abs of the row, the allowed
#: band [band_lo, band_hi] around it, and fail (0 inside, 1 outside the
#: tube, 2 not compared); ref the reference samples at v.reference_time;
#: the counts and the line of the report (description).
VariableCheck = namedtuple(
    "VariableCheck",
    "column variable values present lo hi band_lo band_hi fail ref "
    "ncompared nfailed nnoref nnocand worst first_fail worst_err "
    "worst_allowed max_diff_row max_diff failed description")

#: One line of the event table: the reference time (None when the
#: candidate's event is extra), the candidate's time interval (t_lo,
#: t_hi) (None when missing), the mode change, the verdict (ok, missing,
#: extra, early, late, wrong mode change, ...), the difference candidate -
#: reference (NaN without a pair), and whether it counts (judged; events
#: outside the candidate's span or at the end time do not).
EventPair = namedtuple(
    "EventPair", "reference candidate from_mode to_mode verdict difference judged")


def _parse_summary(line):
    """The summary line of hdo check as a dict: numbers as int or float,
    `-` as None, vars_failed as (k, n), the spans as (a, b), events_given
    as bool, verdict and value_where as written."""
    out = {}
    for item in line.split()[1:]:
        key, _, val = item.partition("=")
        if val == "-":
            out[key] = None
        elif key in ("verdict", "value_where"):
            out[key] = val
        elif key == "events_given":
            out[key] = val == "yes"
        elif key == "vars_failed":
            k, n = val.split("/")
            out[key] = (int(k), int(n))
        elif key.endswith("_span"):
            a, b = val.split("..")
            out[key] = (float(a), None if b == "-" else float(b))
        elif key.startswith(("events_", "rows_")):
            out[key] = int(val)
        else:
            out[key] = float(val)
    return out


def _bytes(a):
    return np.ascontiguousarray(a, dtype=np.float64).tobytes()


def _candidate(model, t, values, names):
    """(name, times, [column names], rows x columns values, present, events)
    from the arguments of check: t and a dict of columns, or an object
    with t and y (a SciPy OdeResult) and the names of y's rows."""
    events = None
    name = "arrays"
    if values is None and hasattr(t, "t") and hasattr(t, "y"):
        sol = t
        t = sol.t
        y = np.asarray(sol.y)
        if y.ndim != 2:
            raise ValueError("the OdeResult's y is not 2-D")
        if names is None:
            if y.shape[0] != len(model.variables):
                raise ValueError(
                    "names: which variables are the %d rows of y? (the model has %s)"
                    % (y.shape[0], ", ".join(model.variables)))
            names = model.variables
        if len(names) != y.shape[0]:
            raise ValueError("names: %d names for the %d rows of y"
                             % (len(names), y.shape[0]))
        values = {n: y[k] for k, n in enumerate(names) if n is not None}
        t_events = getattr(sol, "t_events", None)
        if t_events is not None:
            # the solver's own event times, of every event function
            events = sorted(float(x) for arr in t_events for x in np.ravel(arr))
            events = [(x, None, None) for x in events]
        name = "OdeResult"
    elif values is None:
        raise TypeError("check(t, {name: values}) or check(sol, names=[...])")
    t = np.asarray(t, dtype=np.float64)
    if t.ndim != 1 or len(t) == 0:
        raise ValueError("t: expected a 1-D array with at least one time")
    cols = [str(k) for k in values]
    for c in cols:
        if not c or any(ch in c for ch in "\r\n"):
            raise ValueError("column name %r: empty or with a line end" % c)
        if c == "mode":  # hdo check reads a column "mode" as mode names
            raise ValueError("a column named 'mode': give the modes with modes=[...]")
    table = np.empty((len(t), len(cols)), dtype=np.float64)
    present = np.ones((len(t), len(cols)), dtype=np.uint8)
    for j, key in enumerate(values):
        col = values[key]
        mask = np.ma.getmaskarray(col) if np.ma.isMaskedArray(col) else None
        arr = np.ma.getdata(col) if mask is not None else col
        arr = np.asarray(arr, dtype=np.float64)
        if arr.shape != t.shape:
            raise ValueError("%s: %d values for %d times" % (cols[j], arr.size, len(t)))
        table[:, j] = arr
        if mask is not None:  # masked: an empty cell, "no value here"
            present[:, j] = ~mask
    return name, t, cols, table, present, events


def check(model, t, values=None, *, names=None, modes=None, events=None,
          time_abs=None, value_abs=None, value_rel=None, tol=None,
          digits=_hdo.DIGITS_DEFAULT, params=None, map=None, name=None):
    """Judges a candidate against the model's reference as `hdo check`
    does on the same data (docs/python.md), and returns a Verdict.

    The candidate: t (times, non-decreasing; two rows at the same time are
    an event's left and right limit) and values {name: array} (a masked
    entry is an empty cell), or an object with t, y (and t_events) such as
    SciPy's OdeResult with names=[...] for the rows of y (None skips a
    row). modes: the mode of every row (a mode column); events: the
    candidate's events as times or (time, from, to) with mode names or
    None -- by default the OdeResult's t_events, else inferred from the
    rows as hdo check infers them. time_abs, value_abs, value_rel override
    the tolerance file; tol: the tolerance file (default, as hdo check:
    tolerances/<file>.tol by the model's file name, then
    tolerances/<model name>.tol, each in the working folder, else beside
    the model's folder, else the defaults); digits and params: of the
    reference run; map: {column: variable}; name: the candidate's name in
    the report.

    Raises hdo.CheckError for what makes `hdo check` exit 2 (a bad
    candidate, events or tolerance file), hdo.RunError when the reference
    run fails, hdo.ModelError for a params override the model refuses.
    """
    cname, t, cols, table, present, ev = _candidate(model, t, values, names)
    if name is None:
        name = cname
    events_name = None
    if events is not None:
        ev = [(float(e), None, None) if np.isscalar(e) else
              (float(e[0]), e[1], e[2]) for e in events]
        events_name = "events given"
    elif ev is not None:
        events_name = "OdeResult t_events"
    if modes is not None:
        modes = [str(m) for m in modes]
        if len(modes) != len(t):
            raise ValueError("modes: %d modes for %d times" % (len(modes), len(t)))
    nan = float("nan")
    kw = dict(
        text=model._text, filename=model._filename, params=_param_list(params),
        digits=int(digits), name=str(name), times=_bytes(t), values=_bytes(table),
        present=None if present.all() else present.tobytes(), names=cols,
        row_modes=modes,
        ev_times=None if ev is None else _bytes([e[0] for e in ev]),
        ev_from=None if ev is None else [None if e[1] is None else str(e[1]) for e in ev],
        ev_to=None if ev is None else [None if e[2] is None else str(e[2]) for e in ev],
        events_name=events_name, tol_path=None if tol is None else str(tol),
        time_abs=nan if time_abs is None else float(time_abs),
        value_abs=nan if value_abs is None else float(value_abs),
        value_rel=nan if value_rel is None else float(value_rel),
        maps=["%s=%s" % kv for kv in (map or {}).items()])
    try:
        c = _hdo.check(**kw)
    except _hdo.CheckError as e:
        # a row of the arrays: the candidate as CSV has its header on line 1
        e.row = e.line - 2 if e.file in (name, events_name) and e.line else None
        raise
    return Verdict(c)


class Verdict:
    """The verdict of Model.check, with the figures of `hdo check`.

    passed (also bool(v)); first_failure (the report's `first failure:`
    text, None when passed); report (what `hdo check` prints on stdout);
    summary (its last line as a dict); variables ({column: VariableCheck});
    events (the event table, EventPair); time, reference_time; tolerances.
    """

    def __init__(self, c):
        self._c = c
        self.passed = c.passed()
        self.first_failure = c.first_failure()
        self.report = c.report()
        last = [l for l in self.report.splitlines() if l.startswith("summary: ")][-1]
        self.summary = _parse_summary(last)
        d = c.data()
        arr = lambda b, dt=np.float64: np.frombuffer(b, dtype=dt)
        #: the candidate's times and the reference samples' times
        self.time = arr(d["time"])
        self.reference_time = arr(d["ref_time"])
        self.variables = {}
        for v in d["variables"]:
            v = dict(v)
            for k in ("values", "lo", "hi", "band_lo", "band_hi", "ref"):
                v[k] = arr(v[k])
            v["present"] = arr(v["present"], np.uint8).astype(bool)
            v["fail"] = arr(v["fail"], np.uint8)
            self.variables[v["column"]] = VariableCheck(**v)
        ref_ev, cand_ev = d["ref_events"], d["cand_events"]
        self.events = []
        for r, k, verdict, diff, judged in d["matches"]:
            re_, ce = (ref_ev[r] if r >= 0 else None), (cand_ev[k] if k >= 0 else None)
            src = re_ if re_ is not None else ce
            self.events.append(EventPair(
                reference=None if re_ is None else re_[0],
                candidate=None if ce is None else (ce[0], ce[1]),
                from_mode=src[2], to_mode=src[3], verdict=verdict,
                difference=diff, judged=judged))
        #: the reference's events (time, from, to) and the candidate's
        #: ((t_lo, t_hi), from, to), cascades merged
        self.reference_events = [(e[0], e[2], e[3]) for e in ref_ev]
        self.candidate_events = [((e[0], e[1]), e[2], e[3]) for e in cand_ev]
        self.events_given = d["events_given"]
        #: the tolerances in effect and the file they came from (None: none)
        self.tolerances = {k: d[k] for k in ("time_abs", "value_abs", "value_rel",
                                             "modes_exact")}
        self.tolerances["file"] = d["tol_file"]
        self.digits = d["digits"]
        self.span = (d["t0"], None if math.isnan(d["t_end"]) else d["t_end"])
        self.seconds = d["seconds"]

    def __bool__(self):
        return self.passed

    def write_junit(self, path):
        """Writes the JUnit XML report of `hdo check --junit` to path."""
        self._c.write_junit(str(path))

    def __repr__(self):
        return "<hdo.Verdict %s%s>" % (
            "PASS" if self.passed else "FAIL",
            "" if self.passed else ": " + (self.first_failure or ""))
