/* parse_perp.c -- a complementarity condition `0 <= A perp B >= 0
 * [restitution e]` in the body of a mode (docs/model-format.md,
 * "Complementarity"): the equation level of the parser */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpq.h>
#include "model/parser.h"

/* Whether the statement at token tok is a complementarity condition: it
   holds the word `perp` (a contextual keyword, as `for` and `sum`: a
   declared name `perp` keeps its meaning), or starts with `0 <=`, which
   no equation can.  Every such line goes to parse_perp, whose messages
   say how a condition is written. */
int
is_perp_statement(const parser *P, slong tok)
{
    if (P->tk[tok].kind == HDO_TK_NUMBER && P->tk[tok + 1].kind == HDO_TK_LE)
        return 1;
    for (slong k = tok; !is_eos(P->tk[k].kind) && P->tk[k].kind != HDO_TK_EOF;
         k++)
        if (P->tk[k].kind == HDO_TK_NAME && tok_is(P, k, "perp") &&
            lookup(P, k) == NULL)
            return 1;
    return 0;
}

/* Whether token tok is the number 0 (0, 0.0, 0e5). */
static int
is_zero_literal(const parser *P, slong tok)
{
    if (P->tk[tok].kind != HDO_TK_NUMBER)
        return 0;
    fmpq_t q;
    fmpq_init(q);
    int zero = hdo_parse_decimal(q, P->lx->src + P->tk[tok].off,
                                 P->tk[tok].len) == 0 &&
               fmpq_is_zero(q);
    fmpq_clear(q);
    return zero;
}

static void
note_var(slong var, slong order, void *data)
{
    (void)var;
    (void)order;
    *(int *)data = 1;
}

/* 1 when b is c*A for a constant c (A itself, -A, 2*A, A/3): the
   condition then says A = 0 and nothing else. */
static int
is_multiple_of(const hdo_expr_pool_struct *pool, hdo_expr b, slong var)
{
    for (;;) {
        const hdo_expr_node *n = hdo_expr_node_get(pool, b);
        if (n->kind == HDO_X_VAR)
            return n->a == var && n->b == 0;
        if (n->kind == HDO_X_NEG) {
            b = n->a;
        } else if (n->kind == HDO_X_MUL || n->kind == HDO_X_DIV) {
            if (hdo_expr_is_constant(pool, n->b))
                b = n->a;
            else if (n->kind == HDO_X_MUL && hdo_expr_is_constant(pool, n->a))
                b = n->b;
            else
                return 0;
        } else {
            return 0;
        }
    }
}

