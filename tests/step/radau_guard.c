/* radau_guard.c -- the implicit method's dense output of switching functions
   (ref/step/radau_guard.c), through the stepper interface: a guard that
   vanishes at the step's start carries its exact Taylor coefficients, every
   guard's polynomial is accurate over the whole step, a re-apply at the
   previous point returns the same polynomials, and the dense output of a
   stiff mode that starts off its slow manifold is accurate inside the step
   (closed forms, MPFR's exp and cos at the working precision); the step
   cap on such a mode is the driver's horizon to the bit. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "result.h"
#include "step.h"
#include "../model_util.h"

/* x' = -x, y' = x from x = 1, y = 0, guards 1/2 - y (when y > 1/2, not
   zero at t = 0) and x - 1 (when x < 1, zero at t = 0): the second's
   polynomial starts with the coefficients of e^-t - 1, 0, -1, 1/2, -1/6,
   1/24 (the jet), both agree with their closed forms at s = h/3, h/2 and
   h; applying elsewhere and back gives the same polynomials. */
Test(step, radau_guard_jet_and_dense_output_30_and_60_digits)
{
    for (long D = 30; D <= 60; D += 30) {
        hdo_model_t model;
        hdo_reduced_t red;
        hdo_stepper_t s;
        hdo_error_t err;
        mpfr_prec_t prec = hdo_run_prec(D);
        mpfr_ptr xs = hdo_vec_init(2, prec), g = hdo_vec_init(2, prec),
                 e = hdo_vec_init(2, prec);
        mpfr_t t, h, u, w, tol;
        hdo_error_clear(&err);
        tm_parse(model, "model d\nvar x = 1, y = 0\nmode m\n"
                        "  der(x) = -x\n  der(y) = x\n"
                        "  when y > 1/2 goto m\n  when x < 1 goto m\nend\n"
                        "start m\n");
        hdo_reduced_init(red);
        cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0);
        slong X = red->state[0].var == tm_var(model, "x") ? 0 : 1, Y = 1 - X;
        hdo_expr guards[2] = {model->modes[0].whens[0].guard,
                              model->modes[0].whens[1].guard};
        mpfr_inits2(prec, t, h, u, w, tol, (mpfr_ptr)0);
        mpfr_set_ui(tol, 1, MPFR_RNDN);
        cr_assert_eq(hdo_stepper_init(s, &hdo_step_radau, model, red, guards, 2,
                                      prec, tol),
                     0, "%s", s->message);
        mpfr_set_ui(t, 0, MPFR_RNDN);
        mpfr_set_ui(xs + X, 1, MPFR_RNDN);
        mpfr_set_ui(xs + Y, 0, MPFR_RNDN);
        cr_assert_eq(hdo_stepper_apply(s, t, xs, NULL, &err), 0, "%s",
                     err.message);
        slong p = s->dense.order;
        const mpfr_t *g1 = s->dense.guard + (p + 1);
        const long num[5] = {0, -1, 1, -1, 1}, den[5] = {1, 1, 2, 6, 24};
        for (int k = 0; k < 5; k++) {
            mpfr_set_si(w, num[k], MPFR_RNDN);
            mpfr_div_ui(w, w, (unsigned long)den[k], MPFR_RNDN);
            cr_expect(tm_close_rel(g1[k], w, D + 8),
                      "c_%d of x - 1 at %ld digits", k, D);
        }
        cr_assert_eq(hdo_stepper_step_size(h, s), 0);
        cr_expect(mpfr_sgn(h) > 0 && mpfr_cmp_ui(h, 1) <= 0);
        for (int q = 1; q <= 3; q++) {
            /* u = h/3, h/2, h */
            mpfr_div_ui(u, h, q == 1 ? 3 : q == 2 ? 2 : 1, MPFR_RNDN);
            hdo_stepper_eval(e, NULL, g, s, u);
            mpfr_neg(w, u, MPFR_RNDN);
            mpfr_exp(w, w, MPFR_RNDN); /* x = e^-u */
            cr_expect(tm_close_rel(e + X, w, D + 3));
            mpfr_sub_ui(w, w, 1, MPFR_RNDN); /* x - 1 */
            cr_expect(tm_close_rel(g + 1, w, D + 3), "x - 1 at %d/3 h", q);
            mpfr_add_d(w, w, 0.5, MPFR_RNDN); /* 1/2 - y = x - 1/2 */
            cr_expect(tm_close_rel(g + 0, w, D + 3), "1/2 - y at %d/3 h", q);
        }
        /* elsewhere and back: the very same polynomials */
        mpfr_t *keep = malloc(2 * (p + 1) * sizeof(mpfr_t));
        for (slong k = 0; k < 2 * (p + 1); k++) {
            mpfr_init2(keep[k], mpfr_get_prec(s->dense.guard[k]));
            mpfr_set(keep[k], s->dense.guard[k], MPFR_RNDN);
        }
        mpfr_div_ui(u, h, 2, MPFR_RNDN);
        hdo_stepper_eval(e, NULL, NULL, s, u);
        cr_assert_eq(hdo_stepper_apply(s, u, e, NULL, &err), 0);
        cr_expect(!mpfr_equal_p(s->dense.guard[0], keep[0]));
        cr_assert_eq(hdo_stepper_apply(s, t, xs, NULL, &err), 0);
        for (slong k = 0; k < 2 * (p + 1); k++) {
            cr_expect(mpfr_equal_p(s->dense.guard[k], keep[k]), "coef %ld",
                      (long)k);
            mpfr_clear(keep[k]);
        }
        free(keep);
        mpfr_set(u, h, MPFR_RNDN);
        cr_assert_eq(hdo_stepper_step_size(h, s), 0);
        cr_expect(mpfr_equal_p(h, u), "the same step");
        hdo_stepper_clear(s);
        mpfr_clears(t, h, u, w, tol, (mpfr_ptr)0);
        hdo_vec_clear(xs, 2);
        hdo_vec_clear(g, 2);
        hdo_vec_clear(e, 2);
        hdo_reduced_clear(red);
        hdo_model_clear(model);
    }
}

