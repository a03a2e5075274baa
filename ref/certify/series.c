/* series.c -- ball Taylor coefficients of a compiled program: the
   recurrences of Taylor-mode AD (one rule per expression kind) in Arb,
   on jets of a value and its derivatives with respect to parameters */
#include <arb.h>
#include "status.h"
#include "series.h"

/* Why a separate walk instead of the MPFR one (ref/expr/autodiff.c): a
   certified coefficient must enclose the exact one for every point of
   the input balls, so every operation is an Arb operation (arb_dot for
   the Cauchy products, arb_sin_cos, arb_log ... at order 0, each
   rounding and each domain edge accounted for by Arb), and the
   derivatives with respect to the initial state that Lohner's method
   needs ride along as jets.  The program (slots, operands, constants'
   pool nodes) is the same, so both walks expand the same expressions. */

/* Companion and weighted series an instruction needs, per kind:
   SIN/COS/SINH/COSH: the companion (cos for sin ...) and j u_j;
   TAN/TANH: w = 1 +- t^2 and j u_j; ATAN: w = 1 + u^2 and j a_j;
   ASIN/ACOS: w = sqrt(1 - u^2) and j a_j; EXP: j u_j; LOG: j l_j;
   POW with an integer n >= 3: the chain u^2 .. u^(n-1); n < 0: the chain
   1/u .. u^n; a real power: log a, j (log a)_j, b log a, j (b log a)_j. */
static slong
aux_count(const hdo_program_instr *c)
{
    switch (c->kind) {
    case HDO_X_SIN:
    case HDO_X_COS:
    case HDO_X_SINH:
    case HDO_X_COSH:
    case HDO_X_TAN:
    case HDO_X_TANH:
    case HDO_X_ATAN:
    case HDO_X_ASIN:
    case HDO_X_ACOS:
        return 2;
    case HDO_X_EXP:
    case HDO_X_LOG:
        return 1;
    case HDO_X_POW:
        if (c->int_pow)
            return c->ipow >= 3 ? c->ipow - 2 : (c->ipow < 0 ? -c->ipow : 0);
        return 4;
    case HDO_X_CONST:
    case HDO_X_PI:
    case HDO_X_TIME:
    case HDO_X_VAR:
    case HDO_X_ADD:
    case HDO_X_SUB:
    case HDO_X_MUL:
    case HDO_X_DIV:
    case HDO_X_NEG:
    case HDO_X_SQRT:
        return 0;
    case HDO_X_GE: /* piecewise: never compiled (hdo_program_init) */
    case HDO_X_GT:
    case HDO_X_NOT:
    case HDO_X_AND:
    case HDO_X_OR:
    case HDO_X_IF:
    case HDO_X_ELSE:
        break;
    }
    HDO_ASSERT(0);
    return 0;
}

static int
slot_is_constant(const hdo_program_struct *prog, slong s)
{
    return prog->code[s].kind == HDO_X_CONST || prog->code[s].kind == HDO_X_PI;
}

/* The ball of a constant slot: rationals and pi directly, a folded
   constant sub-expression (program.c keeps its pool node) by Arb through
   hdo_expr_enclose.  Its midpoint is read into an MPFR number of four
   times the precision, so that no rounding of the midpoint escapes the
   radius (Arb midpoints carry at most about prec bits). */
static int
constant_ball(arb_t r, const hdo_expr_pool_struct *pool, hdo_expr node,
              slong prec)
{
    const hdo_expr_node *n = pool->nodes + node;
    if (n->kind == HDO_X_CONST) {
        arb_set_fmpq(r, pool->consts + n->a, prec);
        return 0;
    }
    if (n->kind == HDO_X_PI) {
        arb_const_pi(r, prec);
        return 0;
    }
    mpfr_t mid, rad, t, trad;
    mpfr_init2(mid, 4 * prec + 64);
    mpfr_init2(rad, 64);
    mpfr_init2(t, 64);
    mpfr_init2(trad, 64);
    mpfr_set_zero(t, 1);
    mpfr_set_zero(trad, 1);
    int st = hdo_expr_enclose(mid, rad, pool, node, NULL, NULL, NULL, 0, t,
                              trad, prec);
    if (st == 0 && mpfr_number_p(mid) && mpfr_number_p(rad)) {
        arf_t a;
        arf_init(a);
        arf_set_mpfr(arb_midref(r), mid);
        mag_zero(arb_radref(r));
        arf_set_mpfr(a, rad);
        arb_add_error_arf(r, a);
        arf_clear(a);
    } else {
        arb_indeterminate(r);
        st = HDO_ERR_DOMAIN;
    }
    mpfr_clear(mid);
    mpfr_clear(rad);
    mpfr_clear(t);
    mpfr_clear(trad);
    return st;
}

