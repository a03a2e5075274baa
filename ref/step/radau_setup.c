/* radau_setup.c -- the Radau IIA stepper's state: its set-up from a mode
 * (tableau, programs, work space), its release, and the programs' inputs */
#include <stdlib.h>
#include "radau_stepper.h"

void
hdo_radau_set_inputs(radau *r, hdo_program_struct *prog, const slong *in,
                     const mpfr_t t, mpfr_srcptr y)
{
    for (slong q = 0; q < prog->ninputs; q++)
        mpfr_set(prog->value[prog->inputs[q].slot], y + in[q], MPFR_RNDN);
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
}

/* Sets (*in)[q] to the state index of input q of prog; returns 0, or
   HDO_ERR_UNSUPPORTED if an input is neither a state nor an unknown
   (*in is allocated either way). */
static int
map_inputs(slong **in, const hdo_program_struct *prog,
           const hdo_reduced_struct *red)
{
    *in = malloc((prog->ninputs + 1) * sizeof(slong));
    HDO_ASSERT(*in != NULL);
    for (slong q = 0; q < prog->ninputs; q++) {
        (*in)[q] = -1;
        for (slong i = 0; i < red->nstate; i++)
            if (red->state[i].var == prog->inputs[q].var &&
                red->state[i].order == prog->inputs[q].order)
                (*in)[q] = i;
        for (slong k = 0; k < red->nimplicit; k++)
            if (red->unknown[k].var == prog->inputs[q].var &&
                red->unknown[k].order == prog->inputs[q].order)
                (*in)[q] = red->nstate + k;
        if ((*in)[q] < 0)
            return HDO_ERR_UNSUPPORTED;
    }
    return 0;
}

