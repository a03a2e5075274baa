/* dae.c -- Taylor integrator on reduced DAE modes: the Cartesian pendulum
   (index 3) against the elliptic-integral quarter period and against the
   angle ODE, and an implicit derivative chain against its closed form. */
#include "common.h"

TestSuite(taylor_dae);

static const char *pendulum =
    "model pendulum\nparam g = 9.8\nparam L = 1\n"
    "var x = 1, y = 0, vx = 0, vy = 0, lam\n"
    "mode swing\n  der(x) = vx\n  der(y) = vy\n  der(vx) = -lam*x\n"
    "  der(vy) = -lam*y - g\n  x^2 + y^2 = L^2\nend\nstart swing\n";

/* sqrt(L/g) K(m = 1/2), the time the pendulum released at rest from the
   horizontal takes to reach the bottom (x = 0), from
     /usr/bin/python3 -c "import mpmath; mpmath.mp.dps=60;
       print(mpmath.sqrt(1/mpmath.mpf('9.8'))*mpmath.ellipk(mpmath.mpf(1)/2))"
   (the brief's mpf(9.8) would be the binary double 9.8, wrong after 16
   digits). */
#define QUARTER_PERIOD                                                         \
    "0.59226243054383627786648258049768615088706115656167537895859"

Test(taylor_dae, cartesian_pendulum_reaches_bottom_at_quarter_period)
{
    long D = 30;
    tt_case c;
    mpfr_t z, lim;
    tt_init(&c, pendulum, D, 0);
    cr_assert_eq(c.red->nimplicit, 1);
    cr_assert_eq(c.red->ncons, 2);
    tt_run(&c, QUARTER_PERIOD);
    mpfr_inits2(c.prec, z, lim, (mpfr_ptr)0);
    mpfr_set_ui(lim, 10, MPFR_RNDN);
    mpfr_pow_si(lim, lim, -(D - 5), MPFR_RNDN);
    cr_assert(mpfr_cmpabs(c.xs + tt_state(&c, "x"), lim) < 0, "x(T) = %g",
              mpfr_get_d(c.xs + tt_state(&c, "x"), MPFR_RNDN));
    /* y = -L there, and energy: vy^2 = 2 g L */
    mpfr_set_si(z, -1, MPFR_RNDN);
    tt_assert_close(c.xs + tt_state(&c, "y"), z, D - 5, "y(T) = -1");
    mpfr_set_ui(z, 196, MPFR_RNDN);
    mpfr_div_ui(z, z, 10, MPFR_RNDN);
    mpfr_sqrt(z, z, MPFR_RNDN);
    mpfr_neg(z, z, MPFR_RNDN);
    tt_assert_close(c.xs + tt_state(&c, "vx"), z, D - 5, "vx(T) = -sqrt(2gL)");
    /* the constraints stayed at the working precision: the residual of
       the dense output at each step end, before projection */
    mpfr_set_ui(lim, 10, MPFR_RNDN);
    mpfr_pow_si(lim, lim, -D, MPFR_RNDN);
    cr_assert(mpfr_cmp(c.tay->max_residual, lim) < 0, "residual %g",
              mpfr_get_d(c.tay->max_residual, MPFR_RNDN));
    cr_assert(!mpfr_zero_p(c.tay->max_residual)); /* it was measured */
    mpfr_clears(z, lim, (mpfr_ptr)0);
    tt_clear(&c);
}

/* Two formulations of the same physics (overview.md): the Cartesian
   index-3 pendulum and theta'' = -g/L sin theta, theta = pi/2 at rest,
   with x = L sin theta, y = -L cos theta, compared at t = 5. */
