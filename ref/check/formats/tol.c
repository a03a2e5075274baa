/* tol.c -- the reader of tolerance files (tolerances/<case>.tol) */
/* strtod_l, newlocale and strdup are POSIX/GNU: declared here so the
   file compiles alike in the Makefile build and in a bare fuzzer build. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats.h"

void
hdo_tol_init(hdo_tol_t tol)
{
    memset(tol, 0, sizeof *tol);
    tol->time_abs = 1e-6;
    tol->value_abs = 1e-8;
    tol->value_rel = 1e-6;
    tol->modes_exact = 1;
}

void
hdo_tol_clear(hdo_tol_t tol)
{
    free(tol->file);
    for (slong i = 0; i < tol->nvariables; i++)
        free(tol->variables[i].name);
    free(tol->variables);
    for (slong i = 0; i < tol->nmap; i++) {
        free(tol->map[i].from);
        free(tol->map[i].to);
    }
    free(tol->map);
    memset(tol, 0, sizeof *tol);
}

static int
is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static int
is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The end of the variable name that starts at p (before vend): a model
   variable as the output columns name it, so name characters and dots
   (`ball.h`, a hierarchical name) and, after them, at most one index of
   digits in brackets (`u[10]`, an array element, model format v2).  A
   bracket that is not closed by digits ends the name before it, so the
   caller reports the '[' as the unexpected character. */
static const char *
tol_var_end(const char *p, const char *vend)
{
    const char *q;

    while (p < vend && (is_name_char(*p) || *p == '.'))
        p++;
    if (p == vend || *p != '[')
        return p;
    q = p + 1;
    while (q < vend && isdigit((unsigned char)*q))
        q++;
    if (q == p + 1 || q == vend || *q != ']')
        return p;
    return q + 1;
}

/* The value text v[0..n) at column col as a finite number >= 0. */
static int
tol_number(double *x, const char *v, size_t n, int line, int col,
           const char *key, locale_t loc, hdo_error_t *err)
{
    csv_cell cell;
    int st;
    char *s = malloc(n + 1);
    if (s == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, line, col, "out of memory");
    memcpy(s, v, n);
    s[n] = '\0';
    cell.s = s;
    cell.len = n;
    cell.cap = n + 1;
    cell.col = col;
    st = csv_number(x, &cell, line, "a number", loc, err);
    free(s);
    if (st == 0 && !(isfinite(*x) && *x >= 0))
        st = hdo_error_set(err, HDO_ERR_INPUT, line, col,
                           "%s must be a finite number >= 0", key);
    return st;
}

static int
add_variable(hdo_tol_t tol, const char *s, size_t n, int line, int col,
             hdo_error_t *err)
{
    slong k = tol->nvariables;
    hdo_tol_var *v;
    if (hdo_grow((void **)&tol->variables, &tol->variables_alloc, k + 1,
                 sizeof *tol->variables) != 0)
        return hdo_error_set(err, HDO_ERR_MEMORY, line, col, "out of memory");
    v = tol->variables + k;
    if ((v->name = strndup(s, n)) == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, line, col, "out of memory");
    v->line = line;
    v->col = col;
    for (slong i = 0; i < k; i++)
        if (strcmp(tol->variables[i].name, v->name) == 0) {
            free(v->name);
            return hdo_error_set(err, HDO_ERR_INPUT, line, col,
                                 "the variable '%s' is listed twice",
                                 tol->variables[i].name);
        }
    tol->nvariables++;
    return 0;
}

static const char *const keys[] = {"time_abs",  "value_abs", "value_rel",
                                   "variables", "modes",     "map"};

int
hdo_tol_add_map(hdo_tol_t tol, const char *cand, size_t ncand, const char *var,
                size_t nvar, int line, int col, hdo_error_t *err)
{
    slong k = tol->nmap;
    hdo_tol_map_entry *m;
    if (hdo_grow((void **)&tol->map, &tol->map_alloc, k + 1,
                 sizeof *tol->map) != 0)
        return hdo_error_set(err, HDO_ERR_MEMORY, line, col, "out of memory");
    m = tol->map + k;
    if ((m->from = strndup(cand, ncand)) == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, line, col, "out of memory");
    if ((m->to = strndup(var, nvar)) == NULL) {
        free(m->from);
        return hdo_error_set(err, HDO_ERR_MEMORY, line, col, "out of memory");
    }
    m->line = line;
    m->col = col;
    tol->nmap++;
    for (slong i = 0; i < k; i++)
        if (line > 0 && tol->map[i].line > 0 &&
            strcmp(tol->map[i].from, m->from) == 0)
            return hdo_error_set(err, HDO_ERR_INPUT, line, col,
                                 "the column '%s' is mapped twice", m->from);
    return 0;
}

const char *
hdo_tol_map_name(const hdo_tol_t tol, const char *cand)
{
    for (slong i = tol->nmap - 1; i >= 0; i--)
        if (strcmp(tol->map[i].from, cand) == 0)
            return tol->map[i].to;
    return cand;
}

