/* radau_start.c -- the algebraic components' start values at the working
 * precision: one Newton step on g(t0, y0, z) = 0 where the run's
 * precision lost digits of z0 */
#include "radau_stepper.h"

/* Why.  The driver's consistent point solves g(t0, y0, z) = 0 at the run's
   precision prec, to 2^(8 - prec) of the unknowns' size; where g's terms
   cancel (z = a - y + y^2 at y near 1, z of size 1e-60 beside y = 1) z0
   is only known to 2^-prec of the terms (z0 = d + a without the d^2 of
   z = d + d^2 + a, d = y - 1), and a start value that disagrees with the
   stages' solution at the working precision made the error estimate
   grow with z's size, independently of h, until the step fell below t's
   resolution (decisions.md D-135).  One Newton step
   at the working precision from z0 corrects it; it is taken only where
   it moves z0 by more than the consistent point's own tolerance, so
   every start value the run's precision holds stays as it was. */
int
hdo_radau_refine_unknowns(radau *r)
{
    slong n = r->n, m = r->m, N = r->N;
    if (m == 0)
        return 0;
    hdo_expr bad;
    hdo_radau_set_inputs(r, r->f, r->fin, r->t0, r->y0);
    if (hdo_program_eval(r->f, &bad) != 0)
        return 0; /* the step's own evaluation reports it */
    const mpfr_t *value = (const mpfr_t *)r->f->value;
    const slong *slot = r->f->root_slot;
    hdo_mat_t A;
    hdo_mat_init(A, m, m, r->wprec);
    hdo_mat_zero(A);
    for (slong e = 0; e < r->nnz; e++)
        if (r->jrow[e] >= n && r->jcol[e] >= n)
            mpfr_set(hdo_mat_entry(A, r->jrow[e] - n, r->jcol[e] - n),
                     value[slot[N + e]], MPFR_RNDN);
    mpfr_ptr d = hdo_vec_init(m, r->wprec);
    for (slong k = 0; k < m; k++)
        mpfr_set(d + k, value[slot[n + k]], MPFR_RNDN);
    slong *perm = malloc(m * sizeof *perm);
    HDO_ASSERT(perm != NULL);
    int moved = 0;
    if (hdo_lu_factor(A, perm) == 0) {
        hdo_lu_solve(d, A, perm);
        /* the consistent point's tolerance: 2^(8 - prec) ||z0|| */
        mpfr_t lim;
        mpfr_init2(lim, 64);
        hdo_vec_norm_inf(lim, r->y0 + n, m);
        mpfr_mul_2si(lim, lim, 8 - (long)r->prec, MPFR_RNDN);
        for (slong k = 0; k < m && !moved; k++)
            moved = mpfr_number_p(d + k) && mpfr_cmpabs(d + k, lim) > 0;
        for (slong k = 0; k < m && moved; k++)
            if (!mpfr_number_p(d + k))
                moved = 0;
        if (moved)
            for (slong k = 0; k < m; k++)
                mpfr_sub(r->y0 + n + k, r->y0 + n + k, d + k, MPFR_RNDN);
        mpfr_clear(lim);
    }
    free(perm);
    hdo_vec_clear(d, m);
    hdo_mat_clear(A);
    return moved;
}

/* Why.  A mode's stepper keeps its last proposal when the mode is left;
   entered again at an event far later it starts from that proposal.
   Where it is below t0's resolution (the mode last ran near t = 1e-100,
   and is entered again at t = 1), the steps cannot move t: the proposal
   grows four times a step from 1e-100 to 1e-34 while t stays at 1, and
   the guards' decisions on steps that move nothing flipped the mode 29
   times at t = 1 (decisions.md D-135).  Such a proposal, on an arc that
   does not continue the last step, is dropped: the first step's rule
   (the state's time scale) proposes again. */
int
hdo_radau_stale_step(const radau *r, const mpfr_t t0)
{
    if (mpfr_zero_p(r->hnext) || !mpfr_regular_p(t0))
        return 0;
    /* below t0's resolution at the run's precision */
    if (mpfr_get_exp(r->hnext) >= mpfr_get_exp(t0) - (mpfr_exp_t)r->prec)
        return 0;
    if (!r->have_prev)
        return 1;
    /* the arc continues the last step: t0 = tprev + hprev */
    mpfr_t d;
    mpfr_init2(d, r->wprec);
    mpfr_sub(d, t0, r->tprev, MPFR_RNDN);
    mpfr_sub(d, d, r->hprev, MPFR_RNDN);
    int continues =
        mpfr_zero_p(d) || mpfr_get_exp(d) < mpfr_get_exp(r->hprev) - 20;
    mpfr_clear(d);
    return !continues;
}
