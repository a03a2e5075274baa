/* check.c -- hdo._hdo.check: hdo check on a candidate given as arrays
   (the library's stages, GIL released), and the Check type that hands
   its verdict, report and arrays to Python.

   libhdo's check reads its candidate and events from files
   (hdo_check_read_inputs takes paths), so the arrays are written as
   CSV ("%.17g": every double exactly) into anonymous memory files
   (memfd_create) that the library reads by their /proc/self/fd path:
   no file on disk, and the same reading, tolerances, variable
   selection and event inference as `hdo check` on the same data.  The
   model is parsed from the text hdo.Model keeps, as
   hdo_check_read_model would parse its file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ext.h"

static void
check_dealloc(CheckObject *self)
{
    if (self->live)
        hdo_check_clear(self->s);
    free(self->cand_name);
    free(self->events_name);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A CSV cell holding s as a quoted string ("" for a quote). */
static void
put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* An anonymous memory file (memfd) holding what write() puts in it;
   *path is set to the name the library opens.  Returns the descriptor
   (to close after the check), or -1 with errno set. */
static int
memory_file(char *path, size_t n, const char *name,
            void (*write)(FILE *, const void *), const void *data)
{
    int fd = memfd_create(name, MFD_CLOEXEC), fd2;
    FILE *f;
    if (fd < 0)
        return -1;
    if ((fd2 = dup(fd)) < 0 || (f = fdopen(fd2, "w")) == NULL) {
        if (fd2 >= 0)
            close(fd2);
        close(fd);
        return -1;
    }
    write(f, data);
    if (ferror(f) | (fclose(f) != 0)) {
        close(fd);
        return -1;
    }
    snprintf(path, n, "/proc/self/fd/%d", fd);
    return fd;
}

/* The candidate as hdo check reads it: time, an optional mode column,
   one column per name; an empty cell where present is 0. */
typedef struct {
    Py_ssize_t nrows, ncols;
    const double *time, *values;  /* values row-major */
    const unsigned char *present; /* NULL: every cell */
    const char **names;
    const char **row_mode; /* NULL: no mode column */
} candidate;

static void
write_candidate(FILE *f, const void *data)
{
    const candidate *c = data;
    fputs("time", f);
    if (c->row_mode != NULL)
        fputs(",mode", f);
    for (Py_ssize_t j = 0; j < c->ncols; j++) {
        fputc(',', f);
        put_quoted(f, c->names[j]);
    }
    fputc('\n', f);
    for (Py_ssize_t i = 0; i < c->nrows; i++) {
        fprintf(f, "%.17g", c->time[i]);
        if (c->row_mode != NULL) {
            fputc(',', f);
            put_quoted(f, c->row_mode[i]);
        }
        for (Py_ssize_t j = 0; j < c->ncols; j++) {
            Py_ssize_t k = i * c->ncols + j;
            fputc(',', f);
            if (c->present == NULL || c->present[k])
                fprintf(f, "%.17g", c->values[k]);
        }
        fputc('\n', f);
    }
}

/* The candidate's own events, as an events file: time,from,to (a mode
   name, or empty when not known). */
typedef struct {
    Py_ssize_t n;
    const double *time;
    const char **from, **to; /* entries NULL: not known */
} events;

static void
write_events(FILE *f, const void *data)
{
    const events *e = data;
    fputs("time,from,to\n", f);
    for (Py_ssize_t i = 0; i < e->n; i++) {
        fprintf(f, "%.17g,", e->time[i]);
        if (e->from[i] != NULL)
            put_quoted(f, e->from[i]);
        fputc(',', f);
        if (e->to[i] != NULL)
            put_quoted(f, e->to[i]);
        fputc('\n', f);
    }
}

/* The strings of a sequence of str (None -> NULL when none_ok), owned by
   the items of the sequence object *seq (a new reference). */
