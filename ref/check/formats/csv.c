/* csv.c -- the reader of a candidate's CSV result (hdo check) */
/* strtod_l, newlocale and strdup are POSIX/GNU: declared here so the
   file compiles alike in the Makefile build and in a bare fuzzer build. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats.h"

void
hdo_csv_init(hdo_csv_t csv)
{
    memset(csv, 0, sizeof *csv);
    hdo_strtab_init(&csv->modes);
}

void
hdo_csv_clear(hdo_csv_t csv)
{
    free(csv->file);
    for (slong i = 0; i < csv->ncols; i++)
        free(csv->names[i]);
    free(csv->names);
    free(csv->name_col);
    free(csv->time);
    free(csv->values);
    free(csv->present);
    free(csv->mode);
    free(csv->line);
    free(csv->mode_cell_col);
    hdo_strtab_clear(&csv->modes);
    memset(csv, 0, sizeof *csv);
}

slong
hdo_csv_find_column(const hdo_csv_t csv, const char *name)
{
    for (slong i = 0; i < csv->ncols; i++)
        if (strcmp(csv->names[i], name) == 0)
            return i;
    return -1;
}

/* Sets *p to a block of n bytes keeping its contents; on failure leaves it
   as it was. */
static int
resize(void *pp, size_t n)
{
    void **p = pp;
    void *q = realloc(*p, n);
    if (q == NULL)
        return HDO_ERR_MEMORY;
    *p = q;
    return 0;
}

/* Makes room for one more row in every per-row array.  A failure half way
   leaves some arrays larger than csv->alloc, never smaller: still safe. */
static int
grow_rows(hdo_csv_t csv)
{
    size_t cap, nc = (size_t)(csv->ncols > 0 ? csv->ncols : 1);
    if (csv->nrows < csv->alloc)
        return 0;
    cap = csv->alloc < 64 ? 64 : 2 * (size_t)csv->alloc;
    if (cap > (size_t)WORD_MAX || cap > SIZE_MAX / sizeof(double) / nc)
        return HDO_ERR_MEMORY;
    if (resize(&csv->time, cap * sizeof(double)) ||
        resize(&csv->values, cap * nc * sizeof(double)) ||
        resize(&csv->present, cap * nc) ||
        resize(&csv->mode, cap * sizeof(slong)) ||
        resize(&csv->line, cap * sizeof(int)) ||
        resize(&csv->mode_cell_col, cap * sizeof(int)))
        return HDO_ERR_MEMORY;
    csv->alloc = (slong)cap;
    return 0;
}

/* The header, kept until the first data row tells the width of each
   column (an FMI 3 array cell "1 2 3" under y makes y[1], y[2], y[3]). */
typedef struct {
    slong n;      /* header cells */
    char **name;  /* n (name[0]: the time column) */
    int *col;     /* 1-based columns */
    slong *width; /* values per cell (0 for time and mode) */
    slong *first; /* first value column of each cell */
} header;

static void
header_clear(header *h)
{
    for (slong i = 0; i < h->n; i++)
        free(h->name[i]);
    free(h->name);
    free(h->col);
    free(h->width);
    free(h->first);
    memset(h, 0, sizeof *h);
}

static int
is_time_name(const char *s)
{
    return strcmp(s, "time") == 0 || strcmp(s, "Time") == 0 ||
           strcmp(s, "t") == 0;
}

/* Whether the cell holds one number and nothing else (a data row where a
   header was expected). */
static int
cell_is_number(const csv_cell *c, locale_t loc)
{
    char *end;
    if (c->len == 0 || strlen(c->s) != c->len)
        return 0;
    strtod_l(c->s, &end, loc);
    return end == c->s + c->len;
}

