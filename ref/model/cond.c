/* cond.c -- version 2 piecewise expressions: `if C then A else B`, the
 * conditions C (relations joined by and, or, not) and abs, sign, min,
 * max (docs/model-format.md) */
#include <string.h>
#include "model/parser.h"

/* Contextual keywords, as for, in and sum: names to the lexer, so that a
   version-1 model with a variable named `then` keeps its meaning (the
   words act as keywords only where no declared name is meant). */
static int
is_word(const parser *P, slong tok, const char *w)
{
    return tok_is(P, tok, w) && lookup(P, tok) == NULL;
}

int
is_relop(int k)
{
    return k == HDO_TK_LT || k == HDO_TK_GT || k == HDO_TK_LE || k == HDO_TK_GE;
}

/* Whether the '(' at token tok opens a parenthesised condition rather
   than an expression: a comparison, `and`, `or` or `not` directly inside
   it, and no `if` there (whose own condition would hold the
   comparison). */
static int
opens_condition(const parser *P, slong tok)
{
    int depth = 0, cond = 0;
    slong inner = -1; /* a group directly inside: ((x > 0)) */
    for (slong i = tok;; i++) {
        int k = P->tk[i].kind;
        if (k == HDO_TK_EOF || is_eos(k))
            return 0;
        if (k == HDO_TK_LPAREN || k == HDO_TK_LBRACKET) {
            if (depth == 1 && i == tok + 1 && k == HDO_TK_LPAREN)
                inner = i;
            depth++;
        } else if (k == HDO_TK_RPAREN || k == HDO_TK_RBRACKET) {
            if (--depth == 0)
                return cond;
            /* the inner group closes right before the outer one: the
               outer is a condition when the inner is */
            if (depth == 1 && inner >= 0 && P->tk[i + 1].kind == HDO_TK_RPAREN)
                cond |= opens_condition(P, inner);
        } else if (depth == 1) {
            if (is_word(P, i, "if"))
                return 0;
            if (is_relop(k) || is_word(P, i, "and") || is_word(P, i, "or") ||
                is_word(P, i, "not"))
                cond = 1;
        }
    }
}

/* Records where the relation rel (a GE or GT node, or NOT of one) is
   written, at token tok, for the messages of a run that stops on it
   (hdo_mode.rel_pos). */
static int
note_relation(parser *P, hdo_expr rel, slong tok)
{
    hdo_model_struct *m = P->m;
    const hdo_expr_node *nd = hdo_expr_node_get(P->pool, rel);
    if (nd->kind == HDO_X_NOT)
        nd = hdo_expr_node_get(P->pool, nd->a);
    if (nd->kind != HDO_X_GE && nd->kind != HDO_X_GT)
        return 0;
    if (grow((void **)&m->relpos, &m->relpos_alloc, m->nrelpos + 1,
             sizeof *m->relpos))
        return nomem(P);
    m->relpos[m->nrelpos].d = nd->a;
    m->relpos[m->nrelpos].pos = tok_pos(P, tok);
    m->nrelpos++;
    return 0;
}

/* A relation a op b as the node D >= 0 or D > 0 (hdo_expr_rel); a
   constant one is decided exactly and folds to 1 or 0. */
static int
build_relation(hdo_expr *out, parser *P, int op, hdo_expr a, hdo_expr b,
               slong atok, slong optok, slong btok)
{
    hdo_expr d;
    int status, strict = op == HDO_TK_LT || op == HDO_TK_GT;
    /* a < b, a <= b: D = b - a; a > b, a >= b: D = a - b */
    if (op == HDO_TK_LT || op == HDO_TK_LE)
        status = build_binary(&d, P, HDO_X_SUB, b, a, optok, btok, atok);
    else
        status = build_binary(&d, P, HDO_X_SUB, a, b, optok, atok, btok);
    if (status != 0)
        return status;
    if ((P->cflag[d] & CF_CONST) && node_fmpq(P, d) == NULL) {
        int sign;
        if (hdo_expr_const_sign(&sign, P->pool, d) != 0)
            return perr(P, HDO_ERR_SEMANTIC, optok,
                        "the comparison of two constants cannot be decided "
                        "(their difference is undefined, or too close to 0 "
                        "to tell at 16384 bits)");
        *out =
            hdo_expr_const_si(P->pool, sign > 0 || (sign == 0 && !strict), 1);
    } else {
        *out = hdo_expr_rel(P->pool, strict, d);
        if ((status = note_relation(
                 P, *out, is_relop(P->tk[optok].kind) ? atok : optok)) != 0)
            return status;
    }
    return track(P, *out, optok);
}

static int parse_or(hdo_expr *out, parser *P);

