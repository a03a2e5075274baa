/* parse_base.c -- the parser's tools, below every grammar level: errors,
 * tokens and statements, names, and the scope of the loop variables */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/parser.h"

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

const char *
eq_hint(const parser *P)
{
    return kind(P) == HDO_TK_EQEQ ? ": did you mean '='?" : "";
}

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

/* Whether token tok is the name word (the contextual keywords for, in
   and sum are names to the lexer, so that version-1 models that use
   them as names keep their meaning). */
int
tok_is(const parser *P, slong tok, const char *word)
{
    const hdo_token *t = P->tk + tok;
    return t->kind == HDO_TK_NAME && t->len == strlen(word) &&
           memcmp(P->lx->src + t->off, word, t->len) == 0;
}

/* The innermost loop variable named like token tok, or -1 if none (an
   index, not a status). */
slong
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

/* The loop variable at token tok (then "in"): a name that is neither
   declared nor the variable of an enclosing loop.  Pushes it. */
int
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
    P->loops[P->nloops].lo = P->loops[P->nloops].hi = 0;
    P->loops[P->nloops].known = P->loops[P->nloops].fixed = 0;
    P->nloops++;
    P->p = tok + 2;
    return 0;
}

/* One more parse of a loop body (for, sum, or an array's start value);
   the total over the file is bounded, so that nested loops cannot make
   the parser run for hours (two loops of a million each). */
int
count_iteration(parser *P, slong tok)
{
    if (++P->iterations > HDO_MODEL_MAX_ITERATIONS)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "the loops of the model expand to more than %d "
                    "iterations in all",
                    HDO_MODEL_MAX_ITERATIONS);
    return 0;
}

/* Records the range lo..hi of the innermost loop, whose range
   expression runs from token first to P->p: fixed when it names no loop
   variable, so that every entry of the loop has that range. */
void
loop_range(parser *P, slong first, slong lo, slong hi)
{
    HDO_ASSERT(P->nloops > 0);
    int fixed = 1;
    for (slong t = first; t < P->p && fixed; t++)
        if (P->tk[t].kind == HDO_TK_NAME && find_loop(P, t) >= 0)
            fixed = 0;
    P->loops[P->nloops - 1].lo = lo;
    P->loops[P->nloops - 1].hi = hi;
    P->loops[P->nloops - 1].known = 1;
    P->loops[P->nloops - 1].fixed = fixed;
}

/* After the first iteration of the innermost loop (at token tok):
   refuses at once, with count_iteration's message, a loop whose
   iterations still to come take the total over the limit.  Why: two
   nested sums of 10^5 terms each were refused only once 10^6 bodies had
   been parsed (0.68 s, much longer instrumented).  The count still to
   come is bounded from below: the rest of this entry, and for each
   enclosing loop its remaining iterations, each counting itself and one
   entry of the loops below -- which has the same size every time only
   while their ranges are fixed, so the walk stops at the first loop
   whose range names a loop variable (and an entry of a loop with such a
   range counts 1).  Loops deeper in the body are left out.  A lower
   bound, exact for nests of fixed ranges, so that the models refused are
   those count_iteration refuses (10^6 iterations in all pass, 10^6 + 1
   do not: tests/model/thresholds.c), only before their bodies are
   parsed.  Counts above the limit are clamped (doubles are exact far
   beyond it). */
int
loop_bound(parser *P, slong tok)
{
    const double over = (double)HDO_MODEL_MAX_ITERATIONS + 1;
    slong i = P->nloops - 1;
    HDO_ASSERT(i >= 0 && P->loops[i].known);
    double total =
        (double)P->iterations + (double)(P->loops[i].hi - P->loops[i].value);
    /* W: what one entry of the loops from level k + 1 inward counts */
    double W =
        P->loops[i].fixed ? (double)(P->loops[i].hi - P->loops[i].lo + 1) : 1;
    for (slong k = i - 1; k >= 0 && total < over; k--) {
        if (!P->loops[k].known)
            break;
        total += (double)(P->loops[k].hi - P->loops[k].value) * (1 + W);
        if (!P->loops[k].fixed)
            break;
        W = (double)(P->loops[k].hi - P->loops[k].lo + 1) * (1 + W);
        if (W > over)
            W = over;
    }
    if (total >= over)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "the loops of the model expand to more than %d "
                    "iterations in all",
                    HDO_MODEL_MAX_ITERATIONS);
    return 0;
}

int
cmp_slong(const void *a, const void *b)
{
    slong x = *(const slong *)a, y = *(const slong *)b;
    return (x > y) - (x < y);
}
