/* svd.c -- tests of the Jacobi SVD, rank decisions, null spaces and
   minimum-norm least squares; expected values from exact rationals. */
#include <criterion/criterion.h>
#include "status.h"
#include "util.h"

/* log2 ||A - U diag(s) V^T||_F. */
static double
reconstruction_err_log2(const hdo_mat_t A, const hdo_mat_t U, mpfr_srcptr s,
                        const hdo_mat_t V)
{
    hdo_mat_t US, Vt, P;
    slong i, j;
    double d;
    hdo_mat_init(US, 0, 0, U->prec);
    hdo_mat_init(Vt, 0, 0, U->prec);
    hdo_mat_init(P, 0, 0, U->prec);
    hdo_mat_set(US, U);
    for (i = 0; i < US->rows; i++)
        for (j = 0; j < US->cols; j++)
            mpfr_mul(hdo_mat_entry(US, i, j), hdo_mat_entry(US, i, j), s + j,
                     MPFR_RNDN);
    hdo_mat_transpose(Vt, V);
    hdo_mat_mul(P, US, Vt);
    for (i = 0; i < P->rows * P->cols; i++)
        mpfr_sub(P->entries + i, P->entries + i, A->entries + i, MPFR_RNDN);
    d = mat_norm_log2(P);
    hdo_mat_clear(US);
    hdo_mat_clear(Vt);
    hdo_mat_clear(P);
    return d;
}

static void
svd_reconstruct(slong m, slong n, mpfr_prec_t prec, ulong seed)
{
    flint_rand_t st;
    fmpq_mat_t Q;
    hdo_mat_t A, U, V;
    slong k = FLINT_MIN(m, n), i;
    mpfr_ptr s;
    double e;

    flint_randinit(st);
    flint_randseed(st, seed, seed + 11);
    fmpq_mat_init(Q, m, n);
    fmpq_mat_random(Q, st, 8);
    hdo_mat_init(A, 0, 0, prec);
    hdo_mat_init(U, 0, 0, prec);
    hdo_mat_init(V, 0, 0, prec);
    s = hdo_vec_init(k, prec);
    mat_from_fmpq(A, Q);
    cr_assert_eq(hdo_svd(s, U, V, A), 0);
    cr_assert_eq(U->rows, m);
    cr_assert_eq(U->cols, k);
    cr_assert_eq(V->rows, n);
    cr_assert_eq(V->cols, k);
    for (i = 0; i + 1 < k; i++)
        cr_assert(mpfr_cmp(s + i, s + i + 1) >= 0, "not decreasing");
    cr_assert(mpfr_sgn(s + k - 1) >= 0);
    /* Entries are below 2^8 in size, so ||A|| < 2^12: the errors must be
       within a few bits of 2^-prec relative to that. */
    e = reconstruction_err_log2(A, U, s, V);
    cr_assert(e < 12 - (double)prec + 10, "%ldx%ld prec %ld: reconstr 2^%g",
              (long)m, (long)n, (long)prec, e);
    e = orth_err_log2(U);
    cr_assert(e < -(double)prec + 10, "U orth 2^%g", e);
    e = orth_err_log2(V);
    cr_assert(e < -(double)prec + 10, "V orth 2^%g", e);
    hdo_vec_clear(s, k);
    hdo_mat_clear(A);
    hdo_mat_clear(U);
    hdo_mat_clear(V);
    fmpq_mat_clear(Q);
    flint_randclear(st);
}

Test(linalg, svd_reconstruct_tall_100)
{
    svd_reconstruct(9, 5, 100, 1);
}
Test(linalg, svd_reconstruct_wide_100)
{
    svd_reconstruct(4, 9, 100, 2);
}
Test(linalg, svd_reconstruct_square_100)
{
    svd_reconstruct(7, 7, 100, 3);
}
Test(linalg, svd_reconstruct_tall_1000)
{
    svd_reconstruct(8, 6, 1000, 4);
}
Test(linalg, svd_reconstruct_wide_1000)
{
    svd_reconstruct(5, 8, 1000, 5);
}

