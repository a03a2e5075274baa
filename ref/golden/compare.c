/* compare.c -- a golden reference against a fresh result: options,
 * events and values to N significant digits (golden.h gives the rule) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "golden.h"
#include "golden/cmp.h"

static const char *const part_names[HDO_GOLDEN_NPARTS] = {
    "options", "events", "trajectory", "summary"};

const char *
hdo_golden_part_name(int part)
{
    return part >= 0 && part < HDO_GOLDEN_NPARTS ? part_names[part] : "?";
}

void
hdo_golden_cmp_init(hdo_golden_cmp_t c)
{
    memset(c, 0, sizeof *c);
    c->worst = NAN;
}

void
hdo_golden_cmp_clear(hdo_golden_cmp_t c)
{
    for (slong k = 0; k < c->nshown; k++)
        free(c->shown[k].message);
    free(c->shown);
    free(c->notes);
    hdo_golden_cmp_init(c);
}

/* The cells of a file of either side; HDO_ERR_INPUT at its place. */
static int
read_cells(hdo_csv_cells_t cells, const hdo_golden_files_t g, int k,
           hdo_error_t *err)
{
    int st = hdo_csv_cells_read_string(cells, g->text[k], g->len[k], g->path[k],
                                       err);
    if (st == 0 && cells->ncols < 2)
        st = hdo_error_set(err, HDO_ERR_INPUT, cells->line[0], 1,
                           "expected the header of %s, found one column",
                           hdo_golden_file_name(k));
    if (st != 0 && err != NULL)
        err->file = g->path[k]; /* cells->file goes with cells */
    return st;
}

/* The largest magnitude of every column of the stored trajectory (1 for
   a column without a non-zero number): the scale S of the rule. */
static int
column_scales(gcmp *x, const hdo_csv_cells_t t)
{
    x->scale = malloc((size_t)t->ncols * sizeof *x->scale);
    if (x->scale == NULL)
        return x->oom = HDO_ERR_MEMORY;
    x->nscale = t->ncols;
    for (slong j = 0; j < t->ncols; j++) {
        mpfr_init2(x->scale[j], x->prec);
        mpfr_set_zero(x->scale[j], 1);
        for (slong i = 0; i < t->nrows; i++)
            if (gcmp_parse(x->a, hdo_csv_cell(t, i, j)) == 0 &&
                mpfr_cmpabs(x->a, x->scale[j]) > 0)
                mpfr_abs(x->scale[j], x->a, MPFR_RNDN);
        if (mpfr_zero_p(x->scale[j]))
            mpfr_set_ui(x->scale[j], 1, MPFR_RNDN);
    }
    return 0;
}

/* The headers of a and b as one line each, for a message. */
static int
header_diff(gcmp *x, int file, int part, const hdo_csv_cells_t a,
            const hdo_csv_cells_t b)
{
    char ha[512] = "", hb[512] = "";
    const hdo_csv_cells_struct *s[2] = {a, b};
    char *h[2] = {ha, hb};
    for (int k = 0; k < 2; k++) {
        size_t n = 0;
        for (slong j = 0; j < s[k]->ncols && n < sizeof ha; j++)
            n += (size_t)snprintf(h[k] + n, sizeof ha - n, "%s%s", j ? "," : "",
                                  hdo_csv_cell(s[k], -1, j));
    }
    if (a->ncols == b->ncols) {
        int same = 1;
        for (slong j = 0; j < a->ncols && same; j++)
            same = strcmp(hdo_csv_cell(a, -1, j), hdo_csv_cell(b, -1, j)) == 0;
        if (same)
            return 0;
    }
    gcmp_diff(x, file, part, "header differs: stored %s, fresh %s", ha, hb);
    return 1;
}

/* trajectory.csv: row by row, the time, the mode and the values. */
static void
compare_rows(gcmp *x, const hdo_csv_cells_t a, const hdo_csv_cells_t b)
{
    const int F = HDO_GOLDEN_TRAJECTORY, P = HDO_GOLDEN_PART_VALUES;
    char label[256];
    if (header_diff(x, F, P, a, b))
        return;
    if (a->nrows != b->nrows)
        gcmp_diff(x, F, P, "stored has %ld rows, fresh %ld", (long)a->nrows,
                  (long)b->nrows);
    for (slong i = 0; i < a->nrows && i < b->nrows && !x->oom; i++) {
        const char *t = hdo_csv_cell(a, i, 0);
        for (slong j = 0; j < a->ncols; j++) {
            const char *sa = hdo_csv_cell(a, i, j), *sb = hdo_csv_cell(b, i, j);
            snprintf(label, sizeof label, "line %d (t = %.60s) column %.60s",
                     a->line[i + 1], t, hdo_csv_cell(a, -1, j));
            if (j == 1) { /* the mode */
                if (strcmp(sa, sb) != 0)
                    gcmp_diff(x, F, P, "%s: stored %s, fresh %s", label, sa,
                              sb);
            } else if (*sa == '\0' || *sb == '\0') {
                if (strcmp(sa, sb) != 0)
                    gcmp_diff(x, F, P, "%s: stored '%s', fresh '%s'", label, sa,
                              sb);
            } else {
                gcmp_number(x, F, P, label, sa, sb, x->scale[j]);
            }
        }
    }
}

