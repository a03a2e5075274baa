/* cosim.c -- co-simulation output written as two rows per output time
 * (Dymola's co-simulation export: the value held from the step before,
 * then the new one), recognised and read as one row per time */
#include <float.h>
#include <math.h>
#include <string.h>
#include "formats.h"

/* Whether row a and row b hold the same mode and cells (NaN equal). */
static int
rows_equal(const hdo_csv_t csv, slong a, slong b)
{
    if (csv->has_mode && csv->mode[a] != csv->mode[b])
        return 0;
    for (slong c = 0; c < csv->ncols; c++) {
        slong i = a * csv->ncols + c, j = b * csv->ncols + c;
        double x = csv->values[i], y = csv->values[j];
        if (csv->present[i] != csv->present[j])
            return 0;
        if (csv->present[i] && !(x == y || (isnan(x) && isnan(y))))
            return 0;
    }
    return 1;
}

/* Whether every time of the file is a float (Dymola writes its times in
   single precision: 0.10000000149011612 for 0.1). */
static int
single_times(const hdo_csv_t csv)
{
    for (slong i = 0; i < csv->nrows; i++)
        if (!(fabs(csv->time[i]) <= FLT_MAX) ||
            (double)(float)csv->time[i] != csv->time[i])
            return 0;
    return 1;
}

/* The rule (docs/cli.md, "Co-simulation double rows"): the file has at
   least three output times; the first has one row and every later one
   exactly two; the times lie on one grid t0 + k h (within 1e-9 h and the
   rounding of t: of a double, or of a float when every time is one); the
   first row of every pair equals the row before it (the previous output
   time's value, held through the step); and at least one pair differs
   (identical pairs are no event anyway). */
static int
is_cosim(const hdo_csv_t csv, double *step)
{
    slong n = csv->nrows, m;
    double t0, h, eps;
    int differ = 0;
    if (n < 5 || n % 2 == 0 || csv->time[1] == csv->time[0])
        return 0;
    eps = single_times(csv) ? 2 * (double)FLT_EPSILON : 4 * DBL_EPSILON;
    m = (n - 1) / 2; /* output times after the first */
    t0 = csv->time[0];
    h = (csv->time[n - 1] - t0) / (double)m;
    if (!(h > 0))
        return 0;
    for (slong k = 1; k <= m; k++) {
        slong a = 2 * k - 1, b = 2 * k;
        double tk = t0 + (double)k * h;
        if (csv->time[a] != csv->time[b] ||
            (k < m && csv->time[b + 1] == csv->time[b]) ||
            !(fabs(csv->time[a] - tk) <= 1e-9 * h + eps * fabs(csv->time[a])))
            return 0;
        if (!rows_equal(csv, a, a - 1))
            return 0;
        differ |= !rows_equal(csv, a, b);
    }
    if (differ)
        *step = h;
    return differ;
}

slong
hdo_csv_cosim_rows(hdo_csv_t csv, double *step)
{
    slong n = csv->nrows, w = csv->ncols, k = 1;
    *step = NAN;
    if (!is_cosim(csv, step))
        return 0;
    /* keep row 0 and the second row of every pair */
    for (slong i = 2; i < n; i += 2, k++) {
        csv->time[k] = csv->time[i];
        memmove(csv->values + k * w, csv->values + i * w,
                (size_t)w * sizeof(double));
        memmove(csv->present + k * w, csv->present + i * w, (size_t)w);
        csv->mode[k] = csv->mode[i];
        csv->line[k] = csv->line[i];
        csv->mode_cell_col[k] = csv->mode_cell_col[i];
    }
    csv->nrows = k;
    return n - k;
}