/* H = I - 2 v v^T / (v^T v): an exactly orthogonal rational matrix. */
static void
householder(fmpq_mat_t H, const slong *v, slong n)
{
    slong i, j, vv = 0;
    fmpq_t t;
    fmpq_init(t);
    for (i = 0; i < n; i++)
        vv += v[i] * v[i];
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            fmpq_set_si(t, -2 * v[i] * v[j], vv);
            if (i == j)
                fmpq_add_si(t, t, 1);
            fmpq_set(fmpq_mat_entry(H, i, j), t);
        }
    fmpq_clear(t);
}

/* Q := H1 D H2^T with D (m x n) diagonal d[0..min(m,n)), exactly. */
static void
known_sv_matrix(fmpq_mat_t Q, slong m, slong n, const fmpq *d, const slong *v1,
                const slong *v2)
{
    fmpq_mat_t H1, H2, D, T;
    slong i;
    fmpq_mat_init(H1, m, m);
    fmpq_mat_init(H2, n, n);
    fmpq_mat_init(D, m, n);
    fmpq_mat_init(T, m, n);
    householder(H1, v1, m);
    householder(H2, v2, n);
    for (i = 0; i < FLINT_MIN(m, n); i++)
        fmpq_set(fmpq_mat_entry(D, i, i), d + i);
    fmpq_mat_mul(T, H1, D);
    fmpq_mat_transpose(H2, H2); /* symmetric anyway, kept for clarity */
    fmpq_mat_mul(Q, T, H2);
    fmpq_mat_clear(H1);
    fmpq_mat_clear(H2);
    fmpq_mat_clear(D);
    fmpq_mat_clear(T);
}

/* Singular values 7, 3, 1, 1/2, 1/1000 of a 6x5 and (transposed shape)
   5x6 matrix, given unsorted to the construction. */
static void
known_sv(slong m, slong n, mpfr_prec_t prec)
{
    const slong num[5] = {1, 7, 1, 3, 1}, den[5] = {2, 1, 1000, 1, 1};
    const slong sorted_num[5] = {7, 3, 1, 1, 1},
                sorted_den[5] = {1, 1, 1, 2, 1000};
    const slong v1[6] = {1, -2, 3, 1, 4, -1}, v2[6] = {2, 1, -1, 3, 1, 5};
    fmpq d[5];
    fmpq_mat_t Q, S;
    hdo_mat_t A;
    mpfr_ptr s;
    slong i;
    double e;

    for (i = 0; i < 5; i++) {
        fmpq_init(d + i);
        fmpq_set_si(d + i, num[i], den[i]);
    }
    fmpq_mat_init(Q, m, n);
    fmpq_mat_init(S, 5, 1);
    for (i = 0; i < 5; i++)
        fmpq_set_si(fmpq_mat_entry(S, i, 0), sorted_num[i], sorted_den[i]);
    known_sv_matrix(Q, m, n, d, v1, v2);
    hdo_mat_init(A, 0, 0, prec);
    mat_from_fmpq(A, Q);
    s = hdo_vec_init(5, prec);
    cr_assert_eq(hdo_svd(s, NULL, NULL, A), 0);
    e = vec_rel_err_log2(s, S, 0, prec);
    cr_assert(e < -(double)prec + 8, "prec %ld: sv err 2^%g", (long)prec, e);
    hdo_vec_clear(s, 5);
    hdo_mat_clear(A);
    fmpq_mat_clear(Q);
    fmpq_mat_clear(S);
    for (i = 0; i < 5; i++)
        fmpq_clear(d + i);
}

Test(linalg, svd_known_values_tall_100)
{
    known_sv(6, 5, 100);
}
Test(linalg, svd_known_values_wide_100)
{
    known_sv(5, 6, 100);
}
Test(linalg, svd_known_values_tall_1000)
{
    known_sv(6, 5, 1000);
}

