/* closed.c -- the certified balls against closed forms computed here in
   Arb, independently of the pass (sin and cos, exp, Arb's matrix
   exponential, the bouncing ball's impact recursion), and outside them
   when a parameter is perturbed by 10^-(D-3): the balls are tight enough
   to tell */
#include <arb_mat.h>
#include "common.h"

TestSuite(certify_closed);

static const char *oscillator =
    "model ho\nparam w = 1\nvar x = 1, v = 0\nmode m\n  der(x) = v\n"
    "  der(v) = -w^2*x\nend\nstart m\nuntil 40*pi\n";

/* x = cos(w t), v = -w sin(w t), w from the -p override text (NULL: 1). */
static void
oscillator_exact(arb_t x, arb_t v, const arb_t t, const char *wtext, slong prec)
{
    arb_t w, wt;
    arb_init(w);
    arb_init(wt);
    arb_one(w);
    if (wtext != NULL)
        arb_set_str(w, wtext, prec);
    arb_mul(wt, w, t, prec);
    arb_sin_cos(v, x, wt, prec);
    arb_mul(v, v, w, prec);
    arb_neg(v, v);
    arb_clear(w);
    arb_clear(wt);
}

static void
check_oscillator(long D)
{
    ct_case c;
    ct_init(&c, oscillator, NULL, NULL, D, NULL, NULL);
    cr_assert_eq(c.status, 0, "certified: %s", c.cert->reason);
    cr_assert(c.cert->complete);
    cr_assert_eq(c.cert->nrows, c.res->nrows);
    /* tightness: 20 periods within 3 digits of D */
    cr_assert(c.cert->min_digits >= D - 3, "D = %ld: %ld digits at %s", D,
              c.cert->min_digits, c.cert->where);
    slong px = ct_var(&c, "x"), pv = ct_var(&c, "v"), prec = 4 * c.res->prec;
    arb_t t, x, v;
    arb_init(t);
    arb_init(x);
    arb_init(v);
    for (slong i = 0; i < c.cert->nrows; i++) {
        const hdo_cert_row *r = c.cert->rows + i;
        ct_time(t, r);
        oscillator_exact(x, v, t, NULL, prec);
        cr_assert(ct_contains(r->values + px, x), "x at row %ld", (long)i);
        cr_assert(ct_contains(r->values + pv, v), "v at row %ld", (long)i);
    }
    arb_clear(t);
    arb_clear(x);
    arb_clear(v);
    ct_clear(&c);
}

Test(certify_closed, oscillator_20_periods_30_digits)
{
    check_oscillator(30);
}

Test(certify_closed, oscillator_20_periods_100_digits)
{
    check_oscillator(100);
}

/* w perturbed by 10^-(D-3): after 20 periods cos(w t) moves by about
   t 10^-(D-3) = 1.3e-25, far outside balls of radius about 10^-(D+3);
   the closed form of either run lies outside the other's balls. */
Test(certify_closed, oscillator_perturbed_is_outside)
{
    long D = 30;
    const char *wp = "1.000000000000000000000000001"; /* 1 + 1e-27 */
    char arg[64];
    snprintf(arg, sizeof arg, "w=%s", wp);
    const char *params[] = {arg, NULL};
    ct_case a, b;
    ct_init(&a, oscillator, NULL, NULL, D, NULL, NULL);
    ct_init(&b, oscillator, NULL, params, D, NULL, NULL);
    cr_assert(a.cert->complete && b.cert->complete);
    slong px = ct_var(&a, "x"), pv = ct_var(&a, "v"), prec = 4 * a.res->prec;
    arb_t t, x, v;
    arb_init(t);
    arb_init(x);
    arb_init(v);
    /* the last row: t = 40 pi */
    const hdo_cert_row *ra = a.cert->rows + a.cert->nrows - 1;
    const hdo_cert_row *rb = b.cert->rows + b.cert->nrows - 1;
    ct_time(t, rb);
    oscillator_exact(x, v, t, wp, prec);
    cr_assert(ct_contains(rb->values + px, x), "perturbed run, own form");
    ct_time(t, ra);
    oscillator_exact(x, v, t, wp, prec);
    cr_assert(ct_excludes(ra->values + pv, v) ||
                  ct_excludes(ra->values + px, x),
              "the unperturbed balls hold the perturbed closed form");
    ct_time(t, rb);
    oscillator_exact(x, v, t, NULL, prec);
    cr_assert(ct_excludes(rb->values + px, x) ||
                  ct_excludes(rb->values + pv, v),
              "the perturbed balls hold the unperturbed closed form");
    arb_clear(t);
    arb_clear(x);
    arb_clear(v);
    ct_clear(&a);
    ct_clear(&b);
}

