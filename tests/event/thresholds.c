/* thresholds.c -- the zero rule of the event locator (ref/event/locate.c,
 * docs/decisions.md) at its boundaries */
#include <criterion/criterion.h>
#include "event.h"
#include "linalg.h"

/* KM Remark 12's zero rule: c_k counts as zero while |c_k| H^k <=
   tol max_j |c_j| H^j + floor.  Values a factor 2 on either side: with
   the scale 1 (tol alone), far above it and far below it (relative: a
   guard of size 2^-200 has its zeros where one of size 1 does), with a
   floor that dominates, and with H weighting the coefficients. */
Test(event_thresholds, event_zero_order_boundary)
{
    mpfr_t H, tol, floor;
    mpfr_ptr c = hdo_vec_init(3, 200);
    mpfr_inits2(200, H, tol, floor, (mpfr_ptr)0);
    mpfr_set_ui_2exp(tol, 1, -100, MPFR_RNDN);
    mpfr_set_ui(H, 1, MPFR_RNDN);

    /* max |c_k| H^k = 1: ztol = tol = 2^-100 */
    mpfr_set_ui(c + 1, 1, MPFR_RNDN);
    mpfr_set_ui(c + 2, 0, MPFR_RNDN);
    mpfr_set_ui_2exp(c, 1, -101, MPFR_RNDN); /* ztol / 2: zero */
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_ui_2exp(c, 1, -100, MPFR_RNDN); /* = ztol: still zero */
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_si_2exp(c, -1, -99, MPFR_RNDN); /* 2 ztol (negative): not */
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 0);

    /* relative: c1 = 2^40, so ztol = 2^-60 */
    mpfr_set_ui_2exp(c + 1, 1, 40, MPFR_RNDN);
    mpfr_set_ui_2exp(c, 1, -61, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_ui_2exp(c, 1, -59, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 0);

    /* and below 1: c1 = 2^-200, ztol = 2^-300 (up to stop 21 the rule
       had an absolute tol: both were zero) */
    mpfr_set_ui_2exp(c + 1, 1, -200, MPFR_RNDN);
    mpfr_set_ui_2exp(c, 1, -301, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_ui_2exp(c, 1, -299, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 0);

    /* a floor 2^-250 dominates: ztol = 2^-250 + 2^-300 */
    mpfr_set_ui_2exp(floor, 1, -250, MPFR_RNDN);
    mpfr_set_ui_2exp(c, 1, -251, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, floor), 1);
    mpfr_set_ui_2exp(c, 1, -249, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, floor), 0);
    /* and hides c1 itself (2^-200 is above it: order 1 stays) */
    mpfr_set_ui_2exp(c, 1, -251, MPFR_RNDN);
    mpfr_set_ui_2exp(c + 1, 1, -252, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, floor), 3);

    /* H = 2^-50, c0 = 0, c2 = 2^-2: scale 2^-102, ztol = 2^-202; c1 =
       2^-150 contributes 2^-200 > ztol: order 1; c1 = 2^-153
       contributes 2^-203: zero, order 2 */
    mpfr_set_ui_2exp(H, 1, -50, MPFR_RNDN);
    mpfr_set_ui(c, 0, MPFR_RNDN);
    mpfr_set_ui_2exp(c + 2, 1, -2, MPFR_RNDN);
    mpfr_set_ui_2exp(c + 1, 1, -150, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_ui_2exp(c + 1, 1, -153, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 2);
    hdo_vec_clear(c, 3);
    mpfr_clears(H, tol, floor, (mpfr_ptr)0);
}
