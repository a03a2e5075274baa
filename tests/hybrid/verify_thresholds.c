/* verify_thresholds.c -- --verify's agreement measure (ref/hybrid/verify.c,
 * hdo_result_agreement) at its boundaries, on results built by hand: a
 * value agrees to k digits when |x - y| <= 10^-k scale, the scale being
 * the largest magnitude the variable takes in the check run b (rows and
 * event states; times: max(|t0|, |t_end|)); the smallest over event
 * times and states (the last row when there are no events), capped at
 * a's digits. */
#include <criterion/criterion.h>
#include "hybrid.h"
#include "hybrid/internal.h"
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

/* No events: the last rows.  b's x runs through -1000 (its scale), so
   x_a = 5 + 1000 10^-k (1 -+ 2^-e) at the last row agrees to k and
   k - 1 digits.  a's own rows reach 4000 (not the scale: b's is). */
static long
last_row_case(const hdo_model_t model, long digits, long k, int s, long e)
{
    hdo_result_t a, b;
    result_new(a, model, digits);
    result_new(b, model, digits + 10);
    row_new(a, 0, 4000, 0);
    row_new(b, 0, -1000, 0);
    row_new(b, 100, 5, 7);
    hdo_row *ra = row_new(a, 100, 5, 7);
    near(ra->values, 5, 1000, k, s, e);
    long d = hdo_result_agreement(a, b);
    hdo_result_clear(a);
    hdo_result_clear(b);
    return d;
}

Test(hybrid_thresholds, verify_digits_boundary_last_row)
{
    hdo_model_t model;
    tm_parse(model, two_vars);
    for (long k = 1; k <= 29; k++) {
        cr_expect_eq(last_row_case(model, 30, k, -1, 30), k, "k = %ld", k);
        cr_expect_eq(last_row_case(model, 30, k, 1, 30), k - 1, "k = %ld", k);
    }
    /* 10^-k (1 +- 2^-100): the double that -log10 rounds to is k either
       way; only an exact comparison tells the sides apart */
    for (long k = 5; k <= 29; k += 8) {
        cr_expect_eq(last_row_case(model, 30, k, -1, 100), k, "k = %ld", k);
        cr_expect_eq(last_row_case(model, 30, k, 1, 100), k - 1, "k = %ld", k);
    }
    /* the cap: a's digits, also for equal values and for a difference
       10^-D (1 - 2^-30) or far below; 10^-D (1 + 2^-30) is D - 1 */
    cr_expect_eq(last_row_case(model, 30, 30, -1, 30), 30);
    cr_expect_eq(last_row_case(model, 30, 30, 1, 30), 29);
    cr_expect_eq(last_row_case(model, 30, 45, 0, 30), 30);
    cr_expect_eq(last_row_case(model, 12, 12, -1, 30), 12);
    cr_expect_eq(last_row_case(model, 12, 13, 1, 30), 12);
    cr_expect_eq(last_row_case(model, 12, 12, 1, 30), 11);
    /* no digit at all: |x - y| = 10 scale */
    cr_expect_eq(last_row_case(model, 30, -1, 0, 30), 0);
    hdo_model_clear(model);
}

/* Events: the time relative to max(|t0|, |t_end|) = 100, the states to
   the largest |value| of their variable in b's rows and events (here
   b's event state y = -300 sets y's scale); the smallest over all. */
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
        hdo_event *e = hdo_result_add_event(r[i], t, 0, 0, HDO_EV_SWITCH, "g");
        mpfr_set_ui(e->left, 3, MPFR_RNDN);
        mpfr_set_ui(e->right, 3, MPFR_RNDN);
        mpfr_set_si(e->left + 1, 2, MPFR_RNDN);
        mpfr_set_si(e->right + 1, i ? -300 : 2, MPFR_RNDN);
        /* the last rows do not agree at all, but with events they are
           not compared */
        row_new(r[i], 100, i ? 1e6 : 0, 0);
    }
    hdo_event *ea = a->events;
    near(ea->time, 3, 100, kt, st, 30);
    near(ea->right + 1, -300, 300, ky, sy, 30);
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
    /* all equal: the cap (the last rows' x are not compared) */
    cr_expect_eq(event_case(model, 40, 0, 40, 0), 30);
    hdo_model_clear(model);
}
