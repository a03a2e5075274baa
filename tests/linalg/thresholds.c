/* thresholds.c -- the rank and pivot thresholds of docs/decisions.md D-023 at
   their boundaries, and the SVD's non-convergence provoked on purpose.

   Expected values are exact: matrices Q diag(s) Q^T with a rational
   orthogonal Q and powers of two s are formed in exact rational
   arithmetic (FLINT fmpq_mat) and rounded once, so their singular values
   are s up to 2^-p s_1; each s sits a factor 2 above or below a
   threshold, a margin of 2^(p/4) over that rounding at the drop
   threshold.  Moving the drop threshold from 2^(-3p/4) to 2^(-2p/3)
   (or to 2^(-4p/5)) makes rank_drop_threshold_* fail, for every p
   tested above 12 bits. */
#include <limits.h>
#include <criterion/criterion.h>
#include "status.h"
#include "util.h"
#include "../../ref/linalg/internal.h"

static void
free_caches(void)
{
    flint_cleanup();
    mpfr_free_cache();
}
TestSuite(linalg_thresholds, .fini = free_caches);

static const mpfr_prec_t precs[] = {64, 100, 133, 200, 333, 1000};
#define NPRECS (sizeof precs / sizeof *precs)

/* q := 2^e exactly. */
static void
fmpq_pow2(fmpq_t q, slong e)
{
    fmpq_one(q);
    if (e >= 0)
        fmpq_mul_2exp(q, q, (ulong)e);
    else
        fmpq_div_2exp(q, q, (ulong)-e);
}

/* A := Q diag(2^e[0], 2^e[1], 2^e[2]) Q^T rounded at A's precision, Q the
   rational rotation R01(3/5, 4/5) R12(5/13, 12/13); e[i] = LONG_MIN
   stands for a zero singular value. */
static void
mat_with_sv(hdo_mat_t A, const slong e[3])
{
    fmpq_mat_t Q, D, T, M;
    fmpq_mat_init(Q, 3, 3);
    fmpq_mat_init(D, 3, 3);
    fmpq_mat_init(T, 3, 3);
    fmpq_mat_init(M, 3, 3);
    /* R01 R12 = [[3/5, -4/5 * 5/13, 4/5 * 12/13], ...] computed exactly */
    fmpq_mat_t R1, R2;
    fmpq_mat_init(R1, 3, 3);
    fmpq_mat_init(R2, 3, 3);
    fmpq_mat_one(R1);
    fmpq_mat_one(R2);
    fmpq_set_si(fmpq_mat_entry(R1, 0, 0), 3, 5);
    fmpq_set_si(fmpq_mat_entry(R1, 0, 1), -4, 5);
    fmpq_set_si(fmpq_mat_entry(R1, 1, 0), 4, 5);
    fmpq_set_si(fmpq_mat_entry(R1, 1, 1), 3, 5);
    fmpq_set_si(fmpq_mat_entry(R2, 1, 1), 5, 13);
    fmpq_set_si(fmpq_mat_entry(R2, 1, 2), -12, 13);
    fmpq_set_si(fmpq_mat_entry(R2, 2, 1), 12, 13);
    fmpq_set_si(fmpq_mat_entry(R2, 2, 2), 5, 13);
    fmpq_mat_mul(Q, R1, R2);
    for (int i = 0; i < 3; i++)
        if (e[i] != LONG_MIN)
            fmpq_pow2(fmpq_mat_entry(D, i, i), e[i]);
    fmpq_mat_mul(T, Q, D);
    fmpq_mat_transpose(M, Q);
    fmpq_mat_mul(D, T, M);
    mat_from_fmpq(A, D);
    fmpq_mat_clear(R1);
    fmpq_mat_clear(R2);
    fmpq_mat_clear(Q);
    fmpq_mat_clear(D);
    fmpq_mat_clear(T);
    fmpq_mat_clear(M);
}

static void
rank_of(hdo_rank_info *info, mpfr_prec_t p, const slong e[3])
{
    hdo_mat_t A;
    hdo_mat_init(A, 3, 3, p);
    mat_with_sv(A, e);
    cr_assert_eq(hdo_rank(info, A), 0);
    hdo_mat_clear(A);
}

/* s_1 = 2^20 > 1, so the threshold is 2^(-3p/4) s_1: s_2 twice it is
   kept, s_3 half of it dropped. */
