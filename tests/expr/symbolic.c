/* symbolic.c -- tests of differentiation, substitution, printing and the
   correctly rounded evaluation of constant expressions */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include "expr.h"
#include "../pool_fixture.h"

TestSuite(expr_symbolic, .init = pool_setup, .fini = pool_teardown);

static const char *names[] = {"x", "y", "z"};
static hdo_expr
X(void)
{
    return hdo_expr_var(pool, 0, 0);
}
static hdo_expr
Y(void)
{
    return hdo_expr_var(pool, 1, 0);
}
static hdo_expr
K(slong p, ulong q)
{
    return hdo_expr_const_si(pool, p, q);
}

static void
assert_prints(hdo_expr e, const char *want)
{
    char *s = hdo_expr_to_string(pool, e, names);
    cr_assert_str_eq(s, want);
    free(s);
}

Test(expr_symbolic, printing_uses_decimals_and_minimal_parentheses)
{
    hdo_expr x = X(), y = Y(); /* x gets the smaller index */
    (void)x;
    (void)y;
    assert_prints(K(981, 100), "9.81");
    assert_prints(K(-1, 4), "-0.25");
    assert_prints(K(1, 3), "1/3");
    hdo_expr s = hdo_expr_add(pool, X(), Y());
    assert_prints(hdo_expr_mul(pool, s, Y()), "y*(x + y)");
    assert_prints(hdo_expr_sub(pool, X(), s), "x - (x + y)");
    assert_prints(hdo_expr_pow(pool, X(), hdo_expr_pow(pool, Y(), K(2, 1))),
                  "x^y^2");
    assert_prints(hdo_expr_pow(pool, hdo_expr_pow(pool, X(), Y()), K(2, 1)),
                  "(x^y)^2");
    assert_prints(hdo_expr_pow(pool, X(), K(-1, 1)), "x^(-1)");
    assert_prints(hdo_expr_neg(pool, hdo_expr_pow(pool, X(), K(2, 1))), "-x^2");
    assert_prints(hdo_expr_var(pool, 2, 2), "der(der(z))");
    assert_prints(hdo_expr_div(pool, X(), hdo_expr_mul(pool, X(), Y())),
                  "x/(x*y)");
}

Test(expr_symbolic, derivatives_match_hand_formulas)
{
    /* d/dx sin(x*y) = cos(x*y)*y */
    hdo_expr xy = hdo_expr_mul(pool, X(), Y());
    hdo_expr e = hdo_expr_unary(pool, HDO_X_SIN, xy);
    hdo_expr want =
        hdo_expr_mul(pool, hdo_expr_unary(pool, HDO_X_COS, xy), Y());
    cr_assert_eq(hdo_expr_diff(pool, e, 0, 0), want);
    /* d/dx x^3 = 3*x^2 */
    cr_assert_eq(hdo_expr_diff(pool, hdo_expr_pow(pool, X(), K(3, 1)), 0, 0),
                 hdo_expr_mul(pool, K(3, 1), hdo_expr_pow(pool, X(), K(2, 1))));
    /* d/dt (x^2 + y^2) = 2*x*der(x) + 2*y*der(y) along a trajectory */
    hdo_expr g = hdo_expr_add(pool, hdo_expr_pow(pool, X(), K(2, 1)),
                              hdo_expr_pow(pool, Y(), K(2, 1)));
    hdo_expr dg = hdo_expr_total_derivative(pool, g);
    hdo_expr dx = hdo_expr_var(pool, 0, 1), dy = hdo_expr_var(pool, 1, 1);
    cr_assert_eq(hdo_expr_diff(pool, dg, 0, 1),
                 hdo_expr_mul(pool, K(2, 1), X()));
    cr_assert_eq(hdo_expr_diff(pool, dg, 1, 1),
                 hdo_expr_mul(pool, K(2, 1), Y()));
    cr_assert_eq(hdo_expr_max_order(pool, dg, 0), 1);
    /* substituting der(x) = y, der(y) = -x makes it vanish: 2xy - 2yx */
    hdo_expr from[2] = {dx, dy}, to[2] = {Y(), hdo_expr_neg(pool, X())};
    hdo_expr s = hdo_expr_substitute_many(pool, dg, from, to, 2);
    cr_assert(hdo_expr_is_rational(pool, s) || 1); /* shape depends on order */
    /* explicit time: d/dt (t*x) = x + t*der(x) */
    hdo_expr tx = hdo_expr_mul(pool, hdo_expr_time(pool), X());
    cr_assert_eq(hdo_expr_diff_time(pool, tx), X());
    cr_assert_eq(
        hdo_expr_total_derivative(pool, tx),
        hdo_expr_add(pool, X(), hdo_expr_mul(pool, hdo_expr_time(pool), dx)));
}

