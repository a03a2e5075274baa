/* hdo_reduce_mode -- explicit/implicit split, Pryce offsets and the substituted
 * index-1 form of a mode */
#include <stdlib.h>
#include <string.h>
#include "reduce.h"
#include "cache.h"

void
hdo_reduced_init(hdo_reduced_t r)
{
    memset(r, 0, sizeof *r);
    r->mode = -1;
}

void
hdo_reduced_clear(hdo_reduced_t r)
{
    free(r->explicit_var);
    free(r->rhs);
    free(r->explicit_eq);
    free(r->implicit_var);
    free(r->d);
    free(r->h_eq);
    free(r->c);
    free(r->h);
    free(r->cons);
    free(r->cons_eq);
    free(r->cons_order);
    if (r->cons_rhs != NULL)
        hdo_vec_clear(r->cons_rhs, r->ncons);
    free(r->state);
    free(r->unknown);
    free(r->var_d);
    free(r->eq_c);
    hdo_reduce_cache_free(r->cache);
    hdo_reduced_init(r);
}

/* ---- small expression queries ---------------------------------------- */

typedef struct {
    slong nder, var, order; /* distinct derivative nodes; the last one */
} der_count;

static void
count_der_cb(slong var, slong order, void *data)
{
    der_count *dc = data;
    if (order >= 1) {
        dc->nder++;
        dc->var = var;
        dc->order = order;
    }
}

static int
derivative_free(const hdo_expr_pool_t pool, hdo_expr e)
{
    der_count dc = {0, -1, 0};
    hdo_expr_foreach_var(pool, e, count_der_cb, &dc);
    return dc.nder == 0;
}

static int
is_zero(const hdo_expr_pool_t pool, hdo_expr e)
{
    fmpq_t q;
    int z;
    fmpq_init(q);
    z = hdo_expr_get_fmpq(q, pool, e) == 0 && fmpq_is_zero(q);
    fmpq_clear(q);
    return z;
}

/* -e, written without a NEG node where e is a difference or a negation,
   so that "der(x) = v" gives the rhs v rather than -(0 - v). */
static hdo_expr
negate(hdo_expr_pool_t pool, hdo_expr e)
{
    hdo_expr_node nd = pool->nodes[e];
    if (nd.kind == HDO_X_NEG)
        return nd.a;
    if (nd.kind == HDO_X_SUB) {
        if (is_zero(pool, nd.a))
            return nd.b;
        return hdo_expr_sub(pool, nd.b, nd.a);
    }
    return hdo_expr_neg(pool, e);
}

/* ---- signature matrix -------------------------------------------------- */

typedef struct {
    slong *row;
    const slong *local;
} sigma_ctx;

static void
sigma_cb(slong var, slong order, void *data)
{
    sigma_ctx *s = data;
    slong j = s->local[var];
    HDO_ASSERT(j >= 0);
    if (order > s->row[j])
        s->row[j] = order;
}

/* Appends ", name" (or "name" first) to buf of size n, safely. */
static void
append(char *buf, size_t n, const char *s)
{
    size_t k = strlen(buf);
    if (k + 1 < n)
        snprintf(buf + k, n - k, "%s", s);
}

/* Describes a structurally singular mode from a maximum matching: the
   equations reachable from an unmatched one by alternating paths involve
   fewer variables than there are of them (Hall's condition fails), and
   the unmatched variables are the ones no equation is left to determine. */
