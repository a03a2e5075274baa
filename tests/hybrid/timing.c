/* timing.c -- the phase timers and the Taylor order record of a run
 * (hdo_result_struct, decisions.md D-050): consistent with each other and with
 * the run, whatever the machine's speed */
#include <criterion/criterion.h>
#include <string.h>
#include "hybrid.h"
#include "taylor.h" /* the order the Taylor stepper uses */
#include "../model_util.h"

/* A ball with a resting DAE mode after its Zeno point: every phase
   (integration, events, reduction of two modes, reinitialisation after
   each impact) has work to do. */
static const char *text = "model ball\n"
                          "param g = 9.81\n"
                          "param e = 0.5\n"
                          "var h = 1, v = 0, f\n"
                          "mode fly\n"
                          "  der(h) = v\n"
                          "  der(v) = -g\n"
                          "  when h < 0 goto fly with v = -e*v\n"
                          "  zeno goto rest\n"
                          "end\n"
                          "mode rest\n"
                          "  der(h) = v\n"
                          "  der(v) = -g + f\n"
                          "  h = 0\n"
                          "  when f < 0 goto fly\n"
                          "end\n"
                          "start fly at 0\n"
                          "until 2\n";

Test(hybrid, timing_phases_add_up)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, text);
    cr_assert_eq(tm_run(res, model, 20, NULL, &err), 0, "%s", err.message);
    cr_assert_gt(res->nevents, 10);
    double phases[4] = {res->seconds_integration, res->seconds_events,
                        res->seconds_reduction, res->seconds_reinit};
    double sum = 0;
    for (int i = 0; i < 4; i++) {
        cr_assert_geq(phases[i], 0.0, "phase %d: %g", i, phases[i]);
        sum += phases[i];
    }
    /* each second charged to one phase at most */
    cr_assert_leq(sum, res->seconds * (1 + 1e-9) + 1e-9, "%g > %g", sum,
                  res->seconds);
    /* two modes were reduced and many steps taken: not all zero */
    cr_assert_gt(res->seconds_reduction, 0.0);
    cr_assert_gt(res->seconds_integration, 0.0);
    cr_assert_gt(res->cpu_seconds, 0.0);
    /* the order is chosen from the precision: the same at every step */
    slong p = hdo_taylor_default_order(hdo_run_prec(20));
    cr_assert_eq(res->order_sum, p * res->steps, "%ld != %ld * %ld",
                 (long)res->order_sum, (long)p, (long)res->steps);
    hdo_result_clear(res);
    hdo_model_clear(model);
}
