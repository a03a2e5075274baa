/* events.c -- event lists: cascades, the events inferred from a
 * candidate, and the events file reader (their pairing: judge/pairing.c) */
/* strtod_l, newlocale and strdup are POSIX/GNU: declared here so the
   file compiles alike in the Makefile build and in a bare fuzzer build. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats.h"

void
hdo_evlist_init(hdo_evlist_t list)
{
    memset(list, 0, sizeof *list);
}

void
hdo_evlist_clear(hdo_evlist_t list)
{
    free(list->ev);
    memset(list, 0, sizeof *list);
}

int
hdo_evlist_push(hdo_evlist_t list, double t_lo, double t_hi, slong from,
                slong to, int line)
{
    hdo_cmp_event *e;
    if (hdo_grow((void **)&list->ev, &list->alloc, list->n + 1,
                 sizeof(hdo_cmp_event)))
        return HDO_ERR_MEMORY;
    e = list->ev + list->n++;
    e->t_lo = t_lo;
    e->t_hi = t_hi;
    e->from = from;
    e->to = to;
    e->line = line;
    e->count = 1;
    e->observable = 1;
    e->sample = -1;
    return 0;
}

/* The model's index of file mode m through mode_map (NULL: the same
   index); -1, "no mode", stays -1 (an index, not a status). */
static slong
map_mode(const slong *mode_map, slong m)
{
    if (m < 0)
        return -1;
    return mode_map != NULL ? mode_map[m] : m;
}

/* Whether two cells of one column differ by more than the band
   value_abs + value_rel max(|x|, |y|): a jump (band 0: any difference).
   An empty cell beside a value is a jump; two NaN are none. */
int
hdo_cells_jump(double x, int px, double y, int py, double value_abs,
               double value_rel)
{
    double ax = fabs(x), ay = fabs(y);
    if (px != py)
        return 1;
    if (!px || (isnan(x) && isnan(y)))
        return 0;
    if (isnan(x) || isnan(y))
        return 1;
    return !(fabs(x - y) <= value_abs + value_rel * (ax > ay ? ax : ay));
}

/* Whether in the rows i..j-1 neither the mode nor any of the columns
   col[0..ncol) jumps (NULL: every column): a solver that writes a row
   twice, or writes rows at an instant where only columns that are not
   compared change (OpenModelica's discrete variables), has no event
   there. */
static int
rows_without_jump(const hdo_csv_t csv, slong i, slong j, const slong *col,
                  slong ncol, double value_abs, double value_rel)
{
    slong nc = col != NULL ? ncol : csv->ncols;
    for (slong k = i + 1; k < j; k++) {
        if (csv->has_mode && csv->mode[k] != csv->mode[i])
            return 0;
        for (slong q = 0; q < nc; q++) {
            slong c = col != NULL ? col[q] : q;
            slong a = i * csv->ncols + c, b = k * csv->ncols + c;
            if (hdo_cells_jump(csv->values[a], csv->present[a], csv->values[b],
                               csv->present[b], value_abs, value_rel))
                return 0;
        }
    }
    return 1;
}

int
hdo_evlist_merge_cascades(hdo_evlist_t list)
{
    slong k = 0;
    for (slong i = 0; i < list->n; i++) {
        hdo_cmp_event *e = list->ev + i;
        if (k > 0) {
            hdo_cmp_event *p = list->ev + k - 1;
            double tol = 8 * DBL_EPSILON * fabs(p->t_hi);
            if (e->t_lo == e->t_hi && (p->t_lo == p->t_hi || p->count > 1) &&
                e->t_lo - p->t_hi <= tol) {
                p->t_hi = e->t_hi > p->t_hi ? e->t_hi : p->t_hi;
                p->to = e->to;
                p->count += e->count;
                p->observable |= e->observable;
                continue;
            }
        }
        list->ev[k++] = *e;
    }
    list->n = k;
    return 0;
}

int
hdo_csv_infer_events(hdo_evlist_t list, const hdo_csv_t csv,
                     const slong *mode_map)
{
    return hdo_csv_infer_events_on(list, csv, mode_map, NULL, 0, 0, 0);
}

