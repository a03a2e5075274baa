/* guard_floor.c -- the step rule over a noise floor (ref/taylor/control.c,
 * decisions.md D-106): leading coefficients within the floor over the
 * step are zeros, so a guard that is 0 or an ulp at a switch gets the
 * same step, and one that is small but over its floor keeps the step it
 * had.
 *
 * The guard is v1 - v2 of stick_slip_stick's slip_neg at its entry at 30
 * digits (prec 133, tol 1e-35): zero, its rate zero, then the
 * curvature of 1 - cos s, c_k = +-1/k! (k >= 2).  Its noise floor is
 * about tol (|v1| + |v2|) = 1.6e-35 (hdo_run_guard_noise); a rounding of
 * the root left it an ulp, 2^-134 (9e-41), before the floor, and the step
 * was 0.21 against 2.74 (D-102). */
#include <criterion/criterion.h>
#include <math.h>
#include "linalg.h"
#include "taylor/internal.h"

enum { P = 48, PREC = 133 };

/* log2 of the step of 1 - cos s with c0 and c1 set, over the floor
   2^lfloor (-inf: none). */
static double
step_of(double lc0, double lc1, double lfloor)
{
    mpfr_t c[P + 1];
    for (int k = 0; k <= P; k++) {
        mpfr_init2(c[k], PREC);
        mpfr_set_zero(c[k], 1);
    }
    mpfr_set_ui(c[2], 1, MPFR_RNDN);
    for (int k = 3; k <= P; k++)
        mpfr_div_ui(c[k], c[k - 1], (unsigned long)k, MPFR_RNDN);
    mpfr_div_2ui(c[2], c[2], 1, MPFR_RNDN);
    for (int k = 2; k <= P; k += 2)
        if (k % 4 == 0)
            mpfr_neg(c[k], c[k], MPFR_RNDN);
    for (int k = 3; k <= P; k += 2)
        mpfr_set_zero(c[k], 1);
    if (lc0 > -INFINITY)
        mpfr_set_d(c[0], exp2(lc0), MPFR_RNDN);
    if (lc1 > -INFINITY)
        mpfr_set_d(c[1], -exp2(lc1), MPFR_RNDN);
    double ltol = log2(1e-35), lhz = 0, lrad = 0.5 * PREC;
    double l = hdo_taylor_component_step((const mpfr_t *)c, P, lfloor, ltol,
                                         lhz, lrad);
    for (int k = 0; k <= P; k++)
        mpfr_clear(c[k]);
    return l;
}

Test(taylor_guard_floor, an_ulp_at_a_switch_steps_as_a_zero)
{
    double lf = log2(1.6e-35), ninf = -INFINITY;
    double zero = step_of(ninf, ninf, lf);
    /* the exact zero: the step of 1 - cos s, about 2.7 */
    cr_assert(zero > log2(2.0) && zero < log2(4.0), "h = %g", exp2(zero));
    /* without the floor an ulp cuts it (the defect of D-102) */
    double cut = step_of(-134, ninf, ninf);
    cr_assert(cut < zero - 2, "h = %g against %g", exp2(cut), exp2(zero));
    /* over the floor: an ulp in the value, in the rate, in both */
    cr_assert(step_of(-134, ninf, lf) == zero);
    cr_assert(step_of(ninf, -134, lf) == zero);
    cr_assert(step_of(-134, -133, lf) == zero);
    /* exact zeros do not read the floor at all */
    cr_assert(step_of(ninf, ninf, ninf) == zero);
}

/* The floor's boundary: a value at the floor is a zero (as the zero rule,
   equal is zero), one 2^-20 above it is a magnitude of its own, and the
   step is cut as without the floor's rule. */
Test(taylor_guard_floor, value_at_the_floor_boundary)
{
    double lf = log2(1.6e-35), ninf = -INFINITY;
    double zero = step_of(ninf, ninf, lf);
    double at = step_of(lf, ninf, lf);
    double over = step_of(lf + 0x1p-20, ninf, lf);
    cr_assert(at == zero, "at the floor: h = %g", exp2(at));
    cr_assert(over < zero - 2, "above the floor: h = %g", exp2(over));
}

/* A guard genuinely small and about to cross: 1e-30 (over its floor
   1.6e-35) falling at rate 1 crosses at 1e-30; its step is the one it
   had without the floor's rule (the magnitude max(|c0|, |c1| h), the
   floor below both), and a rate within the floor over that step is not
   dropped either: the value bounds it. */
Test(taylor_guard_floor, a_small_guard_over_its_floor_keeps_its_step)
{
    double lf = log2(1.6e-35), ninf = -INFINITY;
    double small = step_of(log2(1e-30), 0, lf);
    cr_assert(small == step_of(log2(1e-30), 0, ninf), "h = %g", exp2(small));
    double tiny = step_of(log2(1e-30), -140, lf);
    cr_assert(tiny == step_of(log2(1e-30), -140, ninf), "h = %g", exp2(tiny));
    cr_assert(tiny < step_of(ninf, ninf, lf) - 2);
}
