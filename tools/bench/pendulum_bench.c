/* pendulum_bench.c -- times the Taylor integrator on the pendulum angle ODE
 * theta'' = -g/L sin theta over [0, 5] at several digit counts */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "taylor.h"

/* The same problem as tools/bench/pendulum_mpmath.py: g = 9.8, L = 1,
   theta(0) = 1, theta'(0) = 0, t in [0, 5]. */
static const char *model_text =
    "model pendulum_angle\nparam g = 9.8\nparam L = 1\n"
    "var th = 1, w = 0\n"
    "mode swing\n  der(th) = w\n  der(w) = -g/L*sin(th)\nend\n"
    "start swing\nuntil 5\n";

/* CPU time of the process, not wall time: on a loaded machine (make -j,
   other jobs) wall time measures the neighbours; the mpmath side uses
   time.process_time() likewise. */
static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One run at D digits: precision and tolerance as the hybrid driver
   chooses them (D + 10 digits, 10^-(D+5)).  Returns the CPU time of the
   compilation and integration (parsing and reduction excluded: they are
   symbolic work done once per model), and writes theta(5). */
static double
run(long digits, slong *steps, slong *order, mpfr_t theta, hdo_model_t model,
    const hdo_reduced_t red)
{
    mpfr_prec_t prec =
        (mpfr_prec_t)((double)(digits + 10) * 3.321928094887362) + 1;
    hdo_taylor_t tay;
    hdo_error_t err;
    mpfr_t t0, t1;
    double start = now();
    hdo_taylor_init(tay, model, red, NULL, 0, NULL, 0, prec, 0);
    mpfr_set_ui(tay->tol, 10, MPFR_RNDN);
    mpfr_pow_si(tay->tol, tay->tol, -(digits + 5), MPFR_RNDN);
    mpfr_ptr xs = hdo_vec_init(red->nstate, prec);
    mpfr_inits2(prec, t0, t1, (mpfr_ptr)0);
    for (slong i = 0; i < red->nstate; i++)
        hdo_expr_eval_constant(xs + i, model->pool,
                               model->vars[red->state[i].var].start);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set_ui(t1, 5, MPFR_RNDN);
    hdo_error_clear(&err);
    int st = hdo_taylor_integrate(xs, NULL, tay, t0, t1, steps, &err);
    double elapsed = now() - start;
    if (st != 0) {
        fprintf(stderr, "pendulum_bench: %s: %s\n", hdo_status_name(st),
                err.message);
        exit(1);
    }
    *order = tay->order;
    mpfr_set_prec(theta, prec);
    mpfr_set(theta, xs + 0, MPFR_RNDN); /* state 0 is th (declared first) */
    mpfr_clears(t0, t1, (mpfr_ptr)0);
    hdo_vec_clear(xs, red->nstate);
    hdo_taylor_clear(tay);
    return elapsed;
}

int
main(int argc, char **argv)
{
    long digits[16] = {30, 45, 60, 100};
    int nd = 4;
    hdo_model_t model;
    hdo_reduced_t red;
    hdo_error_t err;
    mpfr_t theta;

    if (argc > 1) {
        nd = 0;
        for (int i = 1; i < argc && nd < 16; i++)
            digits[nd++] = atol(argv[i]);
    }
    hdo_error_clear(&err);
    hdo_model_init(model);
    if (hdo_model_parse_string(model, model_text, strlen(model_text),
                               "pendulum_angle", &err) != 0 ||
        (hdo_reduced_init(red), hdo_reduce_mode(red, model, 0, &err)) != 0) {
        fprintf(stderr, "pendulum_bench: %s\n", err.message);
        return 1;
    }
    mpfr_init2(theta, 64);
    printf("# hdo Taylor integrator, pendulum theta'' = -9.8 sin theta, "
           "theta(0) = 1, t in [0, 5]\n");
    printf("# digits order steps cpu_seconds theta(5)\n");
    for (int i = 0; i < nd; i++) {
        slong steps, order;
        /* repeat short runs so the time is not clock noise: best of
           enough repetitions to fill 0.2 s */
        double best = run(digits[i], &steps, &order, theta, model, red);
        double total = best;
        while (total < 0.2) {
            double s = run(digits[i], &steps, &order, theta, model, red);
            total += s;
            if (s < best)
                best = s;
        }
        mpfr_printf("%ld %ld %ld %.6f %.*Rf\n", digits[i], (long)order,
                    (long)steps, best, (int)digits[i], theta);
    }
    mpfr_clear(theta);
    hdo_reduced_clear(red);
    hdo_model_clear(model);
    return 0;
}
