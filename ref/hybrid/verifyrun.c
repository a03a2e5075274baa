/* verifyrun.c -- hdo_run_verify: the run at D digits and its check at
 * D + 10 digits, at the same time in two threads on one model */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <flint/flint.h>
#include "internal.h"

/* The two runs share the parsed model, which hdo_run only reads (each
   run copies the expression pool into a workspace of its own, run.c);
   everything else a run touches is its own (run context, mode table,
   result, error) or thread-local: MPFR's constant caches (MPFR built
   with TLS) and FLINT's and Arb's caches (FLINT_USES_TLS).  A run
   touches no static mutable data (the process module's registry of
   temporary files, ref/process/temps.c, serves the writing of results,
   after the runs, and takes its slots atomically).  The thread frees its caches
   before it ends (flint_cleanup, mpfr_free_cache), or each --verify would leak
   them. */
typedef struct {
    hdo_result_struct *res;
    const hdo_model_struct *model;
    hdo_run_options opt;
    hdo_error_t err;
    int status;
    int id;           /* 1: the run at D digits, 2: the check at D + 10 */
    atomic_int *stop; /* 0, or the id of the run that failed first */
} verify_job;

static void
job_run(verify_job *j)
{
    j->status = hdo_run_stoppable(j->res, j->model, &j->opt, &j->err, j->stop);
    int none = 0;
    if (j->status < 0)
        atomic_compare_exchange_strong(j->stop, &none, j->id);
}

static void *
job_thread(void *data)
{
    job_run(data);
    flint_cleanup();
    mpfr_free_cache();
    return NULL;
}

int
hdo_run_verify(hdo_result_t res, hdo_result_t check, long *verified,
               char *where, size_t size, const hdo_model_struct *model,
               const hdo_run_options *opt, hdo_error_t *err)
{
    atomic_int stop = 0;
    verify_job a, b;
    pthread_t thread;

    *verified = -1;
    if (where != NULL && size > 0)
        where[0] = '\0';
    /* D is checked here, not in the runs: the check at D + 10 may go
       past HDO_MAX_DIGITS */
    if (hdo_run_check_args(res, check, model, opt, err) != 0)
        return HDO_ERR_INPUT;
    a.res = res;
    b.res = check;
    a.model = b.model = model;
    a.opt = b.opt = *opt;
    a.stop = b.stop = &stop;
    a.id = 1;
    b.id = 2;
    /* the progress is that of the longer run; the rows of the check go
       to check (hdo_result_agreement reads them), not to the sink */
    a.opt.progress = NULL;
    b.opt.digits = hdo_run_verify_digits(opt->digits);
    b.opt.row_sink = NULL;
    b.opt.row_sink_data = NULL;
    hdo_error_clear(&a.err);
    hdo_error_clear(&b.err);
    if (pthread_create(&thread, NULL, job_thread, &b) == 0) {
        job_run(&a);
        HDO_ASSERT(pthread_join(thread, NULL) == 0);
    } else {
        /* no second thread (resource limits): one run after the other */
        job_run(&a);
        if (a.status == 0)
            job_run(&b);
    }
    /* the run that failed first is the one to report: the other one was
       only stopped because of it */
    if (a.status < 0 && atomic_load(&stop) != 2) {
        if (err != NULL)
            *err = a.err;
        return a.status;
    }
    if (b.status < 0) {
        /* say which run failed: the first one succeeded */
        if (err != NULL) {
            *err = b.err;
            snprintf(err->message, sizeof err->message,
                     "the verification run at %ld digits (--verify) failed: "
                     "%.900s",
                     b.opt.digits, b.err.message);
        }
        return b.status;
    }
    if (err != NULL)
        hdo_error_clear(err);
    *verified = where != NULL && size > 0
                    ? hdo_result_agreement_where(where, size, model, res, check)
                    : hdo_result_agreement(res, check);
    return 0;
}
