/* mat_lu.c -- tests of the matrix helpers and of LU solves against exact
   rational solutions (FLINT fmpq_mat). */
#include <criterion/criterion.h>
#include "status.h"
#include "util.h"

/* FLINT and MPFR keep caches of integers and constants alive until told;
   freeing them after each test keeps valgrind's leak report meaningful
   for hdo's own memory. */
static void
free_caches(void)
{
    flint_cleanup();
    mpfr_free_cache();
}
TestSuite(linalg, .fini = free_caches);

/* Products of small integer matrices are exact in MPFR, so they must
   equal FLINT's exact product bit for bit. */
Test(linalg, mul_transpose_exact)
{
    flint_rand_t st;
    fmpq_mat_t QA, QB, QC;
    hdo_mat_t A, B, C, At, Ct, E;
    slong i;

    flint_randinit(st);
    fmpq_mat_init(QA, 4, 3);
    fmpq_mat_init(QB, 3, 5);
    fmpq_mat_init(QC, 4, 5);
    for (i = 0; i < 12; i++)
        fmpq_set_si(QA->rows[i / 3] + i % 3, (slong)(n_randint(st, 201)) - 100,
                    1);
    for (i = 0; i < 15; i++)
        fmpq_set_si(QB->rows[i / 5] + i % 5, (slong)(n_randint(st, 201)) - 100,
                    1);
    fmpq_mat_mul(QC, QA, QB);
    hdo_mat_init(A, 0, 0, 64);
    hdo_mat_init(B, 0, 0, 64);
    hdo_mat_init(C, 7, 7, 64);
    hdo_mat_init(E, 0, 0, 64);
    hdo_mat_init(At, 0, 0, 64);
    hdo_mat_init(Ct, 0, 0, 64);
    mat_from_fmpq(A, QA);
    mat_from_fmpq(B, QB);
    mat_from_fmpq(E, QC);
    hdo_mat_mul(C, A, B);
    cr_assert_eq(C->rows, 4);
    cr_assert_eq(C->cols, 5);
    for (i = 0; i < 20; i++)
        cr_assert(mpfr_equal_p(C->entries + i, E->entries + i));
    hdo_mat_transpose(At, A);
    cr_assert_eq(At->rows, 3);
    for (i = 0; i < 12; i++)
        cr_assert(mpfr_equal_p(hdo_mat_entry(At, i % 3, i / 3),
                               hdo_mat_entry(A, i / 3, i % 3)));
    /* y = A x with x = column 2 of B must be column 2 of C. */
    {
        mpfr_ptr x = hdo_vec_init(3, 64), y = hdo_vec_init(4, 64);
        for (i = 0; i < 3; i++)
            mpfr_set(x + i, hdo_mat_entry(B, i, 2), MPFR_RNDN);
        hdo_mat_mul_vec(y, A, x);
        for (i = 0; i < 4; i++)
            cr_assert(mpfr_equal_p(y + i, hdo_mat_entry(E, i, 2)));
        hdo_vec_clear(x, 3);
        hdo_vec_clear(y, 4);
    }
    /* set, one, resize to empty and back. */
    hdo_mat_set(Ct, C);
    cr_assert(mpfr_equal_p(hdo_mat_entry(Ct, 3, 4), hdo_mat_entry(C, 3, 4)));
    hdo_mat_resize(Ct, 3, 2);
    hdo_mat_one(Ct);
    cr_assert_eq(mpfr_cmp_ui(hdo_mat_entry(Ct, 1, 1), 1), 0);
    cr_assert(mpfr_zero_p(hdo_mat_entry(Ct, 2, 1)));
    cr_assert(mpfr_zero_p(hdo_mat_entry(Ct, 0, 1)));
    hdo_mat_resize(Ct, 0, 5);
    cr_assert(Ct->entries == NULL);
    hdo_mat_resize(Ct, 2, 2);
    hdo_mat_zero(Ct);
    cr_assert(mpfr_zero_p(hdo_mat_entry(Ct, 1, 1)));

    hdo_mat_clear(A);
    hdo_mat_clear(B);
    hdo_mat_clear(C);
    hdo_mat_clear(E);
    hdo_mat_clear(At);
    hdo_mat_clear(Ct);
    fmpq_mat_clear(QA);
    fmpq_mat_clear(QB);
    fmpq_mat_clear(QC);
    flint_randclear(st);
}

