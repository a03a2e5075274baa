/* invariant.c -- tests of switching functions that are first integrals of their
 * mode (KM 2017 section 5.1 case 4(a), eq. (23); issue #5) */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid.h"
#include "reduce.h"
#include "../model_util.h"

/* Expected values come from closed forms evaluated here with MPFR: the
   energy H0 = -m g L cos(1) of the start, and the time K(k^2) / w at
   which the pendulum released at q = 1 passes q = 0 (k = sin(1/2),
   w = sqrt(g / L)), computed by the arithmetic-geometric mean. */

/* cases/km_energy.hdae, with the guard's left side replaceable */
#define KM_ENERGY(GUARD)                                                       \
    "model km_energy\n"                                                        \
    "param m = 1\n"                                                            \
    "param g = 9.81\n"                                                         \
    "param L = 1\n"                                                            \
    "var q = 1, p = 0\n"                                                       \
    "mode moving\n"                                                            \
    "  der(p) = -m*g*L*sin(q)\n"                                               \
    "  der(q) = p/m\n"                                                         \
    "  when " GUARD " goto stopped\n"                                          \
    "end\n"                                                                    \
    "mode stopped\n"                                                           \
    "  der(p) = 0\n"                                                           \
    "  der(q) = 0\n"                                                           \
    "end\n"                                                                    \
    "start moving at 0\n"                                                      \
    "until 10\n"

static const char *km_text =
    KM_ENERGY("p^2/(2*m) - m*g*L*cos(q) < -m*g*L*cos(1)");

/* |H(p, q) - H0| on a row, H0 = -9.81 cos(1), at precision prec. */
static void
energy_error(mpfr_t err, const hdo_row *row, slong iq, slong ip,
             mpfr_prec_t prec)
{
    mpfr_t h, h0, a;
    mpfr_inits2(prec, h, h0, a, (mpfr_ptr)0);
    mpfr_sqr(h, row->values + ip, MPFR_RNDN);
    mpfr_div_ui(h, h, 2, MPFR_RNDN);
    mpfr_cos(a, row->values + iq, MPFR_RNDN);
    mpfr_mul_ui(a, a, 981, MPFR_RNDN);
    mpfr_div_ui(a, a, 100, MPFR_RNDN);
    mpfr_sub(h, h, a, MPFR_RNDN);
    mpfr_set_ui(h0, 1, MPFR_RNDN);
    mpfr_cos(h0, h0, MPFR_RNDN);
    mpfr_mul_ui(h0, h0, 981, MPFR_RNDN);
    mpfr_div_ui(h0, h0, 100, MPFR_RNDN);
    mpfr_neg(h0, h0, MPFR_RNDN);
    mpfr_sub(err, h, h0, MPFR_RNDN);
    mpfr_abs(err, err, MPFR_RNDN);
    mpfr_clears(h, h0, a, (mpfr_ptr)0);
}

/* The guard H < H0 of km_energy is the first integral H - H0: at every
   precision (50 and 60 digits used to report a noise switch at
   t = 0.5159 and 0.4978) no event, and H = H0 to 10^-D on every row up
   to t = 10. */