Test(linalg_thresholds, rank_drop_threshold_relative)
{
    for (size_t i = 0; i < NPRECS; i++) {
        mpfr_prec_t p = precs[i];
        slong q = (slong)(p * 3 / 4);
        slong e[3] = {20, 20 - q + 1, 20 - q - 1};
        hdo_rank_info info;
        rank_of(&info, p, e);
        cr_assert_eq(info.rank, 2, "prec %ld: rank %ld", (long)p,
                     (long)info.rank);
        /* the decision rests on s_2 and s_3: their ratio is 4 (up to the
           rounding of A, 2^(-p/4) relative at p = 64) */
        cr_assert_float_eq(info.log10_gap, log10(4.0), 1e-3,
                           "prec %ld: gap %g (kept %g, dropped %g)", (long)p,
                           info.log10_gap, info.log10_last_kept,
                           info.log10_first_dropped);
        /* s_2 lies below 2^(-p/2) s_1: kept, but not clear-cut */
        cr_assert_eq(info.clear, 0, "prec %ld", (long)p);
    }
}

/* s_1 = 2^-20 < 1: the threshold is absolute, 2^(-3p/4) (max(1, s_1)). */
Test(linalg_thresholds, rank_drop_threshold_absolute_below_one)
{
    for (size_t i = 0; i < NPRECS; i++) {
        mpfr_prec_t p = precs[i];
        slong q = (slong)(p * 3 / 4);
        slong e[3] = {-20, -q + 1, -q - 1};
        hdo_rank_info info;
        rank_of(&info, p, e);
        cr_assert_eq(info.rank, 2, "prec %ld: rank %ld", (long)p,
                     (long)info.rank);
    }
}

/* The clear-cut band: a kept value above 2^(-p/2) max(1, s_1) is clear,
   one below it (but above the drop threshold) is not; with an exact zero
   singular value as the dropped one. */
Test(linalg_thresholds, rank_clear_threshold)
{
    for (size_t i = 0; i < NPRECS; i++) {
        mpfr_prec_t p = precs[i];
        slong h = (slong)(p / 2);
        hdo_rank_info info;
        slong above[3] = {0, -h + 1, LONG_MIN};
        rank_of(&info, p, above);
        cr_assert_eq(info.rank, 2, "prec %ld", (long)p);
        cr_assert_eq(info.clear, 1, "prec %ld", (long)p);
        slong below[3] = {0, -h - 1, LONG_MIN};
        rank_of(&info, p, below);
        cr_assert_eq(info.rank, 2, "prec %ld", (long)p);
        cr_assert_eq(info.clear, 0, "prec %ld", (long)p);
        /* the same with s_1 = 2^30: the band scales with s_1 */
        slong big[3] = {30, 30 - h + 1, LONG_MIN};
        rank_of(&info, p, big);
        cr_assert_eq(info.rank, 2, "prec %ld", (long)p);
        cr_assert_eq(info.clear, 1, "prec %ld", (long)p);
    }
}

/* The exact boundary, on given singular values: s equal to the threshold
   2^(-floor(3p/4)) is dropped (the test is s > tol), the next number
   above it is kept. */
Test(linalg_thresholds, rank_drop_threshold_exact)
{
    for (size_t i = 0; i < NPRECS; i++) {
        mpfr_prec_t p = precs[i];
        mpfr_ptr s = hdo_vec_init(2, p);
        hdo_rank_info info;
        mpfr_set_ui(s, 1, MPFR_RNDN);
        mpfr_set_ui_2exp(s + 1, 1, -(long)(p * 3 / 4), MPFR_RNDN);
        hdo_rank_from_sv(&info, s, 2, p);
        cr_assert_eq(info.rank, 1, "prec %ld", (long)p);
        cr_assert_eq(hdo_rank_count(s, 2, p), 1, "prec %ld", (long)p);
        mpfr_nextabove(s + 1);
        hdo_rank_from_sv(&info, s, 2, p);
        cr_assert_eq(info.rank, 2, "prec %ld", (long)p);
        cr_assert_eq(hdo_rank_count(s, 2, p), 2, "prec %ld", (long)p);
        hdo_vec_clear(s, 2);
    }
}

/* LU refuses a pivot below 2^(-floor(p/2)) times the largest |entry|:
   at the threshold it is accepted, the next number below it refused;
   diag(2^10, 2^10 x) so that the threshold is seen to be relative. */