static int
structural_error(hdo_error_t *err, const hdo_model_t model, slong m,
                 const slong *sigma, const slong *match)
{
    const hdo_mode *mode = model->modes + m;
    slong n = mode->nvars, i, j, ne = 0, nv = 0, head = 0;
    slong *eq_of_var = xcalloc(n, sizeof(slong));
    char *inE = xcalloc(n, 1), *inV = xcalloc(n, 1);
    slong *queue = xcalloc(n, sizeof(slong));
    char eqs[400] = "", vars[300] = "", free_vars[300] = "", num[32];
    int line = 0, col = 0;

    for (j = 0; j < n; j++)
        eq_of_var[j] = -1;
    for (i = 0; i < n; i++)
        if (match[i] >= 0)
            eq_of_var[match[i]] = i;
    for (i = 0; i < n; i++)
        if (match[i] < 0) {
            inE[i] = 1;
            queue[ne++] = i;
            if (line == 0) {
                line = mode->eqs[i].pos.line;
                col = mode->eqs[i].pos.col;
            }
        }
    while (head < ne) {
        i = queue[head++];
        for (j = 0; j < n; j++) {
            if (sigma[i * n + j] == HDO_SIGMA_NONE || inV[j])
                continue;
            inV[j] = 1;
            nv++;
            if (eq_of_var[j] >= 0 && !inE[eq_of_var[j]]) {
                inE[eq_of_var[j]] = 1;
                queue[ne++] = eq_of_var[j];
            }
        }
    }
    for (i = 0; i < n; i++)
        if (inE[i]) {
            snprintf(num, sizeof num, "%s%d", eqs[0] ? ", " : "",
                     mode->eqs[i].pos.line);
            append(eqs, sizeof eqs, num);
        }
    for (j = 0; j < n; j++) {
        const char *name = model->vars[mode->vars[j]].name;
        if (inV[j]) {
            if (vars[0])
                append(vars, sizeof vars, ", ");
            append(vars, sizeof vars, name);
        }
        if (eq_of_var[j] < 0) {
            if (free_vars[0])
                append(free_vars, sizeof free_vars, ", ");
            append(free_vars, sizeof free_vars, name);
        }
    }
    hdo_error_set(err, HDO_ERR_SINGULAR, line, col,
                  "mode %s is structurally singular: the equations at "
                  "lines %s (%ld) involve only the variables (%s) (%ld); no "
                  "equation is left to determine %s",
                  mode->name, eqs, (long)ne, vars, (long)nv, free_vars);
    if (err != NULL) {
        err->mode = mode->name;
        err->file = model->file;
    }
    free(eq_of_var);
    free(inE);
    free(inV);
    free(queue);
    return HDO_ERR_SINGULAR;
}

/* ---- substitution of explicit derivatives ------------------------------ */

typedef struct {
    hdo_expr_pool_struct *pool;
    const slong *expl; /* model var -> explicit index, or -1 */
    hdo_expr **R;      /* R[i][k]: k-th total derivative of rhs_i */
    slong *Rlen, *Ralloc;
} subst_ctx;

static hdo_expr subst_explicit(subst_ctx *s, hdo_expr e);

/* The k-th total derivative of rhs_i, with explicit derivatives
   substituted, computed once and kept. */
static hdo_expr
R_get(subst_ctx *s, slong i, slong k)
{
    while (s->Rlen[i] <= k) {
        hdo_expr prev = s->R[i][s->Rlen[i] - 1], next;
        /* prev holds explicit variables at order 0 only, so the
           substitution below needs only R[.][0]: R[i] does not grow
           inside it. */
        next = subst_explicit(s, hdo_expr_total_derivative(s->pool, prev));
        if (s->Rlen[i] == s->Ralloc[i]) {
            s->Ralloc[i] *= 2;
            s->R[i] = realloc(s->R[i], s->Ralloc[i] * sizeof(hdo_expr));
            HDO_ASSERT(s->R[i] != NULL);
        }
        s->R[i][s->Rlen[i]++] = next;
    }
    return s->R[i][k];
}

typedef struct {
    const slong *expl;
    hdo_varord *list;
    slong len, alloc;
} der_list;

static void
explicit_der_cb(slong var, slong order, void *data)
{
    der_list *dl = data;
    if (order < 1 || dl->expl[var] < 0)
        return;
    if (dl->len == dl->alloc) {
        dl->alloc = 2 * dl->alloc + 4;
        dl->list = realloc(dl->list, dl->alloc * sizeof(hdo_varord));
        HDO_ASSERT(dl->list != NULL);
    }
    dl->list[dl->len].var = var;
    dl->list[dl->len].order = order;
    dl->len++;
}

/* e with every derivative x^(k), k >= 1, of an explicit variable x
   replaced by the (k-1)-th total derivative of its rhs. */
