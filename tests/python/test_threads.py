"""test_threads.py -- hdo computes with the GIL released: Python goes on in
other threads during a run, and two threads run two models at the same
time, each getting the result it gets alone (and the closed form: a
harmonic oscillator switching at x = 0, events at pi/2 + k pi)."""

import threading
import time

import mpmath
import pytest

import hdo
from test_ball import BALL, TOL, scipy_ball

OSC = """\
model osc
var x = 1
var v = 0
mode right
  der(x) = v
  der(v) = -x
  when x < 0 goto left
end
mode left
  der(x) = v
  der(v) = -x
  when x > 0 goto right
end
start right at 0
until 300
"""

VDP = """\
model vdp
var x = 2
var y = 0
mode m
  der(x) = y
  der(y) = (1 - x^2)*y - x
end
start m
until 200
"""


def timed(fn, out, key, barrier=None):
    """Runs fn in a thread's body, recording the wall-clock interval of
    the call and its result (or its exception) in out[key]."""
    if barrier is not None:
        barrier.wait()
    t0 = time.perf_counter()
    try:
        r = fn()
    except BaseException as e:  # reported by the test, not lost in the thread
        r = e
    out[key] = (t0, time.perf_counter(), r)


def test_python_runs_while_hdo_computes():
    m = hdo.Model.from_string(VDP)
    out = {}
    th = threading.Thread(target=timed, args=(lambda: m.run(digits=60, every=10), out, "r"))
    ticks = []
    th.start()
    while th.is_alive():
        ticks.append(time.perf_counter())
    th.join()
    t0, t1, r = out["r"]
    assert isinstance(r, hdo.Result), r
    # the main thread ran Python all through the middle of the run: with
    # the GIL held by the run it could not have run a single line there
    mid = [t for t in ticks if t0 + 0.2 * (t1 - t0) < t < t1 - 0.2 * (t1 - t0)]
    assert t1 - t0 > 0.05
    assert len(mid) > 1000, "%d ticks of the main thread in %.2f s of run" % (len(mid), t1 - t0)


def test_two_models_at_once():
    osc, vdp = hdo.Model.from_string(OSC), hdo.Model.from_string(VDP)
    jobs = {"osc": lambda: osc.run(digits=100, every=10),
            "vdp": lambda: vdp.run(digits=60, every=10)}
    alone = {k: f() for k, f in jobs.items()}
    out = {}
    barrier = threading.Barrier(2)
    threads = [threading.Thread(target=timed, args=(f, out, k, barrier))
               for k, f in jobs.items()]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    ra, rb = out["osc"][2], out["vdp"][2]
    assert isinstance(ra, hdo.Result) and isinstance(rb, hdo.Result), (ra, rb)
    # The two runs computed at the same time: each entered libhdo while the
    # other was inside (under a GIL held during a run, the second would
    # have entered after the first left).
    (a0, a1), (b0, b1) = ra.interval, rb.interval
    later_start, first_end = max(a0, b0), min(a1, b1)
    assert later_start < first_end - 0.1 * (first_end - min(a0, b0)), (a0, a1, b0, b1)
    # each got the result it gets alone: the same digits, bit for bit
    for key, r in (("osc", ra), ("vdp", rb)):
        assert r.exact("time", strings=True) == alone[key].exact("time", strings=True)
        for name in r.variables:
            assert r.exact(name, strings=True) == alone[key].exact(name, strings=True)
    # and the oscillator's events are the closed form's, pi/2 + k pi
    mpmath.mp.dps = 120
    assert len(ra.events) == 95
    for k, e in enumerate(ra.events):
        exact = mpmath.pi / 2 + k * mpmath.pi
        assert abs(mpmath.mpf(e.time_exact) - exact) < exact * mpmath.mpf(10) ** -99


def test_checks_in_threads_share_a_model():
    ball = hdo.Model.from_string(BALL, "ball.hdae")
    t, values = scipy_ball()
    bad = {"h": values["h"] + 2e-8, "v": values["v"]}
    alone = [ball.check(t, values, **TOL).report, ball.check(t, bad, **TOL).report]
    out = {}
    barrier = threading.Barrier(4)
    threads = [threading.Thread(target=timed, args=(
        lambda c=c: ball.check(t, c, **TOL).report, out, k, barrier))
        for k, c in enumerate([values, bad, values, bad])]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    strip = lambda s: [l for l in s.splitlines() if not l.startswith("reference:")]
    for k in range(4):
        assert strip(out[k][2]) == strip(alone[k % 2])
    assert "PASS" == out[0][2].split("\n")[0] and "FAIL" == out[1][2].split("\n")[0]
