/* lu.c -- LU factorisation with partial pivoting and triangular solves */
#include "linalg.h"
#include "status.h"

int
hdo_lu_factor(hdo_mat_t A, slong *perm)
{
    slong n = A->rows, i, j, k, p;
    mpfr_t amax, thresh, f, t;
    int status = 0;

    HDO_ASSERT(A->rows == A->cols);
    mpfr_inits2(A->prec, amax, thresh, f, t, (mpfr_ptr)0);
    mpfr_set_zero(amax, 1);
    for (i = 0; i < n * n; i++)
        if (mpfr_cmpabs(A->entries + i, amax) > 0)
            mpfr_abs(amax, A->entries + i, MPFR_RNDN);
    /* Pivots below this are rounding noise of a singular matrix, not
       information (see the header). */
    mpfr_mul_2si(thresh, amax, -(long)(A->prec / 2), MPFR_RNDN);

    for (i = 0; i < n; i++)
        perm[i] = i;
    for (k = 0; k < n; k++) {
        p = k;
        for (i = k + 1; i < n; i++)
            if (mpfr_cmpabs(hdo_mat_entry(A, i, k), hdo_mat_entry(A, p, k)) > 0)
                p = i;
        if (mpfr_zero_p(hdo_mat_entry(A, p, k)) ||
            mpfr_cmpabs(hdo_mat_entry(A, p, k), thresh) < 0) {
            status = HDO_ERR_SINGULAR;
            break;
        }
        if (p != k) {
            slong tp = perm[p];
            perm[p] = perm[k];
            perm[k] = tp;
            for (j = 0; j < n; j++)
                mpfr_swap(hdo_mat_entry(A, p, j), hdo_mat_entry(A, k, j));
        }
        for (i = k + 1; i < n; i++) {
            mpfr_div(f, hdo_mat_entry(A, i, k), hdo_mat_entry(A, k, k),
                     MPFR_RNDN);
            mpfr_set(hdo_mat_entry(A, i, k), f, MPFR_RNDN);
            if (mpfr_zero_p(f))
                continue;
            for (j = k + 1; j < n; j++) {
                mpfr_mul(t, f, hdo_mat_entry(A, k, j), MPFR_RNDN);
                mpfr_sub(hdo_mat_entry(A, i, j), hdo_mat_entry(A, i, j), t,
                         MPFR_RNDN);
            }
        }
    }
    mpfr_clears(amax, thresh, f, t, (mpfr_ptr)0);
    return status;
}

void
hdo_lu_solve(mpfr_ptr b, const hdo_mat_t LU, const slong *perm)
{
    slong n = LU->rows, i, j;
    mpfr_ptr y;
    mpfr_t t;

    if (n == 0)
        return;
    y = hdo_vec_init(n, mpfr_get_prec(b));
    mpfr_init2(t, mpfr_get_prec(b));
    for (i = 0; i < n; i++)
        mpfr_set(y + i, b + perm[i], MPFR_RNDN);
    /* Forward substitution with the unit lower triangle. */
    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++) {
            mpfr_mul(t, hdo_mat_entry(LU, i, j), y + j, MPFR_RNDN);
            mpfr_sub(y + i, y + i, t, MPFR_RNDN);
        }
    /* Back substitution with the upper triangle. */
    for (i = n - 1; i >= 0; i--) {
        for (j = i + 1; j < n; j++) {
            mpfr_mul(t, hdo_mat_entry(LU, i, j), y + j, MPFR_RNDN);
            mpfr_sub(y + i, y + i, t, MPFR_RNDN);
        }
        mpfr_div(y + i, y + i, hdo_mat_entry(LU, i, i), MPFR_RNDN);
    }
    hdo_vec_set(b, y, n);
    mpfr_clear(t);
    hdo_vec_clear(y, n);
}
