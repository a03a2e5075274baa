/* locate.c -- tests of hdo_event_locate on polynomials with known roots:
 * simple, close pairs, tangencies, zeros at the start */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <flint/ulong_extras.h>
#include "event.h"
#include "linalg.h"

#define PREC 232 /* 60 digits + guard */

/* Expected roots come from exact factored forms, the quadratic formula or
   decimal literals, never from the code under test. */

typedef struct {
    mpfr_ptr c;
    slong len;
} poly;

/* Coefficients from decimal strings (exactly as rounded by MPFR). */
static poly
poly_from(slong len, ...)
{
    poly p;
    va_list ap;
    p.len = len;
    p.c = flint_malloc(len * sizeof *p.c);
    va_start(ap, len);
    for (slong k = 0; k < len; k++) {
        mpfr_init2(p.c + k, PREC);
        mpfr_set_str(p.c + k, va_arg(ap, const char *), 10, MPFR_RNDN);
    }
    va_end(ap);
    return p;
}

/* p := p * (s - r) (r as a decimal string, rounded to PREC). */
static void
poly_mul_root(poly *p, const char *r)
{
    mpfr_t rr, t;
    mpfr_inits2(PREC, rr, t, (mpfr_ptr)0);
    mpfr_set_str(rr, r, 10, MPFR_RNDN);
    p->c = flint_realloc(p->c, (p->len + 1) * sizeof *p->c);
    mpfr_init2(p->c + p->len, PREC);
    mpfr_set_ui(p->c + p->len, 0, MPFR_RNDN);
    for (slong k = p->len; k >= 0; k--) {
        /* new c_k = c_{k-1} - r c_k */
        mpfr_mul(t, rr, p->c + k, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        if (k > 0)
            mpfr_add(t, t, p->c + k - 1, MPFR_RNDN);
        mpfr_set(p->c + k, t, MPFR_RNDN);
    }
    p->len++;
    mpfr_clears(rr, t, (mpfr_ptr)0);
}

static void
poly_free(poly *p)
{
    for (slong k = 0; k < p->len; k++)
        mpfr_clear(p->c + k);
    flint_free(p->c);
}

/* Runs the locator with H and tol = 1e-65; returns its status. */
static int
locate(mpfr_t root, const poly *p, const char *H)
{
    mpfr_t h, tol;
    mpfr_inits2(PREC, h, tol, (mpfr_ptr)0);
    mpfr_set_str(h, H, 10, MPFR_RNDN);
    mpfr_set_str(tol, "1e-65", 10, MPFR_RNDN);
    int st = hdo_event_locate(root, p->c, p->len, h, tol, NULL, PREC);
    mpfr_clears(h, tol, (mpfr_ptr)0);
    return st;
}

/* |root - expected| <= 10^-digits */
static void
assert_root(const mpfr_t root, const mpfr_t expected, int digits)
{
    mpfr_t d, bound;
    mpfr_inits2(PREC, d, bound, (mpfr_ptr)0);
    mpfr_sub(d, root, expected, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_set_ui(bound, 10, MPFR_RNDN);
    mpfr_pow_si(bound, bound, -digits, MPFR_RNDN);
    if (mpfr_cmp(d, bound) > 0) {
        char *msg;
        mpfr_asprintf(&msg, "root %.30Re differs from %.30Re by %.3Re", root,
                      expected, d);
        cr_assert_fail("%s (> 1e-%d)", msg, digits);
    }
    mpfr_clears(d, bound, (mpfr_ptr)0);
}

static void
assert_root_str(const mpfr_t root, const char *expected, int digits)
{
    mpfr_t e;
    mpfr_init2(e, PREC);
    mpfr_set_str(e, expected, 10, MPFR_RNDN);
    assert_root(root, e, digits);
    mpfr_clear(e);
}

Test(event, simple_root_full_precision)
{
    /* (s - 0.3)(s - 2) on [0, 1]: the crossing at 0.3 */
    poly p = poly_from(1, "1");
    poly_mul_root(&p, "0.3");
    poly_mul_root(&p, "2");
    mpfr_t root;
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &p, "1"), HDO_EVENT);
    assert_root_str(root, "0.3", 65);
    mpfr_clear(root);
    poly_free(&p);
}

