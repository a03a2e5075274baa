/* mutation.c -- the tests can fail: each deliberate defect of the pass
   (hdo_certify_options.mutate; tests/thresholds.md)
   makes the check it targets fail, while the unmutated pass passes it */
#include "common.h"
#include "certify/internal.h"

TestSuite(certify_mutation);

/* The number of rows of x' = x, x(0) = 1, whose ball misses e^t, with
   the given mutation.  (A scalar linear equation: its remainder bound is
   tight, so the truncation error is near the tolerance, far above the
   rounding; at the run's order, with the further orders, the bound is
   loose by many digits and the truncation far below the balls.) */
static slong
growth_misses(int mutate)
{
    hdo_certify_options opt;
    hdo_certify_options_init(&opt);
    opt.mutate = mutate;
    opt.order = 16;
    opt.extra = 0;
    ct_case c;
    ct_init(&c,
            "model g\nvar x = 1\nmode m\n  der(x) = x\nend\nstart m\n"
            "until 10\n",
            NULL, NULL, 30, NULL, &opt);
    slong px = ct_var(&c, "x"), miss = 0;
    arb_t t, x;
    arb_init(t);
    arb_init(x);
    for (slong i = 0; i < c.cert->nrows; i++) {
        ct_time(t, c.cert->rows + i);
        arb_exp(x, t, 4 * c.res->prec);
        if (!ct_contains(c.cert->rows[i].values + px, x))
            miss++;
    }
    arb_clear(t);
    arb_clear(x);
    ct_clear(&c);
    return miss;
}

/* The Lagrange remainder dropped: the balls hold the Taylor polynomial's
   rounding only, and the truncation error puts e^t outside them. */
Test(certify_mutation, remainder_dropped_misses_the_closed_form)
{
    cr_assert_eq(growth_misses(HDO_CERTIFY_MUTATE_NONE), 0);
    slong miss = growth_misses(HDO_CERTIFY_MUTATE_NO_REMAINDER);
    cr_assert(miss > 0, "dropping the remainder went unnoticed");
}

/* The a priori box not inflated: B0 + [0, h]^(P+1) R then never lies in
   the interior of B = B0, no step is validated, and the pass stops at
   once: the closed-form test that expects the oscillator certified over
   its whole run fails.  (Inflating it without checking the inclusion is
   not tried: the accuracy control keeps the steps where the polynomial's
   range is nearly the solution's, and such a mutation survives every
   closed form here; tests/thresholds.md says so.) */
Test(certify_mutation, enclosure_not_inflated_certifies_nothing)
{
    for (int mutate = 0; mutate < 2; mutate++) {
        hdo_certify_options opt;
        hdo_certify_options_init(&opt);
        opt.mutate = mutate ? HDO_CERTIFY_MUTATE_NO_INFLATION : 0;
        ct_case c;
        ct_init(&c,
                "model ho\nvar x = 1, v = 0\nmode m\n  der(x) = v\n"
                "  der(v) = -x\nend\nstart m\nuntil 10\n",
                NULL, NULL, 30, NULL, &opt);
        if (mutate)
            cr_assert(!c.cert->complete && c.cert->nrows <= 1,
                      "an uninflated enclosure went unnoticed");
        else
            cr_assert(c.cert->complete, "%s", c.cert->reason);
        ct_clear(&c);
    }
}

/* An event-time ball shrunk by 2 no longer holds the event times of
   every start in the set: x' = -1 from x0 in [1 - 1e-10, 1 + 1e-10],
   event at x = 0, at t = x0 exactly.  (A run's balls are far wider than
   the truth's own spread, so this test gives the set a known width.) */
static int
event_ball_holds_both_ends(int mutate)
{
    const char *text = "model fall\nvar x = 1\nmode m\n  der(x) = -1\n"
                       "  when x < 0 goto m\nend\nstart m\nuntil 2\n";
    hdo_model_t model;
    hdo_error_t err;
    hdo_model_init(model);
    cr_assert_eq(
        hdo_model_parse_string(model, text, strlen(text), "fall.hdae", &err),
        0);
    hdo_model_struct work;
    hdo_model_workspace_init(&work, model);
    hdo_reduced_t red;
    hdo_reduced_init(red);
    cr_assert_eq(hdo_reduce_mode(red, &work, 0, &err), 0);
    cert_sys_t sys;
    cr_assert_eq(
        cert_sys_init(sys, &work, red, &model->modes[0].whens[0].guard, 1), 0);
    slong prec = 160;
    cert_step_t st;
    cert_step_init(st, sys, 20, 10, prec, 64, mutate);
    cert_set_t X;
    cert_set_init(X, 1, HDO_CERTIFY_WRAP_LOHNER, prec, 64);
    arb_t x0, t0, I, end;
    arb_init(x0);
    arb_init(t0);
    arb_init(I);
    arb_init(end);
    arb_one(x0);
    mag_set_d(arb_radref(x0), 1e-10);
    cert_set_from_balls(X, x0);
    arf_t hmax, sp;
    arf_init(hmax);
    arf_init(sp);
    arf_set_d(hmax, 1.5);
    mag_t scale;
    mag_init(scale);
    mag_one(scale);
    cr_assert_eq(cert_step_take(st, X, t0, hmax, scale, -100.0, NULL, NULL), 0,
                 "%s", st->why);
    arf_one(sp);
    cr_assert_eq(cert_guard_root(I, st, 0, sp, 0), 0);
    int ok = 1;
    for (int s = -1; s <= 1; s += 2) {
        arb_set_d(end, 1 + s * 0.99e-10);
        if (!arb_contains(I, end))
            ok = 0;
    }
    arb_clear(x0);
    arb_clear(t0);
    arb_clear(I);
    arb_clear(end);
    arf_clear(hmax);
    arf_clear(sp);
    mag_clear(scale);
    cert_set_clear(X);
    cert_step_clear(st);
    cert_sys_clear(sys);
    hdo_reduced_clear(red);
    hdo_model_workspace_clear(&work);
    hdo_model_clear(model);
    return ok;
}

Test(certify_mutation, event_ball_shrunk_misses_an_event_time)
{
    cr_assert(event_ball_holds_both_ends(HDO_CERTIFY_MUTATE_NONE));
    cr_assert(!event_ball_holds_both_ends(HDO_CERTIFY_MUTATE_EVENT_SHRINK),
              "an event-time ball shrunk by 2 went unnoticed");
}
