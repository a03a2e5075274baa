/* model.c -- a model's life cycle: init, clear, parse from text or file,
   look-ups by name */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "model/lex.h"
#include "model/names.h"
#include "model/parse.h"
#include "model/patterns.h"
#include "model/perp.h"
#include "util.h"

void
hdo_model_init(hdo_model_t model)
{
    memset(model, 0, sizeof *model);
    hdo_expr_pool_init(model->pool);
    model->start_mode = -1;
    model->t0 = HDO_EXPR_NONE;
    model->t_end = HDO_EXPR_NONE;
    model->hysteresis = HDO_EXPR_NONE;
    model->chattering = HDO_CHATTER_FILIPPOV;
}

int
hdo_model_parsed(const hdo_model_struct *model)
{
    /* only a successful parse leaves var_names set (an entry more than
       the variables, so never NULL then): a failed one resets the model
       (reset_keep_file), as hdo_model_clear does; and a parsed model
       has a start mode */
    return model->var_names != NULL && model->nmodes > 0 &&
           model->start_mode >= 0 && model->start_mode < model->nmodes;
}

static void
transition_clear(hdo_transition *tr)
{
    free(tr->guard_text);
    free(tr->assigns);
}

void
hdo_model_workspace_init(hdo_model_struct *work, const hdo_model_struct *model)
{
    *work = *model;
    hdo_expr_pool_init_copy(work->pool, model->pool);
    if (model->lazy != NULL)
        hdo_model_lazy_workspace_init(work, model);
}

void
hdo_model_workspace_clear(hdo_model_struct *work)
{
    if (work->own_modes)
        hdo_model_lazy_workspace_clear(work);
    hdo_expr_pool_clear(work->pool);
}

void
hdo_model_clear(hdo_model_t model)
{
    slong i, j;
    for (i = 0; i < model->nparams; i++)
        free(model->params[i].name);
    for (i = 0; i < model->nvars; i++)
        free(model->vars[i].name);
    hdo_model_lazy_free(model);
    for (i = 0; i < model->nmodes; i++) {
        hdo_mode *mode = model->modes + i;
        free(mode->name);
        for (j = 0; j < mode->neqs; j++)
            free(mode->eqs[j].text);
        free(mode->eqs);
        free(mode->vars);
        for (j = 0; j < mode->nwhens; j++)
            transition_clear(mode->whens + j);
        free(mode->whens);
        transition_clear(&mode->zeno);
        free(mode->pattern);
        free(mode->rel);
        free(mode->family_modes);
        free(mode->zero_modes);
        free(mode->rel_pos);
        if (mode->cp_family == i) { /* the owner of the block (model.h) */
            for (j = 0; j < mode->nperp; j++) {
                free(mode->perp[j].text);
                free(mode->perp[j].atext);
                free(mode->perp[j].btext);
            }
            free(mode->perp);
            free(mode->cp_modes);
        }
    }
    free(model->relpos);
    for (i = 0; i < model->narrays; i++)
        free(model->arrays[i].name);
    free(model->arrays);
    for (i = 0; i < model->noverrides; i++) {
        free(model->overrides[i].name);
        free(model->overrides[i].text);
        fmpq_clear(model->overrides[i].value);
    }
    free(model->overrides);
    free(model->params);
    free(model->vars);
    free(model->modes);
    free((void *)model->var_names);
    free(model->name);
    free(model->file);
    free(model->warnings);
    hdo_names_free(model->names);
    hdo_expr_pool_clear(model->pool);
    memset(model, 0, sizeof *model);
}

/* Sets q to the value of the -p text s: [sign] decimal [/ decimal]. */
static int
parse_override_value(fmpq_t q, const char *s)
{
    const char *slash = strchr(s, '/');
    int status;
    if (slash == NULL)
        return hdo_parse_decimal(q, s, strlen(s));
    if (slash == s || slash[1] == '\0' || slash[1] == '-' || slash[1] == '+')
        return HDO_ERR_SYNTAX;
    if ((status = hdo_parse_decimal(q, s, (size_t)(slash - s))) == 0) {
        fmpq_t d;
        fmpq_init(d);
        status = hdo_parse_decimal(d, slash + 1, strlen(slash + 1));
        if (status == 0 && fmpq_is_zero(d))
            status = HDO_ERR_DOMAIN;
        if (status == 0)
            fmpq_div(q, q, d);
        fmpq_clear(d);
    }
    return status;
}

