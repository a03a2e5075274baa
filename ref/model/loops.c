/* loops.c -- version 2 of the language: arrays (declarations expanded
   into scalar variables, element references with checked indices), the
   loop variables of for, sum and var u[i in ..], and their ranges.
   Everything is expanded while parsing: a loop's body is parsed once per
   index value with the loop variable bound to an integer constant, so
   nothing after the parser knows about arrays (docs/model-format.md,
   "Arrays"; decisions.md, "Language version 2"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include "model/parser.h"

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
    m->vars[*index].nominal = HDO_EXPR_NONE;
    return 0;
}

/* [ lo .. hi ] or [ i in lo .. hi ] after an array name; *ivar is the
   loop variable's token or -1.  The loop variable is not pushed. */
int
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

int
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

/* An equation inside for loops says which iteration it is: "der(u[i])
   = ... (i = 3)", since its messages may name it. */
int
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

/* for i in A .. B  { equation | for } end: the body is parsed once per
   value of i, so the loop expands into scalar equations. */
int
parse_for(parser *P, hdo_mode *mode, slong *eqs_alloc)
{
    slong ftok = P->p, lo, hi, body, v;
    int status;
    if ((status = push_loop(P, ftok + 1, "a loop variable after 'for'")))
        return status;
    slong rtok = P->p;
    if ((status = parse_range(&lo, &hi, P, "'for'")) != 0)
        return status;
    loop_range(P, rtok, lo, hi);
    if ((status = expect_eos(P, "the range of 'for'")) != 0)
        return status;
    body = P->p;
    for (v = lo; v <= hi; v++) {
        P->loops[P->nloops - 1].value = v;
        P->p = body;
        if ((status = count_iteration(P, ftok)) != 0)
            return status;
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
            if (starts_top_level(k))
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
        if (v == lo && (status = loop_bound(P, ftok)) != 0)
            return status;
    }
    P->nloops--;
    return 0;
}