int
hdo_radau_stepper_alloc(hdo_stepper_struct *st, hdo_model_t model,
                        const hdo_reduced_struct *red, const hdo_expr *guards,
                        slong nguards, mpfr_prec_t prec)
{
    radau *r = calloc(1, sizeof *r);
    HDO_ASSERT(r != NULL);
    st->impl = r;
    r->model = model;
    r->red = red;
    r->prec = prec;
    r->n = red->nstate;
    r->m = red->nimplicit;
    r->N = r->n + r->m;
    r->ng = nguards;
    r->s = hdo_radau_stages(prec);
    r->max_newton = hdo_radau_newton_limit(prec);
    /* guard bits against the Vandermonde's conditioning (the
       interpolation of the dense output) and the Newton matrix */
    r->wprec = prec + 3 * r->s + 32;
    /* DAE modes in semi-explicit index-1 form only: constraints on the
       state (an index above 1) would need the projection inside the
       step, which the collocation does not do (decisions.md D-080) */
    if (red->ncons > 0) {
        snprintf(st->message, sizeof st->message,
                 "the implicit method (Radau IIA) integrates ODE modes and "
                 "index-1 DAE modes only; this mode has %ld constraints on "
                 "its states",
                 (long)red->ncons);
        return HDO_ERR_UNSUPPORTED;
    }
    slong n = r->n, N = r->N, s = r->s, ns = N * s;
    mpfr_prec_t w = r->wprec;

    /* f, g and their Jacobian, symbolically: f_i = rhs_i for the
       explicit states, der(x^(k)) = x^(k+1) for a state of an implicit
       variable (the next state or its unknown); g = the h equations */
    hdo_jacobian_struct jac;
    hdo_jacobian_roots(&jac, model, red);
    r->nnz = jac.nnz;
    r->jrow = jac.row;
    r->jcol = jac.col;
    hdo_program_init(r->f, model->pool, jac.roots, N + r->nnz, w);
    hdo_program_init(r->f0, model->pool, jac.roots, N, w);
    free(jac.roots);
    hdo_radau_tcache_init(&r->fc, r->f, r->s);
    hdo_radau_tcache_init(&r->f0c, r->f0, r->s);
    if (map_inputs(&r->fin, r->f, red) != 0 ||
        map_inputs(&r->f0in, r->f0, red) != 0) {
        snprintf(st->message, sizeof st->message,
                 "the implicit method: a right-hand side reads a value that "
                 "is not a state");
        return HDO_ERR_UNSUPPORTED;
    }
    /* the tableau and the interpolation matrix */
    r->c = hdo_vec_init(s, w);
    hdo_mat_init(r->A, s, s, w);
    hdo_mat_init(r->W, s + 1, s + 1, w);
    r->wperm = malloc((s + 1) * sizeof(slong));
    HDO_ASSERT(r->wperm != NULL);
    if (hdo_radau_nodes(r->c, s) != 0 || hdo_radau_matrix(r->A, r->c, s) != 0) {
        snprintf(st->message, sizeof st->message,
                 "the Radau IIA tableau with %ld stages failed", (long)s);
        return HDO_ERR_UNSUPPORTED;
    }
    for (slong m = 0; m <= s; m++) {
        mpfr_set_ui(hdo_mat_entry(r->W, m, 0), 1, MPFR_RNDN);
        for (slong k = 1; k <= s; k++) {
            if (m == 0)
                mpfr_set_ui(hdo_mat_entry(r->W, m, k), 0, MPFR_RNDN);
            else
                mpfr_mul(hdo_mat_entry(r->W, m, k),
                         hdo_mat_entry(r->W, m, k - 1), r->c + m - 1,
                         MPFR_RNDN);
        }
    }
    r->L = hdo_vec_init(s, w);
    r->blk_init = 1;
    hdo_radau_defect_init(&r->dfx, r->c, s, w);
    r->dd = hdo_vec_init(N, 64);
    r->du = hdo_vec_init(N, w);
    r->dslope = hdo_vec_init(N, w);
    r->dx = hdo_vec_init(N, w);
    r->dxf = hdo_vec_init(N, w);
    if (r->m == 0) {
        hdo_mat_t G;
        hdo_mat_init(G, 1, 1, 64);
        mpfr_set(hdo_mat_entry(G, 0, 0), r->dfx.gamma, MPFR_RNDN);
        r->fb_ok = hdo_radau_block_init(&r->fb, G, N) == 0;
        if (r->fb_ok)
            hdo_radau_block_set_pattern(&r->fb, r->nnz, r->jrow, r->jcol);
        else
            hdo_radau_block_clear(&r->fb);
        hdo_mat_clear(G);
    }
    hdo_radau_dot_init(&r->Ad, r->A, N);
    hdo_mat_t Ci;
    hdo_mat_init(Ci, s, s, w);
    r->ci_ok = hdo_radau_interp_inverse(Ci, &r->cexp, r->c, s) == 0;
    hdo_radau_dot_init_products(&r->Cd, Ci, N);
    hdo_mat_clear(Ci);
    r->B = hdo_vec_init(s * N, w);
    /* the block form solves I - h (A (x) J), or in a DAE mode the
       matrix with the algebraic rows g_y, g_z (radau_block.c) */
    r->have_blk = hdo_radau_block_init(&r->blk, r->A, N) == 0;
    if (r->m > 0)
        hdo_radau_block_set_states(&r->blk, n);
    hdo_radau_block_set_pattern(&r->blk, r->nnz, r->jrow, r->jcol);
    r->J0 = hdo_vec_init(r->nnz, w);
    mpfr_init2(r->Lsum, 64);
    hdo_radau_top_weights(r->L, r->Lsum, r->c, s);
    if (!r->ci_ok || hdo_lu_factor(r->W, r->wperm) != 0) {
        snprintf(st->message, sizeof st->message,
                 "the Radau IIA interpolation matrix is singular");
        return HDO_ERR_UNSUPPORTED;
    }
    /* Switching functions: their polynomials anchored to their exact
       jet where they vanish at a step's start (radau_guard.c): the
       driver's tests at an arc's start read exact derivatives, as on a
       Taylor expansion */
    if (nguards > 0) {
        r->have_gd = 1;
        if (hdo_radau_guard_init(&r->gd, model, red, guards, nguards, r->c, s,
                                 w, st->message, sizeof st->message) != 0)
            return HDO_ERR_UNSUPPORTED;
        r->gd.gfloor = st->gfloor;
        hdo_radau_memo_init(&r->memo, N, (N + nguards) * (s + 1), w);
        r->have_memo = 1;
        r->w0 = hdo_vec_init(s, w);
        hdo_radau_start_weights(r->w0, r->c, s);
    }

    r->state_coef = malloc((N * (s + 1) + 1) * sizeof(mpfr_t));
    r->guard_coef = malloc((nguards * (s + 1) + 1) * sizeof(mpfr_t));
    r->fixed = malloc((n + 1) * sizeof(int));
    HDO_ASSERT(r->state_coef != NULL && r->guard_coef != NULL &&
               r->fixed != NULL);
    for (slong i = 0; i < n; i++)
        r->fixed[i] = 1;
    mpfr_init2(r->max_res, 64);
    mpfr_set_ui(r->max_res, 0, MPFR_RNDN);
    for (slong k = 0; k < N * (s + 1); k++)
        mpfr_init2(r->state_coef[k], w);
    for (slong k = 0; k < nguards * (s + 1); k++)
        mpfr_init2(r->guard_coef[k], w);
    mpfr_inits2(w, r->t0, r->h, r->hnext, r->tol, r->hlu, r->tprev, r->hprev,
                (mpfr_ptr)0);
    /* the predictor's coefficients, rounded when a step is accepted:
       a start for Newton, trusted to half the precision (predict) and
       in practice to about that (decisions.md D-123), so 64 bits beyond
       half the run's precision (D-142; D-136 had found a cancelling
       algebraic variable's run sensitive to these bits, which D-139's
       guard floors ended) */
    r->prev_y0 = hdo_vec_init(N, w);
    r->PF = hdo_vec_init((s + 1) * N, prec / 2 + 64 < w ? prec / 2 + 64 : w);
    r->Ptau = hdo_vec_init(s + 1, w);
    r->Pout = hdo_vec_init((s + 1) * N, w);
    hdo_mat_t P;
    hdo_mat_init(P, s + 1, s + 1, w);
    hdo_mat_zero(P);
    hdo_radau_dot_init_products(&r->Pd, P, N);
    hdo_mat_clear(P);
    mpfr_set_ui(r->hnext, 0, MPFR_RNDN);
    hdo_radau_probe_init(&r->probe);
    /* the tolerance: 2^(17 - prec), about the hybrid driver's 10^-(D+5)
       at its prec of D + 10 digits (as taylor.h's default), not st->tol
       itself, which is that number exactly: the two differ by a factor
       of about 1.3, and taking the driver's would move the results of
       every arc Radau integrates, which is not this interface's change
       to make (the golden references of robertson and vanderpol rest
       on it) */
    mpfr_set_ui(r->tol, 1, MPFR_RNDN);
    mpfr_mul_2si(r->tol, r->tol, 17 - (long)prec, MPFR_RNDN);
    r->y0 = hdo_vec_init(N, w);
    r->floor = st->floor;
    r->sc = hdo_vec_init(N, 64);
    r->Z = hdo_vec_init(ns, w);
    r->F = hdo_vec_init(ns, w);
    r->R = hdo_vec_init(ns, w);
    r->Jst = hdo_vec_init(s * r->nnz, w);
    /* M (ns x ns) only when the full matrix is first needed */
    r->perm = malloc((ns + 1) * sizeof(slong));
    HDO_ASSERT(r->perm != NULL);
    st->dense.order = s;
    st->dense.state = (const mpfr_t *)r->state_coef;
    st->dense.unknown =
        r->m > 0 ? (const mpfr_t *)r->state_coef + n * (s + 1) : NULL;
    st->dense.guard = (const mpfr_t *)r->guard_coef;
    return 0;
}

