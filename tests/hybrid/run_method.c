/* run_method.c -- tests of hdo_run on which method integrates an arc:
 * the stiffness diagnosis, --method auto's switch to the implicit method,
 * and the progress report that names the method (from run.c) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "hybrid.h"
#include "../model_util.h"
#include "run_util.h"

/* Issue #18: der(x) = -1e12*x to t = 1 needs about 5e10 explicit steps.
   With --method taylor the run says at once that the arc is stiff and
   which method ran, instead of after 10^6 steps; the same model to
   t = 1e-9 (about 50 steps) runs; a non-stiff run that hits --max-steps
   does not blame stiffness.  (--method auto switches to the implicit
   method instead: run_auto_switches_stiff_ode_arc.) */
Test(hybrid, run_stiff_arc_is_diagnosed_early)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    hdo_run_options opt;
    const char *text = "model f\nvar x = 1\nmode m\n  der(x) = -1e12*x\nend\n"
                       "start m\nuntil 1\n";

    tm_parse(model, text);
    hdo_run_options_init(&opt);
    opt.digits = 30;
    opt.method = HDO_METHOD_TAYLOR;
    hdo_result_init(res);
    int st = hdo_run(res, model, &opt, &err);
    cr_expect_eq(st, HDO_ERR_TOO_MUCH_WORK, "%s", hdo_status_name(st));
    cr_expect(strstr(err.message, "mode m is stiff") != NULL, "%s",
              err.message);
    cr_expect(strstr(err.message, "method taylor") != NULL, "%s", err.message);
    cr_expect(res->steps < 1000, "%ld steps", (long)res->steps);
    hdo_result_clear(res);

    hdo_run_options_init(&opt);
    opt.digits = 30;
    opt.method = HDO_METHOD_TAYLOR;
    fmpq_t until;
    fmpq_init(until);
    tm_decimal(until, "1e-9");
    opt.until = until;
    hdo_result_init(res);
    st = hdo_run(res, model, &opt, &err);
    cr_expect_eq(st, 0, "%s", err.message);
    hdo_result_clear(res);
    fmpq_clear(until);
    hdo_model_clear(model);

    tm_parse(model, "model ho\nvar x = 1, v = 0\nmode m\n  der(x) = v\n"
                    "  der(v) = -x\nend\nstart m\nuntil 100\n");
    hdo_run_options_init(&opt);
    opt.digits = 30;
    opt.max_steps = 10;
    hdo_result_init(res);
    st = hdo_run(res, model, &opt, &err);
    cr_expect_eq(st, HDO_ERR_TOO_MUCH_WORK);
    cr_expect(strstr(err.message, "stiff") == NULL, "%s", err.message);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

typedef struct {
    long calls, last_steps;
    double last_t;
    int ok;
} progress_seen;

static void
progress_probe(void *data, double t, long steps, long nevents,
               const char *method)
{
    progress_seen *ps = data;
    /* one call per step, times not decreasing, the method named */
    if (steps != ps->last_steps + 1 || t < ps->last_t || nevents != 0 ||
        strcmp(method, "taylor") != 0)
        ps->ok = 0;
    ps->calls++;
    ps->last_steps = steps;
    ps->last_t = t;
}

Test(hybrid, run_progress_reports_steps_and_method)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    hdo_run_options opt;
    progress_seen ps = {0, 0, -1.0, 1};

    tm_parse(model, "model ho\nvar x = 1, v = 0\nmode m\n  der(x) = v\n"
                    "  der(v) = -x\nend\nstart m\nuntil 10\n");
    hdo_run_options_init(&opt);
    opt.digits = 30;
    opt.progress = progress_probe;
    opt.progress_data = &ps;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
    cr_expect(ps.ok);
    cr_expect_eq(ps.calls, (long)res->steps);
    cr_expect(ps.last_t == 10.0, "%g", ps.last_t);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* --method auto (the default) goes on with Radau IIA where an ODE arc is
   stiff: der(x) = -1e12*x to t = 1 runs in a few hundred steps, one
   switch, and x(1) = exp(-1e12) is 0 within the absolute tolerance
   10^-35; a non-stiff ODE (the harmonic oscillator) never switches. */
