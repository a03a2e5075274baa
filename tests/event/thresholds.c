/* thresholds.c -- the zero rule of the event locator (ref/event/locate.c,
 * docs/decisions.md D-010) at its boundaries */
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

/* The zero rule as D-010 states it, at 64 bits (the test's own loop):
   scale = max_k |c_k| H^k rounded up, ztol = scale tol (+ floor) rounded
   up, the first m with |c_m| H^m > ztol (len when none). */
static slong
zero_order_64(mpfr_srcptr c, slong len, const mpfr_t H, const mpfr_t tol,
              mpfr_srcptr floor)
{
    slong n = len, m;
    while (n > 1 && mpfr_zero_p(c + n - 1))
        n--;
    mpfr_t z, t, p;
    mpfr_inits2(64, z, t, p, (mpfr_ptr)0);
    mpfr_set_ui(p, 1, MPFR_RNDN);
    mpfr_set_zero(z, 1);
    for (slong k = 0; k < n; k++) {
        mpfr_abs(t, c + k, MPFR_RNDU);
        mpfr_mul(t, t, p, MPFR_RNDU);
        mpfr_max(z, z, t, MPFR_RNDU);
        mpfr_mul(p, p, H, MPFR_RNDU);
    }
    mpfr_mul(z, z, tol, MPFR_RNDU);
    if (floor != NULL)
        mpfr_add(z, z, floor, MPFR_RNDU);
    mpfr_set_ui(p, 1, MPFR_RNDN);
    for (m = 0; m < n; m++) {
        mpfr_abs(t, c + m, MPFR_RNDN);
        mpfr_mul(t, t, p, MPFR_RNDN);
        if (mpfr_cmp(t, z) > 0)
            break;
        mpfr_mul(p, p, H, MPFR_RNDN);
    }
    mpfr_clears(z, t, p, (mpfr_ptr)0);
    return m == n ? len : m;
}

/* The zero rule is decided in doubles where every comparison is clear
   (issue 28): random series whose leading terms sit at ztol times 1 +-
   2^-e (e up to 70: closer than the doubles can tell, so the 64-bit
   loop must decide), exact zeros among them, floors or none, and H from
   2^-60 to 2^20, give the 64-bit rule's answer. */
Test(event_thresholds, event_zero_order_doubles_agree)
{
    flint_rand_t st;
    flint_randinit(st);
    const slong len = 24;
    mpfr_ptr c = hdo_vec_init(len, 200);
    mpfr_t H, tol, floor, z, t;
    mpfr_inits2(200, H, tol, floor, z, t, (mpfr_ptr)0);
    mpfr_set_ui_2exp(tol, 1, -120, MPFR_RNDN);
    for (int it = 0; it < 4000; it++) {
        mpfr_set_ui_2exp(H, 1, (long)n_randint(st, 81) - 60, MPFR_RNDN);
        mpfr_mul_d(H, H, 1 + n_randint(st, 1000) / 1000.0, MPFR_RNDN);
        for (slong k = 0; k < len; k++) {
            if (n_randint(st, 4) == 0) {
                mpfr_set_zero(c + k, 1);
                continue;
            }
            mpfr_set_ui(c + k, 1 + n_randint(st, UWORD(1) << 40), MPFR_RNDN);
            mpfr_mul_2si(c + k, c + k, (long)n_randint(st, 200) - 140,
                         MPFR_RNDN);
            if (n_randint(st, 2))
                mpfr_neg(c + k, c + k, MPFR_RNDN);
        }
        int with_floor = n_randint(st, 2);
        mpfr_set_ui_2exp(floor, 1, (long)n_randint(st, 400) - 300, MPFR_RNDN);
        mpfr_srcptr fl = with_floor ? floor : NULL;
        /* a leading coefficient m at ztol (1 +- 2^-e) */
        slong m = n_randint(st, 4);
        mpfr_set_zero(z, 1);
        for (slong k = 0; k < len; k++) {
            mpfr_pow_si(t, H, k, MPFR_RNDN);
            mpfr_mul(t, t, c + k, MPFR_RNDN);
            mpfr_abs(t, t, MPFR_RNDN);
            mpfr_max(z, z, t, MPFR_RNDN);
        }
        mpfr_mul(z, z, tol, MPFR_RNDN);
        if (fl != NULL)
            mpfr_add(z, z, fl, MPFR_RNDN);
        for (slong k = 0; k < m; k++)
            mpfr_set_zero(c + k, 1);
        if (n_randint(st, 2)) {
            long e = 1 + (long)n_randint(st, 70);
            mpfr_set_ui_2exp(t, 1, -e, MPFR_RNDN);
            mpfr_add_si(t, t, n_randint(st, 2) ? 1 : -1, MPFR_RNDN);
            mpfr_abs(t, t, MPFR_RNDN);
            mpfr_mul(t, t, z, MPFR_RNDN);
            mpfr_pow_si(z, H, -(long)m, MPFR_RNDN);
            mpfr_mul(c + m, t, z, MPFR_RNDN);
        }
        slong want = zero_order_64(c, len, H, tol, fl);
        slong got = hdo_event_zero_order(c, len, H, tol, fl);
        cr_assert_eq(got, want, "iteration %d: %ld, the 64-bit rule %ld", it,
                     (long)got, (long)want);
    }
    mpfr_clears(H, tol, floor, z, t, (mpfr_ptr)0);
    hdo_vec_clear(c, len);
    flint_randclear(st);
}
