/* system.c -- a reduced mode compiled for ball Taylor expansions: states,
   unknowns and switching functions as one program, the unknowns' series
   from the implicit equations solved order by order in Arb */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Small per-precision caches of the order-0 series of hprog and jprog,
   so that a Krawczyk solve at every step does not enclose the programs'
   constants again. */
#define SYS_CACHE 4
typedef struct {
    slong prec[SYS_CACHE];
    cert_series_struct h[SYS_CACHE], j[SYS_CACHE], f[SYS_CACHE];
    slong n;
} sys_cache;

static slong
find_state(const hdo_reduced_struct *red, slong var, slong order)
{
    for (slong i = 0; i < red->nstate; i++)
        if (red->state[i].var == var && red->state[i].order == order)
            return i;
    return -1;
}

static slong
find_unknown(const hdo_reduced_struct *red, slong var, slong order)
{
    for (slong j = 0; j < red->nimplicit; j++)
        if (red->unknown[j].var == var && red->unknown[j].order == order)
            return j;
    return -1;
}

int
cert_sys_map_inputs(slong *map, const cert_sys_t sys,
                    const hdo_program_struct *prog, char *why, size_t size)
{
    for (slong i = 0; i < prog->ninputs; i++) {
        slong var = prog->inputs[i].var, order = prog->inputs[i].order;
        slong s = find_state(sys->red, var, order);
        slong u = s < 0 ? find_unknown(sys->red, var, order) : -1;
        if (s < 0 && u < 0) {
            if (why != NULL)
                snprintf(why, size,
                         "an expression reads %s of order %ld, neither a "
                         "state nor an unknown of the mode's reduced form",
                         sys->model->vars[var].name, (long)order);
            return HDO_ERR_UNSUPPORTED;
        }
        map[i] = s >= 0 ? s : -1 - u;
    }
    return 0;
}

int
cert_sys_init(cert_sys_t sys, hdo_model_struct *model,
              const hdo_reduced_struct *red, const hdo_expr *guards, slong ng)
{
    hdo_expr_pool_struct *pool = model->pool;
    slong ns = red->nstate, nu = red->nimplicit;
    slong nroots = ns + nu + ng + ns + nu;
    hdo_expr *roots = flint_malloc((nroots + 1) * sizeof *roots);
    /* a guard's der(x) of an explicit x is its rhs */
    hdo_expr *from = flint_malloc((red->nexplicit + 1) * sizeof *from);
    for (slong i = 0; i < red->nexplicit; i++)
        from[i] = hdo_expr_var(pool, red->explicit_var[i], 1);
    memset(sys, 0, sizeof *sys);
    sys->model = model;
    sys->red = red;
    sys->ns = ns;
    sys->nu = nu;
    sys->ng = ng;
    for (slong i = 0; i < ns; i++) {
        slong var = red->state[i].var, order = red->state[i].order;
        slong e;
        for (e = 0; e < red->nexplicit; e++)
            if (red->explicit_var[e] == var)
                break;
        roots[i] = e < red->nexplicit && order == 0
                       ? red->rhs[e]
                       : hdo_expr_var(pool, var, order + 1);
        roots[ns + nu + ng + i] = hdo_expr_var(pool, var, order);
    }
    for (slong j = 0; j < nu; j++) {
        roots[ns + j] = red->h[j];
        roots[ns + nu + ng + ns + j] =
            hdo_expr_var(pool, red->unknown[j].var, red->unknown[j].order);
    }
    for (slong g = 0; g < ng; g++)
        roots[ns + nu + g] = hdo_expr_substitute_many(pool, guards[g], from,
                                                      red->rhs, red->nexplicit);
    hdo_program_init(sys->prog, pool, roots, nroots, 64);
    hdo_program_struct *p = sys->prog;
    sys->sx = flint_malloc((ns + 1) * sizeof(slong));
    sys->sder = flint_malloc((ns + 1) * sizeof(slong));
    sys->su = flint_malloc((nu + 1) * sizeof(slong));
    sys->sh = flint_malloc((nu + 1) * sizeof(slong));
    sys->sg = flint_malloc((ng + 1) * sizeof(slong));
    for (slong i = 0; i < ns; i++) {
        sys->sder[i] = p->root_slot[i];
        sys->sx[i] = p->root_slot[ns + nu + ng + i];
    }
    for (slong j = 0; j < nu; j++) {
        sys->sh[j] = p->root_slot[ns + j];
        sys->su[j] = p->root_slot[ns + nu + ng + ns + j];
    }
    for (slong g = 0; g < ng; g++)
        sys->sg[g] = p->root_slot[ns + nu + g];
    sys->dep_u = flint_calloc(p->nslots + 1, 1);
    for (slong j = 0; j < nu; j++)
        sys->dep_u[sys->su[j]] = 1;
    hdo_program_dependents(sys->dep_u, p);

    /* h and dh/du for Krawczyk */
    hdo_expr *jr = flint_malloc((nu * nu + 1) * sizeof *jr);
    for (slong i = 0; i < nu; i++)
        for (slong j = 0; j < nu; j++)
            jr[i * nu + j] = hdo_expr_diff(pool, red->h[i], red->unknown[j].var,
                                           red->unknown[j].order);
    hdo_program_init(sys->hprog, pool, red->h, nu, 64);
    hdo_program_init(sys->jprog, pool, jr, nu * nu, 64);
    flint_free(jr);
    flint_free(from);
    flint_free(roots);
    sys->hin = flint_malloc((sys->hprog->ninputs + 1) * sizeof(slong));
    sys->jin = flint_malloc((sys->jprog->ninputs + 1) * sizeof(slong));
    slong *pin = flint_malloc((p->ninputs + 1) * sizeof(slong));
    sys->status = cert_sys_map_inputs(pin, sys, p, sys->why, sizeof sys->why);
    if (sys->status == 0)
        sys->status = cert_sys_map_inputs(sys->hin, sys, sys->hprog, sys->why,
                                          sizeof sys->why);
    if (sys->status == 0)
        sys->status = cert_sys_map_inputs(sys->jin, sys, sys->jprog, sys->why,
                                          sizeof sys->why);
    flint_free(pin);
    sys_cache *cache = flint_calloc(1, sizeof *cache);
    sys->cache = cache;
    return sys->status;
}