/* x' = -lam (x - cos t), lam = 1e12, with a guard that does not depend
   on x (when t > 1): integrated to t1 = 1e-3, where its steps are long
   (lam h >> 1), then moved off its slow manifold, x1 := x(t1) + 1, as a
   reset would; through a step's start (t1, x1) the solution is
   x = P(t) + (x1 - P(t1)) e^(-lam (t - t1)),
   P(t) = (lam^2 cos t + lam sin t) / (lam^2 + 1).  Over the steps from t1
   to t1 + 1e-4 (the transient and beyond) the dense output at the middle
   and at a third of every step agrees with x to D + 2 digits: the start
   of a step is held to the tolerance as its stages are (start_term in
   radau.c), so a fast mode the step does not resolve is not left in the
   polynomial (the step's end is right either way: L-stability). */
Test(step, radau_guard_mode_dense_output_through_a_fast_transient)
{
    for (long D = 30; D <= 60; D += 30) {
        hdo_model_t model;
        hdo_reduced_t red;
        hdo_stepper_t s;
        hdo_error_t err;
        mpfr_prec_t prec = hdo_run_prec(D);
        mpfr_prec_t p2 = prec + 64;
        mpfr_ptr xs = hdo_vec_init(1, prec), e = hdo_vec_init(1, prec);
        mpfr_t t, h, u, tol, end, lam, P0, ref, a, b;
        hdo_error_clear(&err);
        tm_parse(model, "model f\nvar x = 2\nmode m\n"
                        "  der(x) = -1e12*(x - cos(t))\n"
                        "  when t > 1 goto m\nend\nstart m\n");
        hdo_reduced_init(red);
        cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0);
        hdo_expr guard = model->modes[0].whens[0].guard;
        mpfr_inits2(prec, t, h, u, tol, end, (mpfr_ptr)0);
        mpfr_inits2(p2, lam, P0, ref, a, b, (mpfr_ptr)0);
        mpfr_set_ui(tol, 1, MPFR_RNDN);
        cr_assert_eq(hdo_stepper_init(s, &hdo_step_radau, model, red, &guard, 1,
                                      prec, tol),
                     0, "%s", s->message);
        mpfr_set_d(lam, 1e12, MPFR_RNDN);
        mpfr_set_ui(t, 0, MPFR_RNDN);
        mpfr_set_d(end, 1e-3, MPFR_RNDN);
        mpfr_set_ui(xs, 1, MPFR_RNDN);
        while (mpfr_cmp(t, end) < 0) {
            cr_assert_eq(hdo_stepper_apply(s, t, xs, NULL, &err), 0, "%s",
                         err.message);
            cr_assert_eq(hdo_stepper_step_size(h, s), 0);
            cr_assert_eq(hdo_stepper_evolve(xs, NULL, s, h, &err), 0);
            mpfr_add(t, t, h, MPFR_RNDN);
        }
        cr_expect(mpfr_cmp_d(h, 1e-6) > 0, "long steps: %g",
                  mpfr_get_d(h, MPFR_RNDN));
        /* the jump */
        mpfr_add_ui(xs, xs, 1, MPFR_RNDN);
        mpfr_t t1;
        mpfr_init2(t1, prec);
        mpfr_add_d(end, t, 1e-4, MPFR_RNDN);
        slong steps = 0;
        int bad = 0;
        while (mpfr_cmp(t, end) < 0 && steps < 5000) {
            /* the closed form through this step's start (t1, x1):
               P0 := x1 - P(t1) (the start time is rounded to prec
               bits, which lam turns into 1e-31 in x: each step is
               checked against the solution through the point it was
               given, the stepper's contract) */
            mpfr_set(t1, t, MPFR_RNDN);
            mpfr_cos(P0, t1, MPFR_RNDN);
            mpfr_mul(P0, P0, lam, MPFR_RNDN);
            mpfr_sin(b, t1, MPFR_RNDN);
            mpfr_add(P0, P0, b, MPFR_RNDN);
            mpfr_mul(P0, P0, lam, MPFR_RNDN);
            mpfr_sqr(b, lam, MPFR_RNDN);
            mpfr_add_ui(b, b, 1, MPFR_RNDN);
            mpfr_div(P0, P0, b, MPFR_RNDN);
            mpfr_sub(P0, xs, P0, MPFR_RNDN);
            cr_assert_eq(hdo_stepper_apply(s, t, xs, NULL, &err), 0, "%s",
                         err.message);
            cr_assert_eq(hdo_stepper_step_size(h, s), 0);
            for (int q = 2; q <= 3; q++) {
                mpfr_div_ui(u, h, (unsigned long)q, MPFR_RNDN);
                hdo_stepper_eval(e, NULL, NULL, s, u);
                /* the closed form at t + u */
                mpfr_add(a, t, u, MPFR_RNDN);
                mpfr_cos(ref, a, MPFR_RNDN);
                mpfr_mul(ref, ref, lam, MPFR_RNDN);
                mpfr_sin(b, a, MPFR_RNDN);
                mpfr_add(ref, ref, b, MPFR_RNDN);
                mpfr_mul(ref, ref, lam, MPFR_RNDN);
                mpfr_sqr(b, lam, MPFR_RNDN);
                mpfr_add_ui(b, b, 1, MPFR_RNDN);
                mpfr_div(ref, ref, b, MPFR_RNDN);
                mpfr_sub(a, a, t1, MPFR_RNDN);
                mpfr_mul(b, a, lam, MPFR_RNDN);
                mpfr_neg(b, b, MPFR_RNDN);
                mpfr_exp(b, b, MPFR_RNDN);
                mpfr_mul(b, b, P0, MPFR_RNDN);
                mpfr_add(ref, ref, b, MPFR_RNDN);
                if (!tm_close_rel(e, ref, D + 2) && bad++ < 3)
                    cr_expect(0, "x(%.6g + %.3g) at %ld digits: %.6g",
                              mpfr_get_d(t, MPFR_RNDN),
                              mpfr_get_d(u, MPFR_RNDN), D,
                              mpfr_get_d(e, MPFR_RNDN));
            }
            cr_assert_eq(hdo_stepper_evolve(xs, NULL, s, h, &err), 0);
            mpfr_add(t, t, h, MPFR_RNDN);
            steps++;
        }
        cr_expect(bad == 0, "%d points off at %ld digits", bad, D);
        mpfr_clear(t1);
        cr_expect(steps < 1000, "%ld steps", (long)steps);
        hdo_stepper_clear(s);
        mpfr_clears(t, h, u, tol, end, (mpfr_ptr)0);
        mpfr_clears(lam, P0, ref, a, b, (mpfr_ptr)0);
        hdo_vec_clear(xs, 1);
        hdo_vec_clear(e, 1);
        hdo_reduced_clear(red);
        hdo_model_clear(model);
    }
}