static int
read_header(hdo_csv_t csv, header *h, csv_lexer *lx, hdo_error_t *err)
{
    char shown[200];
    slong n = lx->ncells;
    const csv_cell *c0 = lx->cells;
    csv->header_line = lx->line;
    if (csv->columns == NULL && cell_is_number(c0, lx->loc)) {
        /* Octave's and MATLAB's csvwrite and dlmwrite write no header */
        csv_quote(shown, sizeof shown, c0->s, c0->len);
        return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c0->col,
                             "the file has no header line: line %d starts "
                             "with the number %s; name its %ld columns by "
                             "position with --columns (time first: "
                             "--columns time,x,...)",
                             lx->line, shown, (long)n);
    }
    if (!is_time_name(c0->s) || strlen(c0->s) != c0->len) {
        csv_quote(shown, sizeof shown, c0->s, c0->len);
        return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c0->col,
                             "expected the header's first column to be "
                             "'time' (or 'Time' or 't'), found '%s'",
                             shown);
    }
    h->name = calloc((size_t)n, sizeof(char *));
    h->col = calloc((size_t)n, sizeof(int));
    h->width = calloc((size_t)n, sizeof(slong));
    h->first = calloc((size_t)n, sizeof(slong));
    if (h->name == NULL || h->col == NULL || h->width == NULL ||
        h->first == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0, "out of memory");
    for (slong i = 0; i < n; i++) {
        const csv_cell *c = lx->cells + i;
        csv_quote(shown, sizeof shown, c->s, c->len);
        if (c->len == 0)
            return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                 "empty column name in the header");
        if (strlen(c->s) != c->len)
            return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                 "a NUL byte in the column name '%s'", shown);
        if (i > 0 && strcmp(c->s, c0->s) == 0)
            return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                 "a second '%s' column", shown);
        if (i > 0 && strcmp(c->s, "mode") == 0) {
            if (csv->has_mode)
                return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                     "a second 'mode' column");
            csv->has_mode = 1;
            csv->mode_col = (int)(i + 1);
        }
        for (slong k = 1; k < i; k++)
            if (strcmp(h->name[k], c->s) == 0)
                return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                     "the column '%s' appears twice", shown);
        h->name[i] = strdup(c->s);
        h->col[i] = c->col;
        h->n = i + 1;
        if (h->name[i] == NULL)
            return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0,
                                 "out of memory");
    }
    return 0;
}

/* Numbers separated by blanks in one cell: how many, and where each
   starts and ends (at most max). */
static slong
split_blanks(const char *s, const char **start, size_t *len, slong max)
{
    slong k = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            break;
        if (k < max)
            start[k] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (k < max)
            len[k] = (size_t)(s - start[k]);
        k++;
    }
    return k;
}

/* From the first data row: the width of every value cell and the value
   columns' names. */
static int
make_columns(hdo_csv_t csv, header *h, csv_lexer *lx, hdo_error_t *err)
{
    slong total = 0;
    for (slong i = 1; i < h->n && i < lx->ncells; i++) {
        const csv_cell *c = lx->cells + i;
        slong w = 1;
        if (csv->has_mode && i + 1 == csv->mode_col)
            w = 0;
        else if (lx->sep != ' ' && strlen(c->s) == c->len)
            w = split_blanks(c->s, NULL, NULL, 0);
        if (w < 1 && !(csv->has_mode && i + 1 == csv->mode_col))
            w = 1;
        h->width[i] = w;
        h->first[i] = total;
        total += w;
    }
    csv->names = calloc((size_t)(total + 1), sizeof(char *));
    csv->name_col = calloc((size_t)(total + 1), sizeof(int));
    if (csv->names == NULL || csv->name_col == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0, "out of memory");
    for (slong i = 1; i < h->n; i++)
        for (slong k = 0; k < h->width[i]; k++) {
            size_t len = strlen(h->name[i]) + 24;
            char *nm = malloc(len);
            if (nm == NULL)
                return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0,
                                     "out of memory");
            if (h->width[i] == 1)
                snprintf(nm, len, "%s", h->name[i]);
            else
                snprintf(nm, len, "%s[%ld]", h->name[i], (long)(k + 1));
            csv->names[csv->ncols] = nm;
            csv->name_col[csv->ncols++] = h->col[i];
        }
    for (slong a = 0; a < csv->ncols; a++)
        for (slong b = a + 1; b < csv->ncols; b++)
            if (strcmp(csv->names[a], csv->names[b]) == 0)
                return hdo_error_set(err, HDO_ERR_INPUT, csv->header_line,
                                     csv->name_col[b],
                                     "the column '%s' appears twice (an "
                                     "array cell expands to it)",
                                     csv->names[b]);
    return 0;
}

