/* autodiff.c -- Taylor-mode automatic differentiation over a flat program:
   normalised coefficients f^(k)(t0)/k!, one order at a time */
#include <stdlib.h>
#include "expr.h"
#include "share.h"
#include "status.h"

/* How many auxiliary series an instruction needs in Taylor mode. */
static slong
aux_needed(const hdo_program_instr *c)
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
        return 1;
    case HDO_X_POW:
        if (c->int_pow)
            return c->ipow >= 0 ? (c->ipow > 2 ? c->ipow - 2 : 0) : -c->ipow;
        return 2; /* log a, b log a */
    case HDO_X_CONST:
    case HDO_X_PI:
    case HDO_X_TIME:
    case HDO_X_VAR:
    case HDO_X_ADD:
    case HDO_X_SUB:
    case HDO_X_MUL:
    case HDO_X_DIV:
    case HDO_X_NEG:
    case HDO_X_EXP:
    case HDO_X_LOG:
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

/* The function whose series is kind's companion (sin: cos), or kind. */
static hdo_expr_kind
partner(hdo_expr_kind kind)
{
    return kind == HDO_X_SIN    ? HDO_X_COS
           : kind == HDO_X_COS  ? HDO_X_SIN
           : kind == HDO_X_SINH ? HDO_X_COSH
           : kind == HDO_X_COSH ? HDO_X_SINH
                                : kind;
}

void
hdo_program_taylor_alloc(hdo_program_t prog, slong order)
{
    HDO_ASSERT(prog->coef == NULL && order >= 0);
    slong per = order + 1;
    prog->taylor_order = order;
    prog->naux = 0;
    for (slong i = 0; i < prog->nslots; i++) {
        hdo_program_instr *c = prog->code + i;
        c->naux = aux_needed(c);
        c->aux = c->naux ? prog->naux : -1;
        prog->naux += c->naux;
    }
    /* sin and cos (sinh and cosh) of one operand compute the same pair
       of series, each its own and the other as companion: the later
       one copies them from the earlier (Beam: half its sines and
       cosines; decisions.md D-100) */
    for (slong i = 0; i < prog->nslots; i++) {
        hdo_program_instr *c = prog->code + i;
        hdo_expr_kind pair = partner(c->kind);
        c->twin = -1;
        for (slong j = 0; pair != c->kind && j < i && c->twin < 0; j++)
            if (prog->code[j].kind == pair && prog->code[j].a == c->a)
                c->twin = j;
    }
    /* the slots a pass computes (leaves are set or constant) */
    prog->ops = flint_malloc((prog->nslots + 1) * sizeof *prog->ops);
    prog->nops = 0;
    for (slong i = 0; i < prog->nslots; i++)
        if (hdo_expr_kind_arity(prog->code[i].kind) != 0)
            prog->ops[prog->nops++] = i;
    prog->coef = flint_malloc(prog->nslots * per * sizeof *prog->coef);
    prog->auxcoef =
        flint_malloc((prog->naux * per + 1) * sizeof *prog->auxcoef);
    for (slong i = 0; i < prog->nslots * per; i++) {
        mpfr_init2(prog->coef[i], prog->prec);
        mpfr_set_zero(prog->coef[i], 1);
    }
    for (slong i = 0; i < prog->naux * per; i++) {
        mpfr_init2(prog->auxcoef[i], prog->prec);
        mpfr_set_zero(prog->auxcoef[i], 1);
    }
    /* constants: coefficient 0 is the value, the others stay 0 */
    for (slong i = 0; i < prog->nslots; i++)
        if (prog->code[i].kind == HDO_X_CONST || prog->code[i].kind == HDO_X_PI)
            mpfr_set(prog->coef[i * per], prog->value[i], MPFR_RNDN);
}

#define C(s, k) (prog->coef[(s)*per + (k)])
/* mpfr_number_p without the call */
#define FINITE(x) (mpfr_zero_p(x) || mpfr_regular_p(x))
#define A(j, k) (prog->auxcoef[(j)*per + (k)])

/* acc := sum_{j=lo..hi} u[j] * v[k - j] with weights w(j) = j (weighted)
   or 1; u, v given as base pointers into coefficient arrays.  One fused
   sum of the exact products, rounded once (hdo_conv_fused, issue 28: a
   third of the instructions of a multiply and an add per term, and
   closer to the exact sum); the chain of roundings below where the
   kernel does not apply (an infinity or NaN, more than 256 bits). */