Test(taylor_dae, cartesian_pendulum_matches_angle_ode_at_5)
{
    long D = 30;
    tt_case c, a;
    mpfr_t w;
    tt_init(&c, pendulum, D, 0);
    tt_init(&a,
            "model p\nvar th = pi/2, w = 0\nmode m\n  der(th) = w\n"
            "  der(w) = -9.8*sin(th)\nend\nstart m\n",
            D, 0);
    tt_run(&c, "5");
    tt_run(&a, "5");
    mpfr_init2(w, c.prec);
    mpfr_sin(w, a.xs + tt_state(&a, "th"), MPFR_RNDN);
    tt_assert_close(c.xs + tt_state(&c, "x"), w, D - 5, "x(5) = sin theta");
    mpfr_cos(w, a.xs + tt_state(&a, "th"), MPFR_RNDN);
    mpfr_neg(w, w, MPFR_RNDN);
    tt_assert_close(c.xs + tt_state(&c, "y"), w, D - 5, "y(5) = -cos theta");
    mpfr_cos(w, a.xs + tt_state(&a, "th"), MPFR_RNDN);
    mpfr_mul(w, w, a.xs + tt_state(&a, "w"), MPFR_RNDN);
    tt_assert_close(c.xs + tt_state(&c, "vx"), w, D - 5,
                    "vx(5) = cos theta theta'");
    mpfr_clear(w);
    tt_clear(&c);
    tt_clear(&a);
}

/* An implicit chain: v enters only through exp(der(v)), so v is an
   implicit variable with offset 1 (state v, unknown der(v)), f is
   algebraic.  h = sin t forces v = cos t, der(v) = -sin t and
   f = g - sin t.  (f = 9 is Newton's guess: from 0, exp(f - g) sends
   the first Newton step to f = 18000.) */
static const char *chain =
    "model chain\nparam g = 9.8\nvar h = 0, v = 1, f = 9\nmode rest\n"
    "  der(h) = v\n  exp(der(v)) = exp(f - g)\n  h = sin(t)\nend\n"
    "start rest\n";

Test(taylor_dae, implicit_chain_closed_form)
{
    long D = 40;
    tt_case c;
    mpfr_t w, t;
    tt_init(&c, chain, D, 0);
    cr_assert_eq(c.red->nimplicit, 2);
    slong iv = -1, jdv = -1, jf = -1;
    slong vv = hdo_model_find_var(c.model, "v"),
          vf = hdo_model_find_var(c.model, "f");
    for (slong i = 0; i < c.red->nstate; i++)
        if (c.red->state[i].var == vv)
            iv = i;
    for (slong j = 0; j < c.red->nimplicit; j++) {
        if (c.red->unknown[j].var == vv && c.red->unknown[j].order == 1)
            jdv = j;
        if (c.red->unknown[j].var == vf)
            jf = j;
    }
    cr_assert(iv >= 0 && jdv >= 0 && jf >= 0, "v must be a chain state");
    tt_run(&c, "2");
    mpfr_inits2(c.prec, w, t, (mpfr_ptr)0);
    mpfr_set_ui(t, 2, MPFR_RNDN);
    mpfr_sin(w, t, MPFR_RNDN);
    tt_assert_close(c.xs + tt_state(&c, "h"), w, D - 2, "h(2) = sin 2");
    mpfr_neg(w, w, MPFR_RNDN);
    tt_assert_close(c.xu + jdv, w, D - 2, "v'(2) = -sin 2");
    mpfr_set_ui(t, 98, MPFR_RNDN);
    mpfr_div_ui(t, t, 10, MPFR_RNDN);
    mpfr_add(w, w, t, MPFR_RNDN);
    tt_assert_close(c.xu + jf, w, D - 2, "f(2) = g - sin 2");
    mpfr_set_ui(t, 2, MPFR_RNDN);
    mpfr_cos(w, t, MPFR_RNDN);
    tt_assert_close(c.xs + iv, w, D - 2, "v(2) = cos 2");
    mpfr_clears(w, t, (mpfr_ptr)0);
    tt_clear(&c);
}

/* The series of the chain against the closed form at t0 = 0: v = cos t
   has coefficients 1, 0, -1/2, 0, 1/24, ... and der(v) = -sin t. */
