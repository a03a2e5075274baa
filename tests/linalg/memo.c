/* memo.c -- the SVD and LU memos give hdo_svd's and hdo_lu_factor's
   bits, kept or not, and tell matrices that differ in one bit apart
   (decisions.md D-111). */
#include <criterion/criterion.h>
#include "util.h"

/* the same number, the sign of a zero included */
static int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_get_prec(a) != mpfr_get_prec(b))
        return 0;
    if (mpfr_nan_p(a) || mpfr_nan_p(b))
        return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

static int
same_mat(const hdo_mat_t A, const hdo_mat_t B)
{
    if (A->rows != B->rows || A->cols != B->cols || A->prec != B->prec)
        return 0;
    for (slong i = 0; i < A->rows * A->cols; i++)
        if (!same_bits(A->entries + i, B->entries + i))
            return 0;
    return 1;
}

/* A random m x n matrix at prec, about a third of its entries +0 or -0
   (the linear constraints' Jacobians are sparse). */
static void
random_mat(hdo_mat_t A, flint_rand_t st, slong m, slong n, mpfr_prec_t prec)
{
    fmpq_mat_t Q;
    fmpq_mat_init(Q, m, n);
    fmpq_mat_random(Q, st, 20);
    hdo_mat_init(A, m, n, prec);
    mat_from_fmpq(A, Q);
    for (slong i = 0; i < m * n; i++)
        if (n_randint(st, 3) == 0)
            mpfr_set_zero(A->entries + i, n_randint(st, 2) ? 1 : -1);
    fmpq_mat_clear(Q);
}

/* M[d] := M[a] one ulp up at (i, j); M[z] := M[b] with +0 at (i, j)
   where M[b] gets -0: the keys that differ in one bit. */
static void
near_pair(hdo_mat_t *M, int a, int d, int b, int z, slong i, slong j)
{
    hdo_mat_init(M[d], 0, 0, M[a]->prec);
    hdo_mat_set(M[d], M[a]);
    mpfr_nextabove(hdo_mat_entry(M[d], i, j));
    hdo_mat_init(M[z], 0, 0, M[b]->prec);
    hdo_mat_set(M[z], M[b]);
    mpfr_set_zero(hdo_mat_entry(M[z], i, j), 1);
    mpfr_set_zero(hdo_mat_entry(M[b], i, j), -1);
}

/* One call through the memo and one of hdo_svd on fresh outputs (U and V
   wanted or not, outputs at precisions ps, pu, pv): the same status and
   bits. */
static void
check_one(hdo_svd_memo *memo, const hdo_mat_t A, int wu, int wv, mpfr_prec_t ps,
          mpfr_prec_t pu, mpfr_prec_t pv)
{
    slong k = FLINT_MIN(A->rows, A->cols);
    mpfr_ptr s1 = hdo_vec_init(k, ps), s2 = hdo_vec_init(k, ps);
    hdo_mat_t U1, U2, V1, V2;
    hdo_mat_init(U1, 1, 1, pu);
    hdo_mat_init(U2, 1, 1, pu);
    hdo_mat_init(V1, 1, 1, pv);
    hdo_mat_init(V2, 1, 1, pv);
    int st1 = hdo_svd_memo_get(memo, s1, wu ? U1 : NULL, wv ? V1 : NULL, A);
    int st2 = hdo_svd(s2, wu ? U2 : NULL, wv ? V2 : NULL, A);
    cr_assert_eq(st1, st2);
    for (slong j = 0; j < k; j++)
        cr_assert(same_bits(s1 + j, s2 + j), "s_%ld differs", (long)j);
    if (wu)
        cr_assert(same_mat(U1, U2), "U differs");
    if (wv)
        cr_assert(same_mat(V1, V2), "V differs");
    hdo_vec_clear(s1, k);
    hdo_vec_clear(s2, k);
    hdo_mat_clear(U1);
    hdo_mat_clear(U2);
    hdo_mat_clear(V1);
    hdo_mat_clear(V2);
}

/* 400 calls on 6 matrices (tall, wide, square; one a bit away from
   another, one with a zero of the other sign), U and V wanted or not,
   each output at A->prec or 16 bits more, each call made twice (the
   second finds the first's result kept, unless a call between replaced
   it): more keys than the memo holds, so entries are replaced. */
