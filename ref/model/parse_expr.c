/* parse_expr.c -- the expressions of the model language: sums, products,
   powers, calls, der(), names and array elements, `sum` over a range,
   and the piecewise expressions (`if C then A else B` with its conditions,
   abs, sign, min, max).  One file because the grammar recurses through
   all of it; the levels below it are parse_build.c and parse_base.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include "model/parser.h"

/* ------------------------------------------------------------------ */
/* Expressions */

/* The arguments of a call, "expr { , expr } )", from the current token
   (just past the '(', whose nesting level enter() opened) to the ')',
   which closes that level: all are parsed, *nargs counts them, and the
   first keep are stored in arg (their first tokens in argtok, unless
   NULL).  A missing ')' is reported with the function's name fname, or
   the text of token ftok when fname is NULL. */
int
parse_arguments(hdo_expr *arg, slong *argtok, int keep, int *nargs, parser *P,
                slong ftok, const char *fname)
{
    int status;
    hdo_expr x;
    *nargs = 0;
    if (kind(P) != HDO_TK_RPAREN) {
        for (;;) {
            slong at = P->p;
            if ((status = parse_sum(&x, P)) != 0)
                return status;
            if (*nargs < keep) {
                arg[*nargs] = x;
                if (argtok != NULL)
                    argtok[*nargs] = at;
            }
            (*nargs)++;
            if (kind(P) != HDO_TK_COMMA)
                break;
            P->p++;
        }
    }
    if (kind(P) != HDO_TK_RPAREN)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ')' to close the arguments of %s, found %s",
                    fname != NULL ? fname : describe(P, ftok), found(P));
    P->p++;
    P->depth--;
    return 0;
}

/* A parenthesised group "( inner )" whose '(' is token tok, the current
   one: one more level of nesting, the inside parsed by parse_inner into
   *out, and a missing ')' reported with the place of its '('. */
int
parse_group(hdo_expr *out, parser *P, slong tok,
            int (*parse_inner)(hdo_expr *, parser *))
{
    int status;
    if ((status = enter(P, tok)) != 0)
        return status;
    P->p++;
    if ((status = parse_inner(out, P)) != 0)
        return status;
    if (kind(P) != HDO_TK_RPAREN) {
        hdo_srcpos open = tok_pos(P, tok);
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ')' to close the '(' at %d:%d, found %s",
                    open.line, open.col, found(P));
    }
    P->p++;
    P->depth--;
    return 0;
}

static int
record_ref(parser *P, slong var, slong tok)
{
    if (!P->record)
        return 0;
    GROW(P, P->refs, P->refs_alloc, P->nrefs + 1);
    P->refs[P->nrefs].var = var;
    P->refs[P->nrefs].tok = tok;
    P->refs[P->nrefs].kind = P->record;
    P->nrefs++;
    return 0;
}

static int
parse_number(hdo_expr *out, parser *P)
{
    slong tok = P->p;
    const hdo_token *t = P->tk + tok;
    fmpq_t q;
    int status;
    fmpq_init(q);
    status = hdo_parse_decimal(q, P->lx->src + t->off, t->len);
    if (status == 0)
        *out = hdo_expr_const_fmpq(P->pool, q);
    fmpq_clear(q);
    if (status == HDO_ERR_UNSUPPORTED)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "number %s too large for exact arithmetic (more than %d "
                    "digits, or an exponent beyond %d)",
                    found(P), HDO_MODEL_MAX_DIGITS, HDO_MODEL_MAX_EXPONENT);
    if (status == HDO_ERR_MEMORY)
        return nomem(P);
    HDO_ASSERT(status == 0); /* the lexer only passes well-formed numbers */
    P->p++;
    return build_leaf(P, *out, tok);
}