static const char **
strings(PyObject *o, Py_ssize_t *n, PyObject **seq, int none_ok)
{
    *seq = PySequence_Fast(o, "expected a sequence of strings");
    if (*seq == NULL)
        return NULL;
    *n = PySequence_Fast_GET_SIZE(*seq);
    const char **v = PyMem_Calloc((size_t)*n + 1, sizeof(char *));
    if (v == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(*seq, i);
        if (none_ok && x == Py_None)
            continue;
        if ((v[i] = PyUnicode_AsUTF8(x)) == NULL) {
            PyMem_Free(v);
            return NULL;
        }
    }
    return v;
}

/* check(text, filename, params, digits, name, times, values, present,
         names, row_modes, ev_times, ev_from, ev_to, events_name,
         tol_path, time_abs, value_abs, value_rel, maps): a Check.
   times: doubles (rows); values: doubles, rows x names row-major;
   present: bytes (rows x names, 0: empty cell) or None; row_modes: a
   mode name per row or None; ev_times (doubles) with ev_from, ev_to
   (names or None) or None: the events inferred from the rows as hdo
   check infers them.  NaN tolerances: not given. */
PyObject *
hdo_py_check(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwn[] = {"text",      "filename",    "params",   "digits",
                          "name",      "times",       "values",   "present",
                          "names",     "row_modes",   "ev_times", "ev_from",
                          "ev_to",     "events_name", "tol_path", "time_abs",
                          "value_abs", "value_rel",   "maps",     NULL};
    const char *text, *filename, *name, *events_name = NULL, *tol_path = NULL;
    Py_ssize_t len;
    long digits;
    PyObject *params, *pnames, *prow_modes = Py_None, *pev_from = Py_None,
                               *pev_to = Py_None, *pmaps;
    Py_buffer times = {0}, values = {0}, present = {0}, ev_times = {0};
    double time_abs, value_abs, value_rel;
    PyObject *seqs[6] = {NULL};
    const char **pv = NULL, **nv = NULL, **mv = NULL, **fv = NULL, **tv = NULL,
               **mapv = NULL;
    Py_ssize_t np = 0, nn = 0, nm = 0, nf = 0, nt = 0, nmap = 0;
    CheckObject *c = NULL;
    hdo_check_options opt;
    hdo_error_t err;
    char cand_path[64], ev_path[64];
    int fd_c = -1, fd_e = -1, st = 0, stage = 0, saved_errno = 0;

    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "y#zOlsy*y*z*OOz*OOzzdddO", kwn, &text, &len, &filename,
            &params, &digits, &name, &times, &values, &present, &pnames,
            &prow_modes, &ev_times, &pev_from, &pev_to, &events_name, &tol_path,
            &time_abs, &value_abs, &value_rel, &pmaps))
        return NULL;
    Py_ssize_t nrows = times.len / (Py_ssize_t)sizeof(double);
    if ((pv = strings(params, &np, &seqs[0], 0)) == NULL ||
        (nv = strings(pnames, &nn, &seqs[1], 0)) == NULL ||
        (mapv = strings(pmaps, &nmap, &seqs[5], 0)) == NULL)
        goto done;
    if (prow_modes != Py_None &&
        (mv = strings(prow_modes, &nm, &seqs[2], 0)) == NULL)
        goto done;
    if (ev_times.buf != NULL &&
        ((fv = strings(pev_from, &nf, &seqs[3], 1)) == NULL ||
         (tv = strings(pev_to, &nt, &seqs[4], 1)) == NULL))
        goto done;
    /* hdo.Model.check checks the shapes; these guard the C side */
    if (values.len != nrows * nn * (Py_ssize_t)sizeof(double) ||
        (present.buf != NULL && present.len != nrows * nn) ||
        (mv != NULL && nm != nrows) ||
        (fv != NULL &&
         (nf != ev_times.len / (Py_ssize_t)sizeof(double) || nt != nf))) {
        PyErr_SetString(PyExc_ValueError, "check: inconsistent array shapes");
        goto done;
    }
    c = PyObject_New(CheckObject, &CheckType);
    if (c == NULL)
        goto done;
    c->live = 1;
    c->cand_name = strdup(name);
    c->events_name = events_name != NULL ? strdup(events_name) : NULL;
    hdo_check_init(c->s);
    if (c->cand_name == NULL ||
        (events_name != NULL && c->events_name == NULL)) {
        PyErr_NoMemory();
        Py_CLEAR(c);
        goto done;
    }
    hdo_check_options_init(&opt);
    opt.model_path = filename != NULL ? filename : "<string>";
    opt.cand_path = cand_path;
    opt.events_path = ev_times.buf != NULL ? ev_path : NULL;
    opt.tol_path = tol_path;
    opt.digits = digits;
    opt.time_abs = time_abs;
    opt.value_abs = value_abs;
    opt.value_rel = value_rel;
    opt.maps = mapv;
    opt.nmaps = nmap;
    opt.params = pv;
    opt.nparams = np;
    candidate cand = {nrows, nn, times.buf, values.buf, present.buf, nv, mv};
    events ev = {ev_times.len / (Py_ssize_t)sizeof(double), ev_times.buf, fv,
                 tv};
    double t0 = hdo_clock_now();
    hdo_error_clear(&err);
    Py_BEGIN_ALLOW_THREADS;
    fd_c = memory_file(cand_path, sizeof cand_path, "hdo-candidate",
                       write_candidate, &cand);
    if (fd_c >= 0 && opt.events_path != NULL)
        fd_e = memory_file(ev_path, sizeof ev_path, "hdo-events", write_events,
                           &ev);
    if (fd_c < 0 || (opt.events_path != NULL && fd_e < 0)) {
        saved_errno = errno;
        st = HDO_ERR_IO;
    } else {
        /* hdo_check_read_model's stage on the model's text: its
           options, the overrides, the parse */
        c->s->opt = opt;
        stage = 1;
        for (Py_ssize_t k = 0; st == 0 && k < np; k++)
            st = hdo_model_add_override(c->s->model, pv[k], &err);
        if (st == 0) {
            stage = 2;
            st = hdo_model_parse_string(c->s->model, text, (size_t)len,
                                        opt.model_path, &err);
        }
        if (st == 0) {
            stage = 3;
            st = hdo_check_read_inputs(c->s, &err);
        }
        /* from here on the report names the arrays, not the memory
           files (the reference run places its errors with cand_path) */
        c->s->opt.cand_path = c->cand_name;
        if (st == 0 && opt.events_path != NULL)
            c->s->events_source = c->events_name;
        if (st == 0) {
            stage = 4;
            st = hdo_check_compute(c->s, &err);
        }
    }
    hdo_py_free_thread_caches();
    Py_END_ALLOW_THREADS;
    c->seconds = hdo_clock_now() - t0;
    if (st != 0) {
        if (stage == 0) {
            errno = saved_errno;
            PyErr_SetFromErrno(PyExc_OSError);
        } else if (stage == 1) {
            PyErr_SetString(PyExc_ValueError, err.message);
        } else if (stage == 2) {
            hdo_py_raise(hdo_py_ModelError, &err, NULL);
        } else {
            /* errors in the memory files are named after the arrays */
            if (err.file != NULL && strcmp(err.file, cand_path) == 0)
                err.file = c->cand_name;
            else if (err.file != NULL && opt.events_path != NULL &&
                     strcmp(err.file, ev_path) == 0)
                err.file = c->events_name;
            hdo_py_raise(c->s->run_status != 0 ? hdo_py_RunError
                                               : hdo_py_CheckError,
                         &err, NULL);
        }
        Py_CLEAR(c);
    }
