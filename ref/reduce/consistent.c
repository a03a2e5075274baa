/* hdo_consistent_init -- Gauss-Newton projection onto a mode's constraints,
 * then Newton for its unknowns */
#include <stdlib.h>
#include <string.h>
#include "reduce.h"
#include "cache.h"

/* Bits of slack over the unit roundoff in the convergence tests: the
   residual of a constraint is a sum of a few rounded terms, each off by
   up to half an ulp of the scale. */
#define GUARD_BITS 8
#define MAX_ITER 50

void
hdo_reduce_cache_free(struct hdo_reduce_cache *cache)
{
    if (cache == NULL)
        return;
    hdo_reduce_cache_invalidate(cache); /* the programs and in_c, in_h */
    hdo_svd_memo_free(cache->svd);
    hdo_lu_memo_free(cache->lu);
    free(cache->jc.e);
    free(cache->jc.row);
    free(cache->jc.col);
    free(cache->jh.e);
    free(cache->jh.row);
    free(cache->jh.col);
    free(cache);
}

/* the cache owns hdo_reduced_unknown_error's work space (cache.h) */
static void
unknown_scratch_free(hdo_unknown_scratch *s)
{
    if (s == NULL)
        return;
    mpfr_clears(s->m, s->e, (mpfr_ptr)0);
    hdo_mat_clear(s->J);
    free(s->perm);
    hdo_vec_clear(s->col, s->nu);
    hdo_vec_clear(s->rho, s->nu);
    hdo_vec_clear(s->rad, s->nin + 1);
    hdo_vec_clear(s->mid, s->nin + 1);
    free(s);
}

static void
newton_scratch_free(hdo_newton_scratch *s)
{
    if (s == NULL)
        return;
    mpfr_clears(s->step, s->prev, s->size, s->tol, (mpfr_ptr)0);
    hdo_mat_clear(s->J);
    hdo_vec_clear(s->f, s->nu);
    free(s->perm);
    free(s);
}

/* The cache's Newton work space for nu unknowns at the cache's
   precision, made on first use: every entry is written before it is
   read (extract zeroes J), so a kept one gives a fresh one's bits. */
static hdo_newton_scratch *
newton_scratch(struct hdo_reduce_cache *cache, slong nu, mpfr_prec_t prec)
{
    hdo_newton_scratch *s = cache->nscratch;
    if (s != NULL) {
        HDO_ASSERT(s->nu == nu && s->J->prec == prec);
        return s;
    }
    s = xcalloc(1, sizeof *s);
    s->nu = nu;
    s->f = hdo_vec_init(nu, prec);
    s->perm = xcalloc(nu, sizeof *s->perm);
    hdo_mat_init(s->J, nu, nu, prec);
    mpfr_inits2(prec, s->step, s->prev, s->size, s->tol, (mpfr_ptr)0);
    cache->nscratch = s;
    return s;
}

static void
project_scratch_free(hdo_project_scratch *s)
{
    if (s == NULL)
        return;
    mpfr_clears(s->res, s->rest, s->scale, s->tol, (mpfr_ptr)0);
    hdo_mat_clear(s->J);
    hdo_vec_clear(s->f, s->nc);
    hdo_vec_clear(s->dx, s->ns);
    hdo_vec_clear(s->xt, s->ns);
    free(s->F);
    free(s->X);
    hdo_vec_clear(s->dX, s->ns + 1);
    hdo_vec_clear(s->dF, s->ns + 1);
    hdo_vec_clear(s->b2, s->nc);
    hdo_vec_clear(s->tmp, s->nc);
    free(s);
}

/* The cache's projection work space for nc constraints on ns states at
   the cache's precision, made on first use: project writes every entry
   before it reads it (eval_cons sets f, J and the residual, gn_step dx,
   the trial loop xt), so a kept one gives a fresh one's bits; the
   candidates of a complementarity decision project one point each
   (boost_converter_ideal: 690 a run, issue 28). */