/* A = B C with B 5x3 and C 3x4 random rationals has rank exactly 3; at
   100 digits the fourth singular value is rounding of the data, about
   1e-100 relative, so the gap spans more than 60 decades. */
Test(linalg, rank_deficient_5x4)
{
    flint_rand_t st;
    fmpq_mat_t QB, QC, QA;
    hdo_mat_t A, Z, T, P, Zt;
    hdo_rank_info info;
    mpfr_prec_t prec = bits_for_digits(100);

    flint_randinit(st);
    fmpq_mat_init(QB, 5, 3);
    fmpq_mat_init(QC, 3, 4);
    fmpq_mat_init(QA, 5, 4);
    fmpq_mat_random(QB, st, 10);
    fmpq_mat_random(QC, st, 10);
    fmpq_mat_mul(QA, QB, QC);
    {
        /* Exact check of the premise. */
        fmpq_mat_t R;
        fmpq_mat_init(R, 5, 4);
        cr_assert_eq(fmpq_mat_rref(R, QA), 3);
        fmpq_mat_clear(R);
    }
    hdo_mat_init(A, 0, 0, prec);
    mat_from_fmpq(A, QA);
    cr_assert_eq(hdo_rank(&info, A), 0);
    cr_assert_eq(info.rank, 3);
    cr_assert(info.clear);
    cr_assert(info.log10_gap > 60, "gap 1e%g", info.log10_gap);
    cr_assert(info.log10_first_dropped < -60);

    /* Null spaces: Z^T A = 0 (Z 5x2), A T = 0 (T 4x1), orthonormal. */
    hdo_mat_init(Z, 0, 0, prec);
    hdo_mat_init(T, 0, 0, prec);
    hdo_mat_init(P, 0, 0, prec);
    hdo_mat_init(Zt, 0, 0, prec);
    cr_assert_eq(hdo_left_null(Z, A, info.rank), 0);
    cr_assert_eq(Z->rows, 5);
    cr_assert_eq(Z->cols, 2);
    hdo_mat_transpose(Zt, Z);
    hdo_mat_mul(P, Zt, A);
    cr_assert(mat_norm_log2(P) < -(double)prec + 40, "Z^T A 2^%g",
              mat_norm_log2(P));
    cr_assert(orth_err_log2(Z) < -(double)prec + 10);
    cr_assert_eq(hdo_right_null(T, A, info.rank), 0);
    cr_assert_eq(T->rows, 4);
    cr_assert_eq(T->cols, 1);
    hdo_mat_mul(P, A, T);
    cr_assert(mat_norm_log2(P) < -(double)prec + 40, "A T 2^%g",
              mat_norm_log2(P));
    cr_assert(orth_err_log2(T) < -(double)prec + 10);

    /* The wide transpose (4x5, rank 3): right null space 5x2. */
    hdo_mat_transpose(Zt, A);
    cr_assert_eq(hdo_rank(&info, Zt), 0);
    cr_assert_eq(info.rank, 3);
    cr_assert_eq(hdo_right_null(T, Zt, 3), 0);
    cr_assert_eq(T->rows, 5);
    cr_assert_eq(T->cols, 2);
    hdo_mat_mul(P, Zt, T);
    cr_assert(mat_norm_log2(P) < -(double)prec + 40);
    cr_assert(orth_err_log2(T) < -(double)prec + 10);

    hdo_mat_clear(A);
    hdo_mat_clear(Z);
    hdo_mat_clear(T);
    hdo_mat_clear(P);
    hdo_mat_clear(Zt);
    fmpq_mat_clear(QA);
    fmpq_mat_clear(QB);
    fmpq_mat_clear(QC);
    flint_randclear(st);
}

/* Singular values 3, 2, 1e-10 (and 0 in the 4x4 case) at 100 digits:
   1e-10 is far above the threshold 2^(-3/4 prec) ~ 1e-75 and above the
   certainty bound 2^(-prec/2) ~ 1e-50, so rank 3 is clear; 1e-60 is kept
   but the decision is not clear-cut. */