Test(linalg, vec_norms)
{
    /* (3, -4, 12): 2-norm 13, max-norm 12, dot with itself 169. */
    mpfr_ptr v = hdo_vec_init(3, 100);
    mpfr_t r;
    mpfr_init2(r, 100);
    mpfr_set_si(v + 0, 3, MPFR_RNDN);
    mpfr_set_si(v + 1, -4, MPFR_RNDN);
    mpfr_set_si(v + 2, 12, MPFR_RNDN);
    hdo_vec_norm2(r, v, 3);
    cr_assert_eq(mpfr_cmp_ui(r, 13), 0);
    hdo_vec_norm_inf(r, v, 3);
    cr_assert_eq(mpfr_cmp_ui(r, 12), 0);
    hdo_vec_dot(r, v, v, 3);
    cr_assert_eq(mpfr_cmp_ui(r, 169), 0);
    mpfr_clear(r);
    hdo_vec_clear(v, 3);
}

/* Solves random regular rational systems of size n and compares with the
   exact solution; the bound allows the condition number of a random
   matrix (checked below to be moderate) plus rounding growth. */
static void
lu_against_exact(long digits, slong n, ulong seed)
{
    flint_rand_t st;
    fmpq_mat_t QA, QB, QX;
    hdo_mat_t A;
    slong *perm, i;
    mpfr_prec_t prec = bits_for_digits(digits);
    mpfr_ptr b;
    double e;
    int trial;

    flint_randinit(st);
    flint_randseed(st, seed, seed * 7 + 1);
    fmpq_mat_init(QA, n, n);
    fmpq_mat_init(QB, n, 1);
    fmpq_mat_init(QX, n, 1);
    hdo_mat_init(A, 0, 0, prec);
    perm = flint_malloc(n * sizeof(slong));
    b = hdo_vec_init(n, prec);
    for (trial = 0; trial < 5; trial++) {
        fmpq_mat_random(QA, st, 12);
        fmpq_mat_random(QB, st, 12);
        cr_assert(fmpq_mat_solve_fraction_free(QX, QA, QB),
                  "random matrix singular");
        mat_from_fmpq(A, QA);
        for (i = 0; i < n; i++)
            fmpq_get_mpfr(b + i, fmpq_mat_entry(QB, i, 0), MPFR_RNDN);
        cr_assert_eq(hdo_lu_factor(A, perm), 0);
        hdo_lu_solve(b, A, perm);
        e = vec_rel_err_log2(b, QX, 0, prec);
        /* 2^-prec rounding of the data times a condition number that
           for these sizes stays far below 2^40. */
        cr_assert(e < -(double)prec + 40, "digits %ld n %ld: log2 err %g",
                  digits, (long)n, e);
    }
    hdo_vec_clear(b, n);
    flint_free(perm);
    hdo_mat_clear(A);
    fmpq_mat_clear(QA);
    fmpq_mat_clear(QB);
    fmpq_mat_clear(QX);
    flint_randclear(st);
}

Test(linalg, lu_solve_30_digits)
{
    lu_against_exact(30, 8, 1);
}
Test(linalg, lu_solve_300_digits)
{
    lu_against_exact(300, 12, 2);
}

/* The error bound above must not be vacuous: at 30 digits the error must
   also be above 2^-(prec + 64) (a solve is not exact), which shows the
   measure compares the right things. */