int
hdo_model_add_override(hdo_model_t model, const char *arg, hdo_error_t *err)
{
    const char *eq = strchr(arg, '=');
    hdo_override *o, *p;
    size_t n;
    slong i;
    int status;
    if (eq == NULL || eq == arg)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "-p: expected NAME=VALUE, got '%s'", arg);
    n = (size_t)(eq - arg);
    for (i = 0; i < model->noverrides; i++)
        if (strlen(model->overrides[i].name) == n &&
            memcmp(model->overrides[i].name, arg, n) == 0)
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "-p: parameter '%.*s' given twice", (int)n,
                                 arg);
    p = realloc(model->overrides,
                (size_t)(model->noverrides + 1) * sizeof *model->overrides);
    if (p == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    model->overrides = p;
    o = p + model->noverrides;
    memset(o, 0, sizeof *o);
    fmpq_init(o->value);
    status = parse_override_value(o->value, eq + 1);
    if (status != 0) {
        fmpq_clear(o->value);
        if (status == HDO_ERR_DOMAIN)
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "-p %s: division by zero", arg);
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "-p %s: '%s' is not a number (write an exact "
                             "decimal such as 9.81 or -1e-3, or a ratio such "
                             "as 1/3)",
                             arg, eq + 1);
    }
    o->name = strndup(arg, n);
    o->text = strdup(eq + 1);
    if (o->name == NULL || o->text == NULL) {
        free(o->name);
        free(o->text);
        fmpq_clear(o->value);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    model->noverrides++;
    return 0;
}

slong
hdo_model_find_var(const hdo_model_t model, const char *name)
{
    hdo_name_entry *e = hdo_names_find(model->names, name, strlen(name));
    return e != NULL && e->kind == HDO_NAME_VAR ? e->index : -1;
}

slong
hdo_model_find_mode(const hdo_model_t model, const char *name)
{
    hdo_name_entry *e = hdo_names_find(model->names, name, strlen(name));
    return e != NULL && e->kind == HDO_NAME_MODE ? e->index : -1;
}

/* Empties a model after a failed parse but keeps its file name, which
   the error record points to. */
static void
reset_keep_file(hdo_model_t model)
{
    char *file = model->file;
    model->file = NULL;
    hdo_model_clear(model);
    hdo_model_init(model);
    model->file = file;
}

int
hdo_model_parse_string(hdo_model_t model, const char *text, size_t len,
                       const char *filename, hdo_error_t *err)
{
    hdo_lexed_t lx;
    int status = 0;
    slong i;
    hdo_error_t local;

    if (err == NULL)
        err = &local;
    hdo_error_clear(err);
    if (filename != NULL && (model->file = strdup(filename)) == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    if ((model->names = hdo_names_new()) == NULL)
        status = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");

    hdo_lexed_init(lx);
    if (status == 0)
        status = hdo_lex(lx, text, len, err);
    if (status == 0)
        status = hdo_model_parse_tokens(model, lx, err);
    hdo_lexed_clear(lx);

    if (status == 0) {
        model->var_names =
            malloc(((size_t)model->nvars + 1) * sizeof *model->var_names);
        if (model->var_names == NULL)
            status = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        else
            for (i = 0; i < model->nvars; i++)
                model->var_names[i] = model->vars[i].name;
    }
    if (status == 0)
        status = hdo_model_expand_perp(model, err);
    if (status == 0)
        status = hdo_model_expand_patterns(model, err);
    if (status != 0) {
        reset_keep_file(model);
        err->status = status;
        err->file = model->file;
    }
    return status;
}

int
hdo_model_parse_file(hdo_model_t model, const char *path, hdo_error_t *err)
{
    char *buf;
    size_t len;
    int status;

    if (err != NULL)
        hdo_error_clear(err);
    /* The reading stops at the cap (/dev/zero, a mistaken disk image)
       and at the first NUL byte: the text up to it goes to the lexer,
       which reports the NUL with its line and column, so a binary file
       is refused after its first chunk. */
    status = hdo_read_whole_file(&buf, &len, path,
                                 (size_t)HDO_MODEL_MAX_FILE_MIB << 20,
                                 HDO_FILE_STOP_AT_NUL, err);
    if (status == HDO_ERR_INPUT) /* with STOP_AT_NUL: only the size */
        status = hdo_error_set(err, HDO_ERR_IO, 0, 0,
                               "model file larger than %d MiB, the most hdo "
                               "reads",
                               HDO_MODEL_MAX_FILE_MIB);
    if (status != 0) {
        model->file = strdup(path);
        if (err != NULL)
            err->file = model->file;
        return status;
    }
    /* Lines that end with a carriage return alone (classic Mac OS) would
       read as one long line: say so instead of a puzzling syntax error
       at the second line's first word. */
    const char *cr = memchr(buf, '\r', len);
    if (cr != NULL && memchr(buf, '\n', len) == NULL) {
        int col = (int)(cr - buf) + 1;
        free(buf);
        model->file = strdup(path);
        status = hdo_error_set(
            err, HDO_ERR_SYNTAX, 1, col,
            "the lines end with a carriage return alone (classic Mac OS "
            "line ends): convert the file to LF (or CRLF) line ends");
        if (err != NULL)
            err->file = model->file;
        return status;
    }
    status = hdo_model_parse_string(model, buf, len, path, err);
    free(buf);
    return status;
}