Test(hybrid, invariant_km_energy_no_events_energy_kept)
{
    static const long digits[] = {30, 40, 50, 60};
    for (size_t k = 0; k < sizeof digits / sizeof *digits; k++) {
        long D = digits[k];
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        tm_parse(model, km_text);
        int st = tm_run(res, model, D, NULL, &err);
        cr_assert_eq(st, 0, "%ld digits: %s", D, err.message);
        cr_expect_eq(res->nevents, 0, "%ld digits: %ld events", D,
                     (long)res->nevents);
        slong iq = tm_var(model, "q"), ip = tm_var(model, "p");
        const hdo_row *last = res->rows + res->nrows - 1;
        cr_assert_eq(mpfr_cmp_ui(last->time, 10), 0);
        mpfr_t e, worst, bound;
        mpfr_inits2(res->prec, e, worst, bound, (mpfr_ptr)0);
        mpfr_set_ui(worst, 0, MPFR_RNDN);
        for (slong i = 0; i < res->nrows; i++) {
            energy_error(e, res->rows + i, iq, ip, res->prec);
            mpfr_max(worst, worst, e, MPFR_RNDN);
        }
        energy_error(e, last, iq, ip, res->prec);
        mpfr_set_ui(bound, 10, MPFR_RNDN);
        mpfr_pow_si(bound, bound, -D, MPFR_RNDN);
        cr_expect(mpfr_cmp(e, bound) < 0,
                  "%ld digits: |H - H0| at t = 10 is %s", D,
                  mpfr_get_str(NULL, NULL, 10, 6, e, MPFR_RNDN));
        cr_expect(mpfr_cmp(worst, bound) < 0,
                  "%ld digits: max |H - H0| over the rows is %s", D,
                  mpfr_get_str(NULL, NULL, 10, 6, worst, MPFR_RNDN));
        cr_log_info("km_energy %ld digits: |H - H0| at t = 10: %.3e, max "
                    "over rows %.3e",
                    D, mpfr_get_d(e, MPFR_RNDN), mpfr_get_d(worst, MPFR_RNDN));
        mpfr_clears(e, worst, bound, (mpfr_ptr)0);
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

/* The time K(k^2) / w of the first pass through q = 0. */
static void
quarter_period(mpfr_t T, mpfr_prec_t prec)
{
    mpfr_t a, b, k, t;
    mpfr_inits2(prec, a, b, k, t, (mpfr_ptr)0);
    mpfr_set_ui(k, 1, MPFR_RNDN);
    mpfr_div_ui(k, k, 2, MPFR_RNDN);
    mpfr_sin(k, k, MPFR_RNDN);
    /* K(k^2) = pi / (2 agm(1, sqrt(1 - k^2))) */
    mpfr_sqr(b, k, MPFR_RNDN);
    mpfr_ui_sub(b, 1, b, MPFR_RNDN);
    mpfr_sqrt(b, b, MPFR_RNDN);
    mpfr_set_ui(a, 1, MPFR_RNDN);
    mpfr_agm(t, a, b, MPFR_RNDN);
    mpfr_const_pi(T, MPFR_RNDN);
    mpfr_div(T, T, t, MPFR_RNDN);
    mpfr_div_ui(T, T, 2, MPFR_RNDN);
    mpfr_set_ui(t, 981, MPFR_RNDN);
    mpfr_div_ui(t, t, 100, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_div(T, T, t, MPFR_RNDN);
    mpfr_clears(a, b, k, t, (mpfr_ptr)0);
}

/* Negative: S = H - H0 + 1e-20 q is not a first integral (its Lie
   derivative 1e-20 p / m is tiny, but far above 2^(-2 prec) of its
   terms): it is located, and its event is where q = 0, at K / w. */
Test(hybrid, invariant_tiny_lie_derivative_still_switches)
{
    static const long digits[] = {30, 50};
    for (size_t k = 0; k < sizeof digits / sizeof *digits; k++) {
        long D = digits[k];
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        tm_parse(model, KM_ENERGY("p^2/(2*m) - m*g*L*cos(q) + 1e-20*q < "
                                  "-m*g*L*cos(1)"));
        int st = tm_run(res, model, D, NULL, &err);
        cr_assert_eq(st, 0, "%ld digits: %s", D, err.message);
        cr_assert_eq(res->nevents, 1, "%ld digits: %ld events", D,
                     (long)res->nevents);
        cr_expect_eq(res->events[0].from, 0);
        cr_expect_eq(res->events[0].to, 1);
        mpfr_t T, d;
        mpfr_inits2(res->prec, T, d, (mpfr_ptr)0);
        quarter_period(T, res->prec);
        mpfr_sub(d, res->events[0].time, T, MPFR_RNDN);
        /* the event time is ill-conditioned: S' = 1e-20 p against an
           error of S of about 10^-(D+4), so about D - 16 digits */
        mpfr_abs(d, d, MPFR_RNDN);
        cr_expect(mpfr_cmp_d(d, 1e-10) < 0,
                  "%ld digits: event at %.20g, K/w = %.20g", D,
                  mpfr_get_d(res->events[0].time, MPFR_RNDN),
                  mpfr_get_d(T, MPFR_RNDN));
        cr_log_info("tiny Lie derivative, %ld digits: event at %.17g, "
                    "|t - K/w| = %.3e",
                    D, mpfr_get_d(res->events[0].time, MPFR_RNDN),
                    mpfr_get_d(d, MPFR_RNDN));
        mpfr_clears(T, d, (mpfr_ptr)0);
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

/* A first integral entered on its infeasible side (S = H - H0 - 1 < 0 at
   the start) is not skipped: the switch happens at once. */
Test(hybrid, invariant_infeasible_entry_switches_at_once)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, KM_ENERGY("p^2/(2*m) - m*g*L*cos(q) < -m*g*L*cos(1) + 1"));
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    cr_expect_eq(mpfr_cmp_ui(res->events[0].time, 0), 0);
    cr_expect_eq(res->events[0].to, 1);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* The recognition itself on the reduced form of `moving`. */
Test(hybrid, invariant_first_integral_test)
{
    hdo_model_t model;
    hdo_error_t err;
    hdo_reduced_t red;
    tm_parse(model, km_text);
    hdo_error_clear(&err);
    hdo_reduced_init(red);
    cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0);
    hdo_expr_pool_struct *pool = model->pool;
    slong iq = tm_var(model, "q"), ip = tm_var(model, "p");
    hdo_expr q = hdo_expr_var(pool, iq, 0), p = hdo_expr_var(pool, ip, 0);
    hdo_expr S = model->modes[0].whens[0].guard;
    mpfr_t t;
    mpfr_init2(t, 100);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    for (mpfr_prec_t prec = 60; prec <= 600; prec *= 2) {
        cr_expect_gt(hdo_first_integral_test(model, red, S, t, prec), 0,
                     "H - H0 at prec %ld", (long)prec);
        /* H - H0 + 1e-20 q, and H + q: not first integrals */
        hdo_expr tiny = hdo_expr_mul(
            pool, hdo_expr_const_si(pool, 1, 1),
            hdo_expr_div(pool, q,
                         hdo_expr_pow(pool, hdo_expr_const_si(pool, 10, 1),
                                      hdo_expr_const_si(pool, 20, 1))));
        cr_expect_eq(hdo_first_integral_test(
                         model, red, hdo_expr_add(pool, S, tiny), t, prec),
                     0, "H - H0 + 1e-20 q at prec %ld", (long)prec);
        cr_expect_eq(hdo_first_integral_test(model, red, q, t, prec), 0);
        /* a constant: symbolically */
        cr_expect_eq(hdo_first_integral_test(
                         model, red, hdo_expr_const_si(pool, 3, 1), t, prec),
                     HDO_FI_SYMBOLIC);
    }
    /* 7/3 (S - p) is not one (dS/dt - dp/dt = g sin q) */
    cr_expect_eq(hdo_first_integral_test(
                     model, red,
                     hdo_expr_mul(pool, hdo_expr_const_si(pool, 7, 3),
                                  hdo_expr_sub(pool, S, p)),
                     t, 200),
                 0);
    /* exp(H) is one (a function of a first integral) */
    cr_expect_eq(hdo_first_integral_test(
                     model, red, hdo_expr_unary(pool, HDO_X_EXP, S), t, 200),
                 HDO_FI_NUMERIC);
    mpfr_clear(t);
    hdo_reduced_clear(red);
    hdo_model_clear(model);
}

/* hdo_invariant_enter on a first integral that is undefined at the entry
   point: log(1 - S^2), a function of the energy S = H - H0, is defined
   at the start (S = 0) and not at p = 10 (|S| > 1): HDO_ERR_DOMAIN (not
   a bare -1, which is HDO_ERR_SYNTAX), and the guard is not skipped. */
Test(hybrid, invariant_enter_undefined_is_domain_error)
{
    hdo_model_t model;
    hdo_error_t err;
    hdo_reduced_t red;
    tm_parse(model, km_text);
    hdo_error_clear(&err);
    hdo_reduced_init(red);
    cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0);
    hdo_expr_pool_struct *pool = model->pool;
    hdo_expr S = model->modes[0].whens[0].guard;
    hdo_expr one = hdo_expr_const_si(pool, 1, 1);
    hdo_expr G = hdo_expr_unary(
        pool, HDO_X_LOG,
        hdo_expr_sub(pool, one,
                     hdo_expr_pow(pool, S, hdo_expr_const_si(pool, 2, 1))));
    mpfr_t t, tol;
    mpfr_inits2(200, t, tol, (mpfr_ptr)0);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_ui_2exp(tol, 1, -150, MPFR_RNDN);
    hdo_invariant *inv = hdo_invariant_build(model, red, &G, 1, t, 200);
    cr_assert_not_null(inv, "log(1 - S^2) is a first integral");
    mpfr_ptr xs = hdo_vec_init(red->nstate, 200);
    slong iq = tm_var(model, "q");
    for (slong i = 0; i < red->nstate; i++)
        mpfr_set_ui(xs + i, red->state[i].var == iq ? 1 : 0, MPFR_RNDN);
    cr_assert_eq(hdo_invariant_enter(inv, t, xs, tol), 0);
    cr_assert(hdo_invariant_skips(inv, 0));
    for (slong i = 0; i < red->nstate; i++)
        if (red->state[i].var != iq)
            mpfr_set_ui(xs + i, 10, MPFR_RNDN);
    cr_assert_eq(hdo_invariant_enter(inv, t, xs, tol), HDO_ERR_DOMAIN);
    cr_assert(!hdo_invariant_skips(inv, 0));
    hdo_vec_clear(xs, red->nstate);
    hdo_invariant_free(inv);
    mpfr_clears(t, tol, (mpfr_ptr)0);
    hdo_reduced_clear(red);
    hdo_model_clear(model);
}
