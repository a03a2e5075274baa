"""test_ball.py -- a user's own pytest file: the README's ball and a SciPy
candidate judged through `import hdo` (a pass and two planted failures).

Written as a test in another repository would be: nothing here reads
hdo's source tree, only the installed (or built) module. The expected
values are the closed form of the bouncing ball (impact k + 1 at
t1 (1 + 2 e + ... + 2 e^k), t1 = sqrt(2 h0 / g)) and SciPy's own
solution, never hdo's output.
"""

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import hdo
import hdo.testing

BALL = """\
model ball
param g = 9.81
param e = 0.8
var h = 1
var v = 0
mode fly
  der(h) = v
  der(v) = -g
  when h < 0 goto fly with v = -e*v
end
start fly at 0
until 2
"""

TOL = dict(time_abs=1e-8, value_abs=1e-8, value_rel=1e-8)


def scipy_ball(e=0.8, g=9.81, t_end=2.0, step=0.01):
    """The README's ball.py as a function: every 0.01 s, and at each impact
    two rows with the same time (before and after it)."""
    def hit(t, y):
        return y[0]
    hit.terminal, hit.direction = True, -1
    t, y, rows = 0.0, [1.0, 0.0], []
    while t < t_end:
        s = solve_ivp(lambda t, y: [y[1], -g], (t, t_end), y, events=hit,
                      rtol=1e-10, atol=1e-12, dense_output=True)
        grid = np.append(np.arange(np.ceil(t / step) * step, s.t[-1], step), s.t[-1])
        rows += [(ti, *s.sol(ti)) for ti in grid if ti >= t]
        t, y = s.t[-1], [0.0, -e * s.y[1, -1]]
        if s.status == 1:
            rows.append((t, *y))
    a = np.array(rows)
    return a[:, 0], {"h": a[:, 1], "v": a[:, 2]}


@pytest.fixture(scope="module")
def ball():
    return hdo.Model.from_string(BALL, "ball.hdae")


@pytest.fixture(scope="module")
def candidate():
    return scipy_ball()


def impacts(e=0.8, g=9.81, h0=1.0, t_end=2.0):
    t1 = math.sqrt(2 * h0 / g)
    out, t, k = [], t1, 0
    while t < t_end:
        out.append(t)
        k += 1
        t += 2 * e ** k * t1
    return out


def test_the_scipy_candidate_passes(ball, candidate):
    t, values = candidate
    v = ball.check(t, values, **TOL)
    assert v.passed, v.report
    assert v.first_failure is None
    assert v.summary["verdict"] == "PASS"
    assert v.summary["events_ref"] == v.summary["events_cand"] == len(impacts())
    assert v.summary["rows_compared"] == 2 * len(t)
    # the event table pairs hdo's impacts with SciPy's: both near the closed form
    for pair, exact in zip(v.events, impacts()):
        assert pair.verdict == "ok"
        assert abs(pair.reference - exact) < 1e-14 * exact
        assert abs(pair.candidate[0] - exact) < 1e-9
    assert hdo.testing.assert_matches(ball, candidate[0], candidate[1], **TOL)


def test_a_wrong_restitution_fails_at_the_first_bounce(ball):
    # the candidate bounces with e = 0.75: right until the first impact,
    # its velocity after it is off by 0.05 g t1
    t, values = scipy_ball(e=0.75)
    v = ball.check(t, values, **TOL)
    assert not v.passed
    t1 = impacts()[0]
    # Within time_abs of the impact the tube holds both limits, so the
    # first failure is the first row after it, where h and v both fail ...
    k = int(np.flatnonzero(t > t1 + TOL["time_abs"])[0])
    assert v.first_failure.startswith("t = %.17g (arrays line %d), variable h:"
                                      % (t[k], k + 2))
    assert v.variables["v"].fail[k] == v.variables["h"].fail[k] == 1
    assert not v.variables["v"].fail[:k].any()
    # ... v below the reference by the difference of the rebound velocities
    c = v.variables["v"]
    assert c.lo[k] - c.values[k] == pytest.approx(0.05 * 9.81 * t1, rel=1e-6)
    with pytest.raises(AssertionError, match="does not match model ball: t = "):
        hdo.testing.assert_matches(ball, t, values, **TOL)


def test_one_planted_value_is_the_first_failure(ball, candidate):
    t, values = candidate
    h = values["h"].copy()
    k = int(np.searchsorted(t, 0.3))  # a row in free flight, before any event
    h[k] += 1e-6
    v = ball.check(t, {"h": h, "v": values["v"]}, **TOL)
    assert not v.passed
    # named by its time and its line (the candidate as CSV: row k is line k + 2)
    assert v.first_failure.startswith("t = %.17g (arrays line %d), variable h:"
                                      % (t[k], k + 2))
    assert list(np.flatnonzero(v.variables["h"].fail)) == [k]
    assert v.summary["vars_failed"] == (1, 2)
    # the distance out of the range h takes within time_abs of t: the
    # 1e-6 planted less |v| time_abs (v = -g t)
    assert v.summary["value_err"] == pytest.approx(1e-6 - 9.81 * t[k] * 1e-8, rel=1e-3)


def test_an_odeResult_with_its_event_times(ball):
    # one solve_ivp to the first impact: an OdeResult whose t_events are
    # the solver's own events, compared over the span it covers
    def hit(t, y):
        return y[0]
    hit.terminal, hit.direction = True, -1
    sol = solve_ivp(lambda t, y: [y[1], -9.81], (0, 2), [1.0, 0.0], events=hit,
                    rtol=1e-11, atol=1e-13, dense_output=True)
    v = ball.check(sol, names=["h", "v"], **TOL)
    assert v.passed, v.report
    assert v.events_given
    assert "coverage:" in v.report and "candidate OdeResult" in v.report
    (pair,) = [e for e in v.events if e.judged]
    assert pair.verdict == "ok"
    assert abs(pair.candidate[0] - impacts()[0]) < 1e-9