Test(linalg, lu_error_measure_is_sharp)
{
    fmpq_mat_t QA, QX;
    mpfr_ptr x = hdo_vec_init(2, 100);
    fmpq_mat_init(QA, 2, 1);
    fmpq_mat_init(QX, 2, 1);
    fmpq_set_si(fmpq_mat_entry(QX, 0, 0), 1, 3);
    fmpq_set_si(fmpq_mat_entry(QX, 1, 0), 2, 1);
    mpfr_set_ui(x + 0, 1, MPFR_RNDN);
    mpfr_div_ui(x + 0, x + 0, 3, MPFR_RNDN);
    mpfr_set_ui(x + 1, 2, MPFR_RNDN);
    /* 1/3 rounded at 100 bits is off by at most 2^-102 relative to 2. */
    cr_assert(vec_rel_err_log2(x, QX, 0, 100) < -100);
    cr_assert(vec_rel_err_log2(x, QX, 0, 100) > -110);
    hdo_vec_clear(x, 2);
    fmpq_mat_clear(QA);
    fmpq_mat_clear(QX);
}

/* An exactly singular matrix (row 3 = row 1 + row 2) must be refused. */
Test(linalg, lu_singular)
{
    hdo_mat_t A;
    slong perm[3];
    const int v[9] = {1, 2, 3, 4, 5, 6, 5, 7, 9};
    slong i;
    hdo_mat_init(A, 3, 3, 200);
    for (i = 0; i < 9; i++)
        mpfr_set_si(A->entries + i, v[i], MPFR_RNDN);
    cr_assert_eq(hdo_lu_factor(A, perm), HDO_ERR_SINGULAR);
    hdo_mat_clear(A);
}

/* The solve as it was written before D-107 (a copy of the permuted b,
   every product subtracted): hdo_lu_solve must give its bits, the sign
   of a zero included, on sparse factors (exact zeros skipped), factors
   and pivots of +-1 (no product, no division: D-115), zeros and -0 in
   b, b mostly zeros (zero products on zeros, D-120) and b of mixed
   precisions (the copying path).  Fails when the -1 case subtracts, a
   -1 pivot is not negated, or a zero minus a zero product keeps -0. */
static void
plain_solve(mpfr_ptr b, const hdo_mat_t LU, const slong *perm)
{
    slong n = LU->rows;
    mpfr_ptr y = hdo_vec_init(n, mpfr_get_prec(b));
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(b));
    for (slong i = 0; i < n; i++)
        mpfr_set(y + i, b + perm[i], MPFR_RNDN);
    for (slong i = 0; i < n; i++)
        for (slong j = 0; j < i; j++) {
            mpfr_mul(t, hdo_mat_entry(LU, i, j), y + j, MPFR_RNDN);
            mpfr_sub(y + i, y + i, t, MPFR_RNDN);
        }
    for (slong i = n - 1; i >= 0; i--) {
        for (slong j = i + 1; j < n; j++) {
            mpfr_mul(t, hdo_mat_entry(LU, i, j), y + j, MPFR_RNDN);
            mpfr_sub(y + i, y + i, t, MPFR_RNDN);
        }
        mpfr_div(y + i, y + i, hdo_mat_entry(LU, i, i), MPFR_RNDN);
    }
    hdo_vec_set(b, y, n);
    mpfr_clear(t);
    hdo_vec_clear(y, n);
}

static int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b))
        return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b) &&
           mpfr_get_prec(a) == mpfr_get_prec(b);
}

/* Solves with b by hdo_lu_solve and by plain_solve (c, made a copy of
   b; every fourth trial b's last entry at a higher precision, the
   copying path) and asserts the same bits. */
static void
solve_both(const hdo_mat_t A, const slong *perm, mpfr_ptr b, mpfr_ptr c,
           slong n, int trial)
{
    if (trial % 4 == 3)
        mpfr_prec_round(b + n - 1, mpfr_get_prec(b) + 64, MPFR_RNDN);
    for (slong i = 0; i < n; i++) {
        mpfr_set_prec(c + i, mpfr_get_prec(b + i));
        mpfr_set(c + i, b + i, MPFR_RNDN);
    }
    hdo_lu_solve(b, A, perm);
    plain_solve(c, A, perm);
    for (slong i = 0; i < n; i++)
        cr_assert(same_bits(b + i, c + i),
                  "trial %d n %ld: component %ld %.17g against %.17g", trial,
                  (long)n, (long)i, mpfr_get_d(b + i, MPFR_RNDN),
                  mpfr_get_d(c + i, MPFR_RNDN));
}

