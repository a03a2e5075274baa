/* lazy.c -- lazy algebraic unknowns (hdo_taylor_lazy_setup): which unknowns
   are lazy, their values at points of a step against their equations
   evaluated independently, and a whole integration against the same mode
   with every unknown carried at every order. */
#include "common.h"

TestSuite(taylor_lazy);

/* z feeds der(om); w is needed through z's equation; x and y feed nothing
   (y's equation is nonlinear in y: Newton, not one step). */
static const char *mixed = "model mixed\n"
                           "var th = 1, om = 0, z = 0, w = 1, x = 1, y = 1\n"
                           "mode a\n"
                           "  der(th) = om\n"
                           "  der(om) = -sin(th) + z\n"
                           "  z = w*w/2\n"
                           "  w = cos(t)\n"
                           "  x = sin(th) + y\n"
                           "  y + y^3/10 = exp(th) - x/3\n"
                           "end\n"
                           "start a\n";

static slong
unknown_of(const tt_case *c, const char *name)
{
    slong v = hdo_model_find_var(c->model, name);
    for (slong j = 0; j < c->red->nimplicit; j++)
        if (c->red->unknown[j].var == v)
            return j;
    cr_assert_fail("no unknown %s", name);
    return -1;
}

Test(taylor_lazy, the_unneeded_unknowns_are_lazy)
{
    tt_case c;
    tt_init(&c, mixed, 30, 0);
    hdo_taylor_lazy_setup(c.tay);
    cr_assert_eq(c.tay->nlazy, 2);
    cr_expect(c.tay->lazy[unknown_of(&c, "x")]);
    cr_expect(c.tay->lazy[unknown_of(&c, "y")]);
    cr_expect(!c.tay->lazy[unknown_of(&c, "z")]);
    cr_expect(!c.tay->lazy[unknown_of(&c, "w")]);
    cr_expect(!c.tay->lazy_affine); /* y^3 */
    tt_clear(&c);
}

/* At points inside a step, x and y solve their own equations (evaluated
   here in MPFR, not by the library's programs) to the working precision,
   and z, w (from the series) agree with cos t to the tolerance. */
Test(taylor_lazy, eval_solves_the_lazy_unknowns_at_the_point)
{
    long D = 30;
    tt_case c;
    hdo_error_t err;
    mpfr_t t0, h, s, r, a, b, lim;
    tt_init(&c, mixed, D, 0);
    hdo_taylor_lazy_setup(c.tay);
    mpfr_inits2(c.prec, t0, h, s, r, a, b, lim, (mpfr_ptr)0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    cr_assert_eq(hdo_taylor_expand(c.tay, t0, c.xs, c.xu, &err), 0, "%s",
                 err.message);
    hdo_taylor_step_size(h, c.tay, c.tay->tol);
    cr_assert(mpfr_number_p(h) && mpfr_sgn(h) > 0);
    mpfr_set_ui(lim, 2, MPFR_RNDN);
    mpfr_pow_si(lim, lim, 24 - (long)c.prec, MPFR_RNDN);
    slong th = tt_state(&c, "th"), x = unknown_of(&c, "x"),
          y = unknown_of(&c, "y"), w = unknown_of(&c, "w");
    for (int k = 1; k <= 4; k++) {
        mpfr_mul_ui(s, h, k, MPFR_RNDN);
        mpfr_div_ui(s, s, 4, MPFR_RNDN);
        hdo_taylor_eval(c.xs, c.xu, NULL, c.tay, s);
        /* x - sin(th) - y */
        mpfr_sin(a, c.xs + th, MPFR_RNDN);
        mpfr_sub(r, c.xu + x, a, MPFR_RNDN);
        mpfr_sub(r, r, c.xu + y, MPFR_RNDN);
        cr_expect(mpfr_cmpabs(r, lim) <= 0, "x equation residual %g at k=%d",
                  mpfr_get_d(r, MPFR_RNDN), k);
        /* y + y^3/10 - exp(th) + x/3 */
        mpfr_pow_ui(a, c.xu + y, 3, MPFR_RNDN);
        mpfr_div_ui(a, a, 10, MPFR_RNDN);
        mpfr_add(r, c.xu + y, a, MPFR_RNDN);
        mpfr_exp(a, c.xs + th, MPFR_RNDN);
        mpfr_sub(r, r, a, MPFR_RNDN);
        mpfr_div_ui(a, c.xu + x, 3, MPFR_RNDN);
        mpfr_add(r, r, a, MPFR_RNDN);
        cr_expect(mpfr_cmpabs(r, lim) <= 0, "y equation residual %g at k=%d",
                  mpfr_get_d(r, MPFR_RNDN), k);
        /* w = cos t from the series */
        mpfr_cos(b, s, MPFR_RNDN);
        tt_assert_close(c.xu + w, b, D, "w = cos t");
    }
    cr_expect_eq(c.tay->lazy_status, 0);
    mpfr_clears(t0, h, s, r, a, b, lim, (mpfr_ptr)0);
    tt_clear(&c);
}

/* The same mode integrated to t = 2 with and without lazy unknowns (the
   straightforward method: every unknown at every order) agrees to the
   digits asked, states and unknowns alike, at 30 and 50 digits. */
static void
same_as_eager(long D)
{
    tt_case lazy, eager;
    tt_init(&lazy, mixed, D, 0);
    tt_init(&eager, mixed, D, 0);
    hdo_taylor_lazy_setup(lazy.tay);
    cr_assert_eq(lazy.tay->nlazy, 2);
    cr_assert_eq(eager.tay->nlazy, 0);
    tt_run(&lazy, "2");
    tt_run(&eager, "2");
    for (slong i = 0; i < lazy.red->nstate; i++)
        tt_assert_close(lazy.xs + i, eager.xs + i, D, "state at t = 2");
    for (slong j = 0; j < lazy.red->nimplicit; j++)
        tt_assert_close(lazy.xu + j, eager.xu + j, D, "unknown at t = 2");
    tt_clear(&lazy);
    tt_clear(&eager);
}

Test(taylor_lazy, integration_agrees_with_every_unknown_carried_30_digits)
{
    same_as_eager(30);
}
Test(taylor_lazy, integration_agrees_with_every_unknown_carried_50_digits)
{
    same_as_eager(50);
}

/* x is differentiated in another mode: a transition may read der(x) from
   this mode's series, so x stays needed; with a guard on y, y is needed. */
Test(taylor_lazy, differentiated_elsewhere_or_in_a_guard_is_needed)
{
    tt_case c;
    tt_init(&c,
            "model m\n"
            "var th = 1, om = 0, x = 0, y = 0\n"
            "mode a\n"
            "  der(th) = om\n"
            "  der(om) = -sin(th)\n"
            "  x = sin(th)\n"
            "  y = cos(th)\n"
            "  when y < -2 goto b\n"
            "end\n"
            "mode b\n"
            "  der(th) = om\n"
            "  der(om) = -sin(th)\n"
            "  der(x) = om\n"
            "  y = 0\n"
            "end\n"
            "start a\n",
            30, 0);
    hdo_taylor_lazy_setup(c.tay);
    cr_expect_eq(c.tay->nlazy, 0);
    tt_clear(&c);
}