void
cert_series_init(cert_series_t S, const hdo_program_struct *prog,
                 const hdo_expr_pool_struct *pool, slong order, slong nd,
                 slong prec)
{
    slong per = order + 1;
    S->prog = prog;
    S->order = order;
    S->nd = nd;
    S->w = nd + 1;
    S->prec = prec;
    S->status = 0;
    S->bad = HDO_EXPR_NONE;
    S->co = _arb_vec_init(prog->nslots * S->w * per + 1);
    S->aux = flint_malloc((prog->nslots + 1) * sizeof *S->aux);
    S->naux = 0;
    for (slong s = 0; s < prog->nslots; s++) {
        slong n = hdo_expr_kind_arity(prog->code[s].kind) > 0
                      ? aux_count(prog->code + s)
                      : 0;
        S->aux[s] = n > 0 ? S->naux : -1;
        S->naux += n;
    }
    S->ax = _arb_vec_init(S->naux * S->w * per + 1);
    S->tmp = _arb_vec_init(S->w);
    S->tmp2 = _arb_vec_init(S->w);
    for (slong s = 0; s < prog->nslots; s++) {
        if (!slot_is_constant(prog, s))
            continue;
        if (constant_ball(cert_series_coef(S, s, 0, 0), pool,
                          prog->code[s].node, prec) != 0 &&
            S->status == 0) {
            S->status = HDO_ERR_DOMAIN;
            S->bad = prog->code[s].node;
        }
    }
}

void
cert_series_clear(cert_series_t S)
{
    slong per = S->order + 1;
    _arb_vec_clear(S->co, S->prog->nslots * S->w * per + 1);
    _arb_vec_clear(S->ax, S->naux * S->w * per + 1);
    _arb_vec_clear(S->tmp, S->w);
    _arb_vec_clear(S->tmp2, S->w);
    flint_free(S->aux);
}

void
cert_series_reset(cert_series_t S)
{
    slong per = S->order + 1;
    for (slong s = 0; s < S->prog->nslots; s++)
        if (!slot_is_constant(S->prog, s))
            _arb_vec_zero(cert_series_coef(S, s, 0, 0), S->w * per);
    _arb_vec_zero(S->ax, S->naux * S->w * per);
}

void
cert_series_dependents(char *active, const cert_series_t S)
{
    hdo_program_dependents(active, S->prog);
}

/* A series of jets: component d at base + d * per. */
#define COMP(base, d) ((base) + (d)*per)

/* r[0..w) := sum_{j=lo..hi} X_j Y_{k-j} as jets (the product rule on each
   term); r must not alias X or Y. */
static void
jdot(arb_ptr r, arb_srcptr X, arb_srcptr Y, slong k, slong lo, slong hi,
     const cert_series_struct *S)
{
    slong per = S->order + 1, len = hi - lo + 1;
    if (len <= 0) {
        _arb_vec_zero(r, S->w);
        return;
    }
    arb_dot(r, NULL, 0, X + lo, 1, Y + k - lo, -1, len, S->prec);
    for (slong d = 1; d < S->w; d++) {
        arb_dot(r + d, NULL, 0, COMP(X, d) + lo, 1, Y + k - lo, -1, len,
                S->prec);
        arb_dot(r + d, r + d, 0, X + lo, 1, COMP(Y, d) + k - lo, -1, len,
                S->prec);
    }
}

/* Writes the jet r[0..w) (contiguous) as coefficient k of series R. */
static void
jput(arb_ptr R, slong k, arb_srcptr r, const cert_series_struct *S)
{
    slong per = S->order + 1;
    for (slong d = 0; d < S->w; d++)
        arb_set(COMP(R, d) + k, r + d);
}