Test(event, no_root_in_step)
{
    /* (s - 0.3)(s - 2) on [0, 0.25] and 1 + s^2 on [0, 10] */
    poly p = poly_from(1, "1");
    poly_mul_root(&p, "0.3");
    poly_mul_root(&p, "2");
    poly q = poly_from(3, "1", "0", "1");
    mpfr_t root;
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &p, "0.25"), 0);
    cr_assert_eq(locate(root, &q, "10"), 0);
    mpfr_clear(root);
    poly_free(&p);
    poly_free(&q);
}

Test(event, two_close_roots_both_found)
{
    /* ((s - 0.5)^2 - 1e-20)(1 + s^2/10): positive at both ends of [0, 1],
       zeros at 0.5 -+ 1e-10.  A sign test at the ends sees nothing. */
    poly p = poly_from(5, "0.2499999999999999999900000000000000000000", "-1",
                       "1.024999999999999999999", "-0.1", "0.1");
    /* the coefficients above are the exact expansion:
       (s^2 - s + 0.25 - 1e-20)(1 + 0.1 s^2)
       = (0.25 - 1e-20) - s + (1 + 0.025 - 1e-21) s^2 - 0.1 s^3 + 0.1 s^4 */
    mpfr_t root;
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &p, "1"), HDO_EVENT);
    assert_root_str(root, "0.4999999999", 60);

    /* The second zero, seen from the first one as the next arc's guard
       (the sign reversed by the transition): U(s) = -s (s - 2e-10) has a
       zero at the start, leaves it upwards (c_1 = 2e-10 > 0 matters over
       the step), and crosses down at 2e-10. */
    poly u = poly_from(3, "0", "2e-10", "-1");
    cr_assert_eq(locate(root, &u, "1"), HDO_EVENT);
    assert_root_str(root, "2e-10", 64);
    mpfr_clear(root);
    poly_free(&p);
    poly_free(&u);
}

Test(event, cluster_of_roots_first_taken)
{
    /* roots 0.1, 0.1 + 1e-15, 0.5, 0.7 times a positive factor: the
       first crossing from + to - is at 0.1 (the sign at 0 is +) */
    poly p = poly_from(3, "2", "0", "1");
    poly_mul_root(&p, "0.1");
    poly_mul_root(&p, "0.100000000000001");
    poly_mul_root(&p, "0.5");
    poly_mul_root(&p, "0.7");
    mpfr_t root;
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &p, "1"), HDO_EVENT);
    /* the pair is ill-conditioned: coefficients rounded to 2^-232 move
       the root by about 1e-70 / |P'(0.1)| ~ 1e-55 */
    assert_root_str(root, "0.1", 50);
    mpfr_clear(root);
    poly_free(&p);

    /* odd degree factor: (0.35 - s)(s - 0.05 - 1e-30)^2 touches at
       0.05 + 1e-30, then crosses at 0.35 */
    poly q = poly_from(2, "0.35", "-1");
    poly_mul_root(&q, "0.050000000000000000000000000001");
    poly_mul_root(&q, "0.050000000000000000000000000001");
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &q, "1"), HDO_EVENT);
    assert_root_str(root, "0.35", 60);
    mpfr_clear(root);
    poly_free(&q);
}

Test(event, double_root_touching_is_no_event)
{
    /* (s - 0.5)^2 (2 - s) >= 0 on [0, 1]: touches zero at 0.5 */
    poly p = poly_from(2, "2", "-1");
    poly_mul_root(&p, "0.5");
    poly_mul_root(&p, "0.5");
    mpfr_t root;
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &p, "1"), 0);
    mpfr_clear(root);
    poly_free(&p);
}

Test(event, triple_root_crossing_found)
{
    /* -(s - 0.25)^3 crosses down at 0.25 with S' = 0 there: found, and
       located to about a third of the digits (the value is flat) */
    poly p = poly_from(1, "-1");
    poly_mul_root(&p, "0.25");
    poly_mul_root(&p, "0.25");
    poly_mul_root(&p, "0.25");
    mpfr_t root;
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &p, "1"), HDO_EVENT);
    assert_root_str(root, "0.25", 20);
    mpfr_clear(root);
    poly_free(&p);
}

Test(event, zero_at_start_leaving_feasible)
{
    /* s (1 - s): zero at 0, leaving upwards: not an event on [0, 0.5],
       the crossing at 1 on [0, 2] */
    poly p = poly_from(3, "0", "1", "-1");
    mpfr_t root;
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &p, "0.5"), 0);
    cr_assert_eq(locate(root, &p, "2"), HDO_EVENT);
    assert_root_str(root, "1", 65);

    /* tangent start: s^2 (1 - s) leaves zero upwards too (c_1 = 0) */
    poly q = poly_from(4, "0", "0", "1", "-1");
    cr_assert_eq(locate(root, &q, "0.9"), 0);
    cr_assert_eq(locate(root, &q, "3"), HDO_EVENT);
    assert_root_str(root, "1", 65);
    mpfr_clear(root);
    poly_free(&p);
    poly_free(&q);
}

