/* structure.c -- tests of hdo_reduce_mode: explicit/implicit split, offsets, h
 * and constraints of known modes */
#include <math.h>
#include <stdlib.h>
#include "util.h"

Test(reduce, pendulum)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    ru_point p = {{{0}}};
    const double g = 9.81, x = 0.6, y = -0.8, vx = 0.3, vy = 0.2, lam = 1.7;

    tm_parse(model, ru_pendulum_text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    slong X = tm_var(model, "x"), Y = tm_var(model, "y"),
          VX = tm_var(model, "vx"), VY = tm_var(model, "vy"),
          LAM = tm_var(model, "lambda");

    cr_assert_eq(r->nexplicit, 4);
    cr_assert_eq(r->nimplicit, 1);
    cr_expect_eq(r->implicit_var[0], LAM);
    cr_expect_eq(r->d[0], 0);
    cr_assert_eq(r->nh, 1);
    cr_expect_eq(r->h_eq[0], 4);
    cr_expect_eq(r->c[0], 2);
    cr_assert_eq(r->ncons, 2);
    cr_expect_eq(r->nstate, 4);
    cr_expect_eq(r->dof, 2);
    cr_expect_eq(r->index, 3);
    cr_expect_eq(r->unknown[0].var, LAM);
    cr_expect_eq(r->unknown[0].order, 0);
    /* Full-system offsets, by hand (see tests/reduce/pryce.c). */
    cr_expect_eq(r->var_d[X], 2);
    cr_expect_eq(r->var_d[VX], 1);
    cr_expect_eq(r->eq_c[4], 2);
    for (slong i = 0; i < r->nstate; i++)
        cr_expect_eq(r->state[i].order, 0);

    p.val[0][X] = x;
    p.val[0][Y] = y;
    p.val[0][VX] = vx;
    p.val[0][VY] = vy;
    p.val[0][LAM] = lam;
    /* h = (x^2 + y^2 - L^2)'' with x' = vx, vx' = -lam x, ... by hand. */
    double h_ref =
        2 * (vx * vx + vy * vy) - 2 * lam * (x * x + y * y) - 2 * g * y;
    cr_expect(fabs(ru_eval(model, r->h[0], 0, &p) - h_ref) < 1e-13);
    cr_expect(ru_has(model, r->h[0], LAM, 0));
    cr_expect_eq(r->cons_order[0], 0);
    cr_expect_eq(r->cons_order[1], 1);
    cr_expect(fabs(ru_eval(model, r->cons[0], 0, &p) - (x * x + y * y - 1)) <
              1e-15);
    cr_expect(fabs(ru_eval(model, r->cons[1], 0, &p) -
                   (2 * x * vx + 2 * y * vy)) < 1e-15);
    for (slong i = 0; i < r->nexplicit; i++) {
        double ref;
        slong v = r->explicit_var[i];
        if (v == X)
            ref = vx;
        else if (v == Y)
            ref = vy;
        else if (v == VX)
            ref = -lam * x;
        else
            ref = -lam * y - g;
        cr_expect(fabs(ru_eval(model, r->rhs[i], 0, &p) - ref) < 1e-14,
                  "rhs of %s", model->vars[v].name);
        cr_expect_eq(r->explicit_eq[i], v == X    ? 0
                                        : v == Y  ? 1
                                        : v == VX ? 2
                                                  : 3);
    }
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* The printed hidden constraint, parsed back as a model equation, is
   2 x vx + 2 y vy: checked at random points. */
Test(reduce, pendulum_hidden_constraint_printed)
{
    hdo_model_t model, back;
    hdo_reduced_t r;
    hdo_error_t err;
    char text[2048];

    tm_parse(model, ru_pendulum_text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0);
    char *s = hdo_expr_to_string(model->pool, r->cons[1], model->var_names);
    cr_expect(strstr(s, "der(") == NULL, "printed: %s", s);
    snprintf(text, sizeof text,
             "model back\nvar x, y, vx, vy, z\nmode m\n"
             "  z = %s\n  der(x) = 0\n  der(y) = 0\n  der(vx) = 0\n"
             "  der(vy) = 0\nend\nstart m\n",
             s);
    free(s);
    tm_parse(back, text);
    srand(7);
    for (int k = 0; k < 20; k++) {
        ru_point p = {{{0}}};
        double v[4];
        for (int i = 0; i < 4; i++)
            v[i] = p.val[0][tm_var(back,
                                   (const char *[]){"x", "y", "vx", "vy"}[i])] =
                (double)rand() / RAND_MAX - 0.5;
        /* residual z - cons at z = 0 */
        double c = -ru_eval(back, back->modes[0].eqs[0].residual, 0, &p);
        cr_expect(fabs(c - (2 * v[0] * v[2] + 2 * v[1] * v[3])) < 1e-14);
    }
    hdo_model_clear(back);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

Test(reduce, resting_ball)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    ru_point p = {{{0}}};

    tm_parse(model, "model ball\nparam g = 9.81\nvar h = 0, v = 0, f\n"
                    "mode rest\n  der(h) = v\n  der(v) = -g + f\n  h = 0\nend\n"
                    "start rest\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    slong F = tm_var(model, "f");
    cr_assert_eq(r->nexplicit, 2);
    cr_assert_eq(r->nimplicit, 1);
    cr_expect_eq(r->implicit_var[0], F);
    cr_expect_eq(r->d[0], 0);
    cr_expect_eq(r->c[0], 2);
    cr_expect_eq(r->nstate, 2);
    cr_expect_eq(r->ncons, 2);
    cr_expect_eq(r->dof, 0);
    cr_expect_eq(r->index, 3);
    p.val[0][F] = 2.5;
    cr_expect(fabs(ru_eval(model, r->h[0], 0, &p) - (-9.81 + 2.5)) < 1e-14);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

Test(reduce, stick)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    ru_point p = {{{0}}};

    tm_parse(model, "model stick\nparam m1 = 1.5\nparam m2 = 2\nparam k = 3\n"
                    "var x1 = 0, v1 = 0, x2 = 0, v2 = 0, f\n"
                    "mode stick\n  der(x1) = v1\n  m1*der(v1) = -k*x1 - f\n"
                    "  der(x2) = v2\n  m2*der(v2) = f\n  v1 - v2 = 0\nend\n"
                    "start stick\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    cr_assert_eq(r->nexplicit, 4, "m*der(v) = ... is explicit");
    cr_assert_eq(r->nh, 1);
    cr_expect_eq(r->c[0], 1);
    cr_expect_eq(r->d[0], 0);
    cr_expect_eq(r->ncons, 1);
    cr_expect_eq(r->nstate, 4);
    cr_expect_eq(r->dof, 3);
    cr_expect_eq(r->index, 2);
    p.val[0][tm_var(model, "x1")] = 0.7;
    p.val[0][tm_var(model, "f")] = -0.4;
    /* h = v1' - v2' = (-k x1 - f)/m1 - f/m2 */
    double ref = (-3 * 0.7 + 0.4) / 1.5 + 0.4 / 2;
    cr_expect(fabs(ru_eval(model, r->h[0], 0, &p) - ref) < 1e-14);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

Test(reduce, ode)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;

    tm_parse(model, "model osc\nvar x = 1, y = 0\nmode m\n  der(x) = y\n"
                    "  der(y) = -x + sin(t)\nend\nstart m\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    cr_expect_eq(r->nexplicit, 2);
    cr_expect_eq(r->nimplicit, 0);
    cr_expect_eq(r->nh, 0);
    cr_expect_eq(r->ncons, 0);
    cr_expect_eq(r->nstate, 2);
    cr_expect_eq(r->dof, 2);
    cr_expect_eq(r->index, 0);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* N x' + x = f with N nilpotent of degree 3: x2' + x1 = sin t,
   x3' + x2 = cos t, x3 = exp t.  By hand: x3 = e^t, x2 = cos t - e^t,
   x1 = 2 sin t + e^t; index 3, no freedom. */
static const char *nilpotent_text =
    "model nil\nvar x1, x2, x3\nmode m\n"
    "  der(x2) + x1 = sin(t)\n  der(x3) + x2 = cos(t)\n  x3 = exp(t)\nend\n"
    "start m at 0.3\n";

Test(reduce, nilpotent_index3)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    ru_point p = {{{0}}};
    const double t = 0.3;

    tm_parse(model, nilpotent_text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    slong X1 = tm_var(model, "x1"), X2 = tm_var(model, "x2"),
          X3 = tm_var(model, "x3");
    cr_assert_eq(r->nexplicit, 2);
    cr_assert_eq(r->nimplicit, 1);
    cr_expect_eq(r->implicit_var[0], X1);
    cr_expect_eq(r->d[0], 0);
    cr_expect_eq(r->c[0], 2);
    cr_expect_eq(r->index, 3);
    cr_expect_eq(r->dof, 0);
    p.val[0][X1] = 0.25;
    p.val[0][X2] = -0.5;
    p.val[0][X3] = 1.25;
    /* h = x3'' - (e^t)'' = x1 - 2 sin t - e^t after substitution. */
    cr_expect(fabs(ru_eval(model, r->h[0], t, &p) -
                   (0.25 - 2 * sin(t) - exp(t))) < 1e-14);
    cr_expect(fabs(ru_eval(model, r->cons[0], t, &p) - (1.25 - exp(t))) <
              1e-14);
    cr_expect(fabs(ru_eval(model, r->cons[1], t, &p) -
                   (cos(t) + 0.5 - exp(t))) < 1e-14);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* Classification rules: two derivatives in one equation make it
   implicit; a second explicit-looking equation for a variable that
   already has one is implicit; an implicit equation's derivatives of
   explicit variables are substituted. */
Test(reduce, classification)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    ru_point p = {{{0}}};

    tm_parse(model, "model cls\nvar x = 0, y = 1, z = 0\nmode m\n"
                    "  der(x)*der(y) = 1\n  der(x) = y + z\n"
                    "  der(x) = z^2 + 1\nend\nstart m\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    slong X = tm_var(model, "x"), Y = tm_var(model, "y"),
          Z = tm_var(model, "z");
    cr_assert_eq(r->nexplicit, 1);
    cr_expect_eq(r->explicit_var[0], X);
    cr_expect_eq(r->explicit_eq[0], 1);
    cr_assert_eq(r->nh, 2);
    cr_expect_eq(r->h_eq[0], 0);
    cr_expect_eq(r->h_eq[1], 2);
    /* y enters with its derivative (d = 1), z algebraically. */
    cr_expect_eq(r->implicit_var[0], Y);
    cr_expect_eq(r->d[0], 1);
    cr_expect_eq(r->d[1], 0);
    cr_expect_eq(r->c[0], 0);
    cr_expect_eq(r->c[1], 0);
    cr_expect_eq(r->nstate, 2);
    p.val[0][Y] = 0.5;
    p.val[0][Z] = 0.25;
    p.val[1][Y] = 3;
    /* h0 = (y + z) y' - 1, h1 = y + z - z^2 - 1 */
    cr_expect(fabs(ru_eval(model, r->h[0], 0, &p) - (0.75 * 3 - 1)) < 1e-14);
    cr_expect(fabs(ru_eval(model, r->h[1], 0, &p) - (0.75 - 0.0625 - 1)) <
              1e-14);
    cr_expect(!ru_has(model, r->h[0], X, 1));
    (void)Z;
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

Test(reduce, structurally_singular)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    char buf[1200];

    hdo_error_clear(&err);
    tm_parse(model, "model sing\nvar x, y, z\nmode broken\n"
                    "  x = 1\n  x = 2\n  y + z = 0\nend\nstart broken\n");
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), HDO_ERR_SINGULAR);
    hdo_error_format(buf, sizeof buf, &err);
    cr_expect(strstr(buf, "broken") != NULL, "%s", buf);
    cr_expect(strstr(buf, "structurally singular") != NULL, "%s", buf);
    cr_expect(strstr(buf, "lines 4, 5 (2)") != NULL, "%s", buf);
    cr_expect(strstr(buf, "variables (x) (1)") != NULL, "%s", buf);
    cr_expect(strstr(buf, "determine y") != NULL ||
                  strstr(buf, "determine z") != NULL,
              "%s", buf);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}
