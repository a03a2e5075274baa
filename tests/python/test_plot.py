"""test_plot.py -- hdo.plot draws a run (trajectories, events marked) and
a verdict (the candidate over the reference tube, the error on a log
scale, events coloured by verdict); the figures are read back: which
points are drawn where, in which colour, and that they render as PNG."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")  # python3-matplotlib: optional
import matplotlib.colors  # noqa: E402

import hdo
from test_ball import BALL, TOL, scipy_ball

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def ball():
    return hdo.Model.from_string(BALL, "ball.hdae")


def vlines(ax):
    """The vertical lines of an axes: (x, colour as RGBA, linestyle)."""
    out = []
    for line in ax.get_lines():
        x = np.asarray(line.get_xdata(), dtype=float)
        if len(x) == 2 and x[0] == x[1] and tuple(line.get_ydata()) == (0, 1):
            out.append((x[0], matplotlib.colors.to_rgba(line.get_color()),
                        line.get_linestyle()))
    return out


def test_plot_of_a_run(ball, tmp_path):
    r = ball.run(digits=20)
    fig = hdo.plot(r)
    axes = fig.get_axes()
    assert [ax.get_ylabel() for ax in axes] == ["h", "v"]
    for ax in axes:
        # one vertical line per impact, at the impact times
        assert [x for x, _, _ in vlines(ax)] == [e.time for e in r.events]
    # v is drawn in four pieces (the stretches between the three impacts),
    # none of them across a jump
    pieces = [l for l in axes[1].get_lines() if len(l.get_xdata()) > 2]
    assert len(pieces) == 4
    for piece in pieces:
        assert np.all(np.diff(piece.get_xdata()) > 0)
    fig.savefig(tmp_path / "run.png")
    assert (tmp_path / "run.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(hdo.plot(r, variables=["v"]).get_axes()) == 1


def test_plot_of_a_verdict(ball, tmp_path):
    t, values = scipy_ball()
    h = values["h"].copy()
    bad_rows = [20, 21, 150]
    h[bad_rows] += 1e-5
    t2 = t.copy()
    k = int(np.flatnonzero(np.diff(t) == 0)[2])   # the third impact 1e-7 late
    t2[k:k + 2] += 1e-7
    v = ball.check(t2, {"h": h, "v": values["v"]}, **TOL)
    assert [e.verdict for e in v.events] == ["ok", "ok", "late"]
    fig = hdo.plot(v)
    axes = fig.get_axes()
    assert len(axes) == 4                        # h, its error, v, its error
    top, bottom = axes[0], axes[1]
    assert top.get_ylabel() == "h" and bottom.get_yscale() == "log"
    # the rows outside the tube are the red crosses, at their times: the
    # planted ones, and the two rows of the late impact (h = 0 there, where
    # the reference has risen again by |v| 1e-7)
    crosses = [l for l in top.get_lines() if l.get_marker() == "x"]
    assert len(crosses) == 1
    assert np.array_equal(crosses[0].get_xdata(), t2[bad_rows + [k, k + 1]])
    assert matplotlib.colors.to_rgba(crosses[0].get_color()) == matplotlib.colors.to_rgba("tab:red")
    # and below, their distance out of the tube: 1e-5 less the range
    below = [l for l in bottom.get_lines() if l.get_marker() == "x"]
    assert np.allclose(below[0].get_ydata()[:3], 1e-5, rtol=1e-2)
    # events: grey where they match, purple where late, on every panel
    colours = [c for _, c, _ in vlines(top)]
    grey = matplotlib.colors.to_rgba("0.55")
    assert colours == [grey, grey, matplotlib.colors.to_rgba("tab:purple")]
    # the band: the allowed interval around the reference at every row
    assert len(top.collections) == 1
    fig.savefig(tmp_path / "check.png")
    assert (tmp_path / "check.png").stat().st_size > 10000


def test_plot_refuses_other_objects():
    with pytest.raises(TypeError, match="hdo.Result or an hdo.Verdict"):
        hdo.plot([1, 2, 3])
