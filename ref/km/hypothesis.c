/* hypothesis.c -- Hypothesis 1 of Kunkel and Mehrmann on the derivative
   array of a mode: strangeness index mu and the counts a, d, v, u */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "km_level.h"

#define KM_MAX_NEWTON 60

/* Sets B to the columns [c0, c0 + nc) of the rows [r0, r0 + nr) of J. */
static void
submatrix(hdo_mat_t B, const hdo_mat_t J, slong r0, slong nr, slong c0,
          slong nc)
{
    slong i, j;

    hdo_mat_resize(B, nr, nc);
    for (i = 0; i < nr; i++)
        for (j = 0; j < nc; j++)
            mpfr_set(hdo_mat_entry(B, i, j), hdo_mat_entry(J, r0 + i, c0 + j),
                     MPFR_RNDN);
}

static int
fail_at(hdo_error_t *err, hdo_model_t model, slong mode, const mpfr_t t,
        int status)
{
    if (err != NULL) {
        err->file = model->file;
        err->mode = model->modes[mode].name;
        err->has_time = 1;
        err->time = mpfr_get_d(t, MPFR_RNDN);
    }
    return status;
}

/* Solves F_mu(t, x, y) = 0 for y by Gauss-Newton with minimum-norm steps
   (the solutions form a manifold when F_mu;y is rank-deficient, and the
   minimum-norm step moves to the nearest of them), starting from y.
   Leaves F and J evaluated at the final y and *resid = max |F|. */
static int
solve_derivatives(mpfr_ptr y, mpfr_ptr F, hdo_mat_t J, double *resid,
                  hdo_km_level *lev, hdo_model_t model, slong mode,
                  const mpfr_t t, mpfr_srcptr x, mpfr_prec_t prec,
                  int structured, hdo_error_t *err)
{
    slong n = lev->n, ny = (lev->mu + 1) * n, it, i;
    hdo_mat_t Fy;
    mpfr_ptr dy = hdo_vec_init(ny, prec);
    mpfr_t ndy, ref, tol;
    hdo_expr bad = HDO_EXPR_NONE;
    int status = 0;

    hdo_mat_init(Fy, 0, 0, prec);
    mpfr_inits2(prec, ndy, ref, tol, (mpfr_ptr)0);
    for (it = 0; it < KM_MAX_NEWTON; it++) {
        status = hdo_km_level_eval(F, J, lev, model, mode, t, x, y, &bad);
        if (status != 0)
            break;
        /* The structured step (schur.c) where the explicit equations
           allow it: the same minimum-norm step without an SVD of the
           whole array. */
        if (structured) {
            km_schur sc;
            km_schur_init(&sc);
            if (km_schur_build(&sc, J, F, lev->l, n, lev->mu, prec))
                status = km_schur_step(dy, &sc, prec);
            else
                structured = 0;
            km_schur_clear(&sc);
        }
        if (!structured) {
            submatrix(Fy, J, 0, lev->L, n, ny);
            status = hdo_lstsq(dy, Fy, F, -1);
        }
        if (status != 0)
            break;
        for (i = 0; i < ny; i++)
            mpfr_sub(y + i, y + i, dy + i, MPFR_RNDN);
        /* Newton converges quadratically here; a step at the rounding
           level of y means the next evaluation is the final one. */
        hdo_vec_norm_inf(ndy, dy, ny);
        hdo_vec_norm_inf(ref, y, ny);
        if (mpfr_cmp_ui(ref, 1) < 0)
            mpfr_set_ui(ref, 1, MPFR_RNDN);
        mpfr_mul_2si(tol, ref, -(long)prec + 8, MPFR_RNDN);
        if (mpfr_cmp(ndy, tol) <= 0)
            break;
    }
    if (status == 0)
        status = hdo_km_level_eval(F, J, lev, model, mode, t, x, y, &bad);
    if (status == HDO_ERR_DOMAIN) {
        char *s = hdo_expr_to_string(model->pool, bad, model->var_names);
        hdo_error_set(err, status, model->modes[mode].pos.line,
                      model->modes[mode].pos.col,
                      "evaluating the derivative array (level %ld) failed "
                      "at %s",
                      (long)lev->mu, s != NULL ? s : "?");
        free(s);
        status = fail_at(err, model, mode, t, status);
    } else if (status == 0) {
        /* The residual left is what y cannot remove: the hidden
           constraints g(t, x) = 0, which hold to rounding at a
           consistent x.  Half the digits separate that from a point
           that is genuinely off the constraint manifold. */
        mpfr_t fmax, scale;
        mpfr_inits2(prec, fmax, scale, (mpfr_ptr)0);
        hdo_vec_norm_inf(fmax, F, lev->L);
        hdo_vec_norm_inf(scale, J->entries, J->rows * J->cols);
        hdo_vec_norm_inf(ref, x, n);
        if (mpfr_cmp_ui(ref, 1) < 0)
            mpfr_set_ui(ref, 1, MPFR_RNDN);
        mpfr_mul(scale, scale, ref, MPFR_RNDN);
        if (mpfr_cmp_ui(scale, 1) < 0)
            mpfr_set_ui(scale, 1, MPFR_RNDN);
        mpfr_mul_2si(tol, scale, -(long)(prec / 2), MPFR_RNDN);
        *resid = mpfr_get_d(fmax, MPFR_RNDN);
        if (mpfr_cmp(fmax, tol) > 0) {
            hdo_error_set(err, HDO_ERR_INCONSISTENT,
                          model->modes[mode].pos.line,
                          model->modes[mode].pos.col,
                          "the point is not consistent: the derivative "
                          "array of level %ld keeps a residual of %.3e "
                          "for every choice of the derivatives",
                          (long)lev->mu, *resid);
            status = fail_at(err, model, mode, t, HDO_ERR_INCONSISTENT);
        }
        mpfr_clears(fmax, scale, (mpfr_ptr)0);
    }
    mpfr_clears(ndy, ref, tol, (mpfr_ptr)0);
    hdo_mat_clear(Fy);
    hdo_vec_clear(dy, ny);
    return status;
}

