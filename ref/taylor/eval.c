/* eval.c -- dense output: the Taylor polynomials of the last expansion
 * evaluated by Horner */
#include "internal.h"

/* out[i] := sum_k c[i (p+1) + k] h^k for i < n, through acc at the
   working precision (one rounding per fused multiply-add: hdo_horner_rn,
   the bits of an mpfr_fma loop in fewer instructions, issue 28). */
static void
horner(mpfr_ptr out, const mpfr_t *c, slong n, slong p, const mpfr_t h,
       mpfr_t acc)
{
    for (slong i = 0; i < n; i++)
        hdo_horner_rn(out + i, c + i * (p + 1), p + 1, h, acc);
}

void
hdo_taylor_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g, const hdo_taylor_t tay,
                const mpfr_t h)
{
    mpfr_t acc;
    HDO_ASSERT(tay->expanded);
    mpfr_init2(acc, tay->prec);
    if (xs != NULL)
        horner(xs, tay->state_coef, tay->red->nstate, tay->order, h, acc);
    if (xu != NULL && tay->nlazy > 0) {
        /* needed unknowns to the full order, lazy ones to theirs */
        for (slong j = 0; j < tay->red->nimplicit; j++)
            horner(xu + j, tay->unknown_coef + j * (tay->order + 1), 1,
                   tay->lazy[j] ? HDO_TAYLOR_LAZY_ORDER : tay->order, h, acc);
    } else if (xu != NULL) {
        horner(xu, tay->unknown_coef, tay->red->nimplicit, tay->order, h, acc);
    }
    if (xu != NULL) {
        if (tay->nlazy > 0) {
            /* the lazy unknowns' truncated series is a guess: solved from
               the states at the point; the solve's scratch and its sticky
               failure are not part of the expansion (hence the cast) */
            mpfr_ptr s = xs;
            if (s == NULL) {
                s = hdo_vec_init(tay->red->nstate, tay->prec);
                horner(s, tay->state_coef, tay->red->nstate, tay->order, h,
                       acc);
            }
            hdo_taylor_lazy_solve(xu, (hdo_taylor_struct *)tay, s, h);
            if (s != xs)
                hdo_vec_clear(s, tay->red->nstate);
        }
    }
    if (g != NULL)
        horner(g, tay->guard_coef, tay->nguards, tay->order, h, acc);
    mpfr_clear(acc);
}

void
hdo_taylor_eval_extra(mpfr_ptr e, const hdo_taylor_t tay, const mpfr_t h)
{
    mpfr_t acc;
    HDO_ASSERT(tay->expanded);
    mpfr_init2(acc, tay->prec);
    horner(e, tay->extra_coef, tay->nextra, tay->order, h, acc);
    mpfr_clear(acc);
}
