"""Numbers and parameter values as the exact decimal text hdo reads.

Shared by _model.py (runs) and _check.py (checks), which otherwise do not
import each other at load time."""

import decimal
import fractions

import numpy as np


def _exact_text(value, what):
    """A number as the exact decimal text hdo reads (`-p`, `--until`):
    str as written, an integer, a float by its shortest repr (0.7 is
    7/10, as typed), Fraction and Decimal exactly (as "P/Q")."""
    if isinstance(value, bool):
        raise TypeError("%s: expected a number, not %r" % (what, value))
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating, decimal.Decimal)):
        if not np.isfinite(float(value)):
            raise ValueError("%s: %r is not a finite number" % (what, value))
        if not isinstance(value, decimal.Decimal):
            return repr(float(value))
        value = fractions.Fraction(value)
    if isinstance(value, fractions.Fraction):
        return "%d/%d" % (value.numerator, value.denominator)
    raise TypeError("%s: expected a number or its text, not %r" % (what, value))


def _param_list(params):
    if not params:
        return []
    return ["%s=%s" % (k, _exact_text(v, "params[%r]" % k))
            for k, v in params.items()]
