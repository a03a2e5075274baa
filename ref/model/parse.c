/* parse.c -- the recursive-descent parser and the checks of .hdae models */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include "model.h"
#include "model/lex.h"
#include "model/names.h"
#include "model/parse.h"

/* Why four sweeps.  The format lets top-level statements come in any
   order, as a user of Modelica would expect (a mode may use a variable
   declared below it, a `when` may go to a mode defined further down),
   but a parameter may only use parameters declared before it, and an
   array's size may depend on parameters.  So:

     sweep 1 collects the names of all parameters, variables and modes
             (leniently: a malformed statement is skipped and reported
             by a later sweep);
     sweep 2 parses the parameters in file order, each seeing only the
             parameters before it, and applies the -p overrides;
     sweep 2b allocates the variables in file order, each array expanded
             into its elements once its bounds are known;
     sweep 3 parses everything else in file order, with every parameter
             value known.

   Statements are lines (or ';'-separated pieces of lines) in every
   sweep, so each sweep can find statement starts without the others.

   Version 2 (docs/model-format.md, decisions.md): arrays, `for` and
   `sum` are expanded here, by parsing a loop's body once per index value
   with the loop variable bound to an integer constant, so that nothing
   after the parser knows about them. */

/* Where a recorded variable reference was used. */
enum { REF_GUARD = 1, REF_RESET = 2 };

typedef struct {
    slong var, tok;
    int kind;
} var_ref;

typedef struct {
    hdo_model_struct *m;
    hdo_expr_pool_struct *pool;
    hdo_lexed_struct *lx;
    const hdo_token *tk;
    slong p; /* current token */
    hdo_error_t *err;
    hdo_names *names;

    int depth;       /* nesting of (, unary signs and ^ */
    int32_t *height; /* height of every pool node seen so far */
    slong nheight, height_alloc;

    /* What an expression may contain.  ctx != NULL: constant (numbers,
       pi, parameters) and ctx says what is being parsed, for messages;
       no_der != NULL: no der(), and it says where we are. */
    const char *ctx;
    const char *no_der;
    slong param_tok; /* name token of the parameter being parsed */

    int record; /* REF_* while parsing guards and resets */
    var_ref *refs;
    slong nrefs, refs_alloc;

    int32_t *stamp; /* per pool node, for walks over a mode */
    slong stamp_alloc;
    slong *var_mark; /* per variable: serial of the last mark */
    slong *var_tok;  /* per variable: token of that mark */
    slong serial;
    hdo_expr *stack;
    slong stack_alloc;

    /* The loop variables in scope (for, sum, var u[i in ..]), innermost
       last: a name token and its current integer value. */
    struct {
        slong tok, value;
    } * loops;
    slong nloops, loops_alloc;
    slong *decl_toks; /* name token of every first variable declaration */
    slong ndecl, decl_alloc;

    slong until_tok; /* first token of the until expression */
    slong params_alloc, vars_alloc, modes_alloc, arrays_alloc;

    char found[4][64]; /* describe() rotates, so two fit in one message */
    int nfound;
} parser;

/* ------------------------------------------------------------------ */
/* Errors and tokens */