static hdo_project_scratch *
project_scratch(struct hdo_reduce_cache *cache, slong nc, slong ns,
                mpfr_prec_t prec)
{
    hdo_project_scratch *s = cache->pscratch;
    if (s != NULL) {
        HDO_ASSERT(s->nc == nc && s->ns == ns && s->J->prec == prec);
        return s;
    }
    s = xcalloc(1, sizeof *s);
    s->nc = nc;
    s->ns = ns;
    s->f = hdo_vec_init(nc, prec);
    s->dx = hdo_vec_init(ns, prec);
    s->xt = hdo_vec_init(ns, prec);
    s->F = xcalloc(ns + 1, sizeof *s->F);
    s->X = xcalloc(ns + 1, sizeof *s->X);
    s->dX = hdo_vec_init(ns + 1, prec);
    s->dF = hdo_vec_init(ns + 1, prec);
    s->b2 = hdo_vec_init(nc, prec);
    s->tmp = hdo_vec_init(nc, prec);
    hdo_mat_init(s->J, nc, ns, prec);
    mpfr_inits2(prec, s->res, s->rest, s->scale, s->tol, (mpfr_ptr)0);
    cache->pscratch = s;
    return s;
}

void
hdo_reduce_cache_invalidate(struct hdo_reduce_cache *cache)
{
    if (cache == NULL || cache->prec == 0)
        return;
    if (cache->in_c != NULL)
        hdo_program_clear(cache->prog_c);
    if (cache->in_h != NULL)
        hdo_program_clear(cache->prog_h);
    free(cache->in_c);
    free(cache->in_h);
    cache->in_c = cache->in_h = NULL;
    unknown_scratch_free(cache->uscratch);
    cache->uscratch = NULL;
    newton_scratch_free(cache->nscratch);
    cache->nscratch = NULL;
    project_scratch_free(cache->pscratch);
    cache->pscratch = NULL;
    cache->prec = 0;
}

/* Where the value of (var, order) lives: state i >= 0 or unknown -1 - j. */
static slong
locate(const hdo_reduced_t r, slong var, slong order)
{
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].var == var && r->state[i].order == order)
            return i;
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].var == var && r->unknown[j].order == order)
            return -1 - j;
    HDO_ASSERT(0 && "input of a reduced program is neither state nor unknown");
    return 0;
}

static slong *
compile(hdo_program_t prog, hdo_model_t model, const hdo_reduced_t r,
        const hdo_expr *f, slong nf, const hdo_reduce_sparse *sp,
        mpfr_prec_t prec)
{
    hdo_expr *roots = malloc((nf + sp->len) * sizeof(hdo_expr));
    slong *in;
    HDO_ASSERT(roots != NULL);
    memcpy(roots, f, nf * sizeof(hdo_expr));
    memcpy(roots + nf, sp->e, sp->len * sizeof(hdo_expr));
    hdo_program_init(prog, model->pool, roots, nf + sp->len, prec);
    free(roots);
    in = malloc((prog->ninputs + 1) * sizeof(slong));
    HDO_ASSERT(in != NULL);
    for (slong i = 0; i < prog->ninputs; i++)
        in[i] = locate(r, prog->inputs[i].var, prog->inputs[i].order);
    return in;
}

void
hdo_reduce_cache_compile(hdo_model_t model, const hdo_reduced_t r,
                         mpfr_prec_t prec)
{
    struct hdo_reduce_cache *cache = r->cache;
    HDO_ASSERT(cache != NULL);
    if (cache->prec == prec)
        return;
    hdo_reduce_cache_invalidate(cache);
    /* A program is only built when it has roots; in_c/in_h == NULL marks
       an absent one. */
    if (r->ncons > 0)
        cache->in_c = compile(cache->prog_c, model, r, r->cons, r->ncons,
                              &cache->jc, prec);
    if (r->nh > 0)
        cache->in_h =
            compile(cache->prog_h, model, r, r->h, r->nh, &cache->jh, prec);
    cache->prec = prec;
}

/* Evaluates a program at (t, xs, xu). */
static int
eval(hdo_program_t prog, const slong *in, const mpfr_t t, mpfr_srcptr xs,
     mpfr_srcptr xu, hdo_expr *bad)
{
    for (slong i = 0; i < prog->ninputs; i++) {
        mpfr_srcptr src = in[i] >= 0 ? xs + in[i] : xu + (-1 - in[i]);
        mpfr_set(prog->value[prog->inputs[i].slot], src, MPFR_RNDN);
    }
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    return hdo_program_eval(prog, bad);
}

