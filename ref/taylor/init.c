/* init.c -- compiling a reduced mode for the Taylor integrator: the program,
 * the input map, dh/dxu */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

slong
hdo_taylor_default_order(mpfr_prec_t prec)
{
    return (slong)ceil((double)prec * 0.34657359027997264) + 1;
}

int
hdo_taylor_fail(hdo_error_t *err, const hdo_taylor_t tay, int status,
                const mpfr_t t, const char *msg)
{
    const hdo_mode *mode = tay->model->modes + tay->red->mode;
    hdo_error_set(err, status, 0, 0, "%s", msg);
    if (err != NULL) {
        err->file = tay->model->file;
        err->mode = mode->name;
        err->has_time = t != NULL;
        err->time = t != NULL ? mpfr_get_d(t, MPFR_RNDN) : 0.0;
    }
    return status;
}

/* Where (var, order) lives in the reduced form; 0 if found, else -1
   (an answer, not a status: one caller then rewrites the value through
   the flow, the others assert it is found). */
static int
locate(hdo_taylor_src *src, const hdo_reduced_struct *r, slong var, slong order)
{
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].var == var && r->state[i].order == order) {
            src->kind = HDO_TAYLOR_SRC_STATE;
            src->idx = i;
            return 0;
        }
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].var == var && r->unknown[j].order == order) {
            src->kind = HDO_TAYLOR_SRC_UNKNOWN;
            src->idx = j;
            return 0;
        }
    return -1;
}

/* The position of var among the explicit variables, or -1 if it is
   none (an index, not a status). */
static slong
explicit_index(const hdo_reduced_struct *r, slong var)
{
    for (slong i = 0; i < r->nexplicit; i++)
        if (r->explicit_var[i] == var)
            return i;
    return -1;
}

/* ------------------------------------------------------------------ */
/* Guards and extra expressions are model expressions: they may contain
   der(x) of an explicit x, which is not a state.  It is replaced by the
   rhs, and der(x, k) by the (k-1)-th total derivative of the rhs with
   the same replacement inside, so that every input is a state or an
   unknown.  Anything else (a derivative of an implicit variable beyond
   its unknown) would need series one order higher than the expansion
   computes, and is refused. */

typedef struct {
    slong *var, *order;
    slong len, alloc;
} varlist;

static void
collect_cb(slong var, slong order, void *data)
{
    varlist *l = data;
    if (l->len == l->alloc) {
        l->alloc = 2 * l->alloc + 8;
        l->var = realloc(l->var, l->alloc * sizeof *l->var);
        l->order = realloc(l->order, l->alloc * sizeof *l->order);
        HDO_ASSERT(l->var != NULL && l->order != NULL);
    }
    l->var[l->len] = var;
    l->order[l->len] = order;
    l->len++;
}

static hdo_expr subst_ders(hdo_taylor_t tay, hdo_expr e, int depth);

/* der(explicit_var[i], k), k >= 1, in terms of states and unknowns. */
static hdo_expr
explicit_der(hdo_taylor_t tay, slong i, slong k, int depth)
{
    hdo_expr e = tay->red->rhs[i];
    for (slong m = 2; m <= k && e != HDO_EXPR_NONE; m++)
        e = subst_ders(tay, hdo_expr_total_derivative(tay->model->pool, e),
                       depth + 1);
    return e;
}

/* Returns e with every input replaced as above, or HDO_EXPR_NONE (with
   tay->init_message set) when that is impossible. */