Test(linalg, svd_memo_same_bits)
{
    flint_rand_t st;
    flint_randinit(st);
    hdo_mat_t M[6];
    random_mat(M[0], st, 3, 5, 133);
    random_mat(M[1], st, 5, 3, 133);
    random_mat(M[2], st, 4, 4, 133);
    random_mat(M[3], st, 4, 4, 200);
    near_pair(M, 2, 4, 0, 5, 1, 2);
    hdo_svd_memo *memo = hdo_svd_memo_new();
    for (int trial = 0; trial < 200; trial++) {
        const hdo_mat_struct *A = M[n_randint(st, 6)];
        int wu = n_randint(st, 2), wv = n_randint(st, 2);
        mpfr_prec_t ps = A->prec + 16 * n_randint(st, 2),
                    pu = A->prec + 16 * n_randint(st, 2),
                    pv = A->prec + 16 * n_randint(st, 2);
        check_one(memo, A, wu, wv, ps, pu, pv);
        check_one(memo, A, wu, wv, ps, pu, pv);
    }
    unsigned long hits, misses;
    hdo_svd_memo_counts(&hits, &misses, memo);
    cr_assert(hits >= 200 && misses > HDO_SVD_MEMO_SIZE,
              "hits %lu, misses %lu: the memo was not exercised", hits, misses);
    hdo_svd_memo_free(memo);
    for (int i = 0; i < 6; i++)
        hdo_mat_clear(M[i]);
    flint_randclear(st);
}

/* A matrix one ulp away from a kept one is factored anew: its SVD is
   not the kept one's (checked to differ, so that the test can tell). */
Test(linalg, svd_memo_tells_close_matrices_apart)
{
    flint_rand_t st;
    flint_randinit(st);
    hdo_mat_t A, B, U0, U1, U2;
    random_mat(A, st, 4, 3, 133);
    hdo_mat_init(B, 0, 0, 133);
    hdo_mat_set(B, A);
    mpfr_nextabove(hdo_mat_entry(B, 3, 1));
    mpfr_ptr s0 = hdo_vec_init(3, 133), s1 = hdo_vec_init(3, 133),
             s2 = hdo_vec_init(3, 133);
    hdo_mat_init(U0, 1, 1, 133);
    hdo_mat_init(U1, 1, 1, 133);
    hdo_mat_init(U2, 1, 1, 133);
    hdo_svd_memo *memo = hdo_svd_memo_new();
    cr_assert_eq(hdo_svd_memo_get(memo, s0, U0, NULL, A), 0);
    cr_assert_eq(hdo_svd_memo_get(memo, s1, U1, NULL, B), 0);
    cr_assert_eq(hdo_svd(s2, U2, NULL, B), 0);
    cr_assert(same_mat(U1, U2));
    int differ = !same_mat(U0, U2);
    for (slong j = 0; j < 3; j++) {
        cr_assert(same_bits(s1 + j, s2 + j));
        differ |= !same_bits(s0 + j, s2 + j);
    }
    cr_assert(differ, "the two SVDs agree: the test cannot tell");
    unsigned long hits, misses;
    hdo_svd_memo_counts(&hits, &misses, memo);
    cr_assert(hits == 0 && misses == 2);
    hdo_svd_memo_free(memo);
    hdo_vec_clear(s0, 3);
    hdo_vec_clear(s1, 3);
    hdo_vec_clear(s2, 3);
    hdo_mat_clear(A);
    hdo_mat_clear(B);
    hdo_mat_clear(U0);
    hdo_mat_clear(U1);
    hdo_mat_clear(U2);
    flint_randclear(st);
}

/* The least squares, the rank and the left null space through one memo,
   each twice, with the plain functions' bits. */
Test(linalg, svd_memo_lstsq_rank_null_same_bits)
{
    flint_rand_t st;
    flint_randinit(st);
    hdo_svd_memo *memo = hdo_svd_memo_new();
    for (int trial = 0; trial < 40; trial++) {
        slong m = 2 + n_randint(st, 4), n = 2 + n_randint(st, 4);
        hdo_mat_t A, Z1, Z2;
        random_mat(A, st, m, n, 133);
        mpfr_ptr b = hdo_vec_init(m, 133), x1 = hdo_vec_init(n, 133),
                 x2 = hdo_vec_init(n, 133);
        for (slong i = 0; i < m; i++)
            mpfr_set_si_2exp(b + i, (long)n_randint(st, 2001) - 1000, -7,
                             MPFR_RNDN);
        hdo_mat_init(Z1, 1, 1, 133);
        hdo_mat_init(Z2, 1, 1, 133);
        for (int again = 0; again < 2; again++) {
            hdo_rank_info i1, i2;
            cr_assert_eq(hdo_rank_memo(&i1, A, memo), hdo_rank(&i2, A));
            cr_assert_eq(i1.rank, i2.rank);
            slong r3;
            cr_assert_eq(hdo_rank_count_memo(&r3, A, memo), 0);
            cr_assert_eq(r3, i2.rank);
            cr_assert_eq(hdo_lstsq_memo(x1, A, b, -1, memo),
                         hdo_lstsq(x2, A, b, -1));
            for (slong j = 0; j < n; j++)
                cr_assert(same_bits(x1 + j, x2 + j));
            cr_assert_eq(hdo_left_null_memo(Z1, A, i2.rank, memo),
                         hdo_left_null(Z2, A, i2.rank));
            cr_assert(same_mat(Z1, Z2));
        }
        hdo_vec_clear(b, m);
        hdo_vec_clear(x1, n);
        hdo_vec_clear(x2, n);
        hdo_mat_clear(A);
        hdo_mat_clear(Z1);
        hdo_mat_clear(Z2);
    }
    unsigned long hits, misses;
    hdo_svd_memo_counts(&hits, &misses, memo);
    cr_assert(hits >= 120, "hits %lu", hits);
    hdo_svd_memo_free(memo);
    flint_randclear(st);
}

