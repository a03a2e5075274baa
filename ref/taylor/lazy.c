/* lazy.c -- lazy algebraic unknowns: which unknowns the Taylor recurrences
 * need, and the Newton solve of the others at a point of the step */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Newton on the lazy unknowns from the truncated series: at most this many
   iterations (the guess is off by about (s/rho)^3, so three or four
   suffice), and a correction below 2^(GUARD_BITS - prec) max(|x|, floor)
   of every unknown is rounding noise, as in expand.c's order_zero. */
#define MAX_NEWTON 12
#define GUARD_BITS 16

/* 1 when var occurs differentiated in an equation of any mode, or in a
   guard or reset of any transition: a transition may then read the
   derivative from the source mode's series (hdo_run_left_value). */
static int
differentiated_anywhere(const hdo_model_struct *model, slong var)
{
    const hdo_expr_pool_struct *pool = model->pool;
    /* the patterns not built yet (ref/model/lazy.c) are in their
       family's file mode, every branch of its relations in it */
    slong nfile = 0;
    while (hdo_model_lazy_file_mode(model, nfile) != NULL)
        nfile++;
    for (slong m = 0; m < model->nmodes + nfile; m++) {
        const hdo_mode *mode =
            m < model->nmodes
                ? model->modes + m
                : hdo_model_lazy_file_mode(model, m - model->nmodes);
        for (slong k = 0; k < mode->neqs; k++)
            if (hdo_expr_max_order(pool, mode->eqs[k].residual, var) >= 1)
                return 1;
        for (slong w = 0; w <= mode->nwhens; w++) {
            const hdo_transition *tr =
                w < mode->nwhens ? mode->whens + w
                                 : (mode->has_zeno ? &mode->zeno : NULL);
            if (tr == NULL)
                continue;
            if (tr->guard != HDO_EXPR_NONE &&
                hdo_expr_max_order(pool, tr->guard, var) >= 1)
                return 1;
            for (slong a = 0; a < tr->nassigns; a++)
                if (hdo_expr_max_order(pool, tr->assigns[a].value, var) >= 1)
                    return 1;
        }
    }
    return 0;
}

/* Augmenting path for the matching of h equations to unknowns on the
   structure of dh/dxu (entries jac_row/jac_col). */
static int
augment(slong row, const hdo_taylor_struct *tay, slong *col_match, char *seen)
{
    for (slong e = 0; e < tay->njac; e++) {
        slong c = tay->jac_col[e];
        if (tay->jac_row[e] != row || seen[c])
            continue;
        seen[c] = 1;
        if (col_match[c] < 0 || augment(col_match[c], tay, col_match, seen)) {
            col_match[c] = row;
            return 1;
        }
    }
    return 0;
}

/* Marks the slots the roots marked in active depend on (operands come
   before their instruction, so one backward pass closes the set). */
void
hdo_taylor_ancestors(char *active, const hdo_program_struct *prog)
{
    for (slong i = prog->nslots - 1; i >= 0; i--) {
        const hdo_program_instr *c = prog->code + i;
        if (!active[i] || hdo_expr_kind_arity(c->kind) == 0)
            continue;
        active[c->a] = 1;
        if (c->b >= 0)
            active[c->b] = 1;
    }
}

static hdo_taylor_src *
map_inputs(const hdo_program_struct *prog, const hdo_taylor_struct *tay)
{
    const hdo_reduced_struct *r = tay->red;
    hdo_taylor_src *src = xcalloc(prog->ninputs, sizeof *src);
    for (slong q = 0; q < prog->ninputs; q++) {
        slong v = prog->inputs[q].var, o = prog->inputs[q].order, i;
        for (i = 0; i < r->nstate; i++)
            if (r->state[i].var == v && r->state[i].order == o)
                break;
        if (i < r->nstate) {
            src[q].kind = HDO_TAYLOR_SRC_STATE;
            src[q].idx = i;
            continue;
        }
        for (i = 0; i < r->nimplicit; i++)
            if (r->unknown[i].var == v && r->unknown[i].order == o)
                break;
        HDO_ASSERT(i < r->nimplicit);
        src[q].kind = HDO_TAYLOR_SRC_UNKNOWN;
        src[q].idx = i;
    }
    return src;
}

