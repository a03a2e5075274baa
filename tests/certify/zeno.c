/* zeno.c -- accumulation points enclosed by the cascade's scaling
   (ref/certify/zeno.c), against closed forms computed here in Arb: the
   bouncing ball's t* = t1 (1 + e)/(1 - e), the water tanks' events
   2 (1 - 3^-k) and their limit 2 (the last events certified by the
   scaling, not by steps), the spiral's 3/2; a perturbed restitution
   coefficient moves t* outside, and a cascade without the scaling
   stops */
#include "common.h"

TestSuite(certify_zeno);

/* t1 (1 + e)/(1 - e), t1 = sqrt(2/g) */
static void
ball_tstar(arb_t ts, const char *etext, slong prec)
{
    arb_t g, e, q;
    arb_init(g);
    arb_init(e);
    arb_init(q);
    arb_set_str(g, "9.81", prec);
    arb_set_str(e, etext, prec);
    arb_ui_div(ts, 2, g, prec);
    arb_sqrt(ts, ts, prec);
    arb_add_ui(q, e, 1, prec);
    arb_mul(ts, ts, q, prec);
    arb_sub_ui(q, e, 1, prec);
    arb_neg(q, q);
    arb_div(ts, ts, q, prec);
    arb_clear(g);
    arb_clear(e);
    arb_clear(q);
}

static void
check_ball(long D)
{
    ct_case c;
    ct_init(&c, NULL, "cases/bouncing_ball.hdae", NULL, D, NULL, NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    const hdo_cert_event *z = c.cert->events + c.cert->nevents - 1;
    cr_assert_eq(z->kind, HDO_EV_ZENO);
    slong prec = 4 * c.res->prec, ph = ct_var(&c, "h"), pv = ct_var(&c, "v"),
          pf = ct_var(&c, "f");
    arb_t ts, zero, g;
    arb_init(ts);
    arb_init(zero);
    arb_init(g);
    ball_tstar(ts, "0.7", prec);
    cr_assert(ct_contains(&z->time, ts), "t* at %ld digits", D);
    cr_assert(hdo_ball_digits(&z->time, 0) >= D, "t* to %g digits",
              hdo_ball_digits(&z->time, 0));
    cr_assert(ct_contains(z->left + ph, zero) &&
              ct_contains(z->left + pv, zero));
    /* at rest: h = v = 0, the contact force f = g */
    arb_set_str(g, "9.81", prec);
    for (slong i = 0; i < c.cert->nrows; i++) {
        const hdo_cert_row *r = c.cert->rows + i;
        if (strcmp(c.model->modes[r->mode].name, "rest") != 0)
            continue;
        cr_assert(ct_contains(r->values + ph, zero) &&
                      ct_contains(r->values + pv, zero) &&
                      ct_contains(r->values + pf, g),
                  "rest row %ld", (long)i);
    }
    arb_clear(ts);
    arb_clear(zero);
    arb_clear(g);
    ct_clear(&c);
}

Test(certify_zeno, bouncing_ball_accumulation_30_digits)
{
    check_ball(30);
}

Test(certify_zeno, bouncing_ball_accumulation_100_digits)
{
    check_ball(100);
}

/* e + 10^-27 moves t* by t1 2/(1 - e)^2 10^-27 = 1e-26: outside */
Test(certify_zeno, bouncing_ball_perturbed_is_outside)
{
    static const char *const params[] = {"e=0.700000000000000000000000001",
                                         NULL};
    ct_case c;
    ct_init(&c, NULL, "cases/bouncing_ball.hdae", params, 30, NULL, NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    arb_t ts;
    arb_init(ts);
    ball_tstar(ts, "0.700000000000000000000000001", 512);
    const hdo_cert_event *z = c.cert->events + c.cert->nevents - 1;
    cr_assert(ct_contains(&z->time, ts));
    ball_tstar(ts, "0.7", 512);
    cr_assert(ct_excludes(&z->time, ts));
    arb_clear(ts);
    ct_clear(&c);
}

/* event k at 2 (1 - 3^-k), the limit 2: the run's last events, 1e-35
   apart, are beyond the steps' resolution and certified by the scaling */
Test(certify_zeno, water_tanks_events_and_limit)
{
    ct_case c;
    ct_init(&c, NULL, "cases/water_tanks.hdae", NULL, 30, NULL, NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    cr_assert_eq(c.cert->nevents, c.res->nevents);
    arb_t t, p3;
    arb_init(t);
    arb_init(p3);
    for (slong k = 1; k <= c.cert->nevents; k++) {
        const hdo_cert_event *e = c.cert->events + k - 1;
        arb_set_ui(t, 2);
        if (e->kind != HDO_EV_ZENO) {
            arb_ui_pow_ui(p3, 3, (ulong)k, 512);
            arb_ui_div(p3, 2, p3, 512);
            arb_sub(t, t, p3, 512);
        }
        cr_assert(ct_contains(&e->time, t), "event %ld", k);
    }
    arb_clear(t);
    arb_clear(p3);
    ct_clear(&c);
}

/* a grid off 3/2: the spiral's whole run, its arrival at 3/2 */
Test(certify_zeno, filippov_spiral_arrival)
{
    ct_case c;
    ct_init_every(&c, NULL, "cases/filippov_spiral.hdae", NULL, 30, NULL,
                  "0.0031", NULL);
    cr_assert_eq(c.status, 0, "%s", c.cert->reason);
    const hdo_cert_event *z = c.cert->events + c.cert->nevents - 1;
    arb_t t;
    arb_init(t);
    arb_set_d(t, 1.5);
    cr_assert_eq(z->kind, HDO_EV_ZENO);
    cr_assert(ct_contains(&z->time, t));
    arb_clear(t);
    ct_clear(&c);
}

/* der(v) = -g - h: the flow is not invariant under any scaling
   h -> L^a h, v -> L^b v, t -> L t, so the run's zeno point (an
   extrapolation) is not certified: a stop that says why */
Test(certify_zeno, cascade_without_scaling_stops)
{
    ct_case c;
    ct_init(&c,
            "model drag\nvar h = 1, v = 0, f\n"
            "mode fly\n  der(h) = v\n  der(v) = -10 - h\n"
            "  when h < 0 goto fly with v = -v/2\n  zeno goto rest\nend\n"
            "mode rest\n  der(h) = v\n  der(v) = -10 + f\n  h = 0\n"
            "  when f < 0 goto fly\nend\nstart fly\nuntil 3\n",
            NULL, NULL, 30, NULL, NULL);
    cr_assert_eq(c.res->events[c.res->nevents - 1].kind, HDO_EV_ZENO);
    cr_assert_eq(c.status, HDO_CERTIFY_STOPPED);
    cr_assert(strstr(c.cert->reason, "scaling") != NULL, "%s", c.cert->reason);
    ct_clear(&c);
}
