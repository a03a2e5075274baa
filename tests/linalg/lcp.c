/* lcp.c -- tests of the exact LCP solvers: Lemke against enumeration on
   P-matrices (the unique solution, found two ways), degenerate problems
   whose every ratio test ties, problems without a solution, the P-matrix
   test on matrices whose class is known from their structure, and the
   two-solution witness of a non-P matrix checked by enumeration. */
#include <criterion/criterion.h>
#include "linalg.h"

static void
free_caches(void)
{
    flint_cleanup();
}
TestSuite(lcp, .fini = free_caches);

static void
set_mat(fmpq_mat_t A, const slong *v, slong m, slong n)
{
    for (slong i = 0; i < m; i++)
        for (slong j = 0; j < n; j++)
            fmpq_set_si(fmpq_mat_entry(A, i, j), v[i * n + j], 1);
}

/* Lemke and enumeration on LCP(q, M): both must give the same, unique
   solution (M a P-matrix). */
static void
check_unique(const fmpq_mat_t M, const fmpq_mat_t q)
{
    slong m = fmpq_mat_nrows(M), piv;
    fmpq_mat_t z, ze;
    fmpq_mat_init(z, m, 1);
    fmpq_mat_init(ze, m, 1);
    int cont = 0;
    cr_assert_eq(hdo_lcp_enumerate(ze, NULL, &cont, M, q), 1);
    cr_assert_eq(cont, 0);
    cr_assert_eq(hdo_lcp_lemke(z, &piv, M, q, 1000), 0);
    cr_assert(hdo_lcp_is_solution(M, q, z));
    cr_assert(fmpq_mat_equal(z, ze));
    fmpq_mat_clear(z);
    fmpq_mat_clear(ze);
}

/* A hand-solved problem: M = [[2, 1], [1, 2]], q = (-5, -6): both
   active, z = M^-1 (5, 6) = (4/3, 7/3). */
Test(lcp, hand_solved)
{
    fmpq_mat_t M, q, z;
    slong mv[] = {2, 1, 1, 2}, qv[] = {-5, -6}, piv;
    fmpq_mat_init(M, 2, 2);
    fmpq_mat_init(q, 2, 1);
    fmpq_mat_init(z, 2, 1);
    set_mat(M, mv, 2, 2);
    set_mat(q, qv, 2, 1);
    cr_assert_eq(hdo_lcp_lemke(z, &piv, M, q, 100), 0);
    fmpq_t e;
    fmpq_init(e);
    fmpq_set_si(e, 4, 3);
    cr_assert(fmpq_equal(fmpq_mat_entry(z, 0, 0), e));
    fmpq_set_si(e, 7, 3);
    cr_assert(fmpq_equal(fmpq_mat_entry(z, 1, 0), e));
    /* q = (-1, 3): only the first active, z = (1/2, 0), w = (0, 7/2) */
    slong q2[] = {-1, 3};
    set_mat(q, q2, 2, 1);
    cr_assert_eq(hdo_lcp_lemke(z, &piv, M, q, 100), 0);
    fmpq_set_si(e, 1, 2);
    cr_assert(fmpq_equal(fmpq_mat_entry(z, 0, 0), e));
    cr_assert(fmpq_is_zero(fmpq_mat_entry(z, 1, 0)));
    fmpq_clear(e);
    fmpq_mat_clear(M);
    fmpq_mat_clear(q);
    fmpq_mat_clear(z);
}

/* Random P-matrices of two kinds whose class is known without the test
   (strictly diagonally dominant with positive diagonal; I + S with S
   skew-symmetric, positive definite) and random q, a third of whose
   entries are 0 (degenerate): Lemke agrees with enumeration. */
Test(lcp, random_p_matrices)
{
    flint_rand_t st;
    flint_randinit(st);
    for (int trial = 0; trial < 300; trial++) {
        slong m = 1 + (slong)n_randint(st, 6);
        fmpq_mat_t M, q;
        fmpq_mat_init(M, m, m);
        fmpq_mat_init(q, m, 1);
        for (slong i = 0; i < m; i++) {
            slong off = 0;
            for (slong j = 0; j < m; j++) {
                if (i == j)
                    continue;
                slong v = (slong)n_randint(st, 11) - 5;
                if (trial % 2 == 1 && j < i)
                    v = -fmpz_get_si(fmpq_numref(fmpq_mat_entry(M, j, i)));
                fmpq_set_si(fmpq_mat_entry(M, i, j), v, 1);
                off += v < 0 ? -v : v;
            }
            fmpq_set_si(fmpq_mat_entry(M, i, i),
                        trial % 2 == 1 ? 1 : off + 1 + (slong)n_randint(st, 3),
                        1);
            slong qi = (slong)n_randint(st, 3) == 0
                           ? 0
                           : (slong)n_randint(st, 21) - 10;
            fmpq_set_si(fmpq_mat_entry(q, i, 0), qi, 1);
        }
        ulong alpha;
        fmpq_t minor;
        fmpq_init(minor);
        cr_assert(hdo_lcp_is_p_matrix(&alpha, minor, M), "trial %d", trial);
        fmpq_clear(minor);
        check_unique(M, q);
        fmpq_mat_clear(M);
        fmpq_mat_clear(q);
    }
    flint_randclear(st);
}

/* Every ratio test ties: q = (-1, -1, -1) with the cyclic P-matrix
   [[1, 2, 0], [0, 1, 2], [2, 0, 1]] (principal minors 1, 1, 1, 9), and
   q = 0 and q = (-1, 0, -1); the lexicographic rule ends. */