Test(hybrid, run_auto_switches_stiff_ode_arc)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;

    tm_parse(model, "model f\nvar x = 1\nmode m\n  der(x) = -1e12*x\nend\n"
                    "start m\nuntil 1\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_expect_eq(res->method_switches, 1);
    cr_expect(res->implicit_steps > 0 && res->steps < 2000, "%ld steps",
              (long)res->steps);
    hdo_row *last = res->rows + res->nrows - 1;
    cr_expect(mpfr_cmp_ui(last->time, 1) == 0);
    cr_expect(fabs(mpfr_get_d(last->values + tm_var(model, "x"), MPFR_RNDN)) <=
              1e-35);
    hdo_result_clear(res);
    hdo_model_clear(model);

    tm_parse(model, "model ho\nvar x = 1, v = 0\nmode m\n  der(x) = v\n"
                    "  der(v) = -x\nend\nstart m\nuntil 20\n");
    st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_expect_eq(res->method_switches, 0);
    cr_expect_eq(res->implicit_steps, 0);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Issue #28: intermediate stiffness.  Van der Pol with mu = 100 (scaled,
   y' = z, z' = mu^2 ((1 - y^2) z - y), [0, 2]) has a fast eigenvalue
   near -3e4 on its slow arcs: the series' ratio (10^2.6) stays below
   its threshold, so auto ran 2,113 Taylor steps; the Jacobian test
   finds the Taylor step at its stability limit and switches within the
   first 0.1.  The result agrees with --method taylor's to 28 digits at
   t = 2; mu = 10 (eigenvalue near -300, Taylor steps about twice the
   accurate step of that mode) never switches. */
Test(hybrid, run_auto_switches_intermediate_stiffness)
{
    const char *vdp = "model vdp\nparam mu = 100\nvar y = 2, z = 0\nmode m\n"
                      "  der(y) = z\n  der(z) = mu^2*((1 - y^2)*z - y)\n"
                      "end\nstart m\nuntil 2\n";
    hdo_model_t model;
    hdo_result_t res, ref;
    hdo_error_t err;
    hdo_run_options opt;

    tm_parse(model, vdp);
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_expect_eq(res->method_switches, 1);
    cr_assert(res->nmethod_arcs == 2);
    cr_expect(res->method_arcs[1].t_start < 0.1, "switched at %g",
              res->method_arcs[1].t_start);
    cr_expect(res->steps < 1000, "%ld steps", (long)res->steps);
    hdo_run_options_init(&opt);
    opt.digits = 30;
    opt.method = HDO_METHOD_TAYLOR;
    hdo_result_init(ref);
    cr_assert_eq(hdo_run(ref, model, &opt, &err), 0, "%s", err.message);
    hdo_row *a = res->rows + res->nrows - 1, *b = ref->rows + ref->nrows - 1;
    cr_expect(mpfr_cmp_ui(a->time, 2) == 0 && mpfr_cmp_ui(b->time, 2) == 0);
    for (int v = 0; v < 2; v++) {
        slong k = tm_var(model, v ? "z" : "y");
        cr_expect(tm_close_rel(a->values + k, b->values + k, 28), "%s",
                  v ? "z" : "y");
    }
    hdo_result_clear(ref);
    hdo_result_clear(res);
    hdo_model_clear(model);

    tm_parse(model, "model vdp\nparam mu = 10\nvar y = 2, z = 0\nmode m\n"
                    "  der(y) = z\n  der(z) = mu^2*((1 - y^2)*z - y)\n"
                    "end\nstart m\nuntil 2\n");
    st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_expect_eq(res->method_switches, 0);
    hdo_result_clear(res);
    hdo_model_clear(model);
}