Test(event, noisy_zero_at_start_is_skipped)
{
    /* The ball just after an impact: h(0) = -1e-75 (reset noise, below
       the tolerance), h' = 3, h'' = -9.81: the artificial zero at
       ~3.3e-76 is skipped (Remark 12), the landing found at the larger
       root of -4.905 s^2 + 3 s - 1e-75 (quadratic formula). */
    poly p = poly_from(3, "-1e-75", "3", "-4.905");
    mpfr_t root, e, disc;
    mpfr_inits2(PREC, root, e, disc, (mpfr_ptr)0);
    cr_assert_eq(locate(root, &p, "1"), HDO_EVENT);
    /* s = (3 + sqrt(9 - 4 * 4.905e-75)) / 9.81 */
    mpfr_set_str(disc, "1.962e-74", 10, MPFR_RNDN);
    mpfr_ui_sub(disc, 9, disc, MPFR_RNDN);
    mpfr_sqrt(disc, disc, MPFR_RNDN);
    mpfr_add_ui(e, disc, 3, MPFR_RNDN);
    mpfr_set_str(disc, "9.81", 10, MPFR_RNDN);
    mpfr_div(e, e, disc, MPFR_RNDN);
    assert_root(root, e, 65);
    mpfr_clears(root, e, disc, (mpfr_ptr)0);
    poly_free(&p);
}

Test(event, infeasible_start_is_event_at_zero)
{
    mpfr_t root;
    mpfr_init2(root, PREC);
    /* S(0) = -1: infeasible */
    poly a = poly_from(2, "-1", "5");
    cr_assert_eq(locate(root, &a, "1"), HDO_EVENT);
    cr_assert(mpfr_zero_p(root));
    /* S(0) = +1e-75 (a zero within the tolerance), leaving downwards */
    poly b = poly_from(2, "1e-75", "-1");
    mpfr_set_ui(root, 7, MPFR_RNDN);
    cr_assert_eq(locate(root, &b, "1"), HDO_EVENT);
    cr_assert(mpfr_zero_p(root));
    /* exact zero, c_1 = 0, c_2 < 0: leaving downwards */
    poly c = poly_from(3, "0", "0", "-2");
    mpfr_set_ui(root, 7, MPFR_RNDN);
    cr_assert_eq(locate(root, &c, "1"), HDO_EVENT);
    cr_assert(mpfr_zero_p(root));
    /* S(0) = 1e-40 is a real positive value at tol = 1e-65: the
       crossing is at 1e-40, not at the start */
    poly d = poly_from(2, "1e-40", "-1");
    cr_assert_eq(locate(root, &d, "1"), HDO_EVENT);
    assert_root_str(root, "1e-40", 66);
    mpfr_clear(root);
    poly_free(&a);
    poly_free(&b);
    poly_free(&c);
    poly_free(&d);
}

Test(event, identically_zero_guard_is_no_event)
{
    /* S = 0 up to noise on the whole step (a first integral E - E0 of
       E ~ 1, whose state is known to 1e-65: the guard floor 1e-65 of
       hdo_run_guard_floors): no event.  Without the floor the same
       series is a guard of size 1e-79 at its own scale, which crosses
       zero near s = 0.101 (1e-80 - 1e-79 s + ...): the zero rule is
       relative, and only the floor says what noise is. */
    poly p = poly_from(4, "1e-80", "-1e-79", "1e-80", "-3e-81");
    mpfr_t root, h, tol, floor;
    mpfr_inits2(PREC, root, h, tol, floor, (mpfr_ptr)0);
    mpfr_set_str(h, "2", 10, MPFR_RNDN);
    mpfr_set_str(tol, "1e-65", 10, MPFR_RNDN);
    mpfr_set_str(floor, "1e-65", 10, MPFR_RNDN);
    cr_assert_eq(hdo_event_locate(root, p.c, p.len, h, tol, floor, PREC), 0);
    cr_assert_eq(locate(root, &p, "2"), HDO_EVENT);
    cr_assert(mpfr_cmp_d(root, 0.100) > 0 && mpfr_cmp_d(root, 0.102) < 0,
              "root %.6Rg", root);
    mpfr_clears(root, h, tol, floor, (mpfr_ptr)0);
    poly_free(&p);
}

