/* verify_thresholds.c -- --verify's agreement measure (ref/result/agreement.c,
 * hdo_result_agreement) at its boundaries, on results built by hand: a
 * value agrees to k digits when |x - y| <= 10^-k scale, the scale being
 * max(|y|, 2^mag) (b's value, the better estimate of the true one; from
 * a's row its variable's size over its step) when that is at least the
 * row's floor, else the variable's scale 2^scale (absolute); the
 * smallest over event times (relative to max(|t0|, |t_end|)), the rows
 * of events, the grid rows both runs wrote and the last rows, capped at
 * a's digits. */
#include <math.h>
#include <criterion/criterion.h>
#include "hybrid.h"
#include "result.h"
#include "../model_util.h"

#define PREC 400 /* the results' precision: far below every margin */

static const char *two_vars = "model v\nvar x = 0, y = 0\nmode m\n"
                              "  der(x) = 1\n  der(y) = 1\nend\n"
                              "start m at 0\nuntil 100\n";

static void
result_new(hdo_result_t r, const hdo_model_t model, long digits)
{
    hdo_result_init(r);
    hdo_result_setup(r, model, digits, PREC);
    mpfr_set_ui(r->t0, 0, MPFR_RNDN);
    mpfr_set_ui(r->t_end, 100, MPFR_RNDN);
}

/* A row with no magnitudes and no floors: its values are their own
   scales. */
static hdo_row *
row_new(hdo_result_t r, long t, double x, double y)
{
    mpfr_t tt;
    mpfr_init2(tt, 64);
    mpfr_set_si(tt, t, MPFR_RNDN);
    hdo_row *row = hdo_result_add_row(r, tt, 0);
    mpfr_clear(tt);
    mpfr_set_d(row->values, x, MPFR_RNDN);
    mpfr_set_d(row->values + 1, y, MPFR_RNDN);
    row->present[0] = row->present[1] = 1;
    return row;
}

/* v := base + f 10^-k (1 + s 2^-e) (s = -1, 0, 1), at PREC bits: the
   perturbation 2^-e of the difference is far above the rounding. */
static void
near(mpfr_ptr v, double base, double f, long k, int s, long e)
{
    mpfr_t d;
    mpfr_init2(d, PREC);
    mpfr_set_ui(d, 10, MPFR_RNDN);
    mpfr_pow_si(d, d, -k, MPFR_RNDN);
    mpfr_mul_d(d, d, f, MPFR_RNDN);
    mpfr_t g;
    mpfr_init2(g, PREC);
    mpfr_set_si_2exp(g, s, -e, MPFR_RNDN);
    mpfr_add_ui(g, g, 1, MPFR_RNDN);
    mpfr_mul(d, d, g, MPFR_RNDN);
    mpfr_set_d(v, base, MPFR_RNDN);
    mpfr_add(v, v, d, MPFR_RNDN);
    mpfr_clears(d, g, (mpfr_ptr)0);
}

/* The last rows: x_b = base, x_a = base + f 10^-k (1 + s 2^-e); a's row
   has the magnitude 2^lmag for x, the floor 2^lfloor and the scale
   2^lscale (-inf: none).  Earlier rows of b reach -1000: not a scale any
   more (up to stop 21 the largest magnitude over the run was). */
static long
last_row_case(const hdo_model_t model, long digits, double base, double f,
              long k, int s, long e, double lmag, double lfloor, double lscale)
{
    hdo_result_t a, b;
    result_new(a, model, digits);
    result_new(b, model, hdo_run_verify_digits(digits));
    row_new(a, 0, 4000, 0);
    row_new(b, 0, -1000, 0);
    row_new(b, 100, base, 7);
    hdo_row *ra = row_new(a, 100, base, 7);
    near(ra->values, base, f, k, s, e);
    ra->mag[0] = lmag;
    ra->floor[0] = lfloor;
    ra->scale[0] = lscale;
    long d = hdo_result_agreement(a, b);
    hdo_result_clear(a);
    hdo_result_clear(b);
    return d;
}

