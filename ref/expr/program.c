/* program.c -- compiling expressions into flat instruction lists, and
   evaluating them at a point */
#include <stdlib.h>
#include "expr.h"
#include "pool.h"
#include "memo.h"
#include "status.h"
#include "farith.h"

/* Small integer exponents are evaluated by products (exact for negative
   bases, and in Taylor mode also at a zero base, where the general power
   recurrence would divide by zero). */
#define MAX_INT_POW 64

static void
compile_pow(hdo_program_instr *c, const hdo_expr_pool_struct *pool,
            const hdo_expr_node *n)
{
    const hdo_expr_node *b = pool->nodes + n->b;
    if (b->kind == HDO_X_CONST) {
        const fmpq *q = pool->consts + b->a;
        if (fmpz_is_one(fmpq_denref(q)) &&
            fmpz_cmp_si(fmpq_numref(q), MAX_INT_POW) <= 0 &&
            fmpz_cmp_si(fmpq_numref(q), -MAX_INT_POW) >= 0) {
            c->int_pow = 1;
            c->ipow = fmpz_get_si(fmpq_numref(q));
        }
    }
}

void
hdo_program_init(hdo_program_t prog, const hdo_expr_pool_t pool,
                 const hdo_expr *roots, slong nroots, mpfr_prec_t prec)
{
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, roots, nroots);
    prog->prec = prec;
    prog->nslots = len;
    prog->code = flint_calloc(len ? len : 1, sizeof *prog->code);
    prog->value = flint_malloc((len ? len : 1) * sizeof *prog->value);
    prog->ninputs = 0;
    prog->inputs = flint_malloc((len ? len : 1) * sizeof *prog->inputs);
    prog->time_slot = -1;
    prog->taylor_order = -1;
    prog->coef = NULL;
    prog->naux = 0;
    prog->auxcoef = NULL;
    prog->nops = 0;
    prog->ops = NULL;
    prog->share = NULL;
    for (int i = 0; i < 3; i++)
        mpfr_init2(prog->tmp[i], prec);
    /* is_const[i]: slot i depends on no variable and not on time */
    char *is_const = flint_calloc(len ? len : 1, 1);
    for (slong i = 0; i < len; i++) {
        const hdo_expr_node *n = pool->nodes + nodes[i];
        hdo_program_instr *c = prog->code + i;
        mpfr_init2(prog->value[i], prec);
        c->kind = n->kind;
        c->a = c->b = c->aux = -1;
        c->naux = 0;
        c->twin = -1;
        c->int_pow = 0;
        c->node = nodes[i];
        c->share_ok = 0;
        c->share_entry = -1;
        /* piecewise nodes never reach a program: a mode's expressions
           are those of one sign pattern (hdo_expr_select), and the parser
           folds constant ones */
        HDO_ASSERT(hdo_expr_kind_table[n->kind].syntax != HDO_SYNTAX_COND);
        if (hdo_expr_kind_arity(n->kind) > 0) {
            c->a = hdo_expr_reachable_position(nodes, i, n->a);
            if (hdo_expr_kind_arity(n->kind) == 2)
                c->b = hdo_expr_reachable_position(nodes, i, n->b);
            if (n->kind == HDO_X_POW)
                compile_pow(c, pool, n);
        } else if (n->kind == HDO_X_CONST) {
            fmpq_get_mpfr(prog->value[i], pool->consts + n->a, MPFR_RNDN);
        } else if (n->kind == HDO_X_PI) {
            mpfr_const_pi(prog->value[i], MPFR_RNDN);
        } else if (n->kind == HDO_X_TIME) {
            prog->time_slot = i;
        } else {
            HDO_ASSERT(n->kind == HDO_X_VAR);
            prog->inputs[prog->ninputs].var = n->a;
            prog->inputs[prog->ninputs].order = n->b;
            prog->inputs[prog->ninputs].slot = i;
            prog->ninputs++;
        }
        is_const[i] = n->kind == HDO_X_CONST || n->kind == HDO_X_PI ||
                      (hdo_expr_kind_arity(n->kind) > 0 && is_const[c->a] &&
                       (c->b < 0 || is_const[c->b]));
        /* A constant sub-expression (sin(10^40), sqrt(2)/3) is evaluated
           once, faithfully, by Ziv's loop: rounding its leaves first and
           applying the functions at the working precision could lose
           every digit.  An undefined one stays NaN and is reported by
           the first operation that uses it. */
        if (is_const[i] && hdo_expr_kind_arity(n->kind) > 0) {
            if (hdo_expr_eval_constant(prog->value[i], pool, nodes[i]) != 0)
                mpfr_set_nan(prog->value[i]);
            c->kind = HDO_X_CONST;
        }
    }
    flint_free(is_const);
    prog->nroots = nroots;
    prog->root_slot =
        flint_malloc((nroots ? nroots : 1) * sizeof *prog->root_slot);
    for (slong r = 0; r < nroots; r++)
        prog->root_slot[r] = hdo_expr_reachable_position(nodes, len, roots[r]);
    flint_free(nodes);
}

void
hdo_program_clear(hdo_program_t prog)
{
    slong per = prog->taylor_order + 1;
    for (slong i = 0; i < prog->nslots; i++)
        mpfr_clear(prog->value[i]);
    if (prog->coef != NULL) {
        for (slong i = 0; i < prog->nslots * per; i++)
            mpfr_clear(prog->coef[i]);
        for (slong i = 0; i < prog->naux * per; i++)
            mpfr_clear(prog->auxcoef[i]);
        flint_free(prog->coef);
        flint_free(prog->auxcoef);
        flint_free(prog->ops);
    }
    for (int i = 0; i < 3; i++)
        mpfr_clear(prog->tmp[i]);
    flint_free(prog->value);
    flint_free(prog->code);
    flint_free(prog->inputs);
    flint_free(prog->root_slot);
}

