/* deval.c -- double-precision evaluation of hdo expression graphs */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "deval.h"

void
deval_init(deval_t p, const hdo_expr_pool_t pool, const hdo_expr *roots,
           slong nroots, slong nvars)
{
    slong top = -1;
    memset(p, 0, sizeof *p);
    p->pool = pool;
    p->nroots = nroots;
    p->nvars = nvars;
    p->roots = malloc((nroots > 0 ? nroots : 1) * sizeof *p->roots);
    for (slong i = 0; i < nroots; i++) {
        p->roots[i] = roots[i];
        if (roots[i] > top)
            top = roots[i];
    }
    char *mark = calloc(top + 2, 1);
    for (slong i = 0; i < nroots; i++)
        if (roots[i] >= 0)
            mark[roots[i]] = 1;
    /* Children have smaller indices than their parents, so one sweep
       downwards marks everything reachable. */
    for (slong n = top; n >= 0; n--) {
        if (!mark[n])
            continue;
        const hdo_expr_node *nd = hdo_expr_node_get(pool, n);
        int arity = hdo_expr_kind_arity(nd->kind); /* libhdo's table */
        if (arity >= 1)
            mark[nd->a] = 1;
        if (arity == 2)
            mark[nd->b] = 1;
    }
    p->code = malloc((top + 2) * sizeof *p->code);
    p->val = calloc(top + 2, sizeof *p->val);
    p->dval = calloc(top + 2, sizeof *p->dval); /* constants: 0 */
    for (slong n = 0; n <= top; n++) {
        if (!mark[n])
            continue;
        p->code[p->ncode++] = (int32_t)n;
        const hdo_expr_node *nd = hdo_expr_node_get(pool, n);
        if (nd->kind == HDO_X_CONST || nd->kind == HDO_X_PI) {
            mpfr_t c;
            mpfr_init2(c, 53);
            hdo_expr_eval_constant(c, pool, n);
            p->val[n] = mpfr_get_d(c, MPFR_RNDN);
            mpfr_clear(c);
        } else if (nd->kind == HDO_X_VAR && nd->b > p->maxorder) {
            p->maxorder = nd->b;
        }
    }
    free(mark);
}

void
deval_clear(deval_t p)
{
    free(p->roots);
    free(p->code);
    free(p->val);
    free(p->dval);
    memset(p, 0, sizeof *p);
}

void
deval_eval(double *out, deval_t p, double t, const double *vtab)
{
    double *v = p->val;
    for (slong i = 0; i < p->ncode; i++) {
        int32_t n = p->code[i];
        const hdo_expr_node *nd = hdo_expr_node_get(p->pool, n);
        double a = 0, b = 0;
        switch (nd->kind) {
        case HDO_X_CONST:
        case HDO_X_PI:
            continue;
        case HDO_X_TIME:
            v[n] = t;
            continue;
        case HDO_X_VAR:
            v[n] = vtab[nd->b * p->nvars + nd->a];
            continue;
        default: /* operators: their operands, by the kind table's arity */
            a = v[nd->a];
            if (hdo_expr_kind_arity(nd->kind) == 2)
                b = v[nd->b];
        }
        switch (nd->kind) {
        case HDO_X_ADD:
            v[n] = a + b;
            break;
        case HDO_X_SUB:
            v[n] = a - b;
            break;
        case HDO_X_MUL:
            v[n] = a * b;
            break;
        case HDO_X_DIV:
            v[n] = a / b;
            break;
        case HDO_X_POW:
            /* Small integer exponents by multiplication, as a user's
               hand-written residual would have them. */
            if (b == 2)
                v[n] = a * a;
            else if (b == 3)
                v[n] = a * a * a;
            else
                v[n] = pow(a, b);
            break;
        case HDO_X_NEG:
            v[n] = -a;
            break;
        case HDO_X_SIN:
            v[n] = sin(a);
            break;
        case HDO_X_COS:
            v[n] = cos(a);
            break;
        case HDO_X_TAN:
            v[n] = tan(a);
            break;
        case HDO_X_ASIN:
            v[n] = asin(a);
            break;
        case HDO_X_ACOS:
            v[n] = acos(a);
            break;
        case HDO_X_ATAN:
            v[n] = atan(a);
            break;
        case HDO_X_EXP:
            v[n] = exp(a);
            break;
        case HDO_X_LOG:
            v[n] = log(a);
            break;
        case HDO_X_SQRT:
            v[n] = sqrt(a);
            break;
        case HDO_X_SINH:
            v[n] = sinh(a);
            break;
        case HDO_X_COSH:
            v[n] = cosh(a);
            break;
        case HDO_X_TANH:
            v[n] = tanh(a);
            break;
        case HDO_X_CONST: /* leaves: done above */
        case HDO_X_PI:
        case HDO_X_TIME:
        case HDO_X_VAR:
            break;
        /* piecewise (libhdo gives sign-pattern modes without them, but a
           direct evaluation is cheap): conditions are 1 or 0 */
        case HDO_X_GE:
            v[n] = a >= 0;
            break;
        case HDO_X_GT:
            v[n] = a > 0;
            break;
        case HDO_X_NOT:
            v[n] = a == 0;
            break;
        case HDO_X_AND:
            v[n] = a != 0 && b != 0;
            break;
        case HDO_X_OR:
            v[n] = a != 0 || b != 0;
            break;
        case HDO_X_ELSE:
            v[n] = 0; /* no value: its IF reads the branches */
            break;
        case HDO_X_IF: {
            const hdo_expr_node *br = hdo_expr_node_get(p->pool, nd->b);
            v[n] = a != 0 ? v[br->a] : v[br->b];
            break;
        }
        }
    }
    for (slong i = 0; i < p->nroots; i++)
        out[i] = p->roots[i] >= 0 ? v[p->roots[i]] : NAN;
}

