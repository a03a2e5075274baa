/* module.c -- the extension module hdo._hdo: its functions (parse,
   run, check: model.c, run.c, check.c), its exceptions and constants. */
#include <stdio.h>
#include "ext.h"

static PyMethodDef module_methods[] = {
    {"parse", (PyCFunction)(void (*)(void))hdo_py_parse,
     METH_VARARGS | METH_KEYWORDS, "parse(text=, filename=, path=, params=)"},
    {"run", (PyCFunction)(void (*)(void))hdo_py_run,
     METH_VARARGS | METH_KEYWORDS, "run(model, digits, ...): a Result"},
    {"check", (PyCFunction)(void (*)(void))hdo_py_check,
     METH_VARARGS | METH_KEYWORDS, "check(text, filename, ...): a Check"},
    {NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "hdo._hdo",
    "libhdo bound for Python (hdo/__init__.py is the interface)",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL};

static PyObject *
new_exception(PyObject *mod, const char *name, PyObject *base, const char *doc)
{
    char full[64];
    snprintf(full, sizeof full, "hdo.%s", name);
    PyObject *e = PyErr_NewExceptionWithDoc(full, doc, base, NULL);
    if (e != NULL && PyModule_AddObjectRef(mod, name, e) != 0)
        Py_CLEAR(e);
    return e;
}

PyMODINIT_FUNC
PyInit__hdo(void)
{
    PyObject *mod;
    if (PyType_Ready(&ModelType) < 0 || PyType_Ready(&ResultType) < 0 ||
        PyType_Ready(&CheckType) < 0)
        return NULL;
    mod = PyModule_Create(&module_def);
    if (mod == NULL)
        return NULL;
    if ((hdo_py_Error = new_exception(
             mod, "Error", NULL,
             "Base of hdo's errors; attributes status, file, line, column, "
             "mode, time, message (None where unknown).")) == NULL ||
        (hdo_py_ModelError = new_exception(
             mod, "ModelError", hdo_py_Error,
             "A model that cannot be read: file, line, column, message.")) ==
            NULL ||
        (hdo_py_RunError = new_exception(
             mod, "RunError", hdo_py_Error,
             "A run that cannot go on: mode, time, message; result holds "
             "the rows and events up to the failure.")) == NULL ||
        (hdo_py_CheckError = new_exception(
             mod, "CheckError", hdo_py_Error,
             "A check that cannot be done (hdo check's exit 2): a bad "
             "candidate, tolerance file or events.")) == NULL ||
        PyModule_AddStringConstant(mod, "version", hdo_version()) != 0 ||
        PyModule_AddIntConstant(mod, "MAX_DIGITS", HDO_MAX_DIGITS) != 0 ||
        PyModule_AddIntConstant(mod, "DIGITS_DEFAULT", HDO_DIGITS_DEFAULT) !=
            0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