/* Copies the roots of prog (values f, then sparse entries into J). */
static void
extract(mpfr_ptr f, hdo_mat_t J, const hdo_program_t prog, slong nf,
        const hdo_reduce_sparse *sp)
{
    for (slong i = 0; i < nf; i++)
        mpfr_set(f + i, prog->value[prog->root_slot[i]], MPFR_RNDN);
    hdo_mat_zero(J);
    for (slong i = 0; i < sp->len; i++)
        mpfr_set(hdo_mat_entry(J, sp->row[i], sp->col[i]),
                 prog->value[prog->root_slot[nf + i]], MPFR_RNDN);
}

/* ||J||_inf ||x||_inf: the size of the terms that a residual is a sum
   of, to scale the convergence tests (relative: with max(1, .) up to
   stop 21 a model scaled by 1e-40 had its constraints "satisfied" at
   once; 1 only when it is zero). */
static void
term_scale(mpfr_t scale, const hdo_mat_t J, mpfr_srcptr x, slong n)
{
    mpfr_t a, row;
    mpfr_inits2(J->prec, a, row, (mpfr_ptr)0);
    mpfr_set_ui(scale, 0, MPFR_RNDN);
    for (slong i = 0; i < J->rows; i++) {
        mpfr_set_ui(row, 0, MPFR_RNDN);
        for (slong j = 0; j < J->cols; j++) {
            mpfr_abs(a, hdo_mat_entry(J, i, j), MPFR_RNDN);
            mpfr_add(row, row, a, MPFR_RNDU);
        }
        mpfr_max(scale, scale, row, MPFR_RNDU);
    }
    hdo_vec_norm_inf(a, x, n);
    mpfr_mul(scale, scale, a, MPFR_RNDU);
    if (mpfr_zero_p(scale))
        mpfr_set_ui(scale, 1, MPFR_RNDN);
    mpfr_clears(a, row, (mpfr_ptr)0);
}

/* The columns cols[0..k) of J as a new matrix. */
static void
columns(hdo_mat_t B, const hdo_mat_t J, const slong *cols, slong k)
{
    hdo_mat_init(B, J->rows, k, J->prec);
    for (slong i = 0; i < J->rows; i++)
        for (slong j = 0; j < k; j++)
            mpfr_set(hdo_mat_entry(B, i, j), hdo_mat_entry(J, i, cols[j]),
                     MPFR_RNDN);
}

/* One Gauss-Newton step dx for J dx = b: of minimum norm in the free
   components, and where those cannot reach b, of minimum norm in the
   fixed components within the part of b outside the range of the free
   columns.  With Z an orthonormal basis of that complement:
     dX = lstsq(Z^T J_X, Z^T b),  dF = lstsq(J_F, b - J_X dX). */
