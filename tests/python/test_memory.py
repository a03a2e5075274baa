"""test_memory.py -- the module keeps no Python object it made: after many
runs, checks and errors (each path that builds results, verdicts and
exceptions) the memory Python has allocated is what it was, within a few
bytes an iteration (tracemalloc). LeakSanitizer does not see a Python
object the module forgot to release (its stack is the interpreter's);
this does, and make check SAN=1 sees the C memory (tests/e2e/python.sh)."""

import gc
import tracemalloc

import hdo
from test_ball import BALL, TOL, scipy_ball
from test_run import LOGNEG


def test_no_python_object_is_kept():
    ball = hdo.Model.from_string(BALL, "ball.hdae")
    logneg = hdo.Model.from_string(LOGNEG)
    t, values = scipy_ball()
    bad_t = t.copy()
    bad_t[3] = -1

    def once():
        r = ball.run(digits=20, params={"e": "0.75"}, verify=True)
        (r.time, r["h"], r.modes, r.events, r.exact("h"), r.exact("v", strings=True),
         r.summary, r.notes)
        v = ball.check(t, values, **TOL)
        (v.report, v.variables, v.events, v.summary)
        for fn, exc in ((lambda: logneg.run(digits=10), hdo.RunError),
                        (lambda: ball.check(bad_t, values, **TOL), hdo.CheckError),
                        (lambda: hdo.Model.from_string("model x\nvar\n"), hdo.ModelError),
                        (lambda: ball.run(until="-1"), ValueError)):
            try:
                fn()
            except exc as e:
                str(e), getattr(e, "result", None)

    for _ in range(5):  # caches that fill once (numpy, re, the warnings)
        once()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        n = 60
        for _ in range(n):
            once()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # a forgotten reference to the smallest object (an int, 28 bytes) in
    # any of these paths would add at least 28 bytes an iteration
    assert grown < 10 * n, "%d bytes more after %d iterations" % (grown, n)