static hdo_expr
subst_ders(hdo_taylor_t tay, hdo_expr e, int depth)
{
    const hdo_reduced_struct *r = tay->red;
    hdo_expr_pool_struct *pool = tay->model->pool;
    varlist l = {NULL, NULL, 0, 0};
    hdo_expr *from, *to;
    hdo_taylor_src src;
    slong n = 0;

    hdo_expr_foreach_var(pool, e, collect_cb, &l);
    from = xmalloc(l.len, sizeof *from);
    to = xmalloc(l.len, sizeof *to);
    for (slong q = 0; q < l.len && e != HDO_EXPR_NONE; q++) {
        slong i = explicit_index(r, l.var[q]);
        if (locate(&src, r, l.var[q], l.order[q]) == 0)
            continue;
        if (i >= 0 && l.order[q] >= 1 && depth < 64) {
            from[n] = hdo_expr_var(pool, l.var[q], l.order[q]);
            to[n] = explicit_der(tay, i, l.order[q], depth);
            if (to[n] == HDO_EXPR_NONE)
                e = HDO_EXPR_NONE;
            n++;
            continue;
        }
        if (l.order[q] == 0)
            snprintf(tay->init_message, sizeof tay->init_message,
                     "%s is not a variable of mode %s",
                     tay->model->var_names[l.var[q]],
                     tay->model->modes[r->mode].name);
        else
            snprintf(tay->init_message, sizeof tay->init_message,
                     "derivative %ld of %s is not available to the "
                     "integrator of mode %s (it is not a state, an "
                     "algebraic unknown or a derivative of an explicit "
                     "state)",
                     (long)l.order[q], tay->model->var_names[l.var[q]],
                     tay->model->modes[r->mode].name);
        e = HDO_EXPR_NONE;
    }
    if (e != HDO_EXPR_NONE && n > 0)
        e = hdo_expr_substitute_many(pool, e, from, to, n);
    free(from);
    free(to);
    free(l.var);
    free(l.order);
    return e;
}

/* ------------------------------------------------------------------ */

static mpfr_t *
coef_init(slong n, slong per, mpfr_prec_t prec)
{
    mpfr_t *c = xmalloc(n * per, sizeof *c);
    for (slong i = 0; i < n * per; i++) {
        mpfr_init2(c[i], prec);
        mpfr_set_zero(c[i], 1);
    }
    return c;
}

static void
coef_clear(mpfr_t *c, slong n)
{
    for (slong i = 0; i < n; i++)
        mpfr_clear(c[i]);
    free(c);
}

/* Maps every input of prog to a state or an unknown; -1 if one is
   neither (a bug of the reduced form, or of the substitution). */
static hdo_taylor_src *
map_inputs(const hdo_program_t prog, const hdo_reduced_struct *r)
{
    hdo_taylor_src *src = xmalloc(prog->ninputs, sizeof *src);
    for (slong q = 0; q < prog->ninputs; q++)
        HDO_ASSERT(locate(src + q, r, prog->inputs[q].var,
                          prog->inputs[q].order) == 0);
    return src;
}

static int
is_zero(const hdo_expr_pool_t pool, hdo_expr e)
{
    const hdo_expr_node *n = hdo_expr_node_get(pool, e);
    return n->kind == HDO_X_CONST && fmpq_is_zero(pool->consts + n->a);
}