static int
gn_step(mpfr_ptr dx, const hdo_mat_t J, mpfr_srcptr b, const int *fixed,
        slong ns, mpfr_prec_t prec, hdo_svd_memo *memo,
        const hdo_project_scratch *ps)
{
    slong nc = J->rows, nF = 0, nX = 0, i, j, k;
    /* the projection's work space: each entry read is written first */
    slong *F = ps->F, *X = ps->X;
    mpfr_ptr dX = ps->dX, dF = ps->dF, b2 = ps->b2, tmp = ps->tmp;
    int status = 0;

    for (i = 0; i < ns; i++) {
        if (fixed != NULL && fixed[i])
            X[nX++] = i;
        else
            F[nF++] = i;
    }
    for (i = 0; i < nc; i++)
        mpfr_set(b2 + i, b + i, MPFR_RNDN);
    if (nX > 0) {
        hdo_mat_t JX;
        columns(JX, J, X, nX);
        if (nF == 0) {
            status = hdo_lstsq_memo(dX, JX, b, -1, memo);
        } else {
            hdo_mat_t JF;
            slong rank;
            columns(JF, J, F, nF);
            status = hdo_rank_count_memo(&rank, JF, memo);
            if (status == 0 && rank < nc) {
                hdo_mat_t Z, A;
                mpfr_ptr bz = hdo_vec_init(nc - rank, prec);
                hdo_mat_init(Z, nc, nc - rank, prec);
                status = hdo_left_null_memo(Z, JF, rank, memo);
                if (status == 0) {
                    hdo_mat_init(A, nc - rank, nX, prec);
                    for (k = 0; k < nc - rank; k++) {
                        mpfr_set_ui(bz + k, 0, MPFR_RNDN);
                        for (i = 0; i < nc; i++)
                            mpfr_fma(bz + k, hdo_mat_entry(Z, i, k), b + i,
                                     bz + k, MPFR_RNDN);
                        for (j = 0; j < nX; j++) {
                            mpfr_ptr a = hdo_mat_entry(A, k, j);
                            mpfr_set_ui(a, 0, MPFR_RNDN);
                            for (i = 0; i < nc; i++)
                                mpfr_fma(a, hdo_mat_entry(Z, i, k),
                                         hdo_mat_entry(JX, i, j), a, MPFR_RNDN);
                        }
                    }
                    status = hdo_lstsq_memo(dX, A, bz, -1, memo);
                    hdo_mat_clear(A);
                }
                hdo_mat_clear(Z);
                hdo_vec_clear(bz, nc - rank);
            } else {
                for (j = 0; j < nX; j++)
                    mpfr_set_ui(dX + j, 0, MPFR_RNDN);
            }
            if (status == 0) {
                /* b2 = b - J_X dX, left for the free components. */
                hdo_mat_mul_vec(tmp, JX, dX);
                for (i = 0; i < nc; i++)
                    mpfr_sub(b2 + i, b + i, tmp + i, MPFR_RNDN);
            }
            hdo_mat_clear(JF);
        }
        hdo_mat_clear(JX);
    }
    if (status == 0 && nF > 0) {
        hdo_mat_t JF;
        columns(JF, J, F, nF);
        status = hdo_lstsq_memo(dF, JF, b2, -1, memo);
        hdo_mat_clear(JF);
    }
    if (status == 0) {
        for (j = 0; j < nF; j++)
            mpfr_set(dx + F[j], dF + j, MPFR_RNDN);
        for (j = 0; j < nX; j++)
            mpfr_set(dx + X[j], dX + j, MPFR_RNDN);
    }
    return status;
}

/* Fills err with the place of a failure of mode r->mode at time t. */
static int
fail(hdo_error_t *err, int status, const hdo_model_t model,
     const hdo_reduced_t r, const mpfr_t t, const char *msg)
{
    const hdo_mode *mode = model->modes + r->mode;
    hdo_error_set(err, status, mode->pos.line, mode->pos.col, "%s", msg);
    if (err != NULL) {
        err->mode = mode->name;
        err->file = model->file;
        err->has_time = 1;
        err->time = mpfr_get_d(t, MPFR_RNDN);
    }
    return status;
}

static int
domain_fail(hdo_error_t *err, const hdo_model_t model, const hdo_reduced_t r,
            const mpfr_t t, hdo_expr bad)
{
    char msg[600];
    /* hdo_program_eval cleared the flag before evaluating (expr.h) */
    int over = mpfr_overflow_p();
    char *s = hdo_expr_to_string(model->pool, bad, model->var_names);
    snprintf(msg, sizeof msg, "%s evaluating %.500s",
             over ? "overflow (beyond MPFR's exponent range)" : "domain error",
             s);
    free(s);
    return fail(err, HDO_ERR_DOMAIN, model, r, t, msg);
}

/* Index of the largest |v[i]|. */
static slong
argmax_abs(mpfr_srcptr v, slong n)
{
    slong best = 0;
    for (slong i = 1; i < n; i++)
        if (mpfr_cmpabs(v + i, v + best) > 0)
            best = i;
    return best;
}

/* Evaluates the constraints and their Jacobian at xs into f, J, and
   res = ||f||_inf. */
static int
eval_cons(mpfr_ptr f, hdo_mat_t J, mpfr_t res, hdo_model_t model,
          const hdo_reduced_t r, const mpfr_t t, mpfr_srcptr xs,
          hdo_error_t *err)
{
    struct hdo_reduce_cache *cache = r->cache;
    hdo_expr bad;
    if (eval(cache->prog_c, cache->in_c, t, xs, NULL, &bad) != 0)
        return domain_fail(err, model, r, t, bad);
    extract(f, J, cache->prog_c, r->ncons, &cache->jc);
    if (r->cons_rhs != NULL)
        for (slong i = 0; i < r->ncons; i++)
            mpfr_sub(f + i, f + i, r->cons_rhs + i, MPFR_RNDN);
    hdo_vec_norm_inf(res, f, r->ncons);
    return 0;
}

static int
inconsistent_fail(hdo_error_t *err, hdo_model_t model, const hdo_reduced_t r,
                  const mpfr_t t, mpfr_srcptr f, slong iter)
{
    char msg[900];
    slong w = argmax_abs(f, r->ncons);
    const hdo_mode *mode = model->modes + r->mode;
    char *s = hdo_expr_to_string(model->pool, r->cons[w], model->var_names);
    if (r->cons_eq[w] < 0)
        mpfr_snprintf(msg, sizeof msg,
                      "no consistent point near the given values: after %ld "
                      "Gauss-Newton steps the residual of the first integral "
                      "%.400s kept as a constraint is %.6Rg",
                      (long)iter, s, f + w);
    else
        mpfr_snprintf(
            msg, sizeof msg,
            "no consistent point near the given values: after %ld "
            "Gauss-Newton steps the residual of the constraint %.400s "
            "= 0 (from the equation '%.200s'%s) is %.6Rg",
            (long)iter, s,
            mode->eqs[r->cons_eq[w]].text ? mode->eqs[r->cons_eq[w]].text : "?",
            r->cons_order[w] > 0 ? ", differentiated" : "", f + w);
    free(s);
    return fail(err, HDO_ERR_INCONSISTENT, model, r, t, msg);
}

/* Scales each row of J (and b with it) by the power of two that brings
   its largest entry into [1, 2): the rank decisions of the least-squares
   step are then relative to each constraint's own size (a model scaled
   by 1e-40 has constraint gradients of 1e-40, which the absolute floor
   of hdo_rank_from_sv took for rank 0).  Exact, and the least-squares
   solution of a full-rank J is unchanged. */
static void
equilibrate_rows(hdo_mat_t J, mpfr_ptr b)
{
    for (slong i = 0; i < J->rows; i++) {
        mpfr_exp_t e = MPFR_EMIN_MIN;
        for (slong j = 0; j < J->cols; j++) {
            mpfr_srcptr a = hdo_mat_entry(J, i, j);
            if (mpfr_regular_p(a) && mpfr_get_exp(a) > e)
                e = mpfr_get_exp(a);
        }
        if (e == MPFR_EMIN_MIN || e == 1)
            continue;
        for (slong j = 0; j < J->cols; j++)
            mpfr_mul_2si(hdo_mat_entry(J, i, j), hdo_mat_entry(J, i, j),
                         1 - (long)e, MPFR_RNDN);
        mpfr_mul_2si(b + i, b + i, 1 - (long)e, MPFR_RNDN);
    }
}

/* 1 when every constraint is exactly zero at x = 0: then x, f and J
   are that point's (else f and J are x's again). */
static int
at_zero_exactly(mpfr_ptr f, hdo_mat_t J, mpfr_ptr x, hdo_model_t model,
                const hdo_reduced_t r, const mpfr_t t, hdo_error_t *err)
{
    slong ns = r->nstate;
    mpfr_ptr z = hdo_vec_init(ns, mpfr_get_prec(x));
    mpfr_t res;
    mpfr_init2(res, mpfr_get_prec(x));
    for (slong i = 0; i < ns; i++)
        mpfr_set_ui(z + i, 0, MPFR_RNDN);
    /* a domain error at 0 only says that 0 is not the point */
    int zero =
        eval_cons(f, J, res, model, r, t, z, NULL) == 0 && mpfr_zero_p(res);
    if (zero)
        for (slong i = 0; i < ns; i++)
            mpfr_set_ui(x + i, 0, MPFR_RNDN);
    else if (eval_cons(f, J, res, model, r, t, x, err) != 0)
        HDO_ASSERT(0 && "the constraints were evaluated at x before");
    mpfr_clear(res);
    hdo_vec_clear(z, ns);
    return zero;
}

/* Projects xs onto the constraints (see the header): damped
   Gauss-Newton.  Far from the constraints a full step can overshoot
   (x^2 = 0.01 from x = 0.01 jumps to 0.505), so each step is halved
   until the residual decreases; near a consistent point the full step
   is taken and convergence is quadratic.  When no fraction of the step
   decreases the residual (down to 2^-40), there is no consistent point
   near: HDO_ERR_INCONSISTENT. */
