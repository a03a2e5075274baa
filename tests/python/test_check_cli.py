"""test_check_cli.py -- Model.check gives the numbers of `hdo check` on the
same data: the arrays are also written as a CSV file (by Python's csv
module, repr floats) and judged by the command, and the verdict, the
summary line and every line of the report must agree (the candidate's
name and the seconds aside). Pass, fail, a mode column, an events list,
empty cells, a tolerance file found by the model's name and by the model
file's name, parameters, a map, and the exit-2 errors."""

import csv
import math
import os
import re

import numpy as np
import pytest

import hdo
from hdo._check import _parse_summary
from test_ball import BALL, TOL, scipy_ball


def write_csv(path, t, values, modes=None):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["time"] + (["mode"] if modes is not None else []) + list(values))
        for i, ti in enumerate(t):
            cells = []
            for a in values.values():
                x = a[i]
                masked = np.ma.is_masked(x)
                cells.append("" if masked else repr(float(x)))
            w.writerow([repr(float(ti))] + ([modes[i]] if modes is not None else []) + cells)


def normalise(report):
    """The report with the seconds of the reference run blanked (they are
    measured), and the name of the events source unified."""
    report = re.sub(r"events, [0-9.]+ s$", "events, S s", report, flags=re.M)
    return report.replace("(events given)", "(EVENTS)")


def same_as_command(hdo_command, tmp_path, model_file, t, values, *, modes=None,
                    events=None, cli=(), **options):
    """Checks through the module and through the command; asserts that
    they agree, returns the Verdict and the command's exit code."""
    m = hdo.Model(model_file)
    v = m.check(t, values, modes=modes, events=events, name="CAND", **options)
    write_csv(tmp_path / "CAND", t, values, modes)
    args = ["check", str(model_file), "CAND"] + list(cli)
    if events is not None:
        with open(tmp_path / "EVENTS", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["time", "from", "to"])
            for e in events:
                e = (e, None, None) if np.isscalar(e) else e
                w.writerow([repr(float(e[0])), e[1] or "", e[2] or ""])
        args += ["--events", "EVENTS"]
    for key in ("time_abs", "value_abs", "value_rel"):
        if options.get(key) is not None:
            args += ["--" + key.replace("_", "-"), repr(options[key])]
    for k, val in (options.get("params") or {}).items():
        args += ["-p", "%s=%s" % (k, val)]
    for k, val in (options.get("map") or {}).items():
        args += ["--map", "%s=%s" % (k, val)]
    if options.get("tol") is not None:
        args += ["-t", str(options["tol"])]
    rc, out, err = hdo_command(args, cwd=tmp_path)
    assert rc in (0, 1), err
    assert rc == (0 if v.passed else 1)
    line = [l for l in out.splitlines() if l.startswith("summary: ")][-1]
    assert v.summary == _parse_summary(line)
    assert normalise(v.report).splitlines() == normalise(out).splitlines()
    return v


@pytest.fixture
def ball_file(tmp_path, monkeypatch):
    # the working folder is the check's: hdo check looks for
    # tolerances/<model>.tol there, so both run from tmp_path
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ball.hdae").write_text(BALL)
    return "ball.hdae"


@pytest.fixture(scope="module")
def candidate():
    return scipy_ball()


def test_pass(hdo_command, tmp_path, ball_file, candidate):
    t, values = candidate
    v = same_as_command(hdo_command, tmp_path, ball_file, t, values, **TOL)
    assert v.passed and v.summary["events_cand"] == 3


def test_planted_failure_and_a_late_event(hdo_command, tmp_path, ball_file, candidate):
    t, values = candidate
    h = values["h"].copy()
    h[30] -= 3e-7
    t2 = t.copy()
    # the second impact's two rows 1e-7 late: an event outside time_abs
    k = int(np.flatnonzero(np.diff(t) == 0)[1])
    t2[k:k + 2] += 1e-7
    v = same_as_command(hdo_command, tmp_path, ball_file, t2,
                        {"h": h, "v": values["v"]}, **TOL)
    assert not v.passed
    assert [e.verdict for e in v.events] == ["ok", "late", "ok"]


def test_modes_and_events_given(hdo_command, tmp_path, ball_file, candidate):
    t, values = candidate
    modes = ["fly"] * len(t)
    ev = [(x, "fly", "fly") for x in t[np.flatnonzero(np.diff(t) == 0)]]
    v = same_as_command(hdo_command, tmp_path, ball_file, t, values,
                        modes=modes, events=ev, **TOL)
    assert v.passed and "(EVENTS)" in normalise(v.report)
    # times alone, modes unknown
    v = same_as_command(hdo_command, tmp_path, ball_file, t, values,
                        events=[e[0] for e in ev][:2], **TOL)
    assert [e.verdict for e in v.events] == ["ok", "ok", "missing"]