int
hdo_taylor_init(hdo_taylor_t tay, hdo_model_t model, const hdo_reduced_t red,
                const hdo_expr *guards, slong nguards, const hdo_expr *extra,
                slong nextra, mpfr_prec_t prec, slong order)
{
    const hdo_reduced_struct *r = red;
    hdo_expr_pool_struct *pool = model->pool;
    slong ne = r->nexplicit, nh = r->nh, nu = r->nimplicit, ns = r->nstate;
    slong nroots = ne + nh + nguards + nextra, per;
    hdo_expr *roots = xmalloc(nroots, sizeof *roots);

    HDO_ASSERT(nh == nu);
    memset(tay, 0, sizeof *tay);
    tay->lspan =
        -INFINITY; /* unknown: the noise window's horizon max(1, |t0|) */
    tay->red = r;
    tay->model = model;
    tay->prec = prec;
    tay->order = order > 0 ? order : hdo_taylor_default_order(prec);
    tay->nguards = nguards;
    tay->nextra = nextra;
    per = tay->order + 1;

    /* The program: rhs, h, then guards and extras with the derivatives
       of explicit variables replaced (a failure leaves a constant 0 in
       place so that the program still compiles and clears normally). */
    for (slong i = 0; i < ne; i++)
        roots[i] = r->rhs[i];
    for (slong k = 0; k < nh; k++)
        roots[ne + k] = r->h[k];
    for (slong g = 0; g < nguards + nextra; g++) {
        hdo_expr e = g < nguards ? guards[g] : extra[g - nguards];
        hdo_expr s =
            tay->init_status == 0 ? subst_ders(tay, e, 0) : HDO_EXPR_NONE;
        if (s == HDO_EXPR_NONE) {
            tay->init_status = HDO_ERR_UNSUPPORTED;
            s = hdo_expr_const_si(pool, 0, 1);
        }
        roots[ne + nh + g] = s;
    }
    hdo_program_init(tay->prog, pool, roots, nroots, prec);
    hdo_program_taylor_alloc(tay->prog, tay->order);
    /* the candidates of a decision, distinct modes, expand their guards'
       functions of t at one point: computed once (D-129) */
    hdo_program_taylor_share(tay->prog, pool);
    tay->in_src = map_inputs(tay->prog, r);
    for (int kind = 0; kind < 2; kind++) {
        tay->in_of[kind] = xcalloc(tay->prog->ninputs + 1, sizeof(slong));
        for (slong q = 0; q < tay->prog->ninputs; q++)
            if ((int)tay->in_src[q].kind == kind)
                tay->in_of[kind][tay->nin_of[kind]++] = q;
    }
    free(roots);
    /* The slots that see the unknowns: the only ones expand.c must
       recompute once the unknowns' coefficients of an order are solved. */
    tay->dep_unknown = xmalloc(tay->prog->nslots + 1, 1);
    memset(tay->dep_unknown, 0, tay->prog->nslots + 1);
    for (slong q = 0; q < tay->prog->ninputs; q++)
        if (tay->in_src[q].kind == HDO_TAYLOR_SRC_UNKNOWN)
            tay->dep_unknown[tay->prog->inputs[q].slot] = 1;
    hdo_program_dependents(tay->dep_unknown, tay->prog);
    /* An order's first pass, with the unknowns' coefficients at 0, is
       read only through h: a slot that depends on an unknown and that h
       does not read is computed by the second pass alone, from the same
       operands (decisions.md D-120). */
    tay->first_pass = xcalloc(tay->prog->nslots + 1, 1);
    for (slong j = 0; j < nh; j++)
        tay->first_pass[tay->prog->root_slot[ne + j]] = 1;
    hdo_taylor_ancestors(tay->first_pass, tay->prog);
    for (slong i = 0; i < tay->prog->nslots; i++)
        tay->first_pass[i] |= !tay->dep_unknown[i];
    /* After the solve, h's order r is read only by the recurrences of
       the later orders that read past coefficients: the second pass
       recomputes what the rhs, the guards, the extra roots and those
       recurrences read (a slot h alone reads, linear in its operands'
       order r, keeps its first pass's value, which nothing reads). */
    tay->second_pass = xcalloc(tay->prog->nslots + 1, 1);
    for (slong k = 0; k < nroots; k++)
        if (k < ne || k >= ne + nh)
            tay->second_pass[tay->prog->root_slot[k]] = 1;
    for (slong i = 0; i < tay->prog->nslots; i++)
        if (hdo_program_taylor_reads_past(tay->prog, i))
            tay->second_pass[i] = 1;
    hdo_taylor_ancestors(tay->second_pass, tay->prog);
    for (slong i = 0; i < tay->prog->nslots; i++)
        tay->second_pass[i] &= tay->dep_unknown[i];

    /* The derivative of each state: an rhs, or the next member of an
       implicit variable's chain (a state, or at the top its unknown). */
    tay->der_src = xmalloc(ns, sizeof *tay->der_src);
    for (slong i = 0; i < ns; i++) {
        slong e = explicit_index(r, r->state[i].var);
        if (e >= 0 && r->state[i].order == 0) {
            tay->der_src[i].kind = HDO_TAYLOR_SRC_ROOT;
            tay->der_src[i].idx = e;
        } else {
            HDO_ASSERT(locate(tay->der_src + i, r, r->state[i].var,
                              r->state[i].order + 1) == 0);
        }
    }

    /* dh/dxu: symbolic partial derivatives, the exact zeros left out. */
    tay->jac_row = xmalloc(nh * nu, sizeof(slong));
    tay->jac_col = xmalloc(nh * nu, sizeof(slong));
    roots = xmalloc(nh * nu, sizeof *roots);
    for (slong k = 0; k < nh; k++)
        for (slong j = 0; j < nu; j++) {
            hdo_expr d = hdo_expr_diff(pool, r->h[k], r->unknown[j].var,
                                       r->unknown[j].order);
            if (is_zero(pool, d))
                continue;
            roots[tay->njac] = d;
            tay->jac_row[tay->njac] = k;
            tay->jac_col[tay->njac] = j;
            tay->njac++;
        }
    if (tay->njac > 0) {
        hdo_program_init(tay->jac, pool, roots, tay->njac, prec);
        tay->jac_in_src = map_inputs(tay->jac, r);
    }
    free(roots);
    hdo_mat_init(tay->Jh, nu, nu, prec);
    tay->perm = xmalloc(nu, sizeof(slong));
    tay->jh_memo = hdo_lu_memo_new();
    tay->work = hdo_vec_init(nu, prec);
    tay->comp_lh = xmalloc(ns + nu + 1, sizeof(double));

    tay->state_coef = coef_init(ns, per, prec);
    tay->unknown_coef = coef_init(nu, per, prec);
    tay->guard_coef = coef_init(nguards, per, prec);
    tay->extra_coef = coef_init(nextra, per, prec);
    mpfr_init2(tay->t0, prec);
    mpfr_set_zero(tay->t0, 1);
    tay->expanded = 0;

    mpfr_init2(tay->tol, prec);
    mpfr_set_ui_2exp(tay->tol, 1, 17 - (long)prec, MPFR_RNDN);
    mpfr_init2(tay->max_residual, prec);
    mpfr_set_zero(tay->max_residual, 1);
    tay->fixed = xmalloc(ns, sizeof(int));
    for (slong i = 0; i < ns; i++)
        tay->fixed[i] = 1;
    return tay->init_status;
}