static int
project(mpfr_ptr xs, hdo_model_t model, const hdo_reduced_t r, const mpfr_t t,
        const int *fixed, mpfr_prec_t prec, hdo_error_t *err)
{
    slong nc = r->ncons, ns = r->nstate, iter;
    hdo_project_scratch *ps = project_scratch(r->cache, nc, ns, prec);
    mpfr_ptr f = ps->f, dx = ps->dx, xt = ps->xt;
    mpfr_ptr res = ps->res, rest = ps->rest, scale = ps->scale, tol = ps->tol;
    hdo_mat_struct *J = ps->J;
    int status;

    /* the accepted trial is swapped into xs, so xt holds what xs held:
       its precision back to prec (xt is written before it is read) */
    for (slong i = 0; i < ns; i++)
        if (mpfr_get_prec(xt + i) != prec)
            mpfr_set_prec(xt + i, prec);
    status = eval_cons(f, J, res, model, r, t, xs, err);
    for (iter = 0; status == 0; iter++) {
        int k, accepted = 0;
        term_scale(scale, J, xs, ns);
        mpfr_mul_2si(tol, scale, -(long)prec + GUARD_BITS, MPFR_RNDN);
        if (mpfr_cmp(res, tol) <= 0)
            break;
        if (iter >= MAX_ITER) {
            status = inconsistent_fail(err, model, r, t, f, iter);
            break;
        }
        for (slong i = 0; i < nc; i++)
            mpfr_neg(f + i, f + i, MPFR_RNDN);
        equilibrate_rows(J, f);
        if (r->cache->svd == NULL)
            r->cache->svd = hdo_svd_memo_new();
        status = gn_step(dx, J, f, fixed, ns, prec, r->cache->svd, ps);
        if (status != 0) {
            status = fail(err, status, model, r, t,
                          "the least-squares step onto the constraints failed");
            break;
        }
        for (k = 0; k <= 40 && status == 0; k++) {
            for (slong i = 0; i < ns; i++) {
                mpfr_mul_2si(xt + i, dx + i, -k, MPFR_RNDN);
                mpfr_add(xt + i, xt + i, xs + i, MPFR_RNDN);
            }
            status = eval_cons(f, J, rest, model, r, t, xt, err);
            if (status == 0 && mpfr_cmp(rest, res) < 0) {
                accepted = 1;
                break;
            }
        }
        if (status != 0)
            break;
        if (!accepted) {
            /* f and J hold the last trial: re-evaluate for the message. */
            status = eval_cons(f, J, res, model, r, t, xs, err);
            if (status == 0)
                status = inconsistent_fail(err, model, r, t, f, iter);
            break;
        }
        /* The new iterate within the old one's rounding of zero: the
           constraints then hold at x = 0 or nowhere near, and a
           residual relative to ||x|| can never pass (it shrinks with
           x, 50 steps of 2^-prec each).  x = 0 is taken where every
           constraint is exactly zero there. */
        hdo_vec_norm_inf(scale, xs, ns);
        hdo_vec_norm_inf(tol, xt, ns);
        mpfr_mul_2si(scale, scale, -(long)prec + GUARD_BITS, MPFR_RNDN);
        if (!mpfr_zero_p(tol) && mpfr_cmp(tol, scale) <= 0 &&
            at_zero_exactly(f, J, xt, model, r, t, err))
            mpfr_set_ui(rest, 0, MPFR_RNDN);
        for (slong i = 0; i < ns; i++)
            mpfr_swap(xs + i, xt + i);
        mpfr_swap(res, rest);
    }
    return status;
}

/* Describes a singular dh/dunknowns for the error message.  At the
   first iterate (iter = 0) the mode itself is singular at the given
   point; later, Newton's iteration has run into a singular point on its
   way, which says more about the start values (often: the algebraic
   equations have no real solution near them) than about the mode, so
   the message names the iterate (values of xu). */