Test(linalg_thresholds, lu_pivot_threshold)
{
    for (size_t i = 0; i < NPRECS; i++) {
        mpfr_prec_t p = precs[i];
        hdo_mat_t A;
        slong perm[2];
        hdo_mat_init(A, 2, 2, p);
        for (int below = 0; below < 2; below++) {
            hdo_mat_zero(A);
            mpfr_set_ui_2exp(hdo_mat_entry(A, 0, 0), 1, 10, MPFR_RNDN);
            mpfr_set_ui_2exp(hdo_mat_entry(A, 1, 1), 1, 10 - (long)(p / 2),
                             MPFR_RNDN);
            if (below)
                mpfr_nextbelow(hdo_mat_entry(A, 1, 1));
            cr_assert_eq(hdo_lu_factor(A, perm), below ? HDO_ERR_SINGULAR : 0,
                         "prec %ld below %d", (long)p, below);
        }
        /* and a factor 2 on either side of it, with a full matrix */
        for (int below = 0; below < 2; below++) {
            /* [[1, 1], [1, 1 + x]]: the second pivot is x exactly */
            hdo_mat_zero(A);
            mpfr_set_ui(hdo_mat_entry(A, 0, 0), 1, MPFR_RNDN);
            mpfr_set_ui(hdo_mat_entry(A, 0, 1), 1, MPFR_RNDN);
            mpfr_set_ui(hdo_mat_entry(A, 1, 0), 1, MPFR_RNDN);
            mpfr_set_ui_2exp(hdo_mat_entry(A, 1, 1), 1,
                             -(long)(p / 2) + (below ? -1 : 1), MPFR_RNDN);
            mpfr_add_ui(hdo_mat_entry(A, 1, 1), hdo_mat_entry(A, 1, 1), 1,
                        MPFR_RNDN);
            cr_assert_eq(hdo_lu_factor(A, perm), below ? HDO_ERR_SINGULAR : 0,
                         "prec %ld below %d (full)", (long)p, below);
        }
        hdo_mat_clear(A);
    }
}

/* HDO_ERR_NO_CONVERGENCE on purpose: a generic 5 x 4 matrix needs a few
   Jacobi sweeps; with one sweep fewer than it needs the SVD reports
   non-convergence, with exactly that many it succeeds with the singular
   values of hdo_svd.  A diagonal
   matrix converges in one sweep (nothing to rotate). */
Test(linalg_thresholds, svd_no_convergence)
{
    flint_rand_t st;
    fmpq_mat_t Q;
    hdo_mat_t A;
    mpfr_prec_t p = 200;
    flint_randinit(st);
    fmpq_mat_init(Q, 5, 4);
    fmpq_mat_random(Q, st, 20);
    hdo_mat_init(A, 5, 4, p);
    mat_from_fmpq(A, Q);
    mpfr_ptr s = hdo_vec_init(4, p), s2 = hdo_vec_init(4, p);
    cr_assert_eq(hdo_svd(s, NULL, NULL, A), 0);
    cr_assert_eq(hdo_svd_sweeps(s2, NULL, NULL, A, 1), HDO_ERR_NO_CONVERGENCE);
    slong need = 1;
    while (need < 200 &&
           hdo_svd_sweeps(s2, NULL, NULL, A, need) == HDO_ERR_NO_CONVERGENCE)
        need++;
    /* a rotation sweep or more, then the sweep that rotates nothing */
    cr_assert(need >= 3 && need < 50, "sweeps needed: %ld", (long)need);
    cr_assert_eq(hdo_svd_sweeps(s2, NULL, NULL, A, need - 1),
                 HDO_ERR_NO_CONVERGENCE);
    cr_assert_eq(hdo_svd_sweeps(s2, NULL, NULL, A, need), 0);
    for (int i = 0; i < 4; i++)
        cr_assert(mpfr_equal_p(s + i, s2 + i), "s_%d differs", i);

    hdo_mat_resize(A, 3, 3);
    hdo_mat_zero(A);
    for (int i = 0; i < 3; i++)
        mpfr_set_ui(hdo_mat_entry(A, i, i), (ulong)(i + 1), MPFR_RNDN);
    cr_assert_eq(hdo_svd_sweeps(s2, NULL, NULL, A, 1), 0);
    cr_assert(mpfr_cmp_ui(s2, 3) == 0 && mpfr_cmp_ui(s2 + 2, 1) == 0);
    hdo_vec_clear(s, 4);
    hdo_vec_clear(s2, 4);
    hdo_mat_clear(A);
    fmpq_mat_clear(Q);
    flint_randclear(st);
}
