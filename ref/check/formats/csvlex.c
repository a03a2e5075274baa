/* csvlex.c -- the CSV tokenizer, the C-locale number parser and string tables
 */
/* strtod_l, newlocale and strdup are POSIX/GNU: declared here so the
   file compiles alike in the Makefile build and in a bare fuzzer build. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats.h"

void
hdo_strtab_init(hdo_strtab *tab)
{
    memset(tab, 0, sizeof *tab);
}

void
hdo_strtab_clear(hdo_strtab *tab)
{
    for (slong i = 0; i < tab->n; i++)
        free(tab->names[i]);
    free(tab->names);
    free(tab->line);
    free(tab->col);
    memset(tab, 0, sizeof *tab);
}

/* A linear search: files name a handful of modes, and a hostile file with
   many distinct names only costs time, bounded by its size squared over
   the name length, which the fuzzer keeps small. */
slong
hdo_strtab_intern(hdo_strtab *tab, const char *s, int line, int col)
{
    slong a;
    char *copy;
    for (slong i = 0; i < tab->n; i++)
        if (strcmp(tab->names[i], s) == 0)
            return i;
    if (tab->n == tab->alloc) {
        a = tab->alloc;
        if (hdo_grow((void **)&tab->names, &a, tab->n + 1, sizeof(char *)))
            return HDO_ERR_MEMORY;
        a = tab->alloc;
        if (hdo_grow((void **)&tab->line, &a, tab->n + 1, sizeof(int)))
            return HDO_ERR_MEMORY;
        a = tab->alloc;
        if (hdo_grow((void **)&tab->col, &a, tab->n + 1, sizeof(int)))
            return HDO_ERR_MEMORY;
        tab->alloc = a;
    }
    copy = strdup(s);
    if (copy == NULL)
        return HDO_ERR_MEMORY;
    tab->names[tab->n] = copy;
    tab->line[tab->n] = line;
    tab->col[tab->n] = col;
    return tab->n++;
}

int
csv_lexer_init(csv_lexer *lx, const char *text, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (lx->loc == (locale_t)0)
        return HDO_ERR_MEMORY;
    lx->p = text;
    lx->end = text + len;
    lx->next_line = 1;
    lx->sep = ',';
    /* A UTF-8 byte order mark, as spreadsheet programs write. */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        lx->p += 3;
    return 0;
}

void
csv_lexer_clear(csv_lexer *lx)
{
    for (slong i = 0; i < lx->cells_alloc; i++)
        free(lx->cells[i].s);
    free(lx->cells);
    if (lx->loc != (locale_t)0)
        freelocale(lx->loc);
    memset(lx, 0, sizeof *lx);
}

static int
cell_put(csv_cell *c, char ch)
{
    if (c->len + 1 >= c->cap) {
        size_t cap = c->cap < 32 ? 32 : 2 * c->cap;
        char *s = realloc(c->s, cap);
        if (s == NULL)
            return HDO_ERR_MEMORY;
        c->s = s;
        c->cap = cap;
    }
    c->s[c->len++] = ch;
    c->s[c->len] = '\0';
    return 0;
}

static int
is_eol(char ch)
{
    return ch == '\n' || ch == '\r';
}

/* Blanks around a cell are trimmed, except the separator itself (a tab
   in a tab-separated file). */
static int
is_blank_sep(char ch, char sep)
{
    return (ch == ' ' || ch == '\t') && ch != sep;
}
#define is_blank(ch) is_blank_sep((ch), lx->sep)

/* Whether ch ends a cell: the separator, or with whitespace separation
   (sep ' ') any blank. */
static int
is_sep(char ch, char sep)
{
    return sep == ' ' ? (ch == ' ' || ch == '\t') : ch == sep;
}

void
csv_detect_separator(csv_lexer *lx)
{
    const char *p = lx->p, *end = lx->end;
    slong count[3] = {0, 0, 0};
    static const char seps[3] = {',', ';', '\t'};
    int inq = 0, k, best;
    /* the header: the first line that is neither blank nor a comment */
    for (;;) {
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q >= end || (!is_eol(*q) && *q != '#'))
            break;
        while (q < end && !is_eol(*q))
            q++;
        while (q < end && is_eol(*q))
            q++;
        p = q;
    }
    for (; p < end && !is_eol(*p); p++) {
        if (*p == '"')
            inq = !inq;
        for (k = 0; k < 3 && !inq; k++)
            count[k] += *p == seps[k];
    }
    best = -1;
    for (k = 0; k < 3; k++)
        if (count[k] > (best < 0 ? 0 : count[best]))
            best = k;
    lx->sep = best < 0 ? ' ' : seps[best];
}

/* Columns are counted in bytes from 1; a line longer than INT_MAX bytes
   saturates rather than overflows. */
static int
col_of(const char *p, const char *line_start)
{
    ptrdiff_t d = p - line_start + 1;
    return d > 0x7fffffff ? 0x7fffffff : (int)d;
}

static const char *
skip_eol(const char *p, const char *end)
{
    if (p < end && *p == '\r') {
        p++;
        if (p < end && *p == '\n')
            p++;
    } else if (p < end && *p == '\n') {
        p++;
    }
    return p;
}