Test(hybrid_thresholds, verify_digits_boundary_last_row)
{
    hdo_model_t model;
    tm_parse(model, two_vars);
    const double none = -INFINITY;
    for (long k = 1; k <= 29; k++) {
        cr_expect_eq(
            last_row_case(model, 30, 5, 5, k, -1, 30, none, none, none), k,
            "k = %ld", k);
        cr_expect_eq(last_row_case(model, 30, 5, 5, k, 1, 30, none, none, none),
                     k - 1, "k = %ld", k);
    }
    /* 10^-k (1 +- 2^-100): the double that -log10 rounds to is k either
       way; only an exact comparison tells the sides apart */
    for (long k = 5; k <= 29; k += 8) {
        cr_expect_eq(
            last_row_case(model, 30, 5, 5, k, -1, 100, none, none, none), k,
            "k = %ld", k);
        cr_expect_eq(
            last_row_case(model, 30, 5, 5, k, 1, 100, none, none, none), k - 1,
            "k = %ld", k);
    }
    /* the cap: a's digits, also for equal values and for a difference
       10^-D (1 - 2^-30) or far below; 10^-D (1 + 2^-30) is D - 1 */
    cr_expect_eq(last_row_case(model, 30, 5, 5, 30, -1, 30, none, none, none),
                 30);
    cr_expect_eq(last_row_case(model, 30, 5, 5, 30, 1, 30, none, none, none),
                 29);
    cr_expect_eq(last_row_case(model, 30, 5, 5, 45, 0, 30, none, none, none),
                 30);
    cr_expect_eq(last_row_case(model, 12, 5, 5, 12, -1, 30, none, none, none),
                 12);
    cr_expect_eq(last_row_case(model, 12, 5, 5, 13, 1, 30, none, none, none),
                 12);
    cr_expect_eq(last_row_case(model, 12, 5, 5, 12, 1, 30, none, none, none),
                 11);
    /* no digit at all: |x - y| = 10 scale */
    cr_expect_eq(last_row_case(model, 30, 5, 5, -1, 0, 30, none, none, none),
                 0);
    hdo_model_clear(model);
}

/* Issue 23's reproducer 1: x(40) = 1.846...e-18 right to only 8 digits
   was "20 verified digits" against the scale 1 of x's start; relative to
   its own size it has 8.  The same value with a step magnitude above it
   is judged against that (a zero crossing); below its floor against the
   variable's scale, its digits absolute. */
Test(hybrid_thresholds, verify_digits_relative_at_every_scale)
{
    hdo_model_t model;
    tm_parse(model, two_vars);
    const double none = -INFINITY, l2 = 3.321928094887362;
    /* 1.846e-18 off by 1.846e-18 10^-k (1 -+ 2^-30) */
    cr_expect_eq(last_row_case(model, 20, 1.846e-18, 1.846e-18, 8, -1, 30, none,
                               none, none),
                 8);
    cr_expect_eq(last_row_case(model, 20, 1.846e-18, 1.846e-18, 8, 1, 30, none,
                               none, none),
                 7);
    /* a magnitude 10^-10 over the step: 8 more digits */
    cr_expect_eq(last_row_case(model, 20, 1.846e-18, 1e-10, 16, -1, 30,
                               -10 * l2, none, none),
                 16);
    cr_expect_eq(last_row_case(model, 20, 1.846e-18, 1e-10, 16, 1, 30, -10 * l2,
                               none, none),
                 15);
    /* the floor 10^-17 above the value and its step: absolute, against
       the variable's scale 10^-10 */
    cr_expect_eq(last_row_case(model, 20, 1.846e-18, 1e-10, 16, -1, 30, none,
                               -17 * l2, -10 * l2),
                 16);
    cr_expect_eq(last_row_case(model, 20, 1.846e-18, 1e-10, 16, 1, 30, none,
                               -17 * l2, -10 * l2),
                 15);
    /* the floor 10^-18 below the value (1.846e-18): relative, 8 digits */
    cr_expect_eq(last_row_case(model, 20, 1.846e-18, 1e-10, 16, -1, 30, none,
                               -18 * l2, -10 * l2),
                 8);
    hdo_model_clear(model);
}

/* An impact's height: -1.27e-40 at 30 digits against 3.8e-50 at 40, the
   truth 0.  Below the floor 1e-35 (tol times the largest magnitude 1) it
   is absolute against that scale 1: 30 digits (capped).  With a floor
   below it and a step magnitude 1e-42 above the floor, it is relative
   to that magnitude: 0 digits. */