done:
    if (fd_c >= 0)
        close(fd_c);
    if (fd_e >= 0)
        close(fd_e);
    for (int k = 0; k < 6; k++)
        Py_XDECREF(seqs[k]);
    PyMem_Free(pv);
    PyMem_Free(nv);
    PyMem_Free(mv);
    PyMem_Free(fv);
    PyMem_Free(tv);
    PyMem_Free(mapv);
    PyBuffer_Release(&times);
    PyBuffer_Release(&values);
    PyBuffer_Release(&present);
    PyBuffer_Release(&ev_times);
    return (PyObject *)c;
}

/* ---- the Check type ----------------------------------------------- */

static PyObject *
check_passed(CheckObject *self, PyObject *unused)
{
    return PyBool_FromLong(!hdo_check_failed(self->s));
}

static PyObject *
check_first_failure(CheckObject *self, PyObject *unused)
{
    char buf[2048];
    if (!hdo_check_first_failure(buf, sizeof buf, self->s))
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strlen(buf), "replace");
}

/* report(): what `hdo check` prints on stdout, the summary line last. */
static PyObject *
check_report(CheckObject *self, PyObject *unused)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (f != NULL) {
        hdo_py_check_report(self, f);
        hdo_check_write_summary(f, self->s);
    }
    return hdo_py_memstream_str(f, &buf, &size);
}