/* der ( NAME ) with NAME a variable: the derivative is VAR(i, 1). */
static int
parse_der(hdo_expr *out, parser *P)
{
    slong tok = P->p, ntok, var;
    hdo_name_entry *e;
    int status;
    if (P->ctx != NULL)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "der() cannot appear in %s, which must be constant",
                    P->ctx);
    if (P->no_der != NULL)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "der() cannot appear in %s: it is evaluated on the "
                    "state, not on derivatives",
                    P->no_der);
    P->p++;
    if (kind(P) != HDO_TK_LPAREN)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected '(' after 'der', found %s", found(P));
    P->p++;
    ntok = P->p;
    if (kind(P) == HDO_TK_DER)
        return perr(P, HDO_ERR_SYNTAX, ntok,
                    "der() takes a variable name, found 'der': der(der(x)) "
                    "is not allowed; declare a variable for der(x)");
    if (kind(P) == HDO_TK_T)
        return perr(P, HDO_ERR_SEMANTIC, ntok,
                    "der() takes a variable, found time 't'");
    if (kind(P) != HDO_TK_NAME)
        return perr(P, HDO_ERR_SYNTAX, ntok,
                    "der() takes a variable name, found %s", found(P));
    if (starts_if(P, ntok) ||
        (P->tk[ntok + 1].kind == HDO_TK_LPAREN && is_piecewise_call(P, ntok)))
        return perr(P, HDO_ERR_SEMANTIC, ntok,
                    "der() takes a variable name, found the piecewise "
                    "expression %s: a relation (if, abs, sign, min, max) "
                    "cannot be inside der(); declare a variable for it",
                    found(P));
    e = lookup(P, ntok);
    if (e == NULL)
        return perr(P, HDO_ERR_SEMANTIC, ntok, "unknown variable %s in der()",
                    found(P));
    if (e->kind != HDO_NAME_VAR && e->kind != HDO_NAME_ARRAY)
        return perr(P, HDO_ERR_SEMANTIC, ntok,
                    "der() takes a variable, found %s, which is %s", found(P),
                    name_kind_word(e->kind));
    if ((status = parse_var_ref(&var, P)) != 0)
        return status;
    if (kind(P) != HDO_TK_RPAREN)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ')' after the variable in der(), found %s "
                    "(der() takes a variable name, not an expression)",
                    found(P));
    P->p++;
    *out = hdo_expr_var(P->pool, var, 1);
    return build_leaf(P, *out, ntok);
}

/* A function call: NAME ( expr { , expr } ), the function and its arity
   from the table of expression kinds.  All arguments are parsed first,
   so that the arity error names the count the user wrote. */
static int
parse_call(hdo_expr *out, parser *P)
{
    slong ftok = P->p;
    const hdo_token *ft = P->tk + ftok;
    int fk = hdo_expr_kind_lookup(P->lx->src + ft->off, ft->len), nargs = 0,
        status;
    hdo_expr arg = HDO_EXPR_NONE;
    slong argtok = ftok + 2;
    HDO_ASSERT(fk >= 0);
    P->p++;
    if (kind(P) != HDO_TK_LPAREN)
        return perr(P, HDO_ERR_SYNTAX, P->p, "expected '(' after %s, found %s",
                    describe(P, ftok), found(P));
    if ((status = enter(P, P->p)) != 0)
        return status;
    P->p++;
    if ((status = parse_arguments(&arg, NULL, 1, &nargs, P, ftok, NULL)) != 0)
        return status;
    int arity = hdo_expr_kind_arity((hdo_expr_kind)fk);
    if (nargs != arity)
        return perr(P, HDO_ERR_SEMANTIC, ftok,
                    "%s takes %d argument%s, found %d", describe(P, ftok),
                    arity, arity == 1 ? "" : "s", nargs);
    HDO_ASSERT(arity == 1); /* binary builtins: build_binary, once one exists */
    return build_unary(out, P, (hdo_expr_kind)fk, arg, ftok, argtok);
}

/* Writes the builtin functions of the kind table, in its order,
   separated by blanks ("sin cos ... tanh"), into list, for the message on
   an unknown function; returns list. */
static const char *
function_list(char *list, size_t size)
{
    size_t n = 0;
    list[0] = '\0';
    for (int k = 0; k < HDO_X_NKINDS; k++) {
        const hdo_expr_kind_info *row = hdo_expr_kind_table + k;
        size_t len = strlen(row->name);
        if (row->syntax != HDO_SYNTAX_CALL)
            continue;
        HDO_ASSERT(n + len + 2 < size);
        if (n > 0)
            list[n++] = ' ';
        memcpy(list + n, row->name, len + 1);
        n += len;
    }
    return list;
}

