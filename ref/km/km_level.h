/* km_level.h -- private to ref/km/: one level of the derivative array,
   compiled into a program that evaluates F_mu and its Jacobian. */
#ifndef HDO_KM_LEVEL_H
#define HDO_KM_LEVEL_H

#include "km.h"

/* The derivative array of a mode, levels 0..mu: residual i of the mode
   differentiated k times is D[k * l + i].  Columns of the Jacobian are
   (order o, local variable j) -> o * n + j, o = 0..mu+1: the first n
   are F_mu;x, the rest F_mu;y with y = (x', ..., x^(mu+1)). */
typedef struct {
    slong l, n, mu, L, ncols;
    hdo_program_t prog;
    slong *jroot; /* L x ncols: root index of the entry, -1 if zero */
    mpfr_ptr tab; /* (mu + 2) * model nvars input table, order-major */
    mpfr_ptr out; /* program roots */
    slong tab_len;
} hdo_km_level;

/* Extends the symbolic array D (capacity (mu + 1) l, first *have levels
   present) to levels 0..mu and compiles level mu at precision prec. */
void hdo_km_level_init(hdo_km_level *lev, hdo_model_t model, slong mode,
                       hdo_expr *D, slong *have, slong mu, mpfr_prec_t prec);
void hdo_km_level_clear(hdo_km_level *lev);

/* Evaluates F_mu (F, L entries) and [F_mu;x F_mu;y] (J, L x ncols) at
   (t, x, y), x the n values of the mode's variables and y the (mu+1) n
   derivatives (order-major).  Returns 0 or HDO_ERR_DOMAIN (*bad set). */
int hdo_km_level_eval(mpfr_ptr F, hdo_mat_t J, hdo_km_level *lev,
                      hdo_model_t model, slong mode, const mpfr_t t,
                      mpfr_srcptr x, mpfr_srcptr y, hdo_expr *bad);

#endif
