/* radau_eval.c -- the stage evaluations with operations on time alone
   kept per stage (ref/step/radau_eval.c): every value the same as a
   plain hdo_program_eval, stage after stage, iterate after iterate, the
   kept values really used, and domain errors still reported; and the
   residual's fixed-point entries (hdo_radau_fixed, ref/step/radau_dot.c)
   against MPFR's rounding, ties included. */
#include <criterion/criterion.h>
#include "../../ref/step/radau.h"
#include "../../ref/step/radau_dot.h"
#include "../pool_fixture.h"

TestSuite(step_tcache, .init = pool_setup, .fini = pool_teardown);

#define PREC 170
#define S 3

static void
set_point(hdo_program_struct *p, double t, double x)
{
    mpfr_set_d(p->value[p->time_slot], t, MPFR_RNDN);
    for (slong q = 0; q < p->ninputs; q++)
        mpfr_set_d(p->value[p->inputs[q].slot], x, MPFR_RNDN);
}

/* x sin(3 t) + exp(t/2) and cos(pi t) x^2: a ring modulator's sources
   beside terms in the state */
static void
make_roots(hdo_expr *e)
{
    hdo_expr t = hdo_expr_time(pool), x = hdo_expr_var(pool, 0, 0);
    e[0] = hdo_expr_add(
        pool,
        hdo_expr_mul(pool, x,
                     hdo_expr_unary(
                         pool, HDO_X_SIN,
                         hdo_expr_mul(pool, hdo_expr_const_si(pool, 3, 1), t))),
        hdo_expr_unary(pool, HDO_X_EXP,
                       hdo_expr_div(pool, t, hdo_expr_const_si(pool, 2, 1))));
    e[1] =
        hdo_expr_mul(pool,
                     hdo_expr_unary(pool, HDO_X_COS,
                                    hdo_expr_mul(pool, hdo_expr_pi(pool), t)),
                     hdo_expr_mul(pool, x, x));
}

Test(step_tcache, same_values_as_the_plain_evaluation)
{
    hdo_expr e[2];
    make_roots(e);
    hdo_program_t ref, p;
    hdo_program_init(ref, pool, e, 2, PREC);
    hdo_program_init(p, pool, e, 2, PREC);
    hdo_radau_tcache c;
    hdo_radau_tcache_init(&c, p, S);
    cr_assert_geq(c.nt, 5, "3 t, sin, t/2, exp, pi t, cos: %ld", (long)c.nt);
    /* steps (the stage times move), iterates (x moves), stages in turn:
       each stage's evaluation overwrites the others' values */
    for (int step = 0; step < 3; step++)
        for (int it = 0; it < 4; it++)
            for (slong i = 0; i < S; i++) {
                double t = 0.1 * step + 0.03 * (double)(i + 1);
                double x = 1.0 + 0.25 * it - 0.1 * (double)i;
                set_point(ref, t, x);
                set_point(p, t, x);
                cr_assert_eq(hdo_program_eval(ref, NULL), 0);
                cr_assert_eq(hdo_radau_tcache_eval(&c, p, i, NULL), 0);
                for (int r = 0; r < 2; r++)
                    cr_assert(mpfr_equal_p(ref->value[ref->root_slot[r]],
                                           p->value[p->root_slot[r]]),
                              "step %d iterate %d stage %ld root %d", step, it,
                              (long)i, r);
            }
    hdo_radau_tcache_clear(&c);
    hdo_program_clear(ref);
    hdo_program_clear(p);
}

Test(step_tcache, kept_values_are_used_at_the_same_time_only)
{
    hdo_expr e[2];
    make_roots(e);
    hdo_program_t p;
    hdo_program_init(p, pool, e, 2, PREC);
    hdo_radau_tcache c;
    hdo_radau_tcache_init(&c, p, S);
    set_point(p, 0.5, 2.0);
    cr_assert_eq(hdo_radau_tcache_eval(&c, p, 1, NULL), 0);
    mpfr_t want;
    mpfr_init2(want, PREC);
    mpfr_set(want, p->value[p->root_slot[1]], MPFR_RNDN);
    /* a kept value changed behind the cache's back shows in the next
       evaluation at the same time: it was used, not recomputed */
    for (slong q = 0; q < c.nt; q++)
        mpfr_set_ui(c.val + 1 * c.nt + q, 0, MPFR_RNDN);
    cr_assert_eq(hdo_radau_tcache_eval(&c, p, 1, NULL), 0);
    cr_assert(mpfr_zero_p(p->value[p->root_slot[1]]), "cos(pi t) was kept");
    /* another time, or another stage: recomputed */
    set_point(p, 0.5, 2.0);
    mpfr_nextabove(p->value[p->time_slot]); /* one ulp later */
    cr_assert_eq(hdo_radau_tcache_eval(&c, p, 1, NULL), 0);
    cr_assert(!mpfr_zero_p(p->value[p->root_slot[1]]));
    set_point(p, 0.5, 2.0);
    cr_assert_eq(hdo_radau_tcache_eval(&c, p, 2, NULL), 0);
    cr_assert(mpfr_equal_p(p->value[p->root_slot[1]], want));
    mpfr_clear(want);
    hdo_radau_tcache_clear(&c);
    hdo_program_clear(p);
}