Test(hybrid_thresholds, verify_below_the_floor)
{
    hdo_model_t model;
    tm_parse(model, two_vars);
    const double l2 = 3.321928094887362;
    for (int below = 0; below < 2; below++) {
        hdo_result_t a, b;
        result_new(a, model, 30);
        result_new(b, model, 40);
        row_new(b, 100, 3.8e-50, 7);
        hdo_row *ra = row_new(a, 100, -1.27e-40, 7);
        ra->floor[0] = below ? -35 * l2 : -45 * l2;
        ra->mag[0] = -42 * l2;
        ra->scale[0] = 0;
        long d = hdo_result_agreement(a, b);
        cr_expect_eq(d, below ? 30 : 0, "below = %d: %ld", below, d);
        hdo_result_clear(a);
        hdo_result_clear(b);
    }
    hdo_model_clear(model);
}

/* Events: the time relative to max(|t0|, |t_end|) = 100, the states
   (the event's rows) relative to their own size; the smallest over
   all. */
static long
event_case(const hdo_model_t model, long kt, int st, long ky, int sy)
{
    hdo_result_t a, b;
    hdo_result_struct *r[2] = {a, b};
    result_new(a, model, 30);
    result_new(b, model, 40);
    mpfr_t t;
    mpfr_init2(t, PREC);
    mpfr_set_ui(t, 3, MPFR_RNDN);
    for (int i = 0; i < 2; i++) {
        row_new(r[i], 0, 0, 0);
        hdo_row *left = row_new(r[i], 3, 3, 2);
        hdo_row *right = row_new(r[i], 3, 3, -300);
        (void)left;
        (void)right;
        hdo_event *e = hdo_result_add_event(r[i], t, 0, 0, HDO_EV_SWITCH, "g");
        e->row_left = r[i]->nrows - 2;
        e->row_right = r[i]->nrows - 1;
        /* the last rows (the same time in both) agree to 40 digits */
        row_new(r[i], 100, 1, 0);
    }
    hdo_event *ea = a->events;
    near(ea->time, 3, 100, kt, st, 30);
    near(a->rows[ea->row_right].values + 1, -300, 300, ky, sy, 30);
    long d = hdo_result_agreement(a, b);
    mpfr_clear(t);
    hdo_result_clear(a);
    hdo_result_clear(b);
    return d;
}

Test(hybrid_thresholds, verify_digits_boundary_events)
{
    hdo_model_t model;
    tm_parse(model, two_vars);
    /* the time alone decides (y equal up to 10^-40) */
    cr_expect_eq(event_case(model, 17, -1, 40, 0), 17);
    cr_expect_eq(event_case(model, 17, 1, 40, 0), 16);
    /* the state alone decides */
    cr_expect_eq(event_case(model, 40, 0, 23, -1), 23);
    cr_expect_eq(event_case(model, 40, 0, 23, 1), 22);
    /* the smaller of the two */
    cr_expect_eq(event_case(model, 21, -1, 20, -1), 20);
    cr_expect_eq(event_case(model, 20, 1, 21, 1), 19);
    /* all equal: the cap */
    cr_expect_eq(event_case(model, 40, 0, 40, 0), 30);
    hdo_model_clear(model);
}

/* Grid rows are compared by their sample index, wherever they stand in
   the rows (an event's rows between them); a sample one run lacks is
   not. */
Test(hybrid_thresholds, verify_grid_rows_by_sample)
{
    hdo_model_t model;
    tm_parse(model, two_vars);
    hdo_result_t a, b;
    result_new(a, model, 30);
    result_new(b, model, 40);
    hdo_row *r;
    r = row_new(a, 1, 2, 0);
    r->sample = 1;
    r = row_new(a, 2, 5, 0);
    r->sample = 2;
    near(r->values, 5, 5, 12, -1, 30); /* 12 digits at sample 2 */
    r = row_new(a, 3, 7, 0);
    r->sample = 3; /* b has no sample 3 */
    near(r->values, 7, 7, 2, 0, 30);
    row_new(a, 100, 1, 1);
    r = row_new(b, 1, 2, 0);
    r->sample = 1;
    row_new(b, 2, 9, 9); /* an event's row (sample -1) */
    r = row_new(b, 2, 5, 0);
    r->sample = 2;
    row_new(b, 100, 1, 1);
    cr_expect_eq(hdo_result_agreement(a, b), 12);
    hdo_result_clear(a);
    hdo_result_clear(b);
    hdo_model_clear(model);
}