static int
singular_fail(hdo_error_t *err, hdo_model_t model, const hdo_reduced_t r,
              const mpfr_t t, slong iter, mpfr_srcptr xu)
{
    const hdo_mode *mode = model->modes + r->mode;
    char msg[1000], eqs[500] = "", vars[300] = "";
    for (slong k = 0; k < r->nh; k++) {
        size_t len = strlen(eqs);
        snprintf(eqs + len, sizeof eqs - len, "%s'%s'", k ? ", " : "",
                 mode->eqs[r->h_eq[k]].text ? mode->eqs[r->h_eq[k]].text : "?");
        len = strlen(eqs);
        if (r->c[k] > 0)
            snprintf(eqs + len, sizeof eqs - len, " differentiated %ld times",
                     (long)r->c[k]);
    }
    for (slong j = 0; j < r->nimplicit; j++) {
        size_t len = strlen(vars);
        const char *name = model->vars[r->unknown[j].var].name;
        if (r->unknown[j].order == 0)
            snprintf(vars + len, sizeof vars - len, "%s%s", j ? ", " : "",
                     name);
        else
            snprintf(vars + len, sizeof vars - len, "%sderivative %ld of %s",
                     j ? ", " : "", (long)r->unknown[j].order, name);
    }
    if (iter == 0) {
        snprintf(msg, sizeof msg,
                 "mode %s is singular here: the Jacobian of %s with respect "
                 "to %s is singular",
                 mode->name, eqs, vars);
        return fail(err, HDO_ERR_SINGULAR, model, r, t, msg);
    }
    char at[300] = "";
    for (slong j = 0; j < r->nimplicit && j < 4; j++) {
        size_t len = strlen(at);
        mpfr_snprintf(at + len, sizeof at - len, "%s%s = %.10Rg", j ? ", " : "",
                      model->vars[r->unknown[j].var].name, xu + j);
    }
    snprintf(msg, sizeof msg,
             "no consistent value of %s found: Newton's iteration on %s "
             "reached a singular Jacobian at %s%s (iteration %ld); the "
             "equations may have no real solution near the given values",
             vars, eqs, at, r->nimplicit > 4 ? ", ..." : "", (long)iter);
    return fail(err, HDO_ERR_INCONSISTENT, model, r, t, msg);
}

/* Solves h(t, xs, xu) = 0 for xu by Newton's method. */
static int
solve_unknowns(mpfr_ptr xu, hdo_model_t model, const hdo_reduced_t r,
               const mpfr_t t, mpfr_srcptr xs, mpfr_prec_t prec,
               hdo_error_t *err)
{
    struct hdo_reduce_cache *cache = r->cache;
    slong nu = r->nimplicit, iter;
    hdo_newton_scratch *ns = newton_scratch(cache, nu, prec);
    mpfr_ptr f = ns->f;
    slong *perm = ns->perm;
    mpfr_ptr step = ns->step, prev = ns->prev, size = ns->size, tol = ns->tol;
    hdo_mat_struct *J = ns->J;
    hdo_expr bad;
    int status = 0;

    mpfr_set_inf(prev, 1);
    if (cache->lu == NULL)
        cache->lu = hdo_lu_memo_new();
    for (iter = 0;; iter++) {
        status = eval(cache->prog_h, cache->in_h, t, xs, xu, &bad);
        if (status != 0) {
            status = domain_fail(err, model, r, t, bad);
            break;
        }
        extract(f, J, cache->prog_h, nu, &cache->jh);
        if (hdo_lu_factor_memo(cache->lu, J, perm) != 0) {
            status = singular_fail(err, model, r, t, iter, xu);
            break;
        }
        hdo_lu_solve(f, J, perm);
        for (slong j = 0; j < nu; j++)
            mpfr_sub(xu + j, xu + j, f + j, MPFR_RNDN);
        /* Stop on a step at the rounding level of the unknowns: with
           quadratic convergence the residual is then at rounding level
           too (and h linear in the unknowns needs one step). */
        hdo_vec_norm_inf(step, f, nu);
        /* relative to the unknowns' own size (max(1, ||xu||) up to stop
           21: unknowns of size 1e-50 were solved to 1e-40 absolutely) */
        hdo_vec_norm_inf(size, xu, nu);
        mpfr_mul_2si(tol, size, -(long)prec + GUARD_BITS, MPFR_RNDN);
        if (mpfr_cmp(step, tol) <= 0)
            break;
        if (iter >= 2 && mpfr_cmp(step, prev) >= 0) {
            /* The step stopped decreasing: a converging Newton iteration
               (quadratically, or even linearly) always shrinks its step,
               so this is the rounding floor of h, which the test above
               can miss by a factor of the conditioning (the transistor
               amplifier stalls 2-60 times above tol at 20..45 digits).
               Accepted as in order_zero (ref/taylor/expand.c) when it is
               small; a large step that does not decrease is divergence. */
            mpfr_mul_2si(tol, size, -(long)prec / 2, MPFR_RNDN);
            if (mpfr_cmp(step, tol) <= 0)
                break;
        }
        if (iter >= MAX_ITER || (iter >= 2 && mpfr_cmp(step, prev) >= 0)) {
            char msg[300];
            mpfr_snprintf(msg, sizeof msg,
                          "Newton's method for the algebraic unknowns does not "
                          "converge (last step %.6Rg)",
                          step);
            status = fail(err, HDO_ERR_INCONSISTENT, model, r, t, msg);
            break;
        }
        mpfr_set(prev, step, MPFR_RNDN);
    }
    return status;
}