static void
conv(mpfr_t acc, mpfr_t tmp, mpfr_t *u, mpfr_t *v, slong k, slong lo, slong hi,
     int weighted)
{
    if (hdo_conv_fused(acc, (const mpfr_t *)u, (const mpfr_t *)v, k, lo, hi,
                       weighted) == 0)
        return;
    mpfr_set_zero(acc, 1);
    for (slong j = lo; j <= hi; j++) {
        mpfr_mul(tmp, u[j], v[k - j], MPFR_RNDN);
        if (weighted)
            mpfr_mul_si(tmp, tmp, j, MPFR_RNDN);
        mpfr_add(acc, acc, tmp, MPFR_RNDN);
    }
}

/* Solves w * a' = s * u' for coefficient k >= 1 of a (sign s = +-1):
   sum_{j=0}^{k-1} w_j (k-j) a_{k-j} = s k u_k. */
static void
deriv_div(mpfr_t out, mpfr_t acc, mpfr_t tmp, mpfr_t *a, mpfr_t *w, mpfr_t *u,
          slong k, int s)
{
    /* sum_{j=1}^{k-1} w_j (k - j) a_{k-j}: fused as in conv */
    if (hdo_conv_fused(acc, (const mpfr_t *)w, (const mpfr_t *)a, k, 1, k - 1,
                       2) != 0) {
        mpfr_set_zero(acc, 1);
        for (slong j = 1; j <= k - 1; j++) {
            mpfr_mul(tmp, w[j], a[k - j], MPFR_RNDN);
            mpfr_mul_si(tmp, tmp, k - j, MPFR_RNDN);
            mpfr_add(acc, acc, tmp, MPFR_RNDN);
        }
    }
    mpfr_mul_si(tmp, u[k], s * k, MPFR_RNDN);
    mpfr_sub(acc, tmp, acc, MPFR_RNDN);
    mpfr_div(acc, acc, w[0], MPFR_RNDN);
    mpfr_div_si(out, acc, k, MPFR_RNDN);
}

/* Slot s holds a constant (folded constant sub-expressions included,
   program.c): its coefficients of order >= 1 are zero. */
static int
is_constant(const hdo_program_struct *prog, slong s)
{
    return prog->code[s].kind == HDO_X_CONST || prog->code[s].kind == HDO_X_PI;
}

/* Order k of one instruction at slot i; active as in
   hdo_program_taylor_step_some.  Inlined in the pass, as it was before
   taylor_op_shared became its second caller (a call per slot and order
   is 5% of evaporator_hysteresis's steps). */