Test(event, time_event_exact)
{
    /* when t > 1.5 from t0 = 0.2: S = 1.5 - (0.2 + s) = 1.3 - s */
    poly p = poly_from(2, "1.3", "-1");
    mpfr_t root;
    mpfr_init2(root, PREC);
    cr_assert_eq(locate(root, &p, "5"), HDO_EVENT);
    assert_root_str(root, "1.3", 68);
    mpfr_clear(root);
    poly_free(&p);
}

Test(event, high_degree_series_with_late_crossing)
{
    /* cos(s) - 0.5 by its Taylor series to degree 60 on [0, 1.2]: the
       first zero is pi/3 */
    slong len = 61;
    poly p;
    p.len = len;
    p.c = flint_malloc(len * sizeof *p.c);
    mpfr_t f;
    mpfr_init2(f, PREC);
    mpfr_set_ui(f, 1, MPFR_RNDN);
    for (slong k = 0; k < len; k++) {
        mpfr_init2(p.c + k, PREC);
        if (k > 0)
            mpfr_div_ui(f, f, k, MPFR_RNDN);
        if (k % 2)
            mpfr_set_ui(p.c + k, 0, MPFR_RNDN);
        else if ((k / 2) % 2)
            mpfr_neg(p.c + k, f, MPFR_RNDN);
        else
            mpfr_set(p.c + k, f, MPFR_RNDN);
    }
    mpfr_sub_d(p.c + 0, p.c + 0, 0.5, MPFR_RNDN);
    mpfr_t root, e;
    mpfr_inits2(PREC, root, e, (mpfr_ptr)0);
    cr_assert_eq(locate(root, &p, "1.2"), HDO_EVENT);
    mpfr_const_pi(e, MPFR_RNDN);
    mpfr_div_ui(e, e, 3, MPFR_RNDN);
    /* the degree-60 truncation error at 1.05 is below 1e-60 */
    assert_root(root, e, 60);
    mpfr_clears(root, e, f, (mpfr_ptr)0);
    poly_free(&p);
}

/* The quick exclusion (Q(0) > 2 sum |Q_k| H^k: no event) against the
   roots: products (s - r_1) ... (s - r_d) with random roots, some in the
   step [0, H], some outside; an event is reported exactly when a root of
   odd multiplicity lies in (0, H], at the smallest such root.  Roots are
   drawn well apart (>= 1/64) so that no cluster rule applies. */
Test(event, random_products_fast_exclusion_agrees)
{
    flint_rand_t st;
    flint_randinit(st);
    for (int trial = 0; trial < 200; trial++) {
        slong d = 1 + (slong)n_randint(st, 5), k;
        poly p = poly_from(1, n_randint(st, 2) ? "1" : "-1");
        double first = 1e9, rs[8];
        char buf[64];
        for (k = 0; k < d; k++) {
            /* roots in [-2, 6] on a 1/64 grid, distinct */
            double r;
            int again;
            do {
                r = -2 + (double)n_randint(st, 8 * 64) / 64;
                again = 0;
                for (slong j = 0; j < k; j++)
                    if (rs[j] == r)
                        again = 1;
            } while (again || r == 0);
            rs[k] = r;
            snprintf(buf, sizeof buf, "%.17g", r);
            poly_mul_root(&p, buf);
        }
        /* S(0) > 0 is what a step starts from: flip the sign if needed */
        if (mpfr_sgn(p.c + 0) < 0)
            for (k = 0; k < p.len; k++)
                mpfr_neg(p.c + k, p.c + k, MPFR_RNDN);
        const char *H = n_randint(st, 2) ? "1" : "0.125";
        double h = H[1] == '\0' ? 1 : 0.125;
        for (k = 0; k < d; k++)
            if (rs[k] > 0 && rs[k] <= h && rs[k] < first)
                first = rs[k];
        mpfr_t root;
        mpfr_init2(root, PREC);
        int ev = locate(root, &p, H);
        if (first > h) {
            cr_assert_eq(ev, 0, "trial %d: no root in (0, %s]", trial, H);
        } else {
            cr_assert_eq(ev, HDO_EVENT, "trial %d: root %g", trial, first);
            cr_assert(fabs(mpfr_get_d(root, MPFR_RNDN) - first) < 1e-30,
                      "trial %d: %g vs %g", trial, mpfr_get_d(root, MPFR_RNDN),
                      first);
        }
        mpfr_clear(root);
        poly_free(&p);
    }
    flint_randclear(st);
}