static PyObject *
check_write_junit(CheckObject *self, PyObject *arg)
{
    PyObject *bytes = NULL;
    hdo_error_t err;
    int st;
    if (!PyUnicode_FSConverter(arg, &bytes))
        return NULL;
    hdo_error_clear(&err);
    st = hdo_check_write_junit(PyBytes_AS_STRING(bytes), self->s, NULL,
                               self->seconds, &err);
    Py_DECREF(bytes);
    if (st != 0)
        return PyErr_Format(PyExc_OSError, "%s", err.message);
    Py_RETURN_NONE;
}

static PyObject *
cmp_events(const CheckObject *self, const hdo_evlist_struct *l)
{
    char a[512], b[512];
    PyObject *out = PyList_New(l->n);
    for (slong k = 0; out != NULL && k < l->n; k++) {
        const hdo_cmp_event *e = l->ev + k;
        PyObject *t =
            Py_BuildValue("(ddssil)", e->t_lo, e->t_hi,
                          hdo_check_mode_name(a, sizeof a, self->s, e->from),
                          hdo_check_mode_name(b, sizeof b, self->s, e->to),
                          e->line, (long)e->count);
        if (t == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, t);
    }
    return out;
}

/* The figures of one compared variable, its arrays as bytearrays. */
static PyObject *
variable_dict(const CheckObject *self, slong j)
{
    const hdo_check_struct *s = self->s;
    const hdo_csv_struct *cs = s->cand;
    const hdo_tube_struct *tb = s->tube + j;
    char desc[2048];
    PyObject *fail = PyByteArray_FromStringAndSize((const char *)tb->fail,
                                                   (Py_ssize_t)tb->n);
    PyObject *present = PyByteArray_FromStringAndSize(NULL, cs->nrows);
    if (present == NULL || fail == NULL) {
        Py_XDECREF(present);
        Py_XDECREF(fail);
        return NULL;
    }
    for (slong i = 0; i < cs->nrows; i++)
        PyByteArray_AS_STRING(present)[i] =
            (char)cs->present[i * cs->ncols + s->col[j]];
    hdo_check_describe_variable(desc, sizeof desc, s, j);
    return Py_BuildValue(
        "{s:s,s:s,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:n,s:n,s:n,s:n,s:n,s:n,"
        "s:d,s:d,s:n,s:d,s:O,s:s}",
        "column", cs->names[s->col[j]], "variable",
        s->model->vars[s->var[j]].name, "values",
        hdo_py_doubles(cs->values + s->col[j], cs->nrows, cs->ncols), "present",
        present, "lo", hdo_py_doubles(tb->lo, tb->n, 1), "hi",
        hdo_py_doubles(tb->hi, tb->n, 1), "band_lo",
        hdo_py_doubles(tb->band_lo, tb->n, 1), "band_hi",
        hdo_py_doubles(tb->band_hi, tb->n, 1), "fail", fail, "ref",
        hdo_py_doubles(s->ref->v + j * s->ref->n, s->ref->n, 1), "ncompared",
        (Py_ssize_t)tb->ncompared, "nfailed", (Py_ssize_t)tb->nfailed, "nnoref",
        (Py_ssize_t)tb->nnoref, "nnocand", (Py_ssize_t)tb->nnocand, "worst",
        (Py_ssize_t)tb->worst, "first_fail", (Py_ssize_t)tb->first_fail,
        "worst_err", tb->worst_err, "worst_allowed", tb->worst_allowed,
        "max_diff_row", (Py_ssize_t)tb->max_diff_row, "max_diff", tb->max_diff,
        "failed", hdo_check_variable_failed(s, j) ? Py_True : Py_False,
        "description", desc);
}

