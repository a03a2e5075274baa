/* status.h -- status codes and the error record shared by every hdo module */
#ifndef HDO_STATUS_H
#define HDO_STATUS_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Functions return int: 0 success, > 0 a normal stop, < 0 a failure
   (SUNDIALS' convention).  hdo_status_name() names every code. */
enum {
    HDO_OK = 0,
    HDO_EVENT = 1, /* a switching function crossed zero */

    HDO_ERR_SYNTAX = -1,       /* bad model text (file:line:col) */
    HDO_ERR_SEMANTIC = -2,     /* well-formed but meaningless model */
    HDO_ERR_DOMAIN = -3,       /* log of a negative, division by zero, ... */
    HDO_ERR_SINGULAR = -4,     /* singular mode / rank decision impossible */
    HDO_ERR_INCONSISTENT = -5, /* no consistent point near the start */
    HDO_ERR_NO_CONVERGENCE = -6,
    HDO_ERR_STEP_COLLAPSE = -7,
    HDO_ERR_TOO_MUCH_WORK = -8, /* --max-steps or --max-events reached */
    HDO_ERR_CHATTERING = -9,
    HDO_ERR_ZENO = -10,
    HDO_ERR_UNSUPPORTED = -11,
    HDO_ERR_IO = -12,
    HDO_ERR_MEMORY = -13,
    HDO_ERR_INPUT = -14,     /* bad CSV or option */
    HDO_ERR_NOT_UNIQUE = -15 /* the solution does not continue uniquely */
};

const char *hdo_status_name(int status);

/* Which input an error belongs to (hdo_error_t.input), for a caller that
   reads several (hdo check: the model, the candidate, the tolerance file,
   the events file, an option); HDO_INPUT_NONE when it is none of them or
   not said (a run's numerical failure, memory). */
enum {
    HDO_INPUT_NONE = 0,
    HDO_INPUT_MODEL,
    HDO_INPUT_CANDIDATE,
    HDO_INPUT_TOLERANCES,
    HDO_INPUT_EVENTS,
    HDO_INPUT_OPTION
};

/* Where and why something failed.  The library fills it, only oracle/
   and tools/ print it.  line/col are 1-based, 0 when unknown; mode is
   NULL when the failure belongs to no mode; has_time says whether time
   is meaningful; input says which input (HDO_INPUT_*), set by the
   readers of hdo check and left as it is by hdo_error_set. */
typedef struct {
    int status;
    int input;
    const char *file; /* borrowed: the model's file name */
    int line, col;
    const char *mode; /* borrowed */
    int has_time;
    double time;
    char message[1024];
} hdo_error_t;

void hdo_error_clear(hdo_error_t *err);

/* Sets err (if not NULL) and returns status.  The message is printf-style. */
int hdo_error_set(hdo_error_t *err, int status, int line, int col,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Writes "file:line:col: error: message" (omitting what is unknown, and
   adding "in mode M at t = T" when known) to a string of size n. */
void hdo_error_format(char *out, int n, const hdo_error_t *err);

/* One assertion catches bugs (MPFR style): never for user errors. */
#define HDO_ASSERT(c)                                                          \
    do {                                                                       \
        if (!(c))                                                              \
            hdo_assert_fail(#c, __FILE__, __LINE__);                           \
    } while (0)
void hdo_assert_fail(const char *cond, const char *file, int line)
    __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif
