/* expand.c -- the step layer: Taylor coefficients of states, unknowns and
 * guards at one point */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Newton on h for the order-0 unknowns: at most this many iterations
   (from a consistent point one evaluation shows the step is at rounding
   level; h linear in the unknowns converges in one). */
#define MAX_NEWTON 10
/* A Newton correction below 2^(GUARD_BITS - prec) max(|xu_j|, floor_j)
   of every unknown is rounding noise: h is a sum of a few rounded terms
   (hdo_taylor_newton_small). */
#define GUARD_BITS 16

static int
domain_fail(hdo_error_t *err, const hdo_taylor_t tay, hdo_expr bad, slong r)
{
    char msg[700];
    /* hdo_program_* cleared the flag before evaluating (expr.h) */
    int over = mpfr_overflow_p();
    char *s = hdo_expr_to_string(tay->model->pool, bad, tay->model->var_names);
    if (r == 0)
        snprintf(msg, sizeof msg, "%s evaluating %.500s",
                 over ? "overflow (beyond MPFR's exponent range)"
                      : "domain error",
                 s);
    else
        snprintf(msg, sizeof msg,
                 "%s in the Taylor coefficient of order %ld of "
                 "%.500s (%s)",
                 over ? "overflow" : "domain error", (long)r, s,
                 over ? "it is beyond MPFR's exponent range"
                      : "a derivative is undefined here");
    free(s);
    return hdo_taylor_fail(err, tay, HDO_ERR_DOMAIN, tay->t0, msg);
}

static int
singular_fail(hdo_error_t *err, const hdo_taylor_t tay)
{
    const hdo_reduced_struct *r = tay->red;
    const hdo_mode *mode = tay->model->modes + r->mode;
    char msg[900], vars[400] = "";
    for (slong j = 0; j < r->nimplicit; j++) {
        size_t len = strlen(vars);
        const char *name = tay->model->var_names[r->unknown[j].var];
        if (r->unknown[j].order == 0)
            snprintf(vars + len, sizeof vars - len, "%s%s", j ? ", " : "",
                     name);
        else
            snprintf(vars + len, sizeof vars - len, "%sderivative %ld of %s",
                     j ? ", " : "", (long)r->unknown[j].order, name);
    }
    snprintf(msg, sizeof msg,
             "mode %s is singular here: the Jacobian of its (differentiated) "
             "algebraic equations with respect to %s is singular",
             mode->name, vars);
    return hdo_taylor_fail(err, tay, HDO_ERR_SINGULAR, tay->t0, msg);
}

/* Copies coefficient k of the inputs of tay's program of the given kind
   from the series (their list: tay->in_of). */
static void
set_inputs(hdo_program_t prog, const hdo_taylor_src *src,
           const hdo_taylor_struct *tay, hdo_taylor_src_kind kind, slong k)
{
    HDO_ASSERT(kind == HDO_TAYLOR_SRC_STATE || kind == HDO_TAYLOR_SRC_UNKNOWN);
    const slong *in = tay->in_of[kind];
    for (slong a = 0; a < tay->nin_of[kind]; a++) {
        slong q = in[a];
        mpfr_set(hdo_program_coef(prog, prog->inputs[q].slot, k),
                 hdo_taylor_src_coef(tay, src[q])[k], MPFR_RNDN);
    }
}

/* Coefficient k of the unknowns' inputs := +0 (the first pass's; the
   unknowns' own coefficients k are written after the solve). */
static void
zero_unknown_inputs(hdo_program_t prog, const hdo_taylor_struct *tay, slong k)
{
    const slong *in = tay->in_of[HDO_TAYLOR_SRC_UNKNOWN];
    for (slong a = 0; a < tay->nin_of[HDO_TAYLOR_SRC_UNKNOWN]; a++)
        mpfr_set_zero(hdo_program_coef(prog, prog->inputs[in[a]].slot, k), 1);
}

/* Evaluates dh/dxu at the order-0 coefficients and factors it. */
static int
factor_jh(hdo_taylor_t tay, hdo_error_t *err)
{
    hdo_program_struct *jac = tay->jac;
    hdo_expr bad;
    hdo_mat_zero(tay->Jh);
    if (tay->njac > 0) {
        for (slong q = 0; q < jac->ninputs; q++)
            mpfr_set(jac->value[jac->inputs[q].slot],
                     hdo_taylor_src_coef(tay, tay->jac_in_src[q])[0],
                     MPFR_RNDN);
        if (jac->time_slot >= 0)
            mpfr_set(jac->value[jac->time_slot], tay->t0, MPFR_RNDN);
        if (hdo_program_eval(jac, &bad) != 0)
            return domain_fail(err, tay, bad, 0);
        for (slong e = 0; e < tay->njac; e++)
            mpfr_set(hdo_mat_entry(tay->Jh, tay->jac_row[e], tay->jac_col[e]),
                     jac->value[jac->root_slot[e]], MPFR_RNDN);
    }
    if (hdo_lu_factor_memo(tay->jh_memo, tay->Jh, tay->perm) != 0)
        return singular_fail(err, tay);
    return 0;
}