static hdo_expr
subst_explicit(subst_ctx *s, hdo_expr e)
{
    der_list dl = {s->expl, NULL, 0, 0};
    hdo_expr *from, *to, res = e;
    hdo_expr_foreach_var(s->pool, e, explicit_der_cb, &dl);
    if (dl.len > 0) {
        from = xcalloc(dl.len, sizeof(hdo_expr));
        to = xcalloc(dl.len, sizeof(hdo_expr));
        for (slong i = 0; i < dl.len; i++) {
            from[i] = hdo_expr_var(s->pool, dl.list[i].var, dl.list[i].order);
            to[i] = R_get(s, s->expl[dl.list[i].var], dl.list[i].order - 1);
        }
        res = hdo_expr_substitute_many(s->pool, e, from, to, dl.len);
        free(from);
        free(to);
    }
    free(dl.list);
    return res;
}

/* ---- checks of the result ---------------------------------------------- */

typedef struct {
    const slong *expl, *impl; /* model var -> explicit / implicit index */
    const slong *d;
    slong limit_shift; /* 0: orders <= d allowed (h); 1: < d (constraints) */
    slong bad_var, bad_order;
} order_check;

static void
order_cb(slong var, slong order, void *data)
{
    order_check *oc = data;
    int ok;
    if (oc->expl[var] >= 0)
        ok = order == 0;
    else if (oc->impl[var] >= 0)
        ok = order <= oc->d[oc->impl[var]] - oc->limit_shift;
    else
        ok = 0;
    if (!ok && oc->bad_var < 0) {
        oc->bad_var = var;
        oc->bad_order = order;
    }
}

typedef struct {
    hdo_reduce_sparse *sp;
    hdo_expr_pool_struct *pool;
    hdo_expr f;
    slong row;
    const slong *pos;   /* model var -> base column, or -1 */
    const slong *count; /* model var -> number of orders, base + order */
    slong order_offset; /* column index uses order - order_offset */
} jac_ctx;

static void
sparse_push(hdo_reduce_sparse *sp, hdo_expr e, slong row, slong col)
{
    sp->e = realloc(sp->e, (sp->len + 1) * sizeof(hdo_expr));
    sp->row = realloc(sp->row, (sp->len + 1) * sizeof(slong));
    sp->col = realloc(sp->col, (sp->len + 1) * sizeof(slong));
    HDO_ASSERT(sp->e && sp->row && sp->col);
    sp->e[sp->len] = e;
    sp->row[sp->len] = row;
    sp->col[sp->len] = col;
    sp->len++;
}

static void
jac_cb(slong var, slong order, void *data)
{
    jac_ctx *jc = data;
    slong k = order - jc->order_offset;
    hdo_expr df;
    if (jc->pos[var] < 0 || k < 0 || k >= jc->count[var])
        return;
    df = hdo_expr_diff(jc->pool, jc->f, var, order);
    if (!is_zero(jc->pool, df))
        sparse_push(jc->sp, df, jc->row, jc->pos[var] + k);
}

typedef struct {
    hdo_reduce_sparse *sp;
    hdo_expr_pool_struct *pool;
    hdo_expr f;
    slong row;
    const slong *pos; /* model var -> unknown index, or -1 */
    const slong *d;   /* per unknown index */
} unknown_ctx;

static void
unknown_cb(slong var, slong order, void *data)
{
    unknown_ctx *uc = data;
    slong j = uc->pos[var];
    hdo_expr df;
    if (j < 0 || order != uc->d[j])
        return;
    df = hdo_expr_diff(uc->pool, uc->f, var, order);
    if (!is_zero(uc->pool, df))
        sparse_push(uc->sp, df, uc->row, j);
}

/* Maximum bipartite matching by augmenting paths, for the structural
   check of dh/dunknowns.  adj is the sparse pattern; returns the size. */
static int
augment(slong row, const hdo_reduce_sparse *sp, slong *col_match, char *seen)
{
    for (slong i = 0; i < sp->len; i++) {
        slong c = sp->col[i];
        if (sp->row[i] != row || seen[c])
            continue;
        seen[c] = 1;
        if (col_match[c] < 0 || augment(col_match[c], sp, col_match, seen)) {
            col_match[c] = row;
            return 1;
        }
    }
    return 0;
}

/* ---- the reduction ------------------------------------------------------ */

