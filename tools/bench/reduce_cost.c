/* reduce_cost.c -- the CPU time of the symbolic index reduction
 * (hdo_reduce_mode) of one mode, apart from the rest of a run: what
 * issue 28 asks to measure on the FPU chain (tools/bench/reduce_cost.sh, built as build/reduce-cost by make bench).
 *
 * usage: reduce-cost MODEL.hdae [NAME=VALUE ...]
 * prints the CPU seconds (best of three) of the start mode's reduction
 * (Pryce's form), its Taylor program (hdo_taylor_init, order 48) and the
 * Kunkel-Mehrmann report of a run's summary (hdo_km_analyze at the start
 * values), the three parts of a run's "reduction" phase.  */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hdo.h"

static double
cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int
main(int argc, char **argv)
{
    hdo_model_t model;
    hdo_error_t err;
    char msg[1024];
    if (argc < 2) {
        fprintf(stderr, "usage: reduce-cost MODEL.hdae [NAME=VALUE ...]\n");
        return 2;
    }
    hdo_model_init(model);
    hdo_error_clear(&err);
    for (int i = 2; i < argc; i++)
        if (hdo_model_add_override(model, argv[i], &err) != 0)
            break;
    if (err.status != 0 || hdo_model_parse_file(model, argv[1], &err) != 0) {
        hdo_error_format(msg, sizeof msg, &err);
        fprintf(stderr, "%s\n", msg);
        return 2;
    }
    double best[3] = {-1, -1, -1};
    mpfr_prec_t prec = 133;
    mpfr_ptr val = hdo_vec_init(model->nvars, prec);
    int *given = calloc(model->nvars + 1, sizeof *given);
    if (hdo_start_values(val, given, model, &err) != 0)
        return 1;
    const hdo_mode *mode = model->modes + model->start_mode;
    mpfr_ptr x = hdo_vec_init(mode->nvars, prec);
    for (slong i = 0; i < mode->nvars; i++)
        mpfr_set(x + i, val + mode->vars[i], MPFR_RNDN);
    mpfr_t t0;
    mpfr_init2(t0, prec);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    for (int rep = 0; rep < 3; rep++) {
        hdo_model_struct work;
        hdo_reduced_t red;
        hdo_taylor_t tay;
        hdo_km_result km;
        double dt[3];
        hdo_model_workspace_init(&work, model);
        hdo_reduced_init(red);
        double c0 = cpu_now();
        int st = hdo_reduce_mode(red, &work, model->start_mode, &err);
        double c1 = cpu_now();
        if (st == 0)
            st = hdo_taylor_init(tay, &work, red, NULL, 0, NULL, 0, prec, 48);
        double c2 = cpu_now();
        if (st == 0) {
            hdo_taylor_clear(tay);
            st = hdo_km_analyze(&km, &work, model->start_mode, t0, x, prec,
                                &err);
        }
        double c3 = cpu_now();
        dt[0] = c1 - c0;
        dt[1] = c2 - c1;
        dt[2] = c3 - c2;
        hdo_reduced_clear(red);
        hdo_model_workspace_clear(&work);
        if (st != 0) {
            hdo_error_format(msg, sizeof msg, &err);
            fprintf(stderr, "%s\n", msg);
            return 1;
        }
        for (int i = 0; i < 3; i++)
            if (best[i] < 0 || dt[i] < best[i])
                best[i] = dt[i];
    }
    printf("vars %ld reduce_s %.4f taylor_init_s %.4f km_report_s %.4f\n",
           (long)model->nvars, best[0], best[1], best[2]);
    mpfr_clear(t0);
    hdo_vec_clear(val, model->nvars);
    hdo_vec_clear(x, mode->nvars);
    free(given);
    hdo_model_clear(model);
    return 0;
}