int
hdo_csv_infer_events_on(hdo_evlist_t list, const hdo_csv_t csv,
                        const slong *mode_map, const slong *col, slong ncol,
                        double value_abs, double value_rel)
{
    slong i = 0, n = csv->nrows;
    while (i < n) {
        slong j = i + 1, k;
        int any = 0;
        /* The group i..j-1 of rows with the same time. */
        while (j < n && csv->time[j] == csv->time[i])
            j++;
        if (j - i > 1 &&
            !rows_without_jump(csv, i, j, col, ncol, value_abs, value_rel)) {
            if (csv->has_mode) {
                for (k = i + 1; k < j; k++)
                    if (csv->mode[k] != csv->mode[k - 1]) {
                        any = 1;
                        if (hdo_evlist_push(
                                list, csv->time[k], csv->time[k],
                                map_mode(mode_map, csv->mode[k - 1]),
                                map_mode(mode_map, csv->mode[k]), csv->line[k]))
                            return HDO_ERR_MEMORY;
                    }
            }
            if (!any && hdo_evlist_push(list, csv->time[i], csv->time[i],
                                        map_mode(mode_map, csv->mode[i]),
                                        map_mode(mode_map, csv->mode[j - 1]),
                                        csv->line[i + 1]))
                return HDO_ERR_MEMORY;
        }
        /* A mode change between this group and the next, at different
           times: the event lies somewhere between them. */
        if (j < n && csv->has_mode && csv->mode[j] != csv->mode[j - 1] &&
            hdo_evlist_push(list, csv->time[j - 1], csv->time[j],
                            map_mode(mode_map, csv->mode[j - 1]),
                            map_mode(mode_map, csv->mode[j]), csv->line[j]))
            return HDO_ERR_MEMORY;
        i = j;
    }
    return 0;
}

/* ------------------------------------------------------------------ */

void
hdo_evfile_init(hdo_evfile_t ef)
{
    memset(ef, 0, sizeof *ef);
    hdo_strtab_init(&ef->modes);
}

