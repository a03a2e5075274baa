/* util.h -- helpers shared by the tests of ref/reduce: evaluating an
 * expression, finding a variable in one (parsing: ../model_util.h) */
#ifndef HDO_TESTS_REDUCE_UTIL_H
#define HDO_TESTS_REDUCE_UTIL_H

#include <criterion/criterion.h>
#include <string.h>
#include "reduce.h"
#include "../model_util.h"

/* The Cartesian pendulum (index 3; x, y, vx, vy, lambda), inconsistent
   start values: the tests of the reduction and of consistent
   initialisation start from it. */
static const char *ru_pendulum_text = "model pendulum\n"
                                      "param g = 9.81\n"
                                      "param L = 1\n"
                                      "var x = 1, y = 0.1, vx = 0.3, vy = 0\n"
                                      "var lambda\n"
                                      "mode swing\n"
                                      "  der(x) = vx\n"
                                      "  der(y) = vy\n"
                                      "  der(vx) = -lambda*x\n"
                                      "  der(vy) = -lambda*y - g\n"
                                      "  x^2 + y^2 = L^2\n"
                                      "end\n"
                                      "start swing\n"
                                      "until 1\n";

/* Values for the inputs of an expression: val[order][var], orders 0..3. */
typedef struct {
    double val[4][16];
} ru_point;

/* Evaluates e at (t, p) in MPFR at 200 bits, independent of the reduce
   module's own programs. */
static inline double
ru_eval(hdo_model_t model, hdo_expr e, double t, const ru_point *p)
{
    hdo_program_t prog;
    hdo_expr bad;
    double r;
    hdo_program_init(prog, model->pool, &e, 1, 200);
    for (slong i = 0; i < prog->ninputs; i++) {
        cr_assert(prog->inputs[i].order < 4 && prog->inputs[i].var < 16);
        mpfr_set_d(prog->value[prog->inputs[i].slot],
                   p->val[prog->inputs[i].order][prog->inputs[i].var],
                   MPFR_RNDN);
    }
    if (prog->time_slot >= 0)
        mpfr_set_d(prog->value[prog->time_slot], t, MPFR_RNDN);
    cr_assert_eq(hdo_program_eval(prog, &bad), 0);
    r = mpfr_get_d(prog->value[prog->root_slot[0]], MPFR_RNDN);
    hdo_program_clear(prog);
    return r;
}

/* 1 if e contains (var, order). */
typedef struct {
    slong var, order;
    int found;
} ru_has_ctx;

static inline void
ru_has_cb(slong var, slong order, void *data)
{
    ru_has_ctx *h = data;
    if (var == h->var && order == h->order)
        h->found = 1;
}

static inline int
ru_has(const hdo_model_t model, hdo_expr e, slong var, slong order)
{
    ru_has_ctx h = {var, order, 0};
    hdo_expr_foreach_var(model->pool, e, ru_has_cb, &h);
    return h.found;
}

#endif