/* r := n / b_0 as jets, n contiguous, b the series whose coefficient 0
   divides: q = n/b, dq = (dn - q db)/b. */
static void
jdiv0(arb_ptr R, slong k, arb_srcptr n, arb_srcptr B,
      const cert_series_struct *S)
{
    slong per = S->order + 1;
    arb_div(R + k, n, B, S->prec);
    for (slong d = 1; d < S->w; d++) {
        arb_mul(S->tmp2, R + k, COMP(B, d), S->prec);
        arb_sub(S->tmp2, n + d, S->tmp2, S->prec);
        arb_div(COMP(R, d) + k, S->tmp2, B, S->prec);
    }
}

/* Coefficient k of the weighted series W_j = j X_j. */
static void
jweigh(arb_ptr W, arb_srcptr X, slong k, const cert_series_struct *S)
{
    slong per = S->order + 1;
    for (slong d = 0; d < S->w; d++)
        arb_mul_si(COMP(W, d) + k, COMP(X, d) + k, k, S->prec);
}

/* Order 0 of y = f(u): y = fu, dy = dfu * du. */
static void
junary0(arb_ptr Y, arb_srcptr U, const arb_t fu, const arb_t dfu,
        const cert_series_struct *S)
{
    slong per = S->order + 1;
    arb_set(Y, fu);
    for (slong d = 1; d < S->w; d++)
        arb_mul(COMP(Y, d), dfu, COMP(U, d), S->prec);
}

/* a_k from w a' = sgn u' (LOG: w = u; ATAN, ASIN, ACOS): with
   WA_j = j a_j, k w_0 a_k = sgn k u_k - sum_{j=1}^{k-1} w_j WA_{k-j}. */
static void
deriv_div(arb_ptr A, arb_ptr WA, arb_srcptr Wser, arb_srcptr U, slong k,
          int sgn, const cert_series_struct *S)
{
    slong per = S->order + 1;
    arb_ptr t = S->tmp;
    jdot(t, Wser, WA, k, 1, k - 1, S);
    for (slong d = 0; d < S->w; d++) {
        arb_mul_si(S->tmp2, COMP(U, d) + k, sgn * k, S->prec);
        arb_sub(t + d, S->tmp2, t + d, S->prec);
        arb_div_si(t + d, t + d, k, S->prec);
    }
    jdiv0(A, k, t, Wser, S);
    jweigh(WA, A, k, S);
}

/* Order k of one instruction.  R: its series; U, V: operands; X: its
   first companion series (aux). */
