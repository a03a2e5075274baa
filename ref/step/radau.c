/* radau.c -- hdo_step_radau: Radau IIA collocation with s stages growing with
 * the digits, for ODE modes, behind the stepper interface */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "radau.h"

/* Newton on the stage equations: at most this many iterations before
   the step is retried at a quarter of its size. */
#define MAX_NEWTON 20
/* Rejections in a row before the step is declared collapsed. */
#define MAX_REJECT 60

typedef struct {
    hdo_model_struct *model;
    const hdo_reduced_struct *red;
    mpfr_prec_t prec, wprec; /* the run's, and the working one */
    slong n, s, ng;
    mpfr_ptr c;  /* s nodes */
    hdo_mat_t A; /* s x s */
    hdo_mat_t W; /* LU of the (s+1) x (s+1) Vandermonde of 0, c_1..c_s */
    slong *wperm;
    mpfr_ptr L; /* L_j(c_1), j = 2..s: the Lagrange weights that
                   extrapolate from the stages 2..s to c_1 */
    /* f and its nonzero partials: roots rhs[0..n), then J entries */
    hdo_program_t f;
    slong *fin; /* per input of f: its state */
    slong nnz, *jrow, *jcol;
    /* the dense output, at wprec */
    mpfr_t *state_coef, *guard_coef; /* n x (s+1), ng x (s+1) */
    mpfr_t t0, h, hnext, tol;
    int applied; /* the dense output is that of (t0, y0) */
    /* work */
    mpfr_ptr y0, Z, F, R, v; /* n, s*n, s*n, s*n, s+1 */
    hdo_mat_t M;             /* s*n x s*n */
    slong *perm;
    mpfr_ptr Jst; /* s x nnz Jacobian entries at the stages */
} radau;