def test_empty_cells_are_not_compared(hdo_command, tmp_path, ball_file, candidate):
    t, values = candidate
    h = np.ma.masked_array(values["h"], mask=np.zeros(len(t), bool))
    h[5] = np.ma.masked
    v = same_as_command(hdo_command, tmp_path, ball_file, t,
                        {"h": h, "v": values["v"]}, **TOL)
    # an empty cell where the reference has a value is not compared: fails
    assert not v.passed and v.summary["rows_uncompared"] == 1
    assert not v.variables["h"].present[5] and v.variables["h"].fail[5] == 2


def test_tolerance_file_params_map(hdo_command, tmp_path, ball_file):
    # the tolerance file hdo check finds by the model's name
    os.mkdir(tmp_path / "tolerances")
    (tmp_path / "tolerances" / "ball.tol").write_text(
        "time_abs = 1e-9\nvalue_abs = 1e-9\nvalue_rel = 0\n")
    t, values = scipy_ball(e=0.75)
    v = same_as_command(hdo_command, tmp_path, ball_file, t,
                        {"ball.h": values["h"], "v": values["v"]},
                        params={"e": "3/4"}, map={"ball.h": "h"})
    assert v.passed, v.report
    assert v.tolerances["file"] == "tolerances/ball.tol"
    assert v.tolerances["time_abs"] == 1e-9 and v.tolerances["value_rel"] == 0
    # an explicit file and a command-line value on top of it
    (tmp_path / "other.tol").write_text("time_abs = 1e-8\nvalue_abs = 1e-12\n")
    v = same_as_command(hdo_command, tmp_path, ball_file, t,
                        {"h": values["h"], "v": values["v"]},
                        params={"e": 0.75}, tol="other.tol", value_rel=1e-12)
    assert v.tolerances["file"] == "other.tol"


def test_tolerance_file_by_file_name(hdo_command, tmp_path, ball_file):
    # a copy of the model under another file name keeps `model ball`; its
    # own tolerances/<file name>.tol comes first (#27), and the report,
    # the command's line for line, says how it was found
    (tmp_path / "ball_mine.hdae").write_text(BALL)
    os.mkdir(tmp_path / "tolerances")
    (tmp_path / "tolerances" / "ball.tol").write_text("time_abs = 1e-9\n")
    (tmp_path / "tolerances" / "ball_mine.tol").write_text("time_abs = 2e-9\n")
    t, values = scipy_ball()
    v = same_as_command(hdo_command, tmp_path, "ball_mine.hdae", t, values,
                        value_abs=1e-8, value_rel=1e-8)
    assert v.tolerances["file"] == "tolerances/ball_mine.tol"
    assert v.tolerances["time_abs"] == 2e-9
    assert "(tolerances/ball_mine.tol, found by the model file's name " \
        "ball_mine.hdae)" in v.report
    v = same_as_command(hdo_command, tmp_path, ball_file, t, values,
                        value_abs=1e-8, value_rel=1e-8)
    assert v.tolerances["file"] == "tolerances/ball.tol"
    assert "(tolerances/ball.tol, found by the model name ball)" in v.report


def test_errors_of_exit_2(tmp_path, ball_file, candidate):
    t, values = candidate
    m = hdo.Model(ball_file)
    t_bad = t.copy()
    t_bad[10] = t_bad[9] - 1  # times must not decrease
    with pytest.raises(hdo.CheckError) as e:
        m.check(t_bad, values, **TOL)
    assert e.value.file == "arrays" and e.value.row == 10 and e.value.line == 12
    with pytest.raises(hdo.CheckError, match="no variable to compare"):
        m.check(t, {"x": values["h"]}, **TOL)
    with pytest.raises(hdo.CheckError, match="'nowhere' is not a mode of model ball"):
        m.check(t, values, modes=["nowhere"] * len(t), **TOL)
    with pytest.raises(hdo.CheckError, match="'H' is not a variable of model ball"):
        m.check(t, values, map={"h": "H"}, **TOL)
    with pytest.raises(hdo.ModelError, match="no parameter"):
        m.check(t, values, params={"gg": 1}, **TOL)
    with pytest.raises(ValueError, match="3 values for"):
        m.check(t, {"h": values["h"][:3]}, **TOL)
    with pytest.raises(hdo.CheckError, match="cannot open"):
        m.check(t, values, tol="missing.tol")


def test_junit(tmp_path, ball_file, candidate):
    t, values = candidate
    v = hdo.Model(ball_file).check(t, {"h": values["h"] + 1e-6, "v": values["v"]}, **TOL)
    v.write_junit(tmp_path / "report.xml")
    xml = (tmp_path / "report.xml").read_text()
    assert xml.count("<testcase") == 3 and xml.count("<failure") == 1
    assert 'name="h"' in xml
