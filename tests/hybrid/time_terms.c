/* time_terms.c -- a guard coefficient's change within the event time's
 * uncertainty (floors.c, hdo_run_add_time_terms, decisions.md D-134):
 * its terms below half an ulp of the sum are bounded by exponents alone
 * and dt's powers formed only when a term needs them; the sum must have
 * the bits of the plain loop, term by term rounded up. */
#include <criterion/criterion.h>
#include <flint/ulong_extras.h>
#include "hybrid/driver.h"

/* The loop of floors.c before D-134. */
static void
plain_terms(mpfr_t out, mpfr_srcptr coef, slong len, slong order,
            const mpfr_t dt)
{
    mpfr_t r, trad;
    mpfr_inits2(64, r, trad, (mpfr_ptr)0);
    slong last = len - 1;
    while (last > order && mpfr_zero_p(coef + last))
        last--;
    mpfr_set(trad, dt, MPFR_RNDU);
    for (slong k = order + 1; k <= last; k++) {
        mpfr_abs(r, coef + k, MPFR_RNDU);
        if (order == 1)
            mpfr_mul_ui(r, r, (unsigned long)k, MPFR_RNDU);
        mpfr_mul(r, r, trad, MPFR_RNDU);
        mpfr_add(out, out, r, MPFR_RNDU);
        mpfr_mul(trad, trad, dt, MPFR_RNDU);
    }
    mpfr_clears(r, trad, (mpfr_ptr)0);
}

static int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    return (mpfr_nan_p(a) && mpfr_nan_p(b)) ||
           (mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b));
}

/* Series of order-48 guards (coefficients of sizes 2^-300 .. 2^300,
   zeros inside and at the end, NaN and infinities among them), dt from
   2^-200 to 2^10 (and 0, negative), out from 0 to huge, orders 0 and 1:
   every sum has the plain loop's bits.  A bound one bit short (k not
   counted at order 1, or dt^j bounded by j (EXP(dt) - 1)), a term
   skipped without bumping the sum, or a power of dt formed out of
   order fails here; the counts say both ways were taken often. */
Test(time_terms, same_bits_as_the_plain_sum)
{
    enum { LEN = 49, PREC = 133 };
    mpfr_t coef[LEN], dt, got, want, r, trad;
    for (slong k = 0; k < LEN; k++)
        mpfr_init2(coef[k], PREC);
    mpfr_inits2(64, dt, got, want, r, trad, (mpfr_ptr)0);
    flint_rand_t rs;
    flint_randinit(rs);
    long cases = 0, tiny = 0, large = 0;
    for (int trial = 0; trial < 4000; trial++) {
        slong len = 1 + (slong)n_randint(rs, LEN);
        long spread = (long)n_randint(rs, 600);
        for (slong k = 0; k < len; k++) {
            if (n_randint(rs, 5) == 0 || (k > len - 4 && n_randint(rs, 2))) {
                mpfr_set_zero(coef[k], n_randint(rs, 2) ? 1 : -1);
                continue;
            }
            mpfr_set_si(coef[k], (long)n_randint(rs, 2001) - 1000, MPFR_RNDN);
            if (mpfr_zero_p(coef[k]))
                mpfr_set_ui(coef[k], 3, MPFR_RNDN);
            mpfr_div_ui(coef[k], coef[k], 7 + n_randint(rs, 90), MPFR_RNDN);
            mpfr_mul_2si(coef[k], coef[k],
                         (long)n_randint(rs, spread + 1) - spread / 2,
                         MPFR_RNDN);
        }
        if (n_randint(rs, 30) == 0) {
            slong k = (slong)n_randint(rs, len);
            if (n_randint(rs, 2))
                mpfr_set_nan(coef[k]);
            else
                mpfr_set_inf(coef[k], n_randint(rs, 2) ? 1 : -1);
        }
        switch (n_randint(rs, 10)) {
        case 0:
            mpfr_set_zero(dt, 1);
            break;
        case 1:
            mpfr_set_si_2exp(dt, -5, -(long)n_randint(rs, 100), MPFR_RNDN);
            break;
        default:
            mpfr_set_ui(dt, 1 + n_randint(rs, 1000), MPFR_RNDN);
            mpfr_div_ui(dt, dt, 1 + n_randint(rs, 1000), MPFR_RNDU);
            mpfr_mul_2si(dt, dt, 10 - (long)n_randint(rs, 210), MPFR_RNDU);
        }
        mpfr_t base, near;
        mpfr_inits2(64, base, near, (mpfr_ptr)0);
        switch (n_randint(rs, 6)) {
        case 0:
            mpfr_set_zero(base, 1);
            break;
        case 1:
            /* a power of 2: the ulp below it is half the ulp above */
            mpfr_set_ui_2exp(base, 1, (long)n_randint(rs, 400) - 200,
                             MPFR_RNDN);
            break;
        default:
            mpfr_set_ui(base, 1 + n_randint(rs, 100000), MPFR_RNDN);
            mpfr_mul_2si(base, base, (long)n_randint(rs, 600) - 300, MPFR_RNDN);
        }
        /* base moved by at most len ulps: the terms below half an ulp */
        mpfr_set(near, base, MPFR_RNDN);
        for (slong k = 0; k < len; k++)
            mpfr_nextabove(near);
        for (slong order = 0; order <= 1 && order < len; order++) {
            mpfr_set(got, base, MPFR_RNDN);
            mpfr_set(want, base, MPFR_RNDN);
            hdo_run_add_time_terms(got, (mpfr_srcptr)coef, len, order, dt, r,
                                   trad);
            plain_terms(want, (mpfr_srcptr)coef, len, order, dt);
            if (!same_bits(got, want))
                mpfr_printf("trial %d order %ld len %ld dt %Rg: %Rg against "
                            "%Rg\n",
                            trial, (long)order, (long)len, dt, got, want);
            cr_assert(same_bits(got, want));
            cases++;
            if (mpfr_number_p(want) && mpfr_cmp(want, base) > 0) {
                if (mpfr_cmp(want, near) <= 0)
                    tiny++;
                else
                    large++;
            }
        }
        mpfr_clears(base, near, (mpfr_ptr)0);
    }
    cr_expect(cases > 6000 && tiny > 1000 && large > 500, "%ld %ld %ld", cases,
              tiny, large);
    flint_randclear(rs);
    for (slong k = 0; k < LEN; k++)
        mpfr_clear(coef[k]);
    mpfr_clears(dt, got, want, r, trad, (mpfr_ptr)0);
}

