"""hdo -- the golden oracle for hybrid DAEs (libhdo) from Python.

    import hdo
    m = hdo.Model("ball.hdae")               # or hdo.Model.from_string(text)
    r = m.run(digits=30)                     # r.time, r["h"], r.events, r.exact("h")
    v = m.check(t, {"h": h, "v": v}, time_abs=1e-8, value_abs=1e-8)
    v.passed, v.first_failure, v.report      # as `hdo check` on the same data
    hdo.plot(r), hdo.plot(v)                 # matplotlib figures
    hdo.testing.assert_matches(m, sol, names=["h", "v"])   # for pytest

libhdo is bound as a CPython extension (hdo._hdo, GIL released while it
computes, so threads run models at once). The reference is docs/python.md.
"""

from . import _hdo
from ._hdo import CheckError, Error, ModelError, RunError
from ._model import Event, Model, Result
from ._check import EventPair, Verdict, VariableCheck
from .plot import plot
from . import testing

__version__ = _hdo.version
#: the most digits a run accepts (HDO_MAX_DIGITS)
MAX_DIGITS = _hdo.MAX_DIGITS

__all__ = [
    "Model", "Result", "Event", "Verdict", "VariableCheck", "EventPair",
    "Error", "ModelError", "RunError", "CheckError", "plot", "testing",
    "MAX_DIGITS", "__version__",
]
