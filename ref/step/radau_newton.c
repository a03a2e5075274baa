/* radau_newton.c -- the Radau IIA stage equations: their evaluation at
 * the stages, the Newton matrix (full or in blocks) and the simplified
 * Newton iteration */
#include "radau_stepper.h"

/* Evaluates (f, g) at stage i, t0 + c_i h, y0 + Z_i (y and z), into
   F_i, and with jac also its Jacobian into Jst_i.  Returns 0, or
   hdo_program_eval's status (HDO_ERR_DOMAIN). */
static int
eval_stage(radau *r, slong i, int jac)
{
    slong n = r->N;
    hdo_program_struct *prog = jac ? r->f : r->f0;
    mpfr_ptr y = r->R; /* scratch: R is free while the stages are evaluated */
    const slong *in = jac ? r->fin : r->f0in;
    mpfr_t ti;
    hdo_expr bad;
    mpfr_init2(ti, r->wprec);
    mpfr_mul(ti, r->c + i, r->h, MPFR_RNDN);
    mpfr_add(ti, ti, r->t0, MPFR_RNDN);
    int direct = 1;
    for (slong q = 0; q < prog->ninputs && direct; q++)
        direct = mpfr_get_prec(prog->value[prog->inputs[q].slot]) ==
                 mpfr_get_prec(y + in[q]);
    if (direct) {
        /* y0 + Z_i straight into the program's inputs: the same sum
           at the same precision as through y (D-128), on the limbs
           (D-132) */
        hdo_erange er;
        hdo_erange_get(&er);
        for (slong q = 0; q < prog->ninputs; q++)
            hdo_add_rn(prog->value[prog->inputs[q].slot], r->y0 + in[q],
                       r->Z + i * n + in[q], &er);
        if (prog->time_slot >= 0)
            mpfr_set(prog->value[prog->time_slot], ti, MPFR_RNDN);
    } else {
        for (slong k = 0; k < n; k++)
            mpfr_add(y + k, r->y0 + k, r->Z + i * n + k, MPFR_RNDN);
        hdo_radau_set_inputs(r, prog, in, ti, y);
    }
    mpfr_clear(ti);
    int st = hdo_radau_tcache_eval(jac ? &r->fc : &r->f0c, prog, i, &bad);
    if (st != 0)
        return st;
    for (slong k = 0; k < n; k++)
        mpfr_set(r->F + i * n + k, prog->value[prog->root_slot[k]], MPFR_RNDN);
    if (jac)
        for (slong e = 0; e < r->nnz; e++)
            mpfr_set(r->Jst + i * r->nnz + e,
                     prog->value[prog->root_slot[n + e]], MPFR_RNDN);
    return 0;
}

static int
eval_stages(radau *r, int jac)
{
    for (slong i = 0; i < r->s; i++) {
        int st = eval_stage(r, i, jac);
        if (st != 0)
            return st;
    }
    return 0;
}

/* M = I - h (A (x) J), J the exact Jacobian at each stage (Jst), factored
   into M, perm; valid for h (hlu) until the next call.  In a DAE mode
   the rows of g at stage i are (g_y, g_z) at that stage alone: the
   Newton matrix of the stage equations with the singular mass matrix
   diag(I, 0), whose z rows say g = 0 at every stage. */
static int
factor_full(radau *r)
{
    slong n = r->N, s = r->s;
    mpfr_t a, t;
    if (n * s > HDO_RADAU_MAX_FULL) {
        /* (n s)^2 MPFR entries and (n s)^3 / 3 products: refused, the
           step shrinks instead (MAX_REJECT ends it) */
        r->lu_valid = 0;
        return -1;
    }
    if (r->M->entries == NULL)
        hdo_mat_init(r->M, n * s, n * s, r->wprec);
    mpfr_inits2(r->wprec, a, t, (mpfr_ptr)0);
    hdo_mat_zero(r->M);
    for (slong i = 0; i < s; i++) {
        for (slong k = 0; k < r->n; k++)
            mpfr_set_ui(hdo_mat_entry(r->M, i * n + k, i * n + k), 1,
                        MPFR_RNDN);
        for (slong e = 0; e < r->nnz; e++)
            if (r->jrow[e] >= r->n)
                mpfr_set(
                    hdo_mat_entry(r->M, i * n + r->jrow[e], i * n + r->jcol[e]),
                    r->Jst + i * r->nnz + e, MPFR_RNDN);
        for (slong j = 0; j < s; j++) {
            mpfr_mul(a, hdo_mat_entry(r->A, i, j), r->h, MPFR_RNDN);
            for (slong e = 0; e < r->nnz; e++) {
                if (r->jrow[e] >= r->n)
                    continue;
                mpfr_ptr m =
                    hdo_mat_entry(r->M, i * n + r->jrow[e], j * n + r->jcol[e]);
                mpfr_mul(t, a, r->Jst + j * r->nnz + e, MPFR_RNDN);
                mpfr_sub(m, m, t, MPFR_RNDN);
            }
        }
    }
    mpfr_clears(a, t, (mpfr_ptr)0);
    r->lu_full = 1;
    r->fb_valid = 0;
    r->lu_valid = hdo_lu_factor(r->M, r->perm) == 0;
    mpfr_set(r->hlu, r->h, MPFR_RNDN);
    return r->lu_valid ? 0 : -1;
}

