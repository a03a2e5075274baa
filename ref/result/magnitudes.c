/* magnitudes.c -- the magnitudes of a row: per variable the size its
 * digits are counted against, and the run's zero level (--verify) */
#include <math.h>
#include "result.h"

double
hdo_log2_abs(mpfr_srcptr x)
{
    long e;
    if (!mpfr_regular_p(x))
        return -INFINITY;
    double d = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return (double)e + log2(fabs(d));
}

void
hdo_row_set_magnitudes(hdo_row *row, slong nvars, mpfr_srcptr vmax,
                       mpfr_srcptr nominal, const double *stepmag,
                       const mpfr_t tol)
{
    double big = -INFINITY;
    for (slong v = 0; v < nvars; v++) {
        double m = hdo_log2_abs(vmax + v);
        if (row->present[v] && hdo_log2_abs(row->values + v) > m)
            m = hdo_log2_abs(row->values + v);
        if (m > big)
            big = m;
    }
    row->zero = big + hdo_log2_abs(tol);
    for (slong v = 0; v < nvars; v++) {
        if (!row->present[v])
            continue;
        double m = hdo_log2_abs(nominal + v);
        if (stepmag != NULL && stepmag[v] > m)
            m = stepmag[v];
        row->mag[v] = m;
    }
}

void
hdo_row_raise_magnitudes(hdo_row *row, slong nvars, const double *stepmag)
{
    for (slong v = 0; v < nvars; v++)
        if (row->present[v] && stepmag[v] > row->mag[v])
            row->mag[v] = stepmag[v];
}
