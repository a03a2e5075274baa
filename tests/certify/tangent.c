/* tangent.c -- tangential departures: stick_slip_stick's break-aways,
   where the relative velocity starts at zero with a zero derivative, are
   certified against their closed form (F = sin(t)/2 while stuck, +-mu N
   while slipping, break-away at asin(2 mu N) + k pi); a slip force
   10^-40 larger makes that derivative negative, and the pass stops */
#include "common.h"

TestSuite(certify_tangent);

static void
check_stick(const char *const *params, const char *mu, int expect_inside)
{
    ct_case c;
    ct_init(&c, NULL, "cases/stick_slip_stick.hdae", params, 30, NULL, NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    cr_assert_eq(c.cert->nevents, 6);
    slong pF = ct_var(&c, "F"), prec = 512, inside = 0, n = 0;
    arb_t t, f, m;
    arb_init(t);
    arb_init(f);
    arb_init(m);
    arb_set_str(m, mu, prec);
    for (slong i = 0; i < c.cert->nrows; i++) {
        const hdo_cert_row *r = c.cert->rows + i;
        const char *mode = c.model->modes[r->mode].name;
        ct_time(t, r);
        if (strcmp(mode, "stick") == 0) {
            arb_sin(f, t, prec);
            arb_mul_2exp_si(f, f, -1);
        } else {
            arb_set(f, m);
            if (strcmp(mode, "slip_neg") == 0)
                arb_neg(f, f);
        }
        n++;
        inside += ct_contains(r->values + pF, f);
    }
    /* the break-aways (events 1, 3, 5): asin(2 mu) + k pi */
    for (slong k = 0; k < 3; k++) {
        const hdo_cert_event *e = c.cert->events + 2 * k;
        arb_mul_2exp_si(f, m, 1);
        arb_asin(f, f, prec);
        arb_const_pi(t, prec);
        arb_addmul_si(f, t, k, prec);
        n++;
        inside += ct_contains(&e->time, f);
    }
    if (expect_inside)
        cr_assert_eq(inside, n, "%ld of %ld balls hold the closed form",
                     (long)inside, (long)n);
    else
        cr_assert(inside < n - n / 3, "%ld of %ld balls hold mu = %s",
                  (long)inside, (long)n, mu);
    arb_clear(t);
    arb_clear(f);
    arb_clear(m);
    ct_clear(&c);
}

Test(certify_tangent, stick_slip_stick_closed_form)
{
    check_stick(NULL, "0.4", 1);
}

/* mu = 0.4 + 10^-27: the stick force and the break-aways move (by about
   1e-27); that run's balls exclude the closed form of mu = 0.4 */
Test(certify_tangent, stick_slip_stick_perturbed_is_outside)
{
    static const char *const params[] = {"mu=0.400000000000000000000000001",
                                         NULL};
    check_stick(params, "0.4", 0);
}

/* F = mu N + 10^-40 while slipping: at the break-away the relative
   velocity's derivative is sin(t) - 2 F = -2e-40, a return to stick at
   once in exact terms, which the run cannot see at 30 digits; the pass
   must not certify the slip arc. */
Test(certify_tangent, slope_not_exactly_zero_stops)
{
    static const char *text =
        "model pert\nparam N = 1\nparam mu = 0.4\n"
        "var x1 = 1, x2 = 1, v1 = 0, v2 = 0, F = 0\n"
        "mode stick\n  der(x1) = v1\n  der(x2) = v2\n"
        "  der(v1) = sin(t) - F\n  der(v2) = F\n  v1 - v2 = 0\n"
        "  when F > mu*N goto slip_pos\nend\n"
        "mode slip_pos\n  der(x1) = v1\n  der(x2) = v2\n"
        "  der(v1) = sin(t) - F\n  der(v2) = F\n  F = mu*N + 10^-40\n"
        "  when v1 - v2 < 0 goto stick\nend\n"
        "start stick\nuntil 2\n";
    ct_case c;
    ct_init(&c, text, NULL, NULL, 30, NULL, NULL);
    cr_assert(c.res->nevents >= 1);
    cr_assert_eq(c.status, HDO_CERTIFY_STOPPED);
    cr_assert(fabs(c.cert->stop_time - 0.9272952180016122) < 1e-9, "%s",
              c.cert->reason);
    cr_assert(strstr(c.cert->reason, "v1 - v2 < 0") != NULL, "%s",
              c.cert->reason);
    cr_assert_eq(c.cert->nevents, 1); /* the break-away itself */
    ct_clear(&c);
}
