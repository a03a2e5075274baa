/* autodiff.c -- tests of Taylor-mode AD against independent series.
   Expected coefficients: closed forms where they exist; otherwise
   python3-mpmath 1.2.1, mp.dps = 50, mpmath.taylor(f, t0, 8), e.g.
     /usr/bin/python3 -c "import mpmath as m; m.mp.dps=50;
       print(m.taylor(lambda t: t**t, 1, 8))"
   (mpmath differentiates numerically at 50 digits; compared at 1e-25). */
#include <stdlib.h>
#include <criterion/criterion.h>
#include "expr.h"
#include "../pool_fixture.h"

TestSuite(expr_taylor, .init = pool_setup, .fini = pool_teardown);

#define ORDER 8
#define PREC 200

/* Expands e (a function of t only) at t0 and compares the coefficients
   with the decimal strings in want (relative/absolute 1e-25). */
static void
check_series(hdo_expr e, const char *t0, const char *const *want, int n)
{
    hdo_program_t p;
    mpfr_t w, d;
    hdo_program_init(p, pool, &e, 1, PREC);
    hdo_program_taylor_alloc(p, ORDER);
    mpfr_inits2(PREC, w, d, (mpfr_ptr)0);
    if (p->time_slot >= 0)
        mpfr_set_str(hdo_program_coef(p, p->time_slot, 0), t0, 10, MPFR_RNDN);
    for (int k = 0; k < n; k++) {
        cr_assert_eq(hdo_program_taylor_step(p, k, NULL), 0, "order %d", k);
        mpfr_set_str(w, want[k], 10, MPFR_RNDN);
        mpfr_sub(d, hdo_program_coef(p, p->root_slot[0], k), w, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_abs(w, w, MPFR_RNDN);
        mpfr_add_si(w, w, 1, MPFR_RNDN);
        cr_assert(mpfr_cmp_d(d, 1e-25 * mpfr_get_d(w, MPFR_RNDN)) <= 0,
                  "coefficient %d: got %.30Rg, want %s", k,
                  hdo_program_coef(p, p->root_slot[0], k), want[k]);
    }
    /* recomputing an order gives the same value */
    mpfr_set(w, hdo_program_coef(p, p->root_slot[0], n - 1), MPFR_RNDN);
    hdo_program_taylor_step(p, n - 1, NULL);
    cr_assert(mpfr_equal_p(w, hdo_program_coef(p, p->root_slot[0], n - 1)));
    mpfr_clears(w, d, (mpfr_ptr)0);
    hdo_program_clear(p);
}

static hdo_expr
T(void)
{
    return hdo_expr_time(pool);
}
static hdo_expr
K(slong p, ulong q)
{
    return hdo_expr_const_si(pool, p, q);
}
static hdo_expr
U(hdo_expr_kind k, hdo_expr a)
{
    return hdo_expr_unary(pool, k, a);
}

Test(expr_taylor, exp_is_inverse_factorials)
{
    const char *w[] = {"1",
                       "1",
                       "0.5",
                       "0.16666666666666666666666666666666666666667",
                       "0.041666666666666666666666666666666666666667",
                       "0.0083333333333333333333333333333333333333333",
                       "0.0013888888888888888888888888888888888888889"};
    check_series(U(HDO_X_EXP, T()), "0", w, 7);
}

Test(expr_taylor, geometric_series_by_division)
{
    const char *w[] = {"1", "1", "1", "1", "1", "1", "1", "1", "1"};
    check_series(hdo_expr_div(pool, K(1, 1), hdo_expr_sub(pool, K(1, 1), T())),
                 "0", w, 9);
}

Test(expr_taylor, sqrt_and_rational_power_are_binomial)
{
    /* binomial(1/2, k): 1, 1/2, -1/8, 1/16, -5/128, 7/256 */
    const char *w[] = {"1",      "0.5",        "-0.125",
                       "0.0625", "-0.0390625", "0.02734375"};
    check_series(U(HDO_X_SQRT, hdo_expr_add(pool, T(), K(1, 1))), "0", w, 6);
    /* binomial(1/3, k): 1, 1/3, -1/9, 5/81, -10/243 */
    const char *w3[] = {"1", "0.33333333333333333333333333333333333333333",
                        "-0.11111111111111111111111111111111111111111",
                        "0.061728395061728395061728395061728395061728",
                        "-0.041152263374485596707818930041152263374486"};
    check_series(hdo_expr_pow(pool, hdo_expr_add(pool, T(), K(1, 1)), K(1, 3)),
                 "0", w3, 5);
}

Test(expr_taylor, sin_cos_atan_closed_forms)
{
    const char *ws[] = {"0", "1",
                        "0", "-0.16666666666666666666666666666666666666667",
                        "0", "0.0083333333333333333333333333333333333333333"};
    check_series(U(HDO_X_SIN, T()), "0", ws, 6);
    const char *wc[] = {"1", "0", "-0.5", "0",
                        "0.041666666666666666666666666666666666666667"};
    check_series(U(HDO_X_COS, T()), "0", wc, 5);
    const char *wa[] = {"0", "1",
                        "0", "-0.33333333333333333333333333333333333333333",
                        "0", "0.2"};
    check_series(U(HDO_X_ATAN, T()), "0", wa, 6);
}

Test(expr_taylor, variable_power_t_to_the_t)
{
    const char *w[] = {"1",
                       "1",
                       "1",
                       "0.5",
                       "0.33333333333333333333333333333333333333333",
                       "0.08333333333333333333333333333333333333333",
                       "0.075",
                       "-0.008333333333333333333333333333333333333333",
                       "0.02341269841269841269841269841269841269841"};
    check_series(hdo_expr_pow(pool, T(), T()), "1", w, 9);
}

Test(expr_taylor, asin_acos_tan_tanh_cosh_log)
{
    const char *wasin[] = {"0.1505682727766860264232603014673953904743",
                           "0.5057217374241736192211765293996075583133",
                           "0.01940108967100410303917557018157062244169",
                           "0.02304534095617992347364418396105859670539",
                           "0.003864202749079839466924576056075152918606",
                           "0.003067357694346418961444553638370315279601"};
    check_series(U(HDO_X_ASIN, hdo_expr_div(pool, T(), K(2, 1))), "0.3", wasin,
                 6);
    const char *wacos[] = {"1.504080178384671359685916588369382168007",
                           "-0.3340765523905304808556918510996919019425",
                           "-0.003728532950787170545264417981023347119894",
                           "-0.006297447766582497870349872631639135388511",
                           "-0.0003144203413587813968759978591797878966249"};
    check_series(U(HDO_X_ACOS, hdo_expr_div(pool, T(), K(3, 1))), "0.2", wacos,
                 5);
    const char *wtan[] = {"0.8422883804630794481281350022129377171872",
                          "1.709449715863117276564724302149121525906",
                          "1.439849632657416383652403132719696238691",
                          "1.782585187155747539572110173063205121693",
                          "1.981400667879362095388784765977521399999"};
    check_series(U(HDO_X_TAN, T()), "0.7", wtan, 5);
    const char *wtanh[] = {"0.4621171572600097585023184836436725487303",
                           "0.7864477329659274101496989343436361024891",
                           "-0.3634309906917936377699184567918493044922",
                           "-0.09420154804329506014427882024415301576201",
                           "0.1646758151551909604532726580378623969403"};
    check_series(U(HDO_X_TANH, T()), "0.5", wtanh, 5);
    const char *wcosh[] = {"1.012827329979010786737479034180264225071",
                           "0.1285468328102395586249056421693612522377",
                           "0.48478828660608290003712534364938611732",
                           "0.8239735261496341823099731625089432469624",
                           "0.575117984545243000912354749474553122872"};
    check_series(U(HDO_X_COSH, hdo_expr_mul(pool, T(), T())), "0.4", wcosh, 5);
    const char *wlog[] = {"1.061674186529618910367423428716978540011",
                          "0.1568881318204512705925656652100871655634",
                          "-0.1664306790040212292812762821897755438297",
                          "-0.0006806280929670403047325918370887746509458",
                          "0.001123851082013315325183571721211209723813"};
    check_series(U(HDO_X_LOG, hdo_expr_add(pool, K(2, 1), U(HDO_X_SIN, T()))),
                 "1.1", wlog, 5);
}

Test(expr_taylor, integer_powers_including_a_zero_base)
{
    const char *w5[] = {"0", "0", "0", "0", "0", "1", "0", "0", "0"};
    check_series(hdo_expr_pow(pool, hdo_expr_sub(pool, T(), K(1, 2)), K(5, 1)),
                 "0.5", w5, 9);
    const char *wm3[] = {"-0.2962962962962962962962962962962962962963",
                         "-0.5925925925925925925925925925925925925926",
                         "-0.7901234567901234567901234567901234567901",
                         "-0.8779149519890260631001371742112482853224",
                         "-0.8779149519890260631001371742112482853224"};
    check_series(hdo_expr_pow(pool, hdo_expr_sub(pool, T(), K(2, 1)), K(-3, 1)),
                 "0.5", wm3, 5);
}

Test(expr_taylor, domain_error_names_the_node)
{
    hdo_expr e = U(HDO_X_LOG, hdo_expr_sub(pool, T(), K(1, 1)));
    hdo_program_t p;
    hdo_expr bad = HDO_EXPR_NONE;
    hdo_program_init(p, pool, &e, 1, 64);
    hdo_program_taylor_alloc(p, 3);
    mpfr_set_si(hdo_program_coef(p, p->time_slot, 0), 0, MPFR_RNDN);
    cr_assert_lt(hdo_program_taylor_step(p, 0, &bad), 0);
    cr_assert_eq(bad, e);
    hdo_program_clear(p);
}

/* sin(a) and cos(a) in one program (sinh and cosh alike): the later one
   copies the earlier one's pair of series (autodiff.c, twin); every
   coefficient must have the bits of a program holding it alone, and a
   pass that does not compute the twin computes its own. */
Test(expr_taylor, sin_and_cos_of_one_operand_are_computed_once)
{
    hdo_expr_kind pairs[2][2] = {{HDO_X_SIN, HDO_X_COS},
                                 {HDO_X_COSH, HDO_X_SINH}};
    for (int q = 0; q < 2; q++) {
        /* a = 1/3 + t + t^2/2: a series with every order */
        hdo_expr a = hdo_expr_add(
            pool, hdo_expr_add(pool, K(1, 3), T()),
            hdo_expr_mul(pool, K(1, 2), hdo_expr_mul(pool, T(), T())));
        hdo_expr both[2] = {U(pairs[q][0], a), U(pairs[q][1], a)};
        hdo_program_t p2, p1;
        hdo_program_init(p2, pool, both, 2, PREC);
        hdo_program_init(p1, pool, both + 1, 1, PREC);
        hdo_program_taylor_alloc(p2, ORDER);
        hdo_program_taylor_alloc(p1, ORDER);
        cr_assert(p2->code[p2->root_slot[1]].twin == p2->root_slot[0]);
        for (int k = 0; k <= ORDER; k++) {
            cr_assert_eq(hdo_program_taylor_step(p2, k, NULL), 0);
            cr_assert_eq(hdo_program_taylor_step(p1, k, NULL), 0);
            cr_assert(mpfr_equal_p(hdo_program_coef(p2, p2->root_slot[1], k),
                                   hdo_program_coef(p1, p1->root_slot[0], k)),
                      "pair %d, order %d", q, k);
        }
        /* the twin left out of a pass: the later one computes its own */
        char *active = calloc((size_t)p2->nslots, 1);
        for (slong i = 0; i < p2->nslots; i++)
            active[i] = i != p2->root_slot[0];
        mpfr_t keep;
        mpfr_init2(keep, PREC);
        mpfr_set(keep, hdo_program_coef(p2, p2->root_slot[1], ORDER),
                 MPFR_RNDN);
        /* the twin's companion at this order spoiled: not to be read */
        mpfr_set_ui(
            p2->auxcoef[p2->code[p2->root_slot[0]].aux * (ORDER + 1) + ORDER],
            7, MPFR_RNDN);
        cr_assert_eq(hdo_program_taylor_step_some(p2, ORDER, active, NULL), 0);
        cr_assert(
            mpfr_equal_p(keep, hdo_program_coef(p2, p2->root_slot[1], ORDER)));
        mpfr_clear(keep);
        free(active);
        hdo_program_clear(p2);
        hdo_program_clear(p1);
    }
}

/* One coefficient of the kinds below, set from a code: +0, -0, a
   number, an infinity or NaN. */
static void
set_case(mpfr_ptr x, unsigned long code, flint_rand_t st)
{
    switch (code) {
    case 0:
        mpfr_set_zero(x, 1);
        break;
    case 1:
        mpfr_set_zero(x, -1);
        break;
    case 2:
        mpfr_set_inf(x, n_randint(st, 2) ? 1 : -1);
        break;
    case 3:
        mpfr_set_nan(x);
        break;
    default:
        mpfr_set_si_2exp(x, (long)n_randint(st, 2001) - 1000,
                         (long)n_randint(st, 40) - 20, MPFR_RNDN);
        break;
    }
}

static int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b))
        return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

