"""hdo.testing -- assertions for pytest (or any test runner): a solver's
result checked against hdo's reference in one line."""

import os

from ._model import Model

__all__ = ["assert_matches"]


def assert_matches(model, candidate, values=None, **options):
    """Checks candidate against model (an hdo.Model or a model file) as
    Model.check does, and raises AssertionError with the first failure's
    text, followed by hdo check's report, when it fails.  candidate is an
    OdeResult (names=[...] for the rows of y) or the times with values
    given as a dict; options are those of Model.check (time_abs,
    value_abs, value_rel, events, modes, tol, digits, params, map).
    Returns the Verdict when it passes."""
    if isinstance(model, (str, os.PathLike)):
        model = Model(model)
    v = model.check(candidate, values, **options)
    if not v.passed:
        raise AssertionError("the candidate does not match model %s: %s\n\n%s"
                             % (model.name, v.first_failure, v.report))
    return v
