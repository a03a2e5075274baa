/* model.c -- the parsed model type hdo._hdo.Model and parse(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ext.h"

static void
model_dealloc(ModelObject *self)
{
    if (self->live)
        hdo_model_clear(self->model);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
model_name(ModelObject *self, void *closure)
{
    return hdo_py_str_or_none(self->model->name);
}

static PyObject *
model_file(ModelObject *self, void *closure)
{
    return hdo_py_str_or_none(self->model->file);
}

static PyObject *
model_warnings(ModelObject *self, void *closure)
{
    return hdo_py_str_or_none(self->model->warnings);
}

static PyObject *
model_variables(ModelObject *self, void *closure)
{
    PyObject *l = PyList_New(self->model->nvars);
    for (slong i = 0; l != NULL && i < self->model->nvars; i++) {
        PyObject *s = hdo_py_str_or_none(self->model->vars[i].name);
        if (s == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, s);
    }
    return l;
}

/* The modes written in the file (the sign patterns of piecewise
   expressions are appended after them as modes of their own, model.h:
   a mode of the file is its own family). */
static PyObject *
model_modes(ModelObject *self, void *closure)
{
    PyObject *l = PyList_New(0);
    for (slong i = 0; l != NULL && i < self->model->nmodes; i++) {
        if (self->model->modes[i].family != i)
            continue;
        PyObject *s = hdo_py_str_or_none(self->model->modes[i].name);
        if (s == NULL || PyList_Append(l, s) != 0)
            Py_CLEAR(l);
        Py_XDECREF(s);
    }
    return l;
}

/* The parameters by name, each with its exact value as a string
   "p/q" (an integer "p"): the values the model was parsed with, the
   overrides included. */
static PyObject *
model_params(ModelObject *self, void *closure)
{
    PyObject *d = PyDict_New();
    for (slong i = 0; d != NULL && i < self->model->nparams; i++) {
        const hdo_param *p = self->model->params + i;
        PyObject *v;
        fmpq_t q;
        fmpq_init(q);
        if (hdo_expr_get_fmpq(q, self->model->pool, p->value) == 0) {
            char *s = fmpq_get_str(NULL, 10, q);
            v = s != NULL ? PyUnicode_FromString(s) : PyErr_NoMemory();
            flint_free(s);
        } else {
            /* a parameter that is no rational (sqrt(2), pi): its
               expression, which no exact string renders */
            v = Py_NewRef(Py_None);
        }
        fmpq_clear(q);
        if (v == NULL || PyDict_SetItemString(d, p->name, v) != 0)
            Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}

static PyGetSetDef model_getset[] = {
    {"name", (getter)model_name, NULL, "the name after `model`", NULL},
    {"file", (getter)model_file, NULL, "the file name of messages", NULL},
    {"warnings", (getter)model_warnings, NULL, "warning lines, or None", NULL},
    {"variables", (getter)model_variables, NULL, "variables in order", NULL},
    {"modes", (getter)model_modes, NULL, "the modes of the file", NULL},
    {"params", (getter)model_params, NULL, "parameters: exact values", NULL},
    {NULL}};

PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hdo._hdo.Model",
    .tp_basicsize = sizeof(ModelObject),
    .tp_dealloc = (destructor)model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a parsed model (made by hdo._hdo.parse)",
    .tp_getset = model_getset,
};

/* The parameter overrides, a sequence of "NAME=VALUE" strings, as C
   strings in *out (n of them, the strings owned by seq's items). */
static int
param_strings(PyObject *seq, const char ***out, Py_ssize_t *n)
{
    *out = NULL;
    *n = PySequence_Fast_GET_SIZE(seq);
    *out = PyMem_Calloc((size_t)*n + 1, sizeof(char *));
    if (*out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        if (((*out)[i] = PyUnicode_AsUTF8(o)) == NULL)
            return -1;
    }
    return 0;
}

/* parse(text=None, filename=None, path=None, params=()): a Model.
   With path, the file is read as `hdo run` reads it
   (hdo_model_parse_file: 64 MiB, the first NUL byte, classic Mac line
   ends named); else text (bytes) is parsed with filename for messages.
   Raises ModelError (a model error, or a file that cannot be read) or
   ValueError (a malformed override). */
PyObject *
hdo_py_parse(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"text", "filename", "path", "params", NULL};
    const char *text = NULL, *filename = NULL, *path = NULL;
    Py_ssize_t len = 0, np = 0;
    PyObject *params = NULL, *seq = NULL;
    const char **pv = NULL;
    hdo_error_t err;
    ModelObject *m;
    int st = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|y#zzO", names, &text, &len,
                                     &filename, &path, &params))
        return NULL;
    if ((text == NULL) == (path == NULL))
        return PyErr_Format(PyExc_TypeError, "give text or path");
    if (params == NULL || params == Py_None)
        seq = PyTuple_New(0);
    else
        seq = PySequence_Fast(params, "params: a sequence of NAME=VALUE");
    if (seq == NULL || param_strings(seq, &pv, &np) != 0) {
        Py_XDECREF(seq);
        PyMem_Free(pv);
        return NULL;
    }
    m = PyObject_New(ModelObject, &ModelType);
    if (m == NULL) {
        Py_DECREF(seq);
        PyMem_Free(pv);
        return NULL;
    }
    m->live = 1;
    hdo_error_clear(&err);
    hdo_model_init(m->model);
    for (Py_ssize_t i = 0; st == 0 && i < np; i++)
        st = hdo_model_add_override(m->model, pv[i], &err);
    if (st != 0) {
        /* the call is wrong (err->file NULL), not the model */
        PyErr_SetString(PyExc_ValueError, err.message);
    } else {
        /* a large model takes a while to parse: other threads go on */
        Py_BEGIN_ALLOW_THREADS;
        st = path != NULL ? hdo_model_parse_file(m->model, path, &err)
                          : hdo_model_parse_string(m->model, text, (size_t)len,
                                                   filename, &err);
        hdo_py_free_thread_caches();
        Py_END_ALLOW_THREADS;
        if (st != 0)
            hdo_py_raise(hdo_py_ModelError, &err, NULL);
    }
    Py_DECREF(seq);
    PyMem_Free(pv);
    if (st != 0) {
        Py_DECREF(m); /* the message was formatted before the clear */
        return NULL;
    }
    return (PyObject *)m;
}
