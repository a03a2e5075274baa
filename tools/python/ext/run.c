/* run.c -- hdo._hdo.run (hdo_run and hdo_run_verify with the GIL
   released) and the Result type that hands a run's rows, events and
   summary to Python. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ext.h"

static void
result_dealloc(ResultObject *self)
{
    if (self->live)
        hdo_result_clear(self->res);
    Py_XDECREF(self->where);
    Py_XDECREF(self->model);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static const hdo_model_struct *
result_model(const ResultObject *self)
{
    return ((const ModelObject *)self->model)->model;
}

/* column(j): the doubles of variable j (NaN where the row's mode lacks
   it), or of the time for j = -1, rounded to nearest from the run's
   precision. */
static PyObject *
result_column(ResultObject *self, PyObject *arg)
{
    const hdo_result_struct *r = self->res;
    long j = PyLong_AsLong(arg);
    if (j == -1 && PyErr_Occurred())
        return NULL;
    if (j < -1 || j >= r->nvars)
        return PyErr_Format(PyExc_IndexError, "no variable %ld", j);
    PyObject *b = hdo_py_doubles(NULL, r->nrows, 1);
    if (b == NULL)
        return NULL;
    double *out = (double *)PyBytes_AS_STRING(b); /* not yet shared */
    for (slong i = 0; i < r->nrows; i++) {
        const hdo_row *row = r->rows + i;
        if (j < 0)
            out[i] = mpfr_get_d(row->time, MPFR_RNDN);
        else if (row->present[j])
            out[i] = mpfr_get_d(row->values + j, MPFR_RNDN);
    }
    return b;
}

/* The name of mode index m as the trajectory's mode column writes it. */
static PyObject *
mode_str(const hdo_model_struct *model, slong m)
{
    char buf[512];
    hdo_mode_name(buf, sizeof buf, model, m);
    return PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strlen(buf), "replace");
}

/* row_modes(): the mode index of every row, and the names of the
   indices that occur, as (list of int, dict index -> name). */
static PyObject *
result_row_modes(ResultObject *self, PyObject *unused)
{
    const hdo_result_struct *r = self->res;
    PyObject *l = PyList_New(r->nrows), *names = PyDict_New(), *t = NULL;
    for (slong i = 0; l != NULL && names != NULL && i < r->nrows; i++) {
        PyObject *k = PyLong_FromLong((long)r->rows[i].mode);
        if (k == NULL)
            goto fail;
        PyList_SET_ITEM(l, i, k);
        if (PyDict_GetItemWithError(names, k) == NULL) {
            PyObject *s = PyErr_Occurred()
                              ? NULL
                              : mode_str(result_model(self), r->rows[i].mode);
            if (s == NULL || PyDict_SetItem(names, k, s) != 0) {
                Py_XDECREF(s);
                goto fail;
            }
            Py_DECREF(s);
        }
    }
    if (l != NULL && names != NULL)
        t = PyTuple_Pack(2, l, names);
fail:
    Py_XDECREF(l);
    Py_XDECREF(names);
    return t;
}

/* One value at the run's precision: the string of trajectory.csv (D
   significant digits, "%.*Re" as cli.md specifies), or the exact
   binary value as (mantissa, exponent) with x = mantissa 2^exponent. */
static PyObject *
exact_value(mpfr_srcptr x, long digits, int strings)
{
    if (mpfr_nan_p(x))
        Py_RETURN_NONE;
    if (strings) {
        char *s = NULL;
        if (mpfr_asprintf(&s, "%.*Re", (int)(digits - 1), x) < 0)
            return PyErr_NoMemory();
        PyObject *o = PyUnicode_FromString(s);
        mpfr_free_str(s);
        return o;
    }
    if (mpfr_zero_p(x))
        return Py_BuildValue("(ii)", 0, 0);
    if (mpfr_inf_p(x))
        return PyFloat_FromDouble(mpfr_get_d(x, MPFR_RNDN));
    mpz_t z;
    mpz_init(z);
    mpfr_exp_t e = mpfr_get_z_2exp(z, x);
    char *hex = mpz_get_str(NULL, 16, z);
    PyObject *man = PyLong_FromString(hex, NULL, 16);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    gmp_free(hex, strlen(hex) + 1);
    mpz_clear(z);
    if (man == NULL)
        return NULL;
    PyObject *t = Py_BuildValue("(Nl)", man, (long)e);
    return t;
}

/* exact(j, strings): every row's value of variable j (the time for
   j = -1) at the run's precision, None where the mode lacks it;
   exact_value says how. */
static PyObject *
result_exact(ResultObject *self, PyObject *args)
{
    const hdo_result_struct *r = self->res;
    long j;
    int strings;
    if (!PyArg_ParseTuple(args, "lp", &j, &strings))
        return NULL;
    if (j < -1 || j >= r->nvars)
        return PyErr_Format(PyExc_IndexError, "no variable %ld", j);
    PyObject *l = PyList_New(r->nrows);
    for (slong i = 0; l != NULL && i < r->nrows; i++) {
        const hdo_row *row = r->rows + i;
        PyObject *v = j < 0 ? exact_value(row->time, r->digits, strings)
                      : row->present[j]
                          ? exact_value(row->values + j, r->digits, strings)
                          : Py_NewRef(Py_None);
        if (v == NULL)
            Py_CLEAR(l);
        else
            PyList_SET_ITEM(l, i, v);
    }
    return l;
}

/* events(strings): per event (index, time as a double, the exact time
   as exact_value gives it, from, to, guard, row_left, row_right). The
   kinds' names are read from events_csv() (the library's one table). */
static PyObject *
result_events(ResultObject *self, PyObject *arg)
{
    const hdo_result_struct *r = self->res;
    int strings = PyObject_IsTrue(arg);
    if (strings < 0)
        return NULL;
    PyObject *l = PyList_New(r->nevents);
    for (slong k = 0; l != NULL && k < r->nevents; k++) {
        const hdo_event *e = r->events + k;
        PyObject *t = Py_BuildValue(
            "(ldNNNzll)", (long)e->index, mpfr_get_d(e->time, MPFR_RNDN),
            exact_value(e->time, r->digits, strings),
            mode_str(result_model(self), e->from),
            mode_str(result_model(self), e->to), e->guard, (long)e->row_left,
            (long)e->row_right);
        if (t == NULL)
            Py_CLEAR(l);
        else
            PyList_SET_ITEM(l, k, t);
    }
    return l;
}

/* Text of a library writer (hdo_write_events, hdo_write_summary,
   hdo_run_write_notes) as str; kind: 0 events.csv, 1 summary.json,
   2 the notes. */
static PyObject *
result_text(ResultObject *self, int kind)
{
    char *buf = NULL;
    size_t size = 0;
    hdo_error_t err;
    FILE *f = open_memstream(&buf, &size);
    if (f == NULL)
        return PyErr_NoMemory();
    hdo_error_clear(&err);
    if (kind == 0)
        hdo_write_events(f, self->res, result_model(self), self->res->digits,
                         &err);
    else if (kind == 1)
        hdo_write_summary(f, self->res, result_model(self), self->verified,
                          &err);
    else
        hdo_run_write_notes(f, self->res, result_model(self),
                            self->res->digits);
    return hdo_py_memstream_str(f, &buf, &size);
}

static PyObject *
result_events_csv(ResultObject *self, PyObject *unused)
{
    return result_text(self, 0);
}

static PyObject *
result_summary_json(ResultObject *self, PyObject *unused)
{
    return result_text(self, 1);
}

static PyObject *
result_notes(ResultObject *self, PyObject *unused)
{
    return result_text(self, 2);
}

/* write(dir): the three files of `hdo run -o DIR`, as the command
   writes them (one set or none: hdo_run_outputs_prepare, _write). */
static PyObject *
result_write(ResultObject *self, PyObject *arg)
{
    PyObject *bytes = NULL;
    hdo_error_t err;
    int st;
    if (!PyUnicode_FSConverter(arg, &bytes))
        return NULL;
    const char *dir = PyBytes_AS_STRING(bytes);
    hdo_error_clear(&err);
    Py_BEGIN_ALLOW_THREADS;
    st = hdo_run_outputs_prepare(dir, &err);
    if (st == 0)
        st = hdo_run_outputs_write(dir, self->res, result_model(self),
                                   self->verified, &err);
    Py_END_ALLOW_THREADS;
    Py_DECREF(bytes);
    if (st != 0)
        return PyErr_Format(PyExc_OSError, "%s", err.message);
    Py_RETURN_NONE;
}

static PyObject *
result_info(ResultObject *self, PyObject *unused)
{
    const hdo_result_struct *r = self->res;
    return Py_BuildValue("{s:l,s:l,s:l,s:l,s:l,s:d,s:d,s:l,s:O,s:(dd)}",
                         "digits", r->digits, "prec", (long)r->prec, "nrows",
                         (long)r->nrows, "nevents", (long)r->nevents, "steps",
                         (long)r->steps, "seconds", r->seconds, "cpu_seconds",
                         r->cpu_seconds, "verified", self->verified, "where",
                         self->where != NULL ? self->where : Py_None,
                         "interval", self->entered, self->left);
}

static PyMethodDef result_methods[] = {
    {"column", (PyCFunction)result_column, METH_O, "doubles of a column"},
    {"row_modes", (PyCFunction)result_row_modes, METH_NOARGS, "row modes"},
    {"exact", (PyCFunction)result_exact, METH_VARARGS, "exact values"},
    {"events", (PyCFunction)result_events, METH_O, "the events"},
    {"events_csv", (PyCFunction)result_events_csv, METH_NOARGS, "events.csv"},
    {"summary_json", (PyCFunction)result_summary_json, METH_NOARGS,
     "summary.json"},
    {"notes", (PyCFunction)result_notes, METH_NOARGS, "notes for the user"},
    {"write", (PyCFunction)result_write, METH_O, "write the result files"},
    {"info", (PyCFunction)result_info, METH_NOARGS, "figures of the run"},
    {NULL}};

PyTypeObject ResultType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hdo._hdo.Result",
    .tp_basicsize = sizeof(ResultObject),
    .tp_dealloc = (destructor)result_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "the result of one run (made by hdo._hdo.run)",
    .tp_methods = result_methods,
};

/* A time option as exact text: a decimal (hdo_run_parse_time, which
   names the option in its errors) or a ratio of two decimals "P/Q". */