/* work := coefficient k of h. */
static void
get_h(hdo_taylor_t tay, slong k)
{
    slong ne = tay->red->nexplicit;
    for (slong j = 0; j < tay->red->nh; j++)
        mpfr_set(tay->work + j,
                 hdo_program_coef(tay->prog, tay->prog->root_slot[ne + j], k),
                 MPFR_RNDN);
}

/* Order 0: the program at the point, with the unknowns refined by Newton
   on h; leaves dh/dxu factored at the final point. */
static int
order_zero(hdo_taylor_t tay, hdo_error_t *err)
{
    hdo_program_struct *prog = tay->prog;
    slong nu = tay->red->nimplicit, per = tay->order + 1;
    mpfr_t step, prev;
    hdo_expr bad;
    int st = 0;

    mpfr_inits2(tay->prec, step, prev, (mpfr_ptr)0);
    mpfr_set_inf(prev, 1);
    set_inputs(prog, tay->in_src, tay, HDO_TAYLOR_SRC_STATE, 0);
    if (prog->time_slot >= 0)
        mpfr_set(hdo_program_coef(prog, prog->time_slot, 0), tay->t0,
                 MPFR_RNDN);
    for (int iter = 0;; iter++) {
        set_inputs(prog, tay->in_src, tay, HDO_TAYLOR_SRC_UNKNOWN, 0);
        if (hdo_program_taylor_step(prog, 0, &bad) != 0) {
            st = domain_fail(err, tay, bad, 0);
            break;
        }
        if (nu == 0)
            break;
        if ((st = factor_jh(tay, err)) != 0)
            break;
        get_h(tay, 0);
        hdo_lu_solve(tay->work, tay->Jh, tay->perm);
        hdo_vec_norm_inf(step, tay->work, nu);
        mpfr_srcptr fl =
            tay->floor != NULL ? tay->floor + tay->red->nstate : NULL;
        if (hdo_taylor_newton_small(tay->work, tay->unknown_coef[0], per, NULL,
                                    fl, nu, GUARD_BITS - (long)tay->prec, 0))
            break;
        /* no more progress: rounding noise if it is small against the
           largest unknown */
        if (iter >= 2 && mpfr_cmp(step, prev) >= 0 &&
            hdo_taylor_newton_small(tay->work, tay->unknown_coef[0], per, NULL,
                                    fl, nu, -(long)tay->prec / 2, 1))
            break;
        if (iter >= MAX_NEWTON || (iter >= 2 && mpfr_cmp(step, prev) >= 0)) {
            char msg[300];
            mpfr_snprintf(msg, sizeof msg,
                          "Newton's method for the algebraic unknowns does "
                          "not converge at the expansion point (last step "
                          "%.6Rg)",
                          step);
            st = hdo_taylor_fail(err, tay, HDO_ERR_INCONSISTENT, tay->t0, msg);
            break;
        }
        mpfr_set(prev, step, MPFR_RNDN);
        for (slong j = 0; j < nu; j++)
            mpfr_sub(tay->unknown_coef[j * per], tay->unknown_coef[j * per],
                     tay->work + j, MPFR_RNDN);
    }
    mpfr_clears(step, prev, (mpfr_ptr)0);
    return st;
}

/* Order r > HDO_TAYLOR_LAZY_ORDER with lazy unknowns: as in
   hdo_taylor_expand, on the slots the recurrences need, and only the
   needed block of h solved (its equations hold no lazy unknown, so the
   block is the needed unknowns' whole system); the lazy unknowns'
   coefficients are 0. */
static int
lazy_order(hdo_taylor_t tay, slong r, hdo_error_t *err)
{
    hdo_program_struct *prog = tay->prog;
    slong per = tay->order + 1, ne = tay->red->nexplicit, nn = tay->nneed;
    hdo_expr bad;
    set_inputs(prog, tay->in_src, tay, HDO_TAYLOR_SRC_STATE, r);
    for (slong j = 0; j < tay->red->nimplicit; j++)
        mpfr_set_zero(tay->unknown_coef[j * per + r], 1);
    set_inputs(prog, tay->in_src, tay, HDO_TAYLOR_SRC_UNKNOWN, r);
    if (hdo_program_taylor_step_some(prog, r, tay->active, &bad) != 0)
        return domain_fail(err, tay, bad, r);
    if (nn == 0)
        return 0;
    for (slong a = 0; a < nn; a++)
        mpfr_set(
            tay->work + a,
            hdo_program_coef(prog, prog->root_slot[ne + tay->need_h[a]], r),
            MPFR_RNDN);
    hdo_lu_solve(tay->work, tay->Jn, tay->perm_n);
    for (slong a = 0; a < nn; a++)
        mpfr_neg(tay->unknown_coef[tay->need_u[a] * per + r], tay->work + a,
                 MPFR_RNDN);
    set_inputs(prog, tay->in_src, tay, HDO_TAYLOR_SRC_UNKNOWN, r);
    if (hdo_program_taylor_step_some(prog, r, tay->active_dep, &bad) != 0)
        return domain_fail(err, tay, bad, r);
    return 0;
}

int
hdo_taylor_expand(hdo_taylor_t tay, const mpfr_t t0, mpfr_srcptr xs,
                  mpfr_srcptr xu, hdo_error_t *err)
{
    const hdo_reduced_struct *red = tay->red;
    hdo_program_struct *prog = tay->prog;
    slong p = tay->order, per = p + 1, ns = red->nstate, nu = red->nimplicit;
    slong base = red->nexplicit + red->nh;
    hdo_expr bad;
    int st;

    tay->expanded = 0;
    tay->comp_valid = 0;
    mpfr_set(tay->t0, t0, MPFR_RNDN);
    if (tay->init_status != 0)
        return hdo_taylor_fail(err, tay, tay->init_status, t0,
                               tay->init_message);
    if (tay->lazy_status != 0) /* a failed solve of the last step's eval */
        return hdo_taylor_fail(err, tay, tay->lazy_status, t0,
                               tay->lazy_message);
    for (slong i = 0; i < ns; i++)
        mpfr_set(tay->state_coef[i * per], xs + i, MPFR_RNDN);
    for (slong j = 0; j < nu; j++)
        mpfr_set(tay->unknown_coef[j * per], xu + j, MPFR_RNDN);
    if ((st = order_zero(tay, err)) != 0)
        return st;
    if (tay->nlazy > 0 && hdo_taylor_lazy_factor(tay) != 0)
        return singular_fail(err, tay);

    for (slong r = 0;; r++) {
        if (r > HDO_TAYLOR_LAZY_ORDER && tay->nlazy > 0) {
            if ((st = lazy_order(tay, r, err)) != 0)
                return st;
        } else if (r > 0) {
            set_inputs(prog, tay->in_src, tay, HDO_TAYLOR_SRC_STATE, r);
            if (nu > 0) {
                /* Order r of h is affine in the unknowns' order-r
                   coefficients, with matrix dh/dxu at t0: evaluate it
                   with those set to 0 (h's ancestors and the slots free
                   of unknowns: first_pass), solve, and recompute order
                   r. */
                zero_unknown_inputs(prog, tay, r);
                if (hdo_program_taylor_step_some(prog, r, tay->first_pass,
                                                 &bad) != 0)
                    return domain_fail(err, tay, bad, r);
                get_h(tay, r);
                hdo_lu_solve(tay->work, tay->Jh, tay->perm);
                for (slong j = 0; j < nu; j++)
                    mpfr_neg(tay->unknown_coef[j * per + r], tay->work + j,
                             MPFR_RNDN);
                set_inputs(prog, tay->in_src, tay, HDO_TAYLOR_SRC_UNKNOWN, r);
                /* Only the slots that depend on the unknowns change:
                   the others were computed by the first pass with the
                   same operands (half the work for a DAE mode whose
                   unknowns enter few equations, as the bowed string's
                   two multipliers); of those, the ones the rhs, the
                   guards and the extra roots read (second_pass: h's
                   order r is read by nothing after the solve). */
                if (hdo_program_taylor_step_some(prog, r, tay->second_pass,
                                                 &bad) != 0)
                    return domain_fail(err, tay, bad, r);
            } else if (hdo_program_taylor_step(prog, r, &bad) != 0) {
                return domain_fail(err, tay, bad, r);
            }
        }
        if (r == p)
            break;
        /* x_{r+1} = (x')_r / (r + 1) */
        for (slong i = 0; i < ns; i++) {
            hdo_taylor_src s = tay->der_src[i];
            mpfr_srcptr c =
                s.kind == HDO_TAYLOR_SRC_ROOT
                    ? hdo_program_coef(prog, prog->root_slot[s.idx], r)
                    : hdo_taylor_src_coef(tay, s)[r];
            mpfr_div_ui(tay->state_coef[i * per + r + 1], c, r + 1, MPFR_RNDN);
        }
    }

    for (slong g = 0; g < tay->nguards + tay->nextra; g++) {
        mpfr_t *dst = g < tay->nguards
                          ? tay->guard_coef + g * per
                          : tay->extra_coef + (g - tay->nguards) * per;
        slong slot = prog->root_slot[base + g];
        for (slong k = 0; k <= p; k++)
            mpfr_set(dst[k], hdo_program_coef(prog, slot, k), MPFR_RNDN);
    }
    tay->expanded = 1;
    return 0;
}