static void
op(cert_series_struct *S, const hdo_program_instr *c, arb_ptr R, arb_srcptr U,
   arb_srcptr V, arb_ptr X, slong k)
{
    slong per = S->order + 1, w = S->w, prec = S->prec;
    slong blk = w * per; /* one aux series */
    arb_ptr t = S->tmp;
    switch (c->kind) {
    case HDO_X_ADD:
        for (slong d = 0; d < w; d++)
            arb_add(COMP(R, d) + k, COMP(U, d) + k, COMP(V, d) + k, prec);
        break;
    case HDO_X_SUB:
        for (slong d = 0; d < w; d++)
            arb_sub(COMP(R, d) + k, COMP(U, d) + k, COMP(V, d) + k, prec);
        break;
    case HDO_X_NEG:
        for (slong d = 0; d < w; d++)
            arb_neg(COMP(R, d) + k, COMP(U, d) + k);
        break;
    case HDO_X_MUL:
        /* a constant factor (no derivatives, nothing beyond order 0)
           makes the product one term */
        if (slot_is_constant(S->prog, c->a)) {
            for (slong d = 0; d < w; d++)
                arb_mul(COMP(R, d) + k, U, COMP(V, d) + k, prec);
        } else if (slot_is_constant(S->prog, c->b)) {
            for (slong d = 0; d < w; d++)
                arb_mul(COMP(R, d) + k, COMP(U, d) + k, V, prec);
        } else {
            jdot(t, U, V, k, 0, k, S);
            jput(R, k, t, S);
        }
        break;
    case HDO_X_DIV: /* q_k = (a_k - sum_{j=1}^k b_j q_{k-j}) / b_0 */
        if (slot_is_constant(S->prog, c->b)) {
            for (slong d = 0; d < w; d++)
                arb_div(COMP(R, d) + k, COMP(U, d) + k, V, prec);
            break;
        }
        jdot(t, V, R, k, 1, k, S);
        for (slong d = 0; d < w; d++)
            arb_sub(t + d, COMP(U, d) + k, t + d, prec);
        jdiv0(R, k, t, V, S);
        break;
    case HDO_X_EXP: { /* e_k = (1/k) sum_{j=1}^k j u_j e_{k-j} */
        arb_ptr WU = X;
        if (k == 0) {
            arb_exp(t, U, prec);
            junary0(R, U, t, t, S);
            break;
        }
        jweigh(WU, U, k, S);
        jdot(t, WU, R, k, 1, k, S);
        for (slong d = 0; d < w; d++)
            arb_div_si(COMP(R, d) + k, t + d, k, prec);
        break;
    }
    case HDO_X_SIN:
    case HDO_X_COS:
    case HDO_X_SINH:
    case HDO_X_COSH: {
        /* s' = c u', c' = -+ s u' */
        int hyp = c->kind == HDO_X_SINH || c->kind == HDO_X_COSH;
        int is_sin = c->kind == HDO_X_SIN || c->kind == HDO_X_SINH;
        arb_ptr Sn = is_sin ? R : X, Cs = is_sin ? X : R, WU = X + blk;
        if (k == 0) {
            arb_t sv, cv, m;
            arb_init(sv);
            arb_init(cv);
            arb_init(m);
            if (hyp)
                arb_sinh_cosh(sv, cv, U, prec);
            else
                arb_sin_cos(sv, cv, U, prec);
            junary0(Sn, U, sv, cv, S);
            if (hyp)
                arb_set(m, sv);
            else
                arb_neg(m, sv);
            junary0(Cs, U, cv, m, S);
            arb_clear(sv);
            arb_clear(cv);
            arb_clear(m);
            break;
        }
        jweigh(WU, U, k, S);
        jdot(t, WU, Cs, k, 1, k, S);
        jdot(S->tmp2, WU, Sn, k, 1, k, S); /* tmp2 free until jput */
        for (slong d = 0; d < w; d++) {
            arb_div_si(COMP(Sn, d) + k, t + d, k, prec);
            arb_div_si(COMP(Cs, d) + k, S->tmp2 + d, hyp ? k : -k, prec);
        }
        break;
    }
    case HDO_X_TAN:
    case HDO_X_TANH: { /* t' = w u', w = 1 +- t^2 */
        int hyp = c->kind == HDO_X_TANH;
        arb_ptr W = X, WU = X + blk;
        if (k == 0) {
            arb_t tv, wv;
            arb_init(tv);
            arb_init(wv);
            if (hyp)
                arb_tanh(tv, U, prec);
            else
                arb_tan(tv, U, prec);
            arb_sqr(wv, tv, prec);
            if (hyp) { /* 1 - t^2 */
                arb_sub_si(wv, wv, 1, prec);
                arb_neg(wv, wv);
            } else {
                arb_add_si(wv, wv, 1, prec);
            }
            junary0(R, U, tv, wv, S);
            jdot(t, R, R, 0, 0, 0, S);
            for (slong d = 0; d < w; d++)
                if (hyp)
                    arb_neg(t + d, t + d);
            arb_add_si(t, t, 1, prec);
            jput(W, 0, t, S);
            arb_clear(tv);
            arb_clear(wv);
            break;
        }
        jweigh(WU, U, k, S);
        jdot(t, WU, W, k, 1, k, S);
        for (slong d = 0; d < w; d++)
            arb_div_si(COMP(R, d) + k, t + d, k, prec);
        jdot(t, R, R, k, 0, k, S);
        for (slong d = 0; d < w; d++)
            if (hyp)
                arb_neg(t + d, t + d);
        jput(W, k, t, S);
        break;
    }
    case HDO_X_ATAN: { /* (1 + u^2) a' = u' */
        arb_ptr W = X, WA = X + blk;
        jdot(t, U, U, k, 0, k, S);
        if (k == 0)
            arb_add_si(t, t, 1, prec);
        jput(W, k, t, S);
        if (k == 0) {
            arb_t av, dv;
            arb_init(av);
            arb_init(dv);
            arb_atan(av, U, prec);
            arb_inv(dv, W, prec);
            junary0(R, U, av, dv, S);
            arb_clear(av);
            arb_clear(dv);
            break;
        }
        deriv_div(R, WA, W, U, k, 1, S);
        break;
    }
    case HDO_X_ASIN:
    case HDO_X_ACOS: { /* w a' = +- u', w = sqrt(1 - u^2) */
        int sgn = c->kind == HDO_X_ASIN ? 1 : -1;
        arb_ptr W = X, WA = X + blk;
        if (k == 0) {
            arb_t av, wv, dv;
            arb_init(av);
            arb_init(wv);
            arb_init(dv);
            if (sgn > 0)
                arb_asin(av, U, prec);
            else
                arb_acos(av, U, prec);
            arb_sqr(wv, U, prec);
            arb_sub_si(wv, wv, 1, prec);
            arb_neg(wv, wv);
            arb_sqrt(wv, wv, prec);
            /* dw = -u du / w, da = +- du / w */
            arb_div(dv, U, wv, prec);
            arb_neg(dv, dv);
            junary0(W, U, wv, dv, S);
            arb_inv(dv, wv, prec);
            if (sgn < 0)
                arb_neg(dv, dv);
            junary0(R, U, av, dv, S);
            arb_clear(av);
            arb_clear(wv);
            arb_clear(dv);
            break;
        }
        /* 2 w_0 w_k = -(sum_{j=0}^k u_j u_{k-j} + sum_{j=1}^{k-1} w_j w_{k-j})
         */
        jdot(t, U, U, k, 0, k, S);
        jdot(S->tmp2, W, W, k, 1, k - 1, S);
        for (slong d = 0; d < w; d++) {
            arb_add(t + d, t + d, S->tmp2 + d, prec);
            arb_neg(t + d, t + d);
            arb_mul_2exp_si(t + d, t + d, -1);
        }
        jdiv0(W, k, t, W, S);
        deriv_div(R, WA, W, U, k, sgn, S);
        break;
    }
    case HDO_X_LOG: { /* u l' = u' */
        arb_ptr WL = X;
        if (k == 0) {
            arb_t lv, dv;
            arb_init(lv);
            arb_init(dv);
            arb_log(lv, U, prec);
            arb_inv(dv, U, prec);
            junary0(R, U, lv, dv, S);
            arb_clear(lv);
            arb_clear(dv);
            break;
        }
        deriv_div(R, WL, U, U, k, 1, S);
        break;
    }
    case HDO_X_SQRT: { /* r_k = (u_k - sum_{j=1}^{k-1} r_j r_{k-j}) / (2 r_0) */
        if (k == 0) {
            arb_t rv, dv;
            arb_init(rv);
            arb_init(dv);
            arb_sqrt(rv, U, prec);
            arb_mul_2exp_si(dv, rv, 1);
            arb_inv(dv, dv, prec);
            junary0(R, U, rv, dv, S);
            arb_clear(rv);
            arb_clear(dv);
            break;
        }
        jdot(t, R, R, k, 1, k - 1, S);
        for (slong d = 0; d < w; d++) {
            arb_sub(t + d, COMP(U, d) + k, t + d, prec);
            arb_mul_2exp_si(t + d, t + d, -1);
        }
        jdiv0(R, k, t, R, S);
        break;
    }
    case HDO_X_POW:
        if (c->int_pow && c->ipow >= 0) {
            if (c->ipow == 0) {
                for (slong d = 0; d < w; d++)
                    arb_set_si(COMP(R, d) + k, d == 0 && k == 0);
            } else if (c->ipow == 1) {
                for (slong d = 0; d < w; d++)
                    arb_set(COMP(R, d) + k, COMP(U, d) + k);
            } else {
                /* X_0 = u^2, X_j = X_{j-1} u, r = last * u: products
                   only, exact at a zero base */
                arb_srcptr prev = U;
                for (slong j = 0; j < c->ipow - 2; j++) {
                    arb_ptr Xj = X + j * blk;
                    jdot(t, prev, U, k, 0, k, S);
                    jput(Xj, k, t, S);
                    prev = Xj;
                }
                jdot(t, prev, U, k, 0, k, S);
                jput(R, k, t, S);
            }
        } else if (c->int_pow) {
            /* X_0 = 1/u, X_j = X_{j-1}/u, r = the last one */
            arb_srcptr prev = NULL;
            for (slong j = 0; j < -c->ipow; j++) {
                arb_ptr Xj = X + j * blk;
                jdot(t, U, Xj, k, 1, k, S);
                for (slong d = 0; d < w; d++) {
                    if (prev != NULL)
                        arb_sub(t + d, COMP(prev, d) + k, t + d, prec);
                    else {
                        arb_neg(t + d, t + d);
                        if (k == 0 && d == 0)
                            arb_add_si(t, t, 1, prec);
                    }
                }
                jdiv0(Xj, k, t, U, S);
                prev = Xj;
            }
            for (slong d = 0; d < w; d++)
                arb_set(COMP(R, d) + k, COMP(prev, d) + k);
        } else {
            /* a^b = exp(m), m = b log a */
            arb_ptr L = X, WL = X + blk, M = X + 2 * blk, WM = X + 3 * blk;
            if (k == 0) {
                arb_t lv, dv;
                arb_init(lv);
                arb_init(dv);
                arb_log(lv, U, prec);
                arb_inv(dv, U, prec);
                junary0(L, U, lv, dv, S);
                jdot(t, V, L, 0, 0, 0, S);
                jput(M, 0, t, S);
                arb_exp(lv, M, prec);
                junary0(R, M, lv, lv, S);
                arb_clear(lv);
                arb_clear(dv);
                break;
            }
            deriv_div(L, WL, U, U, k, 1, S);
            jdot(t, V, L, k, 0, k, S);
            jput(M, k, t, S);
            jweigh(WM, M, k, S);
            jdot(t, WM, R, k, 1, k, S);
            for (slong d = 0; d < w; d++)
                arb_div_si(COMP(R, d) + k, t + d, k, prec);
        }
        break;
    case HDO_X_CONST: /* leaves: set by the caller or constant */
    case HDO_X_PI:
    case HDO_X_TIME:
    case HDO_X_VAR:
        break;
    case HDO_X_GE: /* piecewise: never compiled (hdo_program_init) */
    case HDO_X_GT:
    case HDO_X_NOT:
    case HDO_X_AND:
    case HDO_X_OR:
    case HDO_X_IF:
    case HDO_X_ELSE:
        HDO_ASSERT(0);
        break;
    }
}