/* hdo_event_time_error (issue 14): with S known to ztol = tol
   max_k |c_k| r^k (r the root), a simple root is known to ztol / |S'|
   and a root of multiplicity 5 with leading coefficient -1 to
   ztol^(1/5).  With r = 0.5: S = 1 - 2 s has |c_k| r^k = 1, 1, scale 1
   (ztol = tol, S' = -2, delta = tol / 2); S = -(s - 0.5)^5 has |c_k| =
   C(5, k) 0.5^(5-k), so |c_k| r^k = C(5, k) / 32, the largest 10/32
   (ztol = 0.3125 tol), and its Taylor coefficients at 0.5 are 0 except
   T_5 = -1. */
Test(event, time_error_simple_and_fivefold_roots)
{
    mpfr_t tol, H, root, delta, want;
    mpfr_inits2(PREC, tol, H, root, want, (mpfr_ptr)0);
    mpfr_init2(delta, 64);
    mpfr_set_str(tol, "1e-35", 10, MPFR_RNDN);
    mpfr_set_ui(H, 1, MPFR_RNDN);
    mpfr_set_str(root, "0.5", 10, MPFR_RNDN);

    poly p = poly_from(2, "1", "-2"); /* 1 - 2 s: ztol = tol */
    hdo_event_time_error(delta, p.c, p.len, H, tol, root, PREC);
    mpfr_div_ui(want, tol, 2, MPFR_RNDN); /* ztol / |S'| = tol / 2 */
    mpfr_div(want, delta, want, MPFR_RNDN);
    cr_assert(mpfr_cmp_d(want, 0.99) > 0 && mpfr_cmp_d(want, 1.01) < 0,
              "simple root: delta / (ztol/2) = %g",
              mpfr_get_d(want, MPFR_RNDN));
    poly_free(&p);

    p = poly_from(1, "-1");
    for (int i = 0; i < 5; i++)
        poly_mul_root(&p, "0.5");
    /* delta = (0.3125 tol)^(1/5) */
    hdo_event_time_error(delta, p.c, p.len, H, tol, root, PREC);
    mpfr_mul_d(want, tol, 0.3125, MPFR_RNDN);
    mpfr_rootn_ui(want, want, 5, MPFR_RNDN);
    mpfr_div(want, delta, want, MPFR_RNDN);
    cr_assert(mpfr_cmp_d(want, 0.99) > 0 && mpfr_cmp_d(want, 1.01) < 0,
              "fivefold root: delta / ztol^(1/5) = %g",
              mpfr_get_d(want, MPFR_RNDN));
    poly_free(&p);
    mpfr_clears(tol, H, root, delta, want, (mpfr_ptr)0);
}

/* p with z exact zeros appended (a polynomial guard's series of higher
   order: its Taylor coefficients beyond the degree are exactly 0). */
static poly
poly_padded(const poly *p, slong z)
{
    poly q;
    q.len = p->len + z;
    q.c = flint_malloc(q.len * sizeof *q.c);
    for (slong k = 0; k < q.len; k++) {
        mpfr_init2(q.c + k, PREC);
        if (k < p->len)
            mpfr_set(q.c + k, p->c + k, MPFR_RNDN);
        else
            mpfr_set_zero(q.c + k, 1);
    }
    return q;
}

/* The guard's actual degree (issue 28): a series that ends in exact
   zeros gives the same event, to the bit, as the polynomial without them
   (locate, zero rule, time error), whatever the number of zeros. */