slong
hdo_radau_stages(mpfr_prec_t prec)
{
    /* The dense output is a polynomial of degree s: over a step h it is
       accurate to about (h/rho)^(s+1), rho the solution's radius of
       convergence; s = D/2 + 3 (D = prec / log2(10) - 10) makes
       h/rho = tol^(1/(s+1)) about 0.03 at 30 digits: a step far beyond
       any stability limit, at a Newton matrix of (n s)^2 entries. */
    slong d = (slong)((double)prec / 3.3219280948873623) - 10;
    slong s = d / 2 + 3;
    return s < 3 ? 3 : s;
}

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
   HDO_ERR_UNSUPPORTED if an input is no state (*in is allocated either
   way). */
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
    r->ng = nguards;
    r->s = hdo_radau_stages(prec);
    /* guard bits against the Vandermonde's conditioning (the
       interpolation of the dense output) and the Newton matrix */
    r->wprec = prec + 3 * r->s + 32;
    if (red->nimplicit > 0 || red->ncons > 0) {
        snprintf(st->message, sizeof st->message,
                 "the implicit method (Radau IIA) integrates ODE modes only; "
                 "this mode has %ld algebraic unknowns and %ld constraints",
                 (long)red->nimplicit, (long)red->ncons);
        return HDO_ERR_UNSUPPORTED;
    }
    /* Not yet modes with switching functions: the hybrid driver's tests
       at an arc's start (KM Remark 12's zero rule, chattering, Zeno)
       read a guard's derivatives from the dense output's low-order
       coefficients, exact for a Taylor expansion and not for the
       interpolated collocation polynomial (bouncing_ball, filippov_spiral
       and water_tanks went wrong that way).  Such modes stay with the
       Taylor method. */
    if (nguards > 0) {
        snprintf(st->message, sizeof st->message,
                 "the implicit method does not yet integrate modes with "
                 "switching functions");
        return HDO_ERR_UNSUPPORTED;
    }
    slong n = r->n, s = r->s, ns = n * s;
    mpfr_prec_t w = r->wprec;

    /* f and its Jacobian, symbolically */
    hdo_expr zero = hdo_expr_const_si(model->pool, 0, 1);
    hdo_expr *roots = malloc((n + n * n + 1) * sizeof(hdo_expr));
    r->jrow = malloc((n * n + 1) * sizeof(slong));
    r->jcol = malloc((n * n + 1) * sizeof(slong));
    HDO_ASSERT(roots != NULL && r->jrow != NULL && r->jcol != NULL);
    for (slong i = 0; i < n; i++)
        roots[i] = red->rhs[i];
    for (slong i = 0; i < n; i++)
        for (slong j = 0; j < n; j++) {
            hdo_expr d = hdo_expr_diff(model->pool, red->rhs[i],
                                       red->state[j].var, red->state[j].order);
            if (d == zero)
                continue;
            r->jrow[r->nnz] = i;
            r->jcol[r->nnz] = j;
            roots[n + r->nnz++] = d;
        }
    hdo_program_init(r->f, model->pool, roots, n + r->nnz, w);
    free(roots);
    if (map_inputs(&r->fin, r->f, red) != 0) {
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
    for (slong j = 1; j < s; j++) {
        mpfr_t num, den;
        mpfr_inits2(w, num, den, (mpfr_ptr)0);
        mpfr_set_ui(r->L + j, 1, MPFR_RNDN);
        for (slong k = 1; k < s; k++) {
            if (k == j)
                continue;
            mpfr_sub(num, r->c + 0, r->c + k, MPFR_RNDN);
            mpfr_sub(den, r->c + j, r->c + k, MPFR_RNDN);
            mpfr_mul(r->L + j, r->L + j, num, MPFR_RNDN);
            mpfr_div(r->L + j, r->L + j, den, MPFR_RNDN);
        }
        mpfr_clears(num, den, (mpfr_ptr)0);
    }
    if (hdo_lu_factor(r->W, r->wperm) != 0) {
        snprintf(st->message, sizeof st->message,
                 "the Radau IIA interpolation matrix is singular");
        return HDO_ERR_UNSUPPORTED;
    }

    r->state_coef = malloc((n * (s + 1) + 1) * sizeof(mpfr_t));
    r->guard_coef = malloc((nguards * (s + 1) + 1) * sizeof(mpfr_t));
    HDO_ASSERT(r->state_coef != NULL && r->guard_coef != NULL);
    for (slong k = 0; k < n * (s + 1); k++)
        mpfr_init2(r->state_coef[k], w);
    for (slong k = 0; k < nguards * (s + 1); k++)
        mpfr_init2(r->guard_coef[k], w);
    mpfr_inits2(w, r->t0, r->h, r->hnext, r->tol, (mpfr_ptr)0);
    mpfr_set_ui(r->hnext, 0, MPFR_RNDN);
    /* the tolerance the hybrid driver uses: 2^(17 - prec) is about
       10^-(D+5) at its prec of D + 10 digits (as taylor.h's default) */
    mpfr_set_ui(r->tol, 1, MPFR_RNDN);
    mpfr_mul_2si(r->tol, r->tol, 17 - (long)prec, MPFR_RNDN);
    r->y0 = hdo_vec_init(n, w);
    r->Z = hdo_vec_init(ns, w);
    r->F = hdo_vec_init(ns, w);
    r->R = hdo_vec_init(ns, w);
    r->v = hdo_vec_init(s + 1, w);
    r->Jst = hdo_vec_init(s * r->nnz, w);
    hdo_mat_init(r->M, ns, ns, w);
    r->perm = malloc((ns + 1) * sizeof(slong));
    HDO_ASSERT(r->perm != NULL);
    st->dense.order = s;
    st->dense.state = (const mpfr_t *)r->state_coef;
    st->dense.unknown = NULL;
    st->dense.guard = (const mpfr_t *)r->guard_coef;
    return 0;
}

