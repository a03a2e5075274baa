/* jacobian.c -- the spectral radius estimate of a mode's Jacobian
   (ref/step/jacobian.c, the stiffness test of --method auto) against
   matrices whose eigenvalues are known: a stiff triangular pair, a
   rotation (a complex pair, where single power-iteration ratios
   oscillate), and an index-1 DAE whose unknowns must be eliminated. */
#include <criterion/criterion.h>
#include <math.h>
#include "step.h"
#include "../model_util.h"

/* rho of the model's first mode at its start values (states xs, unknowns
   0 unless given). */
static double
rho_of(const char *src, const double *xu)
{
    hdo_model_t model;
    hdo_reduced_t red;
    hdo_error_t err;
    hdo_stepper_t st;
    tm_parse(model, src);
    hdo_reduced_init(red);
    cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0, "%s", err.message);
    mpfr_t tol;
    mpfr_init2(tol, 200);
    mpfr_set_str(tol, "1e-50", 10, MPFR_RNDN);
    cr_assert_eq(
        hdo_stepper_init(st, &hdo_step_taylor, model, red, NULL, 0, 200, tol),
        0);
    mpfr_clear(tol);
    slong n = red->nstate, m = red->nimplicit;
    mpfr_ptr xs = hdo_vec_init(n, 200), u = hdo_vec_init(m, 200);
    mpfr_t t;
    mpfr_init2(t, 200);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    for (slong i = 0; i < n; i++)
        mpfr_set_d(xs + i, 0.5 + 0.25 * (double)i, MPFR_RNDN);
    for (slong k = 0; k < m; k++)
        mpfr_set_d(u + k, xu != NULL ? xu[k] : 0.0, MPFR_RNDN);
    double rho = hdo_stepper_spectral_radius(st, t, xs, u);
    /* a second call reuses the compiled partials */
    double again = hdo_stepper_spectral_radius(st, t, xs, u);
    cr_expect(rho == again);
    mpfr_clear(t);
    hdo_vec_clear(xs, n);
    hdo_vec_clear(u, m);
    hdo_stepper_clear(st);
    hdo_reduced_clear(red);
    hdo_model_clear(model);
    return rho;
}

Test(step, jacobian_spectral_radius_known_eigenvalues)
{
    /* eigenvalues -1e6 and -1 */
    double r = rho_of("model a\nvar x = 1, y = 1\nmode m\n"
                      "  der(x) = -1e6*x + y\n  der(y) = -y\nend\n"
                      "start m\n",
                      NULL);
    cr_expect(r >= 1e6 / 1.5 && r <= 1e6 * 1.5, "%g", r);
    /* +-1000 i: a rotation */
    r = rho_of("model b\nvar x = 1, y = 0\nmode m\n  der(x) = 1000*y\n"
               "  der(y) = -1000*x\nend\nstart m\n",
               NULL);
    cr_expect(r >= 1000 / 1.5 && r <= 1000 * 1.5, "%g", r);
    /* nonlinear: J = -3 x^2 1e4 at x = 0.5 (the test's start value) */
    r = rho_of("model c\nvar x = 1\nmode m\n  der(x) = -1e4*x^3\nend\n"
               "start m\n",
               NULL);
    cr_expect(fabs(r - 7500) <= 1e-9 * 7500, "%g", r);
    /* index 1: y' = -z, 0 = z - 1e4 y: J_eff = -1e4, although f_y = 0 */
    r = rho_of("model d\nvar y = 1, z\nmode m\n  der(y) = -z\n"
               "  z = 1e4*y\nend\nstart m\n",
               NULL);
    cr_expect(fabs(r - 1e4) <= 1e-9 * 1e4, "%g", r);
    /* constraints on the states (index 3): no estimate */
    r = rho_of("model p\nvar x = 1, y = 0, vx = 0, vy = 0\nvar lam\n"
               "mode m\n  der(x) = vx\n  der(y) = vy\n"
               "  der(vx) = -x*lam\n  der(vy) = -y*lam - 9.81\n"
               "  x^2 + y^2 = 1\nend\nstart m\n",
               NULL);
    cr_expect(r == -1, "%g", r);
}