Test(taylor_dae, implicit_chain_series)
{
    tt_case c;
    mpfr_t t0, w;
    hdo_error_t err;
    tt_init(&c, chain, 30, 12);
    mpfr_inits2(c.prec, t0, w, (mpfr_ptr)0);
    mpfr_set_zero(t0, 1);
    cr_assert_eq(hdo_taylor_expand(c.tay, t0, c.xs, c.xu, &err), 0, "%s",
                 err.message);
    slong vv = hdo_model_find_var(c.model, "v"), iv = -1, jdv = -1;
    for (slong i = 0; i < c.red->nstate; i++)
        if (c.red->state[i].var == vv)
            iv = i;
    for (slong j = 0; j < c.red->nimplicit; j++)
        if (c.red->unknown[j].var == vv)
            jdv = j;
    mpfr_srcptr sv = c.tay->state_coef[iv * 13];
    mpfr_srcptr su = c.tay->unknown_coef[jdv * 13];
    for (int k = 0; k <= 12; k++) {
        /* cos: (-1)^(k/2)/k! for even k; -sin: -(-1)^((k-1)/2)/k! for odd */
        mpfr_fac_ui(w, k, MPFR_RNDN);
        mpfr_ui_div(w, 1, w, MPFR_RNDN);
        if (k % 2 == 0) {
            if ((k / 2) % 2)
                mpfr_neg(w, w, MPFR_RNDN);
            tt_assert_close(sv + k, w, 35, "v coefficient");
            cr_assert(mpfr_cmp_d(su + k, 1e-35) < 0 &&
                      mpfr_cmp_d(su + k, -1e-35) > 0);
        } else {
            if ((k / 2) % 2 == 0)
                mpfr_neg(w, w, MPFR_RNDN);
            tt_assert_close(su + k, w, 35, "der(v) coefficient");
        }
    }
    mpfr_clears(t0, w, (mpfr_ptr)0);
    tt_clear(&c);
}

/* The ball resting on the floor (model-format.md's mode rest): h = 0
   differentiated twice gives the contact force f = g, constant; h and v
   stay 0. */
Test(taylor_dae, resting_ball_contact_force_is_g)
{
    long D = 30;
    tt_case c;
    mpfr_t w;
    tt_init(&c,
            "model ball\nparam g = 9.81\nvar h = 0, v = 0, f = 1\nmode rest\n"
            "  der(h) = v\n  der(v) = -g + f\n  h = 0\nend\nstart rest\n",
            D, 0);
    cr_assert_eq(c.red->nimplicit, 1);
    slong steps = tt_run(&c, "10");
    cr_assert(steps >= 1 && steps <= 3, "%ld steps for a constant solution",
              (long)steps);
    mpfr_init2(w, c.prec);
    mpfr_set_ui(w, 981, MPFR_RNDN);
    mpfr_div_ui(w, w, 100, MPFR_RNDN);
    tt_assert_close(c.xu, w, D, "f = g");
    mpfr_set_zero(w, 1);
    tt_assert_close(c.xs + tt_state(&c, "h"), w, D, "h = 0");
    tt_assert_close(c.xs + tt_state(&c, "v"), w, D, "v = 0");
    mpfr_clear(w);
    tt_clear(&c);
}

/* The coefficients of every state, unknown and guard of tay. */
static mpfr_ptr
save_series(const hdo_taylor_struct *tay, slong *n)
{
    slong per = tay->order + 1, ns = tay->red->nstate, nu = tay->red->nimplicit,
          ng = tay->nguards;
    *n = (ns + nu + ng) * per;
    mpfr_ptr v = hdo_vec_init(*n, tay->prec);
    for (slong k = 0; k < *n; k++) {
        slong a = k / per, j = k % per;
        const mpfr_t *c = a < ns        ? tay->state_coef + a * per
                          : a < ns + nu ? tay->unknown_coef + (a - ns) * per
                                        : tay->guard_coef + (a - ns - nu) * per;
        mpfr_set(v + k, c[j], MPFR_RNDN);
    }
    return v;
}

