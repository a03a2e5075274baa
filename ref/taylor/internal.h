/* internal.h -- private to ref/taylor/: error reporting with the mode and time
 */
#ifndef HDO_TAYLOR_INTERNAL_H
#define HDO_TAYLOR_INTERNAL_H

#include "taylor.h"
#include "util.h"

/* The module's tables are allocated by util.h's asserting allocators,
   under their short names. */
#define xmalloc(...) hdo_xmalloc(__VA_ARGS__)
#define xcalloc(...) hdo_xcalloc(__VA_ARGS__)

/* Fills err (if not NULL) with status, msg, the mode of tay and time t
   (NULL: no time), and returns status. */
int hdo_taylor_fail(hdo_error_t *err, const hdo_taylor_t tay, int status,
                    const mpfr_t t, const char *msg);

/* The coefficient array of a series source. */
static inline mpfr_t *
hdo_taylor_src_coef(const hdo_taylor_struct *tay, hdo_taylor_src s)
{
    return (s.kind == HDO_TAYLOR_SRC_STATE ? tay->state_coef
                                           : tay->unknown_coef) +
           s.idx * (tay->order + 1);
}

/* lazy.c: marks the slots that the slots marked in active depend on. */
void hdo_taylor_ancestors(char *active, const hdo_program_struct *prog);

/* lazy.c: frees what hdo_taylor_lazy_setup allocated; factors the needed
   block of dh/dxu at the expansion point from tay->jac's values (returns
   hdo_lu_factor's status); solves the lazy unknowns at t0 + h by Newton
   from xs (states there) and xu (needed unknowns there, lazy ones a
   guess), failures recorded in tay->lazy_status (the values NaN). */
void hdo_taylor_lazy_clear(hdo_taylor_t tay);
int hdo_taylor_lazy_factor(hdo_taylor_t tay);
void hdo_taylor_lazy_solve(mpfr_ptr xu, hdo_taylor_t tay, mpfr_srcptr xs,
                           const mpfr_t h);

/* control.c: the first order of the window the step size reads,
   ceil(3p/4); log2 of the step of one component whose p + 1
   coefficients are c, for the scale floor 2^lfloor (-inf: none) and the
   tolerance 2^ltol (the rule of control.c; +inf: no limit, -inf: none
   possible).  A window whose every |c_j| 2^(j lrad) is at most the
   component's magnitude over the horizon 2^lhz is rounding noise: +inf,
   as for exact zeros (lrad = +inf: never). */
slong hdo_taylor_first_window_order(slong p);
double hdo_taylor_component_step(const mpfr_t *c, slong p, double lfloor,
                                 double ltol, double lhz, double lrad);
/* log2 of the horizon max(1, |t0|) of the noise test (control.c). */
double hdo_taylor_noise_horizon(const hdo_taylor_struct *tay);
/* log2 of the component's magnitude over a step of 2^lh by the same rule:
   max(2^lfloor, |c_k| 2^(k lh)) over k up to its first nonzero order + 1
   (lh = +inf: use a finite step). */
double hdo_taylor_component_magnitude(const mpfr_t *c, slong p, double lfloor,
                                      double lh);

/* Newton's exit for the algebraic unknowns (expand.c, lazy.c): 1 when
   the corrections d[a] (a < n) are small against the unknowns they
   correct, x[k stride] for k = idx[a] (idx NULL: a), whose scale floors
   are floor[k] (floor NULL: none): with global = 0, every
   |d[a]| <= 2^shift max(|x|, floor) of its own unknown (relative to each
   unknown's size, so that one of size 1e-50 is solved to its digits, not
   to 2^shift absolutely); with global = 1, max |d[a]| <= 2^shift times
   the largest such scale (the rounding of the system, the exit when
   Newton no longer makes progress). */
int hdo_taylor_newton_small(mpfr_srcptr d, mpfr_srcptr x, slong stride,
                            const slong *idx, mpfr_srcptr floor, slong n,
                            long shift, int global);

#endif
