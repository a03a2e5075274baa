/* fi_thresholds.c -- the first-integral test of a switching function
 * (ref/reduce/invariant.c, docs/decisions.md) at its boundaries: the
 * bound |L| <= 2^(-2 prec) (|dS/dt| + sum |dS/dx_i| |rhs_i|), "at every
 * one of 4 points", and the 8 halvings of a point where an expression is
 * undefined. */
#include <stdio.h>
#include <stdlib.h>
#include <criterion/criterion.h>
#include "hybrid.h"
#include "reduce.h"
#include "../model_util.h"

/* The documented constants, written out: a test that read them from the
   code would move with them. */
#define POINTS 4
#define SHRINK 8

/* The exact dyadic x as model text "(z/2^k)" or "(z*2^k)". */
static char *
dyadic_text(mpfr_srcptr x)
{
    mpz_t z;
    mpz_init(z);
    mpfr_exp_t e = mpfr_get_z_2exp(z, x);
    char *zs = mpz_get_str(NULL, 10, z);
    size_t n = strlen(zs) + 64;
    char *s = malloc(n);
    cr_assert_not_null(s);
    snprintf(s, n, "(%s%s2^%ld)", zs, e < 0 ? "/" : "*", labs((long)e));
    free(zs);
    mpz_clear(z);
    return s;
}

/* Parses text, reduces its mode 0 and returns the test's verdict on the
   guard of the mode's first `when` at precision prec (t = 0). */
static int
fi_verdict(const char *text, mpfr_prec_t prec)
{
    hdo_model_t model;
    hdo_error_t err;
    hdo_reduced_t red;
    mpfr_t t;
    tm_parse(model, text);
    hdo_error_clear(&err);
    hdo_reduced_init(red);
    cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0, "%s", err.message);
    mpfr_init2(t, 64);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    int v = hdo_first_integral_test(model, red, model->modes[0].whens[0].guard,
                                    t, prec);
    mpfr_clear(t);
    hdo_reduced_clear(red);
    hdo_model_clear(model);
    return v;
}

/* S = x - y with der(x) = 1 + k e, der(y) = 1 - k e, e = 2^(-2 prec):
   L = 2 k e exactly and the size |1| |1 + k e| + |-1| |1 - k e| = 2
   exactly (both fit in 3 prec + 64 bits), so the bound 2^(-2 prec) * 2
   = 2 e holds exactly when k <= 1.  k = 1 is the equality (accepted:
   "<="); 1 - 2^-10 and 1 + 2^-10 are either side, so the bound moved by
   any factor 2^(+-1/700) fails one of them. */
static int
fi_bound_case(mpfr_prec_t prec, const char *k)
{
    char text[1024];
    snprintf(text, sizeof text,
             "model fi\nvar x = 0, y = 0\nmode m\n"
             "  der(x) = 1 + %s/2^%ld\n  der(y) = 1 - %s/2^%ld\n"
             "  when x - y < -1 goto m\nend\nstart m at 0\nuntil 1\n",
             k, 2 * (long)prec, k, 2 * (long)prec);
    return fi_verdict(text, prec);
}

Test(hybrid_thresholds, first_integral_bound_boundary)
{
    static const mpfr_prec_t precs[] = {53, 64, 133, 200, 1000};
    for (size_t i = 0; i < sizeof precs / sizeof *precs; i++) {
        mpfr_prec_t p = precs[i];
        cr_expect_eq(fi_bound_case(p, "1"), HDO_FI_NUMERIC,
                     "|L| = bound at prec %ld: a first integral", (long)p);
        cr_expect_eq(fi_bound_case(p, "(1 - 1/1024)"), HDO_FI_NUMERIC,
                     "|L| just below the bound at prec %ld", (long)p);
        cr_expect_eq(fi_bound_case(p, "(1 + 1/1024)"), 0,
                     "|L| just above the bound at prec %ld", (long)p);
        /* and a factor 2 of the precision's square either way */
        cr_expect_eq(fi_bound_case(p, "1/2"), HDO_FI_NUMERIC);
        cr_expect_eq(fi_bound_case(p, "2"), 0);
    }
    /* the bound is relative to the terms' size: the same k with
       der(x) = 2^40 (1 + k e), der(y) = 2^40 (1 - k e), L = 2^41 k e */
    char text[1024];
    for (int side = 0; side < 2; side++) {
        const char *k = side ? "(1 + 1/1024)" : "(1 - 1/1024)";
        snprintf(text, sizeof text,
                 "model fi\nvar x = 0, y = 0\nmode m\n"
                 "  der(x) = 2^40*(1 + %s/2^266)\n"
                 "  der(y) = 2^40*(1 - %s/2^266)\n"
                 "  when x - y < -1 goto m\nend\nstart m at 0\nuntil 1\n",
                 k, k);
        cr_expect_eq(fi_verdict(text, 133), side ? 0 : HDO_FI_NUMERIC,
                     "relative, k = %s", k);
    }
}