static int
time_option(fmpq_t q, const char *option, const char *text, int positive)
{
    hdo_error_t err;
    const char *slash = strchr(text, '/');
    int st;
    hdo_error_clear(&err);
    if (slash == NULL) {
        st = hdo_run_parse_time(q, option, text, positive, &err);
    } else {
        fmpq_t d;
        char *num = strndup(text, (size_t)(slash - text));
        if (num == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        fmpq_init(d);
        st = hdo_run_parse_time(q, option, num, positive, &err);
        if (st == 0)
            st = hdo_run_parse_time(d, option, slash + 1, 1, &err);
        if (st == 0)
            fmpq_div(q, q, d);
        fmpq_clear(d);
        free(num);
    }
    if (st != 0)
        PyErr_SetString(PyExc_ValueError, err.message);
    return st;
}

/* run(model, digits, until, every, times, method, max_steps, max_events,
   verify): a Result.  until and every are exact text (None: the model's
   end, the default grid); times a buffer of doubles (sample times) or
   None.  Refuses what `hdo run` refuses before computing (the options,
   a grid too large for memory) with ValueError, and raises RunError
   when the run fails, with the rows up to the failure. */
PyObject *
hdo_py_run(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"model",  "digits", "until",     "every",
                            "times",  "method", "max_steps", "max_events",
                            "verify", NULL};
    PyObject *model;
    long digits = HDO_DIGITS_DEFAULT, max_steps = 0, max_events = 0;
    const char *until = NULL, *every = NULL;
    Py_buffer times = {0};
    int method = HDO_METHOD_AUTO, verify = 0, st = 0;
    fmpq_t qu, qe;
    hdo_run_options opt;
    hdo_error_t err;
    char where[1024] = "";
    slong nrows = 0;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "O!|lzzz*illp", names, &ModelType, &model, &digits,
            &until, &every, &times, &method, &max_steps, &max_events, &verify))
        return NULL;
    if (times.buf != NULL && times.len % (Py_ssize_t)sizeof(double) != 0) {
        PyBuffer_Release(&times);
        return PyErr_Format(PyExc_ValueError, "times: not doubles");
    }
    if (max_steps < 0 || max_events < 0) {
        PyBuffer_Release(&times);
        return PyErr_Format(PyExc_ValueError,
                            "max_steps and max_events must be positive");
    }
    fmpq_init(qu);
    fmpq_init(qe);
    hdo_run_options_init(&opt);
    opt.digits = digits;
    opt.method = method;
    opt.max_steps = max_steps;
    opt.max_events = max_events;
    if (until != NULL && (st = time_option(qu, "until", until, 0)) == 0)
        opt.until = qu;
    if (st == 0 && every != NULL &&
        (st = time_option(qe, "every", every, 1)) == 0)
        opt.every = qe;
    if (times.buf != NULL) {
        opt.sample_times = times.buf;
        opt.nsample_times = times.len / (Py_ssize_t)sizeof(double);
    }
    ResultObject *r = NULL;
    if (st == 0)
        r = PyObject_New(ResultObject, &ResultType);
    if (r != NULL) {
        r->model = Py_NewRef(model);
        r->verified = -1;
        r->where = NULL;
        r->live = 1;
        hdo_result_init(r->res);
        const hdo_model_struct *m = ((ModelObject *)model)->model;
        hdo_error_clear(&err);
        Py_BEGIN_ALLOW_THREADS;
        r->entered = hdo_clock_now();
        /* what `hdo run` refuses before computing, refused here too */
        st = hdo_run_rows(&nrows, m, &opt, &err);
        if (st == 0)
            st = hdo_run_check_memory(nrows, ((ModelObject *)model)->model,
                                      digits, verify, &err);
        if (st == 0 && verify) {
            hdo_result_t check;
            hdo_result_init(check);
            st = hdo_run_verify(r->res, check, &r->verified, where,
                                sizeof where, m, &opt, &err);
            hdo_result_clear(check);
        } else if (st == 0) {
            st = hdo_run(r->res, m, &opt, &err);
        }
        hdo_py_free_thread_caches();
        r->left = hdo_clock_now();
        Py_END_ALLOW_THREADS;
        if (st == 0 && verify && where[0] != '\0' &&
            (r->where = PyUnicode_DecodeUTF8(where, (Py_ssize_t)strlen(where),
                                             "replace")) == NULL)
            Py_CLEAR(r);
        if (st != 0) {
            /* a wrong call (an option, the sample times: err->file NULL)
               is the caller's ValueError; the rest is the run's */
            if (st == HDO_ERR_INPUT && err.file == NULL)
                PyErr_SetString(PyExc_ValueError, err.message);
            else
                hdo_py_raise(hdo_py_RunError, &err, (PyObject *)r);
            Py_CLEAR(r);
        }
    }
    fmpq_clear(qu);
    fmpq_clear(qe);
    PyBuffer_Release(&times);
    return (PyObject *)r;
}
