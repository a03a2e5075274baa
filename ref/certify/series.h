/* series.h -- ball Taylor coefficients over a compiled program (private to
   ref/certify/): the program's instructions walked with Arb, one order at
   a time, each coefficient a jet (its value and its derivatives with
   respect to nd parameters, the initial state in the Lohner step). */
#ifndef HDO_CERTIFY_SERIES_H
#define HDO_CERTIFY_SERIES_H

#include <arb.h>
#include "expr.h"

/* Coefficients of a program's slots as balls.  Slot s, jet component d
   (0: the value, 1..nd: the derivative with respect to parameter d - 1),
   order k is co[(s * w + d) * (order + 1) + k], w = 1 + nd: each
   component's series is contiguous, so that a Cauchy product is one
   arb_dot.  Inputs (VAR slots) and the time slot are written by the
   caller (cert_series_coef); constants are set by cert_series_init. */
typedef struct {
    const hdo_program_struct *prog; /* borrowed: its code and slots */
    slong order;                    /* highest order stored */
    slong nd, w;                    /* parameters; w = 1 + nd */
    slong prec;                     /* Arb working precision, bits */
    arb_ptr co;
    /* companion and weighted series of the instructions that need them
       (cert_series.c, aux_count): aux[slot] is the first, or -1 */
    slong *aux;
    slong naux;
    arb_ptr ax;
    arb_ptr tmp; /* w scratch jets of one coefficient */
    arb_ptr tmp2;
    int status;   /* HDO_ERR_DOMAIN when a constant is undefined */
    hdo_expr bad; /* its node */
} cert_series_struct;
typedef cert_series_struct cert_series_t[1];

/* Prepares coefficient storage for orders 0..order with nd parameters
   at prec bits, and encloses every constant slot of prog (rational
   constants and pi exactly rounded; folded constant sub-expressions by
   hdo_expr_enclose on the pool node).  A constant that is undefined is
   kept as status HDO_ERR_DOMAIN with its node in bad, reported by the
   first cert_series_step. */
void cert_series_init(cert_series_t S, const hdo_program_struct *prog,
                      const hdo_expr_pool_struct *pool, slong order, slong nd,
                      slong prec);
void cert_series_clear(cert_series_t S);

static inline arb_ptr
cert_series_coef(cert_series_t S, slong slot, slong d, slong k)
{
    return S->co + (slot * S->w + d) * (S->order + 1) + k;
}

/* Zeroes every coefficient of the non-constant slots (inputs, time,
   instructions) of orders 0..order and all companion series: a fresh
   expansion. */
void cert_series_reset(cert_series_t S);

/* Computes order k of every instruction slot with active[s] != 0
   (active NULL: all) from orders 0..k of their operands and 0..k-1 of
   themselves, as hdo_program_taylor_step does in MPFR: normalised
   coefficients of f(t0 + s).  The time slot's coefficient 0 is the
   caller's; its order 1 is set to 1 and higher orders to 0 here.
   Every ball encloses the exact coefficient for every value of the
   inputs' balls.  Returns 0, or HDO_ERR_DOMAIN with *bad the node whose
   enclosure meets a domain edge (a division by a ball containing zero,
   a log or sqrt of a ball reaching 0, asin of one reaching +-1). */
int cert_series_step(cert_series_t S, slong k, const char *active,
                     hdo_expr *bad);

/* Sets active[s] to 1 for the slots that depend on a slot marked on
   entry (inputs), 0 for the other non-input slots (as
   hdo_program_dependents, which it calls). */
void cert_series_dependents(char *active, const cert_series_t S);

#endif