int
hdo_reduce_mode(hdo_reduced_t r, hdo_model_t model, slong m, hdo_error_t *err)
{
    const hdo_mode *mode = model->modes + m;
    hdo_expr *eqs = xcalloc(mode->nvars, sizeof(hdo_expr));
    for (slong k = 0; k < mode->nvars; k++)
        eqs[k] = mode->eqs[k].residual;
    int st = hdo_reduce_equations(r, model, m, eqs, err);
    free(eqs);
    return st;
}

/* The reduction of hdo_reduce_mode on the residuals eqs[k] in place of
   the mode's own (the Kunkel-Mehrmann fallback passes an equivalent
   system: kmform.c); messages still name mode->eqs[k]. */
int
hdo_reduce_equations(hdo_reduced_t r, hdo_model_t model, slong m,
                     const hdo_expr *eqs, hdo_error_t *err)
{
    hdo_expr_pool_struct *pool = model->pool;
    const hdo_mode *mode = model->modes + m;
    slong n = mode->nvars, nv = model->nvars, i, j, k, status = 0;
    slong *local = xcalloc(nv, sizeof(slong));
    slong *expl = xcalloc(nv, sizeof(slong)),
          *impl = xcalloc(nv, sizeof(slong));
    slong *eq_expl = xcalloc(n, sizeof(slong)); /* eq -> local var or -1 */
    hdo_expr *eq_rhs = xcalloc(n, sizeof(hdo_expr));
    slong *sigma = xcalloc(n * n, sizeof(slong));
    slong *match = xcalloc(n, sizeof(slong));
    slong *var_expl_eq = xcalloc(n, sizeof(slong)); /* local var -> eq or -1 */
    subst_ctx sc;
    hdo_expr zero = hdo_expr_const_si(pool, 0, 1);
    struct hdo_reduce_cache *cache;

    hdo_reduced_clear(r);
    r->mode = m;
    r->n = n;
    memset(&sc, 0, sizeof sc);
    for (i = 0; i < nv; i++)
        local[i] = expl[i] = impl[i] = -1;
    for (j = 0; j < n; j++) {
        local[mode->vars[j]] = j;
        var_expl_eq[j] = -1;
    }

    /* 1. Explicit equations, greedily in equation order. */
    for (k = 0; k < n; k++) {
        hdo_expr e = eqs[k], a, rest;
        der_count dc = {0, -1, 0};

        eq_expl[k] = -1;
        hdo_expr_foreach_var(pool, e, count_der_cb, &dc);
        if (dc.nder != 1 || dc.order != 1 || var_expl_eq[local[dc.var]] >= 0)
            continue;
        a = hdo_expr_diff(pool, e, dc.var, 1);
        if (!derivative_free(pool, a) || is_zero(pool, a))
            continue;
        rest = hdo_expr_substitute(pool, e, dc.var, 1, zero);
        if (!derivative_free(pool, rest))
            continue;
        /* e = a der(x) + rest, so der(x) = -rest / a. */
        rest = negate(pool, rest);
        if (hdo_expr_is_rational(pool, a)) {
            fmpq_t q;
            fmpq_init(q);
            hdo_expr_get_fmpq(q, pool, a);
            if (fmpq_is_one(q))
                eq_rhs[k] = rest;
            else {
                fmpq_inv(q, q);
                eq_rhs[k] =
                    hdo_expr_mul(pool, hdo_expr_const_fmpq(pool, q), rest);
            }
            fmpq_clear(q);
        } else {
            eq_rhs[k] = hdo_expr_div(pool, rest, a);
        }
        eq_expl[k] = local[dc.var];
        var_expl_eq[local[dc.var]] = k;
    }

    /* 2. Pryce on the full system. */
    for (i = 0; i < n * n; i++)
        sigma[i] = HDO_SIGMA_NONE;
    for (k = 0; k < n; k++) {
        sigma_ctx s = {sigma + k * n, local};
        hdo_expr_foreach_var(pool, eqs[k], sigma_cb, &s);
    }
    r->var_d = xcalloc(n, sizeof(slong));
    r->eq_c = xcalloc(n, sizeof(slong));
    if (hdo_pryce_offsets(r->eq_c, r->var_d, match, sigma, n) != 0) {
        status = structural_error(err, model, m, sigma, match);
        goto cleanup;
    }

    /* 3. The split: explicit variables in variable order, then implicit
       variables and equations. */
    r->explicit_var = xcalloc(n, sizeof(slong));
    r->rhs = xcalloc(n, sizeof(hdo_expr));
    r->explicit_eq = xcalloc(n, sizeof(slong));
    r->implicit_var = xcalloc(n, sizeof(slong));
    r->d = xcalloc(n, sizeof(slong));
    r->h_eq = xcalloc(n, sizeof(slong));
    r->c = xcalloc(n, sizeof(slong));
    r->h = xcalloc(n, sizeof(hdo_expr));
    r->unknown = xcalloc(n, sizeof(hdo_varord));
    for (j = 0; j < n; j++) {
        slong v = mode->vars[j];
        if (var_expl_eq[j] >= 0) {
            expl[v] = r->nexplicit;
            r->explicit_var[r->nexplicit] = v;
            r->explicit_eq[r->nexplicit] = var_expl_eq[j];
            r->rhs[r->nexplicit] = eq_rhs[var_expl_eq[j]];
            r->nexplicit++;
        } else {
            impl[v] = r->nimplicit;
            r->implicit_var[r->nimplicit] = v;
            r->d[r->nimplicit] = r->var_d[j];
            r->unknown[r->nimplicit].var = v;
            r->unknown[r->nimplicit].order = r->var_d[j];
            r->nimplicit++;
        }
    }
    r->index = 0;
    for (k = 0; k < n; k++)
        if (eq_expl[k] < 0) {
            r->h_eq[r->nh] = k;
            r->c[r->nh] = r->eq_c[k];
            r->nh++;
            r->ncons += r->eq_c[k];
            if (r->eq_c[k] > r->index)
                r->index = r->eq_c[k];
        }
    HDO_ASSERT(r->nh == r->nimplicit);
    for (j = 0; j < r->nimplicit; j++)
        if (r->d[j] == 0) {
            r->index++;
            break;
        }

    /* 4. States: explicit variables, then each implicit chain. */
    r->nstate = r->nexplicit;
    for (j = 0; j < r->nimplicit; j++)
        r->nstate += r->d[j];
    r->state = xcalloc(r->nstate, sizeof(hdo_varord));
    for (i = 0; i < r->nexplicit; i++) {
        r->state[i].var = r->explicit_var[i];
        r->state[i].order = 0;
    }
    for (i = r->nexplicit, j = 0; j < r->nimplicit; j++)
        for (slong o = 0; o < r->d[j]; o++, i++) {
            r->state[i].var = r->implicit_var[j];
            r->state[i].order = o;
        }
    r->dof = r->nstate - r->ncons;

    /* 5. h and the constraints by differentiation and substitution. */
    sc.pool = pool;
    sc.expl = expl;
    sc.R = xcalloc(r->nexplicit, sizeof(hdo_expr *));
    sc.Rlen = xcalloc(r->nexplicit, sizeof(slong));
    sc.Ralloc = xcalloc(r->nexplicit, sizeof(slong));
    for (i = 0; i < r->nexplicit; i++) {
        sc.Ralloc[i] = 4;
        sc.R[i] = xcalloc(4, sizeof(hdo_expr));
        sc.R[i][0] = r->rhs[i];
        sc.Rlen[i] = 1;
    }
    r->cons = xcalloc(r->ncons, sizeof(hdo_expr));
    r->cons_eq = xcalloc(r->ncons, sizeof(slong));
    r->cons_order = xcalloc(r->ncons, sizeof(slong));
    for (k = 0, i = 0; k < r->nh; k++) {
        hdo_expr g = subst_explicit(&sc, eqs[r->h_eq[k]]);
        for (slong o = 0; o < r->c[k]; o++, i++) {
            r->cons[i] = g;
            r->cons_eq[i] = r->h_eq[k];
            r->cons_order[i] = o;
            g = subst_explicit(&sc, hdo_expr_total_derivative(pool, g));
        }
        r->h[k] = g;
    }

    /* 6. Checks: explicit variables at order 0 only; implicit ones at
       orders <= d in h and < d in the constraints.  Pryce's offsets
       guarantee this for the unsubstituted system; a failure means the
       substitution raised an order, which this reduction cannot handle. */
    for (i = 0; i < r->nh + r->ncons && status == 0; i++) {
        int is_h = i < r->nh;
        hdo_expr e = is_h ? r->h[i] : r->cons[i - r->nh];
        slong eq = is_h ? r->h_eq[i] : r->cons_eq[i - r->nh];
        order_check oc = {expl, impl, r->d, is_h ? 0 : 1, -1, 0};
        hdo_expr_foreach_var(pool, e, order_cb, &oc);
        if (oc.bad_var >= 0) {
            status = hdo_error_set(
                err, HDO_ERR_UNSUPPORTED, mode->eqs[eq].pos.line,
                mode->eqs[eq].pos.col,
                "index reduction of mode %s failed: the %s of the equation "
                "'%s' contains derivative %ld of %s, more than its offset "
                "allows",
                mode->name, is_h ? "differentiated form" : "hidden constraint",
                mode->eqs[eq].text ? mode->eqs[eq].text : "?",
                (long)oc.bad_order, model->vars[oc.bad_var].name);
            if (err != NULL) {
                err->mode = mode->name;
                err->file = model->file;
            }
        }
    }
    if (status != 0)
        goto cleanup;

    /* 7. Symbolic Jacobians, and the structural check that h determines
       the unknowns (a cancellation in the substitution could lose one). */
    cache = xcalloc(1, sizeof *cache);
    r->cache = cache;
    {
        slong *pos = xcalloc(nv, sizeof(slong)),
              *cnt = xcalloc(nv, sizeof(slong));
        for (i = 0; i < nv; i++)
            pos[i] = -1;
        for (i = 0; i < r->nstate; i++)
            if (r->state[i].order == 0)
                pos[r->state[i].var] = i;
        for (i = 0; i < r->nstate; i++)
            cnt[r->state[i].var]++;
        for (i = 0; i < r->ncons; i++) {
            jac_ctx jc = {&cache->jc, pool, r->cons[i], i, pos, cnt, 0};
            hdo_expr_foreach_var(pool, r->cons[i], jac_cb, &jc);
        }
        /* dh/dunknowns: unknown j is implicit_var[j] at order d[j]. */
        for (i = 0; i < nv; i++)
            pos[i] = -1;
        for (j = 0; j < r->nimplicit; j++)
            pos[r->implicit_var[j]] = j;
        for (k = 0; k < r->nh; k++) {
            unknown_ctx uc = {&cache->jh, pool, r->h[k], k, pos, r->d};
            hdo_expr_foreach_var(pool, r->h[k], unknown_cb, &uc);
        }
        free(pos);
        free(cnt);
    }
    {
        slong *col_match = xcalloc(r->nimplicit, sizeof(slong));
        char *seen = xcalloc(r->nimplicit, 1);
        slong size = 0;
        for (j = 0; j < r->nimplicit; j++)
            col_match[j] = -1;
        for (k = 0; k < r->nh; k++) {
            memset(seen, 0, r->nimplicit);
            size += augment(k, &cache->jh, col_match, seen);
        }
        if (size < r->nh) {
            char names[400] = "";
            for (j = 0; j < r->nimplicit; j++)
                if (col_match[j] < 0) {
                    if (names[0])
                        append(names, sizeof names, ", ");
                    append(names, sizeof names,
                           model->vars[r->implicit_var[j]].name);
                }
            status = hdo_error_set(
                err, HDO_ERR_SINGULAR, mode->pos.line, mode->pos.col,
                "mode %s is structurally singular after index reduction: "
                "the differentiated equations cannot determine %s",
                mode->name, names);
            if (err != NULL) {
                err->mode = mode->name;
                err->file = model->file;
            }
        }
        free(col_match);
        free(seen);
    }

cleanup:
    for (i = 0; i < r->nexplicit && sc.R != NULL; i++)
        free(sc.R[i]);
    free(sc.R);
    free(sc.Rlen);
    free(sc.Ralloc);
    free(local);
    free(expl);
    free(impl);
    free(eq_expl);
    free(eq_rhs);
    free(sigma);
    free(match);
    free(var_expl_eq);
    return (int)status;
}