/* The Newton matrix from the stages' Jacobians (Jst): the full one with
   full (or when the block form is unavailable), else the block-diagonal
   one with J0 the mean of the stages' Jacobians. */
static int
factor_newton(radau *r, int full)
{
    slong s = r->s;
    if (full || !r->have_blk)
        return factor_full(r);
    for (slong e = 0; e < r->nnz; e++) {
        mpfr_ptr d = r->J0 + e;
        mpfr_set_ui(d, 0, MPFR_RNDN);
        for (slong i = 0; i < s; i++)
            mpfr_add(d, d, r->Jst + i * r->nnz + e, MPFR_RNDN);
        mpfr_div_ui(d, d, (unsigned long)s, MPFR_RNDN);
    }
    r->lu_full = 0;
    r->lu_valid =
        hdo_radau_block_factor_stages(&r->blk, r->h, r->J0, r->Jst) == 0;
    r->fb_valid = r->lu_valid && r->fb_ok &&
                  hdo_radau_block_factor_sparse(&r->fb, r->h, r->J0) == 0;
    mpfr_set(r->hlu, r->h, MPFR_RNDN);
    /* the blocks refused (h J beyond double's range, or a singular
       block at the stages' mean Jacobian): the full matrix in MPFR, as
       radau_block.c promises; a shorter step would not help the first
       (x' = -1e300 (x - cos t) collapsed to 3e-38) */
    return r->lu_valid ? 0 : factor_full(r);
}

/* 1 when every entry of v is a finite number */
static int
all_numbers(mpfr_srcptr v, slong n)
{
    for (slong k = 0; k < n; k++)
        if (!mpfr_number_p(v + k))
            return 0;
    return 1;
}

/* Simplified Newton on Z_i - h sum_j a_ij f(t0 + c_j h, y0 + Z_j) = 0
   from the Z it is given (the predictor, or zero).  The matrix
   I - h (A (x) J) is factored with the exact Jacobians at the stages of
   an iterate and kept while the iteration contracts by at most
   1/4 per step (hdo_radau_refactor; across steps too, while h stays); slower
   contraction refactors at the current iterate (a full Newton step), so
   the iteration is never worse than Newton's.  It stops when the
   distance to the solution, estimated as theta / (1 - theta) times the
   last increment (theta the contraction), is below 2^-8 of the step's
   tolerance divided by Lsum, each component measured against its scale
   (radau_scale.c), or at the rounding floor.
   Returns 0 on convergence, 1 when it does not converge (the caller shrinks h),
   2 when it does not converge from a predicted start (the caller tries again
   from zero). */
