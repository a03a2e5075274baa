/* events.c -- event lists: the events file reader, events inferred from a
 * candidate, and the in-order matching */
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
#include "csvlex.h"

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

/* Whether the rows i..j-1 are copies of one another (same mode, same
   cells): a solver that writes a row twice has no event there. */
static int
rows_identical(const hdo_csv_t csv, slong i, slong j)
{
    for (slong k = i + 1; k < j; k++) {
        if (csv->has_mode && csv->mode[k] != csv->mode[i])
            return 0;
        for (slong c = 0; c < csv->ncols; c++) {
            slong a = i * csv->ncols + c, b = k * csv->ncols + c;
            double x = csv->values[a], y = csv->values[b];
            if (csv->present[a] != csv->present[b])
                return 0;
            if (csv->present[a] && !(x == y || (isnan(x) && isnan(y))))
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
    slong i = 0, n = csv->nrows;
    while (i < n) {
        slong j = i + 1, k;
        int any = 0;
        /* The group i..j-1 of rows with the same time. */
        while (j < n && csv->time[j] == csv->time[i])
            j++;
        if (j - i > 1 && !rows_identical(csv, i, j)) {
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

/* ------------------------------------------------------------------ */

void
hdo_matching_init(hdo_matching_t mt)
{
    memset(mt, 0, sizeof *mt);
    mt->first_fail = -1;
}

void
hdo_matching_clear(hdo_matching_t mt)
{
    free(mt->m);
    memset(mt, 0, sizeof *mt);
}

const char *
hdo_match_verdict_name(hdo_match_verdict v)
{
    switch (v) {
    case HDO_MATCH_OK:
        return "ok";
    case HDO_MATCH_MISSING:
        return "missing";
    case HDO_MATCH_EXTRA:
        return "extra";
    case HDO_MATCH_EARLY:
        return "early";
    case HDO_MATCH_LATE:
        return "late";
    case HDO_MATCH_MODE:
        return "wrong mode change";
    case HDO_MATCH_OUTSIDE:
        return "outside the candidate's span";
    case HDO_MATCH_AT_END:
        return "at the end time (not judged)";
    }
    return "?";
}

int
hdo_match_judged(hdo_match_verdict v)
{
    return v != HDO_MATCH_OUTSIDE && v != HDO_MATCH_AT_END;
}

void
hdo_matching_excuse_end(hdo_matching_t mt, const hdo_evlist_t ref,
                        const hdo_evlist_t cand, double t_end, double time_abs)
{
    if (isnan(t_end))
        return;
    mt->nfailed = 0;
    mt->first_fail = -1;
    for (slong k = 0; k < mt->n; k++) {
        hdo_match *m = mt->m + k;
        const hdo_cmp_event *e =
            m->verdict == HDO_MATCH_MISSING ? ref->ev + m->ref
            : m->verdict == HDO_MATCH_EXTRA ? cand->ev + m->cand
                                            : NULL;
        if (e != NULL && e->t_hi >= t_end - time_abs &&
            e->t_lo <= t_end + time_abs)
            m->verdict = HDO_MATCH_AT_END;
        if (hdo_match_judged(m->verdict) && m->verdict != HDO_MATCH_OK) {
            mt->nfailed++;
            if (mt->first_fail < 0)
                mt->first_fail = k;
        }
    }
}

/* Candidate minus reference time: 0 when the reference time lies in the
   candidate's interval, else the distance to it with its sign. */
static double
time_diff(const hdo_cmp_event *r, const hdo_cmp_event *c)
{
    double t = r->t_lo;
    if (t < c->t_lo)
        return c->t_lo - t;
    if (t > c->t_hi)
        return c->t_hi - t;
    return 0;
}

static int
modes_agree(const hdo_cmp_event *r, const hdo_cmp_event *c)
{
    return (r->from < 0 || c->from < 0 || r->from == c->from) &&
           (r->to < 0 || c->to < 0 || r->to == c->to);
}

static int
agree(const hdo_cmp_event *r, const hdo_cmp_event *c, double time_abs,
      int modes_exact)
{
    return fabs(time_diff(r, c)) <= time_abs &&
           (!modes_exact || modes_agree(r, c));
}

static int
push_match(hdo_matching_t mt, slong ref, slong cand, hdo_match_verdict v,
           double diff)
{
    if (hdo_grow((void **)&mt->m, &mt->alloc, mt->n + 1, sizeof(hdo_match)))
        return HDO_ERR_MEMORY;
    mt->m[mt->n].ref = ref;
    mt->m[mt->n].cand = cand;
    mt->m[mt->n].verdict = v;
    mt->m[mt->n].diff = diff;
    if (v != HDO_MATCH_OK && hdo_match_judged(v)) {
        mt->nfailed++;
        if (mt->first_fail < 0)
            mt->first_fail = mt->n;
    }
    mt->n++;
    return 0;
}

/* Pairs the events of one gap between two anchors (or the ends): in
   order, as many pairs as both sides have, judged early, late, wrong mode
   change or ok; the rest missing or extra.  Reference events outside the
   candidate's span are outside, never paired. */
static int
match_gap(hdo_matching_t mt, const hdo_cmp_event *R, slong i0, slong i1,
          const hdo_cmp_event *C, slong j0, slong j1, double time_abs,
          int modes_exact, double span_lo, double span_hi)
{
    slong i = i0, j = j0;
    while (i < i1 || j < j1) {
        int st;
        if (i < i1 && (R[i].t_lo < span_lo || R[i].t_lo > span_hi)) {
            st = push_match(mt, i++, -1, HDO_MATCH_OUTSIDE, NAN);
        } else if (i < i1 && j < j1) {
            double d = time_diff(R + i, C + j);
            hdo_match_verdict v = modes_exact && !modes_agree(R + i, C + j)
                                      ? HDO_MATCH_MODE
                                  : d > time_abs  ? HDO_MATCH_LATE
                                  : d < -time_abs ? HDO_MATCH_EARLY
                                                  : HDO_MATCH_OK;
            st = push_match(mt, i++, j++, v, d);
        } else if (i < i1) {
            st = push_match(mt, i++, -1, HDO_MATCH_MISSING, NAN);
        } else {
            st = push_match(mt, -1, j++, HDO_MATCH_EXTRA, NAN);
        }
        if (st)
            return st;
    }
    return 0;
}

int
hdo_events_match(hdo_matching_t mt, const hdo_evlist_t ref,
                 const hdo_evlist_t cand, double time_abs, int modes_exact,
                 double span_lo, double span_hi)
{
    const hdo_cmp_event *R = ref->ev, *C = cand->ev;
    slong i = 0, j0 = 0, ia = 0, ja = 0; /* ia, ja: after the last anchor */
    mt->n = 0;
    mt->nfailed = 0;
    mt->first_fail = -1;
    /* Anchors: in order, each reference event with the nearest candidate
       event that agrees with it (within time_abs, the same modes), unless
       that candidate is nearer to the next reference event.  Between
       anchors, what is left is paired in order (match_gap): one spurious or
       missed event never shifts the pairings after it. */
    for (i = 0; i < ref->n; i++) {
        slong best = -1;
        double bd = INFINITY;
        while (j0 < cand->n && C[j0].t_hi < R[i].t_lo - time_abs)
            j0++;
        for (slong j = j0 > ja ? j0 : ja;
             j < cand->n && C[j].t_lo <= R[i].t_lo + time_abs; j++) {
            double d = fabs(time_diff(R + i, C + j));
            if (agree(R + i, C + j, time_abs, modes_exact) && d < bd) {
                bd = d;
                best = j;
            }
        }
        if (best < 0)
            continue;
        if (i + 1 < ref->n &&
            agree(R + i + 1, C + best, time_abs, modes_exact) &&
            fabs(time_diff(R + i + 1, C + best)) < bd)
            continue;
        {
            int st = match_gap(mt, R, ia, i, C, ja, best, time_abs, modes_exact,
                               span_lo, span_hi);
            if (st == 0)
                st = push_match(mt, i, best, HDO_MATCH_OK,
                                time_diff(R + i, C + best));
            if (st)
                return st;
        }
        ia = i + 1;
        ja = best + 1;
    }
    return match_gap(mt, R, ia, ref->n, C, ja, cand->n, time_abs, modes_exact,
                     span_lo, span_hi);
}