/* The rank decisions of Hypothesis 1 at the evaluated Jacobian J. */
static int
hypothesis(hdo_km_level_info *info, const hdo_mat_t J, slong l, slong n,
           slong mu, mpfr_prec_t prec)
{
    slong L = J->rows;
    hdo_mat_t Fx, Fy, Z2, Z2t, A, T2, Fxp, D;
    int status;

    hdo_mat_init(Fx, 0, 0, prec);
    hdo_mat_init(Fy, 0, 0, prec);
    hdo_mat_init(Z2, 0, 0, prec);
    hdo_mat_init(Z2t, 0, 0, prec);
    hdo_mat_init(A, 0, 0, prec);
    hdo_mat_init(T2, 0, 0, prec);
    hdo_mat_init(Fxp, 0, 0, prec);
    hdo_mat_init(D, 0, 0, prec);
    info->mu = mu;
    submatrix(Fx, J, 0, L, 0, n);
    submatrix(Fy, J, 0, L, n, J->cols - n);
    submatrix(Fxp, J, 0, l, n, n);

    status = hdo_rank(&info->rank_J, J);
    if (status == 0)
        status = hdo_rank(&info->rank_M, Fy);
    if (status == 0) {
        info->r = info->rank_J.rank;
        info->v = L - info->r;
        info->a = info->r - info->rank_M.rank;
        status = hdo_left_null(Z2, Fy, info->rank_M.rank);
    }
    if (status == 0) {
        hdo_mat_transpose(Z2t, Z2);
        hdo_mat_mul(A, Z2t, Fx);
        status = hdo_rank(&info->rank_A, A);
    }
    if (status == 0) {
        /* rank Z2^T F_x = a holds in exact arithmetic whenever the two
           ranks above are right; a different decision here means one of
           them is not, and the level is reported as not clear. */
        status = hdo_right_null(T2, A, info->rank_A.rank);
    }
    if (status == 0) {
        hdo_mat_mul(D, Fxp, T2);
        status = hdo_rank(&info->rank_D, D);
    }
    if (status == 0) {
        info->d = info->rank_D.rank;
        info->u = n - info->a - info->d;
        info->clear = info->rank_J.clear && info->rank_M.clear &&
                      info->rank_A.clear && info->rank_D.clear &&
                      info->rank_A.rank == info->a;
    }
    hdo_mat_clear(Fx);
    hdo_mat_clear(Fy);
    hdo_mat_clear(Z2);
    hdo_mat_clear(Z2t);
    hdo_mat_clear(A);
    hdo_mat_clear(T2);
    hdo_mat_clear(Fxp);
    hdo_mat_clear(D);
    return status;
}