void
hdo_evfile_clear(hdo_evfile_t ef)
{
    free(ef->file);
    free(ef->time);
    free(ef->from);
    free(ef->to);
    free(ef->line);
    free(ef->from_col);
    free(ef->to_col);
    hdo_strtab_clear(&ef->modes);
    memset(ef, 0, sizeof *ef);
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

/* Room for one more event in every array (a failure half way leaves some
   arrays larger than ef->alloc, never smaller). */
static int
evfile_grow(hdo_evfile_t ef)
{
    size_t cap;
    if (ef->n < ef->alloc)
        return 0;
    cap = ef->alloc < 16 ? 16 : 2 * (size_t)ef->alloc;
    if (cap > (size_t)WORD_MAX / sizeof(double))
        return HDO_ERR_MEMORY;
    if (resize(&ef->time, cap * sizeof(double)) ||
        resize(&ef->from, cap * sizeof(slong)) ||
        resize(&ef->to, cap * sizeof(slong)) ||
        resize(&ef->line, cap * sizeof(int)) ||
        resize(&ef->from_col, cap * sizeof(int)) ||
        resize(&ef->to_col, cap * sizeof(int)))
        return HDO_ERR_MEMORY;
    ef->alloc = (slong)cap;
    return 0;
}

/* The mode cell c: an index into ef->modes, or -1 when empty. */
static int
evfile_mode(slong *m, hdo_evfile_t ef, const csv_cell *c, int line,
            hdo_error_t *err)
{
    char shown[200];
    *m = -1;
    if (c->len == 0)
        return 0;
    if (strlen(c->s) != c->len) {
        csv_quote(shown, sizeof shown, c->s, c->len);
        return hdo_error_set(err, HDO_ERR_INPUT, line, c->col,
                             "expected a mode name, found '%s'", shown);
    }
    *m = hdo_strtab_intern(&ef->modes, c->s, line, c->col);
    if (*m < 0)
        return hdo_error_set(err, HDO_ERR_MEMORY, line, 0, "out of memory");
    return 0;
}

int
hdo_evfile_read_string(hdo_evfile_t ef, const char *text, size_t len,
                       const char *filename, hdo_error_t *err)
{
    csv_lexer lx;
    slong ncells = 0, ct = -1, cf = -1, cto = -1, ckind = -1;
    int st;
    ef->file = strdup(filename != NULL ? filename : "<events>");
    if (err != NULL)
        err->file = ef->file;
    if (ef->file == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    if (csv_lexer_init(&lx, text, len)) {
        csv_lexer_clear(&lx);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    csv_detect_separator(&lx);
    st = csv_next_row(&lx, err);
    if (st == 0)
        st = hdo_error_set(err, HDO_ERR_INPUT, 1, 1,
                           "empty file: expected a header 'time,from,to'");
    if (st == 1) {
        st = 0;
        ncells = lx.ncells;
        for (slong i = 0; i < ncells; i++) {
            const char *s = lx.cells[i].s;
            slong *slot = strcmp(s, "time") == 0   ? &ct
                          : strcmp(s, "from") == 0 ? &cf
                          : strcmp(s, "to") == 0   ? &cto
                          : strcmp(s, "kind") == 0 ? &ckind
                                                   : NULL;
            if (slot != NULL && *slot >= 0) {
                st = hdo_error_set(err, HDO_ERR_INPUT, lx.line, lx.cells[i].col,
                                   "the column '%s' appears twice", s);
                break;
            }
            if (slot != NULL)
                *slot = i;
        }
        if (st == 0 && (ct < 0 || cf < 0 || cto < 0))
            st = hdo_error_set(err, HDO_ERR_INPUT, lx.line, 1,
                               "expected a header with the columns time, "
                               "from and to (missing '%s')",
                               ct < 0   ? "time"
                               : cf < 0 ? "from"
                                        : "to");
    }
    while (st == 0) {
        double t;
        st = csv_next_row(&lx, err);
        if (st != 1)
            break;
        st = 0;
        if (lx.ncells != ncells) {
            st = hdo_error_set(err, HDO_ERR_INPUT, lx.line,
                               lx.ncells < ncells ? lx.end_col
                                                  : lx.cells[ncells].col,
                               "expected %ld cells as in the header, found "
                               "%ld",
                               (long)ncells, (long)lx.ncells);
            break;
        }
        /* a kind a candidate need not show (a crossing of a relation in
           hdo's events.csv, kind column) is no mode change: hdo check
           never expects it (result.h, docs/cli.md) */
        if (ckind >= 0) {
            int k = hdo_event_kind_lookup(lx.cells[ckind].s);
            if (k >= 0 && !hdo_event_kind_shown((hdo_event_kind)k))
                continue;
        }
        if (evfile_grow(ef)) {
            st =
                hdo_error_set(err, HDO_ERR_MEMORY, lx.line, 0, "out of memory");
            break;
        }
        st = csv_number(&t, lx.cells + ct, lx.line, "an event time", lx.loc,
                        err);
        if (st == 0 && !isfinite(t))
            st = hdo_error_set(err, HDO_ERR_INPUT, lx.line, lx.cells[ct].col,
                               "the event time must be finite");
        if (st == 0 && ef->n > 0 && t < ef->time[ef->n - 1])
            st = hdo_error_set(err, HDO_ERR_INPUT, lx.line, lx.cells[ct].col,
                               "events out of time order: %.17g after %.17g", t,
                               ef->time[ef->n - 1]);
        if (st == 0)
            st = evfile_mode(ef->from + ef->n, ef, lx.cells + cf, lx.line, err);
        if (st == 0)
            st = evfile_mode(ef->to + ef->n, ef, lx.cells + cto, lx.line, err);
        if (st)
            break;
        ef->time[ef->n] = t;
        ef->line[ef->n] = lx.line;
        ef->from_col[ef->n] = lx.cells[cf].col;
        ef->to_col[ef->n] = lx.cells[cto].col;
        ef->n++;
    }
    csv_lexer_clear(&lx);
    return st;
}

int
hdo_evfile_read_file(hdo_evfile_t ef, const char *path, hdo_error_t *err)
{
    char *text;
    size_t len;
    int st = hdo_read_whole_file(&text, &len, path, HDO_INPUT_MAX_BYTES,
                                 HDO_FILE_REFUSE_NUL, err);
    if (st) {
        free(ef->file);
        ef->file = strdup(path);
        if (err != NULL)
            err->file = ef->file;
        return st;
    }
    st = hdo_evfile_read_string(ef, text, len, path, err);
    free(text);
    return st;
}