static int
parse_name(hdo_expr *out, parser *P)
{
    slong tok = P->p, loop = find_loop(P, tok), var;
    hdo_name_entry *e;
    int call = P->tk[tok + 1].kind == HDO_TK_LPAREN, status;
    char list[512];
    if (loop >= 0) {
        P->p++;
        *out = hdo_expr_const_si(P->pool, P->loops[loop].value, 1);
        return build_leaf(P, *out, tok);
    }
    if (call && tok_is(P, tok, "sum") && P->tk[tok + 2].kind == HDO_TK_NAME &&
        tok_is(P, tok + 3, "in"))
        return parse_sum_of(out, P);
    if (starts_if(P, tok))
        return parse_if(out, P);
    if (call && is_piecewise_call(P, tok))
        return parse_piecewise_call(out, P);
    e = lookup(P, tok);
    if (e == NULL) {
        if (call)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "unknown function %s (the functions are %s, and "
                        "sum(i in A..B, expr), abs(x), sign(x), min(a, b), "
                        "max(a, b))",
                        found(P), function_list(list, sizeof list));
        return perr(P, HDO_ERR_SEMANTIC, tok, "unknown name %s", found(P));
    }
    if (call)
        return perr(P, HDO_ERR_SEMANTIC, tok, "%s is %s, not a function",
                    found(P), name_kind_word(e->kind));
    switch (e->kind) {
    case HDO_NAME_PARAM:
        if (!e->defined) {
            if (e->tok == P->param_tok)
                return perr(P, HDO_ERR_SEMANTIC, tok,
                            "parameter %s is defined in terms of itself",
                            found(P));
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "parameter %s is used before its declaration (a "
                        "parameter may only use earlier parameters)",
                        found(P));
        }
        *out = P->m->params[e->index].value;
        break;
    case HDO_NAME_VAR:
    case HDO_NAME_ARRAY:
        if (P->ctx != NULL)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "%s is a variable, but %s must be constant "
                        "(numbers, pi and parameters)",
                        found(P), P->ctx);
        if ((status = parse_var_ref(&var, P)) != 0)
            return status;
        if (record_ref(P, var, tok) != 0)
            return HDO_ERR_MEMORY;
        *out = hdo_expr_var(P->pool, var, 0);
        return build_leaf(P, *out, tok);
    default:
        return perr(P, HDO_ERR_SEMANTIC, tok, "%s is a mode, not a value",
                    found(P));
    }
    P->p++;
    return build_leaf(P, *out, tok);
}

static int
parse_primary(hdo_expr *out, parser *P)
{
    slong tok = P->p;
    int k = kind(P);
    if (k == HDO_TK_NUMBER)
        return parse_number(out, P);
    if (k == HDO_TK_NAME)
        return parse_name(out, P);
    if (HDO_TK_IS_FUNCTION(k))
        return parse_call(out, P);
    if (k == HDO_TK_DER)
        return parse_der(out, P);
    if (k == HDO_TK_PI) {
        P->p++;
        *out = hdo_expr_pi(P->pool);
        return build_leaf(P, *out, tok);
    }
    if (k == HDO_TK_T) {
        if (P->ctx != NULL)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "time 't' cannot appear in %s, which must be "
                        "constant",
                        P->ctx);
        P->p++;
        *out = hdo_expr_time(P->pool);
        return build_leaf(P, *out, tok);
    }
    if (k == HDO_TK_LPAREN)
        return parse_group(out, P, tok,
                           hdo_model_p_parse_sum); /* parse_sum: a macro */
    return perr(P, HDO_ERR_SYNTAX, tok, "expected an expression, found %s",
                found(P));
}

/* unary = { "-" | "+" } primary [ "^" unary ]: the signs apply to the
   power, so -x^2 is -(x^2), and the exponent may carry its own sign
   (2^-1).  Signs are counted in a loop, not by recursion, but each one
   counts as a level of nesting. */
static int
parse_unary(hdo_expr *out, parser *P)
{
    int nsigns = 0, nneg = 0, status;
    slong sign_tok = P->p;
    hdo_expr base, expo;
    while (kind(P) == HDO_TK_MINUS || kind(P) == HDO_TK_PLUS) {
        nneg += kind(P) == HDO_TK_MINUS;
        nsigns++;
        if ((status = enter(P, P->p)) != 0)
            return status;
        P->p++;
    }
    slong base_tok = P->p;
    if ((status = parse_primary(&base, P)) != 0)
        return status;
    if (kind(P) == HDO_TK_CARET) {
        slong optok = P->p++;
        if ((status = enter(P, optok)) != 0 ||
            (status = parse_unary(&expo, P)) != 0)
            return status;
        P->depth--;
        if ((status = build_binary(&base, P, HDO_X_POW, base, expo, optok,
                                   base_tok, optok + 1)))
            return status;
    }
    P->depth -= nsigns;
    for (; nneg > 0; nneg--)
        if ((status = build_unary(&base, P, HDO_X_NEG, base, sign_tok,
                                  base_tok)) != 0)
            return status;
    *out = base;
    return 0;
}

