/* consistent.c -- tests of hdo_consistent_init: pendulum at 30/100/300
 * digits, ball, nilpotent DAE, error cases */
#include <math.h>
#include <stdlib.h>
#include "util.h"

/* Not the run's precision rule (hdo_run_prec, result.h): these tests of
   the projection alone want D digits plus 32 guard bits. */
static mpfr_prec_t
prec_for_digits(int digits)
{
    return (mpfr_prec_t)ceil(digits * 3.3219280948873623) + 32;
}

/* Index of the state (var, order), asserting it exists. */
static slong
state_of(const hdo_reduced_t r, slong var, slong order)
{
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].var == var && r->state[i].order == order)
            return i;
    cr_assert_fail("no state for var %ld order %ld", (long)var, (long)order);
    return -1;
}

/* |a| < 10^-digits */
static int
below(const mpfr_t a, int digits)
{
    mpfr_t lim;
    mpfr_init2(lim, 64);
    mpfr_set_ui(lim, 10, MPFR_RNDN);
    mpfr_pow_si(lim, lim, -digits, MPFR_RNDN);
    int ok = mpfr_cmpabs(a, lim) < 0;
    mpfr_clear(lim);
    return ok;
}

/* From x = 1, y = 0.1, vx = 0.3, vy = 0 (all given, all fixed) the
   state moves onto the circle with a tangent velocity; lambda then
   solves h = 0, i.e. lambda = (vx^2 + vy^2 - g y) / (x^2 + y^2). */
static void
pendulum_fixed(hdo_model_t model, hdo_reduced_t r, int digits)
{
    mpfr_prec_t prec = prec_for_digits(digits);
    mpfr_ptr xs = hdo_vec_init(4, prec), xu = hdo_vec_init(1, prec);
    mpfr_t t, a, b, lam;
    int fixed[4] = {1, 1, 1, 1}, adjusted = 0;
    hdo_error_t err;
    const char *start[4] = {"1", "0.1", "0.3", "0"};
    slong S[4];

    mpfr_inits2(prec, t, a, b, lam, (mpfr_ptr)0);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        S[i] = state_of(
            r, tm_var(model, (const char *[]){"x", "y", "vx", "vy"}[i]), 0);
        mpfr_set_str(xs + S[i], start[i], 10, MPFR_RNDN);
    }
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    cr_assert_eq(
        hdo_consistent_init(xs, xu, &adjusted, model, r, t, fixed, prec, &err),
        0, "%s", err.message);
    cr_expect_eq(adjusted, 1);
    mpfr_ptr x = xs + S[0], y = xs + S[1], vx = xs + S[2], vy = xs + S[3];
    /* on the circle */
    mpfr_sqr(a, x, MPFR_RNDN);
    mpfr_fma(a, y, y, a, MPFR_RNDN);
    mpfr_sub_ui(b, a, 1, MPFR_RNDN);
    cr_expect(below(b, digits), "circle residual %.3e at %d digits",
              mpfr_get_d(b, MPFR_RNDN), digits);
    /* tangent velocity */
    mpfr_mul(b, x, vx, MPFR_RNDN);
    mpfr_fma(b, y, vy, b, MPFR_RNDN);
    cr_expect(below(b, digits), "tangent residual %.3e at %d digits",
              mpfr_get_d(b, MPFR_RNDN), digits);
    /* lambda from h = 0, by hand */
    mpfr_sqr(lam, vx, MPFR_RNDN);
    mpfr_fma(lam, vy, vy, lam, MPFR_RNDN);
    mpfr_set_str(b, "9.81", 10, MPFR_RNDN);
    mpfr_mul(b, b, y, MPFR_RNDN);
    mpfr_sub(lam, lam, b, MPFR_RNDN);
    mpfr_div(lam, lam, a, MPFR_RNDN);
    mpfr_sub(b, lam, xu, MPFR_RNDN);
    cr_expect(below(b, digits - 1), "lambda off by %.3e",
              mpfr_get_d(b, MPFR_RNDN));
    /* The change is small: within 20% of the distance to the nearest
       consistent point, 0.2984077484 (mpmath, KKT system at 40 digits). */
    mpfr_set_ui(a, 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        mpfr_set_str(b, start[i], 10, MPFR_RNDN);
        mpfr_sub(b, xs + S[i], b, MPFR_RNDN);
        mpfr_fma(a, b, b, a, MPFR_RNDN);
    }
    mpfr_sqrt(a, a, MPFR_RNDN);
    cr_expect(mpfr_get_d(a, MPFR_RNDN) >= 0.2984077484 * (1 - 1e-9));
    cr_expect(mpfr_get_d(a, MPFR_RNDN) <= 0.2984077484 * 1.2, "change %.10g",
              mpfr_get_d(a, MPFR_RNDN));
    /* and the module's own residual agrees */
    hdo_reduced_residual(a, model, r, t, xs, xu);
    cr_expect(below(a, digits - 1), "residual %.3e", mpfr_get_d(a, MPFR_RNDN));
    mpfr_clears(t, a, b, lam, (mpfr_ptr)0);
    hdo_vec_clear(xs, 4);
    hdo_vec_clear(xu, 1);
}