void
hdo_radau_stepper_free(hdo_stepper_struct *st)
{
    radau *r = st->impl;
    if (r == NULL)
        return;
    slong N = r->N, s = r->s, ns = N * s;
    if (r->fin != NULL || r->f->code != NULL)
        hdo_program_clear(r->f);
    if (r->f0->code != NULL)
        hdo_program_clear(r->f0);
    free(r->fin);
    free(r->f0in);
    hdo_radau_tcache_clear(&r->fc); /* zero until made: nothing to do */
    hdo_radau_tcache_clear(&r->f0c);
    free(r->jrow);
    free(r->jcol);
    if (r->c != NULL) {
        hdo_vec_clear(r->c, s);
        hdo_mat_clear(r->A);
        hdo_mat_clear(r->W);
        hdo_vec_clear(r->L, s);
    }
    if (r->blk_init) {
        mpfr_clear(r->Lsum);
        hdo_radau_defect_clear(&r->dfx);
        hdo_vec_clear(r->dd, N);
        hdo_vec_clear(r->du, N);
        hdo_vec_clear(r->dslope, N);
        hdo_vec_clear(r->dx, N);
        hdo_vec_clear(r->dxf, N);
        if (r->fb_ok)
            hdo_radau_block_clear(&r->fb);
        hdo_radau_dot_clear(&r->Ad);
        hdo_radau_dot_clear(&r->Cd);
        hdo_vec_clear(r->B, s * N);
        hdo_radau_block_clear(&r->blk);
        hdo_vec_clear(r->J0, r->nnz);
    }
    free(r->wperm);
    if (r->have_gd)
        hdo_radau_guard_clear(&r->gd);
    if (r->have_memo)
        hdo_radau_memo_clear(&r->memo);
    if (r->w0 != NULL)
        hdo_vec_clear(r->w0, s);
    if (r->state_coef != NULL) {
        for (slong k = 0; k < N * (s + 1); k++)
            mpfr_clear(r->state_coef[k]);
        mpfr_clear(r->max_res);
        for (slong k = 0; k < r->ng * (s + 1); k++)
            mpfr_clear(r->guard_coef[k]);
        hdo_radau_probe_clear(&r->probe);
        mpfr_clears(r->t0, r->h, r->hnext, r->tol, r->hlu, r->tprev, r->hprev,
                    (mpfr_ptr)0);
        hdo_vec_clear(r->prev_y0, N);
        hdo_vec_clear(r->PF, (s + 1) * N);
        hdo_vec_clear(r->Ptau, s + 1);
        hdo_vec_clear(r->Pout, (s + 1) * N);
        hdo_radau_dot_clear(&r->Pd);
        hdo_vec_clear(r->y0, N);
        hdo_vec_clear(r->sc, N);
        hdo_vec_clear(r->Z, ns);
        hdo_vec_clear(r->F, ns);
        hdo_vec_clear(r->R, ns);
        hdo_vec_clear(r->Jst, s * r->nnz);
        if (r->M->entries != NULL)
            hdo_mat_clear(r->M);
    }
    free(r->state_coef);
    free(r->guard_coef);
    free(r->fixed);
    free(r->perm);
    free(r);
    st->impl = NULL;
}