static int
parse_product(hdo_expr *out, parser *P)
{
    hdo_expr a, b;
    int status;
    slong atok = P->p;
    if ((status = parse_unary(&a, P)) != 0)
        return status;
    while (kind(P) == HDO_TK_STAR || kind(P) == HDO_TK_SLASH) {
        slong optok = P->p++;
        hdo_expr_kind k =
            P->tk[optok].kind == HDO_TK_STAR ? HDO_X_MUL : HDO_X_DIV;
        if ((status = parse_unary(&b, P)) != 0 ||
            (status = build_binary(&a, P, k, a, b, optok, atok, optok + 1)) !=
                0)
            return status;
    }
    *out = a;
    return 0;
}

int
parse_sum(hdo_expr *out, parser *P)
{
    hdo_expr a, b;
    int status;
    slong atok = P->p;
    if ((status = parse_product(&a, P)) != 0)
        return status;
    while (kind(P) == HDO_TK_PLUS || kind(P) == HDO_TK_MINUS) {
        slong optok = P->p++;
        hdo_expr_kind k =
            P->tk[optok].kind == HDO_TK_PLUS ? HDO_X_ADD : HDO_X_SUB;
        if ((status = parse_product(&b, P)) != 0 ||
            (status = build_binary(&a, P, k, a, b, optok, atok, optok + 1)) !=
                0)
            return status;
    }
    *out = a;
    return 0;
}

/* Parses an expression that must be constant (what says what it is, for
   messages) and checks it for division by zero and domain errors. */
int
parse_constant(hdo_expr *out, parser *P, const char *what)
{
    slong tok = P->p;
    const char *outer = P->ctx; /* a range bound inside a start value */
    int status;
    P->ctx = what;
    status = parse_sum(out, P);
    P->ctx = outer;
    if (status != 0)
        return status;
    P->ctx = what;
    status = check_root(P, *out, tok);
    P->ctx = outer;
    return status;
}

/* ------------------------------------------------------------------ */
/* Piecewise expressions: `if C then A else B`, the conditions C
   (relations joined by and, or, not) and abs, sign, min, max
   (docs/model-format.md) */

/* Contextual keywords, as for, in and sum: names to the lexer, so that a
   version-1 model with a variable named `then` keeps its meaning (the
   words act as keywords only where no declared name is meant). */
static int
is_word(const parser *P, slong tok, const char *w)
{
    return tok_is(P, tok, w) && lookup(P, tok) == NULL;
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

/* ------------------------------------------------------------------ */
/* Version 2: integer ranges, array elements with checked indices, and
   `sum` over a range (docs/model-format.md, "Arrays") */

/* Parses a constant expression that must be an exact integer into *v;
   what names it for messages. */
static int
parse_int(slong *v, parser *P, const char *what)
{
    slong tok = P->p;
    hdo_expr e;
    const fmpq *q;
    int status;
    if ((status = parse_constant(&e, P, what)) != 0)
        return status;
    q = node_fmpq(P, e);
    if (q == NULL || !fmpz_is_one(fmpq_denref(q)) ||
        !fmpz_fits_si(fmpq_numref(q)) || fmpz_bits(fmpq_numref(q)) > 40) {
        char *text = slice_strdup(P, tok, P->p - 1);
        status = perr(P, HDO_ERR_SEMANTIC, tok,
                      "%s must be an exact integer, found '%s'", what,
                      text ? text : "?");
        free(text);
        return status;
    }
    *v = fmpz_get_si(fmpq_numref(q));
    return 0;
}

/* A .. B with integer constants A <= B, at most HDO_MODEL_MAX_ARRAY
   apart; what names the range for messages. */
int
parse_range(slong *lo, slong *hi, parser *P, const char *what)
{
    slong tok = P->p;
    int status;
    if ((status = parse_int(lo, P, "a range bound")) != 0)
        return status;
    if (kind(P) != HDO_TK_DOTDOT)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected '..' in the range of %s, found %s", what,
                    found(P));
    P->p++;
    if ((status = parse_int(hi, P, "a range bound")) != 0)
        return status;
    if (*hi < *lo)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "empty range %ld..%ld in %s (the upper bound must not be "
                    "below the lower one)",
                    (long)*lo, (long)*hi, what);
    if (*hi - *lo >= HDO_MODEL_MAX_ARRAY)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "range %ld..%ld in %s too long (more than %d elements)",
                    (long)*lo, (long)*hi, what, HDO_MODEL_MAX_ARRAY);
    return 0;
}