int
csv_next_row(csv_lexer *lx, hdo_error_t *err)
{
    const char *p = lx->p, *end = lx->end, *ls;
    for (;;) {
        const char *q = p;
        if (p >= end) {
            lx->p = p;
            return 0;
        }
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q < end && !is_eol(*q) && *q != '#')
            break;
        /* A blank line, or a comment: `#` first on its line. */
        while (q < end && !is_eol(*q))
            q++;
        p = skip_eol(q, end);
        if (lx->next_line < 0x7fffffff)
            lx->next_line++;
    }
    lx->line = lx->next_line;
    ls = p;
    if (lx->sep == ' ')
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
    lx->ncells = 0;
    for (;;) {
        csv_cell *c;
        const char *last_nonblank;
        if (lx->ncells == lx->cells_alloc) {
            slong a = lx->cells_alloc;
            if (hdo_grow((void **)&lx->cells, &a, lx->ncells + 1,
                         sizeof(csv_cell)))
                return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0,
                                     "out of memory");
            memset(lx->cells + lx->cells_alloc, 0,
                   (size_t)(a - lx->cells_alloc) * sizeof(csv_cell));
            lx->cells_alloc = a;
        }
        c = lx->cells + lx->ncells++;
        c->len = 0;
        if (cell_put(c, 'x'))
            return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0,
                                 "out of memory");
        c->len = 0;
        c->s[0] = '\0';
        while (p < end && is_blank(*p))
            p++;
        c->col = col_of(p, ls);
        if (p < end && *p == '"') {
            int qcol = col_of(p, ls);
            p++;
            for (;;) {
                if (p >= end || is_eol(*p))
                    return hdo_error_set(err, HDO_ERR_INPUT, lx->line, qcol,
                                         "unterminated quoted cell (a "
                                         "quoted cell ends on its line)");
                if (*p == '"') {
                    if (p + 1 < end && p[1] == '"') {
                        p += 2;
                        if (cell_put(c, '"'))
                            goto nomem;
                        continue;
                    }
                    p++;
                    break;
                }
                if (cell_put(c, *p++))
                    goto nomem;
            }
            while (p < end && is_blank(*p))
                p++;
            if (p < end && !is_sep(*p, lx->sep) && !is_eol(*p))
                return hdo_error_set(err, HDO_ERR_INPUT, lx->line,
                                     col_of(p, ls),
                                     "expected '%s' or the end of the line "
                                     "after a quoted cell",
                                     lx->sep == '\t'  ? "\\t"
                                     : lx->sep == ' ' ? " "
                                     : lx->sep == ';' ? ";"
                                                      : ",");
        } else {
            const char *start = p;
            last_nonblank = p;
            while (p < end && !is_sep(*p, lx->sep) && !is_eol(*p)) {
                if (*p == '"')
                    return hdo_error_set(err, HDO_ERR_INPUT, lx->line,
                                         col_of(p, ls),
                                         "a quote inside an unquoted cell");
                if (!is_blank(*p))
                    last_nonblank = p + 1;
                p++;
            }
            for (const char *r = start; r < last_nonblank; r++)
                if (cell_put(c, *r))
                    goto nomem;
        }
        if (p < end && is_sep(*p, lx->sep)) {
            p++;
            if (lx->sep == ' ') {
                /* a run of blanks is one separator; blanks before the
                   line end are none */
                while (p < end && (*p == ' ' || *p == '\t'))
                    p++;
                if (p >= end || is_eol(*p)) {
                    lx->end_col = col_of(p, ls);
                    p = skip_eol(p, end);
                    if (lx->next_line < 0x7fffffff)
                        lx->next_line++;
                    lx->p = p;
                    return 1;
                }
            }
            continue;
        }
        lx->end_col = col_of(p, ls);
        p = skip_eol(p, end);
        if (lx->next_line < 0x7fffffff)
            lx->next_line++;
        lx->p = p;
        return 1;
    }
nomem:
    return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0, "out of memory");
}

void
csv_quote(char *out, size_t n, const char *s, size_t len)
{
    size_t k = 0;
    if (n == 0)
        return;
    for (size_t i = 0; i < len && k + 8 < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (i >= 40) {
            k += (size_t)snprintf(out + k, n - k, "...");
            break;
        }
        if (ch >= 0x20 && ch < 0x7f && ch != '\\')
            out[k++] = (char)ch;
        else
            k += (size_t)snprintf(out + k, n - k, "\\x%02x", ch);
    }
    out[k < n ? k : n - 1] = '\0';
}

/* strtod_l in the C locale: the library must not change the process
   locale, and plain strtod would follow it (a decimal comma). */
int
csv_number(double *x, const csv_cell *cell, int line, const char *what,
           locale_t loc, hdo_error_t *err)
{
    char shown[200];
    char *endp;
    double v;
    csv_quote(shown, sizeof shown, cell->s, cell->len);
    if (cell->len == 0)
        return hdo_error_set(err, HDO_ERR_INPUT, line, cell->col,
                             "expected %s, found an empty cell", what);
    if (strlen(cell->s) != cell->len || isspace((unsigned char)cell->s[0]))
        return hdo_error_set(err, HDO_ERR_INPUT, line, cell->col,
                             "expected %s, found '%s'", what, shown);
    errno = 0;
    v = strtod_l(cell->s, &endp, loc);
    if (endp == cell->s || *endp != '\0')
        return hdo_error_set(err, HDO_ERR_INPUT, line, cell->col,
                             "expected %s, found '%s'", what, shown);
    if (errno == ERANGE && isinf(v))
        return hdo_error_set(err, HDO_ERR_INPUT, line, cell->col,
                             "the number '%s' is beyond the range of a "
                             "double",
                             shown);
    *x = v;
    return 0;
}