void
hdo_taylor_lazy_setup(hdo_taylor_t tay)
{
    const hdo_reduced_struct *r = tay->red;
    hdo_program_struct *prog = tay->prog;
    hdo_expr_pool_struct *pool = tay->model->pool;
    slong nu = r->nimplicit, ne = r->nexplicit, ns = r->nstate;
    slong nslots = prog->nslots;

    if (tay->init_status != 0 || nu == 0 || tay->nlazy > 0)
        return;
    char *need = xcalloc(nu, 1);
    char *act = xcalloc(nslots + 1, 1);
    slong *col_match = xcalloc(nu, sizeof(slong));
    char *seen = xcalloc(nu, 1);

    /* 1. What the recurrences read: the right-hand sides, guards and
       extras, and the unknowns that are derivatives of states. */
    for (slong i = 0; i < ne; i++)
        act[prog->root_slot[i]] = 1;
    for (slong g = 0; g < tay->nguards + tay->nextra; g++)
        act[prog->root_slot[ne + r->nh + g]] = 1;
    hdo_taylor_ancestors(act, prog);
    for (slong q = 0; q < prog->ninputs; q++)
        if (tay->in_src[q].kind == HDO_TAYLOR_SRC_UNKNOWN &&
            act[prog->inputs[q].slot])
            need[tay->in_src[q].idx] = 1;
    for (slong i = 0; i < ns; i++)
        if (tay->der_src[i].kind == HDO_TAYLOR_SRC_UNKNOWN)
            need[tay->der_src[i].idx] = 1;
    for (slong j = 0; j < nu; j++)
        if (!need[j] &&
            (r->unknown[j].order != 0 ||
             differentiated_anywhere(tay->model, r->unknown[j].var)))
            need[j] = 1;

    /* 2. Closure through h: a perfect matching of equations to unknowns
       (the reduction checked that one exists); the equation of a needed
       unknown makes every unknown in it needed. */
    for (slong j = 0; j < nu; j++)
        col_match[j] = -1;
    slong size = 0;
    for (slong k = 0; k < r->nh; k++) {
        memset(seen, 0, nu);
        size += augment(k, tay, col_match, seen);
    }
    if (size < nu) { /* no perfect matching: nothing is lazy */
        for (slong j = 0; j < nu; j++)
            need[j] = 1;
    }
    slong *unknown_of = xcalloc(nu, sizeof(slong)); /* equation -> unknown */
    for (slong j = 0; j < nu; j++)
        unknown_of[j] = -1;
    for (slong j = 0; j < nu; j++)
        if (col_match[j] >= 0)
            unknown_of[col_match[j]] = j;
    for (int changed = 1; changed;) {
        changed = 0;
        for (slong e = 0; e < tay->njac; e++) {
            slong m = unknown_of[tay->jac_row[e]], j = tay->jac_col[e];
            if (m >= 0 && need[m] && !need[j]) {
                need[j] = 1;
                changed = 1;
            }
        }
    }
    free(unknown_of);
    slong nlazy = 0;
    for (slong j = 0; j < nu; j++)
        nlazy += !need[j];
    if (nlazy == 0) {
        free(need);
        free(act);
        free(col_match);
        free(seen);
        return;
    }

    /* 3. The split and the slots the recurrences compute above
       HDO_TAYLOR_LAZY_ORDER: those of the needed roots. */
    tay->nlazy = nlazy;
    tay->nneed = nu - nlazy;
    tay->lazy = need; /* inverted below */
    tay->need_u = xcalloc(nu, sizeof(slong));
    tay->need_h = xcalloc(nu, sizeof(slong));
    tay->lazy_u = xcalloc(nu, sizeof(slong));
    tay->lazy_h = xcalloc(nu, sizeof(slong));
    for (slong j = 0, a = 0, b = 0; j < nu; j++) {
        if (need[j]) {
            tay->need_u[a] = j;
            tay->need_h[a++] = col_match[j];
            act[prog->root_slot[ne + col_match[j]]] = 1;
        } else {
            tay->lazy_u[b] = j;
            tay->lazy_h[b++] = col_match[j];
        }
        need[j] = !need[j];
    }
    hdo_taylor_ancestors(act, prog);
    tay->active = act;
    tay->active_dep = xcalloc(nslots + 1, 1);
    for (slong i = 0; i < nslots; i++)
        tay->active_dep[i] = act[i] && tay->dep_unknown[i];
    hdo_mat_init(tay->Jn, tay->nneed, tay->nneed, tay->prec);
    tay->perm_n = xcalloc(tay->nneed, sizeof(slong));

    /* 4. The programs of the lazy block for Newton at a point. */
    hdo_expr *roots = xcalloc(nlazy * nlazy, sizeof(hdo_expr));
    for (slong a = 0; a < nlazy; a++)
        roots[a] = r->h[tay->lazy_h[a]];
    hdo_program_init(tay->lazy_prog, pool, roots, nlazy, tay->prec);
    for (slong a = 0; a < nlazy; a++)
        for (slong b = 0; b < nlazy; b++) {
            const hdo_varord *u = r->unknown + tay->lazy_u[b];
            roots[a * nlazy + b] =
                hdo_expr_diff(pool, r->h[tay->lazy_h[a]], u->var, u->order);
        }
    tay->lazy_affine = 1;
    for (slong e = 0; e < nlazy * nlazy; e++)
        if (!hdo_expr_is_constant(pool, roots[e]))
            tay->lazy_affine = 0;
    hdo_program_init(tay->lazy_jac, pool, roots, nlazy * nlazy, tay->prec);
    free(roots);
    tay->lazy_prog_src = map_inputs(tay->lazy_prog, tay);
    tay->lazy_jac_src = map_inputs(tay->lazy_jac, tay);
    hdo_mat_init(tay->Jl, nlazy, nlazy, tay->prec);
    tay->perm_l = xcalloc(nlazy, sizeof(slong));
    tay->work_l = hdo_vec_init(nlazy, tay->prec);
    free(col_match);
    free(seen);
}