Test(step_tcache, domain_errors_are_still_reported)
{
    /* log(t - 1) (time alone) and log(x) (the state) */
    hdo_expr t = hdo_expr_time(pool), x = hdo_expr_var(pool, 0, 0);
    hdo_expr e[2] = {
        hdo_expr_unary(pool, HDO_X_LOG,
                       hdo_expr_sub(pool, t, hdo_expr_const_si(pool, 1, 1))),
        hdo_expr_unary(pool, HDO_X_LOG, x)};
    hdo_program_t p;
    hdo_program_init(p, pool, e, 2, PREC);
    hdo_radau_tcache c;
    hdo_radau_tcache_init(&c, p, S);
    hdo_expr bad = HDO_EXPR_NONE;
    set_point(p, 0.5, 2.0); /* log(-0.5): not kept, reported twice */
    cr_assert_eq(hdo_radau_tcache_eval(&c, p, 0, &bad), HDO_ERR_DOMAIN);
    cr_assert_eq(bad, e[0]);
    bad = HDO_EXPR_NONE;
    cr_assert_eq(hdo_radau_tcache_eval(&c, p, 0, &bad), HDO_ERR_DOMAIN);
    cr_assert_eq(bad, e[0]);
    set_point(p, 2.0, 2.0); /* kept, then log(-1) of the state */
    cr_assert_eq(hdo_radau_tcache_eval(&c, p, 0, NULL), 0);
    set_point(p, 2.0, -1.0);
    bad = HDO_EXPR_NONE;
    cr_assert_eq(hdo_radau_tcache_eval(&c, p, 0, &bad), HDO_ERR_DOMAIN);
    cr_assert_eq(bad, e[1]);
    hdo_radau_tcache_clear(&c);
    hdo_program_clear(p);
}

/* round(x 2^shift), ties to even, against mpfr_mul_2si and mpfr_get_z:
   random significands at 53 to 300 bits, every shift that puts the
   binary point inside, at or beyond the significand, and exact ties
   (x = (2k + 1) / 2 scaled), with both signs. */
Test(step, radau_fixed_rounds_as_mpfr)
{
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, 28);
    mpz_t got, want;
    mpz_inits(got, want, (mpz_ptr)0);
    long checked = 0, ties = 0;
    for (int trial = 0; trial < 3000; trial++) {
        mpfr_prec_t p = 53 + (mpfr_prec_t)gmp_urandomm_ui(st, 248);
        mpfr_t x, t;
        mpfr_inits2(p, x, t, (mpfr_ptr)0);
        if (trial % 3 == 0) {
            /* a tie: an odd integer of up to p bits over 2 */
            mpz_t k;
            mpz_init(k);
            mpz_urandomb(k, st, (mp_bitcnt_t)(p - 1));
            mpz_mul_2exp(k, k, 1);
            mpz_add_ui(k, k, 1);
            mpfr_set_z_2exp(x, k, -1, MPFR_RNDN);
            mpz_clear(k);
        } else {
            mpfr_urandomb(x, st);
        }
        if (gmp_urandomb_ui(st, 1))
            mpfr_neg(x, x, MPFR_RNDN);
        long shift = (long)gmp_urandomm_ui(st, 3 * (unsigned long)p) - (long)p -
                     (mpfr_regular_p(x) ? (long)mpfr_get_exp(x) : 0);
        if (trial % 3 == 0)
            shift = 0;
        mpfr_mul_2si(t, x, shift, MPFR_RNDN);
        mpfr_get_z(want, t, MPFR_RNDN);
        hdo_radau_fixed(got, x, shift);
        cr_assert(mpz_cmp(got, want) == 0, "prec %ld shift %ld", (long)p,
                  shift);
        checked++;
        ties += trial % 3 == 0;
        mpfr_clears(x, t, (mpfr_ptr)0);
    }
    cr_assert_geq(ties, 1000);
    cr_assert_eq(checked, 3000);
    mpz_clears(got, want, (mpz_ptr)0);
    gmp_randclear(st);
}
