"""test_run.py -- Model.run and its Result against closed forms computed
with mpmath (the bouncing ball's parabolas and impacts, a relay that
slides from t = x0 on, a logarithm that fails at t = 1), and the errors
of models, options and runs with their places."""

import csv
import fractions
import json

import mpmath
import numpy as np
import pytest

import hdo
from test_ball import BALL

RELAY = """\
model relay
param x0 = 1
var x = x0
mode up
  der(x) = -1
  when x < 0 goto down
end
mode down
  der(x) = 1
  when x > 0 goto up
end
start up at 0
until 2
"""

LOGNEG = """\
model logneg
# y' = log(x) with x = 1 - t: log's argument reaches 0 at t = 1
var x = 1, y = 0
mode m
  der(x) = -1
  der(y) = log(x)
end
start m
until 2
"""


class Ball:
    """The ball's closed form in mpmath at dps digits: impact k + 1 at
    t1 (1 + 2 e + ... + 2 e^k), t1 = sqrt(2 h0 / g); between impacts a
    parabola leaving the floor at e^k g t1."""

    def __init__(self, e="0.8", g="9.81", dps=60):
        mpmath.mp.dps = dps
        self.g, self.e = mpmath.mpf(g), mpmath.mpf(e)
        self.t1 = mpmath.sqrt(2 / self.g)
        self.impacts = [self.t1]
        for k in range(1, 12):
            self.impacts.append(self.impacts[-1] + 2 * self.e ** k * self.t1)

    def h(self, t, after_impact=None):
        t = mpmath.mpf(t)
        k = sum(1 for ti in self.impacts if ti <= t) if after_impact is None else after_impact
        if k == 0:
            return 1 - self.g * t ** 2 / 2
        s = t - self.impacts[k - 1]
        return self.e ** k * self.g * self.t1 * s - self.g * s ** 2 / 2


def digits(x, exact, scale=1):
    """The digits on which x agrees with exact, relative to scale. A value
    rounded to D significant digits agrees to at least D - 1 (the rounding
    alone costs up to half a unit in the last place)."""
    d = abs(mpmath.mpf(x) - exact) / scale
    return 99 if d == 0 else float(-mpmath.log10(d))


@pytest.fixture(scope="module")
def ball():
    return hdo.Model.from_string(BALL, "ball.hdae")


def test_ball_at_30_digits_against_the_closed_form(ball):
    r = ball.run(digits=30)
    cf = Ball()
    assert r.digits == 30 and r.prec >= 133 and len(r) == len(r.time)
    # the events: the three impacts before t = 2, each to 30 digits
    assert [e.kind for e in r.events] == ["switch"] * 3
    assert [(e.from_mode, e.to_mode, e.guard) for e in r.events] == [("fly", "fly", "h < 0")] * 3
    for e, exact in zip(r.events, cf.impacts):
        assert digits(e.time_exact, exact, exact) >= 29
        assert e.time == float(exact)
    # every row: the exact values to 30 digits (relative to the ball's
    # height of 1), the doubles the nearest doubles of the closed form; of
    # the two rows at an impact the first is the left limit
    t_exact, h_exact = r.exact("time"), r.exact("h")
    tiny = mpmath.mpf(10) ** -25
    worst = 99
    for i, (t, h) in enumerate(zip(t_exact, h_exact)):
        before = sum(1 for ti in cf.impacts if ti < t - tiny)
        if i + 1 < len(r) and r.time[i + 1] == r.time[i]:
            k = before                      # left limit of an impact
        elif i > 0 and r.time[i - 1] == r.time[i]:
            k = before + 1                  # right limit
        else:
            k = sum(1 for ti in cf.impacts if ti <= t)
        exact = cf.h(t, k)
        worst = min(worst, digits(h, exact))
        assert abs(r["h"][i] - float(exact)) <= 4e-16
    assert worst >= 29


def test_grid_times_and_modes(ball):
    r = ball.run(digits=20, until=1, every="0.25")
    grid = [0, 0.25, 0.5, 0.75, 1]
    t1 = float(Ball().t1)
    assert list(r.time) == [0, 0.25, t1, t1, 0.5, 0.75, 1]
    assert list(r.modes) == ["fly"] * 7
    assert np.all(np.isin(grid, r.time))
    # the sample times asked, and the two rows of every impact
    r = ball.run(digits=20, times=[0.1, 0.7, 1.9])
    t2, t3 = (float(x) for x in Ball().impacts[1:3])
    assert list(r.time) == [0.1, t1, t1, 0.7, t2, t2, t3, t3, 1.9]