static void
small_sv_case(slong n, slong third_num, slong third_den_exp10, slong want_rank,
              int want_clear, double want_gap_min)
{
    const slong v1[4] = {1, 2, -1, 3}, v2[4] = {3, -1, 1, 1};
    fmpq d[4];
    fmpq_mat_t Q;
    hdo_mat_t A;
    hdo_rank_info info;
    fmpz_t p;
    slong i;
    mpfr_prec_t prec = bits_for_digits(100);

    fmpz_init(p);
    for (i = 0; i < 4; i++)
        fmpq_init(d + i);
    fmpq_set_si(d + 0, 3, 1);
    fmpq_set_si(d + 1, 2, 1);
    fmpz_set_ui(p, 10);
    fmpz_pow_ui(p, p, third_den_exp10);
    fmpq_set_si(d + 2, third_num, 1);
    fmpq_div_fmpz(d + 2, d + 2, p);
    fmpq_mat_init(Q, n, n);
    known_sv_matrix(Q, n, n, d, v1, v2);
    hdo_mat_init(A, 0, 0, prec);
    mat_from_fmpq(A, Q);
    cr_assert_eq(hdo_rank(&info, A), 0);
    cr_assert_eq(info.rank, want_rank);
    cr_assert_eq(info.clear, want_clear);
    cr_assert(info.log10_gap > want_gap_min, "gap 1e%g", info.log10_gap);
    if (want_rank == 3)
        cr_assert(fabs(info.log10_last_kept + (double)third_den_exp10) < 1e-9,
                  "last kept 1e%g", info.log10_last_kept);
    hdo_mat_clear(A);
    fmpq_mat_clear(Q);
    for (i = 0; i < 4; i++)
        fmpq_clear(d + i);
    fmpz_clear(p);
}

Test(linalg, rank_small_sv_full_rank)
{
    small_sv_case(3, 1, 10, 3, 1, 1e300); /* no dropped value: gap inf */
}
Test(linalg, rank_small_sv_with_zero)
{
    small_sv_case(4, 1, 10, 3, 1, 60);
}
Test(linalg, rank_ambiguous_not_clear)
{
    small_sv_case(3, 1, 60, 3, 0, 1e300);
}

/* Minimum-norm least squares against the exact pseudo-inverse.  For a
   full-rank factorisation A = B C (B m x r, C r x n):
   A^+ = C^T (C C^T)^-1 (B^T B)^-1 B^T; with B = I this is the full row
   rank formula x = A^T (A A^T)^-1 b. */