static int perr(parser *P, int status, slong tok, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
perr(parser *P, int status, slong tok, const char *fmt, ...)
{
    char msg[sizeof P->err->message];
    int line, col;
    va_list ap;
    hdo_lex_pos(&line, &col, P->lx, P->tk[tok].off);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hdo_error_set(P->err, status, line, col, "%s", msg);
}

static int
nomem(parser *P)
{
    return hdo_error_set(P->err, HDO_ERR_MEMORY, 0, 0,
                         "out of memory while parsing the model");
}

static hdo_srcpos
tok_pos(const parser *P, slong tok)
{
    hdo_srcpos pos;
    hdo_lex_pos(&pos.line, &pos.col, P->lx, P->tk[tok].off);
    return pos;
}

static int
kind(const parser *P)
{
    return P->tk[P->p].kind;
}

static int
is_eos(int k)
{
    return k == HDO_TK_NEWLINE || k == HDO_TK_SEMI || k == HDO_TK_EOF;
}

/* How token tok is shown in "found ..." (quoted text for names and
   numbers, cut at 40 characters). */
static const char *
describe(parser *P, slong tok)
{
    const hdo_token *t = P->tk + tok;
    if (t->kind == HDO_TK_NAME || t->kind == HDO_TK_NUMBER) {
        int n = t->len > 40 ? 40 : (int)t->len;
        char *buf = P->found[P->nfound++ % 4];
        snprintf(buf, sizeof P->found[0], "'%.*s%s'", n, P->lx->src + t->off,
                 t->len > 40 ? "..." : "");
        return buf;
    }
    return hdo_token_kind_name(t->kind);
}

static const char *
found(parser *P)
{
    return describe(P, P->p);
}

/* The name of token tok as a NUL-terminated copy, or NULL. */
static char *
tok_strdup(const parser *P, slong tok)
{
    const hdo_token *t = P->tk + tok;
    char *s = malloc((size_t)t->len + 1);
    if (s != NULL) {
        memcpy(s, P->lx->src + t->off, t->len);
        s[t->len] = 0;
    }
    return s;
}

/* The source text from the start of token first to the end of token
   last, as a NUL-terminated copy, or NULL. */
static char *
slice_strdup(const parser *P, slong first, slong last)
{
    size_t a = P->tk[first].off, b = P->tk[last].off + P->tk[last].len;
    char *s = malloc(b - a + 1);
    if (s != NULL) {
        memcpy(s, P->lx->src + a, b - a);
        s[b - a] = 0;
    }
    return s;
}

static void
skip_statement(parser *P)
{
    while (!is_eos(kind(P)))
        P->p++;
}

static void
skip_terminators(parser *P)
{
    while (kind(P) == HDO_TK_NEWLINE || kind(P) == HDO_TK_SEMI)
        P->p++;
}

/* Consumes the end of a statement; what names the statement. */
static int
expect_eos(parser *P, const char *what)
{
    if (!is_eos(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected end of line after %s, found %s", what, found(P));
    if (kind(P) != HDO_TK_EOF)
        P->p++;
    return 0;
}

/* Checks that the current token is a name, for "expected <what>". */
static int
expect_name(parser *P, const char *what)
{
    if (kind(P) == HDO_TK_NAME)
        return 0;
    if (HDO_TK_IS_RESERVED(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected %s, found the reserved word %s, which cannot "
                    "be used as a name",
                    what, found(P));
    return perr(P, HDO_ERR_SYNTAX, P->p, "expected %s, found %s", what,
                found(P));
}

static hdo_name_entry *
lookup(const parser *P, slong tok)
{
    return hdo_names_find(P->names, P->lx->src + P->tk[tok].off,
                          P->tk[tok].len);
}

static const char *
name_kind_word(int k)
{
    return k == HDO_NAME_PARAM   ? "a parameter"
           : k == HDO_NAME_VAR   ? "a variable"
           : k == HDO_NAME_ARRAY ? "an array variable"
                                 : "a mode";
}

/* Whether token tok is the name word (the contextual keywords for, in
   and sum are names to the lexer, so that version-1 models that use
   them as names keep their meaning). */
static int
tok_is(const parser *P, slong tok, const char *word)
{
    const hdo_token *t = P->tk + tok;
    return t->kind == HDO_TK_NAME && t->len == strlen(word) &&
           memcmp(P->lx->src + t->off, word, t->len) == 0;
}

/* The innermost loop variable named like token tok, or -1. */
static slong
find_loop(const parser *P, slong tok)
{
    const hdo_token *t = P->tk + tok;
    for (slong i = P->nloops - 1; i >= 0; i--) {
        const hdo_token *u = P->tk + P->loops[i].tok;
        if (u->len == t->len &&
            memcmp(P->lx->src + u->off, P->lx->src + t->off, t->len) == 0)
            return i;
    }
    return -1;
}

/* The declaration at name token tok must be the first one of its name
   (sweep 1 recorded the first); otherwise it is a duplicate. */
static int
check_first_declaration(parser *P, slong tok, hdo_name_entry **entry)
{
    hdo_name_entry *e = lookup(P, tok);
    HDO_ASSERT(e != NULL);
    if (e->tok != tok) {
        hdo_srcpos first = tok_pos(P, e->tok);
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "duplicate name %s: already declared as %s at line %d",
                    describe(P, tok), name_kind_word(e->kind), first.line);
    }
    *entry = e;
    return 0;
}

static int
grow(void **ptr, slong *alloc, slong need, size_t size)
{
    if (need > *alloc) {
        slong n = *alloc ? *alloc : 8;
        void *q;
        while (n < need)
            n *= 2;
        q = realloc(*ptr, (size_t)n * size);
        if (q == NULL)
            return -1;
        *ptr = q;
        *alloc = n;
    }
    return 0;
}

#define GROW(P, arr, alloc, need)                                              \
    do {                                                                       \
        if (grow((void **)&(arr), &(alloc), (need), sizeof *(arr)) != 0)       \
            return nomem(P);                                                   \
    } while (0)

/* ------------------------------------------------------------------ */
/* Building expressions: every node goes through track(), which keeps
   the height of each pool node and the size of exact constants within
   the limits in model.h. */

static int
node_arity(hdo_expr_kind k)
{
    if (k == HDO_X_CONST || k == HDO_X_PI || k == HDO_X_TIME || k == HDO_X_VAR)
        return 0;
    if (k >= HDO_X_ADD && k <= HDO_X_POW)
        return 2;
    return 1;
}

static const fmpq *
node_fmpq(const parser *P, hdo_expr e)
{
    const hdo_expr_node *n = hdo_expr_node_get(P->pool, e);
    return n->kind == HDO_X_CONST ? P->pool->consts + n->a : NULL;
}

static int
track(parser *P, hdo_expr e, slong tok)
{
    slong len = P->pool->len, i;
    const fmpq *q;
    if (grow((void **)&P->height, &P->height_alloc, len, sizeof *P->height))
        return nomem(P);
    /* Nodes are appended after their children, so one pass in index
       order sees every child's height before its parent. */
    for (i = P->nheight; i < len; i++) {
        const hdo_expr_node *n = hdo_expr_node_get(P->pool, (hdo_expr)i);
        int32_t h = 0;
        int ar = node_arity(n->kind);
        if (ar >= 1)
            h = P->height[n->a];
        if (ar == 2 && P->height[n->b] > h)
            h = P->height[n->b];
        P->height[i] = h + 1;
    }
    P->nheight = len;
    if (P->height[e] > HDO_MODEL_MAX_DEPTH)
        return perr(P, HDO_ERR_SYNTAX, tok,
                    "expression too deep (more than %d nested operations; "
                    "split long sums with parentheses)",
                    HDO_MODEL_MAX_DEPTH);
    q = node_fmpq(P, e);
    if (q != NULL && (fmpz_bits(fmpq_numref(q)) > HDO_MODEL_MAX_CONST_BITS ||
                      fmpz_bits(fmpq_denref(q)) > HDO_MODEL_MAX_CONST_BITS))
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "exact constant too large (more than %d bits)",
                    HDO_MODEL_MAX_CONST_BITS);
    return 0;
}

static int
is_zero_const(const parser *P, hdo_expr e)
{
    const fmpq *q = node_fmpq(P, e);
    return q != NULL && fmpq_is_zero(q);
}

static int
build_binary(hdo_expr *out, parser *P, hdo_expr_kind k, hdo_expr a, hdo_expr b,
             slong tok)
{
    const fmpq *qa = node_fmpq(P, a), *qb = node_fmpq(P, b);
    if (k == HDO_X_DIV && is_zero_const(P, b))
        return perr(P, HDO_ERR_SEMANTIC, tok, "division by zero");
    if (k == HDO_X_POW && qa != NULL && qb != NULL) {
        if (fmpq_is_zero(qa) && fmpq_sgn(qb) < 0)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "zero raised to a negative power");
        /* Folding a^n exactly costs |n| times the size of a: refuse
           before computing what the size check in track() would refuse
           after.  (fmpz_get_d saturates, so a huge n is refused too.) */
        int trivial =
            fmpz_is_one(fmpq_denref(qa)) &&
            (fmpz_is_zero(fmpq_numref(qa)) || fmpz_is_pm1(fmpq_numref(qa)));
        if (fmpz_is_one(fmpq_denref(qb)) && !trivial) {
            double n = fmpz_get_d(fmpq_numref(qb));
            double bits = (double)FLINT_MAX(fmpz_bits(fmpq_numref(qa)),
                                            fmpz_bits(fmpq_denref(qa)));
            if ((n < 0 ? -n : n) * bits > (double)HDO_MODEL_MAX_CONST_BITS)
                return perr(P, HDO_ERR_SEMANTIC, tok,
                            "exact constant too large (more than %d bits)",
                            HDO_MODEL_MAX_CONST_BITS);
        }
    }
    *out = hdo_expr_binary(P->pool, k, a, b);
    return track(P, *out, tok);
}

static int
build_unary(hdo_expr *out, parser *P, hdo_expr_kind k, hdo_expr a, slong tok)
{
    *out = k == HDO_X_NEG ? hdo_expr_neg(P->pool, a)
                          : hdo_expr_unary(P->pool, k, a);
    return track(P, *out, tok);
}

static int
build_leaf(parser *P, hdo_expr e, slong tok)
{
    return track(P, e, tok);
}

/* ------------------------------------------------------------------ */
/* Expressions */

static int parse_sum(hdo_expr *out, parser *P);
static int parse_var_ref(slong *var, parser *P);
static int parse_sum_of(hdo_expr *out, parser *P);

/* One more level of nesting, opened by token tok. */
static int
enter(parser *P, slong tok)
{
    P->depth++;
    if (P->depth > HDO_MODEL_MAX_NESTING)
        return perr(P, HDO_ERR_SYNTAX, tok,
                    "expression nested too deeply (more than %d levels of "
                    "parentheses, signs and powers)",
                    HDO_MODEL_MAX_NESTING);
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

/* A function call: NAME ( expr { , expr } ), every function taking one
   argument.  All arguments are parsed first, so that the arity error
   names the count the user wrote. */
static int
parse_call(hdo_expr *out, parser *P)
{
    slong ftok = P->p;
    int fk = kind(P), nargs = 0, status;
    hdo_expr arg = HDO_EXPR_NONE, a;
    const char *fname = hdo_token_kind_name(fk);
    P->p++;
    if (kind(P) != HDO_TK_LPAREN)
        return perr(P, HDO_ERR_SYNTAX, P->p, "expected '(' after %s, found %s",
                    fname, found(P));
    if ((status = enter(P, P->p)) != 0)
        return status;
    P->p++;
    if (kind(P) != HDO_TK_RPAREN) {
        for (;;) {
            if ((status = parse_sum(&a, P)) != 0)
                return status;
            if (nargs++ == 0)
                arg = a;
            if (kind(P) != HDO_TK_COMMA)
                break;
            P->p++;
        }
    }
    if (kind(P) != HDO_TK_RPAREN)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ')' to close the arguments of %s, found %s",
                    fname, found(P));
    P->p++;
    P->depth--;
    if (nargs != 1)
        return perr(P, HDO_ERR_SEMANTIC, ftok, "%s takes 1 argument, found %d",
                    fname, nargs);
    return build_unary(out, P, (hdo_expr_kind)(HDO_X_SIN + (fk - HDO_TK_SIN)),
                       arg, ftok);
}

static int
parse_name(hdo_expr *out, parser *P)
{
    slong tok = P->p, loop = find_loop(P, tok), var;
    hdo_name_entry *e;
    int call = P->tk[tok + 1].kind == HDO_TK_LPAREN, status;
    if (loop >= 0) {
        P->p++;
        *out = hdo_expr_const_si(P->pool, P->loops[loop].value, 1);
        return build_leaf(P, *out, tok);
    }
    if (call && tok_is(P, tok, "sum") && P->tk[tok + 2].kind == HDO_TK_NAME &&
        tok_is(P, tok + 3, "in"))
        return parse_sum_of(out, P);
    e = lookup(P, tok);
    if (e == NULL) {
        if (call)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "unknown function %s (the functions are sin cos tan "
                        "asin acos atan exp log sqrt sinh cosh tanh, and "
                        "sum(i in A..B, expr))",
                        found(P));
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
    int k = kind(P), status;
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
    if (k == HDO_TK_LPAREN) {
        if ((status = enter(P, tok)) != 0)
            return status;
        P->p++;
        if ((status = parse_sum(out, P)) != 0)
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
    if ((status = parse_primary(&base, P)) != 0)
        return status;
    if (kind(P) == HDO_TK_CARET) {
        slong optok = P->p++;
        if ((status = enter(P, optok)) != 0 ||
            (status = parse_unary(&expo, P)) != 0)
            return status;
        P->depth--;
        if ((status = build_binary(&base, P, HDO_X_POW, base, expo, optok)))
            return status;
    }
    P->depth -= nsigns;
    for (; nneg > 0; nneg--)
        if ((status = build_unary(&base, P, HDO_X_NEG, base, sign_tok)) != 0)
            return status;
    *out = base;
    return 0;
}

static int
parse_product(hdo_expr *out, parser *P)
{
    hdo_expr a, b;
    int status;
    if ((status = parse_unary(&a, P)) != 0)
        return status;
    while (kind(P) == HDO_TK_STAR || kind(P) == HDO_TK_SLASH) {
        slong optok = P->p++;
        hdo_expr_kind k =
            P->tk[optok].kind == HDO_TK_STAR ? HDO_X_MUL : HDO_X_DIV;
        if ((status = parse_unary(&b, P)) != 0 ||
            (status = build_binary(&a, P, k, a, b, optok)) != 0)
            return status;
    }
    *out = a;
    return 0;
}

static int
parse_sum(hdo_expr *out, parser *P)
{
    hdo_expr a, b;
    int status;
    if ((status = parse_product(&a, P)) != 0)
        return status;
    while (kind(P) == HDO_TK_PLUS || kind(P) == HDO_TK_MINUS) {
        slong optok = P->p++;
        hdo_expr_kind k =
            P->tk[optok].kind == HDO_TK_PLUS ? HDO_X_ADD : HDO_X_SUB;
        if ((status = parse_product(&b, P)) != 0 ||
            (status = build_binary(&a, P, k, a, b, optok)) != 0)
            return status;
    }
    *out = a;
    return 0;
}

/* Parses an expression that must be constant (what says what it is, for
   messages) and checks it for division by zero and domain errors. */
static int
parse_constant(hdo_expr *out, parser *P, const char *what)
{
    slong tok = P->p;
    hdo_expr bad;
    const char *outer = P->ctx; /* a range bound inside a start value */
    int status;
    P->ctx = what;
    status = parse_sum(out, P);
    P->ctx = outer;
    if (status != 0)
        return status;
    if (hdo_expr_const_check(P->pool, *out, &bad) != 0) {
        hdo_expr_kind k = hdo_expr_node_get(P->pool, bad)->kind;
        if (k == HDO_X_DIV)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "%s is undefined: division by zero", what);
        if (k == HDO_X_POW)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "%s is undefined: a power outside its domain", what);
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "%s is undefined: %s of an argument outside its domain",
                    what, hdo_expr_kind_name(k));
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Arrays, ranges and loop variables (version 2) */

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
static int
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

/* The loop variable at token tok (then "in"): a name that is neither
   declared nor the variable of an enclosing loop.  Pushes it. */
static int
push_loop(parser *P, slong tok, const char *what)
{
    hdo_name_entry *e;
    int status;
    if ((status = expect_name(P, what)) != 0)
        return status;
    if ((e = lookup(P, tok)) != NULL)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "the loop variable %s is already declared as %s; choose "
                    "another name",
                    describe(P, tok), name_kind_word(e->kind));
    if (find_loop(P, tok) >= 0)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "the loop variable %s is already the variable of an "
                    "enclosing loop",
                    describe(P, tok));
    if (!tok_is(P, tok + 1, "in"))
        return perr(P, HDO_ERR_SYNTAX, tok + 1,
                    "expected 'in' after the loop variable %s, found %s",
                    describe(P, tok), describe(P, tok + 1));
    GROW(P, P->loops, P->loops_alloc, P->nloops + 1);
    P->loops[P->nloops].tok = tok;
    P->loops[P->nloops].value = 0;
    P->nloops++;
    P->p = tok + 2;
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
static int
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