def test_parameters_are_exact_whatever_their_type(ball):
    runs = [ball.run(digits=25, params={"e": v}) for v in
            ("0.7", 0.7, fractions.Fraction(7, 10), "7/10")]
    cf = Ball(e="0.7")
    for r in runs:
        assert [e.time_exact for e in r.events] == [e.time_exact for e in runs[0].events]
        assert r.summary["overrides"]["e"] in ("0.7", "7/10")
    for e, exact in zip(runs[0].events, cf.impacts):
        assert digits(e.time_exact, exact, exact) >= 24
    assert ball.params == {"g": fractions.Fraction(981, 100), "e": fractions.Fraction(4, 5)}
    with pytest.raises(hdo.ModelError, match="no parameter 'ee'"):
        ball.run(params={"ee": 1})
    with pytest.raises(ValueError):
        ball.run(params={"e": "abc"})


def test_verify(ball):
    r = ball.run(digits=25, verify=True)
    assert r.verified and r.verified_digits >= 25 and r.verify_where is None
    assert r.summary["verified_digits"] == r.verified_digits
    assert ball.run(digits=25).verified_digits is None


def test_exact_values_as_mpf_and_as_text(ball, tmp_path):
    r = ball.run(digits=35, until=1)
    mp = r.exact("h")
    text = r.exact("h", strings=True)
    assert isinstance(mp[1], mpmath.mpf)
    # the text is trajectory.csv's: the same strings as `hdo run -o`
    r.write(tmp_path / "out")
    rows = list(csv.DictReader(open(tmp_path / "out" / "trajectory.csv")))
    assert [row["h"] for row in rows] == text
    assert [row["mode"] for row in rows] == list(r.modes)
    assert json.load(open(tmp_path / "out" / "summary.json")) == r.summary
    ev = list(csv.DictReader(open(tmp_path / "out" / "events.csv")))
    assert [(row["time"], row["kind"]) for row in ev] == [(e.time_exact, e.kind) for e in r.events]
    # and the mpf values, rounded to 35 digits, are those strings
    mpmath.mp.prec = r.prec
    for x, s in zip(mp, text):
        assert abs(x - mpmath.mpf(s)) <= abs(x) * mpmath.mpf(10) ** -34 + mpmath.mpf(10) ** -60


def test_sliding_relay():
    m = hdo.Model.from_string(RELAY, "relay.hdae")
    r = m.run(digits=20, every="0.5", params={"x0": "3/4"})
    (e,) = r.events
    assert (e.kind, e.from_mode, e.to_mode) == ("sliding-start", "up", "sliding(up,down)")
    assert digits(e.time_exact, mpmath.mpf(3) / 4, 0.75) >= 19  # x0 - t = 0
    assert list(r.time) == [0, 0.5, 0.75, 0.75, 1, 1.5, 2]
    assert list(r.modes) == ["up"] * 3 + ["sliding(up,down)"] * 4
    assert np.allclose(r["x"], [0.75, 0.25, 0, 0, 0, 0, 0], atol=1e-18, rtol=0)
    assert [md["name"] for md in r.summary["modes"]] == ["up", "sliding(up,down)"]


def test_a_failing_run_names_mode_and_time():
    m = hdo.Model.from_string(LOGNEG, "log-negative.hdae")
    with pytest.raises(hdo.RunError) as err:
        m.run(digits=20)
    e = err.value
    assert str(e) == "log-negative.hdae: error: domain error evaluating log(x) (in mode m at t = 1)"
    assert (e.mode, e.time, e.status) == ("m", 1.0, "HDO_ERR_DOMAIN")
    # the rows up to the failure, all before t = 1 where x = 1 - t
    assert isinstance(e.result, hdo.Result) and len(e.result) > 0
    assert e.result.time.max() <= 1 and np.allclose(e.result["x"], 1 - e.result.time)


def test_model_errors_and_wrong_options(ball, tmp_path):
    with pytest.raises(hdo.ModelError) as err:
        hdo.Model.from_string("model bad\nvar x = 1\nmode m\n  der(x) = +\nend\n", "bad.hdae")
    e = err.value
    assert (e.file, e.line, e.column, e.status) == ("bad.hdae", 4, 13, "HDO_ERR_SYNTAX")
    assert e.message == "expected an expression, found end of line"
    with pytest.raises(hdo.ModelError, match="cannot open"):
        hdo.Model(tmp_path / "missing.hdae")
    (tmp_path / "ok.hdae").write_bytes(BALL.encode())
    assert hdo.Model(tmp_path / "ok.hdae").variables == ["h", "v"]
    for bad, match in [(dict(digits=0), "digits"), (dict(digits=hdo.MAX_DIGITS + 1), "digits"),
                       (dict(until="-1"), "until"), (dict(every=0), "every"),
                       (dict(times=[0.5, 0.1]), "increasing"), (dict(times=[0, 5]), "span"),
                       (dict(method="rk4"), "auto, taylor or implicit"),
                       (dict(until=float("nan")), "finite")]:
        with pytest.raises(ValueError, match=match):
            ball.run(**bad)
