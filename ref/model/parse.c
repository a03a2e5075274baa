/* parse.c -- the parser's common parts: errors and tokens, building
   expressions within the limits, and the expressions themselves
   (the statements are in sweeps.c, the version-2 loops in loops.c) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include "model/parser.h"

/* ------------------------------------------------------------------ */
/* Errors and tokens */

int
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

int
nomem(parser *P)
{
    return hdo_error_set(P->err, HDO_ERR_MEMORY, 0, 0,
                         "out of memory while parsing the model");
}

hdo_srcpos
tok_pos(const parser *P, slong tok)
{
    hdo_srcpos pos;
    hdo_lex_pos(&pos.line, &pos.col, P->lx, P->tk[tok].off);
    return pos;
}

int
kind(const parser *P)
{
    return P->tk[P->p].kind;
}

int
is_eos(int k)
{
    return k == HDO_TK_NEWLINE || k == HDO_TK_SEMI || k == HDO_TK_EOF;
}

/* How token tok is shown in "found ..." (quoted text for names and
   numbers, cut at 40 characters). */
const char *
describe(parser *P, slong tok)
{
    const hdo_token *t = P->tk + tok;
    if (t->kind == HDO_TK_NAME || t->kind == HDO_TK_NUMBER ||
        t->kind == HDO_TK_FUNC) {
        int n = t->len > 40 ? 40 : (int)t->len;
        char *buf = P->found[P->nfound++ % 4];
        snprintf(buf, sizeof P->found[0], "'%.*s%s'", n, P->lx->src + t->off,
                 t->len > 40 ? "..." : "");
        return buf;
    }
    return hdo_token_kind_name(t->kind);
}

const char *
found(parser *P)
{
    return describe(P, P->p);
}

/* The name of token tok as a NUL-terminated copy, or NULL. */
int
starts_top_level(int k)
{
    return k == HDO_TK_EOF || k == HDO_TK_MODEL || k == HDO_TK_PARAM ||
           k == HDO_TK_VAR || k == HDO_TK_MODE || k == HDO_TK_START ||
           k == HDO_TK_UNTIL || k == HDO_TK_CHATTERING;
}

char *
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
char *
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

void
skip_statement(parser *P)
{
    while (!is_eos(kind(P)))
        P->p++;
}

void
skip_terminators(parser *P)
{
    while (kind(P) == HDO_TK_NEWLINE || kind(P) == HDO_TK_SEMI)
        P->p++;
}

/* Consumes the end of a statement; what names the statement. */
int
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
int
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

hdo_name_entry *
lookup(const parser *P, slong tok)
{
    return hdo_names_find(P->names, P->lx->src + P->tk[tok].off,
                          P->tk[tok].len);
}

const char *
name_kind_word(int k)
{
    return k == HDO_NAME_PARAM   ? "a parameter"
           : k == HDO_NAME_VAR   ? "a variable"
           : k == HDO_NAME_ARRAY ? "an array variable"
                                 : "a mode";
}

/* The declaration at name token tok must be the first one of its name
   (sweep 1 recorded the first); otherwise it is a duplicate. */
int
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

/* ------------------------------------------------------------------ */
/* Building expressions: every node goes through track(), which keeps
   the height of each pool node and the size of exact constants within
   the limits in model.h. */

int
node_arity(hdo_expr_kind k)
{
    return hdo_expr_kind_arity(k);
}

const fmpq *
node_fmpq(const parser *P, hdo_expr e)
{
    const hdo_expr_node *n = hdo_expr_node_get(P->pool, e);
    return n->kind == HDO_X_CONST ? P->pool->consts + n->a : NULL;
}