/* sum ( i in A .. B , expr ): the terms in index order, added left to
   right.  The body is parsed once per index value. */
static int
parse_sum_of(hdo_expr *out, parser *P)
{
    slong stok = P->p, lo, hi, body, v;
    hdo_expr acc = HDO_EXPR_NONE, term;
    int status;
    if ((status = enter(P, stok + 1)) != 0)
        return status;
    if ((status = push_loop(P, stok + 2, "a loop variable after 'sum('")))
        return status;
    if ((status = parse_range(&lo, &hi, P, "'sum'")) != 0)
        return status;
    if (kind(P) != HDO_TK_COMMA)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ',' and the summand after the range of 'sum', "
                    "found %s",
                    found(P));
    body = ++P->p;
    for (v = lo; v <= hi; v++) {
        P->loops[P->nloops - 1].value = v;
        P->p = body;
        if ((status = parse_sum(&term, P)) != 0)
            return status;
        if (v == lo)
            acc = term;
        else if ((status = build_binary(&acc, P, HDO_X_ADD, acc, term, stok)))
            return status;
    }
    P->nloops--;
    if (kind(P) != HDO_TK_RPAREN)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ')' to close 'sum(' at %d:%d, found %s",
                    tok_pos(P, stok).line, tok_pos(P, stok).col, found(P));
    P->p++;
    P->depth--;
    *out = acc;
    return 0;
}

/* Sets *sign to the sign of the constant e: exactly for rationals,
   otherwise from MPFR evaluations at 256 and then 4096 bits (a value
   that is still zero then is taken as zero). */
static void
constant_sign(int *sign, parser *P, hdo_expr e)
{
    const fmpq *q = node_fmpq(P, e);
    mpfr_prec_t prec;
    if (q != NULL) {
        *sign = fmpq_sgn(q);
        return;
    }
    *sign = 0;
    for (prec = 256; prec <= 4096 && *sign == 0; prec *= 16) {
        mpfr_t r;
        mpfr_init2(r, prec);
        if (hdo_expr_eval_constant(r, P->pool, e) == 0 && !mpfr_nan_p(r))
            *sign = mpfr_sgn(r);
        mpfr_clear(r);
    }
}

