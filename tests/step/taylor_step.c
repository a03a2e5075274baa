/* taylor_step.c -- the Taylor method through the stepper interface (step.h):
   the table's name, its dense output against the closed form of
   x' = -x, y' = x (x = e^-t, y = 1 - e^-t), and a driver loop written
   only with the interface's functions, at 30 and 60 digits. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "result.h"
#include "step.h"
#include "../model_util.h"

TestSuite(step);

static const char *decay = "model d\nvar x = 1, y = 0\nmode m\n"
                           "  der(x) = -x\n  der(y) = x\n"
                           "  when y > 0.5 goto m\nend\nstart m\n";

/* |a - b| <= 10^-digits */
static int
close_to(const mpfr_t a, const mpfr_t b, long digits)
{
    mpfr_t d, lim;
    mpfr_inits2(mpfr_get_prec(a), d, lim, (mpfr_ptr)0);
    mpfr_sub(d, a, b, MPFR_RNDN);
    mpfr_set_ui(lim, 10, MPFR_RNDN);
    mpfr_pow_si(lim, lim, -digits, MPFR_RNDN);
    int ok = mpfr_cmpabs(d, lim) <= 0;
    mpfr_clears(d, lim, (mpfr_ptr)0);
    return ok;
}

Test(step, taylor_table_dense_output_and_loop)
{
    for (long digits = 30; digits <= 60; digits += 30) {
        hdo_model_t model;
        hdo_reduced_t red;
        hdo_stepper_t s;
        hdo_error_t err;
        mpfr_prec_t prec = hdo_run_prec(digits);
        mpfr_ptr xs = hdo_vec_init(2, prec), g = hdo_vec_init(1, prec);
        mpfr_t t, t1, h, tol, w;
        slong X, Y, steps = 0;

        hdo_error_clear(&err);
        tm_parse(model, decay);
        hdo_reduced_init(red);
        cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0);
        X = red->state[0].var == tm_var(model, "x") ? 0 : 1;
        Y = 1 - X;
        hdo_expr guard = model->modes[0].whens[0].guard;
        mpfr_inits2(prec, t, t1, h, tol, w, (mpfr_ptr)0);
        hdo_run_tol(tol, digits);
        cr_assert_eq(hdo_stepper_init(s, &hdo_step_taylor, model, red, &guard,
                                      1, prec, tol),
                     0, "%s", s->message);
        cr_expect_str_eq(s->type->name, "taylor");
        mpfr_set_ui(t, 0, MPFR_RNDN);
        mpfr_set_ui(xs + X, 1, MPFR_RNDN);
        mpfr_set_ui(xs + Y, 0, MPFR_RNDN);

        /* the dense output at t0 = 0: x = sum (-s)^k / k!, so c_1 = -1
           and c_2 = 1/2; the guard 0.5 - y (when y > 0.5) has c_0 = 0.5 */
        cr_assert_eq(hdo_stepper_apply(s, t, xs, NULL, &err), 0, "%s",
                     err.message);
        slong p = s->dense.order;
        cr_expect(p >= 8);
        cr_expect(mpfr_cmp_si(s->dense.state[X * (p + 1) + 1], -1) == 0);
        mpfr_set_d(w, 0.5, MPFR_RNDN);
        cr_expect(mpfr_equal_p(s->dense.state[X * (p + 1) + 2], w));
        cr_expect(mpfr_equal_p(s->dense.guard[0], w));
        /* eval inside the proposed step against e^-s */
        cr_assert_eq(hdo_stepper_step_size(h, s), 0);
        mpfr_div_ui(h, h, 2, MPFR_RNDN);
        mpfr_ptr e = hdo_vec_init(2, prec);
        hdo_stepper_eval(e, NULL, g, s, h);
        mpfr_neg(w, h, MPFR_RNDN);
        mpfr_exp(w, w, MPFR_RNDN);
        cr_expect(close_to(e + X, w, digits + 3), "x(h/2) at %ld digits",
                  digits);
        hdo_vec_clear(e, 2);

        /* a driver loop over the interface only, to t = 1 */
        mpfr_set_ui(t1, 1, MPFR_RNDN);
        while (mpfr_cmp(t, t1) < 0) {
            cr_assert_eq(hdo_stepper_apply(s, t, xs, NULL, &err), 0);
            cr_assert_eq(hdo_stepper_step_size(h, s), 0);
            mpfr_sub(w, t1, t, MPFR_RNDN);
            if (mpfr_cmp(h, w) > 0)
                mpfr_set(h, w, MPFR_RNDN);
            cr_assert_eq(hdo_stepper_evolve(xs, NULL, s, h, &err), 0);
            mpfr_add(t, t, h, MPFR_RNDN);
            steps++;
        }
        mpfr_set_si(w, -1, MPFR_RNDN);
        mpfr_exp(w, w, MPFR_RNDN);
        cr_expect(close_to(xs + X, w, digits + 2), "x(1) = 1/e at %ld digits",
                  digits);
        mpfr_ui_sub(w, 1, w, MPFR_RNDN);
        cr_expect(close_to(xs + Y, w, digits + 2), "y(1) = 1 - 1/e");
        cr_expect(steps >= 1 && steps <= 20, "%ld steps", (long)steps);

        mpfr_set_ui(w, 0, MPFR_RNDN);
        s->type->max_residual(w, s);
        cr_expect(mpfr_zero_p(w), "an ODE has no residual");
        hdo_stepper_clear(s);
        hdo_stepper_clear(s); /* idempotent */
        mpfr_clears(t, t1, h, tol, w, (mpfr_ptr)0);
        hdo_vec_clear(xs, 2);
        hdo_vec_clear(g, 1);
        hdo_reduced_clear(red);
        hdo_model_clear(model);
    }
}