/* Names the first decision of a level that is not clear-cut. */
static int
not_clear(hdo_error_t *err, hdo_model_t model, slong mode, const mpfr_t t,
          const hdo_km_level_info *info)
{
    const struct {
        const char *what;
        const hdo_rank_info *ri;
    } dec[4] = {{"[F_mu;x F_mu;y]", &info->rank_J},
                {"F_mu;y", &info->rank_M},
                {"Z2^T F_mu;x", &info->rank_A},
                {"F_x' T2", &info->rank_D}};
    int i;
    const hdo_mode *m = model->modes + mode;

    for (i = 0; i < 4; i++)
        if (!dec[i].ri->clear)
            break;
    if (i == 4) {
        hdo_error_set(err, HDO_ERR_SINGULAR, m->pos.line, m->pos.col,
                      "at level mu = %ld, rank Z2^T F_mu;x = %ld differs "
                      "from a = %ld: the rank decisions contradict each "
                      "other",
                      (long)info->mu, (long)info->rank_A.rank, (long)info->a);
    } else {
        hdo_error_set(err, HDO_ERR_SINGULAR, m->pos.line, m->pos.col,
                      "the rank of %s at level mu = %ld is not clear-cut: "
                      "rank %ld rests on the singular values 1e%.1f (last "
                      "kept) and 1e%.1f (first dropped)",
                      dec[i].what, (long)info->mu, (long)dec[i].ri->rank,
                      dec[i].ri->log10_last_kept,
                      dec[i].ri->log10_first_dropped);
    }
    return fail_at(err, model, mode, t, HDO_ERR_SINGULAR);
}

/* The result is the level chosen: its index mu and its counts and ranks. */
static void
take_level(hdo_km_result *res, const hdo_km_level_info *info)
{
    res->mu = info->mu;
    res->a = info->a;
    res->d = info->d;
    res->v = info->v;
    res->u = info->u;
    res->rank_J = info->rank_J;
    res->rank_M = info->rank_M;
    res->rank_A = info->rank_A;
    res->rank_D = info->rank_D;
    res->residual = info->residual;
    res->clear = 1;
}

/* The analysis; structured = 1 takes the rank decisions on the Schur
   complement of the explicit equations (schur.c) wherever the
   derivative array has that structure, 0 always on the whole array. */