/* ---- copies and added constraints (first integrals, KM 2017 (23)) ---- */

#define DUPN(dst, src, n)                                                      \
    do {                                                                       \
        (dst) = xcalloc((n), sizeof *(src));                                   \
        if ((n) > 0 && (src) != NULL)                                          \
            memcpy((dst), (src), (size_t)(n) * sizeof *(src));                 \
    } while (0)

static void
sparse_copy(hdo_reduce_sparse *out, const hdo_reduce_sparse *sp)
{
    out->len = sp->len;
    DUPN(out->e, sp->e, sp->len);
    DUPN(out->row, sp->row, sp->len);
    DUPN(out->col, sp->col, sp->len);
}

void
hdo_reduced_copy(hdo_reduced_t out, const hdo_reduced_t r)
{
    *out = *r;
    DUPN(out->explicit_var, r->explicit_var, r->nexplicit);
    DUPN(out->rhs, r->rhs, r->nexplicit);
    DUPN(out->explicit_eq, r->explicit_eq, r->nexplicit);
    DUPN(out->implicit_var, r->implicit_var, r->nimplicit);
    DUPN(out->d, r->d, r->nimplicit);
    DUPN(out->h_eq, r->h_eq, r->nh);
    DUPN(out->c, r->c, r->nh);
    DUPN(out->h, r->h, r->nh);
    DUPN(out->cons, r->cons, r->ncons);
    DUPN(out->cons_eq, r->cons_eq, r->ncons);
    DUPN(out->cons_order, r->cons_order, r->ncons);
    DUPN(out->state, r->state, r->nstate);
    DUPN(out->unknown, r->unknown, r->nimplicit);
    DUPN(out->var_d, r->var_d, r->n);
    DUPN(out->eq_c, r->eq_c, r->n);
    out->cons_rhs = NULL;
    if (r->cons_rhs != NULL) {
        out->cons_rhs = hdo_vec_init(r->ncons, mpfr_get_prec(r->cons_rhs));
        hdo_vec_set(out->cons_rhs, r->cons_rhs, r->ncons);
    }
    out->cache = NULL;
    if (r->cache != NULL) {
        out->cache = xcalloc(1, sizeof *out->cache);
        sparse_copy(&out->cache->jc, &r->cache->jc);
        sparse_copy(&out->cache->jh, &r->cache->jh);
    }
}