/* The LU memo: the factors and permutation of hdo_lu_factor, kept or
   not, over 200 calls on 6 matrices (one a bit away from another, one
   with a zero of the other sign, one singular), each made twice. */
Test(linalg, lu_memo_same_bits)
{
    flint_rand_t st;
    flint_randinit(st);
    hdo_mat_t M[6];
    for (int i = 0; i < 3; i++)
        random_mat(M[i], st, 3 + i, 3 + i, 133);
    near_pair(M, 1, 3, 0, 4, 2, 0);
    hdo_mat_init(M[5], 3, 3, 133);
    hdo_mat_zero(M[5]); /* singular: never kept */
    hdo_lu_memo *memo = hdo_lu_memo_new();
    slong p1[8], p2[8];
    int differ = 0;
    for (int trial = 0; trial < 200; trial++) {
        int i = n_randint(st, 6);
        for (int again = 0; again < 2; again++) {
            hdo_mat_t A1, A2;
            hdo_mat_init(A1, 0, 0, 133);
            hdo_mat_init(A2, 0, 0, 133);
            hdo_mat_set(A1, M[i]);
            hdo_mat_set(A2, M[i]);
            cr_assert_eq(hdo_lu_factor_memo(memo, A1, p1),
                         hdo_lu_factor(A2, p2));
            cr_assert(same_mat(A1, A2), "factors of matrix %d differ", i);
            for (slong j = 0; j < A1->rows; j++)
                cr_assert_eq(p1[j], p2[j]);
            hdo_mat_clear(A1);
            hdo_mat_clear(A2);
        }
    }
    /* matrices 1 and 3 (one ulp apart) have different factors: a memo
       that mixed them up would fail above */
    hdo_mat_t A1, A3;
    hdo_mat_init(A1, 0, 0, 133);
    hdo_mat_init(A3, 0, 0, 133);
    hdo_mat_set(A1, M[1]);
    hdo_mat_set(A3, M[3]);
    hdo_lu_factor(A1, p1);
    hdo_lu_factor(A3, p2);
    differ = !same_mat(A1, A3);
    cr_assert(differ, "the two factorisations agree: the test cannot tell");
    unsigned long hits, misses;
    hdo_lu_memo_counts(&hits, &misses, memo);
    cr_assert(hits >= 100 && misses > HDO_LU_MEMO_SIZE, "hits %lu, misses %lu",
              hits, misses);
    hdo_lu_memo_free(memo);
    hdo_mat_clear(A1);
    hdo_mat_clear(A3);
    for (int i = 0; i < 6; i++)
        hdo_mat_clear(M[i]);
    flint_randclear(st);
}

/* A matrix above HDO_MEMO_MAX_ENTRIES is factored each time, never kept
   (the memory a memo holds); the results are hdo_svd's all the same. */
Test(linalg, svd_memo_leaves_large_matrices)
{
    flint_rand_t st;
    flint_randinit(st);
    hdo_mat_t A;
    slong n = 33; /* 33 x 33 = 1089 entries > 1024 */
    cr_assert_gt(n * n, HDO_MEMO_MAX_ENTRIES);
    random_mat(A, st, n, n, 64);
    hdo_svd_memo *memo = hdo_svd_memo_new();
    check_one(memo, A, 0, 0, 64, 64, 64);
    check_one(memo, A, 0, 0, 64, 64, 64);
    unsigned long hits, misses;
    hdo_svd_memo_counts(&hits, &misses, memo);
    cr_assert(hits == 0 && misses == 0, "hits %lu, misses %lu", hits, misses);
    hdo_svd_memo_free(memo);
    hdo_mat_clear(A);
    flint_randclear(st);
}