static void
radau_free(hdo_stepper_struct *st)
{
    radau *r = st->impl;
    if (r == NULL)
        return;
    slong n = r->n, s = r->s, ns = n * s;
    if (r->fin != NULL || r->f->code != NULL)
        hdo_program_clear(r->f);
    free(r->fin);
    free(r->jrow);
    free(r->jcol);
    if (r->c != NULL) {
        hdo_vec_clear(r->c, s);
        hdo_mat_clear(r->A);
        hdo_mat_clear(r->W);
        hdo_vec_clear(r->L, s);
    }
    free(r->wperm);
    if (r->state_coef != NULL) {
        for (slong k = 0; k < n * (s + 1); k++)
            mpfr_clear(r->state_coef[k]);
        for (slong k = 0; k < r->ng * (s + 1); k++)
            mpfr_clear(r->guard_coef[k]);
        mpfr_clears(r->t0, r->h, r->hnext, r->tol, (mpfr_ptr)0);
        hdo_vec_clear(r->y0, n);
        hdo_vec_clear(r->Z, ns);
        hdo_vec_clear(r->F, ns);
        hdo_vec_clear(r->R, ns);
        hdo_vec_clear(r->v, s + 1);
        hdo_vec_clear(r->Jst, s * r->nnz);
        hdo_mat_clear(r->M);
    }
    free(r->state_coef);
    free(r->guard_coef);
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

/* Evaluates f (and J) at stage i: t0 + c_i h, y0 + Z_i, into F_i (and
   Jst_i).  Returns 0, or hdo_program_eval's HDO_ERR_DOMAIN with *bad the
   offending node. */
static int
eval_stage(radau *r, slong i, mpfr_t ti, hdo_expr *bad)
{
    slong n = r->n;
    mpfr_ptr y = r->R; /* scratch: n entries of R are free here */
    for (slong k = 0; k < n; k++)
        mpfr_add(y + k, r->y0 + k, r->Z + i * n + k, MPFR_RNDN);
    mpfr_mul(ti, r->c + i, r->h, MPFR_RNDN);
    mpfr_add(ti, ti, r->t0, MPFR_RNDN);
    set_inputs(r, r->f, r->fin, ti, y);
    int st = hdo_program_eval(r->f, bad);
    if (st != 0)
        return st;
    for (slong k = 0; k < n; k++)
        mpfr_set(r->F + i * n + k, r->f->value[r->f->root_slot[k]], MPFR_RNDN);
    for (slong e = 0; e < r->nnz; e++)
        mpfr_set(r->Jst + i * r->nnz + e, r->f->value[r->f->root_slot[n + e]],
                 MPFR_RNDN);
    return 0;
}

/* Newton on Z_i - h sum_j a_ij f(t0 + c_j h, y0 + Z_j) = 0 from Z = 0,
   with the exact Jacobian at every stage.  Returns 0 on convergence, 1
   when it does not converge (the caller shrinks h), < 0 on an error. */
static int
solve_stages(radau *r, hdo_error_t *err)
{
    slong n = r->n, s = r->s, ns = n * s;
    mpfr_t ti, step, prev, size, lim, a;
    hdo_expr bad;
    int st = 1;
    mpfr_inits2(r->wprec, ti, step, prev, size, lim, a, (mpfr_ptr)0);
    mpfr_set_inf(prev, 1);
    for (slong k = 0; k < ns; k++)
        mpfr_set_ui(r->Z + k, 0, MPFR_RNDN);
    for (int iter = 0; iter < MAX_NEWTON; iter++) {
        for (slong i = 0; i < s; i++)
            if (eval_stage(r, i, ti, &bad) != 0) {
                /* a domain error at a trial stage: a smaller step may
                   stay inside the domain (MAX_REJECT ends it) */
                st = 1;
                goto done;
            }
        /* R = -(Z - h A F), M = I - h (A (x) J) */
        for (slong i = 0; i < s; i++)
            for (slong k = 0; k < n; k++) {
                mpfr_ptr Ri = r->R + i * n + k;
                mpfr_set_ui(Ri, 0, MPFR_RNDN);
                for (slong j = 0; j < s; j++)
                    mpfr_fma(Ri, hdo_mat_entry(r->A, i, j), r->F + j * n + k,
                             Ri, MPFR_RNDN);
                mpfr_mul(Ri, Ri, r->h, MPFR_RNDN);
                mpfr_sub(Ri, Ri, r->Z + i * n + k, MPFR_RNDN);
            }
        hdo_mat_zero(r->M);
        for (slong i = 0; i < s; i++) {
            for (slong k = 0; k < n; k++)
                mpfr_set_ui(hdo_mat_entry(r->M, i * n + k, i * n + k), 1,
                            MPFR_RNDN);
            for (slong j = 0; j < s; j++) {
                mpfr_mul(a, hdo_mat_entry(r->A, i, j), r->h, MPFR_RNDN);
                for (slong e = 0; e < r->nnz; e++) {
                    mpfr_ptr m = hdo_mat_entry(r->M, i * n + r->jrow[e],
                                               j * n + r->jcol[e]);
                    mpfr_t t;
                    mpfr_init2(t, r->wprec);
                    mpfr_mul(t, a, r->Jst + j * r->nnz + e, MPFR_RNDN);
                    mpfr_sub(m, m, t, MPFR_RNDN);
                    mpfr_clear(t);
                }
            }
        }
        if (hdo_lu_factor(r->M, r->perm) != 0)
            goto done; /* singular at this h: try a smaller one */
        hdo_lu_solve(r->R, r->M, r->perm);
        for (slong k = 0; k < ns; k++)
            mpfr_add(r->Z + k, r->Z + k, r->R + k, MPFR_RNDN);
        hdo_vec_norm_inf(step, r->R, ns);
        hdo_vec_norm_inf(size, r->y0, n);
        if (mpfr_cmp_ui(size, 1) < 0)
            mpfr_set_ui(size, 1, MPFR_RNDN);
        mpfr_mul_2si(lim, size, 8 - (long)r->wprec, MPFR_RNDN);
        if (mpfr_cmp(step, lim) <= 0) {
            st = 0;
            break;
        }
        if (iter >= 2 && mpfr_cmp(step, prev) >= 0) {
            /* the rounding floor (as solve_unknowns in ref/reduce) */
            mpfr_mul_2si(lim, size, -(long)r->prec, MPFR_RNDN);
            st = mpfr_cmp(step, lim) <= 0 ? 0 : 1;
            break;
        }
        mpfr_set(prev, step, MPFR_RNDN);
    }
done:
    mpfr_clears(ti, step, prev, size, lim, a, (mpfr_ptr)0);
    return st;
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

/* The error estimate of the dense output: the largest
   |Y_1 - p(c_1)| / max(1, |y0|), p the polynomial of degree s - 2
   through the stages 2..s, i.e. the last term of the polynomial
   through the stages (times prod_j (c_1 - c_j), well conditioned,
   where that term in monomials is not: the inverse Vandermonde of the
   nodes reaches 10^30 at 20 stages and turns the stages' rounding into
   a floor near the tolerance).  y0 is left out on purpose: on a stiff
   arc it differs from the stages' smooth curve by a fast mode damped
   within [0, c_1 h] (the dense output keeps it, bounded there by the
   Lebesgue constant of 0, c_1..c_s), which would hold h at the fast
   mode's time scale at every step size.  It behaves as h^(s-1). */
static void
top_term(mpfr_t e, radau *r)
{
    slong s = r->s, n = r->n;
    mpfr_t a, sc;
    mpfr_inits2(r->wprec, a, sc, (mpfr_ptr)0);
    mpfr_set_ui(e, 0, MPFR_RNDN);
    for (slong i = 0; i < n; i++) {
        mpfr_set(a, r->Z + i, MPFR_RNDN); /* Y_1 - y0 */
        for (slong j = 1; j < s; j++) {
            mpfr_mul(sc, r->L + j, r->Z + j * n + i, MPFR_RNDN);
            mpfr_sub(a, a, sc, MPFR_RNDN); /* the weights sum to 1 */
        }
        mpfr_abs(a, a, MPFR_RNDN);
        mpfr_abs(sc, r->y0 + i, MPFR_RNDN);
        if (mpfr_cmp_ui(sc, 1) < 0)
            mpfr_set_ui(sc, 1, MPFR_RNDN);
        mpfr_div(a, a, sc, MPFR_RNDN);
        mpfr_max(e, e, a, MPFR_RNDN);
    }
    mpfr_clears(a, sc, (mpfr_ptr)0);
}

static int
radau_apply(hdo_stepper_struct *st, const mpfr_t t0, mpfr_srcptr xs,
            mpfr_srcptr xu, hdo_error_t *err)
{
    radau *r = st->impl;
    slong n = r->n, s = r->s;
    mpfr_t e, fac, ti;
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
    r->applied = 0;
    mpfr_set(r->t0, t0, MPFR_RNDN);
    for (slong i = 0; i < n; i++)
        mpfr_set(r->y0 + i, xs + i, MPFR_RNDN);
    mpfr_inits2(64, e, fac, (mpfr_ptr)0);
    mpfr_init2(ti, r->wprec);
    if (mpfr_zero_p(r->hnext)) {
        /* first step: tol^(1/(s+1)) max(1, |y0|) / max(tiny, |f(y0)|) */
        set_inputs(r, r->f, r->fin, t0, r->y0);
        if (hdo_program_eval(r->f, &bad) != 0) {
            status = domain_fail(err, r, bad, t0);
            goto out;
        }
        mpfr_set_ui(e, 0, MPFR_RNDN);
        for (slong i = 0; i < n; i++) {
            mpfr_abs(fac, r->f->value[r->f->root_slot[i]], MPFR_RNDN);
            mpfr_max(e, e, fac, MPFR_RNDN);
        }
        hdo_vec_norm_inf(fac, r->y0, n);
        if (mpfr_cmp_ui(fac, 1) < 0)
            mpfr_set_ui(fac, 1, MPFR_RNDN);
        if (mpfr_zero_p(e))
            mpfr_set_ui(e, 1, MPFR_RNDN);
        mpfr_div(fac, fac, e, MPFR_RNDN);
        mpfr_rootn_ui(e, r->tol, s + 1, MPFR_RNDN);
        mpfr_mul(r->hnext, fac, e, MPFR_RNDN);
    }
    mpfr_set(r->h, r->hnext, MPFR_RNDN);
    for (int tries = 0;; tries++) {
        if (tries >= MAX_REJECT) {
            hdo_error_set(err, HDO_ERR_STEP_COLLAPSE, 0, 0,
                          "the implicit method's step collapsed to %.3g",
                          mpfr_get_d(r->h, MPFR_RNDN));
            status = HDO_ERR_STEP_COLLAPSE;
            break;
        }
        int ns = solve_stages(r, err);
        if (ns < 0) {
            status = ns;
            break;
        }
        if (ns == 0) {
            /* the dense output of the states */
            for (slong i = 0; i < n; i++) {
                mpfr_set(r->v + 0, r->y0 + i, MPFR_RNDN);
                for (slong m = 0; m < s; m++)
                    mpfr_add(r->v + m + 1, r->y0 + i, r->Z + m * n + i,
                             MPFR_RNDN);
                interpolate(r, r->state_coef + i * (s + 1));
            }
            top_term(e, r);
            if (mpfr_cmp(e, r->tol) <= 0) {
                /* accepted; next proposal from the same rule */
                if (mpfr_zero_p(e))
                    mpfr_set_ui(fac, 4, MPFR_RNDN);
                else {
                    mpfr_div(fac, r->tol, e, MPFR_RNDN);
                    mpfr_rootn_ui(fac, fac, s - 1, MPFR_RNDN);
                    mpfr_mul_d(fac, fac, 0.8, MPFR_RNDN);
                    if (mpfr_cmp_ui(fac, 4) > 0)
                        mpfr_set_ui(fac, 4, MPFR_RNDN);
                }
                mpfr_mul(r->hnext, r->h, fac, MPFR_RNDN);
                break;
            }
            mpfr_div(fac, r->tol, e, MPFR_RNDN);
            mpfr_rootn_ui(fac, fac, s - 1, MPFR_RNDN);
            mpfr_mul_d(fac, fac, 0.8, MPFR_RNDN);
            if (mpfr_cmp_d(fac, 0.1) < 0)
                mpfr_set_d(fac, 0.1, MPFR_RNDN);
            mpfr_mul(r->h, r->h, fac, MPFR_RNDN);
        } else {
            mpfr_div_2ui(r->h, r->h, 2, MPFR_RNDN);
        }
    }
out:
    r->applied = status == 0;
    mpfr_clears(e, fac, (mpfr_ptr)0);
    mpfr_clear(ti);
    (void)xu;
    return status;
}

static int
radau_step_size(mpfr_t h, const hdo_stepper_struct *st, const mpfr_t tol)
{
    const radau *r = st->impl;
    (void)tol; /* the step was chosen by apply for r->tol */
    mpfr_set(h, r->h, MPFR_RNDN);
    return 0;
}

static void
horner(mpfr_ptr out, const mpfr_t *c, slong s, const mpfr_t h,
       mpfr_prec_t wprec)
{
    mpfr_t acc;
    mpfr_init2(acc, wprec);
    mpfr_set(acc, c[s], MPFR_RNDN);
    for (slong k = s - 1; k >= 0; k--) {
        mpfr_mul(acc, acc, h, MPFR_RNDN);
        mpfr_add(acc, acc, c[k], MPFR_RNDN);
    }
    mpfr_set(out, acc, MPFR_RNDN);
    mpfr_clear(acc);
}

static void
radau_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g, const hdo_stepper_struct *st,
           const mpfr_t h)
{
    const radau *r = st->impl;
    (void)xu;
    if (xs != NULL)
        for (slong i = 0; i < r->n; i++)
            horner(xs + i, r->state_coef + i * (r->s + 1), r->s, h, r->wprec);
    if (g != NULL)
        for (slong q = 0; q < r->ng; q++)
            horner(g + q, r->guard_coef + q * (r->s + 1), r->s, h, r->wprec);
}

static int
radau_evolve(mpfr_ptr xs, mpfr_ptr xu, hdo_stepper_struct *st, const mpfr_t h,
             hdo_error_t *err)
{
    (void)err;
    radau_eval(xs, xu, NULL, st, h);
    return 0; /* an ODE mode: no constraints to project onto */
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
    (void)r;
    (void)st; /* ODE modes only: no residual */
}

const hdo_step_type hdo_step_radau = {
    "implicit",      radau_alloc,        radau_apply,
    radau_step_size, radau_eval,         radau_evolve,
    radau_stiffness, radau_max_residual, radau_free};
