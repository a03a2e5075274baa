/* radau.c -- hdo_step_radau: Radau IIA collocation with s stages growing with
 * the digits, for ODE and index-1 DAE modes, behind the stepper interface */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "radau.h"
#include "radau_control.h"
#include "radau_dot.h"
#include "radau_error.h"

/* When the Newton matrix is refactored, how many iterations it may take
   (hdo_radau_newton_limit) and when the step is kept: radau_control.c */
/* Rejections in a row before the step is declared collapsed. */
#define MAX_REJECT 60

typedef struct {
    hdo_model_struct *model;
    const hdo_reduced_struct *red;
    mpfr_prec_t prec, wprec; /* the run's, and the working one */
    /* n states y, m algebraic unknowns z (a DAE mode's index-1 reduced
       form y' = f(t, y, z), 0 = g(t, y, z)); every vector of N = n + m
       components holds y first, then z */
    slong n, m, N, s, ng;
    int max_newton;   /* iterations before the step is retried at h/4 */
    mpfr_ptr c;       /* s nodes */
    hdo_mat_t A;      /* s x s */
    hdo_radau_dot Ad; /* A for the residual's dot products (radau_dot.c) */
    hdo_mat_t W;      /* LU of the (s+1) x (s+1) Vandermonde of 0, c_1..c_s */
    slong *wperm;
    mpfr_ptr L;  /* L_j(c_1), j = 2..s: the Lagrange weights that
                    extrapolate from the stages 2..s to c_1 */
    mpfr_t Lsum; /* 1 + sum |L_j|: how the top term amplifies the stages'
                    errors */
    /* f, g and their nonzero partials: roots f[0..n), g[0..m), then
       the entries of the N x N Jacobian */
    hdo_program_t f;
    slong *fin;       /* per input of f: its component (y, then z) */
    hdo_program_t f0; /* the right-hand sides alone, for the iterations */
    slong *f0in;
    hdo_radau_tcache fc, f0c; /* their operations on time alone, per stage */
    slong nnz, *jrow, *jcol;
    /* the dense output, at wprec: y then z in state_coef */
    mpfr_t *state_coef, *guard_coef; /* N x (s+1), ng x (s+1) */
    int *fixed;                      /* n ones: every state is kept */
    mpfr_t max_res; /* the largest residual of g before the solve */
    mpfr_t t0, h, hnext, tol;
    hdo_radau_probe probe; /* the step-size probe (radau_control.h) */
    int applied;           /* the dense output is that of (t0, y0) */
    /* the factored Newton matrix M (perm) is valid for the step hlu */
    int lu_valid, lu_full; /* lu_full: M, else the blocks blk */
    mpfr_t hlu;
    hdo_radau_block blk; /* the block-diagonal form (radau_block.c) */
    int blk_init, have_blk;
    mpfr_ptr J0; /* n x n: the Jacobian of the blocks */
    /* the last accepted step's polynomial, the predictor of the next */
    mpfr_t *prev_coef; /* N x (s+1) */
    mpfr_t tprev, hprev;
    int have_prev;
    /* work */
    mpfr_ptr y0, Z, F, R, v; /* N, s*N, s*N, s*N, s+1 */
    hdo_mat_t M;             /* s*N x s*N */
    slong *perm;
    mpfr_ptr Jst; /* s x nnz Jacobian entries at the stages */
    /* modes with switching functions (radau_guard.c) */
    hdo_radau_guard gd;
    int have_gd;
    hdo_radau_memo memo; /* the previous apply's dense output */
    int have_memo;
    mpfr_ptr w0; /* s weights: the stages' polynomial at tau = 0 */
    /* each component's scale (radau_scale.c), from the stepper's floors
       (borrowed: N entries, the states' then the unknowns') */
    mpfr_srcptr floor;
    mpfr_ptr sc; /* N, 64 bits */
    /* the defect bound (radau_error.c): per state, 64 bits; the dense
       output's value and slope at a sample point (N each) */
    hdo_radau_defect dfx;
    mpfr_ptr dd, du, dslope, dx, dxf;
    /* I - gamma h J0 (an ODE mode), factored with the blocks: the
       defect bound's filter (fb_valid: for the current h and J0) */
    hdo_radau_block fb;
    int fb_ok, fb_valid;
} radau;