static int
read_row(hdo_csv_t csv, const header *h, csv_lexer *lx, slong ncells,
         hdo_error_t *err)
{
    slong r = csv->nrows;
    double t;
    int st;
    if (lx->ncells != ncells) {
        if (lx->ncells < ncells)
            return hdo_error_set(err, HDO_ERR_INPUT, lx->line, lx->end_col,
                                 "expected %ld cells as in the header, found "
                                 "%ld",
                                 (long)ncells, (long)lx->ncells);
        return hdo_error_set(err, HDO_ERR_INPUT, lx->line,
                             lx->cells[ncells].col,
                             "expected %ld cells as in the header, found %ld",
                             (long)ncells, (long)lx->ncells);
    }
    if (grow_rows(csv))
        return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0, "out of memory");
    st = csv_number(&t, lx->cells, lx->line, "a time", lx->loc, err);
    if (st)
        return st;
    if (!isfinite(t))
        return hdo_error_set(err, HDO_ERR_INPUT, lx->line, lx->cells[0].col,
                             "the time must be finite");
    if (r > 0 && t < csv->time[r - 1])
        return hdo_error_set(err, HDO_ERR_INPUT, lx->line, lx->cells[0].col,
                             "time goes backwards: %.17g after %.17g on line "
                             "%d (equal times, at events, are fine)",
                             t, csv->time[r - 1], csv->line[r - 1]);
    csv->time[r] = t;
    csv->line[r] = lx->line;
    csv->mode[r] = -1;
    csv->mode_cell_col[r] = 0;
    for (slong i = 1; i < ncells; i++) {
        const csv_cell *c = lx->cells + i;
        slong w = h->width[i], k0 = h->first[i];
        if (csv->has_mode && i + 1 == csv->mode_col) {
            char shown[200];
            slong m;
            if (c->len == 0)
                return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                     "expected a mode name, found an empty "
                                     "cell");
            if (strlen(c->s) != c->len) {
                csv_quote(shown, sizeof shown, c->s, c->len);
                return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                     "expected a mode name, found '%s'", shown);
            }
            m = hdo_strtab_intern(&csv->modes, c->s, lx->line, c->col);
            if (m < 0)
                return hdo_error_set(err, HDO_ERR_MEMORY, lx->line, 0,
                                     "out of memory");
            csv->mode[r] = m;
            csv->mode_cell_col[r] = c->col;
            continue;
        }
        double *v = csv->values + r * csv->ncols + k0;
        unsigned char *pr = csv->present + r * csv->ncols + k0;
        if (c->len == 0) {
            for (slong k = 0; k < w; k++) {
                v[k] = NAN;
                pr[k] = 0;
            }
            continue;
        }
        if (w == 1) {
            st = csv_number(v, c, lx->line, "a number or an empty cell",
                            lx->loc, err);
            if (st)
                return st;
            *pr = 1;
            continue;
        }
        {
            /* an array cell: exactly w numbers separated by blanks */
            const char *start[64];
            size_t len[64];
            slong n = strlen(c->s) == c->len
                          ? split_blanks(c->s, start, len, w < 64 ? w : 64)
                          : -1;
            if (n != w || w > 64)
                return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                     "expected %ld numbers separated by "
                                     "blanks in this array cell, as on the "
                                     "first row, found %ld",
                                     (long)w, (long)n);
            for (slong k = 0; k < w; k++) {
                csv_cell tmp;
                char buf[128];
                if (len[k] >= sizeof buf)
                    return hdo_error_set(err, HDO_ERR_INPUT, lx->line, c->col,
                                         "a number too long in an array "
                                         "cell");
                memcpy(buf, start[k], len[k]);
                buf[len[k]] = '\0';
                tmp.s = buf;
                tmp.len = len[k];
                tmp.cap = sizeof buf;
                tmp.col = c->col + (int)(start[k] - c->s);
                st =
                    csv_number(v + k, &tmp, lx->line, "a number", lx->loc, err);
                if (st)
                    return st;
                pr[k] = 1;
            }
        }
    }
    csv->nrows++;
    return 0;
}

