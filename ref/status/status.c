/* status.c -- status names and the error record */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "status.h"

const char *
hdo_status_name(int status)
{
    switch (status) {
    case HDO_OK:
        return "HDO_OK";
    case HDO_EVENT:
        return "HDO_EVENT";
    case HDO_ERR_SYNTAX:
        return "HDO_ERR_SYNTAX";
    case HDO_ERR_SEMANTIC:
        return "HDO_ERR_SEMANTIC";
    case HDO_ERR_DOMAIN:
        return "HDO_ERR_DOMAIN";
    case HDO_ERR_SINGULAR:
        return "HDO_ERR_SINGULAR";
    case HDO_ERR_INCONSISTENT:
        return "HDO_ERR_INCONSISTENT";
    case HDO_ERR_NO_CONVERGENCE:
        return "HDO_ERR_NO_CONVERGENCE";
    case HDO_ERR_STEP_COLLAPSE:
        return "HDO_ERR_STEP_COLLAPSE";
    case HDO_ERR_TOO_MUCH_WORK:
        return "HDO_ERR_TOO_MUCH_WORK";
    case HDO_ERR_CHATTERING:
        return "HDO_ERR_CHATTERING";
    case HDO_ERR_ZENO:
        return "HDO_ERR_ZENO";
    case HDO_ERR_UNSUPPORTED:
        return "HDO_ERR_UNSUPPORTED";
    case HDO_ERR_IO:
        return "HDO_ERR_IO";
    case HDO_ERR_MEMORY:
        return "HDO_ERR_MEMORY";
    case HDO_ERR_INPUT:
        return "HDO_ERR_INPUT";
    case HDO_ERR_NOT_UNIQUE:
        return "HDO_ERR_NOT_UNIQUE";
    default:
        return "HDO_UNKNOWN_STATUS";
    }
}

void
hdo_error_clear(hdo_error_t *err)
{
    memset(err, 0, sizeof *err);
}

int
hdo_error_set(hdo_error_t *err, int status, int line, int col, const char *fmt,
              ...)
{
    if (err != NULL) {
        va_list ap;
        err->status = status;
        err->line = line;
        err->col = col;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

void
hdo_error_format(char *out, int n, const hdo_error_t *err)
{
    int k = 0;
    if (err->file != NULL) {
        if (err->line > 0 && err->col > 0)
            k = snprintf(out, n, "%s:%d:%d: ", err->file, err->line, err->col);
        else if (err->line > 0)
            k = snprintf(out, n, "%s:%d: ", err->file, err->line);
        else
            k = snprintf(out, n, "%s: ", err->file);
    }
    if (k < 0 || k >= n)
        return;
    k += snprintf(out + k, n - k, "error: %s", err->message);
    if (k >= n)
        return;
    if (err->mode != NULL && err->has_time)
        snprintf(out + k, n - k, " (in mode %s at t = %.17g)", err->mode,
                 err->time);
    else if (err->mode != NULL)
        snprintf(out + k, n - k, " (in mode %s)", err->mode);
    else if (err->has_time)
        snprintf(out + k, n - k, " (at t = %.17g)", err->time);
}

void
hdo_assert_fail(const char *cond, const char *file, int line)
{
    fprintf(stderr, "hdo: internal error: assertion %s failed at %s:%d\n", cond,
            file, line);
    abort();
}