static void
set_inputs(radau *r, hdo_program_struct *prog, const slong *in, const mpfr_t t,
           mpfr_srcptr y)
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

static int
radau_alloc(hdo_stepper_struct *st, hdo_model_t model,
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
    /* the block form solves I - h (A (x) J), or in a DAE mode the
       matrix with the algebraic rows g_y, g_z (radau_block.c) */
    r->have_blk = hdo_radau_block_init(&r->blk, r->A, N) == 0;
    if (r->m > 0)
        hdo_radau_block_set_states(&r->blk, n);
    hdo_radau_block_set_pattern(&r->blk, r->nnz, r->jrow, r->jcol);
    r->J0 = hdo_vec_init(r->nnz, w);
    mpfr_init2(r->Lsum, 64);
    hdo_radau_top_weights(r->L, r->Lsum, r->c, s);
    if (hdo_lu_factor(r->W, r->wperm) != 0) {
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
    r->prev_coef = malloc((N * (s + 1) + 1) * sizeof(mpfr_t));
    HDO_ASSERT(r->prev_coef != NULL);
    /* the predictor's coefficients, rounded when a step is accepted:
       a start for Newton, trusted to half the precision (predict) and
       in practice to about that (decisions.md D-123), so 64 bits beyond
       the run's precision, not the working one */
    for (slong k = 0; k < N * (s + 1); k++)
        mpfr_init2(r->prev_coef[k], prec + 64 < w ? prec + 64 : w);
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
    r->v = hdo_vec_init(s + 1, w);
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

static void
radau_free(hdo_stepper_struct *st)
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
        for (slong k = 0; k < N * (s + 1); k++)
            mpfr_clear(r->prev_coef[k]);
        free(r->prev_coef);
        hdo_vec_clear(r->y0, N);
        hdo_vec_clear(r->sc, N);
        hdo_vec_clear(r->Z, ns);
        hdo_vec_clear(r->F, ns);
        hdo_vec_clear(r->R, ns);
        hdo_vec_clear(r->v, s + 1);
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

static int
domain_fail(hdo_error_t *err, radau *r, hdo_expr bad, const mpfr_t t)
{
    /* hdo_program_eval cleared the flag before evaluating (expr.h): an
       overflow is named as such, not as a domain error */
    int over = mpfr_overflow_p();
    char *s = hdo_expr_to_string(r->model->pool, bad, r->model->var_names);
    hdo_error_set(
        err, HDO_ERR_DOMAIN, 0, 0, "%s evaluating %.500s",
        over ? "overflow (beyond MPFR's exponent range)" : "domain error", s);
    free(s);
    if (err != NULL) {
        err->mode = r->model->modes[r->red->mode].name;
        err->file = r->model->file;
        err->has_time = 1;
        err->time = mpfr_get_d(t, MPFR_RNDN);
    }
    return HDO_ERR_DOMAIN;
}

/* Evaluates (f, g) at stage i, t0 + c_i h, y0 + Z_i (y and z), into
   F_i, and with jac also its Jacobian into Jst_i.  Returns 0, or
   hdo_program_eval's status (HDO_ERR_DOMAIN). */
static int
eval_stage(radau *r, slong i, int jac)
{
    slong n = r->N;
    hdo_program_struct *prog = jac ? r->f : r->f0;
    mpfr_ptr y = r->R; /* scratch: R is free while the stages are evaluated */
    mpfr_t ti;
    hdo_expr bad;
    mpfr_init2(ti, r->wprec);
    for (slong k = 0; k < n; k++)
        mpfr_add(y + k, r->y0 + k, r->Z + i * n + k, MPFR_RNDN);
    mpfr_mul(ti, r->c + i, r->h, MPFR_RNDN);
    mpfr_add(ti, ti, r->t0, MPFR_RNDN);
    set_inputs(r, prog, jac ? r->fin : r->f0in, ti, y);
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
static int
solve_stages(radau *r, int predicted)
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
           first from the last one and F's change (D-123) */
        if (iter == 0)
            hdo_radau_dot_residual(r->R, &r->Ad, r->h, r->F, r->Z, r->n, nabs);
        else
            hdo_radau_dot_residual_next(r->R, &r->Ad, r->h, r->F, r->n, nabs);
        hdo_radau_dot_keep(&r->Ad, r->F, r->R, r->n);
        for (slong i = 0; i < s; i++)
            for (slong k = r->n; k < n; k++)
                mpfr_neg(r->R + i * n + k, r->F + i * n + k, MPFR_RNDN);
        if (r->lu_full)
            hdo_lu_solve(r->R, r->M, r->perm);
        else
            hdo_radau_block_solve_stages(&r->blk, r->R);
        for (slong k = 0; k < ns; k++)
            mpfr_add(r->Z + k, r->Z + k, r->R + k, MPFR_RNDN);
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
            int act =
                hdo_radau_refactor(mpfr_get_d(eta, MPFR_RNDN),
                                   r->lu_full ? 1 : 2 * r->blk.staged, fresh);
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

/* Z_i := p(t0 - tprev + c_i h) - y0, p the last accepted step's
   polynomial, when this step continues it (t0 = tprev + hprev and p
   ends at y0); else Z := 0.  Returns 1 when it predicted. */
static int
predict(radau *r)
{
    slong n = r->N, s = r->s;
    int ok = r->have_prev;
    mpfr_prec_t pp = mpfr_get_prec(r->prev_coef[0]);
    mpfr_t ds, x, d, xp;
    mpfr_inits2(r->wprec, ds, x, d, (mpfr_ptr)0);
    mpfr_init2(xp, pp); /* Horner's abscissa at the coefficients' bits */
    mpfr_sub(ds, r->t0, r->tprev, MPFR_RNDN);
    mpfr_sub(d, ds, r->hprev, MPFR_RNDN);
    mpfr_mul_2si(x, r->hprev, -20, MPFR_RNDN);
    if (ok && (mpfr_sgn(ds) <= 0 || mpfr_cmpabs(d, x) > 0))
        ok = 0;
    if (ok)
        hdo_radau_scales(r->sc, r->y0, NULL, r->floor, n, s);
    for (slong i = 0; i < n && ok; i++) {
        mpfr_set(xp, ds, MPFR_RNDN);
        hdo_radau_horner(x, r->prev_coef + i * (s + 1), s, xp, pp);
        mpfr_sub(d, x, r->y0 + i, MPFR_RNDN);
        mpfr_mul_2si(x, r->sc + i, -(long)r->prec / 2, MPFR_RNDN);
        ok = mpfr_cmpabs(d, x) <= 0;
    }
    for (slong m = 0; m < s; m++)
        for (slong i = 0; i < n; i++) {
            mpfr_ptr z = r->Z + m * n + i;
            if (!ok) {
                mpfr_set_ui(z, 0, MPFR_RNDN);
                continue;
            }
            mpfr_mul(x, r->c + m, r->h, MPFR_RNDN);
            mpfr_add(x, x, ds, MPFR_RNDN);
            mpfr_set(xp, x, MPFR_RNDN);
            hdo_radau_horner(z, r->prev_coef + i * (s + 1), s, xp, pp);
            mpfr_sub(z, z, r->y0 + i, MPFR_RNDN);
        }
    mpfr_clears(ds, x, d, xp, (mpfr_ptr)0);
    return ok;
}

/* The polynomial through (0, v_0), (c_m, v_m) in tau = (t - t0)/h,
   converted to t - t0: dst[k] = b_k / h^k. */
static void
interpolate(radau *r, mpfr_t *dst)
{
    slong s = r->s;
    hdo_lu_solve(r->v, r->W, r->wperm);
    mpfr_t hk;
    mpfr_init2(hk, r->wprec);
    mpfr_set_ui(hk, 1, MPFR_RNDN);
    for (slong k = 0; k <= s; k++) {
        mpfr_div(dst[k], r->v + k, hk, MPFR_RNDN);
        mpfr_mul(hk, hk, r->h, MPFR_RNDN);
    }
    mpfr_clear(hk);
}

/* dd := the defect bound of each state's dense output (radau_error.c),
   from f at the two sample points; returns 0, or -1 when f is not
   defined there (the step then goes by hdo_radau_top_term alone). */
static int
defect_bound(radau *r)
{
    slong N = r->N, s = r->s;
    hdo_program_struct *prog = r->f0;
    mpfr_t x, t;
    hdo_expr bad;
    int st = 0;
    mpfr_inits2(r->wprec, x, t, (mpfr_ptr)0);
    for (slong i = 0; i < N; i++)
        mpfr_set_nan(r->dd + i);
    for (int k = 0; k < 2 && st == 0; k++) {
        mpfr_mul(x, r->dfx.tau[k], r->h, MPFR_RNDN);
        for (slong i = 0; i < N; i++)
            hdo_radau_value_slope(r->du + i, r->dslope + i,
                                  r->state_coef + i * (s + 1), s, x, r->wprec);
        mpfr_add(t, r->t0, x, MPFR_RNDN);
        set_inputs(r, prog, r->f0in, t, r->du);
        st = hdo_program_eval(prog, &bad) != 0 ? -1 : 0;
        for (slong i = 0; i < r->n && st == 0; i++)
            mpfr_set(r->du + i, prog->value[prog->root_slot[i]], MPFR_RNDN);
        if (st != 0)
            break;
        hdo_radau_defect_raw(r->dx, r->dslope, r->du, r->h, r->n);
        /* filtered with the blocks' J0 while they are factored for h */
        int filt = r->fb_valid && r->lu_valid && !r->lu_full &&
                   mpfr_equal_p(r->hlu, r->h);
        if (filt) {
            for (slong i = 0; i < N; i++)
                mpfr_set(r->dxf + i, r->dx + i, MPFR_RNDN);
            hdo_radau_block_solve(&r->fb, r->dxf);
        }
        hdo_radau_defect_take(r->dd, r->dx, filt ? r->dxf : NULL, r->dfx.R[k],
                              r->dfx.Rf[k], r->n);
    }
    mpfr_clears(x, t, (mpfr_ptr)0);
    return st;
}

static int
radau_apply(hdo_stepper_struct *st, const mpfr_t t0, mpfr_srcptr xs,
            mpfr_srcptr xu, hdo_error_t *err)
{
    radau *r = st->impl;
    slong n = r->n, N = r->N, s = r->s;
    mpfr_t e, fac, erej, hrej;
    hdo_expr bad;
    int status = 0;

    /* The driver re-applies at the point of the last apply to get its
       dense output back (after a test at another point): the same step
       and polynomial, not a new step from the proposal. */
    if (r->applied && mpfr_equal_p(r->t0, t0)) {
        int same = 1;
        for (slong i = 0; i < n && same; i++)
            same = mpfr_equal_p(r->y0 + i, xs + i);
        if (same)
            return 0;
    }
    /* the point before it (radau_guard.c, hdo_radau_memo) */
    if (r->have_memo && r->memo.valid && mpfr_equal_p(r->memo.t0, t0)) {
        int same = 1;
        for (slong i = 0; i < n && same; i++)
            same = mpfr_equal_p(r->memo.y0 + i, xs + i);
        if (same) {
            hdo_radau_memo_swap(&r->memo, r->t0, r->h, r->hnext, r->y0,
                                r->state_coef, N * (s + 1), r->guard_coef);
            r->memo.valid = r->applied;
            r->applied = 1;
            return 0;
        }
    }
    if (r->have_memo && r->applied) {
        hdo_radau_memo_swap(&r->memo, r->t0, r->h, r->hnext, r->y0,
                            r->state_coef, N * (s + 1), r->guard_coef);
        mpfr_set(r->hnext, r->memo.hnext, MPFR_RNDN);
        r->memo.valid = 1;
    }
    r->applied = 0;
    mpfr_set(r->t0, t0, MPFR_RNDN);
    for (slong i = 0; i < n; i++)
        mpfr_set(r->y0 + i, xs + i, MPFR_RNDN);
    if (r->m > 0) {
        /* z0 from g(t0, y0, z) = 0 by Newton from the guess xu (the
           driver's points are consistent already: one iteration), at
           the run's precision as every consistent point */
        mpfr_ptr ys = hdo_vec_init(n, r->prec),
                 zs = hdo_vec_init(r->m, r->prec);
        for (slong i = 0; i < n; i++)
            mpfr_set(ys + i, xs + i, MPFR_RNDN);
        for (slong k = 0; k < r->m; k++)
            mpfr_set(zs + k, xu + k, MPFR_RNDN);
        status = hdo_consistent_init(ys, zs, NULL, r->model, r->red, t0,
                                     r->fixed, r->prec, err);
        for (slong k = 0; k < r->m; k++)
            mpfr_set(r->y0 + n + k, zs + k, MPFR_RNDN);
        hdo_vec_clear(ys, n);
        hdo_vec_clear(zs, r->m);
        if (status != 0)
            return status;
    }
    mpfr_inits2(64, e, fac, erej, hrej, (mpfr_ptr)0);
    mpfr_set_zero(erej, 1); /* no rejected estimate yet */
    st->lround = hdo_radau_round_floor_log2(r->y0, N, s);
    if (mpfr_zero_p(r->hnext)) {
        /* first step: tol^(1/(s+1)) times the state's time scale
           (radau_scale.c), a guess the error control corrects */
        set_inputs(r, r->f, r->fin, t0, r->y0);
        if (hdo_program_eval(r->f, &bad) != 0) {
            status = domain_fail(err, r, bad, t0);
            goto out;
        }
        hdo_radau_time_scale(fac, r->y0, r->f->value, r->f->root_slot, r->floor,
                             r->sc, n, N, s);
        mpfr_rootn_ui(e, r->tol, s + 1, MPFR_RNDN);
        mpfr_mul(r->hnext, fac, e, MPFR_RNDN);
        hdo_radau_probe_reset(&r->probe);
    }
    mpfr_set(r->h, r->hnext, MPFR_RNDN);
    if (r->have_gd) {
        /* At most one time unit max(u, |t0|), u = min(1, span) (the
           stepper's lspan; 1 if unknown), the horizon the driver gives
           a Taylor step whose series is a polynomial
           (hdo_run_event_horizon, D-112): the zero rule judges a
           guard's coefficients by their size over the step, and a step
           that grew without bound on an exactly represented solution
           (four times a step) would call a guard's value at an arc's
           start zero and its crossing immediate (filippov_spiral near
           its Zeno point: steps of 3e7).  With the 1 over a span below
           1 the same happened at scale: the ball scaled to 3e-20 took
           steps of 1 s and chattered (D-119). */
        mpfr_set_d(e, hdo_log2_time_unit(st->lspan), MPFR_RNDN);
        mpfr_exp2(e, e, MPFR_RNDN);
        mpfr_abs(fac, t0, MPFR_RNDN);
        if (mpfr_cmp(fac, e) < 0)
            mpfr_set(fac, e, MPFR_RNDN);
        if (mpfr_cmp(r->h, fac) > 0)
            mpfr_set(r->h, fac, MPFR_RNDN);
    }
    for (int tries = 0;; tries++) {
        if (tries >= MAX_REJECT) {
            hdo_error_set(err, HDO_ERR_STEP_COLLAPSE, 0, 0,
                          "the implicit method's step collapsed to %.3g",
                          mpfr_get_d(r->h, MPFR_RNDN));
            status = HDO_ERR_STEP_COLLAPSE;
            break;
        }
        int ns = solve_stages(r, predict(r));
        if (ns == 0) {
            /* the dense output of the states and unknowns */
            for (slong i = 0; i < N; i++) {
                mpfr_set(r->v + 0, r->y0 + i, MPFR_RNDN);
                for (slong m = 0; m < s; m++)
                    mpfr_add(r->v + m + 1, r->y0 + i, r->Z + m * N + i,
                             MPFR_RNDN);
                interpolate(r, r->state_coef + i * (s + 1));
            }
            /* each component against its size at the step's start and
               end (the last stage, c_s = 1) */
            hdo_radau_scales(r->sc, r->y0, r->Z + (s - 1) * N, r->floor, N, s);
            int dfx = defect_bound(r) == 0;
            hdo_radau_top_term(e, r->Z, r->L, r->sc, dfx ? r->dd : NULL, n, N,
                               s, r->wprec);
            if (r->have_gd) {
                /* the guards' polynomials are held to the tolerance as
                   the states' (a guard may vary faster than the states:
                   sin(2 pi t/T) of a PWM) */
                hdo_radau_start_term(e, r->Z, r->w0, r->sc, N, s, r->wprec);
                bad = HDO_EXPR_NONE;
                if (hdo_radau_guard_values(&r->gd, r->t0, r->h, r->y0, r->Z,
                                           r->c, &bad) != 0) {
                    mpfr_div_2ui(r->h, r->h, 2, MPFR_RNDN);
                    continue; /* undefined at a stage: a shorter step */
                }
                hdo_radau_guard_error(e, &r->gd, r->L, r->w0, r->tol);
            }
            if (mpfr_cmp(e, r->tol) <= 0) {
                /* accepted; next proposal from the same rule */
                hdo_radau_accept_factor(fac, r->tol, e, (long)s);
                /* a small growth keeps h, and with it the factored
                   Newton matrix; a probe whose estimate did not grow
                   with h, or grew far below the tolerance, doubles
                   again (hdo_radau_probe_again), and a long run of kept
                   steps tries twice h (hdo_radau_probe_due) */
                hdo_radau_probe_accept(
                    &r->probe, fac, r->h, e, r->tol,
                    hdo_radau_block_stiffness(&r->blk,
                                              r->Jst + (s - 1) * r->nnz, r->h),
                    (long)s);
                mpfr_mul(r->hnext, r->h, fac, MPFR_RNDN);
                for (slong k = 0; k < N * (s + 1); k++)
                    mpfr_set(r->prev_coef[k], r->state_coef[k], MPFR_RNDN);
                mpfr_set(r->tprev, r->t0, MPFR_RNDN);
                mpfr_set(r->hprev, r->h, MPFR_RNDN);
                r->have_prev = 1;
                break;
            }
            /* an estimate that did not fall with the last shrink
               shrinks h by the most (hdo_radau_reject_note) */
            int stalled = hdo_radau_reject_note(erej, hrej, e, r->h);
            hdo_radau_probe_rejected(&r->probe, e, r->h);
            if (hdo_radau_probe_back(&r->probe, r->h))
                continue;
            hdo_radau_reject_factor(fac, r->tol, e, (long)s, stalled);
            mpfr_mul(r->h, r->h, fac, MPFR_RNDN);
        } else if (hdo_radau_probe_back(&r->probe, r->h)) {
            /* the probe failed: back to the step it doubled */
        } else if (ns == 2) {
            /* the predictor led Newton astray: again from zero, once */
            r->have_prev = 0;
        } else {
            mpfr_div_2ui(r->h, r->h, 2, MPFR_RNDN);
        }
    }
    if (status == 0 && r->have_gd) {
        status =
            hdo_radau_guard_dense(r->guard_coef, &r->gd, r->t0, r->h, r->y0,
                                  r->c, r->W, r->wperm, r->tol, err);
    }
out:
    r->applied = status == 0;
    mpfr_clears(e, fac, erej, hrej, (mpfr_ptr)0);
    return status;
}

static int
radau_step_size(mpfr_t h, const hdo_stepper_struct *st)
{
    const radau *r = st->impl;
    /* the step was chosen by apply for r->tol */
    mpfr_set(h, r->h, MPFR_RNDN);
    return 0;
}

static void
radau_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g, const hdo_stepper_struct *st,
           const mpfr_t h)
{
    const radau *r = st->impl;
    if (xs != NULL)
        for (slong i = 0; i < r->n; i++)
            hdo_radau_horner(xs + i, r->state_coef + i * (r->s + 1), r->s, h,
                             r->wprec);
    if (xu != NULL)
        for (slong k = 0; k < r->m; k++)
            hdo_radau_horner(xu + k, r->state_coef + (r->n + k) * (r->s + 1),
                             r->s, h, r->wprec);
    if (g != NULL)
        for (slong q = 0; q < r->ng; q++)
            hdo_radau_horner(g + q, r->guard_coef + q * (r->s + 1), r->s, h,
                             r->wprec);
}

static int
radau_evolve(mpfr_ptr xs, mpfr_ptr xu, hdo_stepper_struct *st, const mpfr_t h,
             hdo_error_t *err)
{
    radau *r = st->impl;
    radau_eval(xs, xu, NULL, st, h);
    if (r->m == 0)
        return 0; /* an ODE mode: no constraints to project onto */
    /* The states stay (index 1: no constraint on them); the unknowns are
       solved from g = 0 at the new point.  At the step's end the last
       stage satisfies g = 0 already (Radau IIA is stiffly accurate);
       inside the step the collocation polynomial of z is off g = 0 by
       about the tolerance, which the residual before the solve records
       (as the Taylor method's drift). */
    mpfr_t t1, res;
    mpfr_inits2(r->prec, t1, res, (mpfr_ptr)0);
    mpfr_add(t1, r->t0, h, MPFR_RNDN);
    hdo_reduced_residual(res, r->model, r->red, t1, xs, xu);
    if (mpfr_nan_p(res) || mpfr_cmp(res, r->max_res) > 0)
        mpfr_set(r->max_res, res, MPFR_RNDU);
    int stat = hdo_consistent_init(xs, xu, NULL, r->model, r->red, t1, r->fixed,
                                   r->prec, err);
    mpfr_clears(t1, res, (mpfr_ptr)0);
    return stat;
}

static double
radau_stiffness(const hdo_stepper_struct *st)
{
    (void)st;
    return 0.0; /* L-stable: no step is limited by stability */
}

static void
radau_max_residual(mpfr_t r, const hdo_stepper_struct *st)
{
    const radau *ra = st->impl;
    if (ra->m > 0 && mpfr_cmp(ra->max_res, r) > 0)
        mpfr_set(r, ra->max_res, MPFR_RNDU);
}

const hdo_step_type hdo_step_radau = {.name = "implicit",
                                      .flags = HDO_STEP_IMPLICIT |
                                               HDO_STEP_INDEX1_ONLY,
                                      .alloc = radau_alloc,
                                      .apply = radau_apply,
                                      .step_size = radau_step_size,
                                      .eval = radau_eval,
                                      .evolve = radau_evolve,
                                      .stiffness = radau_stiffness,
                                      .max_residual = radau_max_residual,
                                      .free = radau_free};
