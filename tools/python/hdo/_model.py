"""hdo._model -- hdo.Model (a parsed .hdae model), Model.run and its Result."""

import csv
import fractions
import io
import json
import os
from collections import namedtuple

import numpy as np

from . import _hdo
from ._exact import _exact_text, _param_list

_METHODS = {"auto": 0, "taylor": 1, "implicit": 2}

#: One event of a run: its time (the nearest double), the modes it goes
#: from and to, its kind (events.csv's: switch, simultaneous,
#: sliding-start, sliding-end, zeno, reinit-adjusted, crossing), the guard
#: as written, its 1-based index, and the time with the run's D digits
#: (events.csv's text).
Event = namedtuple("Event", "time from_mode to_mode kind guard index time_exact")


class Model:
    """A model in the .hdae language (docs/model-format.md).

    Model(path) reads the file as `hdo run` does; a model error raises
    hdo.ModelError with file, line, column and message. The text is kept:
    runs with other parameter values and checks parse it again, so the
    file may change afterwards without changing this Model.
    """

    def __init__(self, path):
        path = os.fspath(path)
        self._parsed = _hdo.parse(path=path)
        with open(path, "rb") as f:
            self._text = f.read()
        self._filename = path

    @classmethod
    def from_string(cls, text, filename="<string>"):
        """The model of text (str or bytes); filename names it in messages
        and finds its tolerance file in checks (as hdo check does with a
        model file's name)."""
        if isinstance(text, str):
            text = text.encode("utf-8")
        self = cls.__new__(cls)
        self._parsed = _hdo.parse(text=bytes(text), filename=filename)
        self._text = bytes(text)
        self._filename = filename
        return self

    # what the model declares
    name = property(lambda self: self._parsed.name, doc="the name after `model`")
    file = property(lambda self: self._filename, doc="the file name (or the filename given)")
    variables = property(lambda self: self._parsed.variables,
                         doc="the variables in declaration order (arrays as u[1], u[2], ...)")
    modes = property(lambda self: self._parsed.modes, doc="the modes of the file")
    warnings = property(lambda self: self._parsed.warnings,
                        doc="warning lines of the parse (a constant taken as zero), or None")

    @property
    def params(self):
        """The parameters by name with their exact values (Fraction), None
        for one that is not rational (sqrt(2))."""
        return {k: None if v is None else fractions.Fraction(v)
                for k, v in self._parsed.params.items()}

    def __repr__(self):
        return "<hdo.Model %s from %s>" % (self.name, self._filename)

    def _with(self, params):
        """The parsed model with these parameter overrides."""
        plist = _param_list(params)
        if not plist:
            return self._parsed
        return _hdo.parse(text=self._text, filename=self._filename, params=plist)

    def run(self, digits=_hdo.DIGITS_DEFAULT, until=None, every=None,
            params=None, verify=False, method="auto", times=None,
            max_steps=None, max_events=None):
        """Runs the model as `hdo run` does and returns its Result.

        digits: D significant digits in every value (1 to hdo.MAX_DIGITS);
        until: the end time (overrides the model's `until`), every: the
        sampling step, both exact (str, int, float by its repr, Fraction);
        params: {name: value} overrides, exact as `-p`; verify: also run at
        D + 10 digits in a second thread and count the digits they agree
        on (Result.verified_digits); method: "auto", "taylor" or
        "implicit"; times: sample exactly at these times instead of the
        grid; max_steps, max_events: as --max-steps, --max-events.

        Raises hdo.RunError (mode, time, message; .result holds the rows
        up to the failure), hdo.ModelError for a params override the model
        refuses, ValueError for a wrong option.
        """
        if method not in _METHODS:
            raise ValueError("method expects auto, taylor or implicit, not %r"
                             % (method,))
        if times is not None:
            times = np.ascontiguousarray(times, dtype=np.float64)
            if times.ndim != 1:
                raise ValueError("times: expected a 1-D array of times")
            times = times.tobytes()
        parsed = self._with(params)
        try:
            res = _hdo.run(parsed, digits=int(digits),
                           until=None if until is None else _exact_text(until, "until"),
                           every=None if every is None else _exact_text(every, "every"),
                           times=times, method=_METHODS[method],
                           max_steps=int(max_steps or 0), max_events=int(max_events or 0),
                           verify=bool(verify))
        except _hdo.RunError as e:
            if e.result is not None:  # the rows and events up to the failure
                e.result = Result(self, e.result, parsed)
            raise
        return Result(self, res, parsed)

    def check(self, t, values=None, **options):
        """Judges a candidate as `hdo check` does; see hdo._check.check."""
        from ._check import check
        return check(self, t, values, **options)