void
cert_sys_clear(cert_sys_t sys)
{
    sys_cache *cache = sys->cache;
    for (slong i = 0; i < cache->n; i++) {
        cert_series_clear(cache->h + i);
        cert_series_clear(cache->j + i);
        cert_series_clear(cache->f + i);
    }
    flint_free(cache);
    hdo_program_clear(sys->prog);
    hdo_program_clear(sys->hprog);
    hdo_program_clear(sys->jprog);
    flint_free(sys->sx);
    flint_free(sys->sder);
    flint_free(sys->su);
    flint_free(sys->sh);
    flint_free(sys->sg);
    flint_free(sys->dep_u);
    flint_free(sys->hin);
    flint_free(sys->jin);
}

/* The cached order-0 series of hprog (which 0), jprog (1) or prog (2)
   at prec. */
static cert_series_struct *
cached(const cert_sys_t sys, int which, slong prec)
{
    sys_cache *c = sys->cache;
    slong i;
    for (i = 0; i < c->n; i++)
        if (c->prec[i] == prec)
            break;
    if (i == c->n) {
        if (c->n == SYS_CACHE) { /* replace the oldest */
            cert_series_clear(c->h);
            cert_series_clear(c->j);
            cert_series_clear(c->f);
            memmove(c->h, c->h + 1, (SYS_CACHE - 1) * sizeof *c->h);
            memmove(c->j, c->j + 1, (SYS_CACHE - 1) * sizeof *c->j);
            memmove(c->f, c->f + 1, (SYS_CACHE - 1) * sizeof *c->f);
            memmove(c->prec, c->prec + 1, (SYS_CACHE - 1) * sizeof *c->prec);
            c->n--;
            i = c->n;
        }
        cert_series_init(c->h + i, sys->hprog, sys->model->pool, 0, 0, prec);
        cert_series_init(c->j + i, sys->jprog, sys->model->pool, 0, 0, prec);
        cert_series_init(c->f + i, sys->prog, sys->model->pool, 0, 0, prec);
        c->prec[i] = prec;
        c->n++;
    }
    return which == 0 ? c->h + i : which == 1 ? c->j + i : c->f + i;
}

static int
eval0(arb_ptr out, const cert_sys_t sys, int which, arb_srcptr x, arb_srcptr u,
      const arb_t t, slong prec)
{
    cert_series_struct *S = cached(sys, which, prec);
    const hdo_program_struct *p = S->prog;
    const slong *map = which == 0 ? sys->hin : sys->jin;
    for (slong i = 0; i < p->ninputs; i++)
        arb_set(cert_series_coef(S, p->inputs[i].slot, 0, 0),
                map[i] >= 0 ? x + map[i] : u + (-1 - map[i]));
    if (p->time_slot >= 0)
        arb_set(cert_series_coef(S, p->time_slot, 0, 0), t);
    int st = cert_series_step(S, 0, NULL, NULL);
    if (st != 0)
        return st;
    for (slong r = 0; r < p->nroots; r++)
        arb_set(out + r, cert_series_coef(S, p->root_slot[r], 0, 0));
    return 0;
}

int
cert_sys_eval_h(arb_ptr out, const cert_sys_t sys, arb_srcptr x, arb_srcptr u,
                const arb_t t, slong prec)
{
    return eval0(out, sys, 0, x, u, t, prec);
}

int
cert_sys_eval_jac(arb_ptr out, const cert_sys_t sys, arb_srcptr x, arb_srcptr u,
                  const arb_t t, slong prec)
{
    return eval0(out, sys, 1, x, u, t, prec);
}