/* The step cap on an arc with guards is the driver's horizon
   max(u, |t0|) to the bit, u = s->unit as the driver hands it (decisions.md
   D-119, D-122): x' = 1, y' = 0 is a polynomial, so each step grows
   fourfold up to the cap.  u = 1/100 at 64 bits (not a power of 2: a
   value rebuilt from log2 u in double misses it by about 2e-18); the
   steps at t0 < u end at u exactly, later ones at |t0|; unit is 1 after
   init and kept by hdo_stepper_switch. */
Test(step, radau_step_cap_is_the_drivers_horizon)
{
    hdo_model_t model;
    hdo_reduced_t red;
    hdo_stepper_t s;
    hdo_error_t err;
    mpfr_prec_t prec = hdo_run_prec(30);
    mpfr_ptr xs = hdo_vec_init(2, prec);
    mpfr_t t, h, H, u, tol;
    hdo_error_clear(&err);
    tm_parse(model, "model c\nvar x = 0, y = 1\nmode m\n"
                    "  der(x) = 1\n  der(y) = 0\n"
                    "  when x > 1000 goto m\nend\nstart m\n");
    hdo_reduced_init(red);
    cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0);
    hdo_expr guard = model->modes[0].whens[0].guard;
    mpfr_inits2(prec, t, h, H, tol, (mpfr_ptr)0);
    mpfr_init2(u, 64);
    mpfr_set_ui(tol, 1, MPFR_RNDN);
    cr_assert_eq(
        hdo_stepper_init(s, &hdo_step_radau, model, red, &guard, 1, prec, tol),
        0, "%s", s->message);
    cr_expect(mpfr_cmp_ui(s->unit, 1) == 0, "unit after init: 1");
    mpfr_set_ui(u, 1, MPFR_RNDN);
    mpfr_div_ui(u, u, 100, MPFR_RNDN);
    mpfr_set(s->unit, u, MPFR_RNDN);
    cr_assert_eq(hdo_stepper_switch(s, &hdo_step_radau), 0, "%s", s->message);
    cr_expect(mpfr_equal_p(s->unit, u), "unit kept by hdo_stepper_switch");
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_ui(xs + 0, 0, MPFR_RNDN);
    mpfr_set_ui(xs + 1, 1, MPFR_RNDN);
    int at_u = 0, at_t = 0;
    for (int k = 0; k < 40 && mpfr_cmp_ui(t, 10) < 0; k++) {
        cr_assert_eq(hdo_stepper_apply(s, t, xs, NULL, &err), 0, "%s",
                     err.message);
        cr_assert_eq(hdo_stepper_step_size(h, s), 0);
        /* max(u, |t|) from its definition, not from hdo_time_horizon */
        mpfr_abs(H, t, MPFR_RNDN);
        if (mpfr_cmp(H, u) < 0)
            mpfr_set(H, u, MPFR_RNDN);
        cr_assert(mpfr_cmp(h, H) <= 0, "step %d: h %.20g above %.20g", k,
                  mpfr_get_d(h, MPFR_RNDN), mpfr_get_d(H, MPFR_RNDN));
        if (mpfr_equal_p(h, H) && mpfr_equal_p(H, u))
            at_u++;
        else if (mpfr_equal_p(h, H))
            at_t++;
        cr_assert_eq(hdo_stepper_evolve(xs, NULL, s, h, &err), 0);
        mpfr_add(t, t, h, MPFR_RNDN);
    }
    cr_expect(at_u >= 1 && at_t >= 3, "capped at u %d, at |t0| %d steps", at_u,
              at_t);
    cr_expect(mpfr_cmp_ui(t, 10) >= 0, "t = %g", mpfr_get_d(t, MPFR_RNDN));
    hdo_stepper_clear(s);
    mpfr_clears(t, h, H, u, tol, (mpfr_ptr)0);
    hdo_vec_clear(xs, 2);
    hdo_reduced_clear(red);
    hdo_model_clear(model);
}