void
hdo_taylor_lazy_clear(hdo_taylor_t tay)
{
    if (tay->nlazy == 0)
        return;
    free(tay->lazy);
    free(tay->active);
    free(tay->active_dep);
    free(tay->need_u);
    free(tay->need_h);
    free(tay->lazy_u);
    free(tay->lazy_h);
    hdo_mat_clear(tay->Jn);
    free(tay->perm_n);
    hdo_program_clear(tay->lazy_prog);
    hdo_program_clear(tay->lazy_jac);
    free(tay->lazy_prog_src);
    free(tay->lazy_jac_src);
    hdo_mat_clear(tay->Jl);
    free(tay->perm_l);
    hdo_vec_clear(tay->work_l, tay->nlazy);
    tay->nlazy = 0;
}

int
hdo_taylor_lazy_factor(hdo_taylor_t tay)
{
    /* dh/dxu at the expansion point is in the values of tay->jac (the
       last factor_jh of order_zero evaluated it there) */
    hdo_program_struct *jac = tay->jac;
    slong nn = tay->nneed;
    slong *pos = xcalloc(tay->red->nimplicit, sizeof(slong));
    slong *row = xcalloc(tay->red->nh, sizeof(slong));
    for (slong j = 0; j < tay->red->nimplicit; j++)
        pos[j] = row[j] = -1;
    for (slong a = 0; a < nn; a++) {
        pos[tay->need_u[a]] = a;
        row[tay->need_h[a]] = a;
    }
    hdo_mat_zero(tay->Jn);
    for (slong e = 0; e < tay->njac; e++) {
        slong i = row[tay->jac_row[e]], j = pos[tay->jac_col[e]];
        if (i >= 0 && j >= 0)
            mpfr_set(hdo_mat_entry(tay->Jn, i, j),
                     jac->value[jac->root_slot[e]], MPFR_RNDN);
    }
    free(pos);
    free(row);
    return nn > 0 ? hdo_lu_factor(tay->Jn, tay->perm_n) : 0;
}

/* Sets the inputs of a point program from (t, xs, xu). */
static void
point_inputs(hdo_program_struct *prog, const hdo_taylor_src *src,
             const mpfr_t t, mpfr_srcptr xs, mpfr_srcptr xu)
{
    for (slong q = 0; q < prog->ninputs; q++)
        mpfr_set(prog->value[prog->inputs[q].slot],
                 (src[q].kind == HDO_TAYLOR_SRC_STATE ? xs : xu) + src[q].idx,
                 MPFR_RNDN);
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
}

