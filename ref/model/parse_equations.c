/* parse_equations.c -- the body of a mode: equations, `for` loops of
 * equations, `when` transitions with their resets, the `zeno` clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpq.h>
#include "model/parser.h"

/* NAME that must be a mode; after says where it stands, for messages. */
int
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
                        "expected '=' after %s in the reset, found %s%s",
                        describe(P, tok), found(P), eq_hint(P));
        P->p++;
        GROW(P, tr->assigns, alloc, tr->nassigns + 1);
        as = tr->assigns + tr->nassigns++;
        as->var = var;
        as->pos = tok_pos(P, tok);
        as->value = HDO_EXPR_NONE;
        P->record = REF_RESET;
        P->no_der = "a reset";
        slong vtok = P->p;
        status = parse_sum(&as->value, P);
        P->record = 0;
        P->no_der = NULL;
        if (status != 0 || (status = check_root(P, as->value, vtok)) != 0)
            return status;
        if (kind(P) != HDO_TK_COMMA)
            break;
        P->p++;
    }
    return 0;
}

/* The rest of a transition, after its guard (after: "the guard" or
   "'zeno'"; what: the statement, for messages): goto MODE [with
   assignments], then the end of the line. */
static int
parse_goto_with(parser *P, hdo_transition *tr, const char *after,
                const char *what)
{
    int status;
    if (kind(P) != HDO_TK_GOTO)
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected 'goto MODE' after %s, found %s", after, found(P));
    P->p++;
    if ((status = parse_mode_ref(&tr->target, P, "'goto'")) != 0)
        return status;
    if (kind(P) == HDO_TK_WITH && (status = parse_assigns(P, tr)) != 0)
        return status;
    if (!is_eos(kind(P)))
        return perr(P, HDO_ERR_SYNTAX, P->p,
                    "expected %send of line after %s, found %s",
                    tr->nassigns > 0 ? "',' or " : "'with' or ", what,
                    found(P));
    return expect_eos(P, what);
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
        else if (kind(P) == HDO_TK_EQ || kind(P) == HDO_TK_EQEQ)
            status = perr(P, HDO_ERR_SYNTAX, op,
                          "a guard is a comparison with '<' or '>', found "
                          "%s (write 'when a < b goto MODE')",
                          found(P));
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
        status =
            build_binary(&tr->guard, P, HDO_X_SUB, a, b, op, first, op + 1);
    else
        status =
            build_binary(&tr->guard, P, HDO_X_SUB, b, a, op, op + 1, first);
    if (status != 0 || (status = check_root(P, tr->guard, first)) != 0)
        return status;
    return parse_goto_with(P, tr, "the guard", "the transition");
}

static int
parse_zeno(parser *P, hdo_mode *mode)
{
    slong ztok = P->p;
    hdo_transition *tr = &mode->zeno;
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
    return parse_goto_with(P, tr, "'zeno'", "the zeno clause");
}

int
parse_equation(parser *P, hdo_mode *mode, slong *eqs_alloc)
{
    slong first = P->p, rtok;
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
                    "expected '=' in the equation, found %s%s", found(P),
                    eq_hint(P));
    P->p++;
    rtok = P->p;
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
    if ((status = build_binary(&eq->residual, P, HDO_X_SUB, l, r, first, first,
                               rtok)) != 0 ||
        (status = check_root(P, eq->residual, first)) != 0)
        return status;
    return expect_eos(P, "the equation");
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
                        "the guard uses '%.60s', which is not a variable of "
                        "mode '%s' (it occurs in none of its equations)",
                        P->m->vars[r->var].name, mode->name);
        return perr(P, HDO_ERR_SEMANTIC, r->tok,
                    "the reset uses '%.60s', which is not a variable of mode "
                    "'%s' (right-hand sides are evaluated on the state of the "
                    "mode being left)",
                    P->m->vars[r->var].name, mode->name);
    }
    return 0;
}

int
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
        if (starts_top_level(k))
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