int
hdo_consistent_init(mpfr_ptr xs, mpfr_ptr xu, int *adjusted, hdo_model_t model,
                    const hdo_reduced_t r, const mpfr_t t, const int *fixed,
                    mpfr_prec_t prec, hdo_error_t *err)
{
    slong ns = r->nstate;
    mpfr_ptr x0 = hdo_vec_init(ns, prec);
    int status = 0;

    if (adjusted != NULL)
        *adjusted = 0;
    hdo_reduce_cache_compile(model, r, prec);
    for (slong i = 0; i < ns; i++)
        mpfr_set(x0 + i, xs + i, MPFR_RNDN);
    if (r->ncons > 0)
        status = project(xs, model, r, t, fixed, prec, err);
    if (status == 0 && adjusted != NULL && fixed != NULL) {
        /* A fixed value counts as adjusted when it moved by more than
           2^(-prec/2) max(|x0|, ||x0||): far beyond rounding, so a real
           change of the given value (relative to the state's size, not
           to 1: a model scaled by 1e-40 has its adjustments too). */
        mpfr_t dlt, lim, big;
        mpfr_inits2(prec, dlt, lim, big, (mpfr_ptr)0);
        hdo_vec_norm_inf(big, x0, ns);
        for (slong i = 0; i < ns; i++) {
            if (!fixed[i])
                continue;
            mpfr_sub(dlt, xs + i, x0 + i, MPFR_RNDN);
            mpfr_set(lim, big, MPFR_RNDN);
            mpfr_mul_2si(lim, lim, -(long)(prec / 2), MPFR_RNDN);
            if (mpfr_cmpabs(dlt, lim) > 0)
                *adjusted = 1;
        }
        mpfr_clears(dlt, lim, big, (mpfr_ptr)0);
    }
    if (status == 0 && r->nh > 0)
        status = solve_unknowns(xu, model, r, t, xs, prec, err);
    hdo_vec_clear(x0, ns);
    return status;
}

void
hdo_reduced_residual(mpfr_t res, hdo_model_t model, const hdo_reduced_t r,
                     const mpfr_t t, mpfr_srcptr xs, mpfr_srcptr xu)
{
    struct hdo_reduce_cache *cache = r->cache;
    hdo_expr bad;
    mpfr_set_ui(res, 0, MPFR_RNDN);
    hdo_reduce_cache_compile(model, r, mpfr_get_prec(res));
    for (int which = 0; which < 2; which++) {
        hdo_program_struct *prog = which ? cache->prog_h : cache->prog_c;
        const slong *in = which ? cache->in_h : cache->in_c;
        slong nf = which ? r->nh : r->ncons;
        if (in == NULL)
            continue;
        if (eval(prog, in, t, xs, xu, &bad) != 0) {
            mpfr_set_nan(res);
            return;
        }
        for (slong i = 0; i < nf; i++) {
            mpfr_srcptr v = prog->value[prog->root_slot[i]];
            if (!which && r->cons_rhs != NULL) {
                mpfr_t d;
                mpfr_init2(d, mpfr_get_prec(res));
                mpfr_sub(d, v, r->cons_rhs + i, MPFR_RNDN);
                if (mpfr_cmpabs(d, res) > 0)
                    mpfr_abs(res, d, MPFR_RNDN);
                mpfr_clear(d);
            } else if (mpfr_cmpabs(v, res) > 0)
                mpfr_abs(res, v, MPFR_RNDN);
        }
    }
}
