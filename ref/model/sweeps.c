/* sweeps.c -- the statements of a model, in the four sweeps described
   in parser.h: names, parameters (with -p), variables, and the rest */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpq.h>
#include "model/parser.h"

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
/* Sweep 2: the header and the parameters (with the -p overrides) */

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
                    "found %s%s",
                    describe(P, tok), found(P), eq_hint(P));
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
/* Sweep 3: variables, modes, start, until, chattering (sweep 2b, the
   allocation of the variables, is in loops.c) */

/* After a declaration's start value: `nominal E`, E a positive constant,
   into vars[first .. first + n).  The word is contextual: no name can
   follow a declaration there, so a variable named nominal is no clash. */
static int
parse_nominal(parser *P, slong first, slong n)
{
    hdo_expr value;
    slong tok;
    int status, sign;
    if (!tok_is(P, P->p, "nominal"))
        return 0;
    tok = ++P->p;
    if ((status = parse_constant(&value, P, "a nominal value")) != 0)
        return status;
    constant_sign(&sign, P, value);
    if (sign <= 0)
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "the nominal value must be positive (the variable's "
                    "typical magnitude)");
    for (slong k = 0; k < n; k++) {
        P->m->vars[first + k].nominal = value;
        P->m->vars[first + k].nominal_pos = tok_pos(P, tok);
    }
    return 0;
}

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
                    /* a declaration's range names no loop variable */
                    P->loops[P->nloops - 1].lo = lo;
                    P->loops[P->nloops - 1].hi = hi;
                    P->loops[P->nloops - 1].known = 1;
                    P->loops[P->nloops - 1].fixed = 1;
                }
                for (k = lo; k <= hi; k++) {
                    hdo_expr value;
                    if (ivar >= 0)
                        P->loops[P->nloops - 1].value = k;
                    P->p = body;
                    if ((status = count_iteration(P, tok)) != 0 ||
                        (status = parse_constant(&value, P, "a start value")))
                        return status;
                    P->m->vars[a->first + (k - lo)].start = value;
                }
                if (ivar >= 0)
                    P->nloops--;
            }
            if ((status = parse_nominal(P, a->first, hi - lo + 1)) != 0)
                return status;
        } else {
            slong index = e->index;
            hdo_expr value;
            if (kind(P) == HDO_TK_EQ) {
                P->p++;
                if ((status = parse_constant(&value, P, "a start value")))
                    return status;
                P->m->vars[index].start = value;
            }
            if ((status = parse_nominal(P, index, 1)) != 0)
                return status;
        }
        if (kind(P) == HDO_TK_COMMA) {
            P->p++;
            continue;
        }
        if (tok_is(P, P->p, "nominal"))
            return perr(P, HDO_ERR_SYNTAX, P->p,
                        "a second 'nominal' for the variable %s",
                        describe(P, tok));
        if (!is_eos(kind(P)))
            return perr(P, HDO_ERR_SYNTAX, P->p,
                        "expected %s'nominal', ',' or end of line after the "
                        "variable %s, found %s%s",
                        P->tk[tok + 1].kind == HDO_TK_EQ ? "" : "'=', ",
                        describe(P, tok), found(P), eq_hint(P));
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

static void
parser_clear(parser *P)
{
    free(P->height);
    free(P->cflag);
    hdo_const_cache_clear(P->ccache);
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
    hdo_const_cache_init(P.ccache);
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