slong
hdo_reduced_add_constraint(hdo_reduced_t r, hdo_model_t model, hdo_expr e,
                           mpfr_prec_t prec)
{
    hdo_expr_pool_struct *pool = model->pool;
    slong nv = model->nvars, row = r->ncons;
    mpfr_ptr rhs = hdo_vec_init(row + 1, prec);
    for (slong i = 0; i <= row; i++)
        mpfr_set_ui(rhs + i, 0, MPFR_RNDN);
    if (r->cons_rhs != NULL) {
        hdo_vec_set(rhs, r->cons_rhs, row);
        hdo_vec_clear(r->cons_rhs, row);
    }
    r->cons_rhs = rhs;
    r->cons = realloc(r->cons, (row + 1) * sizeof *r->cons);
    r->cons_eq = realloc(r->cons_eq, (row + 1) * sizeof *r->cons_eq);
    r->cons_order = realloc(r->cons_order, (row + 1) * sizeof *r->cons_order);
    HDO_ASSERT(r->cons != NULL && r->cons_eq != NULL && r->cons_order != NULL);
    r->cons[row] = e;
    r->cons_eq[row] = -1;
    r->cons_order[row] = 0;
    r->ncons = row + 1;
    r->dof = r->nstate - r->ncons;
    if (r->cache == NULL)
        r->cache = xcalloc(1, sizeof *r->cache);
    hdo_reduce_cache_invalidate(r->cache);
    /* its row of the Jacobian by the states, as in step 7 */
    slong *pos = xcalloc(nv, sizeof(slong)), *cnt = xcalloc(nv, sizeof(slong));
    for (slong i = 0; i < nv; i++)
        pos[i] = -1;
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].order == 0)
            pos[r->state[i].var] = i;
    for (slong i = 0; i < r->nstate; i++)
        cnt[r->state[i].var]++;
    jac_ctx jc = {&r->cache->jc, pool, e, row, pos, cnt, 0};
    hdo_expr_foreach_var(pool, e, jac_cb, &jc);
    free(pos);
    free(cnt);
    return row;
}