/* One operation at a point; r must not alias a or b for POW.  With er
   (the exponent range, read once a program), add, sub and mul on the
   limbs: MPFR's bits (farith.h, decisions.md D-132). */
static inline __attribute__((always_inline)) void
eval_op(mpfr_ptr r, const hdo_program_instr *c, mpfr_srcptr a, mpfr_srcptr b,
        const hdo_erange *er)
{
    switch (c->kind) {
    case HDO_X_ADD:
        if (er == NULL || fa_add(r, a, b, 0, er) != 0)
            mpfr_add(r, a, b, MPFR_RNDN);
        break;
    case HDO_X_SUB:
        if (er == NULL || fa_add(r, a, b, 1, er) != 0)
            mpfr_sub(r, a, b, MPFR_RNDN);
        break;
    case HDO_X_MUL:
        if (er == NULL || fa_mul(r, a, b, er) != 0)
            mpfr_mul(r, a, b, MPFR_RNDN);
        break;
    case HDO_X_DIV:
        if (mpfr_zero_p(b))
            mpfr_set_nan(r);
        else
            mpfr_div(r, a, b, MPFR_RNDN);
        break;
    case HDO_X_POW:
        if (c->int_pow) {
            if (mpfr_zero_p(a) && c->ipow < 0)
                mpfr_set_nan(r);
            else
                mpfr_pow_si(r, a, c->ipow, MPFR_RNDN);
        } else {
            mpfr_pow(r, a, b, MPFR_RNDN);
        }
        break;
    case HDO_X_NEG:
        mpfr_neg(r, a, MPFR_RNDN);
        break;
    case HDO_X_SIN:
        hdo_sin_rn(r, a); /* mpfr_sin's bits (D-117) */
        break;
    case HDO_X_COS:
        hdo_cos_rn(r, a);
        break;
    case HDO_X_TAN:
        mpfr_tan(r, a, MPFR_RNDN);
        break;
    case HDO_X_ASIN:
        mpfr_asin(r, a, MPFR_RNDN);
        break;
    case HDO_X_ACOS:
        mpfr_acos(r, a, MPFR_RNDN);
        break;
    case HDO_X_ATAN:
        mpfr_atan(r, a, MPFR_RNDN);
        break;
    case HDO_X_EXP:
        hdo_exp_rn(r, a); /* mpfr_exp's bits (D-117) */
        break;
    case HDO_X_LOG:
        if (mpfr_sgn(a) <= 0)
            mpfr_set_nan(r);
        else
            mpfr_log(r, a, MPFR_RNDN);
        break;
    case HDO_X_SQRT:
        mpfr_sqrt(r, a, MPFR_RNDN);
        break;
    case HDO_X_SINH:
        mpfr_sinh(r, a, MPFR_RNDN);
        break;
    case HDO_X_COSH:
        mpfr_cosh(r, a, MPFR_RNDN);
        break;
    case HDO_X_TANH:
        mpfr_tanh(r, a, MPFR_RNDN);
        break;
    case HDO_X_CONST: /* leaves are set before, not computed */
    case HDO_X_PI:
    case HDO_X_TIME:
    case HDO_X_VAR:
        break;
    case HDO_X_GE: /* never compiled (hdo_program_init) */
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

void
hdo_program_eval_op(mpfr_ptr r, const hdo_program_instr *c, mpfr_srcptr a,
                    mpfr_srcptr b)
{
    eval_op(r, c, a, b, NULL);
}

int
hdo_program_eval_given(hdo_program_t prog, const slong *given, slong ngiven,
                       mpfr_srcptr val, hdo_expr *bad)
{
    hdo_erange er;
    hdo_erange_get(&er);
    mpfr_clear_overflow(); /* read by callers on failure (expr.h) */
    slong q = 0;
    for (slong i = 0; i < prog->nslots; i++) {
        const hdo_program_instr *c = prog->code + i;
        if (hdo_expr_kind_arity(c->kind) == 0)
            continue;
        if (q < ngiven && given[q] == i) {
            mpfr_set(prog->value[i], val + q, MPFR_RNDN);
            q++;
            continue;
        }
        eval_op(prog->value[i], c, prog->value[c->a],
                c->b >= 0 ? prog->value[c->b] : NULL, &er);
        if (!mpfr_number_p(prog->value[i])) {
            if (bad != NULL)
                *bad = c->node;
            return HDO_ERR_DOMAIN;
        }
    }
    return 0;
}

int
hdo_program_eval(hdo_program_t prog, hdo_expr *bad)
{
    return hdo_program_eval_given(prog, NULL, 0, NULL, bad);
}

int
hdo_program_eval_at(mpfr_ptr out, hdo_program_t prog, const mpfr_t t,
                    mpfr_srcptr x, slong nvars, slong max_order, hdo_expr *bad)
{
    for (slong i = 0; i < prog->ninputs; i++) {
        const hdo_program_input *in = prog->inputs + i;
        HDO_ASSERT(in->var < nvars && in->order <= max_order);
        mpfr_set(prog->value[in->slot], x + in->order * nvars + in->var,
                 MPFR_RNDN);
    }
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    int status = hdo_program_eval(prog, bad);
    if (status == 0)
        for (slong r = 0; r < prog->nroots; r++)
            mpfr_set(out + r, prog->value[prog->root_slot[r]], MPFR_RNDN);
    return status;
}
