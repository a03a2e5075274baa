/* lstsq.c -- minimum-norm least-squares solutions through the SVD */
#include "linalg.h"
#include "status.h"

int
hdo_lstsq(mpfr_ptr x, const hdo_mat_t A, mpfr_srcptr b, slong rank)
{
    return hdo_lstsq_memo(x, A, b, rank, NULL);
}

int
hdo_lstsq_memo(mpfr_ptr x, const hdo_mat_t A, mpfr_srcptr b, slong rank,
               hdo_svd_memo *memo)
{
    slong m = A->rows, n = A->cols, k = FLINT_MIN(m, n), i, j;
    mpfr_prec_t wp = A->prec + 16;
    hdo_mat_t U, V;
    mpfr_ptr s, acc;
    mpfr_t c, t;
    int status;

    hdo_mat_init(U, m, k, wp);
    hdo_mat_init(V, n, k, wp);
    s = hdo_vec_init(k, wp);
    status = hdo_svd_memo_get(memo, s, U, V, A);
    if (rank < 0)
        rank = hdo_rank_count(s, k, A->prec);
    HDO_ASSERT(rank <= k);
    /* x = sum over kept i of v_i (u_i . b) / s_i: the component of the
       solution in the dropped directions is zero, hence minimum norm. */
    acc = hdo_vec_init(n, wp);
    mpfr_inits2(wp, c, t, (mpfr_ptr)0);
    for (i = 0; i < rank; i++) {
        mpfr_set_zero(c, 1);
        for (j = 0; j < m; j++) {
            mpfr_mul(t, hdo_mat_entry(U, j, i), b + j, MPFR_RNDN);
            mpfr_add(c, c, t, MPFR_RNDN);
        }
        mpfr_div(c, c, s + i, MPFR_RNDN);
        for (j = 0; j < n; j++)
            mpfr_fma(acc + j, c, hdo_mat_entry(V, j, i), acc + j, MPFR_RNDN);
    }
    hdo_vec_set(x, acc, n);
    mpfr_clears(c, t, (mpfr_ptr)0);
    hdo_vec_clear(acc, n);
    hdo_vec_clear(s, k);
    hdo_mat_clear(V);
    hdo_mat_clear(U);
    return status;
}
