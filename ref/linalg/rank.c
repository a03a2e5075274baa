/* rank.c -- numerical rank decisions with their gap, and null spaces */
#include <math.h>
#include "linalg.h"
#include "status.h"

static double
log10_of(const mpfr_t x)
{
    double r;
    mpfr_t t;

    if (mpfr_zero_p(x))
        return -INFINITY;
    mpfr_init2(t, 53);
    mpfr_abs(t, x, MPFR_RNDN);
    mpfr_log10(t, t, MPFR_RNDN);
    r = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clear(t);
    return r;
}

/* The rank alone: the singular values above tol (hdo_rank_from_sv's
   count, by the same comparisons). */
slong
hdo_rank_count(mpfr_srcptr s, slong k, mpfr_prec_t prec)
{
    mpfr_t scale, tol;
    slong r = 0;

    mpfr_inits2(prec, scale, tol, (mpfr_ptr)0);
    mpfr_set_ui(scale, 1, MPFR_RNDN);
    if (k > 0 && mpfr_cmp(s, scale) > 0)
        mpfr_set(scale, s, MPFR_RNDN);
    mpfr_mul_2si(tol, scale, -(long)(prec * 3 / 4), MPFR_RNDN);
    while (r < k && mpfr_cmp(s + r, tol) > 0)
        r++;
    mpfr_clears(scale, tol, (mpfr_ptr)0);
    return r;
}

void
hdo_rank_from_sv(hdo_rank_info *info, mpfr_srcptr s, slong k, mpfr_prec_t prec)
{
    mpfr_t scale, sure;
    slong r = hdo_rank_count(s, k, prec);

    mpfr_inits2(prec, scale, sure, (mpfr_ptr)0);
    mpfr_set_ui(scale, 1, MPFR_RNDN);
    if (k > 0 && mpfr_cmp(s, scale) > 0)
        mpfr_set(scale, s, MPFR_RNDN);
    /* Kept values must stand a quarter of the digits above the drop
       threshold: a badly scaled but regular matrix (the bowed string's
       spatial discretisation, condition 1e12 at 133 bits) is then
       decided, while a value inside the band is refused. */
    mpfr_mul_2si(sure, scale, -(long)(prec / 2), MPFR_RNDN);

    info->rank = r;
    info->clear = (r == 0 || mpfr_cmp(s + r - 1, sure) > 0);

    /* For rank 0 the decision rests on the scale itself (1 or s_1). */
    if (r > 0) {
        info->last_kept = mpfr_get_d(s + r - 1, MPFR_RNDN);
        info->log10_last_kept = log10_of(s + r - 1);
    } else {
        info->last_kept = mpfr_get_d(scale, MPFR_RNDN);
        info->log10_last_kept = log10_of(scale);
    }
    if (r < k) {
        info->first_dropped = mpfr_get_d(s + r, MPFR_RNDN);
        info->log10_first_dropped = log10_of(s + r);
    } else {
        info->first_dropped = 0;
        info->log10_first_dropped = -INFINITY;
    }
    info->log10_gap = (r < k && !mpfr_zero_p(s + r))
                          ? info->log10_last_kept - info->log10_first_dropped
                          : INFINITY;
    mpfr_clears(scale, sure, (mpfr_ptr)0);
}

int
hdo_rank_count_memo(slong *rank, const hdo_mat_t A, hdo_svd_memo *memo)
{
    slong k = FLINT_MIN(A->rows, A->cols);
    mpfr_ptr s = hdo_vec_init(k, A->prec);
    int status = hdo_svd_memo_get(memo, s, NULL, NULL, A);
    *rank = hdo_rank_count(s, k, A->prec);
    hdo_vec_clear(s, k);
    return status;
}

int
hdo_rank(hdo_rank_info *info, const hdo_mat_t A)
{
    return hdo_rank_memo(info, A, NULL);
}

int
hdo_rank_memo(hdo_rank_info *info, const hdo_mat_t A, hdo_svd_memo *memo)
{
    slong k = FLINT_MIN(A->rows, A->cols);
    mpfr_ptr s = hdo_vec_init(k, A->prec);
    int status;

    status = hdo_svd_memo_get(memo, s, NULL, NULL, A);
    hdo_rank_from_sv(info, s, k, A->prec);
    hdo_vec_clear(s, k);
    return status;
}

static int
right_null(hdo_mat_t T, const hdo_mat_t A, slong rank, hdo_svd_memo *memo)
{
    slong m = A->rows, n = A->cols, i, j;
    hdo_mat_t B, V;
    mpfr_ptr s;
    int status;

    HDO_ASSERT(rank >= 0 && rank <= FLINT_MIN(m, n));
    /* A wide matrix is padded with zero rows so that V is square and
       holds the whole null space (the thin SVD would lack n - m
       directions). */
    hdo_mat_init(B, FLINT_MAX(m, n), n, A->prec);
    hdo_mat_zero(B);
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            mpfr_set(hdo_mat_entry(B, i, j), hdo_mat_entry(A, i, j), MPFR_RNDN);
    hdo_mat_init(V, n, n, A->prec);
    s = hdo_vec_init(n, A->prec);
    status = hdo_svd_memo_get(memo, s, NULL, V, B);
    hdo_mat_resize(T, n, n - rank);
    for (i = 0; i < n; i++)
        for (j = rank; j < n; j++)
            mpfr_set(hdo_mat_entry(T, i, j - rank), hdo_mat_entry(V, i, j),
                     MPFR_RNDN);
    hdo_vec_clear(s, n);
    hdo_mat_clear(V);
    hdo_mat_clear(B);
    return status;
}

int
hdo_right_null(hdo_mat_t T, const hdo_mat_t A, slong rank)
{
    return right_null(T, A, rank, NULL);
}

int
hdo_left_null(hdo_mat_t Z, const hdo_mat_t A, slong rank)
{
    return hdo_left_null_memo(Z, A, rank, NULL);
}

int
hdo_left_null_memo(hdo_mat_t Z, const hdo_mat_t A, slong rank,
                   hdo_svd_memo *memo)
{
    hdo_mat_t At;
    int status;

    hdo_mat_init(At, A->cols, A->rows, A->prec);
    hdo_mat_transpose(At, A);
    status = right_null(Z, At, rank, memo);
    hdo_mat_clear(At);
    return status;
}
