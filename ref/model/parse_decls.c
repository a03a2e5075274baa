/* parse_decls.c -- the declarations of a model and the four sweeps
   described in parser.h: names, parameters (with -p), variables (arrays
   expanded), and the rest (modes through parse_equations.c, start,
   until, chattering) */
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
   allocation of the variables, is sweep_vars below) */

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