/* data(): everything a plot or a test reads -- the candidate's times,
   per compared variable its tube (variable_dict), the reference
   samples' times, both event lists and their pairing, the tolerances. */
static PyObject *
check_data(CheckObject *self, PyObject *unused)
{
    const hdo_check_struct *s = self->s;
    PyObject *vars = PyList_New(s->nvar), *matches = PyList_New(s->match->n);
    for (slong j = 0; vars != NULL && j < s->nvar; j++) {
        PyObject *d = variable_dict(self, j);
        if (d == NULL)
            Py_CLEAR(vars);
        else
            PyList_SET_ITEM(vars, j, d);
    }
    for (slong k = 0; matches != NULL && k < s->match->n; k++) {
        const hdo_match *m = s->match->m + k;
        PyObject *t =
            Py_BuildValue("(nnsdO)", (Py_ssize_t)m->ref, (Py_ssize_t)m->cand,
                          hdo_match_verdict_name(m->verdict), m->diff,
                          hdo_match_judged(m->verdict) ? Py_True : Py_False);
        if (t == NULL)
            Py_CLEAR(matches);
        else
            PyList_SET_ITEM(matches, k, t);
    }
    if (vars == NULL || matches == NULL) {
        Py_XDECREF(vars);
        Py_XDECREF(matches);
        return NULL;
    }
    return Py_BuildValue(
        "{s:N,s:N,s:N,s:N,s:N,s:N,s:d,s:d,s:d,s:z,s:O,s:O,s:l,s:d,s:d,s:d,"
        "s:d}",
        "time", hdo_py_doubles(s->cand->time, s->cand->nrows, 1), "variables",
        vars, "ref_time", hdo_py_doubles(s->ref->t, s->ref->n, 1), "ref_events",
        cmp_events(self, s->ref_ev), "cand_events",
        cmp_events(self, s->cand_ev), "matches", matches, "time_abs",
        s->tol->time_abs, "value_abs", s->tol->value_abs, "value_rel",
        s->tol->value_rel, "tol_file", s->tol_from_file ? s->tol->file : NULL,
        "modes_exact", s->tol->modes_exact ? Py_True : Py_False, "events_given",
        s->events_given ? Py_True : Py_False, "digits", s->opt.digits, "t0",
        s->ref->t0, "t_end", s->ref->t_end, "seconds_ref", s->seconds_ref,
        "seconds", self->seconds);
}

static PyMethodDef check_methods[] = {
    {"passed", (PyCFunction)check_passed, METH_NOARGS, "the verdict"},
    {"first_failure", (PyCFunction)check_first_failure, METH_NOARGS,
     "the first failure in words, or None"},
    {"report", (PyCFunction)check_report, METH_NOARGS, "hdo check's report"},
    {"write_junit", (PyCFunction)check_write_junit, METH_O, "JUnit XML"},
    {"data", (PyCFunction)check_data, METH_NOARGS, "arrays and figures"},
    {NULL}};

PyTypeObject CheckType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hdo._hdo.Check",
    .tp_basicsize = sizeof(CheckObject),
    .tp_dealloc = (destructor)check_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "one check of a candidate (made by hdo._hdo.check)",
    .tp_methods = check_methods,
};
