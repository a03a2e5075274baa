"""hdo.plot -- matplotlib figures of a run (hdo.Result) and of a check
(hdo.Verdict), in the manner of FMPy's plot_result: one panel per
variable, time shared, events as vertical lines."""

import textwrap

import numpy as np

# Colours of the event lines of a check, by verdict: what passed is grey,
# what is missing red, extra orange, in the wrong place or mode magenta;
# events that are not judged (outside the candidate's span, at the end
# time) are drawn dotted.
_VERDICT_COLOURS = {"ok": "0.55", "missing": "tab:red", "extra": "tab:orange"}
_WRONG_COLOUR = "tab:purple"


def plot(what, variables=None, figure=None):
    """A matplotlib Figure of a Result (the trajectories, events marked)
    or of a Verdict (per variable the candidate over the reference tube,
    and below it the error on a log scale; events coloured by verdict).
    variables: the names to draw (default: all); figure: a Figure to draw
    into (default: a new one, not shown: call matplotlib's show() or the
    figure's savefig())."""
    from ._model import Result
    from ._check import Verdict
    if isinstance(what, Result):
        return _plot_result(what, variables, figure)
    if isinstance(what, Verdict):
        return _plot_verdict(what, variables, figure)
    raise TypeError("hdo.plot draws an hdo.Result or an hdo.Verdict, not %r"
                    % type(what).__name__)


def _new_figure(figure, nrows, height):
    if figure is None:
        # pyplot's figure manager only when asked for: a Figure of its own
        # works without a display (tests, servers)
        from matplotlib.figure import Figure
        figure = Figure(figsize=(8, max(2.5, height * nrows)), layout="constrained")
    return figure


def _plot_result(r, variables, figure):
    names = list(variables) if variables is not None else r.variables
    fig = _new_figure(figure, len(names), 2.2)
    axes = fig.subplots(len(names), 1, sharex=True, squeeze=False)[:, 0]
    t = r.time
    for ax, name in zip(axes, names):
        y = r[name]
        # one line per stretch between events, so that a jump is not
        # drawn as a steep line: the two rows of an event share a time
        cuts = np.flatnonzero(np.diff(t) == 0) + 1
        for k, (a, b) in enumerate(zip(np.r_[0, cuts], np.r_[cuts, len(t)])):
            ax.plot(t[a:b], y[a:b], color="tab:blue", lw=1.2,
                    label=name if k == 0 else None)
        for e in r.events:
            ax.axvline(e.time, color="0.6", lw=0.7, ls="--")
        ax.set_ylabel(name)
        ax.grid(True, alpha=0.3)
    if r.events:
        # the first event line stands for all of them in the legend
        axes[0].plot([], [], color="0.6", lw=0.7, ls="--",
                     label="events (%d)" % len(r.events))
    axes[0].legend(loc="best", fontsize="small")
    axes[-1].set_xlabel("time")
    axes[0].set_title("%s, %d digits" % (r.model.name, r.digits))
    return fig


def _event_lines(ax, v):
    for e in v.events:
        colour = _VERDICT_COLOURS.get(e.verdict, _WRONG_COLOUR)
        ls = "--" if e.judged else ":"
        t = e.reference if e.reference is not None else e.candidate[0]
        ax.axvline(t, color=colour, lw=0.9, ls=ls)


def _plot_verdict(v, variables, figure):
    names = list(variables) if variables is not None else list(v.variables)
    fig = _new_figure(figure, 2 * len(names), 1.8)
    axes = fig.subplots(2 * len(names), 1, sharex=True, squeeze=False)[:, 0]
    t = v.time
    for k, name in enumerate(names):
        c = v.variables[name]
        top, bottom = axes[2 * k], axes[2 * k + 1]
        # the tube: the band allowed around the reference's range
        top.fill_between(t, c.band_lo, c.band_hi, color="tab:green", alpha=0.25,
                         lw=0, label="allowed band")
        top.plot(v.reference_time, c.ref, color="tab:green", lw=1.0,
                 label="reference (hdo, %d digits)" % v.digits)
        ok = c.present & (c.fail == 0)
        top.plot(t[ok], c.values[ok], ".", color="tab:blue", ms=3,
                 label="candidate")
        bad = c.fail != 0
        if bad.any():
            top.plot(t[bad], np.where(c.present[bad], c.values[bad], c.lo[bad]),
                     "x", color="tab:red", ms=5, label="outside / not compared")
        top.set_ylabel(name)
        # below: the error against the band allowed, on a log scale
        err = _point_error(v, c)
        allowed = np.where(np.isnan(c.hi), np.nan, c.band_hi - c.hi)
        outside = np.maximum.reduce([c.lo - c.values, c.values - c.hi,
                                     np.zeros_like(t)])
        bottom.semilogy(t, allowed, color="tab:green", lw=1.0, label="allowed")
        pos = err > 0
        bottom.semilogy(t[pos], err[pos], ".", color="tab:blue", ms=3,
                        label="|candidate - reference(t)|")
        out = bad & (outside > 0)
        if out.any():
            bottom.semilogy(t[out], outside[out], "x", color="tab:red", ms=5,
                            label="distance out of the tube")
        bottom.set_ylabel("error")
        for ax in (top, bottom):
            _event_lines(ax, v)
            ax.grid(True, alpha=0.3)
        top.legend(loc="best", fontsize="x-small")
        bottom.legend(loc="best", fontsize="x-small")
    axes[-1].set_xlabel("time")
    axes[0].set_title(textwrap.shorten(
        "%s: %s" % ("PASS" if v.passed else "FAIL",
                    v.first_failure or "every value inside the tube"), 100),
        fontsize="small", loc="left")
    return fig


def _point_error(v, c):
    """|candidate - reference(t)| at the candidate's own times: the
    reference is sampled at every candidate time t (hdo check's sampling),
    except at an event time, whose limits it holds instead (NaN there)."""
    rt = v.reference_time
    i = np.searchsorted(rt, v.time)
    i = np.minimum(i, len(rt) - 1)
    exact = rt[i] == v.time
    # at an event time the reference has two samples: no single value
    twin = np.zeros_like(exact)
    twin[:] = exact & (np.minimum(i + 1, len(rt) - 1) != i) & \
        (rt[np.minimum(i + 1, len(rt) - 1)] == v.time)
    ref = np.where(exact & ~twin, c.ref[i], np.nan)
    with np.errstate(invalid="ignore"):
        return np.abs(np.where(c.present, c.values, np.nan) - ref)
