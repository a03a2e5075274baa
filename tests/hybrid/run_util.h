/* run_util.h -- checks shared by the hdo_run tests (run.c, intersect.c) */
#ifndef HDO_TESTS_HYBRID_RUN_UTIL_H
#define HDO_TESTS_HYBRID_RUN_UTIL_H
#include <criterion/criterion.h>
#include "hybrid.h"

/* |a - b| <= 10^-digits */
static inline int
close_to(mpfr_srcptr a, mpfr_srcptr b, long digits)
{
    mpfr_t d, bound;
    mpfr_inits2(mpfr_get_prec(a), d, bound, (mpfr_ptr)0);
    mpfr_sub(d, a, b, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_set_ui(bound, 10, MPFR_RNDN);
    mpfr_pow_si(bound, bound, -digits, MPFR_RNDN);
    int ok = mpfr_cmp(d, bound) <= 0;
    mpfr_clears(d, bound, (mpfr_ptr)0);
    return ok;
}

static inline int
close_to_d(mpfr_srcptr a, double b, long digits)
{
    mpfr_t x;
    mpfr_init2(x, mpfr_get_prec(a));
    mpfr_set_d(x, b, MPFR_RNDN);
    int ok = close_to(a, x, digits);
    mpfr_clear(x);
    return ok;
}

/* The summary record of the i-th sliding mode used: its mode index and
   the counts of the Filippov DAE (n unknowns with the weights). */
static inline void
expect_sliding_info(const hdo_result_t res, slong i, slong mode, slong k,
                    slong mu, slong d, slong a, slong n)
{
    cr_assert(i < res->nsliding, "%ld sliding modes recorded",
              (long)res->nsliding);
    const hdo_mode_info *mi = res->sliding + i;
    cr_expect_eq(mi->mode, mode);
    cr_expect_eq(mi->surfaces, k);
    cr_expect(mi->mu == mu && mi->d == d && mi->a == a && mi->v == 0 &&
                  mi->n == n,
              "mu %ld d %ld a %ld v %ld n %ld, want %ld %ld %ld 0 %ld",
              (long)mi->mu, (long)mi->d, (long)mi->a, (long)mi->v, (long)mi->n,
              (long)mu, (long)d, (long)a, (long)n);
}

#endif