/* x + y, x - y and products by a constant (zero, negative, positive, on
   either side) with the inputs' coefficients zeros of both signs,
   numbers, infinities and NaN: each coefficient has the bits of the
   rounded operation (a zero product +0, as the convolution's sum gives
   it), the zeros' signs included (D-120 computes zeros from zeros
   without the calls).  Fails when (-0) + (-0) or (-0) - (+0) gives +0,
   or a zero product keeps -0. */
Test(expr_taylor, zeros_from_zeros_same_bits)
{
    hdo_expr x = hdo_expr_var(pool, 0, 0), y = hdo_expr_var(pool, 1, 0);
    slong cs[3][2] = {{-2, 1}, {3, 7}, {0, 1}};
    hdo_expr roots[8] = {hdo_expr_add(pool, x, y), hdo_expr_sub(pool, x, y)};
    slong nr = 2;
    for (int j = 0; j < 3; j++) {
        hdo_expr k = K(cs[j][0], (ulong)cs[j][1]);
        hdo_expr m1 = hdo_expr_mul(pool, k, x), m2 = hdo_expr_mul(pool, y, k);
        if (m1 != K(0, 1)) /* 0 x may fold to the constant 0 */
            roots[nr++] = m1;
        if (m2 != K(0, 1))
            roots[nr++] = m2;
    }
    /* a program each: a NaN or infinity ends a pass at its slot */
    flint_rand_t st;
    flint_randinit(st);
    mpfr_t want, c;
    mpfr_inits2(PREC, want, c, (mpfr_ptr)0);
    slong nzero = 0, nneg = 0;
    for (slong r = 0; r < nr; r++) {
        hdo_program_t p;
        hdo_program_init(p, pool, roots + r, 1, PREC);
        hdo_program_taylor_alloc(p, ORDER);
        const hdo_program_instr *ins = p->code + p->root_slot[0];
        for (int trial = 0; trial < 1000; trial++) {
            slong k = 1 + (slong)n_randint(st, ORDER);
            for (slong q = 0; q < p->ninputs; q++) {
                unsigned long code = n_randint(st, 9);
                set_case(hdo_program_coef(p, p->inputs[q].slot, k),
                         code < 6 ? code % 2 : code - 4, st);
            }
            /* a constant factor of value +-0 (its slot's order 0) in
               some trials: 0 inf is NaN, not a zero product */
            if (ins->kind == HDO_X_MUL && n_randint(st, 3) == 0) {
                slong cslot =
                    p->code[ins->a].kind == HDO_X_CONST ? ins->a : ins->b;
                mpfr_set_zero(hdo_program_coef(p, cslot, 0),
                              n_randint(st, 2) ? 1 : -1);
            }
            hdo_program_taylor_step(p, k, NULL);
            mpfr_srcptr got = hdo_program_coef(p, p->root_slot[0], k);
            if (ins->kind == HDO_X_ADD || ins->kind == HDO_X_SUB) {
                mpfr_srcptr a = hdo_program_coef(p, ins->a, k),
                            b = hdo_program_coef(p, ins->b, k);
                if (ins->kind == HDO_X_ADD)
                    mpfr_add(want, a, b, MPFR_RNDN);
                else
                    mpfr_sub(want, a, b, MPFR_RNDN);
            } else {
                cr_assert_eq(ins->kind, HDO_X_MUL);
                int ca = p->code[ins->a].kind == HDO_X_CONST;
                mpfr_set(c, hdo_program_coef(p, ca ? ins->a : ins->b, 0),
                         MPFR_RNDN);
                mpfr_mul(want, c, hdo_program_coef(p, ca ? ins->b : ins->a, k),
                         MPFR_RNDN);
                if (mpfr_zero_p(want))
                    mpfr_set_zero(want, 1);
            }
            nzero += mpfr_zero_p(want);
            nneg += mpfr_zero_p(want) && mpfr_signbit(want);
            cr_assert(same_bits(got, want),
                      "trial %d root %ld (kind %d) order %ld: %g, want %g",
                      trial, (long)r, (int)ins->kind, (long)k,
                      mpfr_get_d(got, MPFR_RNDN), mpfr_get_d(want, MPFR_RNDN));
        }
        hdo_program_clear(p);
    }
    cr_assert(nr >= 6 && nzero > 3000 && nneg > 200,
              "%ld roots, %ld zeros, %ld -0", (long)nr, (long)nzero,
              (long)nneg);
    mpfr_clears(want, c, (mpfr_ptr)0);
    flint_randclear(st);
}