int
hdo_radau_solve_stages(radau *r, int predicted)
{
    slong n = r->N, s = r->s, ns = n * s;
    mpfr_t step, prev, size, lim, ntol, nabs, eta;
    int st = 1, have_F = 0, fresh = 0;
    mpfr_inits2(64, step, prev, size, lim, ntol, nabs, eta, (mpfr_ptr)0);
    mpfr_set_inf(prev, 1);
    hdo_vec_norm_inf(size, r->y0, n);
    hdo_radau_scales(r->sc, r->y0, NULL, r->floor, n, s);
    /* the error estimate (hdo_radau_top_term) extrapolates the stages with
       weights summing to Lsum in size: their error must stay below the
       tolerance after that (relative to each component's scale; the
       residual's dot products need it absolutely, for the smallest) */
    mpfr_div(ntol, r->tol, r->Lsum, MPFR_RNDN);
    mpfr_mul_2si(ntol, ntol, -8, MPFR_RNDN);
    mpfr_set(nabs, r->sc, MPFR_RNDN);
    for (slong i = 1; i < n; i++)
        mpfr_min(nabs, nabs, r->sc + i, MPFR_RNDN);
    mpfr_mul(nabs, nabs, ntol, MPFR_RNDN);
    if (!r->lu_valid || !mpfr_equal_p(r->hlu, r->h)) {
        if (eval_stages(r, 1) != 0 || factor_newton(r, 0) != 0)
            goto done; /* a domain error or a singular matrix at this h:
                          a smaller step may do (MAX_REJECT ends it) */
        have_F = fresh = 1;
    }
    for (int iter = 0; iter < r->max_newton; iter++) {
        if (!have_F && eval_stages(r, 0) != 0)
            goto done;
        have_F = 0;
        /* R = h A F - Z for y, -g for z; M dZ = R (every residual to
           the stopping test's accuracy: decisions.md D-109), after the
           first from the last one and F's change (D-123); the full
           one again after an increment or at stages that are not
           finite, whose differences are not numbers (D-126's first
           step of 1e-2 on boost_converter_ccm) */
        if (iter == 0 || !mpfr_number_p(prev) || !all_numbers(r->F, ns))
            hdo_radau_dot_residual(r->R, &r->Ad, r->h, r->F, r->Z, r->n, nabs);
        else
            hdo_radau_dot_residual_next(r->R, &r->Ad, r->h, r->F, r->n, nabs);
        /* F is evaluated again before it is read (D-128) */
        hdo_radau_dot_keep_swap(&r->Ad, r->F, r->R, r->n);
        for (slong i = 0; i < s; i++)
            for (slong k = r->n; k < n; k++)
                mpfr_neg(r->R + i * n + k, r->F + i * n + k, MPFR_RNDN);
        if (r->lu_full)
            hdo_lu_solve(r->R, r->M, r->perm);
        else
            hdo_radau_block_solve_stages(&r->blk, r->R);
        hdo_erange er;
        hdo_erange_get(&er);
        for (slong k = 0; k < ns; k++)
            hdo_add_rn(r->Z + k, r->Z + k, r->R + k, &er);
        hdo_radau_dot_moved(&r->Ad, r->R, r->n);
        mpfr_set_zero(step, 1);
        hdo_radau_scaled_max(step, r->R, ns, n, r->sc);
        mpfr_set_ui_2exp(lim, 1, 8 - (long)r->wprec, MPFR_RNDN);
        if (mpfr_cmp(step, lim) <= 0) {
            st = 0;
            break;
        }
        if (iter > 0) {
            mpfr_div(eta, step, prev, MPFR_RNDN); /* theta */
            if (mpfr_cmp_ui(eta, 1) >= 0) {
                if (iter >= 2 && fresh && r->lu_full) {
                    /* the rounding floor of the whole state (as
                       solve_unknowns in ref/reduce), else divergence */
                    hdo_vec_norm_inf(eta, r->R, ns);
                    mpfr_mul_2si(lim, size, -(long)r->prec, MPFR_RNDN);
                    st = mpfr_cmp(eta, lim) <= 0 ? 0 : 1;
                    break;
                }
            } else {
                mpfr_t one;
                mpfr_init2(one, 64);
                mpfr_ui_sub(one, 1, eta, MPFR_RNDN);
                mpfr_div(one, eta, one, MPFR_RNDN);
                mpfr_mul(one, one, step, MPFR_RNDN);
                int done_now = mpfr_cmp(one, ntol) <= 0;
                mpfr_clear(one);
                if (done_now) {
                    st = 0;
                    break;
                }
            }
            /* the blocks refined on the stages' matrix count as that
               matrix while their corrections are taken (D-138) */
            int staged = r->blk.staged || (r->blk.refine && r->blk.refined);
            int act = hdo_radau_refactor(mpfr_get_d(eta, MPFR_RNDN),
                                         r->lu_full ? 1 : 2 * staged, fresh);
            if (act != 0) {
                /* slow: the matrix again at this iterate (the full one
                   for act = 2) */
                if (eval_stages(r, 1) != 0 || factor_newton(r, act == 2) != 0)
                    goto done;
                have_F = fresh = 1;
            }
        }
        mpfr_set(prev, step, MPFR_RNDN);
    }
done:
    mpfr_clears(step, prev, size, lim, ntol, nabs, eta, (mpfr_ptr)0);
    return st != 0 && predicted ? 2 : st;
}
