/* hostile.c -- places the pass must not decide: a grazing contact, an
   event exactly at the end time, sliding on an intersection, a stiff
   arc (a tangential departure: tangent.c; sliding on one surface:
   sliding.c); each stops (HDO_CERTIFY_STOPPED) with
   its place, and every ball it did certify holds the closed form */
#include "common.h"

TestSuite(certify_hostile);

/* x = 1/2 + t - t^2/2 touches x = 1 at t = 1 without crossing: the run
   sees a tangency (no event), the pass cannot prove the switching
   function 1 - x positive there. */
Test(certify_hostile, grazing_contact_stops_at_the_graze)
{
    ct_case c;
    ct_init(&c,
            "model graze\nvar x = 1/2, v = 1\nmode up\n  der(x) = v\n"
            "  der(v) = -1\n  when x > 1 goto up\nend\nstart up\nuntil 2\n",
            NULL, NULL, 30, NULL, NULL);
    cr_assert_eq(c.status, HDO_CERTIFY_STOPPED);
    cr_assert(!c.cert->complete);
    cr_assert(fabs(c.cert->stop_time - 1) < 0.05, "stopped at %g: %s",
              c.cert->stop_time, c.cert->reason);
    cr_assert(strstr(c.cert->reason, "x > 1") != NULL, "%s", c.cert->reason);
    cr_assert(mpfr_get_d(c.cert->until, MPFR_RNDN) <= 1.0);
    slong px = ct_var(&c, "x");
    arb_t t, x;
    arb_init(t);
    arb_init(x);
    for (slong i = 0; i < c.cert->nrows; i++) {
        ct_time(t, c.cert->rows + i);
        /* 1/2 + t - t^2/2 */
        arb_sqr(x, t, 512);
        arb_mul_2exp_si(x, x, -1);
        arb_sub(x, t, x, 512);
        arb_set_d(t, 0.5);
        arb_add(x, x, t, 512);
        cr_assert(ct_contains(c.cert->rows[i].values + px, x), "row %ld",
                  (long)i);
    }
    arb_clear(t);
    arb_clear(x);
    ct_clear(&c);
}

/* x = 1 - t reaches 0 exactly at the end time 1: whether the event comes
   before the end cannot be decided from balls; the pass stops there. */
Test(certify_hostile, event_exactly_at_the_end_stops)
{
    ct_case c;
    ct_init(&c,
            "model atend\nvar x = 1\nmode down\n  der(x) = -1\n"
            "  when x < 0 goto up\nend\nmode up\n  der(x) = 1\nend\n"
            "start down\nuntil 1\n",
            NULL, NULL, 30, NULL, NULL);
    cr_assert_eq(c.res->nevents, 0); /* the run does not take it */
    cr_assert_eq(c.status, HDO_CERTIFY_STOPPED);
    cr_assert(fabs(c.cert->stop_time - 1) < 1e-6, "stopped at %g: %s",
              c.cert->stop_time, c.cert->reason);
    cr_assert(c.cert->nrows < c.res->nrows);
    ct_clear(&c);
}

/* Filippov sliding on an intersection of surfaces (belt_three_blocks:
   while sliding on v1 = vd, v3 reaches vd): certified up to there, then
   a stop that says so. */
Test(certify_hostile, sliding_on_an_intersection_stops)
{
    ct_case c;
    ct_init(&c, NULL, "cases/belt_three_blocks.hdae", NULL, 30, NULL, NULL);
    cr_assert_eq(c.status, HDO_CERTIFY_STOPPED);
    cr_assert(strstr(c.cert->reason, "further surface reached while sliding") !=
                  NULL,
              "%s", c.cert->reason);
    cr_assert_eq(c.cert->nevents, 1); /* the first sliding start */
    cr_assert(fabs(c.cert->stop_time - 7.70217693839) < 1e-9, "%g",
              c.cert->stop_time);
    ct_clear(&c);
}

/* A stiff arc (the run switches to the implicit method) is not
   integrated by the pass: it stops where the run's implicit arc starts. */
Test(certify_hostile, stiff_arc_stops)
{
    ct_case c;
    ct_init(&c,
            "model stiff\nvar x = 1, y = 0\nmode m\n  der(x) = -1e6*(x - y)\n"
            "  der(y) = 1\nend\nstart m\nuntil 1\n",
            NULL, NULL, 20, NULL, NULL);
    cr_assert_eq(c.status, HDO_CERTIFY_STOPPED);
    cr_assert(strstr(c.cert->reason, "stiff") != NULL, "%s", c.cert->reason);
    ct_clear(&c);
}