Test(hybrid, trailing_zeros_change_nothing)
{
    const char *H[] = {"1", "0.3", "4"};
    poly ps[4];
    ps[0] = poly_from(3, "1", "0.5", "-4.905"); /* a falling ball's height */
    ps[1] = poly_from(1, "1");
    poly_mul_root(&ps[1], "0.25");
    poly_mul_root(&ps[1], "0.7");
    ps[2] = poly_from(1, "-1"); /* -(s - 0.2)^3: a triple crossing */
    for (int i = 0; i < 3; i++)
        poly_mul_root(&ps[2], "0.2");
    ps[3] = poly_from(2, "1e-70", "-1e-69"); /* a zero at the start */
    mpfr_t r1, r2, tol, h, d1, d2;
    mpfr_inits2(PREC, r1, r2, tol, h, (mpfr_ptr)0);
    mpfr_inits2(64, d1, d2, (mpfr_ptr)0);
    mpfr_set_str(tol, "1e-65", 10, MPFR_RNDN);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) {
            poly q = poly_padded(&ps[i], 46);
            mpfr_set_str(h, H[j], 10, MPFR_RNDN);
            int s1 =
                hdo_event_locate(r1, ps[i].c, ps[i].len, h, tol, NULL, PREC);
            int s2 = hdo_event_locate(r2, q.c, q.len, h, tol, NULL, PREC);
            cr_assert_eq(s1, s2, "poly %d, H %s: status", i, H[j]);
            if (s1 == HDO_EVENT) {
                cr_assert(mpfr_equal_p(r1, r2), "poly %d, H %s: root", i, H[j]);
                hdo_event_time_error(d1, ps[i].c, ps[i].len, h, tol, r1, PREC);
                hdo_event_time_error(d2, q.c, q.len, h, tol, r1, PREC);
                cr_assert(mpfr_equal_p(d1, d2), "poly %d, H %s: delta", i,
                          H[j]);
            }
            slong z1 = hdo_event_zero_order(ps[i].c, ps[i].len, h, tol, NULL);
            slong z2 = hdo_event_zero_order(q.c, q.len, h, tol, NULL);
            cr_assert(z1 == z2 || (z1 == ps[i].len && z2 == q.len),
                      "poly %d, H %s: zero order %ld, %ld", i, H[j], (long)z1,
                      (long)z2);
            poly_free(&q);
        }
    for (int i = 0; i < 4; i++)
        poly_free(&ps[i]);
    mpfr_clears(r1, r2, tol, h, d1, d2, (mpfr_ptr)0);
}

/* hdo_event_time_error as it was before issue 28 (the whole Taylor shift,
   the plain loop of max_k |c_k| r^k, then the 64-bit log and exp of
   every k > 1), the second way of computing what the lazy shift and the
   screened scale must give to the bit. */
static void
time_error_whole(mpfr_t delta, const poly *p, const mpfr_t tol,
                 const mpfr_t root)
{
    slong len = p->len;
    mpfr_t ztol, d, lg, pw, term;
    mpfr_inits2(64, ztol, d, lg, pw, term, (mpfr_ptr)0);
    mpfr_set_ui(pw, 1, MPFR_RNDN);
    mpfr_set_ui(ztol, 0, MPFR_RNDN);
    for (slong k = 0; k < len; k++) { /* max_k |c_k| r^k, rounded up */
        mpfr_abs(term, p->c + k, MPFR_RNDU);
        mpfr_mul(term, term, pw, MPFR_RNDU);
        if (mpfr_cmp(term, ztol) > 0)
            mpfr_set(ztol, term, MPFR_RNDU);
        mpfr_mul(pw, pw, root, MPFR_RNDU);
    }
    mpfr_mul(ztol, ztol, tol, MPFR_RNDU);
    mpfr_ptr T = flint_malloc(len * sizeof *T);
    for (slong k = 0; k < len; k++) {
        mpfr_init2(T + k, PREC);
        mpfr_set(T + k, p->c + k, MPFR_RNDN);
    }
    for (slong i = 0; i < len - 1; i++)
        for (slong j = len - 2; j >= i; j--)
            mpfr_fma(T + j, root, T + j + 1, T + j, MPFR_RNDN);
    mpfr_set_inf(delta, 1);
    for (slong k = 1; k < len; k++) {
        if (mpfr_zero_p(T + k))
            continue;
        mpfr_abs(d, T + k, MPFR_RNDN);
        mpfr_div(d, ztol, d, MPFR_RNDN);
        if (k > 1) { /* at k = 1 the quotient itself (D-101) */
            mpfr_log(lg, d, MPFR_RNDN);
            mpfr_div_si(lg, lg, k, MPFR_RNDN);
            mpfr_exp(d, lg, MPFR_RNDN);
        }
        if (mpfr_cmp(d, delta) < 0)
            mpfr_set(delta, d, MPFR_RNDN);
    }
    for (slong k = 0; k < len; k++)
        mpfr_clear(T + k);
    flint_free(T);
    mpfr_clears(ztol, d, lg, pw, term, (mpfr_ptr)0);
}

/* The lazy time error (only the T_k that can be least, issue 28) gives
   the bits of the whole shift: products of random factors (simple,
   double, triple and fivefold roots, so every k can be the least), some
   series of order 48 (exp-like coefficients), at roots inside and at 0,
   and at two tolerances. */
