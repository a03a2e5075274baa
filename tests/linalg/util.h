/* util.h -- helpers shared by the linalg tests: exact rational matrices,
   their conversion to MPFR, and error measures. */
#ifndef HDO_TESTS_LINALG_UTIL_H
#define HDO_TESTS_LINALG_UTIL_H

#include <math.h>
#include <flint/fmpq_mat.h>
#include "linalg.h"

/* Bits for d decimal digits. */
static inline mpfr_prec_t
bits_for_digits(long d)
{
    return (mpfr_prec_t)ceil(d * 3.3219280948873623) + 1;
}

/* A := Q rounded to nearest at A->prec (A resized). */
static inline void
mat_from_fmpq(hdo_mat_t A, const fmpq_mat_t Q)
{
    slong i, j;
    hdo_mat_resize(A, fmpq_mat_nrows(Q), fmpq_mat_ncols(Q));
    for (i = 0; i < A->rows; i++)
        for (j = 0; j < A->cols; j++)
            fmpq_get_mpfr(hdo_mat_entry(A, i, j), fmpq_mat_entry(Q, i, j),
                          MPFR_RNDN);
}

/* Random rational entries p/q with |p| < 2^bits, 0 < q < 2^bits (never
   the special values of fmpq_randtest, so that the matrices are
   generic). */
static inline void
fmpq_mat_random(fmpq_mat_t Q, flint_rand_t st, flint_bitcnt_t bits)
{
    slong i, j;
    fmpz_t p, q;
    fmpz_init(p);
    fmpz_init(q);
    for (i = 0; i < fmpq_mat_nrows(Q); i++)
        for (j = 0; j < fmpq_mat_ncols(Q); j++) {
            fmpz_randtest(p, st, bits);
            do
                fmpz_randtest_unsigned(q, st, bits);
            while (fmpz_is_zero(q));
            fmpq_set_fmpz_frac(fmpq_mat_entry(Q, i, j), p, q);
        }
    fmpz_clear(p);
    fmpz_clear(q);
}

/* log2 of the largest |x_i - e_i| / max(1, max |e_i|), x in MPFR, e exact;
   -inf if equal. */
static inline double
vec_rel_err_log2(mpfr_srcptr x, const fmpq_mat_t E, slong col, mpfr_prec_t p)
{
    slong i, n = fmpq_mat_nrows(E);
    mpfr_t e, d, emax, dmax;
    double r;
    mpfr_inits2(p + 64, e, d, emax, dmax, (mpfr_ptr)0);
    mpfr_set_ui(emax, 1, MPFR_RNDN);
    mpfr_set_zero(dmax, 1);
    for (i = 0; i < n; i++) {
        fmpq_get_mpfr(e, fmpq_mat_entry(E, i, col), MPFR_RNDN);
        if (mpfr_cmpabs(e, emax) > 0)
            mpfr_abs(emax, e, MPFR_RNDN);
        mpfr_sub(d, x + i, e, MPFR_RNDN);
        if (mpfr_cmpabs(d, dmax) > 0)
            mpfr_abs(dmax, d, MPFR_RNDN);
    }
    if (mpfr_zero_p(dmax))
        r = -INFINITY;
    else {
        mpfr_div(d, dmax, emax, MPFR_RNDN);
        mpfr_log2(d, d, MPFR_RNDN);
        r = mpfr_get_d(d, MPFR_RNDN);
    }
    mpfr_clears(e, d, emax, dmax, (mpfr_ptr)0);
    return r;
}

/* log2 of the Frobenius norm of M (a residual), -inf if zero. */
static inline double
mat_norm_log2(const hdo_mat_t M)
{
    mpfr_t r;
    double d;
    mpfr_init2(r, 64);
    hdo_vec_norm2(r, M->entries, M->rows * M->cols);
    d = mpfr_zero_p(r) ? -INFINITY : mpfr_get_d(r, MPFR_RNDN);
    if (!mpfr_zero_p(r)) {
        mpfr_log2(r, r, MPFR_RNDN);
        d = mpfr_get_d(r, MPFR_RNDN);
    }
    mpfr_clear(r);
    return d;
}

/* log2 || Q^T Q - I ||_F: loss of orthonormality of the columns of Q. */
static inline double
orth_err_log2(const hdo_mat_t Q)
{
    hdo_mat_t Qt, P, I;
    double d;
    hdo_mat_init(Qt, 0, 0, Q->prec);
    hdo_mat_init(P, 0, 0, Q->prec);
    hdo_mat_init(I, Q->cols, Q->cols, Q->prec);
    hdo_mat_transpose(Qt, Q);
    hdo_mat_mul(P, Qt, Q);
    hdo_mat_one(I);
    {
        slong i;
        for (i = 0; i < P->rows * P->cols; i++)
            mpfr_sub(P->entries + i, P->entries + i, I->entries + i, MPFR_RNDN);
    }
    d = mat_norm_log2(P);
    hdo_mat_clear(Qt);
    hdo_mat_clear(P);
    hdo_mat_clear(I);
    return d;
}

#endif