/* Digits at every scale: x(40) = e^-40 = 4.2e-18 keeps its D digits
   relative to its own size. */
Test(certify_closed, exponential_decay_every_scale)
{
    long D = 30;
    ct_case c;
    ct_init(&c,
            "model decay\nparam k = 1\nvar x = 1\nmode m\n  der(x) = -k*x\n"
            "end\nstart m\nuntil 40\n",
            NULL, NULL, D, NULL, NULL);
    cr_assert(c.cert->complete, "%s", c.cert->reason);
    slong px = ct_var(&c, "x"), prec = 4 * c.res->prec;
    arb_t t, x;
    arb_init(t);
    arb_init(x);
    for (slong i = 0; i < c.cert->nrows; i++) {
        const hdo_cert_row *r = c.cert->rows + i;
        ct_time(t, r);
        arb_neg(x, t);
        arb_exp(x, x, prec);
        cr_assert(ct_contains(r->values + px, x), "x at row %ld", (long)i);
        /* relative digits, whatever the size */
        cr_assert(hdo_ball_digits(r->values + px, 0) >= D - 3,
                  "row %ld: %.1f digits", (long)i,
                  hdo_ball_digits(r->values + px, 0));
    }
    arb_clear(t);
    arb_clear(x);
    ct_clear(&c);
}

/* x' = A x, A = [[0, 1], [-2, -3]]: x(t) = exp(A t) x0 by Arb's matrix
   exponential. */
Test(certify_closed, linear_system_matrix_exponential)
{
    long D = 40;
    ct_case c;
    ct_init(&c,
            "model lin\nvar x = 1, y = 1/3\nmode m\n  der(x) = y\n"
            "  der(y) = -2*x - 3*y\nend\nstart m\nuntil 5\n",
            NULL, NULL, D, NULL, NULL);
    cr_assert(c.cert->complete, "%s", c.cert->reason);
    cr_assert(c.cert->min_digits >= D - 5, "%ld digits", c.cert->min_digits);
    slong px = ct_var(&c, "x"), py = ct_var(&c, "y"), prec = 4 * c.res->prec;
    arb_mat_t A, E;
    arb_mat_init(A, 2, 2);
    arb_mat_init(E, 2, 2);
    arb_t t, x, y, y0;
    arb_init(t);
    arb_init(x);
    arb_init(y);
    arb_init(y0);
    arb_set_si(y0, 1);
    arb_div_si(y0, y0, 3, prec);
    for (slong i = 0; i < c.cert->nrows; i += 7) {
        const hdo_cert_row *r = c.cert->rows + i;
        ct_time(t, r);
        arb_mat_zero(A);
        arb_set(arb_mat_entry(A, 0, 1), t);
        arb_mul_si(arb_mat_entry(A, 1, 0), t, -2, prec);
        arb_mul_si(arb_mat_entry(A, 1, 1), t, -3, prec);
        arb_mat_exp(E, A, prec);
        arb_mul(x, arb_mat_entry(E, 0, 1), y0, prec);
        arb_add(x, x, arb_mat_entry(E, 0, 0), prec);
        arb_mul(y, arb_mat_entry(E, 1, 1), y0, prec);
        arb_add(y, y, arb_mat_entry(E, 1, 0), prec);
        cr_assert(ct_contains(r->values + px, x), "x at row %ld", (long)i);
        cr_assert(ct_contains(r->values + py, y), "y at row %ld", (long)i);
    }
    arb_mat_clear(A);
    arb_mat_clear(E);
    arb_clear(t);
    arb_clear(x);
    arb_clear(y);
    arb_clear(y0);
    ct_clear(&c);
}

