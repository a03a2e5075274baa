/* cells.c -- a CSV file read as text: the header and every cell as
 * written, for comparisons digit by digit (golden references) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <string.h>
#include "formats.h"

void
hdo_csv_cells_init(hdo_csv_cells_t c)
{
    memset(c, 0, sizeof *c);
}

void
hdo_csv_cells_clear(hdo_csv_cells_t c)
{
    free(c->file);
    free(c->buf);
    free(c->off);
    free(c->line);
    memset(c, 0, sizeof *c);
}

const char *
hdo_csv_cell(const hdo_csv_cells_t c, slong row, slong col)
{
    /* row -1 is the header */
    return c->buf + c->off[(row + 1) * c->ncols + col];
}

/* Stores the lexer's current row (every cell, NUL-terminated) as slot
   slot of c: 0 the header, k the k-th row. */
static int
store_row(hdo_csv_cells_t c, slong slot, const csv_lexer *lx)
{
    slong k = slot * c->ncols, a = c->off_alloc;
    if (hdo_grow((void **)&c->off, &a, k + c->ncols, sizeof(size_t)))
        return HDO_ERR_MEMORY;
    c->off_alloc = a;
    a = c->line_alloc;
    if (hdo_grow((void **)&c->line, &a, slot + 1, sizeof(int)))
        return HDO_ERR_MEMORY;
    c->line_alloc = a;
    for (slong j = 0; j < c->ncols; j++) {
        const csv_cell *cell = lx->cells + j;
        slong need = (slong)(c->len + cell->len + 1), b = c->buf_alloc;
        if (hdo_grow((void **)&c->buf, &b, need, 1))
            return HDO_ERR_MEMORY;
        c->buf_alloc = b;
        c->off[k + j] = c->len;
        memcpy(c->buf + c->len, cell->s, cell->len + 1);
        c->len += cell->len + 1;
    }
    c->line[slot] = lx->line;
    return 0;
}

/* The rows after the header, each with as many cells as it. */
static int
read_rows(hdo_csv_cells_t c, csv_lexer *lx, hdo_error_t *err)
{
    int st;
    while ((st = csv_next_row(lx, err)) == 1) {
        if (lx->ncells != c->ncols)
            return hdo_error_set(
                err, HDO_ERR_INPUT, lx->line,
                lx->ncells < c->ncols ? lx->end_col : lx->cells[c->ncols].col,
                "expected %ld cells as in the header, found %ld",
                (long)c->ncols, (long)lx->ncells);
        if (store_row(c, c->nrows + 1, lx) != 0)
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        c->nrows++;
    }
    return st;
}

int
hdo_csv_cells_read_string(hdo_csv_cells_t c, const char *text, size_t len,
                          const char *filename, hdo_error_t *err)
{
    csv_lexer lx;
    int st;
    c->file = strdup(filename != NULL ? filename : "<csv>");
    if (err != NULL)
        err->file = c->file;
    if (c->file == NULL || csv_lexer_init(&lx, text, len) != 0) {
        if (c->file != NULL)
            csv_lexer_clear(&lx);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    /* hdo's own files: commas, whatever the header holds */
    st = csv_next_row(&lx, err);
    if (st == 0)
        st = hdo_error_set(err, HDO_ERR_INPUT, 1, 1,
                           "empty file: expected a header line");
    if (st == 1) {
        c->ncols = lx.ncells;
        st = store_row(c, 0, &lx) != 0
                 ? hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory")
                 : read_rows(c, &lx, err);
    }
    csv_lexer_clear(&lx);
    return st;
}