/* ------------------------------------------------------------------ */
/* Sweep 1: names */

static int
declare(parser *P, int k, slong tok)
{
    hdo_model_struct *m = P->m;
    slong index;
    char *name;
    hdo_srcpos pos = tok_pos(P, tok);
    if (lookup(P, tok) != NULL)
        return 0; /* a duplicate: sweeps 2 and 3 report it in place */
    if (k == HDO_NAME_VAR || k == HDO_NAME_ARRAY) {
        /* Variables are allocated after the parameters (sweep_vars), when
           array bounds are known, in file order; until then the entry
           borrows the source text. */
        GROW(P, P->decl_toks, P->decl_alloc, P->ndecl + 1);
        P->decl_toks[P->ndecl++] = tok;
        if (hdo_names_add(P->names, P->lx->src + P->tk[tok].off, P->tk[tok].len,
                          k, -1, tok) == NULL)
            return nomem(P);
        return 0;
    }
    if ((name = tok_strdup(P, tok)) == NULL)
        return nomem(P);
    if (k == HDO_NAME_PARAM) {
        if (grow((void **)&m->params, &P->params_alloc, m->nparams + 1,
                 sizeof *m->params)) {
            free(name);
            return nomem(P);
        }
        index = m->nparams++;
        m->params[index].name = name;
        m->params[index].pos = pos;
        m->params[index].value = HDO_EXPR_NONE;
    } else {
        if (grow((void **)&m->modes, &P->modes_alloc, m->nmodes + 1,
                 sizeof *m->modes)) {
            free(name);
            return nomem(P);
        }
        index = m->nmodes++;
        memset(m->modes + index, 0, sizeof *m->modes);
        m->modes[index].name = name;
        m->modes[index].pos = pos;
        m->modes[index].zeno.guard = HDO_EXPR_NONE;
    }
    if (hdo_names_add(P->names, name, P->tk[tok].len, k, index, tok) == NULL)
        return nomem(P);
    return 0;
}

static int
sweep_names(parser *P)
{
    int status = 0;
    for (P->p = 0; kind(P) != HDO_TK_EOF && status == 0;) {
        skip_terminators(P);
        if (kind(P) == HDO_TK_PARAM && P->tk[P->p + 1].kind == HDO_TK_NAME) {
            status = declare(P, HDO_NAME_PARAM, P->p + 1);
        } else if (kind(P) == HDO_TK_MODE &&
                   P->tk[P->p + 1].kind == HDO_TK_NAME) {
            status = declare(P, HDO_NAME_MODE, P->p + 1);
        } else if (kind(P) == HDO_TK_VAR) {
            /* var a [= expr] {, b [= expr]}: a comma outside parentheses
               separates declarations. */
            P->p++;
            while (kind(P) == HDO_TK_NAME && status == 0) {
                int level = 0;
                status = declare(P,
                                 P->tk[P->p + 1].kind == HDO_TK_LBRACKET
                                     ? HDO_NAME_ARRAY
                                     : HDO_NAME_VAR,
                                 P->p);
                P->p++;
                while (!is_eos(kind(P)) &&
                       !(level == 0 && kind(P) == HDO_TK_COMMA)) {
                    level +=
                        kind(P) == HDO_TK_LPAREN || kind(P) == HDO_TK_LBRACKET;
                    level -=
                        kind(P) == HDO_TK_RPAREN || kind(P) == HDO_TK_RBRACKET;
                    P->p++;
                }
                if (kind(P) != HDO_TK_COMMA)
                    break;
                P->p++;
            }
        }
        skip_statement(P);
    }
    return status;
}

/* ------------------------------------------------------------------ */
/* Sweep 2: the header and the parameters */

static int
parse_header(parser *P)
{
    int status;
    P->p = 0;
    skip_terminators(P);
    if (kind(P) == HDO_TK_EOF)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'model NAME' at the start of the file, found "
                    "end of file (the file has no statements)");
    if (kind(P) != HDO_TK_MODEL)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'model NAME' as the first statement, found %s",
                    found(P));
    P->m->model_pos = tok_pos(P, P->p);
    P->p++;
    if ((status = expect_name(P, "the model name after 'model'")) != 0)
        return status;
    if ((P->m->name = tok_strdup(P, P->p)) == NULL)
        return nomem(P);
    P->p++;
    return expect_eos(P, "the model name");
}

static int
parse_param(parser *P)
{
    slong tok;
    hdo_name_entry *e;
    hdo_expr value;
    int status;
    P->p++;
    if ((status = expect_name(P, "a parameter name after 'param'")) != 0)
        return status;
    tok = P->p;
    if ((status = check_first_declaration(P, tok, &e)) != 0)
        return status;
    P->p++;
    if (kind(P) != HDO_TK_EQ)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected '=' and a value after the parameter name %s, "
                    "found %s",
                    describe(P, tok), found(P));
    P->p++;
    P->param_tok = tok;
    status = parse_constant(&value, P, "a parameter value");
    P->param_tok = -1;
    if (status != 0 || (status = expect_eos(P, "the parameter value")) != 0)
        return status;
    /* -p NAME=VALUE replaces the value (the file's is still checked). */
    for (slong i = 0; i < P->m->noverrides; i++) {
        hdo_override *o = P->m->overrides + i;
        if (strlen(o->name) == P->tk[tok].len &&
            memcmp(o->name, P->lx->src + P->tk[tok].off, P->tk[tok].len) == 0) {
            value = hdo_expr_const_fmpq(P->pool, o->value);
            if ((status = track(P, value, tok)) != 0)
                return status;
            o->used = 1;
        }
    }
    /* e may have moved if the table grew: look it up again. */
    e = lookup(P, tok);
    P->m->params[e->index].value = value;
    e->defined = 1;
    return 0;
}