Test(reduce, init_pendulum_30_100_300_digits)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    tm_parse(model, ru_pendulum_text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    /* One reduced form at three precisions: the cache recompiles. */
    pendulum_fixed(model, r, 30);
    pendulum_fixed(model, r, 100);
    pendulum_fixed(model, r, 300);
    pendulum_fixed(model, r, 30);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* Positions fixed, velocities free: the position moves radially (the
   nearest point on the circle) and the velocity loses its radial part,
   exactly: p = p0 / |p0|, v = v0 - (v0 . p) p. */
Test(reduce, init_pendulum_free_velocity_exact)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    const int digits = 100;
    mpfr_prec_t prec = prec_for_digits(digits);
    mpfr_ptr xs = hdo_vec_init(4, prec), xu = hdo_vec_init(1, prec);
    mpfr_t t, n, px, py, dot, e;
    int fixed[4], adjusted;
    slong S[4];

    tm_parse(model, ru_pendulum_text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    mpfr_inits2(prec, t, n, px, py, dot, e, (mpfr_ptr)0);
    for (int i = 0; i < 4; i++) {
        S[i] = state_of(
            r, tm_var(model, (const char *[]){"x", "y", "vx", "vy"}[i]), 0);
        fixed[S[i]] = i < 2;
        mpfr_set_str(xs + S[i], (const char *[]){"1", "0.1", "0.3", "0"}[i], 10,
                     MPFR_RNDN);
    }
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    cr_assert_eq(
        hdo_consistent_init(xs, xu, &adjusted, model, r, t, fixed, prec, &err),
        0, "%s", err.message);
    mpfr_set_str(n, "1.01", 10, MPFR_RNDN);
    mpfr_sqrt(n, n, MPFR_RNDN);
    mpfr_ui_div(px, 1, n, MPFR_RNDN);
    mpfr_set_str(py, "0.1", 10, MPFR_RNDN);
    mpfr_div(py, py, n, MPFR_RNDN);
    mpfr_set_str(dot, "0.3", 10, MPFR_RNDN);
    mpfr_mul(dot, dot, px, MPFR_RNDN); /* v0 . p, v0 = (0.3, 0) */
    mpfr_sub(e, xs + S[0], px, MPFR_RNDN);
    cr_expect(below(e, digits), "x");
    mpfr_sub(e, xs + S[1], py, MPFR_RNDN);
    cr_expect(below(e, digits), "y");
    /* vx - (0.3 - dot px) */
    mpfr_fma(e, dot, px, xs + S[2], MPFR_RNDN);
    mpfr_set_str(n, "0.3", 10, MPFR_RNDN);
    mpfr_sub(e, e, n, MPFR_RNDN);
    cr_expect(below(e, digits), "vx off by %.3e", mpfr_get_d(e, MPFR_RNDN));
    mpfr_mul(e, dot, py, MPFR_RNDN);
    mpfr_add(e, e, xs + S[3], MPFR_RNDN); /* vy - (0 - dot py) */
    cr_expect(below(e, digits), "vy off by %.3e", mpfr_get_d(e, MPFR_RNDN));
    cr_expect_eq(adjusted, 1);
    mpfr_clears(t, n, px, py, dot, e, (mpfr_ptr)0);
    hdo_vec_clear(xs, 4);
    hdo_vec_clear(xu, 1);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* From a consistent point moved by about 1e-3, the result is the
   nearest consistent point to second order: the Euclidean nearest point
   (mpmath, KKT system at 40 digits) differs from it by O(dist^2). */
Test(reduce, init_pendulum_nearest_to_second_order)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    mpfr_prec_t prec = prec_for_digits(40);
    mpfr_ptr xs = hdo_vec_init(4, prec), xu = hdo_vec_init(1, prec);
    mpfr_t t, e, sum;
    int fixed[4] = {1, 1, 1, 1};
    slong S[4];
    const char *x0[4] = {"0.9556364891256060196423102275680498982442",
                         "0.2950202066613395751053207456850273736778",
                         "-0.2066641446629377025737245219795191615745",
                         "0.669135542387924213749617159297634928771"};
    const char *near[4] = {"0.955491576134008204725237027049324300505",
                           "0.2950183857608688132155318087116504914155",
                           "-0.2066081894099879065264360271584026588572",
                           "0.6691528191790675557512958736668821276209"};
    const double dist = 0.0001563092085;

    tm_parse(model, ru_pendulum_text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    mpfr_inits2(prec, t, e, sum, (mpfr_ptr)0);
    for (int i = 0; i < 4; i++) {
        S[i] = state_of(
            r, tm_var(model, (const char *[]){"x", "y", "vx", "vy"}[i]), 0);
        mpfr_set_str(xs + S[i], x0[i], 10, MPFR_RNDN);
    }
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    cr_assert_eq(
        hdo_consistent_init(xs, xu, NULL, model, r, t, fixed, prec, &err), 0,
        "%s", err.message);
    mpfr_set_ui(sum, 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        mpfr_set_str(e, near[i], 10, MPFR_RNDN);
        mpfr_sub(e, xs + S[i], e, MPFR_RNDN);
        mpfr_fma(sum, e, e, sum, MPFR_RNDN);
    }
    mpfr_sqrt(sum, sum, MPFR_RNDN);
    cr_expect(mpfr_get_d(sum, MPFR_RNDN) < 10 * dist * dist,
              "distance to the nearest point %.3e (dist %.3e)",
              mpfr_get_d(sum, MPFR_RNDN), dist);
    mpfr_clears(t, e, sum, (mpfr_ptr)0);
    hdo_vec_clear(xs, 4);
    hdo_vec_clear(xu, 1);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

Test(reduce, init_resting_ball)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    mpfr_prec_t prec = prec_for_digits(50);
    mpfr_ptr xs = hdo_vec_init(2, prec), xu = hdo_vec_init(1, prec);
    mpfr_t t, e;
    int fixed[2] = {1, 1}, adjusted = 0;

    tm_parse(model, "model ball\nparam g = 9.81\nvar h = 0, v = 0, f\n"
                    "mode rest\n  der(h) = v\n  der(v) = -g + f\n  h = 0\nend\n"
                    "start rest\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    mpfr_inits2(prec, t, e, (mpfr_ptr)0);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_d(xs + 0, 0.1, MPFR_RNDN);
    mpfr_set_d(xs + 1, 0.5, MPFR_RNDN);
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    cr_assert_eq(
        hdo_consistent_init(xs, xu, &adjusted, model, r, t, fixed, prec, &err),
        0, "%s", err.message);
    cr_expect_eq(adjusted, 1);
    cr_expect(below(xs + 0, 50) && below(xs + 1, 50));
    mpfr_set_str(e, "9.81", 10, MPFR_RNDN);
    mpfr_sub(e, e, xu, MPFR_RNDN);
    cr_expect(below(e, 50), "f = g");
    mpfr_clears(t, e, (mpfr_ptr)0);
    hdo_vec_clear(xs, 2);
    hdo_vec_clear(xu, 1);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* Two balls resting on a wall and on each other (x1 = 0, x2 - x1 = 0,
   the balls_wall case's active set with both contacts closed), entered
   from x1 = 1, x2 = 3, v2 = -1, all fixed: the consistent point is 0,
   where the rounding of the coupled least-squares step leaves noise of
   2^-prec times the last iterate, which a residual relative to ||x||
   could never pass (50 steps, then "no consistent point").  The point
   is x = 0 exactly, after a jump. */
Test(reduce, init_coupled_contacts_at_zero)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    mpfr_prec_t prec = prec_for_digits(30);
    mpfr_ptr xs = hdo_vec_init(4, prec), xu = hdo_vec_init(2, prec);
    mpfr_t t;
    int fixed[4] = {1, 1, 1, 1}, adjusted = 0;
    const char *name[4] = {"x1", "x2", "v1", "v2"};
    const double start[4] = {1, 3, 0, -1};

    hdo_error_clear(&err);
    tm_parse(model, "model balls\nvar x1 = 1, x2 = 3, v1 = 0, v2 = -1, fw, "
                    "fc\nmode rest\n  der(x1) = v1\n  der(x2) = v2\n"
                    "  der(v1) = fw - fc\n  2*der(v2) = fc\n  x1 = 0\n"
                    "  x2 - x1 = 0\nend\nstart rest\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    cr_assert_eq(r->nstate, 4);
    mpfr_init2(t, prec);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++)
        mpfr_set_d(xs + state_of(r, tm_var(model, name[i]), 0), start[i],
                   MPFR_RNDN);
    mpfr_set_ui(xu + 0, 0, MPFR_RNDN);
    mpfr_set_ui(xu + 1, 0, MPFR_RNDN);
    cr_assert_eq(
        hdo_consistent_init(xs, xu, &adjusted, model, r, t, fixed, prec, &err),
        0, "%s", err.message);
    cr_expect_eq(adjusted, 1);
    for (int i = 0; i < 4; i++)
        cr_expect(mpfr_zero_p(xs + i), "state %d is %.3e, not 0", i,
                  mpfr_get_d(xs + i, MPFR_RNDN));
    mpfr_clear(t);
    hdo_vec_clear(xs, 4);
    hdo_vec_clear(xu, 2);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* Everything free: the nilpotent DAE has exactly one consistent point,
   x3 = e^t, x2 = cos t - e^t, x1 = 2 sin t + e^t (by hand). */
Test(reduce, init_nilpotent_unique_point)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    const int digits = 100;
    mpfr_prec_t prec = prec_for_digits(digits);
    mpfr_ptr xs = hdo_vec_init(2, prec), xu = hdo_vec_init(1, prec);
    mpfr_t t, e, ex, a;
    int fixed[2] = {0, 0}, adjusted = 0;

    tm_parse(model, "model nil\nvar x1, x2, x3\nmode m\n"
                    "  der(x2) + x1 = sin(t)\n  der(x3) + x2 = cos(t)\n"
                    "  x3 = exp(t)\nend\nstart m at 0.3\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    mpfr_inits2(prec, t, e, ex, a, (mpfr_ptr)0);
    mpfr_set_str(t, "0.3", 10, MPFR_RNDN);
    mpfr_set_ui(xs + 0, 0, MPFR_RNDN);
    mpfr_set_ui(xs + 1, 0, MPFR_RNDN);
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    cr_assert_eq(
        hdo_consistent_init(xs, xu, &adjusted, model, r, t, fixed, prec, &err),
        0, "%s", err.message);
    cr_expect_eq(adjusted, 0, "no fixed values");
    mpfr_exp(ex, t, MPFR_RNDN);
    slong X2 = state_of(r, tm_var(model, "x2"), 0),
          X3 = state_of(r, tm_var(model, "x3"), 0);
    mpfr_sub(e, xs + X3, ex, MPFR_RNDN);
    cr_expect(below(e, digits), "x3");
    mpfr_cos(a, t, MPFR_RNDN);
    mpfr_sub(a, a, ex, MPFR_RNDN);
    mpfr_sub(e, xs + X2, a, MPFR_RNDN);
    cr_expect(below(e, digits), "x2");
    mpfr_sin(a, t, MPFR_RNDN);
    mpfr_mul_2ui(a, a, 1, MPFR_RNDN);
    mpfr_add(a, a, ex, MPFR_RNDN);
    mpfr_sub(e, xu, a, MPFR_RNDN);
    cr_expect(below(e, digits), "x1");
    mpfr_clears(t, e, ex, a, (mpfr_ptr)0);
    hdo_vec_clear(xs, 2);
    hdo_vec_clear(xu, 1);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* Newton for the unknowns stops at its rounding floor when that lies
   above the step test's 2^(8-prec) |z| (issue #18: the transistor
   amplifier stalled there at 25, 38..42 digits).  In
   0 = (z + B) - B - x the sum z + B is rounded to a multiple of ulp(B),
   so h has a floor near ulp(B) = 2^(20-prec) with B = 10^6, 2^12 times
   the step test: every precision from 20 to 45 digits stalls there.
   The exact solution is z = x = 1/3 (the start value of x, rounded);
   the accepted z must be within the floor, 2 ulp(B), of it. */
Test(reduce, init_newton_rounding_floor_20_to_45_digits)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;

    hdo_error_clear(&err);
    tm_parse(model, "model floor\nparam B = 1e6\nvar x = 1/3, z = 0\n"
                    "mode m\n  der(x) = -x\n  0 = (z + B) - B - x\nend\n"
                    "start m\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    cr_assert_eq(r->nimplicit, 1);
    for (int digits = 20; digits <= 45; digits++) {
        mpfr_prec_t prec = prec_for_digits(digits);
        mpfr_ptr xs = hdo_vec_init(1, prec), xu = hdo_vec_init(1, prec);
        mpfr_t t, e, lim;
        int fixed[1] = {1};

        mpfr_inits2(prec, t, e, lim, (mpfr_ptr)0);
        mpfr_set_ui(t, 0, MPFR_RNDN);
        mpfr_set_ui(xs, 1, MPFR_RNDN);
        mpfr_div_ui(xs, xs, 3, MPFR_RNDN);
        mpfr_set_ui(xu, 0, MPFR_RNDN);
        cr_assert_eq(
            hdo_consistent_init(xs, xu, NULL, model, r, t, fixed, prec, &err),
            0, "%d digits: %s", digits, err.message);
        mpfr_sub(e, xu, xs, MPFR_RNDN);
        mpfr_set_ui(lim, 1, MPFR_RNDN);
        mpfr_mul_2si(lim, lim, 21 - (long)prec, MPFR_RNDN);
        cr_expect(mpfr_cmpabs(e, lim) <= 0, "%d digits: z - x = %.3e", digits,
                  mpfr_get_d(e, MPFR_RNDN));
        mpfr_clears(t, e, lim, (mpfr_ptr)0);
        hdo_vec_clear(xs, 1);
        hdo_vec_clear(xu, 1);
    }
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

Test(reduce, init_inconsistent_constraint)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    mpfr_prec_t prec = 128;
    mpfr_ptr xs = hdo_vec_init(1, prec), xu = hdo_vec_init(1, prec);
    mpfr_t t;
    int fixed[1] = {0};

    hdo_error_clear(&err);
    /* x^2 + 1 = 0 has no real solution: Gauss-Newton stalls. */
    tm_parse(model, "model bad\nvar x = 1, y = 0\nmode m\n  der(x) = y\n"
                    "  x^2 + 1 = 0\nend\nstart m\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    cr_assert_eq(r->ncons, 1);
    mpfr_init2(t, prec);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_ui(xs, 1, MPFR_RNDN);
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    cr_expect_eq(
        hdo_consistent_init(xs, xu, NULL, model, r, t, fixed, prec, &err),
        HDO_ERR_INCONSISTENT);
    cr_expect(strstr(err.message, "residual") != NULL, "%s", err.message);
    cr_expect(err.mode != NULL && strcmp(err.mode, "m") == 0);
    mpfr_clear(t);
    hdo_vec_clear(xs, 1);
    hdo_vec_clear(xu, 1);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

Test(reduce, init_singular_jacobian)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    mpfr_prec_t prec = 128;
    mpfr_ptr xs = hdo_vec_init(1, prec), xu = hdo_vec_init(1, prec);
    mpfr_t t;
    int fixed[1] = {1};

    hdo_error_clear(&err);
    /* x = t forces x = 0 at t = 0, where h = f x - 1 cannot be solved
       for f. */
    tm_parse(model, "model sj\nvar x = 0, f = 0\nmode m\n  der(x) = f*x\n"
                    "  x = t\nend\nstart m\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    mpfr_init2(t, prec);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_ui(xs, 0, MPFR_RNDN);
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    cr_expect_eq(
        hdo_consistent_init(xs, xu, NULL, model, r, t, fixed, prec, &err),
        HDO_ERR_SINGULAR);
    cr_expect(strstr(err.message, "with respect to f") != NULL, "%s",
              err.message);
    cr_expect(err.has_time);
    mpfr_clear(t);
    hdo_vec_clear(xs, 1);
    hdo_vec_clear(xu, 1);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* A full Gauss-Newton step from x = 0.01 for x^2 = 0.01 overshoots to
   x = 0.505 (residual 0.245 > 0.0099): the step must be damped, and the
   result is the root x = 0.1 with v = 0 (by hand). */
Test(reduce, init_damped_step)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    const int digits = 60;
    mpfr_prec_t prec = prec_for_digits(digits);
    mpfr_ptr xs = hdo_vec_init(2, prec), xu = hdo_vec_init(1, prec);
    mpfr_t t, e;
    int fixed[2];

    tm_parse(model, "model d\nvar x = 0.01, v = 0, f\nmode m\n  der(x) = v\n"
                    "  der(v) = f\n  x^2 = 0.01\nend\nstart m\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    slong X = state_of(r, tm_var(model, "x"), 0),
          V = state_of(r, tm_var(model, "v"), 0);
    mpfr_inits2(prec, t, e, (mpfr_ptr)0);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_str(xs + X, "0.01", 10, MPFR_RNDN);
    mpfr_set_ui(xs + V, 0, MPFR_RNDN);
    fixed[X] = 1;
    fixed[V] = 0;
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    cr_assert_eq(
        hdo_consistent_init(xs, xu, NULL, model, r, t, fixed, prec, &err), 0,
        "%s", err.message);
    mpfr_set_str(e, "0.1", 10, MPFR_RNDN);
    mpfr_sub(e, xs + X, e, MPFR_RNDN);
    cr_expect(below(e, digits), "x - 0.1 = %.3e", mpfr_get_d(e, MPFR_RNDN));
    cr_expect(below(xs + V, digits));
    cr_expect(below(xu, digits), "f = 0");
    mpfr_clears(t, e, (mpfr_ptr)0);
    hdo_vec_clear(xs, 2);
    hdo_vec_clear(xu, 1);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}