int
parse_perp(parser *P, hdo_mode *mode)
{
    slong first = P->p, atok, btok, var;
    int status;
    if (!is_zero_literal(P, P->p) || P->tk[P->p + 1].kind != HDO_TK_LE)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "a complementarity condition is written '0 <= A perp B "
                    ">= 0' (A a variable, B an expression), found %s at its "
                    "start",
                    found(P));
    P->p += 2;
    atok = P->p;
    hdo_name_entry *e = kind(P) == HDO_TK_NAME ? lookup(P, P->p) : NULL;
    if (e == NULL || (e->kind != HDO_NAME_VAR && e->kind != HDO_NAME_ARRAY))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected a variable after '0 <=' in a complementarity "
                    "condition, found %s (A in '0 <= A perp B >= 0' is a "
                    "variable: name an expression with an equation a = ...)",
                    found(P));
    if ((status = parse_var_ref(&var, P)) != 0)
        return status;
    if (!(kind(P) == HDO_TK_NAME && tok_is(P, P->p, "perp")))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'perp' after %s in the complementarity "
                    "condition, found %s (A in '0 <= A perp B >= 0' is a "
                    "variable)",
                    describe(P, atok), found(P));
    P->p++;
    btok = P->p;
    hdo_expr b = HDO_EXPR_NONE;
    P->no_der = "a complementarity condition (its inequality is a guard)";
    status = parse_sum(&b, P);
    P->no_der = NULL;
    if (status != 0 || (status = check_root(P, b, btok)) != 0)
        return status;
    slong blast = P->p - 1;
    if (kind(P) != HDO_TK_GE)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected '>= 0' after the expression in the "
                    "complementarity condition, found %s",
                    found(P));
    P->p++;
    if (!is_zero_literal(P, P->p))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 0 after '>=' in the complementarity condition "
                    "(write B >= 0 with the bound in B), found %s",
                    found(P));
    P->p++;
    slong last = P->p - 1;
    hdo_expr rest = HDO_EXPR_NONE;
    hdo_srcpos rpos = {0, 0};
    if (kind(P) == HDO_TK_NAME && tok_is(P, P->p, "restitution")) {
        slong rtok = ++P->p;
        rpos = tok_pos(P, rtok);
        if ((status = parse_constant(&rest, P, "a restitution coefficient")))
            return status;
        last = P->p - 1;
        int lo = 0, hi = 0;
        hdo_expr one = hdo_expr_const_si(P->pool, 1, 1);
        if (hdo_expr_const_sign(&lo, P->pool, rest) != 0 ||
            hdo_expr_const_sign(&hi, P->pool, hdo_expr_sub(P->pool, one, rest)))
            return perr(P, HDO_ERR_SEMANTIC, rtok,
                        "the restitution coefficient cannot be decided");
        if (lo < 0 || hi < 0)
            return perr(P, HDO_ERR_SEMANTIC, rtok,
                        "the restitution coefficient must lie in [0, 1]");
    }
    if (!is_eos(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected end of line after the complementarity "
                    "condition, found %s",
                    found(P));
    /* what makes a condition degenerate, at its place */
    int hasvar = 0;
    hdo_expr_foreach_var(P->pool, b, note_var, &hasvar);
    if (!hasvar)
        return perr(P, HDO_ERR_SEMANTIC, btok,
                    "degenerate complementarity condition: B has no "
                    "variable, so the condition cannot switch (B in '0 <= A "
                    "perp B >= 0' must depend on the mode's variables)");
    if (is_multiple_of(P->pool, b, var))
        return perr(P, HDO_ERR_SEMANTIC, first,
                    "degenerate complementarity condition: B is a constant "
                    "multiple of A = '%s', so the condition only says %s = 0",
                    P->m->vars[var].name, P->m->vars[var].name);
    if (hdo_expr_has_relation(P->pool, b))
        return perr(P, HDO_ERR_UNSUPPORTED, btok,
                    "a piecewise expression (if, abs, sign, min, max) inside "
                    "a complementarity condition is not supported: name it "
                    "with an equation");
    for (slong i = 0; i < mode->nperp; i++)
        if (mode->perp[i].var == var)
            return perr(P, HDO_ERR_SEMANTIC, atok,
                        "'%s' is already the left side of the complementarity "
                        "condition at line %d of mode '%s' (each condition "
                        "needs its own variable)",
                        P->m->vars[var].name, mode->perp[i].pos.line,
                        mode->name);
    if (mode->nperp >= HDO_MODEL_MAX_PERP)
        return perr(P, HDO_ERR_UNSUPPORTED, first,
                    "mode '%s' has more than %d complementarity conditions: "
                    "each active set is a mode (2^%d of them)",
                    mode->name, HDO_MODEL_MAX_PERP, HDO_MODEL_MAX_PERP);
    hdo_perp *np = realloc(mode->perp, (mode->nperp + 1) * sizeof *np);
    if (np == NULL)
        return nomem(P);
    mode->perp = np;
    hdo_perp *c = mode->perp + mode->nperp++;
    memset(c, 0, sizeof *c);
    c->var = var;
    c->b = b;
    c->pos = tok_pos(P, first);
    c->apos = tok_pos(P, atok);
    c->bpos = tok_pos(P, btok);
    c->restitution = rest;
    c->rpos = rpos;
    c->text = slice_strdup(P, first, last);
    c->atext = slice_strdup(P, atok, btok - 2);
    c->btext = slice_strdup(P, btok, blast);
    if (c->text == NULL || c->atext == NULL || c->btext == NULL)
        return nomem(P);
    if (P->nloops > 0 && (status = append_loop_values(P, &c->text)) != 0)
        return status;
    return expect_eos(P, "the complementarity condition");
}

int
check_perp(parser *P, const hdo_mode *mode)
{
    for (slong i = 0; i < mode->nperp; i++) {
        const hdo_perp *c = mode->perp + i;
        for (slong k = 0; k < mode->neqs; k++)
            if (hdo_expr_max_order(P->pool, mode->eqs[k].residual, c->var) >
                0) {
                hdo_error_set(P->err, HDO_ERR_SEMANTIC, c->apos.line,
                              c->apos.col,
                              "'%s' is differentiated in mode '%s' (der(%s) in "
                              "the equation at line %d): the left side of a "
                              "complementarity condition must be an algebraic "
                              "variable",
                              P->m->vars[c->var].name, mode->name,
                              P->m->vars[c->var].name, mode->eqs[k].pos.line);
                return HDO_ERR_SEMANTIC;
            }
    }
    return 0;
}