static int
km_analyze(hdo_km_result *res, hdo_model_t model, slong mode, const mpfr_t t,
           mpfr_srcptr x, mpfr_prec_t prec, int structured, hdo_error_t *err)
{
    const hdo_mode *m = model->modes + mode;
    slong n = m->nvars, l = m->neqs, maxlev = HDO_KM_MAX_MU + 1;
    slong mu, i, have = 0, cand = -1, stable_bad = -1;
    hdo_expr *D;
    mpfr_ptr y, F;
    hdo_mat_t J;
    int status = 0;

    memset(res, 0, sizeof *res);
    res->n = n;
    res->l = l;
    res->mu = -1;
    for (i = 0; i < l; i++)
        for (mu = 0; mu < n; mu++)
            if (hdo_expr_max_order(model->pool, m->eqs[i].residual,
                                   m->vars[mu]) > 1) {
                hdo_error_set(err, HDO_ERR_UNSUPPORTED, m->eqs[i].pos.line,
                              m->eqs[i].pos.col,
                              "the analysis needs first-order equations; "
                              "'%s' has a second derivative of %s",
                              m->eqs[i].text, model->vars[m->vars[mu]].name);
                return fail_at(err, model, mode, t, HDO_ERR_UNSUPPORTED);
            }

    D = flint_malloc(((maxlev + 1) * l + 1) * sizeof(hdo_expr));
    y = hdo_vec_init((maxlev + 2) * n, prec);
    F = hdo_vec_init((maxlev + 1) * l, prec);
    hdo_mat_init(J, 0, 0, prec);

    for (mu = 0; mu <= maxlev; mu++) {
        hdo_km_level lev;
        hdo_km_level_info *info = res->levels + mu;

        hdo_km_level_init(&lev, model, mode, D, &have, mu, prec);
        /* y keeps the derivatives of the previous level as the first
           guess; the new order starts at zero. */
        status = solve_derivatives(y, F, J, &info->residual, &lev, model, mode,
                                   t, x, prec, structured, err);
        if (status == 0) {
            km_schur sc;
            km_schur_init(&sc);
            if (structured && km_schur_build(&sc, J, F, l, n, mu, prec))
                status = km_schur_hypothesis(info, &sc, J, prec);
            else
                status = hypothesis(info, J, l, n, mu, prec);
            km_schur_clear(&sc);
        }
        hdo_km_level_clear(&lev);
        if (status != 0)
            break;
        res->nlevels = mu + 1;
        if (!info->clear) {
            status = not_clear(err, model, mode, t, info);
            break;
        }
        /* A candidate stands when the next level confirms a and d. */
        if (cand >= 0) {
            if (info->u == 0 && info->a == res->levels[cand].a &&
                info->d == res->levels[cand].d)
                break;
            cand = -1;
        }
        if (mu > 0 && stable_bad < 0 && info->u > 0 &&
            info->a == res->levels[mu - 1].a &&
            info->d == res->levels[mu - 1].d)
            stable_bad = mu - 1;
        if (info->u == 0 && mu <= HDO_KM_MAX_MU)
            cand = mu;
    }

    if (status == 0 && cand >= 0 && mu <= maxlev) {
        const hdo_km_level_info *info = res->levels + cand;
        take_level(res, info);
    } else if (status == 0) {
        const hdo_km_level_info *info =
            res->levels + (stable_bad >= 0 ? stable_bad : res->nlevels - 1);
        take_level(res, info);
        if (stable_bad >= 0)
            hdo_error_set(err, HDO_ERR_SINGULAR, m->pos.line, m->pos.col,
                          "the mode is not uniquely solvable: from level "
                          "mu = %ld on, a = %ld algebraic and d = %ld "
                          "differential components leave u = %ld of the "
                          "%ld variables free (v = %ld redundant "
                          "equations)",
                          (long)info->mu, (long)info->a, (long)info->d,
                          (long)info->u, (long)n, (long)info->v);
        else
            hdo_error_set(err, HDO_ERR_SINGULAR, m->pos.line, m->pos.col,
                          "Hypothesis 1 holds for no mu <= %d (at mu = %ld: "
                          "a = %ld, d = %ld, u = %ld of %ld variables)",
                          HDO_KM_MAX_MU, (long)info->mu, (long)info->a,
                          (long)info->d, (long)info->u, (long)n);
        status = fail_at(err, model, mode, t, HDO_ERR_SINGULAR);
    }

    hdo_mat_clear(J);
    hdo_vec_clear(F, (maxlev + 1) * l);
    hdo_vec_clear(y, (maxlev + 2) * n);
    flint_free(D);
    return status;
}

int
hdo_km_analyze(hdo_km_result *res, hdo_model_t model, slong mode,
               const mpfr_t t, mpfr_srcptr x, mpfr_prec_t prec,
               hdo_error_t *err)
{
    return km_analyze(res, model, mode, t, x, prec, 1, err);
}

int
hdo_km_analyze_dense(hdo_km_result *res, hdo_model_t model, slong mode,
                     const mpfr_t t, mpfr_srcptr x, mpfr_prec_t prec,
                     hdo_error_t *err)
{
    return km_analyze(res, model, mode, t, x, prec, 0, err);
}