Test(lcp, degenerate_ties)
{
    fmpq_mat_t M, q;
    slong mv[] = {1, 2, 0, 0, 1, 2, 2, 0, 1};
    slong qs[][3] = {{-1, -1, -1}, {0, 0, 0}, {-1, 0, -1}, {0, -1, 0}};
    fmpq_mat_init(M, 3, 3);
    fmpq_mat_init(q, 3, 1);
    set_mat(M, mv, 3, 3);
    for (int k = 0; k < 4; k++) {
        set_mat(q, qs[k], 3, 1);
        check_unique(M, q);
    }
    fmpq_mat_clear(M);
    fmpq_mat_clear(q);
}

/* No solution: M = [[-1]], q = (-1) (z >= 0 and -1 - z >= 0); and M =
   [[1, -1], [-1, 1]] (positive semidefinite, not P), q = (-1, -1):
   enumeration finds none and Lemke ends on a ray. */
Test(lcp, no_solution)
{
    fmpq_mat_t M, q, z;
    slong piv;
    int cont;
    fmpq_mat_init(M, 1, 1);
    fmpq_mat_init(q, 1, 1);
    fmpq_mat_init(z, 1, 1);
    fmpq_set_si(fmpq_mat_entry(M, 0, 0), -1, 1);
    fmpq_set_si(fmpq_mat_entry(q, 0, 0), -1, 1);
    cr_assert_eq(hdo_lcp_enumerate(z, NULL, &cont, M, q), 0);
    cr_assert_eq(hdo_lcp_lemke(z, &piv, M, q, 100), HDO_LCP_RAY);
    fmpq_mat_clear(M);
    fmpq_mat_clear(q);
    fmpq_mat_clear(z);
    slong mv[] = {1, -1, -1, 1}, qv[] = {-1, -1};
    fmpq_mat_init(M, 2, 2);
    fmpq_mat_init(q, 2, 1);
    fmpq_mat_init(z, 2, 1);
    set_mat(M, mv, 2, 2);
    set_mat(q, qv, 2, 1);
    cr_assert_eq(hdo_lcp_enumerate(z, NULL, &cont, M, q), 0);
    cr_assert_eq(hdo_lcp_lemke(z, &piv, M, q, 100), HDO_LCP_RAY);
    fmpq_mat_clear(M);
    fmpq_mat_clear(q);
    fmpq_mat_clear(z);
}

/* The pivot cap is reported as such. */
Test(lcp, pivot_cap)
{
    fmpq_mat_t M, q, z;
    slong mv[] = {1, 2, 0, 0, 1, 2, 2, 0, 1}, qv[] = {-1, -1, -1}, piv;
    fmpq_mat_init(M, 3, 3);
    fmpq_mat_init(q, 3, 1);
    fmpq_mat_init(z, 3, 1);
    set_mat(M, mv, 3, 3);
    set_mat(q, qv, 3, 1);
    cr_assert_eq(hdo_lcp_lemke(z, &piv, M, q, 1), HDO_LCP_CAP);
    cr_assert_eq(piv, 1);
    fmpq_mat_clear(M);
    fmpq_mat_clear(q);
    fmpq_mat_clear(z);
}

/* Not P: the set reported is a smallest one with a minor <= 0, and the
   witness has two solutions, which enumeration confirms. */
Test(lcp, not_p_witness)
{
    struct {
        slong m, v[9];
        ulong alpha;
        slong minor;
    } cases[] = {
        {2, {1, 2, 2, 1}, 3, -3},                 /* det -3 */
        {1, {0}, 1, 0},                           /* singular */
        {2, {1, 1, 1, 1}, 3, 0},                  /* singular 2x2 */
        {3, {1, 0, 0, 0, -2, 0, 0, 0, 1}, 2, -2}, /* negative diagonal */
        {3, {2, 1, 0, 1, 2, 3, 0, 3, 2}, 6, -5},  /* rows 1, 2: 4 - 9 */
        {2, {1, -3, 1, 1}, 0, 1},                 /* P: 1, 1, 4 */
    };
    for (int k = 0; k < 6; k++) {
        slong m = cases[k].m;
        fmpq_mat_t M, q, z1, z2;
        fmpq_t minor;
        fmpq_init(minor);
        fmpq_mat_init(M, m, m);
        fmpq_mat_init(q, m, 1);
        fmpq_mat_init(z1, m, 1);
        fmpq_mat_init(z2, m, 1);
        set_mat(M, cases[k].v, m, m);
        ulong alpha;
        int p = hdo_lcp_is_p_matrix(&alpha, minor, M);
        cr_assert_eq(p, cases[k].alpha == 0, "case %d", k);
        cr_assert_eq(alpha, cases[k].alpha, "case %d", k);
        cr_assert(fmpz_equal_si(fmpq_numref(minor), cases[k].minor), "case %d",
                  k);
        if (!p) {
            cr_assert(hdo_lcp_witness(q, z1, z2, M, alpha, minor), "case %d",
                      k);
            cr_assert(!fmpq_mat_equal(z1, z2));
            int cont = 0;
            slong n = hdo_lcp_enumerate(NULL, NULL, &cont, M, q);
            cr_assert(n >= 2 || cont, "case %d: %ld solutions", k, (long)n);
        }
        fmpq_mat_clear(M);
        fmpq_mat_clear(q);
        fmpq_mat_clear(z1);
        fmpq_mat_clear(z2);
        fmpq_clear(minor);
    }
}
