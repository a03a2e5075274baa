/* generic.c -- every step type of hdo_step_types over one list of
 * problems, as GSL's ode-initval2/test.c runs every stepper over its
 * problems: a new method is tested by being listed there.  Each problem
 * has a closed form, computed here in MPFR, never by the stepper:
 *
 *   decay      x' = -x, x(0) = 1:              x = e^-t at t = 1
 *   harmonic   x' = y, y' = -x, (1, 0):         x = cos t, y = -sin t at 2
 *   stiff      x' = -10^6 (x - cos t), x(0) = 2:
 *              x = (L^2 cos t + L sin t) / (L^2 + 1)
 *                  + (2 - L^2 / (L^2 + 1)) e^-Lt, L = 10^6, at t = 1/100
 *   index1     y' = -z, 0 = z - y, y(0) = 1:    y = z = e^-t at t = 1
 *   ball       h' = v, v' = -g, (1, 0), when h < 0: the event at
 *              t = sqrt(2/g), g = 981/100 (found on the dense output by
 *              hdo_event_locate, as the driver finds it)
 *
 * at 30 and 50 digits (the run's precision and tolerance, hdo_run_prec
 * and hdo_run_tol), through the interface only (apply, step_size,
 * evolve; the guards' dense output), each value to D - 2 digits relative
 * to max(1, |value|).  A problem a type's flags refuse
 * (HDO_STEP_INDEX1_ONLY on a higher-index form) is skipped for it. */
#include <criterion/criterion.h>
#include <string.h>
#include "event.h"
#include "hybrid.h"
#include "step.h"
#include "../model_util.h"

/* The closed form of variable var at t, into out (at its precision). */
typedef void exact_fn(mpfr_t out, const char *var, const mpfr_t t);

typedef struct {
    const char *name;
    const char *text; /* the model: one mode, started at 0 */
    long t_end_num, t_end_den;
    const char *vars[3]; /* the variables checked, NULL-terminated */
    exact_fn *exact;
    int event; /* 1: the loop stops at the first event of the guards */
    long max_steps;
} problem;

static void
exact_decay(mpfr_t out, const char *var, const mpfr_t t)
{
    mpfr_neg(out, t, MPFR_RNDN);
    mpfr_exp(out, out, MPFR_RNDN);
}

static void
exact_harmonic(mpfr_t out, const char *var, const mpfr_t t)
{
    if (strcmp(var, "x") == 0)
        mpfr_cos(out, t, MPFR_RNDN);
    else {
        mpfr_sin(out, t, MPFR_RNDN);
        mpfr_neg(out, out, MPFR_RNDN);
    }
}

static void
exact_stiff(mpfr_t out, const char *var, const mpfr_t t)
{
    mpfr_t L, L2, a, b;
    mpfr_inits2(mpfr_get_prec(out) + 64, L, L2, a, b, (mpfr_ptr)0);
    mpfr_set_ui(L, 1000000, MPFR_RNDN);
    mpfr_sqr(L2, L, MPFR_RNDN);
    mpfr_cos(a, t, MPFR_RNDN);
    mpfr_mul(a, a, L2, MPFR_RNDN);
    mpfr_sin(b, t, MPFR_RNDN);
    mpfr_mul(b, b, L, MPFR_RNDN);
    mpfr_add(a, a, b, MPFR_RNDN);
    mpfr_add_ui(b, L2, 1, MPFR_RNDN);
    mpfr_div(a, a, b, MPFR_RNDN); /* the particular solution */
    mpfr_div(L2, L2, b, MPFR_RNDN);
    mpfr_ui_sub(L2, 2, L2, MPFR_RNDN); /* 2 - L^2 / (L^2 + 1) */
    mpfr_mul(b, L, t, MPFR_RNDN);
    mpfr_neg(b, b, MPFR_RNDN);
    mpfr_exp(b, b, MPFR_RNDN);
    mpfr_mul(b, b, L2, MPFR_RNDN);
    mpfr_add(out, a, b, MPFR_RNDN);
    mpfr_clears(L, L2, a, b, (mpfr_ptr)0);
}

/* the event time sqrt(2/g) of the ball, whatever var */
static void
exact_ball(mpfr_t out, const char *var, const mpfr_t t)
{
    mpfr_set_ui(out, 200, MPFR_RNDN);
    mpfr_div_ui(out, out, 981, MPFR_RNDN);
    mpfr_sqrt(out, out, MPFR_RNDN);
}

static const problem problems[] = {
    {"decay",
     "model p\nvar x = 1\nmode m\n  der(x) = -x\nend\nstart m\n",
     1,
     1,
     {"x", NULL},
     exact_decay,
     0,
     1000},
    {"harmonic",
     "model p\nvar x = 1, y = 0\nmode m\n  der(x) = y\n  der(y) = -x\nend\n"
     "start m\n",
     2,
     1,
     {"x", "y", NULL},
     exact_harmonic,
     0,
     1000},
    {"stiff",
     "model p\nvar x = 2\nmode m\n  der(x) = -1e6*(x - cos(t))\nend\n"
     "start m\n",
     1,
     100,
     {"x", NULL},
     exact_stiff,
     0,
     100000},
    {"index1",
     "model p\nvar y = 1, z = 1\nmode m\n  der(y) = -z\n  0 = z - y\nend\n"
     "start m\n",
     1,
     1,
     {"y", "z", NULL},
     exact_decay,
     0,
     1000},
    {"ball",
     "model p\nparam g = 9.81\nvar h = 1, v = 0\nmode m\n  der(h) = v\n"
     "  der(v) = -g\n  when h < 0 goto m\nend\nstart m\n",
     1,
     1,
     {"event", NULL},
     exact_ball,
     1,
     1000},
};