/* The 4 points, all of them.  S = y, der(x) = 1, der(y) = P(x) with P
   the product of (x - x_j) over some of the test points x_j = r_j (the
   start value of x is 0, so the point is b + (1 + |b|) r = r, exact):
   L = P(x), size = |P(x)|, so a point passes exactly where P vanishes.
   A P that vanishes at the 4 points is accepted (a first integral, as
   far as the test can see); one that misses any single point is not. */
static int
fi_points_case(const int *roots, mpfr_prec_t prec)
{
    char text[4096], factor[256];
    mpfr_t r;
    mpfr_init2(r, 64);
    snprintf(text, sizeof text,
             "model fi\nvar x = 0, y = 0\nmode m\n  der(x) = 1\n"
             "  der(y) = 1");
    for (int j = 0; j < POINTS; j++) {
        if (!roots[j])
            continue;
        hdo_first_integral_offset(r, j, 0); /* x is variable 0 */
        char *d = dyadic_text(r);
        snprintf(factor, sizeof factor, "*(x - %s)", d);
        free(d);
        strncat(text, factor, sizeof text - strlen(text) - 1);
    }
    strncat(text, "\n  when y < -1 goto m\nend\nstart m at 0\nuntil 1\n",
            sizeof text - strlen(text) - 1);
    mpfr_clear(r);
    return fi_verdict(text, prec);
}

Test(hybrid_thresholds, first_integral_every_one_of_4_points)
{
    /* the points are distinct and inside [-1/2, 1/2] */
    mpfr_t a, b;
    mpfr_inits2(64, a, b, (mpfr_ptr)0);
    for (int i = 0; i < POINTS; i++) {
        hdo_first_integral_offset(a, i, 0);
        cr_assert(mpfr_cmpabs_ui(a, 1) < 0 && mpfr_cmp_d(a, 0.5) <= 0 &&
                  mpfr_cmp_d(a, -0.5) >= 0);
        for (int j = 0; j < i; j++) {
            hdo_first_integral_offset(b, j, 0);
            cr_assert(!mpfr_equal_p(a, b));
        }
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
    for (mpfr_prec_t p = 64; p <= 256; p *= 4) {
        int all[POINTS] = {1, 1, 1, 1};
        cr_expect_eq(fi_points_case(all, p), HDO_FI_NUMERIC,
                     "P vanishes at the 4 points, prec %ld", (long)p);
        for (int miss = 0; miss < POINTS; miss++) {
            int some[POINTS] = {1, 1, 1, 1};
            some[miss] = 0;
            cr_expect_eq(fi_points_case(some, p), 0,
                         "P is not zero at point %d, prec %ld", miss, (long)p);
        }
    }
}

/* The halvings: S = y - asin(x/B), der(x) = 1, der(y) = 1/sqrt(B^2 -
   x^2): L = 0 identically where |x| < B, undefined elsewhere.  With m
   the largest |r_j| of the 4 points, the point with m is defined after s
   halvings when m/2^s < B: B = 3m/2^9 needs s = 8 (m/2^7 > B > m/2^8),
   the last halving allowed, so S is recognised; B = 3m/2^10 needs 9, so
   it is not ("never a first integral by default"). */
static int
fi_shrink_case(long den_exp)
{
    mpfr_t r, m;
    mpfr_inits2(64, r, m, (mpfr_ptr)0);
    mpfr_set_ui(m, 0, MPFR_RNDN);
    for (int j = 0; j < POINTS; j++) {
        hdo_first_integral_offset(r, j, 0);
        mpfr_abs(r, r, MPFR_RNDN);
        if (mpfr_cmp(r, m) > 0)
            mpfr_set(m, r, MPFR_RNDN);
    }
    mpfr_mul_ui(m, m, 3, MPFR_RNDN); /* exact: m has 53 bits */
    mpfr_div_2ui(m, m, (unsigned long)den_exp, MPFR_RNDN);
    char *B = dyadic_text(m);
    char text[2048];
    snprintf(text, sizeof text,
             "model fi\nvar x = 0, y = 0\nmode m\n  der(x) = 1\n"
             "  der(y) = 1/sqrt(%s^2 - x^2)\n"
             "  when y - asin(x/%s) < -1 goto m\nend\nstart m at 0\n"
             "until 1\n",
             B, B);
    free(B);
    mpfr_clears(r, m, (mpfr_ptr)0);
    return fi_verdict(text, 133);
}

Test(hybrid_thresholds, first_integral_halvings_boundary)
{
    cr_expect_eq(fi_shrink_case(SHRINK + 1), HDO_FI_NUMERIC,
                 "defined after %d halvings", SHRINK);
    cr_expect_eq(fi_shrink_case(SHRINK + 2), 0,
                 "defined only after %d halvings", SHRINK + 1);
    /* well inside: B = 3m/2 needs one halving at most */
    cr_expect_eq(fi_shrink_case(1), HDO_FI_NUMERIC);
}