/* An order's first pass computes only h's ancestors and the slots free
   of unknowns, its second pass only the slots with unknowns that the
   rhs and the guards read (expand.c, D-120): every state's, unknown's
   and guard's coefficient has the bits of an expansion whose first pass
   computes every slot and whose second every slot with an unknown.  The
   rhs and the guard read the unknowns outside h, h reads exp(z), whose
   recurrence reads its past orders, and an expansion at another point
   first leaves the skipped slots stale.  Fails when first_pass leaves
   out an ancestor of h, or second_pass one of the rhs or exp(z). */
Test(taylor_dae, passes_same_bits_as_every_slot)
{
    tt_case c;
    tt_init(&c,
            "model m\nvar x = 1, w = 1/2, y = 0, z = 0\nmode a\n"
            "  der(x) = -y*z + x\n  der(w) = z - w*y\n"
            "  y + x*z + exp(z)/4 = x^2 + w\n  y - 2*z = sin(x)\n"
            "  when y*z - x > 5 goto b\nend\n"
            "mode b\n  der(x) = 0\n  der(w) = 0\n  y = 0\n  z = 0\nend\n"
            "start a\n",
            30, 0);
    hdo_taylor_struct *tay = c.tay;
    slong nslots = tay->prog->nslots, skipped = 0, skipped2 = 0;
    for (slong i = 0; i < nslots; i++) {
        skipped += !tay->first_pass[i];
        skipped2 += tay->dep_unknown[i] && !tay->second_pass[i];
    }
    cr_assert(skipped > 0 && skipped2 > 0 && c.red->nimplicit == 2 &&
                  tay->nguards == 1,
              "%ld, %ld slots skipped", (long)skipped, (long)skipped2);
    char *mine = tay->first_pass, *mine2 = tay->second_pass,
         *all = malloc((size_t)nslots + 1);
    memset(all, 1, (size_t)nslots + 1);
    mpfr_t t0, t1;
    mpfr_inits2(c.prec, t0, t1, (mpfr_ptr)0);
    mpfr_set_zero(t0, 1);
    mpfr_set_ui_2exp(t1, 3, -3, MPFR_RNDN);
    mpfr_ptr xs1 = hdo_vec_init(c.red->nstate, c.prec);
    for (slong i = 0; i < c.red->nstate; i++)
        mpfr_mul_ui(xs1 + i, c.xs + i, 3, MPFR_RNDN);
    mpfr_ptr v[2];
    slong n = 0;
    hdo_error_t err;
    hdo_error_clear(&err);
    for (int pass = 0; pass < 2; pass++) {
        /* this build's passes first: the stale slots are then another
           point's, not the reference's at this point */
        tay->first_pass = pass == 1 ? all : mine;
        tay->second_pass = pass == 1 ? tay->dep_unknown : mine2;
        cr_assert_eq(hdo_taylor_expand(tay, t1, xs1, c.xu, &err), 0, "%s",
                     err.message);
        cr_assert_eq(hdo_taylor_expand(tay, t0, c.xs, c.xu, &err), 0, "%s",
                     err.message);
        v[pass] = save_series(tay, &n);
    }
    tay->first_pass = mine;
    tay->second_pass = mine2;
    slong nonzero = 0;
    for (slong k = 0; k < n; k++) {
        nonzero += mpfr_regular_p(v[0] + k);
        cr_assert(mpfr_equal_p(v[0] + k, v[1] + k) &&
                      mpfr_signbit(v[0] + k) == mpfr_signbit(v[1] + k),
                  "coefficient %ld: %g against %g", (long)k,
                  mpfr_get_d(v[1] + k, MPFR_RNDN),
                  mpfr_get_d(v[0] + k, MPFR_RNDN));
    }
    cr_assert(nonzero > n / 2, "%ld of %ld coefficients nonzero", (long)nonzero,
              (long)n);
    hdo_vec_clear(v[0], n);
    hdo_vec_clear(v[1], n);
    hdo_vec_clear(xs1, c.red->nstate);
    mpfr_clears(t0, t1, (mpfr_ptr)0);
    free(all);
    tt_clear(&c);
}