int
cert_series_step(cert_series_t S, slong k, const char *active, hdo_expr *bad)
{
    const hdo_program_struct *prog = S->prog;
    slong per = S->order + 1, blk = S->w * per;
    HDO_ASSERT(k >= 0 && k <= S->order);
    if (S->status != 0) {
        if (bad != NULL)
            *bad = S->bad;
        return S->status;
    }
    if (prog->time_slot >= 0 && k >= 1) {
        arb_ptr T = cert_series_coef(S, prog->time_slot, 0, 0);
        arb_set_si(T + k, k == 1);
        for (slong d = 1; d < S->w; d++)
            arb_zero(COMP(T, d) + k);
    }
    for (slong s = 0; s < prog->nslots; s++) {
        const hdo_program_instr *c = prog->code + s;
        if (hdo_expr_kind_arity(c->kind) == 0 || (active != NULL && !active[s]))
            continue;
        arb_ptr R = cert_series_coef(S, s, 0, 0);
        arb_srcptr U = cert_series_coef(S, c->a, 0, 0);
        arb_srcptr V = c->b >= 0 ? cert_series_coef(S, c->b, 0, 0) : NULL;
        arb_ptr X = S->aux[s] >= 0 ? S->ax + S->aux[s] * blk : NULL;
        op(S, c, R, U, V, X, k);
        for (slong d = 0; d < S->w; d++)
            if (!arb_is_finite(COMP(R, d) + k)) {
                if (bad != NULL)
                    *bad = c->node;
                return HDO_ERR_DOMAIN;
            }
    }
    return 0;
}