Test(hybrid, time_error_lazy_equals_whole_shift)
{
    flint_rand_t st;
    flint_randinit(st);
    mpfr_t tol, root, H, d1, d2;
    mpfr_inits2(PREC, tol, root, H, (mpfr_ptr)0);
    mpfr_inits2(64, d1, d2, (mpfr_ptr)0);
    mpfr_set_ui(H, 1, MPFR_RNDN);
    for (int trial = 0; trial < 300; trial++) {
        mpfr_set_str(tol, trial % 2 ? "1e-65" : "1e-20", 10, MPFR_RNDN);
        poly p;
        char buf[64];
        double r = (double)(1 + n_randint(st, 63)) / 64;
        if (trial % 5 == 4) {
            /* exp(-3 s) - 1/2 + a random tail: 49 coefficients */
            p = poly_from(1, "0.5");
            p.c = flint_realloc(p.c, 49 * sizeof *p.c);
            for (slong k = 1; k < 49; k++) {
                mpfr_init2(p.c + k, PREC);
                mpfr_set_si(p.c + k, k % 2 ? -3 : 3, MPFR_RNDN);
                mpfr_pow_ui(p.c + k, p.c + k, k, MPFR_RNDN);
                mpfr_fac_ui(root, k, MPFR_RNDN); /* root: scratch here */
                mpfr_div(p.c + k, p.c + k, root, MPFR_RNDN);
                if (n_randint(st, 4) == 0)
                    mpfr_mul_d(p.c + k, p.c + k, 1.5, MPFR_RNDN);
            }
            p.len = 49;
            mpfr_set_d(root, r, MPFR_RNDN);
        } else {
            p = poly_from(1, n_randint(st, 2) ? "1" : "-1");
            slong mult = (slong)(1 + n_randint(st, 5)); /* of the root */
            snprintf(buf, sizeof buf, "%.17g", r);
            for (slong k = 0; k < mult; k++)
                poly_mul_root(&p, buf);
            for (slong k = (slong)n_randint(st, 4); k > 0; k--) {
                snprintf(buf, sizeof buf, "%.17g",
                         -2 + (double)n_randint(st, 512) / 64);
                poly_mul_root(&p, buf);
            }
            snprintf(buf, sizeof buf, "%.17g", r);
            mpfr_set_str(root, buf, 10, MPFR_RNDN);
            if (n_randint(st, 8) == 0)
                mpfr_set_zero(root, 1);
        }
        hdo_event_time_error(d1, p.c, p.len, H, tol, root, PREC);
        time_error_whole(d2, &p, tol, root);
        cr_assert(mpfr_equal_p(d1, d2) || (mpfr_inf_p(d1) && mpfr_inf_p(d2)),
                  "trial %d (len %ld): %.17g against %.17g", trial, (long)p.len,
                  mpfr_get_d(d1, MPFR_RNDN), mpfr_get_d(d2, MPFR_RNDN));
        poly_free(&p);
    }
    flint_randclear(st);
    mpfr_clears(tol, root, H, d1, d2, (mpfr_ptr)0);
}

/* The search's decisions in doubles hand over to Arb where their margin
   is thin: clusters of roots 1e-20 to 1e-40 apart (below what doubles
   resolve), tangencies a hair above or below zero, roots at the step's
   end.  The first crossing must still be found, at its known place. */
Test(hybrid, thin_margins_still_certified)
{
    struct {
        const char *lead, *roots[5];
        int nroots;
        const char *H, *first; /* NULL: no event */
        int digits;
    } cs[] = {
        /* a dip 1e-40 wide, narrower than w_min = sqrt(tol) / 4: below
           what the tolerance resolves, no event (locate.c) */
        {"1",
         {"0.3", "0.3000000000000000000000000000000000000001", "2"},
         3,
         "1",
         NULL,
         0},
        /* a dip 1e-20 wide is resolved: the crossing into it; the pair
           is ill-conditioned, 1e-70 / (1e-20 0.2) */
        {"-1", {"0.4", "0.40000000000000000001", "0.6"}, 3, "1", "0.4", 45},
        /* the crossing exactly at the step's end */
        {"1", {"0.5", "3"}, 2, "0.5", "0.5", 60},
        /* just beyond the step's end: no event */
        {"1", {"0.5000000000000000000000000001", "3"}, 2, "0.5", NULL, 0},
        /* a double root (touching) then a crossing */
        {"1", {"0.125", "0.125", "0.875"}, 3, "1", "0.875", 60},
    };
    mpfr_t root;
    mpfr_init2(root, PREC);
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        poly p = poly_from(1, cs[i].lead);
        for (int k = 0; k < cs[i].nroots; k++)
            poly_mul_root(&p, cs[i].roots[k]);
        if (mpfr_sgn(p.c + 0) < 0)
            for (slong k = 0; k < p.len; k++)
                mpfr_neg(p.c + k, p.c + k, MPFR_RNDN);
        int st = locate(root, &p, cs[i].H);
        if (cs[i].first == NULL) {
            cr_assert_eq(st, 0, "case %zu: no event", i);
        } else {
            cr_assert_eq(st, HDO_EVENT, "case %zu: event", i);
            assert_root_str(root, cs[i].first, cs[i].digits);
        }
        poly_free(&p);
    }
    mpfr_clear(root);
}