class Result:
    """The result of Model.run: rows at the sampling grid plus two rows
    (left and right limit) at every event, as trajectory.csv holds them.

    r.time and r["h"] are numpy float64 arrays (NaN where the row's mode
    lacks the variable), r.modes the mode of every row, r.events the
    events, r.exact("h") the values at the run's precision, r.summary
    summary.json as a dict.
    """

    def __init__(self, model, res, parsed):
        self.model = model
        self._res = res
        info = res.info()
        #: the digits asked for, and the working precision in bits
        self.digits = info["digits"]
        self.prec = info["prec"]
        self.steps = info["steps"]
        #: wall and CPU time of the run (summary.json "timing")
        self.seconds = info["seconds"]
        self.cpu_seconds = info["cpu_seconds"]
        #: with verify=True: the digits on which the runs at D and D + 10
        #: digits agree, and where they agree least (when below D)
        self.verified_digits = None if info["verified"] < 0 else info["verified"]
        self.verify_where = info["where"]
        #: when the call was inside libhdo, (entered, left) in
        #: time.monotonic() seconds: runs in threads overlap there
        self.interval = info["interval"]
        #: the variables, in the model's order
        self.variables = list(parsed.variables)
        self._cols = {}
        self._time = None
        self._modes = None
        self._events = None
        self._summary = None

    @property
    def verified(self):
        """True when verify=True confirmed all the digits asked for."""
        return self.verified_digits is not None and self.verified_digits >= self.digits

    def _column(self, j):
        # read only (a bytes buffer): every access returns the same array
        return np.frombuffer(self._res.column(j), dtype=np.float64)

    @property
    def time(self):
        """The time of every row (numpy float64, the nearest doubles)."""
        if self._time is None:
            self._time = self._column(-1)
        return self._time

    def _index(self, name):
        try:
            return self.variables.index(name)
        except ValueError:
            raise KeyError("%r is not a variable of model %s (variables: %s)"
                           % (name, self.model.name, ", ".join(self.variables))) from None

    def __getitem__(self, name):
        if name == "time":
            return self.time
        if name not in self._cols:
            self._cols[name] = self._column(self._index(name))
        return self._cols[name]

    def __contains__(self, name):
        return name == "time" or name in self.variables

    def keys(self):
        return ["time"] + self.variables

    def __len__(self):
        return len(self.time)

    @property
    def modes(self):
        """The mode of every row, as trajectory.csv's mode column names it
        (numpy array of str)."""
        if self._modes is None:
            idx, names = self._res.row_modes()
            self._modes = np.array([names[i] for i in idx], dtype=object)
        return self._modes

    def exact(self, name, strings=None):
        """The values of a variable (or "time") at the run's precision:
        mpmath mpf (exactly hdo's binary values, guard digits included;
        compute with them at mp.prec = r.prec) when mpmath is installed,
        else the strings of trajectory.csv (D significant digits);
        strings=True asks for the strings. None where the mode lacks the
        variable."""
        j = -1 if name == "time" else self._index(name)
        mpmath = None
        if not strings:
            try:
                import mpmath
            except ImportError:
                if strings is not None:
                    raise
        if mpmath is None:
            return self._res.exact(j, True)
        with mpmath.workprec(self.prec):
            return [None if v is None else mpmath.mpf(v) for v in self._res.exact(j, False)]

    @property
    def events(self):
        """The events in time order (hdo.Event)."""
        if self._events is None:
            rows = list(csv.DictReader(io.StringIO(self._res.events_csv())))
            self._events = [
                Event(time=t, from_mode=a, to_mode=b, kind=row["kind"], guard=g,
                      index=i, time_exact=row["time"])
                for (i, t, _, a, b, g, _, _), row in zip(self._res.events(True), rows)]
        return self._events

    @property
    def summary(self):
        """summary.json of the run as a dict."""
        if self._summary is None:
            self._summary = json.loads(self._res.summary_json())
        return self._summary

    @property
    def notes(self):
        """What `hdo run` prints on stderr after a run (modes integrated
        in the Kunkel-Mehrmann form, an event time known to fewer digits),
        "" when nothing."""
        return self._res.notes()

    def write(self, directory):
        """Writes trajectory.csv, events.csv and summary.json into
        directory, as `hdo run -o DIR` does (one complete set or none)."""
        self._res.write(os.fspath(directory))

    def __repr__(self):
        return "<hdo.Result %s: %d rows, %d events, %d digits>" % (
            self.model.name, len(self.time), len(self.events), self.digits)