int
cert_sys_eval_f(arb_ptr out, const cert_sys_t sys, arb_srcptr x, arb_srcptr u,
                const arb_t t, slong prec)
{
    cert_series_struct *S = cached(sys, 2, prec);
    for (slong i = 0; i < sys->ns; i++)
        arb_set(cert_series_coef(S, sys->sx[i], 0, 0), x + i);
    for (slong j = 0; j < sys->nu; j++)
        arb_set(cert_series_coef(S, sys->su[j], 0, 0), u + j);
    if (sys->prog->time_slot >= 0)
        arb_set(cert_series_coef(S, sys->prog->time_slot, 0, 0), t);
    int st = cert_series_step(S, 0, NULL, NULL);
    for (slong i = 0; st == 0 && i < sys->ns; i++)
        arb_set(out + i, cert_series_coef(S, sys->sder[i], 0, 0));
    return st;
}

/* u_k of every jet component from h_k = J u_k + r_k = 0: reads the
   components [d0, d1) of the h roots at order k (r with the unknowns'
   components zero) and writes -Jinv r into the unknowns. */
static void
solve_unknowns(cert_series_t S, const cert_sys_t sys, const arb_mat_t Jinv,
               slong k, slong d0, slong d1)
{
    slong nu = sys->nu;
    arb_mat_t r, u;
    arb_mat_init(r, nu, d1 - d0);
    arb_mat_init(u, nu, d1 - d0);
    for (slong j = 0; j < nu; j++)
        for (slong d = d0; d < d1; d++)
            arb_neg(arb_mat_entry(r, j, d - d0),
                    cert_series_coef(S, sys->sh[j], d, k));
    arb_mat_mul(u, Jinv, r, S->prec);
    for (slong j = 0; j < nu; j++)
        for (slong d = d0; d < d1; d++)
            arb_set(cert_series_coef(S, sys->su[j], d, k),
                    arb_mat_entry(u, j, d - d0));
    arb_mat_clear(r);
    arb_mat_clear(u);
}

int
cert_sys_expand(cert_series_t S, const cert_sys_t sys, arb_srcptr x0,
                arb_srcptr u0, const arb_t t, hdo_expr *bad)
{
    const hdo_program_struct *p = sys->prog;
    slong ns = sys->ns, nu = sys->nu, w = S->w, prec = S->prec;
    int st;
    if (sys->status != 0)
        return sys->status;
    cert_series_reset(S);
    for (slong i = 0; i < ns; i++)
        for (slong d = 0; d < w; d++)
            arb_set(cert_series_coef(S, sys->sx[i], d, 0), x0 + i * w + d);
    if (p->time_slot >= 0)
        arb_set(cert_series_coef(S, p->time_slot, 0, 0), t);
    for (slong j = 0; j < nu; j++)
        arb_set(cert_series_coef(S, sys->su[j], 0, 0), u0 + j);
    if ((st = cert_series_step(S, 0, NULL, bad)) != 0)
        return st;
    arb_mat_t Jinv;
    arb_mat_init(Jinv, nu, nu);
    if (nu > 0) {
        /* J at the order-0 balls: the same for every order */
        arb_ptr xv = _arb_vec_init(ns + 1), jv = _arb_vec_init(nu * nu);
        arb_mat_t J;
        arb_mat_init(J, nu, nu);
        for (slong i = 0; i < ns; i++)
            arb_set(xv + i, x0 + i * w);
        st = cert_sys_eval_jac(jv, sys, xv, u0, t, prec);
        for (slong i = 0; st == 0 && i < nu * nu; i++)
            arb_set(arb_mat_entry(J, i / nu, i % nu), jv + i);
        if (st == 0 && !arb_mat_inv(Jinv, J, prec))
            st = HDO_ERR_SINGULAR;
        arb_mat_clear(J);
        _arb_vec_clear(xv, ns + 1);
        _arb_vec_clear(jv, nu * nu);
        if (st == 0 && w > 1) {
            /* du0 = -J^-1 dh/dx0 (the unknowns' derivatives zero) */
            solve_unknowns(S, sys, Jinv, 0, 1, w);
            st = cert_series_step(S, 0, sys->dep_u, bad);
        }
    }
    for (slong k = 1; st == 0 && k <= S->order; k++) {
        for (slong i = 0; i < ns; i++)
            for (slong d = 0; d < w; d++)
                arb_div_si(cert_series_coef(S, sys->sx[i], d, k),
                           cert_series_coef(S, sys->sder[i], d, k - 1), k,
                           prec);
        for (slong j = 0; j < nu; j++)
            for (slong d = 0; d < w; d++)
                arb_zero(cert_series_coef(S, sys->su[j], d, k));
        if ((st = cert_series_step(S, k, NULL, bad)) != 0)
            break;
        if (nu == 0)
            continue;
        /* h_k is affine in u_k with coefficient J: solve the values
           first, then (with the values in place) the derivatives, whose
           residual holds the derivative of J times u_k */
        solve_unknowns(S, sys, Jinv, k, 0, 1);
        if ((st = cert_series_step(S, k, sys->dep_u, bad)) != 0)
            break;
        if (w > 1) {
            solve_unknowns(S, sys, Jinv, k, 1, w);
            st = cert_series_step(S, k, sys->dep_u, bad);
        }
    }
    arb_mat_clear(Jinv);
    return st;
}