/* The header of a file without one, from csv->columns (names separated
   by commas, the --columns option): read as a header line would be, its
   errors naming the option. */
static int
columns_header(hdo_csv_t csv, header *h, slong *ncells, hdo_error_t *err)
{
    csv_lexer hx;
    int st;
    if (csv_lexer_init(&hx, csv->columns, strlen(csv->columns))) {
        csv_lexer_clear(&hx);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    hx.sep = ',';
    st = csv_next_row(&hx, err);
    if (st == 1) {
        *ncells = hx.ncells;
        st = read_header(csv, h, &hx, err);
    } else if (st == 0) {
        st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0, "--columns is empty");
    }
    csv->header_line = 0;
    if (st != 0 && err != NULL) {
        /* an error of the option, not of a line of the file */
        char msg[sizeof err->message];
        int k = snprintf(msg, sizeof msg, "--columns %.200s: ", csv->columns);
        snprintf(msg + k, sizeof msg - (size_t)k, "%.800s", err->message);
        memcpy(err->message, msg, sizeof msg);
        err->file = NULL;
        err->line = err->col = 0;
    }
    csv_lexer_clear(&hx);
    return st;
}

int
hdo_csv_read_string(hdo_csv_t csv, const char *text, size_t len,
                    const char *filename, hdo_error_t *err)
{
    csv_lexer lx;
    header h;
    int st, pending = 0;
    slong ncells = 0;
    memset(&h, 0, sizeof h);
    csv->file = strdup(filename != NULL ? filename : "<candidate>");
    if (err != NULL)
        err->file = csv->file;
    if (csv->file == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    if (csv_lexer_init(&lx, text, len)) {
        csv_lexer_clear(&lx);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    csv_detect_separator(&lx);
    csv->sep = lx.sep;
    st = csv_next_row(&lx, err);
    if (st == 0)
        st = hdo_error_set(err, HDO_ERR_INPUT, 1, 1,
                           "empty file: expected a header 'time,...'");
    if (st == 1 && csv->columns != NULL) {
        /* the names given by position: the first row is data */
        if (!cell_is_number(lx.cells, lx.loc)) {
            char shown[200];
            csv_quote(shown, sizeof shown, lx.cells[0].s, lx.cells[0].len);
            st = hdo_error_set(err, HDO_ERR_INPUT, lx.line, lx.cells[0].col,
                               "--columns names the columns of a file "
                               "without a header line, but line %d starts "
                               "with %s, not a time",
                               lx.line, shown);
        } else {
            st = columns_header(csv, &h, &ncells, err);
            pending = 1;
        }
    } else if (st == 1) {
        ncells = lx.ncells;
        st = read_header(csv, &h, &lx, err);
    }
    while (st == 0) {
        st = pending ? 1 : csv_next_row(&lx, err);
        pending = 0;
        if (st == 1 && csv->names == NULL) {
            int s2 = make_columns(csv, &h, &lx, err);
            if (s2)
                st = s2;
        }
        if (st == 1)
            st = read_row(csv, &h, &lx, ncells, err);
        else if (st == 0) {
            if (csv->nrows == 0)
                st = hdo_error_set(err, HDO_ERR_INPUT, lx.next_line, 1,
                                   "expected at least one data row after "
                                   "the header");
            break;
        }
    }
    csv_lexer_clear(&lx);
    header_clear(&h);
    return st;
}

int
hdo_csv_read_text_file(hdo_csv_t csv, const char *path, hdo_error_t *err)
{
    char *text;
    size_t len;
    int st = hdo_read_whole_file(&text, &len, path, HDO_INPUT_MAX_BYTES,
                                 HDO_FILE_REFUSE_NUL, err);
    if (st) {
        free(csv->file);
        csv->file = strdup(path);
        if (err != NULL)
            err->file = csv->file;
        return st;
    }
    st = hdo_csv_read_string(csv, text, len, path, err);
    free(text);
    return st;
}
