/* common.c -- what the files of the extension share: its exceptions,
   the raising of a libhdo error, the thread caches, bytes of doubles and
   the text of a memory stream (ext.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ext.h"

PyObject *hdo_py_Error, *hdo_py_ModelError, *hdo_py_RunError,
    *hdo_py_CheckError;

void
hdo_py_free_thread_caches(void)
{
    flint_cleanup();
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
}

static int
set_attr(PyObject *o, const char *name, PyObject *v)
{
    int st = v == NULL ? -1 : PyObject_SetAttrString(o, name, v);
    Py_XDECREF(v);
    return st;
}

PyObject *
hdo_py_str_or_none(const char *s)
{
    if (s == NULL)
        Py_RETURN_NONE;
    /* names come from the user's files: never fail on bad UTF-8 */
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

PyObject *
hdo_py_raise(PyObject *exc, const hdo_error_t *err, PyObject *result)
{
    char text[2048];
    PyObject *e;
    hdo_error_format(text, sizeof text, err);
    e = PyObject_CallFunction(exc, "s", text);
    if (e == NULL)
        return NULL;
    if (set_attr(e, "status",
                 PyUnicode_FromString(hdo_status_name(err->status))) ||
        set_attr(e, "file", hdo_py_str_or_none(err->file)) ||
        set_attr(e, "line",
                 err->line > 0 ? PyLong_FromLong(err->line)
                               : Py_NewRef(Py_None)) ||
        set_attr(e, "column",
                 err->col > 0 ? PyLong_FromLong(err->col)
                              : Py_NewRef(Py_None)) ||
        set_attr(e, "mode", hdo_py_str_or_none(err->mode)) ||
        set_attr(e, "time",
                 err->has_time ? PyFloat_FromDouble(err->time)
                               : Py_NewRef(Py_None)) ||
        set_attr(e, "message", hdo_py_str_or_none(err->message)) ||
        set_attr(e, "result", Py_NewRef(result != NULL ? result : Py_None))) {
        Py_DECREF(e);
        return NULL;
    }
    PyErr_SetObject(exc, e);
    Py_DECREF(e);
    return NULL;
}

PyObject *
hdo_py_doubles(const double *x, Py_ssize_t n, Py_ssize_t stride)
{
    PyObject *b =
        PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(double));
    if (b == NULL)
        return NULL;
    /* a new bytes object may be filled before anyone sees it */
    double *out = (double *)PyBytes_AS_STRING(b);
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = x != NULL ? x[i * stride] : NAN;
    return b;
}

PyObject *
hdo_py_memstream_str(FILE *f, char **buf, size_t *size)
{
    PyObject *s;
    int bad = f == NULL || ferror(f);
    if (f != NULL)
        bad |= fclose(f) != 0;
    if (bad) {
        free(*buf);
        *buf = NULL;
        return PyErr_NoMemory();
    }
    s = PyUnicode_DecodeUTF8(*buf, (Py_ssize_t)*size, "replace");
    free(*buf);
    *buf = NULL;
    return s;
}