/* Records the first failure of a lazy solve (reported by the next evolve
   or expand) and writes NaN into the lazy unknowns. */
static void
lazy_fail(hdo_taylor_t tay, mpfr_ptr xu, const char *msg, const mpfr_t t)
{
    for (slong a = 0; a < tay->nlazy; a++)
        mpfr_set_nan(xu + tay->lazy_u[a]);
    if (tay->lazy_status != 0)
        return;
    tay->lazy_status = HDO_ERR_NO_CONVERGENCE;
    mpfr_snprintf(tay->lazy_message, sizeof tay->lazy_message,
                  "%s at t = %.10Rg", msg, t);
}

void
hdo_taylor_lazy_solve(mpfr_ptr xu, hdo_taylor_t tay, mpfr_srcptr xs,
                      const mpfr_t h)
{
    slong nl = tay->nlazy;
    mpfr_t t, step, prev;
    hdo_expr bad;

    mpfr_inits2(tay->prec, t, step, prev, (mpfr_ptr)0);
    mpfr_add(t, tay->t0, h, MPFR_RNDN);
    mpfr_set_inf(prev, 1);
    for (int iter = 0;; iter++) {
        int jac = !(tay->lazy_affine && tay->lazy_factored);
        point_inputs(tay->lazy_prog, tay->lazy_prog_src, t, xs, xu);
        if (jac)
            point_inputs(tay->lazy_jac, tay->lazy_jac_src, t, xs, xu);
        if (hdo_program_eval(tay->lazy_prog, &bad) != 0 ||
            (jac && hdo_program_eval(tay->lazy_jac, &bad) != 0)) {
            lazy_fail(tay, xu,
                      "domain error solving the algebraic unknowns that "
                      "the recurrences do not need",
                      t);
            break;
        }
        for (slong a = 0; a < nl; a++) {
            mpfr_set(tay->work_l + a,
                     tay->lazy_prog->value[tay->lazy_prog->root_slot[a]],
                     MPFR_RNDN);
            for (slong b = 0; b < nl && jac; b++)
                mpfr_set(
                    hdo_mat_entry(tay->Jl, a, b),
                    tay->lazy_jac->value[tay->lazy_jac->root_slot[a * nl + b]],
                    MPFR_RNDN);
        }
        if (jac && hdo_lu_factor(tay->Jl, tay->perm_l) != 0) {
            lazy_fail(tay, xu,
                      "singular Jacobian solving the algebraic unknowns that "
                      "the recurrences do not need",
                      t);
            break;
        }
        tay->lazy_factored = tay->lazy_affine;
        hdo_lu_solve(tay->work_l, tay->Jl, tay->perm_l);
        if (tay->lazy_affine) {
            /* h affine in them with a constant Jacobian: this step lands
               on the solution up to rounding */
            for (slong a = 0; a < nl; a++)
                mpfr_sub(xu + tay->lazy_u[a], xu + tay->lazy_u[a],
                         tay->work_l + a, MPFR_RNDN);
            break;
        }
        hdo_vec_norm_inf(step, tay->work_l, nl);
        mpfr_srcptr fl =
            tay->floor != NULL ? tay->floor + tay->red->nstate : NULL;
        int small =
            hdo_taylor_newton_small(tay->work_l, xu, 1, tay->lazy_u, fl, nl,
                                    GUARD_BITS - (long)tay->prec, 0);
        int stalled = iter >= 2 && mpfr_cmp(step, prev) >= 0;
        if (!small && stalled) /* no more progress: rounding noise if small */
            small = hdo_taylor_newton_small(tay->work_l, xu, 1, tay->lazy_u, fl,
                                            nl, -(long)tay->prec / 2, 1);
        if (small)
            break;
        if (iter >= MAX_NEWTON || stalled) {
            lazy_fail(tay, xu,
                      "Newton's method for the algebraic unknowns that the "
                      "recurrences do not need does not converge",
                      t);
            break;
        }
        mpfr_set(prev, step, MPFR_RNDN);
        for (slong a = 0; a < nl; a++)
            mpfr_sub(xu + tay->lazy_u[a], xu + tay->lazy_u[a], tay->work_l + a,
                     MPFR_RNDN);
    }
    mpfr_clears(t, step, prev, (mpfr_ptr)0);
}