/* The root's refinement starts from a root found in doubles and stops
   when quadratic convergence puts it within eps (D-101): every root must
   still be found to the working precision.  Products (s - r) prod (s -
   r_j) with r in (0, 1) and up to 4 roots r_j in [1.5, 3] (so |P'(r)| >=
   2^-4), the sign chosen so that P(0) > 0; the coefficients are rounded
   at PREC, which moves the root by about 2^(10-PREC): it must be within
   2^(20-PREC) of r (a stop one Newton step early leaves 2^-100). */
Test(event, refined_root_to_working_precision)
{
    flint_rand_t st;
    flint_randinit(st);
    mpfr_t root, r, d;
    mpfr_inits2(PREC, root, r, d, (mpfr_ptr)0);
    for (int trial = 0; trial < 200; trial++) {
        slong n = (slong)n_randint(st, 5);
        poly p = poly_from(1, (n + 1) % 2 ? "-1" : "1");
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g",
                 (double)(1 + n_randint(st, 1023)) / 1024 + 1e-7 * trial);
        poly_mul_root(&p, buf);
        mpfr_set_str(r, buf, 10, MPFR_RNDN);
        for (slong j = 0; j < n; j++) {
            char rb[64];
            snprintf(rb, sizeof rb, "%.17g",
                     1.5 + (double)n_randint(st, 1536) / 1024);
            poly_mul_root(&p, rb);
        }
        cr_assert_eq(locate(root, &p, "1"), HDO_EVENT, "trial %d", trial);
        mpfr_sub(d, root, r, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_mul_2si(d, d, PREC - 20, MPFR_RNDN);
        cr_assert(mpfr_cmp_ui(d, 1) <= 0,
                  "trial %d (%ld roots beyond): root %s off by 2^%g", trial,
                  (long)n, buf, log2(mpfr_get_d(d, MPFR_RNDN)) + 20 - PREC);
        poly_free(&p);
    }
    flint_randclear(st);
    mpfr_clears(root, r, d, (mpfr_ptr)0);
}

/* A guard whose terms cancel (D-102): P = (s - r) (s - 3/2)^20 on [0, 1]
   sums terms up to 2^46 times its value near r, so the doubles' Newton
   ends in its rounding noise and the start is only as good as that
   (before D-102 such a root took 50 to 80 evaluations at the working
   precision).  The root must still be the working precision's: within
   2^(60-PREC) of r (the coefficients' rounding at PREC moves it by
   about 2^(26+20-PREC)). */
Test(event, cancelling_guard_root_to_working_precision)
{
    flint_rand_t st;
    flint_randinit(st);
    mpfr_t root, r, d;
    mpfr_inits2(PREC, root, r, d, (mpfr_ptr)0);
    for (int trial = 0; trial < 50; trial++) {
        poly p = poly_from(1, "-1");
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g",
                 (double)(1 + n_randint(st, 1023)) / 1024 + 1e-7 * trial);
        poly_mul_root(&p, buf);
        mpfr_set_str(r, buf, 10, MPFR_RNDN);
        for (int j = 0; j < 20; j++)
            poly_mul_root(&p, "1.5");
        cr_assert_eq(locate(root, &p, "1"), HDO_EVENT, "trial %d", trial);
        mpfr_sub(d, root, r, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_mul_2si(d, d, PREC - 60, MPFR_RNDN);
        cr_assert(mpfr_cmp_ui(d, 1) <= 0, "trial %d: root %s off by 2^%g",
                  trial, buf, log2(mpfr_get_d(d, MPFR_RNDN)) + 60 - PREC);
        poly_free(&p);
    }
    flint_randclear(st);
    mpfr_clears(root, r, d, (mpfr_ptr)0);
}