static void
lstsq_case(slong m, slong n, slong r, int identity_b, long digits, ulong seed)
{
    flint_rand_t st;
    fmpq_mat_t QB, QC, QA, Qb, Qx, Bt, Ct, BtB, CCt, T1, T2, T3;
    hdo_mat_t A;
    mpfr_ptr b, x;
    mpfr_prec_t prec = bits_for_digits(digits);
    slong i;
    double e;

    flint_randinit(st);
    flint_randseed(st, seed, 3 * seed + 5);
    fmpq_mat_init(QB, m, r);
    fmpq_mat_init(QC, r, n);
    fmpq_mat_init(QA, m, n);
    fmpq_mat_init(Qb, m, 1);
    fmpq_mat_init(Qx, n, 1);
    fmpq_mat_init(Bt, r, m);
    fmpq_mat_init(Ct, n, r);
    fmpq_mat_init(BtB, r, r);
    fmpq_mat_init(CCt, r, r);
    fmpq_mat_init(T1, r, 1);
    fmpq_mat_init(T2, r, 1);
    fmpq_mat_init(T3, r, 1);
    if (identity_b)
        fmpq_mat_one(QB);
    else
        fmpq_mat_random(QB, st, 6);
    fmpq_mat_random(QC, st, 6);
    fmpq_mat_random(Qb, st, 6);
    fmpq_mat_mul(QA, QB, QC);
    fmpq_mat_transpose(Bt, QB);
    fmpq_mat_transpose(Ct, QC);
    fmpq_mat_mul(BtB, Bt, QB);
    fmpq_mat_mul(CCt, QC, Ct);
    fmpq_mat_mul(T1, Bt, Qb);
    cr_assert(fmpq_mat_solve_fraction_free(T2, BtB, T1));
    cr_assert(fmpq_mat_solve_fraction_free(T3, CCt, T2));
    fmpq_mat_mul(Qx, Ct, T3);

    hdo_mat_init(A, 0, 0, prec);
    mat_from_fmpq(A, QA);
    b = hdo_vec_init(m, prec);
    x = hdo_vec_init(n, prec);
    for (i = 0; i < m; i++)
        fmpq_get_mpfr(b + i, fmpq_mat_entry(Qb, i, 0), MPFR_RNDN);
    cr_assert_eq(hdo_lstsq(x, A, b, -1), 0);
    e = vec_rel_err_log2(x, Qx, 0, prec);
    cr_assert(e < -(double)prec + 40, "%ldx%ld rank %ld: err 2^%g", (long)m,
              (long)n, (long)r, e);
    hdo_vec_clear(b, m);
    hdo_vec_clear(x, n);
    hdo_mat_clear(A);
    fmpq_mat_clear(QB);
    fmpq_mat_clear(QC);
    fmpq_mat_clear(QA);
    fmpq_mat_clear(Qb);
    fmpq_mat_clear(Qx);
    fmpq_mat_clear(Bt);
    fmpq_mat_clear(Ct);
    fmpq_mat_clear(BtB);
    fmpq_mat_clear(CCt);
    fmpq_mat_clear(T1);
    fmpq_mat_clear(T2);
    fmpq_mat_clear(T3);
    flint_randclear(st);
}

Test(linalg, lstsq_full_row_rank)
{
    lstsq_case(3, 5, 3, 1, 50, 1);
}
Test(linalg, lstsq_full_col_rank)
{
    lstsq_case(6, 4, 4, 0, 50, 2);
}
Test(linalg, lstsq_rank_deficient)
{
    lstsq_case(5, 6, 2, 0, 100, 3);
}
Test(linalg, lstsq_rank_deficient_300)
{
    lstsq_case(7, 5, 3, 0, 300, 4);
}

/* Degenerate shapes: the zero matrix has rank 0, singular values 0 and
   still orthonormal U and V (completed from unit vectors); an empty
   matrix has rank 0 and a full right null space. */
Test(linalg, svd_zero_and_empty)
{
    hdo_mat_t A, U, V, T;
    hdo_rank_info info;
    mpfr_ptr s = hdo_vec_init(2, 100);

    hdo_mat_init(A, 3, 2, 100);
    hdo_mat_init(U, 0, 0, 100);
    hdo_mat_init(V, 0, 0, 100);
    hdo_mat_init(T, 0, 0, 100);
    hdo_mat_zero(A);
    cr_assert_eq(hdo_svd(s, U, V, A), 0);
    cr_assert(mpfr_zero_p(s + 0) && mpfr_zero_p(s + 1));
    cr_assert(orth_err_log2(U) < -90);
    cr_assert(orth_err_log2(V) < -90);
    cr_assert_eq(hdo_rank(&info, A), 0);
    cr_assert_eq(info.rank, 0);
    cr_assert(info.clear);

    hdo_mat_resize(A, 0, 3);
    cr_assert_eq(hdo_rank(&info, A), 0);
    cr_assert_eq(info.rank, 0);
    cr_assert_eq(hdo_right_null(T, A, 0), 0);
    cr_assert_eq(T->rows, 3);
    cr_assert_eq(T->cols, 3);
    cr_assert(orth_err_log2(T) < -90);

    hdo_vec_clear(s, 2);
    hdo_mat_clear(A);
    hdo_mat_clear(U);
    hdo_mat_clear(V);
    hdo_mat_clear(T);
}
