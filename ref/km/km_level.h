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

/* The elimination of the explicit equations of an evaluated derivative
   array (schur.c explains it): rows E (explicit equations at every
   level, level-major) with their pivot columns, the other rows G, the
   kept columns C (x first, then the nq y columns without a pivot),
   W = J_EP^{-1} [J_EC F_E] at extra precision and the Schur complement
   S = [J_GC F_G] - J_GP W (ng x (nc + 1), last column from F) at prec. */
typedef struct {
    slong L, n, l, mu;
    slong ne0, ne, ng, nc, nq;
    slong *match; /* per equation: its one derivative's variable, or -1 */
    slong *erow, *ecol, *grow, *ccol;
    slong *pivrow; /* per column of J: its row in E, or -1 */
    hdo_mat_t W, S;
    mpfr_t minpiv; /* the smallest |pivot| (0 when none) */
    int minpiv_init;
} km_schur;

void km_schur_init(km_schur *s);
void km_schur_clear(km_schur *s);
/* Builds the elimination of J (and F) at level mu.  Returns 1, or 0 when
   the mode has no explicit equation or J lacks the structure (then the
   dense path is taken). */
int km_schur_build(km_schur *s, const hdo_mat_t J, mpfr_srcptr F, slong l,
                   slong n, slong mu, mpfr_prec_t prec);
/* The Gauss-Newton step dy ((mu + 1) n entries) for F_mu;y dy = F: exact
   on the E rows, least squares of minimum norm on S_y, and minimum norm
   over all of y.  Returns 0 or a negative status. */
int km_schur_step(mpfr_ptr dy, const km_schur *s, mpfr_prec_t prec);
/* The rank decisions of Hypothesis 1 on S (see schur.c). */
int km_schur_hypothesis(hdo_km_level_info *info, const km_schur *s,
                        const hdo_mat_t J, mpfr_prec_t prec);

#endif