/* The same comparison where the powers and terms reach the edges of the
   exponent range: emin = -500, emax = 500 (tests/step/radau_conv.c runs
   hdo so), coefficients up to 2^490 and dt down to 2^-200 (dt^j
   underflows from j = 3), sums near both ends, dt = +inf and an
   interior zero coefficient beside a power that overflows.  The first
   version of the shortcut gave out's next number where the plain sum
   under- or overflowed (14th digit off at 2^380, 2^-116, 2^-76); the
   counts say both edges were reached. */
Test(time_terms, same_bits_in_a_narrow_exponent_range)
{
    enum { LEN = 12 };
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    cr_assert(mpfr_set_emin(-500) == 0 && mpfr_set_emax(500) == 0);
    mpfr_t coef[LEN], dt, got, want, base, r, trad;
    for (slong k = 0; k < LEN; k++)
        mpfr_init2(coef[k], 100);
    mpfr_inits2(64, dt, got, want, base, r, trad, (mpfr_ptr)0);
    flint_rand_t rs;
    flint_randinit(rs);
    long cases = 0, edges = 0;
    for (int trial = 0; trial < 6000; trial++) {
        slong len = 2 + (slong)n_randint(rs, LEN - 1);
        for (slong k = 0; k < len; k++) {
            if (n_randint(rs, 4) == 0) {
                mpfr_set_zero(coef[k], 1);
                continue;
            }
            mpfr_set_ui(coef[k], 1 + n_randint(rs, 1000), MPFR_RNDN);
            mpfr_mul_2si(coef[k], coef[k], (long)n_randint(rs, 980) - 490,
                         MPFR_RNDN);
        }
        switch (n_randint(rs, 8)) {
        case 0:
            mpfr_set_inf(dt, 1);
            break;
        case 1: /* its powers overflow */
            mpfr_set_ui_2exp(dt, 3, 150 + (long)n_randint(rs, 100), MPFR_RNDN);
            break;
        default: /* its powers underflow */
            mpfr_set_ui_2exp(dt, 1 + n_randint(rs, 7),
                             -(long)n_randint(rs, 201), MPFR_RNDN);
        }
        switch (n_randint(rs, 4)) {
        case 0:
            mpfr_set_ui_2exp(base, 1, -480 - (long)n_randint(rs, 20),
                             MPFR_RNDN);
            break;
        case 1:
            mpfr_set_ui_2exp(base, 1, 480 + (long)n_randint(rs, 19), MPFR_RNDN);
            break;
        default:
            mpfr_set_ui(base, 1 + n_randint(rs, 1000), MPFR_RNDN);
            mpfr_mul_2si(base, base, (long)n_randint(rs, 300) - 150, MPFR_RNDN);
        }
        for (slong order = 0; order <= 1; order++) {
            mpfr_set(got, base, MPFR_RNDN);
            mpfr_set(want, base, MPFR_RNDN);
            mpfr_clear_flags();
            hdo_run_add_time_terms(got, (mpfr_srcptr)coef, len, order, dt, r,
                                   trad);
            mpfr_clear_flags();
            plain_terms(want, (mpfr_srcptr)coef, len, order, dt);
            edges +=
                mpfr_underflow_p() || mpfr_overflow_p() || !mpfr_number_p(want);
            if (!same_bits(got, want))
                mpfr_printf("trial %d order %ld len %ld dt %Rg base %Rg: %Rg "
                            "against %Rg\n",
                            trial, (long)order, (long)len, dt, base, got, want);
            cr_assert(same_bits(got, want));
            cases++;
        }
    }
    flint_randclear(rs);
    for (slong k = 0; k < LEN; k++)
        mpfr_clear(coef[k]);
    mpfr_clears(dt, got, want, base, r, trad, (mpfr_ptr)0);
    cr_assert(mpfr_set_emin(emin) == 0 && mpfr_set_emax(emax) == 0);
    cr_expect(cases == 12000 && edges > 1000, "%ld %ld", cases, edges);
}