void
hdo_taylor_clear(hdo_taylor_t tay)
{
    const hdo_reduced_struct *r = tay->red;
    slong per = tay->order + 1;
    free(tay->comp_lh);
    hdo_taylor_lazy_clear(tay);
    hdo_program_clear(tay->prog);
    free(tay->in_src);
    free(tay->in_of[0]);
    free(tay->in_of[1]);
    free(tay->dep_unknown);
    free(tay->first_pass);
    free(tay->second_pass);
    free(tay->der_src);
    if (tay->njac > 0) {
        hdo_program_clear(tay->jac);
        free(tay->jac_in_src);
    }
    free(tay->jac_row);
    free(tay->jac_col);
    hdo_mat_clear(tay->Jh);
    free(tay->perm);
    hdo_lu_memo_free(tay->jh_memo);
    hdo_vec_clear(tay->work, r->nimplicit);
    coef_clear(tay->state_coef, r->nstate * per);
    coef_clear(tay->unknown_coef, r->nimplicit * per);
    coef_clear(tay->guard_coef, tay->nguards * per);
    coef_clear(tay->extra_coef, tay->nextra * per);
    mpfr_clear(tay->t0);
    mpfr_clear(tay->tol);
    mpfr_clear(tay->max_residual);
    free(tay->fixed);
}