Test(linalg, lu_solve_same_bits_as_plain_loop)
{
    flint_rand_t st;
    mpfr_prec_t prec = 133;
    slong nskipped = 0, nsigned = 0, nunit = 0, nneg = 0, ndiag = 0;
    flint_randinit(st);
    for (int trial = 0; trial < 800; trial++) {
        slong n = 1 + (slong)n_randint(st, 9);
        hdo_mat_t A;
        slong *perm = flint_malloc(n * sizeof(slong));
        mpfr_ptr b = hdo_vec_init(n, prec), c = hdo_vec_init(n, prec);
        hdo_mat_init(A, n, n, prec);
        /* a sparse matrix with a nonzero diagonal: half of the rest 0;
           every other trial most entries +-1 (a circuit's incidence
           rows, D-115: the solve adds or subtracts y_j for a factor of
           +-1, negates for a pivot of -1) */
        int units = trial % 2;
        for (slong i = 0; i < n; i++)
            for (slong j = 0; j < n; j++) {
                mpfr_ptr a = hdo_mat_entry(A, i, j);
                unsigned long k = n_randint(st, 6);
                if (i != j && (units ? k < 2 : k < 3))
                    mpfr_set_zero(a, k % 2 ? 1 : -1);
                else if (units && k < 5)
                    mpfr_set_si(a, n_randint(st, 2) ? 1 : -1, MPFR_RNDN);
                else
                    mpfr_set_si_2exp(a, (long)n_randint(st, 2001) - 1000,
                                     -(long)n_randint(st, 12), MPFR_RNDN);
                if (i == j && mpfr_zero_p(a))
                    mpfr_set_si(a, units ? -1 : 3, MPFR_RNDN);
            }
        if (hdo_lu_factor(A, perm) != 0)
            goto next;
        for (slong i = 0; i < n; i++)
            for (slong j = 0; j < n; j++) {
                mpfr_srcptr a = hdo_mat_entry(A, i, j);
                int u = mpfr_regular_p(a) && mpfr_cmpabs_ui(a, 1) == 0;
                nunit += u && i != j && mpfr_sgn(a) > 0;
                nneg += u && i != j && mpfr_sgn(a) < 0;
                ndiag += u && i == j && mpfr_sgn(a) < 0;
            }
        /* every third trial b as the Taylor expansion's: zeros of both
           signs with a nonzero or two (D-120: zeros updated by zero
           products, -0 - (-0) = +0 among them) */
        int sparse = trial % 3 == 2;
        slong nz = sparse ? (slong)n_randint(st, 3) : n;
        for (slong i = 0; i < n; i++) {
            unsigned long k = n_randint(st, 4);
            if (sparse && i >= nz)
                k = k % 2;
            if (k == 0)
                mpfr_set_zero(b + i, 1);
            else if (k == 1)
                mpfr_set_zero(b + i, -1);
            else /* tiny and huge values where the factors are units */
                mpfr_set_si_2exp(b + i, (long)n_randint(st, 2001) - 1000,
                                 units ? (long)n_randint(st, 400) - 200
                                       : -(long)n_randint(st, 30),
                                 MPFR_RNDN);
            nsigned += k == 1;
            for (slong j = 0; j < n; j++)
                nskipped += mpfr_zero_p(hdo_mat_entry(A, i, j));
        }
        solve_both(A, perm, b, c, n, trial);
    next:
        hdo_mat_clear(A);
        flint_free(perm);
        hdo_vec_clear(b, n);
        hdo_vec_clear(c, n);
    }
    cr_assert(nskipped > 100 && nsigned > 100 && nunit > 300 && nneg > 300 &&
                  ndiag > 50,
              "the cases were not met: %ld zeros, %ld -0, %ld +1, %ld -1, "
              "%ld -1 pivots",
              (long)nskipped, (long)nsigned, (long)nunit, (long)nneg,
              (long)ndiag);
    flint_randclear(st);
}
