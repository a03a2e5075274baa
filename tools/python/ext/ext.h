/* ext.h -- what the files of the CPython extension hdo._hdo share: the
   object types, the exceptions and the small helpers.

   The extension binds libhdo through its umbrella header only (hdo.h):
   the library's internals are being reorganised (issue 24), and the
   public interface is what stays.  Every computation runs with the GIL
   released; objects reachable from Python are touched only with it
   held. */
#ifndef HDO_PY_EXT_H
#define HDO_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "hdo.h"

/* A parsed model (hdo._hdo.Model): the model of one text with one set
   of parameter overrides, only read once parsed, so that several runs
   may share it at once (model.h).  A check parses its own copy from the
   text (hdo_check_t holds its model by value): hdo.Model keeps the
   text. */
typedef struct {
    PyObject_HEAD hdo_model_t model;
    int live; /* hdo_model_init was called (hdo_model_clear is due) */
} ModelObject;

/* The result of one run (hdo._hdo.Result).  It keeps its model alive:
   the events borrow the model's guard texts, and mode and variable
   names are the model's. */
typedef struct {
    PyObject_HEAD PyObject *model; /* ModelObject */
    hdo_result_t res;
    int live;
    long verified;   /* verified digits, -1 without verify */
    PyObject *where; /* str: where the verify runs agree least, or None */
    /* hdo_clock_now (CLOCK_MONOTONIC, Python's time.monotonic) when the
       call entered and left libhdo: what shows that runs in threads
       overlap */
    double entered, left;
} ResultObject;

/* One check of a candidate (hdo._hdo.Check): the library's hdo_check_t,
   kept so that its arrays, its report and its JUnit file can be read
   after the computation. */
typedef struct {
    PyObject_HEAD hdo_check_t s;
    int live;
    char *cand_name;   /* the candidate's name in the report */
    char *events_name; /* how the events were given, or NULL */
    double seconds;    /* the whole check, wall time */
} CheckObject;

extern PyTypeObject ModelType, ResultType, CheckType;
extern PyObject *hdo_py_Error, *hdo_py_ModelError, *hdo_py_RunError,
    *hdo_py_CheckError;

/* Raises exc with the fields of err as attributes (status, file, line,
   column, mode, time, message) and the one-line text of
   hdo_error_format as its argument; returns NULL.  result, when not
   NULL, becomes the attribute `result` (a run's rows up to a failure). */
PyObject *hdo_py_raise(PyObject *exc, const hdo_error_t *err, PyObject *result);

/* s as str (bad UTF-8 replaced: names come from the user's files), or
   None for NULL. */
PyObject *hdo_py_str_or_none(const char *s);

/* Frees the MPFR and FLINT caches of the calling thread.  Called after
   every computation, GIL released: a Python thread that ran a model
   would otherwise leave them behind when it ends (LeakSanitizer sees
   them), as the threads of hdo_run_verify free theirs. */
void hdo_py_free_thread_caches(void);

/* A bytes object holding n doubles x[0], x[stride], ... (x NULL: NaN),
   which numpy.frombuffer reads as a read-only array. */
PyObject *hdo_py_doubles(const double *x, Py_ssize_t n, Py_ssize_t stride);

/* Text written to a FILE by a library call, as str: f is an
   open_memstream whose buffer *buf of *size bytes is read and freed
   (fclose first).  NULL with MemoryError set when the stream failed. */
PyObject *hdo_py_memstream_str(FILE *f, char **buf, size_t *size);

/* The module-level functions of each file (model.c, run.c, check.c). */
PyObject *hdo_py_parse(PyObject *self, PyObject *args, PyObject *kw);
PyObject *hdo_py_run(PyObject *self, PyObject *args, PyObject *kw);
PyObject *hdo_py_check(PyObject *self, PyObject *args, PyObject *kw);
/* Writes hdo check's human report of a computed check to out
   (report.c), as `hdo check` prints it before the summary line. */
void hdo_py_check_report(const CheckObject *c, FILE *out);

#endif