/* The derivative of node n from its operands' values (v) and derivatives
   (dv): the chain rule for each kind. */
static double
node_deriv(const deval_struct *p, const hdo_expr_node *nd, slong n)
{
    const double *v = p->val, *dv = p->dval;
    double a = 0, b = 0, da = 0, db = 0;
    if (hdo_expr_kind_arity(nd->kind) >= 1) {
        a = v[nd->a];
        da = dv[nd->a];
    }
    if (hdo_expr_kind_arity(nd->kind) == 2) {
        b = v[nd->b];
        db = dv[nd->b];
    }
    switch (nd->kind) {
    case HDO_X_CONST:
    case HDO_X_PI:
    case HDO_X_TIME: /* leaves: set by the caller */
    case HDO_X_VAR:
        return dv[n];
    case HDO_X_ADD:
        return da + db;
    case HDO_X_SUB:
        return da - db;
    case HDO_X_MUL:
        return da * b + a * db;
    case HDO_X_DIV:
        return (da - v[n] * db) / b;
    case HDO_X_POW:
        if (db == 0) /* a constant exponent: also right for a <= 0 */
            return b == 0 ? 0 : b * pow(a, b - 1) * da;
        return v[n] * (db * log(a) + b * da / a);
    case HDO_X_NEG:
        return -da;
    case HDO_X_SIN:
        return cos(a) * da;
    case HDO_X_COS:
        return -sin(a) * da;
    case HDO_X_TAN:
        return (1 + v[n] * v[n]) * da;
    case HDO_X_ASIN:
        return da / sqrt(1 - a * a);
    case HDO_X_ACOS:
        return -da / sqrt(1 - a * a);
    case HDO_X_ATAN:
        return da / (1 + a * a);
    case HDO_X_EXP:
        return v[n] * da;
    case HDO_X_LOG:
        return da / a;
    case HDO_X_SQRT:
        return da / (2 * v[n]);
    case HDO_X_SINH:
        return cosh(a) * da;
    case HDO_X_COSH:
        return sinh(a) * da;
    case HDO_X_TANH:
        return (1 - v[n] * v[n]) * da;
    case HDO_X_GE: /* conditions are piecewise constant */
    case HDO_X_GT:
    case HDO_X_NOT:
    case HDO_X_AND:
    case HDO_X_OR:
    case HDO_X_ELSE:
        return 0;
    case HDO_X_IF: {
        const hdo_expr_node *br = hdo_expr_node_get(p->pool, nd->b);
        return a != 0 ? dv[br->a] : dv[br->b];
    }
    }
    return 0;
}

void
deval_eval_dual(double *out, double *dout, deval_t p, double t, double dt,
                const double *vtab, const double *dvtab)
{
    deval_eval(out, p, t, vtab);
    for (slong i = 0; i < p->ncode; i++) {
        int32_t n = p->code[i];
        const hdo_expr_node *nd = hdo_expr_node_get(p->pool, n);
        if (nd->kind == HDO_X_TIME)
            p->dval[n] = dt;
        else if (nd->kind == HDO_X_VAR)
            p->dval[n] = dvtab[nd->b * p->nvars + nd->a];
        else if (nd->kind != HDO_X_CONST && nd->kind != HDO_X_PI)
            p->dval[n] = node_deriv(p, nd, n);
    }
    for (slong i = 0; i < p->nroots; i++)
        dout[i] = p->roots[i] >= 0 ? p->dval[p->roots[i]] : NAN;
}