static int
sweep_params(parser *P)
{
    int status;
    if ((status = parse_header(P)) != 0)
        return status;
    while (kind(P) != HDO_TK_EOF) {
        skip_terminators(P);
        if (kind(P) == HDO_TK_PARAM) {
            if ((status = parse_param(P)) != 0)
                return status;
        } else {
            skip_statement(P);
        }
    }
    for (slong i = 0; i < P->m->noverrides; i++) {
        const hdo_override *o = P->m->overrides + i;
        hdo_name_entry *e;
        if (o->used)
            continue;
        e = hdo_names_find(P->names, o->name, strlen(o->name));
        if (e != NULL)
            return hdo_error_set(P->err, HDO_ERR_SEMANTIC, 0, 0,
                                 "-p %s=%s: '%s' is %s, not a parameter (only "
                                 "a 'param' can be overridden)",
                                 o->name, o->text, o->name,
                                 name_kind_word(e->kind));
        return hdo_error_set(P->err, HDO_ERR_SEMANTIC, 0, 0,
                             "-p %s=%s: the model has no parameter '%s'",
                             o->name, o->text, o->name);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Sweep 2b: allocate the variables in file order, arrays expanded into
   their elements (the bounds need the parameters). */

static int
add_var(parser *P, char *name, hdo_srcpos pos, slong *index)
{
    hdo_model_struct *m = P->m;
    if (grow((void **)&m->vars, &P->vars_alloc, m->nvars + 1,
             sizeof *m->vars)) {
        free(name);
        return nomem(P);
    }
    *index = m->nvars++;
    m->vars[*index].name = name;
    m->vars[*index].pos = pos;
    m->vars[*index].start = HDO_EXPR_NONE;
    return 0;
}

/* [ lo .. hi ] or [ i in lo .. hi ] after an array name; *ivar is the
   loop variable's token or -1.  The loop variable is not pushed. */
static int
parse_array_bounds(slong *lo, slong *hi, slong *ivar, parser *P)
{
    int status;
    HDO_ASSERT(kind(P) == HDO_TK_LBRACKET);
    P->p++;
    *ivar = -1;
    if (kind(P) == HDO_TK_NAME && tok_is(P, P->p + 1, "in")) {
        if ((status = push_loop(P, P->p, "a loop variable")) != 0)
            return status;
        *ivar = P->p - 2;
        P->nloops--;
    }
    if ((status = parse_range(lo, hi, P, "an array declaration")) != 0)
        return status;
    if (kind(P) != HDO_TK_RBRACKET)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected ']' after the range of the array, found %s",
                    found(P));
    P->p++;
    return 0;
}

static int
sweep_vars(parser *P)
{
    hdo_model_struct *m = P->m;
    int status;
    for (slong d = 0; d < P->ndecl; d++) {
        slong tok = P->decl_toks[d], index, lo, hi, ivar, k;
        hdo_name_entry *e = lookup(P, tok);
        char *name = tok_strdup(P, tok);
        if (name == NULL)
            return nomem(P);
        if (e->kind == HDO_NAME_VAR) {
            if ((status = add_var(P, name, tok_pos(P, tok), &index)) != 0)
                return status;
            e->name = m->vars[index].name;
            e->index = index;
            continue;
        }
        P->p = tok + 1;
        if ((status = parse_array_bounds(&lo, &hi, &ivar, P)) != 0) {
            free(name);
            return status;
        }
        GROW(P, m->arrays, P->arrays_alloc, m->narrays + 1);
        m->arrays[m->narrays].name = name;
        m->arrays[m->narrays].pos = tok_pos(P, tok);
        m->arrays[m->narrays].first = m->nvars;
        m->arrays[m->narrays].lo = lo;
        m->arrays[m->narrays].hi = hi;
        e->name = name;
        e->index = m->narrays++;
        for (k = lo; k <= hi; k++) {
            size_t n = strlen(name) + 24;
            char *el = malloc(n);
            if (el == NULL)
                return nomem(P);
            snprintf(el, n, "%s[%ld]", name, (long)k);
            if ((status = add_var(P, el, tok_pos(P, tok), &index)) != 0)
                return status;
            if (hdo_names_add(P->names, el, strlen(el), HDO_NAME_VAR, index,
                              tok) == NULL)
                return nomem(P);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Sweep 3: variables, modes, start, until, chattering */

static int
parse_var(parser *P)
{
    int status;
    P->p++;
    for (;;) {
        slong tok;
        hdo_name_entry *e;
        if ((status = expect_name(P, "a variable name after 'var'")) != 0)
            return status;
        tok = P->p;
        if ((status = check_first_declaration(P, tok, &e)) != 0)
            return status;
        P->p++;
        if (e->kind == HDO_NAME_ARRAY) {
            const hdo_array *a = P->m->arrays + e->index;
            slong lo, hi, ivar, body, k;
            if ((status = parse_array_bounds(&lo, &hi, &ivar, P)) != 0)
                return status;
            if (kind(P) == HDO_TK_EQ) {
                /* u[i in 1..N] = f(i): the value parsed once per index */
                body = ++P->p;
                if (ivar >= 0) {
                    P->p = ivar;
                    if ((status = push_loop(P, ivar, "a loop variable")))
                        return status;
                }
                for (k = lo; k <= hi; k++) {
                    hdo_expr value;
                    if (ivar >= 0)
                        P->loops[P->nloops - 1].value = k;
                    P->p = body;
                    if ((status = parse_constant(&value, P, "a start value")))
                        return status;
                    P->m->vars[a->first + (k - lo)].start = value;
                }
                if (ivar >= 0)
                    P->nloops--;
            }
        } else if (kind(P) == HDO_TK_EQ) {
            slong index = e->index;
            hdo_expr value;
            P->p++;
            if ((status = parse_constant(&value, P, "a start value")) != 0)
                return status;
            P->m->vars[index].start = value;
        }
        if (kind(P) == HDO_TK_COMMA) {
            P->p++;
            continue;
        }
        if (!is_eos(kind(P)))
            return perr(P, HDO_ERR_SYNTAX, P->p,
                        "expected %s',' or end of line after the variable %s, "
                        "found %s",
                        P->tk[tok + 1].kind == HDO_TK_EQ ? "" : "'=', ",
                        describe(P, tok), found(P));
        return expect_eos(P, "the declaration");
    }
}

/* NAME that must be a mode; after says where it stands, for messages. */
static int
parse_mode_ref(slong *mode, parser *P, const char *after)
{
    hdo_name_entry *e;
    char what[64];
    int status;
    snprintf(what, sizeof what, "a mode name after %s", after);
    if ((status = expect_name(P, what)) != 0)
        return status;
    e = lookup(P, P->p);
    if (e == NULL)
        return perr(P, HDO_ERR_SEMANTIC, P->p, "unknown mode %s after %s",
                    found(P), after);
    if (e->kind != HDO_NAME_MODE)
        return perr(P, HDO_ERR_SEMANTIC, P->p, "%s is %s, not a mode", found(P),
                    name_kind_word(e->kind));
    *mode = e->index;
    P->p++;
    return 0;
}

/* "with" NAME = expr { , NAME = expr } into tr. */
static int
parse_assigns(parser *P, hdo_transition *tr)
{
    slong alloc = 0;
    int status;
    P->serial++; /* a fresh mark for "assigned twice in this reset" */
    P->p++;
    for (;;) {
        slong tok, var;
        hdo_name_entry *e;
        hdo_assign *as;
        if ((status = expect_name(P, "a variable name after 'with'")) != 0)
            return status;
        tok = P->p;
        e = lookup(P, tok);
        if (e == NULL)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "unknown variable %s in the reset", found(P));
        if (e->kind != HDO_NAME_VAR && e->kind != HDO_NAME_ARRAY)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "%s is %s; only variables can be reset", found(P),
                        name_kind_word(e->kind));
        if ((status = parse_var_ref(&var, P)) != 0)
            return status;
        if (P->var_mark[var] == P->serial) {
            hdo_srcpos first = tok_pos(P, P->var_tok[var]);
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "variable '%s' is assigned twice in one reset (first "
                        "at %d:%d)",
                        P->m->vars[var].name, first.line, first.col);
        }
        P->var_mark[var] = P->serial;
        P->var_tok[var] = tok;
        if (kind(P) != HDO_TK_EQ)
            return perr(P, HDO_ERR_SYNTAX, P->p,
                        "expected '=' after %s in the reset, found %s",
                        describe(P, tok), found(P));
        P->p++;
        GROW(P, tr->assigns, alloc, tr->nassigns + 1);
        as = tr->assigns + tr->nassigns++;
        as->var = var;
        as->pos = tok_pos(P, tok);
        as->value = HDO_EXPR_NONE;
        P->record = REF_RESET;
        P->no_der = "a reset";
        status = parse_sum(&as->value, P);
        P->record = 0;
        P->no_der = NULL;
        if (status != 0)
            return status;
        if (kind(P) != HDO_TK_COMMA)
            break;
        P->p++;
    }
    return 0;
}

static int
parse_when(parser *P, hdo_mode *mode, slong *whens_alloc)
{
    slong wtok = P->p, first, op = 0;
    hdo_transition *tr;
    hdo_expr a, b;
    int status;
    P->p++;
    first = P->p;
    P->record = REF_GUARD;
    P->no_der = "a guard";
    status = parse_sum(&a, P);
    if (status == 0) {
        op = P->p;
        if (kind(P) == HDO_TK_LE || kind(P) == HDO_TK_GE)
            status = perr(P, HDO_ERR_SYNTAX, op,
                          "%s is not allowed in a guard: write '%c' (the "
                          "event is the crossing, where both mean the same)",
                          found(P), kind(P) == HDO_TK_LE ? '<' : '>');
        else if (kind(P) == HDO_TK_EQ)
            status = perr(P, HDO_ERR_SYNTAX, op,
                          "a guard is a comparison with '<' or '>', found "
                          "'=' (write 'when a < b goto MODE')");
        else if (kind(P) != HDO_TK_LT && kind(P) != HDO_TK_GT)
            status = perr(P, HDO_ERR_SYNTAX, op,
                          "expected '<' or '>' in the guard after 'when', "
                          "found %s",
                          found(P));
        else {
            P->p++;
            status = parse_sum(&b, P);
        }
    }
    P->record = 0;
    P->no_der = NULL;
    if (status != 0)
        return status;
    GROW(P, mode->whens, *whens_alloc, mode->nwhens + 1);
    tr = mode->whens + mode->nwhens++;
    memset(tr, 0, sizeof *tr);
    tr->guard = HDO_EXPR_NONE;
    tr->pos = tok_pos(P, wtok);
    if ((tr->guard_text = slice_strdup(P, first, P->p - 1)) == NULL)
        return nomem(P);
    /* a < b: S = a - b >= 0 while feasible; a > b: S = b - a. */
    if (P->tk[op].kind == HDO_TK_LT)
        status = build_binary(&tr->guard, P, HDO_X_SUB, a, b, op);
    else
        status = build_binary(&tr->guard, P, HDO_X_SUB, b, a, op);
    if (status != 0)
        return status;
    if (kind(P) != HDO_TK_GOTO)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'goto MODE' after the guard, found %s", found(P));
    P->p++;
    if ((status = parse_mode_ref(&tr->target, P, "'goto'")) != 0)
        return status;
    if (kind(P) == HDO_TK_WITH && (status = parse_assigns(P, tr)) != 0)
        return status;
    if (!is_eos(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected %send of line after the transition, found %s",
                    tr->nassigns > 0 ? "',' or " : "'with' or ", found(P));
    return expect_eos(P, "the transition");
}

static int
parse_zeno(parser *P, hdo_mode *mode)
{
    slong ztok = P->p;
    hdo_transition *tr = &mode->zeno;
    int status;
    if (mode->has_zeno)
        return perr(P, HDO_ERR_SEMANTIC, ztok,
                    "mode '%s' has a second 'zeno' clause (the first is at "
                    "line %d)",
                    mode->name, tr->pos.line);
    mode->has_zeno = 1;
    tr->guard = HDO_EXPR_NONE;
    tr->pos = tok_pos(P, ztok);
    if ((tr->guard_text = malloc(5)) == NULL)
        return nomem(P);
    strcpy(tr->guard_text, "zeno");
    P->p++;
    if (kind(P) != HDO_TK_GOTO)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'goto MODE' after 'zeno', found %s", found(P));
    P->p++;
    if ((status = parse_mode_ref(&tr->target, P, "'goto'")) != 0)
        return status;
    if (kind(P) == HDO_TK_WITH && (status = parse_assigns(P, tr)) != 0)
        return status;
    if (!is_eos(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected %send of line after the zeno clause, found %s",
                    tr->nassigns > 0 ? "',' or " : "'with' or ", found(P));
    return expect_eos(P, "the zeno clause");
}

/* An equation inside for loops says which iteration it is: "der(u[i])
   = ... (i = 3)", since its messages may name it. */
static int
append_loop_values(parser *P, char **text)
{
    size_t n = strlen(*text), cap = n + 8 + (size_t)P->nloops * 64;
    char *s = realloc(*text, cap);
    if (s == NULL)
        return nomem(P);
    *text = s;
    for (slong i = 0; i < P->nloops; i++) {
        const hdo_token *t = P->tk + P->loops[i].tok;
        n += (size_t)snprintf(s + n, cap - n, "%s%.*s = %ld", i ? ", " : " (",
                              (int)FLINT_MIN(t->len, 40), P->lx->src + t->off,
                              (long)P->loops[i].value);
    }
    snprintf(s + n, cap - n, ")");
    return 0;
}

static int
parse_equation(parser *P, hdo_mode *mode, slong *eqs_alloc)
{
    slong first = P->p;
    hdo_expr l, r;
    hdo_equation *eq;
    int status;
    if ((status = parse_sum(&l, P)) != 0)
        return status;
    if (kind(P) == HDO_TK_LT || kind(P) == HDO_TK_GT || kind(P) == HDO_TK_LE ||
        kind(P) == HDO_TK_GE)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected '=' in the equation, found %s (a condition "
                    "belongs in 'when ... goto MODE')",
                    found(P));
    if (kind(P) != HDO_TK_EQ)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected '=' in the equation, found %s", found(P));
    P->p++;
    if ((status = parse_sum(&r, P)) != 0)
        return status;
    if (!is_eos(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected end of line after the equation, found %s",
                    found(P));
    GROW(P, mode->eqs, *eqs_alloc, mode->neqs + 1);
    eq = mode->eqs + mode->neqs++;
    eq->pos = tok_pos(P, first);
    eq->text = NULL;
    eq->residual = HDO_EXPR_NONE;
    if ((eq->text = slice_strdup(P, first, P->p - 1)) == NULL)
        return nomem(P);
    if (P->nloops > 0 && (status = append_loop_values(P, &eq->text)) != 0)
        return status;
    if ((status = build_binary(&eq->residual, P, HDO_X_SUB, l, r, first)))
        return status;
    return expect_eos(P, "the equation");
}

static int
cmp_slong(const void *a, const void *b)
{
    slong x = *(const slong *)a, y = *(const slong *)b;
    return (x > y) - (x < y);
}

/* Collects the variables of mode's equations into mode->vars (marking
   them with P->serial in P->var_mark), by an explicit-stack walk over
   the DAG that visits each node once per mode. */
static int
collect_mode_vars(parser *P, hdo_mode *mode)
{
    slong len = P->pool->len, top = 0, i, nvars = 0, alloc = 0;
    slong old = P->stamp_alloc;
    if (grow((void **)&P->stamp, &P->stamp_alloc, len, sizeof *P->stamp))
        return nomem(P);
    if (P->stamp_alloc > old)
        memset(P->stamp + old, 0,
               (size_t)(P->stamp_alloc - old) * sizeof *P->stamp);
    P->serial++;
    for (i = 0; i < mode->neqs; i++) {
        GROW(P, P->stack, P->stack_alloc, top + 1);
        P->stack[top++] = mode->eqs[i].residual;
        while (top > 0) {
            hdo_expr e = P->stack[--top];
            const hdo_expr_node *n = hdo_expr_node_get(P->pool, e);
            int ar;
            if (P->stamp[e] == (int32_t)P->serial)
                continue;
            P->stamp[e] = (int32_t)P->serial;
            if (n->kind == HDO_X_VAR) {
                if (P->var_mark[n->a] != P->serial) {
                    P->var_mark[n->a] = P->serial;
                    GROW(P, mode->vars, alloc, nvars + 1);
                    mode->vars[nvars++] = n->a;
                }
                continue;
            }
            ar = node_arity(n->kind);
            GROW(P, P->stack, P->stack_alloc, top + 2);
            if (ar >= 1)
                P->stack[top++] = n->a;
            if (ar == 2)
                P->stack[top++] = n->b;
        }
    }
    mode->nvars = nvars;
    if (nvars > 1)
        qsort(mode->vars, (size_t)nvars, sizeof *mode->vars, cmp_slong);
    return 0;
}

/* The checks that need the whole mode: equation count, and that guards
   and reset right-hand sides only use the mode's own variables. */
static int
finish_mode(parser *P, hdo_mode *mode, slong mtok, slong refs_from)
{
    int status;
    slong i;
    if (mode->neqs == 0)
        return perr(P, HDO_ERR_SEMANTIC, mtok, "mode '%s' has no equations",
                    mode->name);
    if ((status = collect_mode_vars(P, mode)) != 0)
        return status;
    if (mode->neqs != mode->nvars) {
        char list[512];
        size_t k = 0;
        list[0] = 0;
        for (i = 0; i < mode->nvars && k < sizeof list - 80; i++)
            k +=
                (size_t)snprintf(list + k, sizeof list - k, "%s%s",
                                 i ? ", " : "", P->m->vars[mode->vars[i]].name);
        if (i < mode->nvars)
            snprintf(list + k, sizeof list - k, ", ...");
        return perr(P, HDO_ERR_SEMANTIC, mtok,
                    "mode '%s' (line %d) has %ld equation%s but %ld "
                    "variable%s%s%s%s: a mode needs one equation per variable",
                    mode->name, mode->pos.line, (long)mode->neqs,
                    mode->neqs == 1 ? "" : "s", (long)mode->nvars,
                    mode->nvars == 1 ? "" : "s", mode->nvars ? " (" : "", list,
                    mode->nvars ? ")" : "");
    }
    for (i = refs_from; i < P->nrefs; i++) {
        const var_ref *r = P->refs + i;
        if (P->var_mark[r->var] == P->serial)
            continue;
        if (r->kind == REF_GUARD)
            return perr(P, HDO_ERR_SEMANTIC, r->tok,
                        "the guard uses %s, which is not a variable of mode "
                        "'%s' (it occurs in none of its equations)",
                        describe(P, r->tok), mode->name);
        return perr(P, HDO_ERR_SEMANTIC, r->tok,
                    "the reset uses %s, which is not a variable of mode '%s' "
                    "(right-hand sides are evaluated on the state of the mode "
                    "being left)",
                    describe(P, r->tok), mode->name);
    }
    return 0;
}

/* for i in A .. B  { equation | for } end: the body is parsed once per
   value of i, so the loop expands into scalar equations. */
static int
parse_for(parser *P, hdo_mode *mode, slong *eqs_alloc)
{
    slong ftok = P->p, lo, hi, body, v;
    int status;
    if ((status = push_loop(P, ftok + 1, "a loop variable after 'for'")))
        return status;
    if ((status = parse_range(&lo, &hi, P, "'for'")) != 0 ||
        (status = expect_eos(P, "the range of 'for'")) != 0)
        return status;
    body = P->p;
    for (v = lo; v <= hi; v++) {
        P->loops[P->nloops - 1].value = v;
        P->p = body;
        for (;;) {
            int k;
            skip_terminators(P);
            k = kind(P);
            if (k == HDO_TK_END) {
                P->p++;
                if ((status = expect_eos(P, "'end'")) != 0)
                    return status;
                break;
            }
            if (k == HDO_TK_EOF || k == HDO_TK_MODEL || k == HDO_TK_PARAM ||
                k == HDO_TK_VAR || k == HDO_TK_MODE || k == HDO_TK_START ||
                k == HDO_TK_UNTIL || k == HDO_TK_CHATTERING)
                return perr(P, HDO_ERR_SYNTAX, P->p,
                            "expected 'end' to close the 'for' at line %d, "
                            "found %s",
                            tok_pos(P, ftok).line, found(P));
            if (k == HDO_TK_WHEN || k == HDO_TK_ZENO)
                return perr(P, HDO_ERR_SYNTAX, P->p,
                            "%s inside a 'for' loop: a loop holds equations "
                            "only; transitions stand directly in the mode",
                            found(P));
            if (tok_is(P, P->p, "for") && P->tk[P->p + 1].kind == HDO_TK_NAME &&
                tok_is(P, P->p + 2, "in"))
                status = parse_for(P, mode, eqs_alloc);
            else
                status = parse_equation(P, mode, eqs_alloc);
            if (status != 0)
                return status;
        }
    }
    P->nloops--;
    return 0;
}

static int
parse_mode(parser *P)
{
    slong mtok = P->p, ntok, eqs_alloc = 0, whens_alloc = 0, refs_from;
    hdo_name_entry *e;
    hdo_mode *mode;
    int status;
    P->p++;
    if ((status = expect_name(P, "a mode name after 'mode'")) != 0)
        return status;
    ntok = P->p;
    if ((status = check_first_declaration(P, ntok, &e)) != 0)
        return status;
    mode = P->m->modes + e->index;
    mode->pos = tok_pos(P, mtok);
    P->p++;
    if ((status = expect_eos(P, "the mode name")) != 0)
        return status;
    P->nrefs = 0;
    refs_from = 0;
    for (;;) {
        int k;
        skip_terminators(P);
        k = kind(P);
        if (k == HDO_TK_END) {
            P->p++;
            if ((status = expect_eos(P, "'end'")) != 0)
                return status;
            break;
        }
        if (k == HDO_TK_EOF || k == HDO_TK_MODEL || k == HDO_TK_PARAM ||
            k == HDO_TK_VAR || k == HDO_TK_MODE || k == HDO_TK_START ||
            k == HDO_TK_UNTIL || k == HDO_TK_CHATTERING)
            return perr(P, HDO_ERR_SYNTAX, P->p,
                        "expected 'end' to close mode '%s' (line %d), found "
                        "%s",
                        mode->name, mode->pos.line, found(P));
        if (k == HDO_TK_WHEN)
            status = parse_when(P, mode, &whens_alloc);
        else if (k == HDO_TK_ZENO)
            status = parse_zeno(P, mode);
        else if (tok_is(P, P->p, "for") &&
                 P->tk[P->p + 1].kind == HDO_TK_NAME &&
                 tok_is(P, P->p + 2, "in"))
            status = parse_for(P, mode, &eqs_alloc);
        else
            status = parse_equation(P, mode, &eqs_alloc);
        if (status != 0)
            return status;
    }
    return finish_mode(P, mode, mtok, refs_from);
}

static int
parse_start(parser *P)
{
    hdo_model_struct *m = P->m;
    int status;
    if (m->start_mode >= 0)
        return perr(P, HDO_ERR_SEMANTIC, P->p,
                    "a second 'start' statement (the first is at line %d)",
                    m->start_pos.line);
    m->start_pos = tok_pos(P, P->p);
    P->p++;
    if ((status = parse_mode_ref(&m->start_mode, P, "'start'")) != 0)
        return status;
    if (kind(P) == HDO_TK_AT) {
        P->p++;
        if ((status = parse_constant(&m->t0, P, "the start time")) != 0)
            return status;
    }
    if (!is_eos(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'at' or end of line after 'start %s', found %s",
                    m->modes[m->start_mode].name, found(P));
    return expect_eos(P, "the start statement");
}

static int
parse_until(parser *P)
{
    hdo_model_struct *m = P->m;
    int status;
    if (m->t_end != HDO_EXPR_NONE)
        return perr(P, HDO_ERR_SEMANTIC, P->p,
                    "a second 'until' statement (the first is at line %d)",
                    m->until_pos.line);
    m->until_pos = tok_pos(P, P->p);
    P->p++;
    P->until_tok = P->p;
    if ((status = parse_constant(&m->t_end, P, "the end time")) != 0)
        return status;
    return expect_eos(P, "the end time");
}

static int
parse_chattering(parser *P)
{
    hdo_model_struct *m = P->m;
    slong tok;
    int status, sign;
    if (m->chattering_pos.line > 0)
        return perr(P, HDO_ERR_SEMANTIC, P->p,
                    "a second 'chattering' statement (the first is at line "
                    "%d)",
                    m->chattering_pos.line);
    m->chattering_pos = tok_pos(P, P->p);
    P->p++;
    switch (kind(P)) {
    case HDO_TK_FILIPPOV:
        m->chattering = HDO_CHATTER_FILIPPOV;
        P->p++;
        break;
    case HDO_TK_STOP:
        m->chattering = HDO_CHATTER_STOP;
        P->p++;
        break;
    case HDO_TK_HYSTERESIS:
        m->chattering = HDO_CHATTER_HYSTERESIS;
        P->p++;
        tok = P->p;
        if ((status = parse_constant(&m->hysteresis, P,
                                     "the hysteresis width")) != 0)
            return status;
        constant_sign(&sign, P, m->hysteresis);
        if (sign <= 0)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "the hysteresis width must be positive");
        break;
    default:
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'filippov', 'hysteresis WIDTH' or 'stop' after "
                    "'chattering', found %s",
                    found(P));
    }
    return expect_eos(P, "the chattering option");
}

/* Every reset must assign a variable of its target mode. */
static int
check_reset_targets(parser *P, const hdo_transition *tr)
{
    const hdo_mode *target = P->m->modes + tr->target;
    slong i;
    for (i = 0; i < tr->nassigns; i++) {
        slong v = tr->assigns[i].var;
        if (bsearch(&v, target->vars, (size_t)target->nvars,
                    sizeof *target->vars, cmp_slong) == NULL)
            return hdo_error_set(
                P->err, HDO_ERR_SEMANTIC, tr->assigns[i].pos.line,
                tr->assigns[i].pos.col,
                "the reset assigns '%s', which is not a variable of the "
                "target mode '%s' (it occurs in none of its equations)",
                P->m->vars[v].name, target->name);
    }
    return 0;
}

static int
sweep_rest(parser *P)
{
    hdo_model_struct *m = P->m;
    int status = 0, sign;
    slong i, j, eof;

    P->p = 0;
    skip_terminators(P);
    skip_statement(P); /* the header, checked by sweep 2 */
    while (kind(P) != HDO_TK_EOF) {
        int k;
        skip_terminators(P);
        k = kind(P);
        switch (k) {
        case HDO_TK_EOF:
            continue;
        case HDO_TK_PARAM:
            skip_statement(P);
            continue;
        case HDO_TK_VAR:
            status = parse_var(P);
            break;
        case HDO_TK_MODE:
            status = parse_mode(P);
            break;
        case HDO_TK_START:
            status = parse_start(P);
            break;
        case HDO_TK_UNTIL:
            status = parse_until(P);
            break;
        case HDO_TK_CHATTERING:
            status = parse_chattering(P);
            break;
        case HDO_TK_MODEL:
            status = perr(P, HDO_ERR_SYNTAX, P->p,
                          "a second 'model' statement (the model is named "
                          "at line %d)",
                          m->model_pos.line);
            break;
        case HDO_TK_END:
            status = perr(P, HDO_ERR_SYNTAX, P->p,
                          "'end' without a 'mode' to close");
            break;
        case HDO_TK_WHEN:
        case HDO_TK_ZENO:
            status = perr(P, HDO_ERR_SYNTAX, P->p,
                          "%s outside of a mode: transitions belong inside "
                          "'mode NAME ... end'",
                          found(P));
            break;
        default:
            if (k == HDO_TK_NAME || k == HDO_TK_NUMBER || k == HDO_TK_DER ||
                k == HDO_TK_MINUS || k == HDO_TK_LPAREN || k == HDO_TK_T ||
                k == HDO_TK_PI || HDO_TK_IS_FUNCTION(k))
                status = perr(P, HDO_ERR_SYNTAX, P->p,
                              "expected a statement (param, var, mode, "
                              "start, until or chattering), found %s; "
                              "equations belong inside 'mode NAME ... end'",
                              found(P));
            else
                status = perr(P, HDO_ERR_SYNTAX, P->p,
                              "expected a statement (param, var, mode, "
                              "start, until or chattering), found %s",
                              found(P));
        }
        if (status != 0)
            return status;
    }
    eof = P->p;

    if (m->nmodes == 0)
        return perr(P, HDO_ERR_SEMANTIC, eof,
                    "the model has no modes: expected at least one "
                    "'mode NAME ... end'");
    if (m->start_mode < 0)
        return perr(P, HDO_ERR_SEMANTIC, eof,
                    "missing 'start MODE [at T0]': the model must name its "
                    "initial mode");
    for (i = 0; i < m->nmodes; i++) {
        for (j = 0; j < m->modes[i].nwhens; j++)
            if ((status = check_reset_targets(P, m->modes[i].whens + j)))
                return status;
        if (m->modes[i].has_zeno &&
            (status = check_reset_targets(P, &m->modes[i].zeno)))
            return status;
    }
    if (m->t_end != HDO_EXPR_NONE) {
        hdo_expr d = hdo_expr_sub(P->pool, m->t_end, m->t0);
        if ((status = track(P, d, P->until_tok)) != 0)
            return status;
        constant_sign(&sign, P, d);
        if (sign <= 0)
            return perr(P, HDO_ERR_SEMANTIC, P->until_tok,
                        "the end time (until) must be after the start time");
    }
    return 0;
}

/* ------------------------------------------------------------------ */

static void
parser_clear(parser *P)
{
    free(P->height);
    free(P->refs);
    free(P->stamp);
    free(P->var_mark);
    free(P->var_tok);
    free(P->stack);
    free(P->loops);
    free(P->decl_toks);
}

int
hdo_model_parse_tokens(hdo_model_t model, hdo_lexed_struct *lx,
                       hdo_error_t *err)
{
    parser P;
    int status;
    memset(&P, 0, sizeof P);
    P.m = model;
    P.pool = model->pool;
    P.lx = lx;
    P.tk = lx->toks;
    P.err = err;
    P.param_tok = -1;
    P.names = model->names;

    model->t0 = hdo_expr_const_si(model->pool, 0, 1);
    status = sweep_names(&P);
    if (status == 0)
        status = sweep_params(&P);
    if (status == 0)
        status = sweep_vars(&P);
    if (status == 0) {
        /* One mark per variable, for "assigned twice" and mode walks. */
        P.var_mark = calloc((size_t)model->nvars + 1, sizeof *P.var_mark);
        P.var_tok = calloc((size_t)model->nvars + 1, sizeof *P.var_tok);
        if (P.var_mark == NULL || P.var_tok == NULL)
            status = nomem(&P);
    }
    if (status == 0)
        status = sweep_rest(&P);
    parser_clear(&P);
    return status;
}