/* The value of variable v in the state (xs, xu) of red: its order-0
   state or its unknown; 0 when found. */
static int
value_of(mpfr_t out, const hdo_reduced_struct *red, mpfr_srcptr xs,
         mpfr_srcptr xu, slong v)
{
    for (slong i = 0; i < red->nstate; i++)
        if (red->state[i].var == v && red->state[i].order == 0) {
            mpfr_set(out, xs + i, MPFR_RNDN);
            return 0;
        }
    for (slong j = 0; j < red->nimplicit; j++)
        if (red->unknown[j].var == v && red->unknown[j].order == 0) {
            mpfr_set(out, xu + j, MPFR_RNDN);
            return 0;
        }
    return -1;
}

/* The start value of variable v (a `var` start value). */
static void
start_of(mpfr_t out, const hdo_model_t model, slong v)
{
    cr_assert(model->vars[v].start != HDO_EXPR_NONE);
    cr_assert_eq(hdo_expr_eval_constant(out, model->pool, model->vars[v].start),
                 0);
}

/* Runs problem pb with type at digits D; 1 when it ran, 0 when the type
   does not take the problem's form. */
static int
run_problem(const hdo_step_type *type, const problem *pb, long D)
{
    hdo_model_t model;
    hdo_reduced_t red;
    hdo_stepper_t s;
    hdo_error_t err;
    mpfr_prec_t prec = hdo_run_prec(D);
    mpfr_t tol, t, t_end, h, w, want, root;
    int ran = 0;

    hdo_error_clear(&err);
    tm_parse(model, pb->text);
    hdo_reduced_init(red);
    cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0, "%s", err.message);
    if ((type->flags & HDO_STEP_INDEX1_ONLY) && !hdo_reduced_is_index1(red))
        goto done;
    ran = 1;
    mpfr_inits2(prec, tol, t, t_end, h, w, want, root, (mpfr_ptr)0);
    hdo_run_tol(tol, D);
    const hdo_mode *mode = model->modes + 0;
    slong ng = mode->nwhens;
    hdo_expr guards[4];
    cr_assert(ng <= 4);
    for (slong g = 0; g < ng; g++)
        guards[g] = mode->whens[g].guard;
    cr_assert_eq(hdo_stepper_init(s, type, model, red, guards, ng, prec, tol),
                 0, "%s: %s", pb->name, s->message);
    mpfr_ptr xs = hdo_vec_init(red->nstate, prec);
    mpfr_ptr xu = hdo_vec_init(red->nimplicit, prec);
    for (slong i = 0; i < red->nstate; i++)
        start_of(xs + i, model, red->state[i].var);
    for (slong j = 0; j < red->nimplicit; j++)
        start_of(xu + j, model, red->unknown[j].var);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_si(t_end, pb->t_end_num, MPFR_RNDN);
    mpfr_div_si(t_end, t_end, pb->t_end_den, MPFR_RNDN);
    long steps = 0;
    int found = 0;
    while (mpfr_cmp(t, t_end) < 0 && !found) {
        cr_assert_eq(hdo_stepper_apply(s, t, xs, xu, &err), 0, "%s %s: %s",
                     type->name, pb->name, err.message);
        cr_assert_eq(hdo_stepper_step_size(h, s), 0);
        mpfr_sub(w, t_end, t, MPFR_RNDN);
        if (mpfr_cmp(h, w) > 0)
            mpfr_set(h, w, MPFR_RNDN);
        slong p = s->dense.order;
        for (slong g = 0; g < ng && !found; g++)
            if (hdo_event_locate(root, s->dense.guard[g * (p + 1)], p + 1, h,
                                 tol, NULL, prec) == HDO_EVENT) {
                mpfr_add(t, t, root, MPFR_RNDN);
                found = 1;
            }
        if (found)
            break;
        cr_assert_eq(hdo_stepper_evolve(xs, xu, s, h, &err), 0, "%s %s: %s",
                     type->name, pb->name, err.message);
        mpfr_add(t, t, h, MPFR_RNDN);
        cr_assert(++steps <= pb->max_steps, "%s %s: more than %ld steps",
                  type->name, pb->name, pb->max_steps);
    }
    cr_expect_eq(found, pb->event, "%s %s: event", type->name, pb->name);
    for (int k = 0; pb->vars[k] != NULL; k++) {
        pb->exact(want, pb->vars[k], t);
        if (pb->event)
            mpfr_set(w, t, MPFR_RNDN);
        else
            cr_assert_eq(value_of(w, red, xs, xu, tm_var(model, pb->vars[k])),
                         0);
        cr_expect(tm_close_rel(w, want, D - 2),
                  "%s %s at %ld digits: %s = %.17g, want %.17g", type->name,
                  pb->name, D, pb->vars[k], mpfr_get_d(w, MPFR_RNDN),
                  mpfr_get_d(want, MPFR_RNDN));
    }
    hdo_stepper_clear(s);
    hdo_vec_clear(xs, red->nstate);
    hdo_vec_clear(xu, red->nimplicit);
    mpfr_clears(tol, t, t_end, h, w, want, root, (mpfr_ptr)0);
done:
    hdo_reduced_clear(red);
    hdo_model_clear(model);
    return ran;
}

Test(step, generic_every_type_every_problem)
{
    slong ntypes = 0;
    for (slong k = 0; hdo_step_types[k] != NULL; k++) {
        ntypes++;
        for (size_t q = 0; q < sizeof problems / sizeof problems[0]; q++)
            for (long D = 30; D <= 50; D += 20)
                run_problem(hdo_step_types[k], problems + q, D);
    }
    cr_expect_geq(ntypes, 2, "the list holds Taylor and Radau IIA");
}