int
track(parser *P, hdo_expr e, slong tok)
{
    slong len = P->pool->len, i;
    const fmpq *q;
    slong old_alloc = P->height_alloc;
    if (grow((void **)&P->height, &P->height_alloc, len, sizeof *P->height))
        return nomem(P);
    if (P->height_alloc != old_alloc || P->cflag == NULL) {
        unsigned char *c = realloc(P->cflag, (size_t)P->height_alloc);
        if (c == NULL)
            return nomem(P);
        P->cflag = c;
    }
    /* Nodes are appended after their children, so one pass in index
       order sees every child's height before its parent. */
    for (i = P->nheight; i < len; i++) {
        const hdo_expr_node *n = hdo_expr_node_get(P->pool, (hdo_expr)i);
        int32_t h = 0;
        int ar = node_arity(n->kind);
        unsigned char c = n->kind == HDO_X_CONST || n->kind == HDO_X_PI;
        if (ar >= 1) {
            h = P->height[n->a];
            c = P->cflag[n->a] & CF_CONST;
        }
        if (ar == 2 && P->height[n->b] > h)
            h = P->height[n->b];
        if (ar == 2)
            c &= P->cflag[n->b];
        P->height[i] = h + 1;
        /* a rational is exact, defined and in range once it is built */
        P->cflag[i] = n->kind == HDO_X_CONST ? CF_CONST | CF_DEFINED | CF_RANGE
                                             : (c & CF_CONST);
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

/* Appends "FILE:LINE:COL: warning: MSG" (and a newline) to the model's
   warnings. */
static int pwarn(parser *P, slong tok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
pwarn(parser *P, slong tok, const char *fmt, ...)
{
    char msg[700];
    hdo_srcpos pos = tok_pos(P, tok);
    size_t old = P->m->warnings ? strlen(P->m->warnings) : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *file = P->m->file ? P->m->file : "model";
    size_t add = strlen(file) + strlen(msg) + 64;
    char *w = realloc(P->m->warnings, old + add);
    if (w == NULL)
        return nomem(P);
    snprintf(w + old, add, "%s:%d:%d: warning: %s\n", file, pos.line, pos.col,
             msg);
    P->m->warnings = w;
    return 0;
}

/* Checks the constant node e, which starts at token tok: defined (no
   division by zero, no argument outside a function's domain), and with
   range != 0 a value MPFR can hold.  Exact zeros are decided by Calcium
   (hdo_expr_const_examine); a zero taken from an enclosure instead of a
   proof is reported as a warning. */
static int
check_constant(parser *P, hdo_expr e, slong tok, int range)
{
    unsigned char want = range ? CF_RANGE : CF_DEFINED;
    if (!(P->cflag[e] & CF_CONST) || (P->cflag[e] & want))
        return 0;
    hdo_const_report rep;
    int st = hdo_expr_const_examine_cached(&rep, P->pool, e, range, P->ccache);
    if (rep.assumed_zero != HDO_EXPR_NONE && st == 0 &&
        !(P->cflag[e] & CF_WARNED)) {
        P->cflag[e] |= CF_WARNED;
        char *z = hdo_expr_to_string(P->pool, rep.assumed_zero, NULL);
        int ws = pwarn(P, tok,
                       "%.300s is taken as exactly 0: Calcium cannot decide "
                       "it, and its enclosure at 16384 bits lies within "
                       "2^-16000 (about 10^-4816) of 0",
                       z ? z : "a sub-expression");
        free(z);
        if (ws != 0)
            return ws;
    }
    if (st == 0) {
        P->cflag[e] |= CF_DEFINED | want;
        return 0;
    }
    char *bad = hdo_expr_to_string(P->pool, rep.bad, NULL);
    char *zero = rep.assumed_zero == HDO_EXPR_NONE
                     ? NULL
                     : hdo_expr_to_string(P->pool, rep.assumed_zero, NULL);
    hdo_expr_kind k = hdo_expr_node_get(P->pool, rep.bad)->kind;
    const char *text = bad ? bad : "a constant";
    char what[200], note[200] = "";
    int undefined = 1;
    if (rep.reason == HDO_CONST_OVERFLOW) {
        snprintf(what, sizeof what,
                 "overflow (its magnitude is beyond 2^%ld, the largest "
                 "MPFR number)",
                 (long)mpfr_get_emax());
        undefined = 0;
    } else if (rep.reason == HDO_CONST_UNDERFLOW) {
        snprintf(what, sizeof what,
                 "underflow (it is not 0 but below 2^%ld, the smallest "
                 "MPFR number)",
                 (long)mpfr_get_emin() - 1);
        undefined = 0;
    } else if (rep.reason == HDO_CONST_UNDECIDED) {
        snprintf(what, sizeof what,
                 "undecided at 16384 bits (an argument too close to a pole "
                 "or to the edge of a domain)");
        undefined = 0;
    } else if (k == HDO_X_DIV) {
        snprintf(what, sizeof what, "division by zero");
    } else if (k == HDO_X_POW) {
        snprintf(what, sizeof what, "a power outside its domain");
    } else if (k == HDO_X_TAN) {
        snprintf(what, sizeof what, "a pole of tan");
    } else {
        snprintf(what, sizeof what, "%s of an argument outside its domain",
                 hdo_expr_kind_name(k));
    }
    if (zero != NULL)
        snprintf(note, sizeof note,
                 " (%.80s%s is taken as 0: Calcium cannot decide it, and it "
                 "is within 2^-16000 of 0)",
                 zero, strlen(zero) > 80 ? "..." : "");
    int status;
    if (P->ctx != NULL)
        status = perr(P, HDO_ERR_SEMANTIC, tok, "%s is %s: %s in %.200s%s%s",
                      P->ctx, undefined ? "undefined" : "refused", what, text,
                      strlen(text) > 200 ? "..." : "", note);
    else
        status = perr(P, HDO_ERR_SEMANTIC, tok, "%.200s%s is %s: %s%s", text,
                      strlen(text) > 200 ? "..." : "",
                      undefined ? "undefined" : "refused", what, note);
    free(zero);
    free(bad);
    return status;
}

/* A constant node that becomes an operand of a non-constant one is a
   value the run holds in MPFR: its range is checked there. */
static int
check_operand(parser *P, hdo_expr out, hdo_expr child, slong tok)
{
    if ((P->cflag[out] & CF_CONST) || !(P->cflag[child] & CF_CONST))
        return 0;
    return check_constant(P, child, tok, 1);
}

/* The root of an expression (an equation, a guard, a reset value, a
   constant statement) starting at token tok. */
int
check_root(parser *P, hdo_expr e, slong tok)
{
    return check_constant(P, e, tok, 1);
}

int
build_binary(hdo_expr *out, parser *P, hdo_expr_kind k, hdo_expr a, hdo_expr b,
             slong tok, slong atok, slong btok)
{
    int status;
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
    if ((status = track(P, *out, tok)) != 0 ||
        (status = check_constant(P, *out, atok, 0)) != 0 ||
        (status = check_operand(P, *out, a, atok)) != 0)
        return status;
    return check_operand(P, *out, b, btok);
}

/* tok: the start of the expression (a function's name, the sign); atok:
   the start of the operand. */
static int
build_unary(hdo_expr *out, parser *P, hdo_expr_kind k, hdo_expr a, slong tok,
            slong atok)
{
    int status;
    *out = k == HDO_X_NEG ? hdo_expr_neg(P->pool, a)
                          : hdo_expr_unary(P->pool, k, a);
    if ((status = track(P, *out, tok)) != 0 ||
        (status = check_constant(P, *out, tok, 0)) != 0)
        return status;
    return check_operand(P, *out, a, atok);
}

int
build_leaf(parser *P, hdo_expr e, slong tok)
{
    return track(P, e, tok);
}

/* ------------------------------------------------------------------ */
/* Expressions */

/* One more level of nesting, opened by token tok. */
int
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

/* Sets *sign to the sign of the constant e: exactly for rationals,
   otherwise from MPFR evaluations at 256 and then 4096 bits (a value
   that is still zero then is taken as zero). */
void
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
