/* memory.c -- allocation failures of GMP, MPFR and FLINT: a message and
 * exit 2, never an abort or a core dump */
#include <stdlib.h>
#include <unistd.h>
#include <gmp.h>
#include <flint/flint.h>
#include "process.h"
#include "internal.h"

/* Called where an allocation failed: there is no way to go on, and a
   crash (abort, core dump) would look like a bug.  Writes with write(2):
   stdio may need memory. */
static void
out_of_memory(void)
{
    static const char msg[] = "hdo: error: out of memory (the computation "
                              "needs more memory than this process may "
                              "use)\n";
    hdo_temp_remove_all();
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more can be said */
    }
    _exit(2);
}

static void *
oom_malloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL && n != 0)
        out_of_memory();
    return p;
}

static void *
oom_calloc(size_t n, size_t m)
{
    void *p = calloc(n, m);
    if (p == NULL && n != 0 && m != 0)
        out_of_memory();
    return p;
}

static void *
oom_realloc(void *q, size_t n)
{
    void *p = realloc(q, n);
    if (p == NULL && n != 0)
        out_of_memory();
    return p;
}

static void *
gmp_realloc(void *q, size_t old, size_t n)
{
    (void)old;
    return oom_realloc(q, n);
}

static void
gmp_free(void *q, size_t n)
{
    (void)n;
    free(q);
}

/* GMP (and MPFR, which allocates through GMP's functions) and FLINT
   abort on a failed allocation; these report it and exit 2. */
void
hdo_process_memory_init(void)
{
    mp_set_memory_functions(oom_malloc, gmp_realloc, gmp_free);
    __flint_set_memory_functions(oom_malloc, oom_calloc, oom_realloc, free);
}