/* [ index ] after the name of array entry e, at token P->p - 1. */
static int
parse_index(slong *var, parser *P, const hdo_array *a, slong ntok)
{
    slong itok, k;
    int status;
    if (kind(P) != HDO_TK_LBRACKET)
        return perr(P, HDO_ERR_SEMANTIC, ntok,
                    "%s is an array: write an element, such as %s[%ld]",
                    describe(P, ntok), a->name, (long)a->lo);
    P->p++;
    itok = P->p;
    if ((status = parse_int(&k, P, "an array index")) != 0)
        return status;
    if (kind(P) != HDO_TK_RBRACKET)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ']' after the index of %s, found %s",
                    describe(P, ntok), found(P));
    P->p++;
    if (k < a->lo || k > a->hi)
        return perr(P, HDO_ERR_SEMANTIC, itok,
                    "index %ld out of range: %s is declared as %s[%ld..%ld]",
                    (long)k, describe(P, ntok), a->name, (long)a->lo,
                    (long)a->hi);
    *var = a->first + (k - a->lo);
    return 0;
}

/* A variable at the name token P->p: NAME, or NAME [ index ] for an
   array.  Sets *var to its index in model->vars. */
int
parse_var_ref(slong *var, parser *P)
{
    slong tok = P->p;
    hdo_name_entry *e = lookup(P, tok);
    HDO_ASSERT(e != NULL);
    P->p++;
    if (e->kind == HDO_NAME_ARRAY)
        return parse_index(var, P, P->m->arrays + e->index, tok);
    HDO_ASSERT(e->kind == HDO_NAME_VAR);
    if (kind(P) == HDO_TK_LBRACKET)
        return perr(P, HDO_ERR_SEMANTIC, P->p,
                    "%s is not an array, so it takes no index",
                    describe(P, tok));
    *var = e->index;
    return 0;
}

/* sum ( i in A .. B , expr ): the terms in index order, added as a
   balanced tree ((t1 + t2) + (t3 + t4)) ..., so that a sum of many terms
   stays within the height limit of expressions.  The body is parsed once
   per index value. */
int
parse_sum_of(hdo_expr *out, parser *P)
{
    slong stok = P->p, lo, hi, body, v, n = 0, i;
    hdo_expr *terms = NULL;
    int status;
    if ((status = enter(P, stok + 1)) != 0)
        return status;
    if ((status = push_loop(P, stok + 2, "a loop variable after 'sum('")))
        return status;
    slong rtok = P->p;
    if ((status = parse_range(&lo, &hi, P, "'sum'")) != 0)
        return status;
    loop_range(P, rtok, lo, hi);
    if (kind(P) != HDO_TK_COMMA)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ',' and the summand after the range of 'sum', "
                    "found %s",
                    found(P));
    body = ++P->p;
    if ((terms = malloc((size_t)(hi - lo + 1) * sizeof *terms)) == NULL)
        return nomem(P);
    for (v = lo; v <= hi && status == 0; v++) {
        P->loops[P->nloops - 1].value = v;
        P->p = body;
        if ((status = count_iteration(P, stok)) == 0)
            status = parse_sum(terms + n++, P);
        if (status == 0 && v == lo)
            status = loop_bound(P, stok);
    }
    /* pairs of neighbours, until one term is left */
    while (n > 1 && status == 0) {
        for (i = 0; 2 * i + 1 < n && status == 0; i++)
            status = build_binary(terms + i, P, HDO_X_ADD, terms[2 * i],
                                  terms[2 * i + 1], stok, body, body);
        if (n % 2 == 1)
            terms[i] = terms[n - 1];
        n = (n + 1) / 2;
    }
    if (status == 0)
        *out = terms[0];
    free(terms);
    if (status != 0)
        return status;
    P->nloops--;
    if (kind(P) != HDO_TK_RPAREN)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ')' to close 'sum(' at %d:%d, found %s",
                    tok_pos(P, stok).line, tok_pos(P, stok).col, found(P));
    P->p++;
    P->depth--;
    return 0;
}
