/* clock.c -- switching functions of t alone (PWM): edges on the sampling
   grid and at the end time, against the closed form of a triangle wave
   computed here in Arb; an edge just before the end, which the run does
   not take, stops the pass */
#include "common.h"

TestSuite(certify_clock);

/* x rises at rate 1 while on ([k T, k T + T/2]) and falls while off: a
   triangle wave, x = t - 2 (time spent off).  Edges at k T/2 = k/20, all
   on the grid of --every 1/100, and the one at 1 = until. */
static const char *pwm = "model pwm\nparam T = 1/10\nvar x = 0\n"
                         "mode on\n  der(x) = 1\n"
                         "  when sin(2*pi*t/T) < 0 goto off\nend\n"
                         "mode off\n  der(x) = -1\n"
                         "  when sin(2*pi*t/T) > 0 goto on\nend\n"
                         "start on at 0\nuntil 1\n";

/* x at the point t (its branch decided by t's midpoint: every row's time
   lies at least 1/200 from an edge, or at an edge where x is the peak or
   zero either way), T = 1/10. */
static void
triangle(arb_t x, const arb_t t, slong prec)
{
    double td = arf_get_d(arb_midref(t), ARF_RND_NEAR);
    slong n = (slong)floor(td * 10 + 1e-9); /* periods done */
    arb_t off, f;
    arb_init(off);
    arb_init(f);
    /* off = n T/2 + max(0, t - n T - T/2) */
    arb_set_si(off, n);
    arb_div_ui(off, off, 20, prec);
    if (td - n / 10.0 > 0.05) {
        arb_set_si(f, 2 * n + 1);
        arb_div_ui(f, f, 20, prec);
        arb_sub(f, t, f, prec);
        arb_add(off, off, f, prec);
    }
    arb_mul_2exp_si(off, off, 1);
    arb_sub(x, t, off, prec);
    arb_clear(off);
    arb_clear(f);
}

Test(certify_clock, pwm_triangle_closed_form_whole_run)
{
    ct_case c;
    ct_init_every(&c, pwm, NULL, NULL, 30, NULL, "0.01", NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    cr_assert_eq(c.res->nevents, 19);
    cr_assert_eq(c.cert->nrows, c.res->nrows);
    cr_assert(c.cert->min_digits >= 27, "%ld digits at %s", c.cert->min_digits,
              c.cert->where);
    slong px = ct_var(&c, "x"), prec = 512;
    arb_t t, x;
    arb_init(t);
    arb_init(x);
    for (slong i = 0; i < c.cert->nrows; i++) {
        ct_time(t, c.cert->rows + i);
        triangle(x, t, prec);
        cr_assert(ct_contains(c.cert->rows[i].values + px, x),
                  "row %ld (t = %g)", (long)i, arf_get_d(arb_midref(t), 0));
    }
    /* the last row at until = 1 exactly: x = 0, in mode off */
    const hdo_cert_row *last = c.cert->rows + c.cert->nrows - 1;
    arb_one(t);
    cr_assert(ct_contains(&last->time, t));
    arb_zero(x);
    cr_assert(ct_contains(last->values + px, x));
    /* the edges: k/20 in each time ball; x = 1/20 or 0 on both sides */
    for (slong k = 0; k < c.cert->nevents; k++) {
        const hdo_cert_event *e = c.cert->events + k;
        arb_set_si(t, k + 1);
        arb_div_ui(t, t, 20, prec);
        cr_assert(ct_contains(&e->time, t), "edge %ld", (long)k + 1);
        arb_set_si(x, k % 2 == 0 ? 1 : 0);
        arb_div_ui(x, x, 20, prec);
        cr_assert(ct_contains(e->left + px, x) && ct_contains(e->right + px, x),
                  "x at edge %ld", (long)k + 1);
    }
    arb_clear(t);
    arb_clear(x);
    ct_clear(&c);
}

/* T = 1/10 + 10^-27: the edges move by up to 10 T' - 1 = 1e-26, and x
   with them; the balls of that run exclude the closed form of T = 1/10
   somewhere (they are tight enough to tell). */
Test(certify_clock, pwm_perturbed_period_is_outside)
{
    static const char *const params[] = {"T=0.100000000000000000000000001",
                                         NULL};
    ct_case c;
    ct_init_every(&c, pwm, NULL, params, 30, "0.99", "0.01", NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    slong px = ct_var(&c, "x"), outside = 0;
    arb_t t, x;
    arb_init(t);
    arb_init(x);
    for (slong i = 0; i < c.cert->nrows; i++) {
        ct_time(t, c.cert->rows + i);
        triangle(x, t, 512);
        outside += ct_excludes(c.cert->rows[i].values + px, x);
    }
    cr_assert(outside > 0, "no ball excludes the unperturbed closed form");
    arb_clear(t);
    arb_clear(x);
    ct_clear(&c);
}

/* An edge 10^-40 before the end: within the run's time tolerance of
   until, so the run does not take it; in exact terms it comes before
   the end, and the pass must not certify the run's last row. */
Test(certify_clock, clock_edge_just_before_the_end_stops)
{
    ct_case c;
    ct_init(&c,
            "model late\nvar x = 1\nmode down\n  der(x) = -1\n"
            "  when t > 1 - 10^-40 goto up\nend\nmode up\n  der(x) = 1\n"
            "end\nstart down\nuntil 1\n",
            NULL, NULL, 30, NULL, NULL);
    cr_assert_eq(c.res->nevents, 0); /* not taken: within the tolerance */
    cr_assert_eq(c.status, HDO_CERTIFY_STOPPED);
    cr_assert(c.cert->nrows < c.res->nrows);
    cr_assert(fabs(c.cert->stop_time - 1) < 1e-6, "stopped at %g: %s",
              c.cert->stop_time, c.cert->reason);
    ct_clear(&c);
}

/* The same edge exactly at until: no event, certified, x(1) = 0. */
Test(certify_clock, clock_edge_at_the_end_is_certified)
{
    ct_case c;
    ct_init(&c,
            "model atend\nvar x = 1\nmode down\n  der(x) = -1\n"
            "  when t > 1 goto up\nend\nmode up\n  der(x) = 1\n"
            "end\nstart down\nuntil 1\n",
            NULL, NULL, 30, NULL, NULL);
    cr_assert_eq(c.res->nevents, 0);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    arb_t z;
    arb_init(z);
    const hdo_cert_row *last = c.cert->rows + c.cert->nrows - 1;
    cr_assert(ct_contains(last->values + ct_var(&c, "x"), z));
    arb_clear(z);
    ct_clear(&c);
}