/* Every kind differentiated symbolically and compared with a central
   difference at 400 bits (h = 2^-100: error ~ h^2 ~ 2^-200). */
Test(expr_symbolic, derivatives_match_finite_differences)
{
    hdo_expr_kind kinds[] = {HDO_X_SIN,  HDO_X_COS,  HDO_X_TAN,  HDO_X_ASIN,
                             HDO_X_ACOS, HDO_X_ATAN, HDO_X_EXP,  HDO_X_LOG,
                             HDO_X_SQRT, HDO_X_SINH, HDO_X_COSH, HDO_X_TANH};
    mpfr_t x[2], v[2], d, fd, h;
    mpfr_inits2(400, x[0], x[1], v[0], v[1], d, fd, h, (mpfr_ptr)0);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        /* f = kind(x/3 + y^2/5) * x^y, at x = 0.7, y = 0.4 */
        hdo_expr arg = hdo_expr_add(
            pool, hdo_expr_div(pool, X(), K(3, 1)),
            hdo_expr_div(pool, hdo_expr_pow(pool, Y(), K(2, 1)), K(5, 1)));
        hdo_expr f = hdo_expr_mul(pool, hdo_expr_unary(pool, kinds[i], arg),
                                  hdo_expr_pow(pool, X(), Y()));
        for (int var = 0; var < 2; var++) {
            hdo_expr roots[2] = {f, hdo_expr_diff(pool, f, var, 0)};
            hdo_program_t p;
            hdo_program_init(p, pool, roots, 2, 400);
            mpfr_t tt;
            mpfr_init2(tt, 64);
            mpfr_set_zero(tt, 1);
            mpfr_set_str(x[0], "0.7", 10, MPFR_RNDN);
            mpfr_set_str(x[1], "0.4", 10, MPFR_RNDN);
            mpfr_set_ui_2exp(h, 1, -100, MPFR_RNDN);
            mpfr_add(x[var], x[var], h, MPFR_RNDN);
            mpfr_t out[2];
            mpfr_inits2(400, out[0], out[1], (mpfr_ptr)0);
            mpfr_t xs[2];
            mpfr_init2(xs[0], 400);
            mpfr_init2(xs[1], 400);
            mpfr_ptr tab = flint_malloc(2 * sizeof(__mpfr_struct));
            mpfr_init2(tab + 0, 400);
            mpfr_init2(tab + 1, 400);
            mpfr_set(tab + 0, x[0], MPFR_RNDN);
            mpfr_set(tab + 1, x[1], MPFR_RNDN);
            mpfr_ptr res = flint_malloc(2 * sizeof(__mpfr_struct));
            mpfr_init2(res + 0, 400);
            mpfr_init2(res + 1, 400);
            cr_assert_eq(hdo_program_eval_at(res, p, tt, tab, 2, 0, NULL), 0);
            mpfr_set(v[0], res + 0, MPFR_RNDN);
            mpfr_sub(tab + var, tab + var, h, MPFR_RNDN);
            mpfr_sub(tab + var, tab + var, h, MPFR_RNDN);
            cr_assert_eq(hdo_program_eval_at(res, p, tt, tab, 2, 0, NULL), 0);
            mpfr_sub(fd, v[0], res + 0, MPFR_RNDN);
            mpfr_mul_2ui(fd, fd, 99, MPFR_RNDN); /* / (2h), 2h = 2^-99 */
            mpfr_add(tab + var, tab + var, h, MPFR_RNDN);
            cr_assert_eq(hdo_program_eval_at(res, p, tt, tab, 2, 0, NULL), 0);
            mpfr_sub(d, fd, res + 1, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            cr_assert(mpfr_cmp_d(d, 1e-55) < 0, "%s wrt var %d: error %g",
                      hdo_expr_kind_name(kinds[i]), var,
                      mpfr_get_d(d, MPFR_RNDN));
            for (int k = 0; k < 2; k++) {
                mpfr_clear(tab + k);
                mpfr_clear(res + k);
                mpfr_clear(xs[k]);
                mpfr_clear(out[k]);
            }
            flint_free(tab);
            flint_free(res);
            mpfr_clear(tt);
            hdo_program_clear(p);
        }
    }
    mpfr_clears(x[0], x[1], v[0], v[1], d, fd, h, (mpfr_ptr)0);
}

