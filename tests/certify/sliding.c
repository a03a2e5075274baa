/* sliding.c -- Filippov sliding on one surface certified against closed
   forms computed here in Arb: the relay der(x) = -sign(x) (x = 1 - t,
   then 0), KM's chattering example (x = -t, then 0; z = 1), stick_slip
   (stuck: v = (1 - cos t)/2; the exits asin(0.8) + k pi; the entries,
   zeros of the slip arc's closed form, bracketed by each ball), and a
   perturbed friction coefficient whose exits fall outside */
#include "common.h"

TestSuite(certify_sliding);

Test(certify_sliding, relay_slides_at_zero)
{
    ct_case c;
    ct_init(&c,
            "model relay\nvar x = 1\nmode m\n  der(x) = -sign(x)\nend\n"
            "start m\nuntil 2\n",
            NULL, NULL, 30, NULL, NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    cr_assert_eq(c.cert->nevents, 1);
    cr_assert_eq(c.cert->events[0].kind, HDO_EV_SLIDING_START);
    slong px = ct_var(&c, "x");
    arb_t t, x;
    arb_init(t);
    arb_init(x);
    arb_one(t);
    cr_assert(ct_contains(&c.cert->events[0].time, t));
    for (slong i = 0; i < c.cert->nrows; i++) {
        ct_time(t, c.cert->rows + i);
        /* x = 1 - t before the sliding, 0 on it */
        if (c.cert->rows[i].mode < c.model->nmodes)
            arb_sub_ui(x, t, 1, 256), arb_neg(x, x);
        else
            arb_zero(x);
        cr_assert(ct_contains(c.cert->rows[i].values + px, x), "row %ld",
                  (long)i);
    }
    arb_clear(t);
    arb_clear(x);
    ct_clear(&c);
}

Test(certify_sliding, km_chattering_closed_form)
{
    ct_case c;
    ct_init(&c, NULL, "cases/km_chattering.hdae", NULL, 30, NULL, NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    slong px = ct_var(&c, "x"), pz = ct_var(&c, "z");
    arb_t t, x, one;
    arb_init(t);
    arb_init(x);
    arb_init(one);
    arb_one(one);
    for (slong i = 0; i < c.cert->nrows; i++) {
        const hdo_cert_row *r = c.cert->rows + i;
        ct_time(t, r);
        if (r->mode < c.model->nmodes)
            arb_neg(x, t);
        else
            arb_zero(x);
        cr_assert(ct_contains(r->values + px, x), "x at row %ld", (long)i);
        if (r->present[pz])
            cr_assert(ct_contains(r->values + pz, one), "z at row %ld",
                      (long)i);
    }
    arb_clear(t);
    arb_clear(x);
    arb_clear(one);
    ct_clear(&c);
}

/* g(t) = cos t0 - cos t - 2 mu (t - t0), the relative velocity of the
   slip arc that left sliding at t0 (slip_pos: sign +1; slip_neg: -1) */
static void
slip_rel(arb_t g, const arb_t t, const arb_t t0, const arb_t mu, int sign,
         slong prec)
{
    arb_t u;
    arb_init(u);
    arb_cos(g, t0, prec);
    arb_cos(u, t, prec);
    arb_sub(g, g, u, prec);
    arb_sub(u, t, t0, prec);
    arb_mul(u, u, mu, prec);
    arb_mul_2exp_si(u, u, 1);
    if (sign > 0)
        arb_sub(g, g, u, prec);
    else
        arb_add(g, g, u, prec);
    arb_clear(u);
}

static void
check_stick_slip(const char *const *params, const char *mu_true, int inside)
{
    ct_case c;
    ct_init(&c, NULL, "cases/stick_slip.hdae", params, 30, NULL, NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    cr_assert_eq(c.cert->nevents, 7);
    slong prec = 512, n = 0, in = 0, nev, inev;
    arb_t mu, t0, t, g, lo, hi;
    arb_init(mu);
    arb_init(t0);
    arb_init(t);
    arb_init(g);
    arb_init(lo);
    arb_init(hi);
    arb_set_str(mu, mu_true, prec);
    /* exits (events 2, 4, 6): asin(2 mu) + k pi */
    for (slong k = 0; k < 3; k++) {
        arb_mul_2exp_si(t0, mu, 1);
        arb_asin(t0, t0, prec);
        arb_const_pi(t, prec);
        arb_addmul_si(t0, t, k, prec);
        n++;
        in += ct_contains(&c.cert->events[1 + 2 * k].time, t0);
        /* the entry after it (events 3, 5, 7): the zero of the slip arc
           from t0 lies in the ball when g changes sign across it */
        const hdo_ball *b = &c.cert->events[2 + 2 * k].time;
        ct_ball(t, b);
        arf_t l, h;
        arf_init(l);
        arf_init(h);
        arb_get_lbound_arf(l, t, prec);
        arb_get_ubound_arf(h, t, prec);
        arb_set_arf(lo, l);
        arb_set_arf(hi, h);
        int sign = k == 1 ? -1 : 1; /* slip_neg after the second exit */
        slip_rel(g, lo, t0, mu, sign, prec);
        int s1 = arb_is_positive(g) ? 1 : arb_is_negative(g) ? -1 : 0;
        slip_rel(g, hi, t0, mu, sign, prec);
        int s2 = arb_is_positive(g) ? 1 : arb_is_negative(g) ? -1 : 0;
        n++;
        in += s1 * s2 < 0;
        arf_clear(l);
        arf_clear(h);
    }
    nev = n;
    inev = in;
    /* the first sliding arc: v1 = v2 = (1 - cos t)/2 while stuck */
    slong pv = ct_var(&c, "v1");
    for (slong i = 0; i < c.cert->nrows; i++) {
        const hdo_cert_row *r = c.cert->rows + i;
        ct_time(t, r);
        if (r->mode < c.model->nmodes || arf_cmp_d(arb_midref(t), 0.9) > 0)
            continue;
        arb_cos(g, t, prec);
        arb_sub_ui(g, g, 1, prec);
        arb_neg(g, g);
        arb_mul_2exp_si(g, g, -1);
        n++;
        in += ct_contains(r->values + pv, g);
    }
    if (inside)
        cr_assert_eq(in, n, "%ld of %ld checks hold", (long)in, (long)n);
    else
        cr_assert_eq(inev, 0, "%ld of %ld event checks hold mu = %s",
                     (long)inev, (long)nev, mu_true);
    arb_clear(mu);
    arb_clear(t0);
    arb_clear(t);
    arb_clear(g);
    arb_clear(lo);
    arb_clear(hi);
    ct_clear(&c);
}

Test(certify_sliding, stick_slip_closed_form)
{
    check_stick_slip(NULL, "0.4", 1);
}

/* mu + 10^-27 moves the exits by about 1e-27 (d asin(2 mu)/d mu = 3.3)
   and the entries with them: outside the balls of mu = 0.4's closed
   form (the sliding arc's v does not depend on mu and stays inside) */
Test(certify_sliding, stick_slip_perturbed_is_outside)
{
    static const char *const params[] = {"mu=0.400000000000000000000000001",
                                         NULL};
    check_stick_slip(params, "0.4", 0);
}