static int
tol_line(hdo_tol_t tol, const char *p, const char *end, int line, int *seen,
         locale_t loc, hdo_error_t *err)
{
    const char *ls = p, *k0, *v0, *vend;
    size_t klen;
    int key = -1;
    char shown[200];
    /* Drop the comment and trailing blanks. */
    vend = memchr(p, '#', (size_t)(end - p));
    if (vend == NULL)
        vend = end;
    while (vend > p && is_space(vend[-1]))
        vend--;
    while (p < vend && is_space(*p))
        p++;
    if (p == vend)
        return 0;
    k0 = p;
    while (p < vend && is_name_char(*p))
        p++;
    klen = (size_t)(p - k0);
    for (int i = 0; i < 6 && klen > 0; i++)
        if (strlen(keys[i]) == klen && memcmp(keys[i], k0, klen) == 0)
            key = i;
    if (key < 0) {
        const char *w = k0;
        while (w < vend && !is_space(*w) && *w != '=')
            w++;
        csv_quote(shown, sizeof shown, k0, (size_t)(w - k0));
        return hdo_error_set(err, HDO_ERR_INPUT, line, (int)(k0 - ls + 1),
                             "unknown key '%s' (expected time_abs, "
                             "value_abs, value_rel, variables, modes or map)",
                             shown);
    }
    if (seen[key])
        return hdo_error_set(err, HDO_ERR_INPUT, line, (int)(k0 - ls + 1),
                             "the key %s is given twice (first on line %d)",
                             keys[key], seen[key]);
    seen[key] = line;
    while (p < vend && is_space(*p))
        p++;
    if (p >= vend || *p != '=')
        return hdo_error_set(err, HDO_ERR_INPUT, line, (int)(p - ls + 1),
                             "expected '=' after %s", keys[key]);
    p++;
    while (p < vend && is_space(*p))
        p++;
    v0 = p;
    if (v0 == vend)
        return hdo_error_set(err, HDO_ERR_INPUT, line, (int)(v0 - ls + 1),
                             "expected a value for %s", keys[key]);
    switch (key) {
    case 0:
        return tol_number(&tol->time_abs, v0, (size_t)(vend - v0), line,
                          (int)(v0 - ls + 1), keys[key], loc, err);
    case 1:
        return tol_number(&tol->value_abs, v0, (size_t)(vend - v0), line,
                          (int)(v0 - ls + 1), keys[key], loc, err);
    case 2:
        return tol_number(&tol->value_rel, v0, (size_t)(vend - v0), line,
                          (int)(v0 - ls + 1), keys[key], loc, err);
    case 3:
        tol->has_variables = 1;
        while (p < vend) {
            const char *w = p;
            int st;
            if (is_name_char(*p))
                p = tol_var_end(p, vend);
            if (p == w) {
                csv_quote(shown, sizeof shown, p, 1);
                return hdo_error_set(
                    err, HDO_ERR_INPUT, line, (int)(p - ls + 1),
                    "expected a variable name, found '%s'", shown);
            }
            st = add_variable(tol, w, (size_t)(p - w), line, (int)(w - ls + 1),
                              err);
            if (st)
                return st;
            while (p < vend && (is_space(*p) || *p == ','))
                p++;
        }
        return 0;
    case 5:
        /* CANDIDATE_NAME=MODEL_VAR pairs separated by blanks or commas */
        while (p < vend) {
            const char *w = p, *eq = NULL;
            int st;
            while (p < vend && !is_space(*p) && *p != ',') {
                if (*p == '=' && eq == NULL)
                    eq = p;
                p++;
            }
            if (eq == NULL || eq == w || eq + 1 == p) {
                csv_quote(shown, sizeof shown, w, (size_t)(p - w));
                return hdo_error_set(err, HDO_ERR_INPUT, line,
                                     (int)(w - ls + 1),
                                     "expected CANDIDATE_NAME=MODEL_VAR, "
                                     "found '%s'",
                                     shown);
            }
            st = hdo_tol_add_map(tol, w, (size_t)(eq - w), eq + 1,
                                 (size_t)(p - eq - 1), line, (int)(w - ls + 1),
                                 err);
            if (st)
                return st;
            while (p < vend && (is_space(*p) || *p == ','))
                p++;
        }
        return 0;
    default:
        if ((size_t)(vend - v0) == 5 && memcmp(v0, "exact", 5) == 0)
            tol->modes_exact = 1;
        else if ((size_t)(vend - v0) == 6 && memcmp(v0, "ignore", 6) == 0)
            tol->modes_exact = 0;
        else {
            csv_quote(shown, sizeof shown, v0, (size_t)(vend - v0));
            return hdo_error_set(err, HDO_ERR_INPUT, line, (int)(v0 - ls + 1),
                                 "expected 'exact' or 'ignore' for modes, "
                                 "found '%s'",
                                 shown);
        }
        return 0;
    }
}

int
hdo_tol_read_string(hdo_tol_t tol, const char *text, size_t len,
                    const char *filename, hdo_error_t *err)
{
    const char *p = text, *end = text + len;
    int line = 1, st = 0, seen[6] = {0};
    locale_t loc;
    tol->file = strdup(filename != NULL ? filename : "<tolerances>");
    if (err != NULL)
        err->file = tol->file;
    if (tol->file == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (loc == (locale_t)0)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    while (p < end && st == 0) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (e == NULL)
            e = end;
        if (memchr(p, '\0', (size_t)(e - p)) != NULL)
            st = hdo_error_set(err, HDO_ERR_INPUT, line, 1,
                               "a NUL byte: not a text file");
        else
            st = tol_line(tol, p, e, line, seen, loc, err);
        p = e < end ? e + 1 : end;
        line++;
    }
    freelocale(loc);
    /* keys[] order: time_abs, value_abs, value_rel */
    tol->line_time_abs = seen[0];
    tol->line_value_abs = seen[1];
    tol->line_value_rel = seen[2];
    return st;
}

int
hdo_tol_read_file(hdo_tol_t tol, const char *path, hdo_error_t *err)
{
    char *text;
    size_t len;
    int st = hdo_read_whole_file(&text, &len, path, HDO_INPUT_MAX_BYTES,
                                 HDO_FILE_REFUSE_NUL, err);
    if (st) {
        free(tol->file);
        tol->file = strdup(path);
        if (err != NULL)
            err->file = tol->file;
        return st;
    }
    st = hdo_tol_read_string(tol, text, len, path, err);
    free(text);
    return st;
}