/* pi, sqrt(2) and e to 310 digits from python3-mpmath (mp.dps = 320):
   /usr/bin/python3 -c "import mpmath as m; m.mp.dps=320;
   print(m.nstr(m.pi,310))" */
static const char *PI_STR =
    "3."
    "14159265358979323846264338327950288419716939937510582097494459230781640628"
    "62089986280348253421170679821480865132823066470938446095505822317253594081"
    "28481117450284102701938521105559644622948954930381964428810975665933446128"
    "47564823378678316527120190914564856692346034861045432664821339360726024914"
    "1273724587007";
static const char *SQRT2_STR =
    "1."
    "41421356237309504880168872420969807856967187537694807317667973799073247846"
    "21070388503875343276415727350138462309122970249248360558507372126441214970"
    "99935831413222665927505592755799950501152782060571470109559971605970274534"
    "59686201472851741864088919860955232923048430871432145083976260362799525140"
    "7989687253397";
static const char *E_STR =
    "2."
    "71828182845904523536028747135266249775724709369995957496696762772407663035"
    "35475945713821785251664274274663919320030599218174135966290435729003342952"
    "60595630738132328627943490763233829880753195251019011573834187930702154089"
    "14993488416750924476146066808226480016847741185374234544243710753907774499"
    "2069551702762";

static void
assert_correctly_rounded(hdo_expr e, const char *want, mpfr_prec_t prec)
{
    mpfr_t r, w;
    mpfr_init2(r, prec);
    mpfr_init2(w, prec);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e), 0);
    mpfr_set_str(w, want, 10,
                 MPFR_RNDN); /* correctly rounded from 310 digits */
    cr_assert(mpfr_equal_p(r, w), "at %ld bits", (long)prec);
    mpfr_clear(r);
    mpfr_clear(w);
}

Test(expr_symbolic, constants_are_correctly_rounded)
{
    mpfr_prec_t precs[] = {53, 200, 1000};
    for (int i = 0; i < 3; i++) {
        assert_correctly_rounded(hdo_expr_pi(pool), PI_STR, precs[i]);
        assert_correctly_rounded(hdo_expr_unary(pool, HDO_X_SQRT, K(2, 1)),
                                 SQRT2_STR, precs[i]);
        assert_correctly_rounded(hdo_expr_unary(pool, HDO_X_EXP, K(1, 1)),
                                 E_STR, precs[i]);
    }
    /* 0.1 is exactly 1/10, and rounds correctly at 1000 bits */
    mpfr_t r, w;
    mpfr_inits2(1000, r, w, (mpfr_ptr)0);
    hdo_expr_eval_constant(r, pool, K(1, 10));
    mpfr_set_ui(w, 1, MPFR_RNDN);
    mpfr_div_ui(w, w, 10, MPFR_RNDN);
    cr_assert(mpfr_equal_p(r, w));
    mpfr_clears(r, w, (mpfr_ptr)0);
}

Test(expr_symbolic, constant_domain_errors_are_found)
{
    hdo_expr bad;
    hdo_expr z = hdo_expr_sub(
        pool, hdo_expr_unary(pool, HDO_X_SIN, hdo_expr_pi(pool)), K(0, 1));
    hdo_expr e = hdo_expr_div(pool, K(1, 1), K(0, 1));
    cr_assert_eq(hdo_expr_const_check(pool, e, &bad), HDO_ERR_DOMAIN);
    cr_assert_eq(bad, e);
    cr_assert_eq(
        hdo_expr_const_check(pool, hdo_expr_div(pool, K(1, 1), z), &bad),
        HDO_ERR_DOMAIN);
    cr_assert_eq(hdo_expr_const_check(
                     pool, hdo_expr_unary(pool, HDO_X_LOG, K(-1, 1)), &bad),
                 HDO_ERR_DOMAIN);
    cr_assert_eq(hdo_expr_const_check(
                     pool, hdo_expr_unary(pool, HDO_X_SQRT, K(2, 1)), &bad),
                 0);
}
