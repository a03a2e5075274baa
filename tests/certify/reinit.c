/* reinit.c -- a transition whose kept values break the target's
   constraint (reinit-adjusted): the smallest change in balls against the
   projection computed here by hand, a perturbed constraint outside, and
   a nonlinear constraint, where the pass stops */
#include "common.h"

TestSuite(certify_reinit);

/* (x, y) = (1 + t, t) up to t = 1, then the constraint x + 2 y = c of
   mode b: from (2, 1), the nearest point of x + 2 y = 3 is
   (2, 1) - (1, 2) (4 - 3)/5 = (9/5, 3/5); after it x' = -2, y' = 1. */
static const char *proj = "model proj\nparam c = 3\n"
                          "var x = 1, y = 0, u = 0, v = 0\n"
                          "mode a\n  der(x) = 1\n  der(y) = 1\n"
                          "  when t > 1 goto b\nend\n"
                          "mode b\n  der(x) = u\n  der(y) = v\n"
                          "  0 = x + 2*y - c\n  v = 1\nend\n"
                          "start a\nuntil 2\n";

/* the closed form for the constraint's c (text), at the time ball t */
static void
proj_exact(arb_t x, arb_t y, const arb_t t, const char *ctext, int after,
           slong prec)
{
    arb_t c, s;
    arb_init(c);
    arb_init(s);
    if (!after) {
        arb_add_ui(x, t, 1, prec);
        arb_set(y, t);
    } else {
        /* (2, 1) - (1, 2) (4 - c)/5, then + (-2, 1) (t - 1) */
        arb_set_str(c, ctext, prec);
        arb_sub_ui(c, c, 4, prec);
        arb_div_ui(c, c, 5, prec);
        arb_sub_ui(s, t, 1, prec);
        arb_add_ui(x, c, 2, prec);
        arb_submul_ui(x, s, 2, prec);
        arb_mul_2exp_si(y, c, 1);
        arb_add_ui(y, y, 1, prec);
        arb_add(y, y, s, prec);
    }
    arb_clear(c);
    arb_clear(s);
}

/* counts the rows whose balls hold (contain != 0) or exclude the closed
   form with c = ctext */
static slong
proj_rows(const ct_case *c, const char *ctext, int contain)
{
    slong px = ct_var(c, "x"), py = ct_var(c, "y"), n = 0;
    arb_t t, x, y;
    arb_init(t);
    arb_init(x);
    arb_init(y);
    for (slong i = 0; i < c->cert->nrows; i++) {
        const hdo_cert_row *r = c->cert->rows + i;
        ct_time(t, r);
        proj_exact(x, y, t, ctext, r->mode == 1, 512);
        if (contain)
            n += ct_contains(r->values + px, x) &&
                 ct_contains(r->values + py, y);
        else
            n += ct_excludes(r->values + px, x) ||
                 ct_excludes(r->values + py, y);
    }
    arb_clear(t);
    arb_clear(x);
    arb_clear(y);
    return n;
}

Test(certify_reinit, projection_onto_an_affine_constraint)
{
    ct_case c;
    ct_init(&c, proj, NULL, NULL, 30, NULL, NULL);
    cr_assert_eq(c.res->nevents, 1);
    cr_assert_eq(c.res->events[0].kind, HDO_EV_REINIT_ADJUSTED);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    cr_assert(c.cert->min_digits >= 27, "%ld digits at %s", c.cert->min_digits,
              c.cert->where);
    cr_assert_eq(proj_rows(&c, "3", 1), c.cert->nrows);
    /* the event's right state: (9/5, 3/5) */
    arb_t q;
    arb_init(q);
    arb_set_ui(q, 9);
    arb_div_ui(q, q, 5, 512);
    cr_assert(ct_contains(c.cert->events[0].right + ct_var(&c, "x"), q));
    arb_set_ui(q, 3);
    arb_div_ui(q, q, 5, 512);
    cr_assert(ct_contains(c.cert->events[0].right + ct_var(&c, "y"), q));
    arb_clear(q);
    ct_clear(&c);
}

/* c = 3 + 10^-27 moves the adjusted point by 10^-27 (1, 2)/5: the balls
   of that run exclude the closed form of c = 3 after the event, and
   hold their own. */
Test(certify_reinit, perturbed_constraint_is_outside)
{
    static const char *const params[] = {"c=3.000000000000000000000000001",
                                         NULL};
    ct_case c;
    ct_init(&c, proj, NULL, params, 30, NULL, NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    cr_assert_eq(proj_rows(&c, "3.000000000000000000000000001", 1),
                 c.cert->nrows);
    slong out = proj_rows(&c, "3", 0);
    cr_assert(out >= c.cert->nrows / 3, "%ld rows exclude c = 3", (long)out);
    ct_clear(&c);
}

/* x^2 + y^2 = 4: the run's Gauss-Newton limit is the nearest point only
   to first order (reduce.h); the pass stops at the event, saying so. */
Test(certify_reinit, nonlinear_constraint_stops)
{
    ct_case c;
    ct_init(&c,
            "model circ\nvar x = 1, y = 0, u = 0, v = 0\n"
            "mode a\n  der(x) = 1\n  der(y) = 1\n  when t > 1 goto b\nend\n"
            "mode b\n  der(x) = u\n  der(y) = v\n  0 = x^2 + y^2 - 4\n"
            "  v = 1/10\nend\nstart a\nuntil 2\n",
            NULL, NULL, 30, NULL, NULL);
    cr_assert_eq(c.res->events[0].kind, HDO_EV_REINIT_ADJUSTED);
    cr_assert_eq(c.status, HDO_CERTIFY_STOPPED);
    cr_assert(strstr(c.cert->reason, "not affine") != NULL, "%s",
              c.cert->reason);
    cr_assert(fabs(c.cert->stop_time - 1) < 1e-9, "%g", c.cert->stop_time);
    cr_assert_eq(c.cert->nevents, 0);
    ct_clear(&c);
}