/* events.csv: event by event, the time as a number, the rest as text. */
static void
compare_events(gcmp *x, const hdo_csv_cells_t a, const hdo_csv_cells_t b)
{
    const int F = HDO_GOLDEN_EVENTS, P = HDO_GOLDEN_PART_EVENTS;
    slong it = 1;
    char label[128];
    if (header_diff(x, F, P, a, b))
        return;
    for (slong j = 0; j < a->ncols; j++)
        if (strcmp(hdo_csv_cell(a, -1, j), "time") == 0)
            it = j;
    if (a->nrows != b->nrows)
        gcmp_diff(x, F, P, "stored has %ld events, fresh %ld", (long)a->nrows,
                  (long)b->nrows);
    for (slong i = 0; i < a->nrows && i < b->nrows && !x->oom; i++)
        for (slong j = 0; j < a->ncols; j++) {
            const char *sa = hdo_csv_cell(a, i, j), *sb = hdo_csv_cell(b, i, j);
            snprintf(label, sizeof label, "line %d column %.60s",
                     a->line[i + 1], hdo_csv_cell(a, -1, j));
            if (j == it)
                gcmp_number(x, F, P, label, sa, sb, x->tscale);
            else if (strcmp(sa, sb) != 0)
                gcmp_diff(x, F, P, "%s: stored %s, fresh %s", label, sa, sb);
        }
}

static int
same_bytes(const hdo_golden_files_t a, const hdo_golden_files_t b, int k)
{
    return a->len[k] == b->len[k] &&
           memcmp(a->text[k], b->text[k], a->len[k]) == 0;
}

/* The precision of the numbers: the digits the stored files hold or
   are compared to, whichever is more, with 30 to spare, so that the
   quotient of a difference at 10^-need is known to many digits. */
static mpfr_prec_t
precision(long cap, long need)
{
    long d = (cap > need ? cap : need) + 30;
    return (mpfr_prec_t)(d * 3.33) + 64;
}

int
hdo_golden_compare(hdo_golden_cmp_t c, const hdo_golden_files_t stored,
                   const hdo_golden_files_t fresh, long need, hdo_error_t *err)
{
    hdo_csv_cells_t ta, tb, ea, eb;
    gcmp x;
    int st;
    hdo_golden_cmp_clear(c);
    c->need = need;
    memset(&x, 0, sizeof x);
    x.c = c;
    hdo_csv_cells_init(ta);
    hdo_csv_cells_init(tb);
    hdo_csv_cells_init(ea);
    hdo_csv_cells_init(eb);
    st = gcmp_summaries_read(&x, stored, fresh, err);
    if (st == 0)
        st = read_cells(ta, stored, HDO_GOLDEN_TRAJECTORY, err);
    if (st == 0)
        st = read_cells(tb, fresh, HDO_GOLDEN_TRAJECTORY, err);
    if (st == 0)
        st = read_cells(ea, stored, HDO_GOLDEN_EVENTS, err);
    if (st == 0)
        st = read_cells(eb, fresh, HDO_GOLDEN_EVENTS, err);
    if (st == 0) {
        c->cap = gcmp_stored_digits(&x, need);
        x.prec = precision(c->cap, need);
        mpfr_inits2(x.prec, x.a, x.b, x.diff, x.den, x.d, x.tscale, x.one,
                    (mpfr_ptr)0);
        mpfr_set_ui(x.one, 1, MPFR_RNDN);
        x.live = 1;
        c->rows = ta->nrows;
        c->events = ea->nrows;
        c->identical = same_bytes(stored, fresh, HDO_GOLDEN_TRAJECTORY) &&
                       same_bytes(stored, fresh, HDO_GOLDEN_EVENTS);
        st = column_scales(&x, ta);
    }
    if (st == 0) {
        mpfr_set(x.tscale, x.scale[0], MPFR_RNDN);
        /* in the order a reader wants them: what the run was asked,
           then the events, then the values, then the rest */
        gcmp_records(&x);
        gcmp_summary_setup(&x);
        compare_events(&x, ea, eb);
        compare_rows(&x, ta, tb);
        gcmp_summary_rest(&x);
        st = x.oom;
        if (st != 0)
            hdo_error_set(err, st, 0, 0, "out of memory");
    }
    for (slong j = 0; j < x.nscale; j++)
        mpfr_clear(x.scale[j]);
    free(x.scale);
    if (x.live)
        mpfr_clears(x.a, x.b, x.diff, x.den, x.d, x.tscale, x.one, (mpfr_ptr)0);
    gcmp_summaries_clear(&x);
    hdo_csv_cells_clear(ta);
    hdo_csv_cells_clear(tb);
    hdo_csv_cells_clear(ea);
    hdo_csv_cells_clear(eb);
    return st;
}