static inline __attribute__((always_inline)) int
taylor_op(hdo_program_t prog, slong i, slong k, const char *active)
{
    slong per = prog->taylor_order + 1;
    hdo_program_instr *c = prog->code + i;
    mpfr_t *u = prog->coef + c->a * per;
    mpfr_t *v = c->b >= 0 ? prog->coef + c->b * per : NULL;
    mpfr_t *r = prog->coef + i * per;
    mpfr_t *x = c->aux >= 0 ? prog->auxcoef + c->aux * per : NULL;
    mpfr_ptr acc = prog->tmp[0], tmp = prog->tmp[1];

    if (c->twin >= 0 && (active == NULL || active[c->twin])) {
        /* the twin's recurrence, computed this pass, is this one's with
           the same operands: the same bits (its order 0 too: mpfr_sin
           and mpfr_cos of u_0 both ways) */
        const hdo_program_instr *t = prog->code + c->twin;
        mpfr_set(r[k], prog->auxcoef[t->aux * per + k], MPFR_RNDN);
        mpfr_set(x[k], prog->coef[c->twin * per + k], MPFR_RNDN);
        return mpfr_number_p(r[k]) ? 0 : HDO_ERR_DOMAIN;
    }
    if (k == 0) {
        hdo_program_eval_op(r[0], c, u[0], v ? v[0] : NULL);
        if (!mpfr_number_p(r[0]))
            return HDO_ERR_DOMAIN;
        switch (c->kind) { /* the companions' order-0 values */
        case HDO_X_SIN:    /* mpfr_cos's bits, as eval_op's (D-117, D-129) */
            hdo_cos_rn(x[0], u[0]);
            break;
        case HDO_X_COS:
            hdo_sin_rn(x[0], u[0]);
            break;
        case HDO_X_SINH:
            mpfr_cosh(x[0], u[0], MPFR_RNDN);
            break;
        case HDO_X_COSH:
            mpfr_sinh(x[0], u[0], MPFR_RNDN);
            break;
        case HDO_X_TAN:
        case HDO_X_TANH:
            mpfr_sqr(x[0], r[0], MPFR_RNDN);
            if (c->kind == HDO_X_TAN)
                mpfr_add_si(x[0], x[0], 1, MPFR_RNDN);
            else
                mpfr_si_sub(x[0], 1, x[0], MPFR_RNDN);
            break;
        case HDO_X_ATAN:
            mpfr_sqr(x[0], u[0], MPFR_RNDN);
            mpfr_add_si(x[0], x[0], 1, MPFR_RNDN);
            break;
        case HDO_X_ASIN:
        case HDO_X_ACOS:
            mpfr_sqr(x[0], u[0], MPFR_RNDN);
            mpfr_si_sub(x[0], 1, x[0], MPFR_RNDN);
            mpfr_sqrt(x[0], x[0], MPFR_RNDN);
            if (mpfr_zero_p(x[0]))
                return HDO_ERR_DOMAIN; /* not differentiable at +-1 */
            break;
        case HDO_X_POW:
            if (c->int_pow && c->ipow > 2) {
                mpfr_sqr(x[0], u[0], MPFR_RNDN); /* x_j = u^(j+2) */
                for (slong j = 1; j < c->naux; j++)
                    mpfr_mul(x[j * per], x[(j - 1) * per], u[0], MPFR_RNDN);
            } else if (c->int_pow && c->ipow < 0) {
                /* x_j = u^-(j+1): a chain of divisions */
                if (mpfr_zero_p(u[0]))
                    return HDO_ERR_DOMAIN;
                mpfr_si_div(x[0], 1, u[0], MPFR_RNDN);
                for (slong j = 1; j < c->naux; j++)
                    mpfr_div(x[j * per], x[(j - 1) * per], u[0], MPFR_RNDN);
            } else if (!c->int_pow) {
                if (mpfr_sgn(u[0]) <= 0)
                    return HDO_ERR_DOMAIN;
                mpfr_log(x[0], u[0], MPFR_RNDN);
                mpfr_mul(x[per], v[0], x[0], MPFR_RNDN);
            }
            break;
        case HDO_X_CONST: /* no companion series */
        case HDO_X_PI:
        case HDO_X_TIME:
        case HDO_X_VAR:
        case HDO_X_ADD:
        case HDO_X_SUB:
        case HDO_X_MUL:
        case HDO_X_DIV:
        case HDO_X_NEG:
        case HDO_X_EXP:
        case HDO_X_LOG:
        case HDO_X_SQRT:
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
        return 0;
    }

    switch (c->kind) {
    /* Zeros from zeros without the rounding calls (a linear DAE's
       coefficients are mostly zeros where its unknowns are set to 0,
       D-120): the sum of two zeros is -0 only for (-0) + (-0), the
       difference only for (-0) - (+0) (round to nearest); a product with
       a zero factor and a finite other is a zero, which the MUL below
       makes +0. */
    case HDO_X_ADD:
        if (mpfr_zero_p(u[k]) && mpfr_zero_p(v[k]))
            mpfr_set_zero(r[k],
                          mpfr_signbit(u[k]) && mpfr_signbit(v[k]) ? -1 : 1);
        else
            mpfr_add(r[k], u[k], v[k], MPFR_RNDN);
        break;
    case HDO_X_SUB:
        if (mpfr_zero_p(u[k]) && mpfr_zero_p(v[k]))
            mpfr_set_zero(r[k],
                          mpfr_signbit(u[k]) && !mpfr_signbit(v[k]) ? -1 : 1);
        else
            mpfr_sub(r[k], u[k], v[k], MPFR_RNDN);
        break;
    case HDO_X_NEG:
        mpfr_neg(r[k], u[k], MPFR_RNDN);
        break;
    case HDO_X_MUL:
        /* A constant factor has zero coefficients from order 1 on, so the
           convolution has one nonzero term: one product instead of k + 1
           (the linear models, such as the bowed string's k (u_{i-1} -
           2 u_i + u_{i+1}), are all of this kind).  The sum of the
           convolution turns a zero product into +0, so does this. */
        if (is_constant(prog, c->a) || is_constant(prog, c->b)) {
            mpfr_srcptr f = is_constant(prog, c->a) ? u[0] : u[k],
                        g = is_constant(prog, c->a) ? v[k] : v[0];
            if ((mpfr_zero_p(f) && FINITE(g)) ||
                (mpfr_zero_p(g) && FINITE(f))) {
                mpfr_set_zero(r[k], 1);
                break;
            }
            if (mpfr_get_prec(r[k]) == mpfr_get_prec(acc)) {
                /* rounded to r's precision directly: the same bits */
                mpfr_mul(r[k], f, g, MPFR_RNDN);
                if (mpfr_zero_p(r[k]))
                    mpfr_set_zero(r[k], 1);
                break;
            }
            mpfr_mul(acc, f, g, MPFR_RNDN);
            if (mpfr_zero_p(acc))
                mpfr_set_zero(acc, 1);
        } else {
            conv(acc, tmp, u, v, k, 0, k, 0);
        }
        mpfr_set(r[k], acc, MPFR_RNDN);
        break;
    case HDO_X_DIV: /* q_k = (a_k - sum_{j=1}^k b_j q_{k-j}) / b_0 */
        /* By a constant: the sum is +0 and a_k - (+0) is a_k exactly. */
        if (is_constant(prog, c->b)) {
            mpfr_div(r[k], u[k], v[0], MPFR_RNDN);
            break;
        }
        conv(acc, tmp, v, r, k, 1, k, 0);
        mpfr_sub(acc, u[k], acc, MPFR_RNDN);
        mpfr_div(r[k], acc, v[0], MPFR_RNDN);
        break;
    case HDO_X_EXP: /* e_k = (1/k) sum j u_j e_{k-j} */
        conv(acc, tmp, u, r, k, 1, k, 1);
        mpfr_div_si(r[k], acc, k, MPFR_RNDN);
        break;
    case HDO_X_LOG: /* u l' = u' */
        deriv_div(r[k], acc, tmp, r, u, u, k, 1);
        break;
    case HDO_X_SQRT: /* s_k = (u_k - sum_{j=1}^{k-1} s_j s_{k-j}) / (2 s_0) */
        if (mpfr_zero_p(r[0]))
            return HDO_ERR_DOMAIN;
        conv(acc, tmp, r, r, k, 1, k - 1, 0);
        mpfr_sub(acc, u[k], acc, MPFR_RNDN);
        mpfr_div(acc, acc, r[0], MPFR_RNDN);
        mpfr_div_2ui(r[k], acc, 1, MPFR_RNDN);
        break;
    case HDO_X_SIN:
    case HDO_X_COS:
    case HDO_X_SINH:
    case HDO_X_COSH: {
        /* s' = c u', c' = -+ s u' */
        mpfr_t *s = c->kind == HDO_X_SIN || c->kind == HDO_X_SINH ? r : x;
        mpfr_t *co = s == r ? x : r;
        conv(acc, tmp, u, co, k, 1, k, 1);
        mpfr_div_si(acc, acc, k, MPFR_RNDN);
        conv(tmp, prog->tmp[2], u, s, k, 1, k, 1);
        mpfr_div_si(tmp, tmp, k, MPFR_RNDN);
        mpfr_set(s[k], acc, MPFR_RNDN);
        if (c->kind == HDO_X_SIN || c->kind == HDO_X_COS)
            mpfr_neg(co[k], tmp, MPFR_RNDN);
        else
            mpfr_set(co[k], tmp, MPFR_RNDN);
        break;
    }
    case HDO_X_TAN:
    case HDO_X_TANH: /* t' = w u', w = 1 +- t^2 */
        conv(acc, tmp, u, x, k, 1, k, 1);
        mpfr_div_si(r[k], acc, k, MPFR_RNDN);
        conv(acc, tmp, r, r, k, 0, k, 0);
        if (c->kind == HDO_X_TAN)
            mpfr_set(x[k], acc, MPFR_RNDN);
        else
            mpfr_neg(x[k], acc, MPFR_RNDN);
        break;
    case HDO_X_ATAN: /* (1 + u^2) a' = u' */
        conv(acc, tmp, u, u, k, 0, k, 0);
        mpfr_set(x[k], acc, MPFR_RNDN);
        deriv_div(r[k], acc, tmp, r, x, u, k, 1);
        break;
    case HDO_X_ASIN:
    case HDO_X_ACOS: /* w a' = +- u', w = sqrt(1 - u^2) */
        conv(acc, tmp, u, u, k, 0, k, 0);
        conv(tmp, prog->tmp[2], x, x, k, 1, k - 1, 0);
        mpfr_add(acc, acc, tmp, MPFR_RNDN);
        mpfr_neg(acc, acc, MPFR_RNDN);
        mpfr_div(acc, acc, x[0], MPFR_RNDN);
        mpfr_div_2ui(x[k], acc, 1, MPFR_RNDN);
        deriv_div(r[k], acc, tmp, r, x, u, k, c->kind == HDO_X_ASIN ? 1 : -1);
        break;
    case HDO_X_POW:
        if (c->int_pow && c->ipow >= 0) {
            if (c->ipow == 0) {
                mpfr_set_zero(r[k], 1);
            } else if (c->ipow == 1) {
                mpfr_set(r[k], u[k], MPFR_RNDN);
            } else {
                /* x_0 = u^2, x_j = x_{j-1} u, r = u^ipow = last * u */
                mpfr_t *prev = u;
                for (slong j = 0; j < c->naux; j++) {
                    mpfr_t *xj = x + j * per;
                    conv(acc, tmp, prev, u, k, 0, k, 0);
                    mpfr_set(xj[k], acc, MPFR_RNDN);
                    prev = xj;
                }
                conv(acc, tmp, prev, u, k, 0, k, 0);
                mpfr_set(r[k], acc, MPFR_RNDN);
            }
        } else if (c->int_pow) {
            /* x_0 = 1/u, x_j = x_{j-1}/u, r = the last one */
            mpfr_t *prev = NULL;
            for (slong j = 0; j < c->naux; j++) {
                mpfr_t *xj = x + j * per;
                /* xj = num / u with num = 1 (j = 0) or prev */
                conv(acc, tmp, u, xj, k, 1, k, 0);
                if (prev != NULL)
                    mpfr_sub(acc, prev[k], acc, MPFR_RNDN);
                else
                    mpfr_neg(acc, acc, MPFR_RNDN);
                mpfr_div(xj[k], acc, u[0], MPFR_RNDN);
                prev = xj;
            }
            mpfr_set(r[k], prev[k], MPFR_RNDN);
        } else {
            /* a^b = exp(b log a): l = log a, m = b l, r = exp(m) */
            mpfr_t *l = x, *m = x + per;
            deriv_div(l[k], acc, tmp, l, u, u, k, 1);
            conv(acc, tmp, v, l, k, 0, k, 0);
            mpfr_set(m[k], acc, MPFR_RNDN);
            conv(acc, tmp, m, r, k, 1, k, 1);
            mpfr_div_si(r[k], acc, k, MPFR_RNDN);
        }
        break;
    case HDO_X_CONST: /* leaves: set by the caller, or constant */
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
    return FINITE(r[k]) ? 0 : HDO_ERR_DOMAIN;
}

/* taylor_op, or its bits from the pool's shared series (share.c); apart,
   so that the other slots' calls stay inlined in the pass. */
__attribute__((noinline)) static int
taylor_op_shared(hdo_program_t prog, slong i, slong k, const char *active)
{
    if (hdo_series_share_get(prog, i, k))
        return 0;
    int status = taylor_op(prog, i, k, active);
    hdo_series_share_put(prog, i, k, status == 0);
    return status;
}

void
hdo_program_dependents(char *active, const hdo_program_t prog)
{
    /* Operands come before their instruction (program.c), so one pass in
       slot order closes the set. */
    for (slong i = 0; i < prog->nslots; i++) {
        const hdo_program_instr *c = prog->code + i;
        if (hdo_expr_kind_arity(c->kind) == 0)
            continue;
        active[i] = active[c->a] || (c->b >= 0 && active[c->b]);
    }
}

int
hdo_program_taylor_reads_past(const hdo_program_t prog, slong i)
{
    const hdo_program_instr *c = prog->code + i;
    switch (c->kind) {
    case HDO_X_ADD:
    case HDO_X_SUB:
    case HDO_X_NEG:
        return 0;
    case HDO_X_MUL:
        return !is_constant(prog, c->a) && !is_constant(prog, c->b);
    case HDO_X_DIV:
        return !is_constant(prog, c->b);
    default:
        return hdo_expr_kind_arity(c->kind) != 0;
    }
}

int
hdo_program_taylor_step_some(hdo_program_t prog, slong k, const char *active,
                             hdo_expr *bad)
{
    HDO_ASSERT(prog->coef != NULL && k >= 0 && k <= prog->taylor_order);
    slong per = prog->taylor_order + 1;
    mpfr_clear_overflow(); /* read by callers on failure (expr.h) */
    if (prog->time_slot >= 0 && k >= 1)
        mpfr_set_si(C(prog->time_slot, k), k == 1 ? 1 : 0, MPFR_RNDN);
    for (slong j = 0; j < prog->nops; j++) {
        slong i = prog->ops[j];
        if (active != NULL && !active[i])
            continue;
        int status = prog->code[i].share_ok && prog->share != NULL
                         ? taylor_op_shared(prog, i, k, active)
                         : taylor_op(prog, i, k, active);
        if (status != 0) {
            if (bad != NULL)
                *bad = prog->code[i].node;
            return status;
        }
    }
    return 0;
}

int
hdo_program_taylor_step(hdo_program_t prog, slong k, hdo_expr *bad)
{
    return hdo_program_taylor_step_some(prog, k, NULL, bad);
}