/* The bouncing ball's impacts: t1 = sqrt(2 h0 / g), t_(k+1) = t_k +
   2 e^k t1, velocity before impact k -g t1 e^(k-1), after it -e times
   that; every certified event holds them.  With e perturbed by 10^-(D-3)
   the event times of the perturbed model fall outside the balls (after
   a few impacts, where the times have moved by more than the radii). */
static void
ball_events(const ct_case *c, const char *etext, int expect_inside)
{
    slong prec = 4 * c->res->prec, pv = hdo_model_find_var(c->model, "v");
    arb_t g, e, t1, tk, vk, ek, x, two;
    arb_init(g);
    arb_init(e);
    arb_init(t1);
    arb_init(tk);
    arb_init(vk);
    arb_init(ek);
    arb_init(x);
    arb_init(two);
    arb_set_str(g, "9.81", prec);
    arb_set_str(e, etext, prec);
    arb_set_si(two, 2);
    arb_div(t1, two, g, prec);
    arb_sqrt(t1, t1, prec);
    arb_set(tk, t1);
    arb_one(ek);
    slong outside = 0, n = 0;
    for (slong k = 0; k < c->cert->nevents; k++) {
        const hdo_cert_event *ce = c->cert->events + k;
        if (ce->kind != HDO_EV_SWITCH)
            continue; /* the zeno event: tests/certify/zeno.c */
        n++;
        /* velocity before impact k + 1: -g t1 e^k */
        arb_mul(vk, g, t1, prec);
        arb_mul(vk, vk, ek, prec);
        arb_neg(vk, vk);
        if (expect_inside) {
            cr_assert(ct_contains(&ce->time, tk), "time of impact %ld",
                      (long)k + 1);
            cr_assert(ct_contains(ce->left + pv, vk), "v before impact %ld",
                      (long)k + 1);
            arb_mul(x, vk, e, prec);
            arb_neg(x, x);
            cr_assert(ct_contains(ce->right + pv, x), "v after impact %ld",
                      (long)k + 1);
        } else if (ct_excludes(&ce->time, tk)) {
            outside++;
        }
        /* t_(k+1) = t_k + 2 e^(k+1) t1 */
        arb_mul(ek, ek, e, prec);
        arb_mul(x, ek, t1, prec);
        arb_mul_2exp_si(x, x, 1);
        arb_add(tk, tk, x, prec);
    }
    if (!expect_inside)
        cr_assert(outside >= n / 2,
                  "only %ld of %ld impacts of the perturbed model outside",
                  (long)outside, (long)n);
    arb_clear(g);
    arb_clear(e);
    arb_clear(t1);
    arb_clear(tk);
    arb_clear(vk);
    arb_clear(ek);
    arb_clear(x);
    arb_clear(two);
}

Test(certify_closed, bouncing_ball_impacts)
{
    ct_case c;
    ct_init(&c, NULL, "cases/bouncing_ball.hdae", NULL, 30, NULL, NULL);
    /* the whole run: every impact the run followed, the Zeno point and
       the rest after it (tests/certify/zeno.c) */
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    cr_assert_eq(c.cert->nevents, c.res->nevents);
    cr_assert(c.cert->min_digits >= 25, "%ld digits", c.cert->min_digits);
    ball_events(&c, "0.7", 1);
    ball_events(&c, "0.700000000000000000000000001", 0);
    ct_clear(&c);
}