/* not C | ( C ) | sum relop sum */
static int
parse_not(hdo_expr *out, parser *P)
{
    slong tok = P->p;
    int status;
    if (is_word(P, tok, "not")) {
        if ((status = enter(P, tok)) != 0)
            return status;
        P->p++;
        if ((status = parse_not(out, P)) != 0)
            return status;
        P->depth--;
        *out = hdo_expr_not(P->pool, *out);
        return track(P, *out, tok);
    }
    if (kind(P) == HDO_TK_LPAREN && opens_condition(P, tok))
        return parse_group(out, P, tok, parse_or);
    hdo_expr a, b;
    if ((status = parse_sum(&a, P)) != 0)
        return status;
    slong optok = P->p;
    int op = kind(P);
    if (op == HDO_TK_EQ || op == HDO_TK_EQEQ)
        return perr(P, HDO_ERR_SYNTAX, optok,
                    "%s is not a comparison: a condition compares with "
                    "'<', '>', '<=' or '>='",
                    found(P));
    if (!is_relop(op))
        return perr(P, HDO_ERR_SYNTAX, optok,
                    "expected a comparison ('<', '>', '<=' or '>=') in the "
                    "condition, found %s (a condition is a comparison, or "
                    "comparisons joined by and, or, not)",
                    found(P));
    P->p++;
    slong btok = P->p;
    if ((status = parse_sum(&b, P)) != 0)
        return status;
    if (is_relop(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "comparisons do not chain: write 'a < b and b < c'");
    return build_relation(out, P, op, a, b, tok, optok, btok);
}

static int
parse_and(hdo_expr *out, parser *P)
{
    int status;
    if ((status = parse_not(out, P)) != 0)
        return status;
    while (is_word(P, P->p, "and")) {
        slong tok = P->p++;
        hdo_expr b;
        if ((status = parse_not(&b, P)) != 0)
            return status;
        *out = hdo_expr_and(P->pool, *out, b);
        if ((status = track(P, *out, tok)) != 0)
            return status;
    }
    return 0;
}

static int
parse_or(hdo_expr *out, parser *P)
{
    int status;
    if ((status = parse_and(out, P)) != 0)
        return status;
    while (is_word(P, P->p, "or")) {
        slong tok = P->p++;
        hdo_expr b;
        if ((status = parse_and(&b, P)) != 0)
            return status;
        *out = hdo_expr_or(P->pool, *out, b);
        if ((status = track(P, *out, tok)) != 0)
            return status;
    }
    return 0;
}

int
starts_if(const parser *P, slong tok)
{
    return is_word(P, tok, "if");
}

/* if C then A else B: A and B extend as far as a sum does, so the else
   branch takes everything up to the end of the expression (as in
   Modelica); nest in the else branch for else-if chains. */
int
parse_if(hdo_expr *out, parser *P)
{
    slong tok = P->p;
    hdo_expr c, a, b;
    int status;
    if ((status = enter(P, tok)) != 0)
        return status;
    P->p++;
    if ((status = parse_or(&c, P)) != 0)
        return status;
    if (!is_word(P, P->p, "then"))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'then' after the condition of 'if', found %s",
                    found(P));
    P->p++;
    if ((status = parse_sum(&a, P)) != 0)
        return status;
    if (!is_word(P, P->p, "else"))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'else' in the 'if' expression, found %s (an "
                    "'if' expression needs both branches)",
                    found(P));
    P->p++;
    if ((status = parse_sum(&b, P)) != 0)
        return status;
    P->depth--;
    *out = hdo_expr_if(P->pool, c, a, b);
    return track(P, *out, tok);
}

int
is_piecewise_call(const parser *P, slong tok)
{
    return is_word(P, tok, "abs") || is_word(P, tok, "sign") ||
           is_word(P, tok, "min") || is_word(P, tok, "max");
}

/* abs(x), sign(x), min(a, b), max(a, b) */
int
parse_piecewise_call(hdo_expr *out, parser *P)
{
    slong ftok = P->p, argtok[2] = {0, 0};
    int two = tok_is(P, ftok, "min") || tok_is(P, ftok, "max"), nargs = 0;
    hdo_expr arg[2] = {HDO_EXPR_NONE, HDO_EXPR_NONE};
    int status;
    char fname[8];
    snprintf(fname, sizeof fname, "%.*s", (int)P->tk[ftok].len,
             P->lx->src + P->tk[ftok].off);
    P->p++; /* the caller saw the '(' */
    if ((status = enter(P, P->p)) != 0)
        return status;
    P->p++;
    if ((status = parse_arguments(arg, argtok, 2, &nargs, P, ftok, fname)) != 0)
        return status;
    if (nargs != 1 + two)
        return perr(P, HDO_ERR_SEMANTIC, ftok,
                    "%s takes %d argument%s, found %d", fname, 1 + two,
                    two ? "s" : "", nargs);
    if (tok_is(P, ftok, "abs") || tok_is(P, ftok, "sign")) {
        /* the relation x >= 0 (x > 0 and x < 0 for sign) */
        hdo_expr zero = hdo_expr_const_si(P->pool, 0, 1), c, c2;
        int st;
        if ((st = build_relation(
                 &c, P, tok_is(P, ftok, "abs") ? HDO_TK_GE : HDO_TK_GT, arg[0],
                 zero, argtok[0], ftok, argtok[0])) != 0)
            return st;
        if (tok_is(P, ftok, "abs")) {
            hdo_expr neg = hdo_expr_neg(P->pool, arg[0]);
            if ((st = track(P, neg, ftok)) != 0)
                return st;
            *out = hdo_expr_if(P->pool, c, arg[0], neg);
        } else {
            if ((st = build_relation(&c2, P, HDO_TK_LT, arg[0], zero, argtok[0],
                                     ftok, argtok[0])) != 0)
                return st;
            hdo_expr inner = hdo_expr_if(
                P->pool, c2, hdo_expr_const_si(P->pool, -1, 1), zero);
            if ((st = track(P, inner, ftok)) != 0)
                return st;
            *out = hdo_expr_if(P->pool, c, hdo_expr_const_si(P->pool, 1, 1),
                               inner);
        }
    } else {
        hdo_expr c;
        /* min: a <= b; max: a >= b */
        if ((status = build_relation(
                 &c, P, tok_is(P, ftok, "min") ? HDO_TK_LE : HDO_TK_GE, arg[0],
                 arg[1], argtok[0], ftok, argtok[1])) != 0)
            return status;
        *out = hdo_expr_if(P->pool, c, arg[0], arg[1]);
    }
    return track(P, *out, ftok);
}
