/* memory.c -- whether the rows of a run's sampling grid fit in the
 * memory of the process, decided before computing */
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include "result.h"

/* Bytes one stored row of the trajectory takes at D digits with n
   variables (hdo_result_add_row): the row record, twice for the array
   that grows by doubling; the time and n values, each an mpfr struct
   and a heap block of limbs (one more limb for MPFR's header, malloc's
   8-byte header, 16-byte granules); the presence flags.  Measured: 410
   bytes a row for 3 variables at 30 digits (300450 rows, 124 MB), this
   gives 480. */
static double
row_bytes(long digits, slong nvars)
{
    double limbs = ceil((double)hdo_run_prec(digits) / 64.0) + 1;
    double block = 16.0 * ceil((limbs * 8 + 8) / 16.0);
    return 2.0 * sizeof(hdo_row) + (double)(nvars + 2) * sizeof(__mpfr_struct) +
           16.0 + (double)(nvars + 1) * block +
           16.0 * ceil((4.0 * (double)nvars + 8) / 16.0);
}

/* The memory this machine gives a process: the physical memory, or a
   smaller ulimit (-v, -d). */
static double
memory_limit(void)
{
    double m = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    struct rlimit rl;
    if (m <= 0)
        m = 1e18;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (double)rl.rlim_cur < m)
        m = (double)rl.rlim_cur;
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (double)rl.rlim_cur < m)
        m = (double)rl.rlim_cur;
    return m;
}

static void
put_bytes(char *buf, size_t n, double b)
{
    const char *unit[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    int k = 0;
    while (b >= 1000 && k < 6) {
        b /= 1000;
        k++;
    }
    snprintf(buf, n, k == 0 ? "%.0f %s" : "%.1f %s", b, unit[k]);
}

/* The message below spells --verify's extra digits out. */
_Static_assert(HDO_VERIFY_EXTRA_DIGITS == 10, "the message says D + 10");

/* With verify the second run's rows at D + 10 digits are held at the
   same time as the first's.  Events add rows the grid cannot foresee:
   they are not counted. */
int
hdo_run_check_memory(slong nrows, const hdo_model_t model, long digits,
                     int verify, hdo_error_t *err)
{
    double per =
        row_bytes(digits, model->nvars) +
        (verify ? row_bytes(hdo_run_verify_digits(digits), model->nvars) : 0);
    double need = (double)nrows * per, have = memory_limit();
    if (need <= have / 2)
        return 0;
    char a[32], b[32];
    put_bytes(a, sizeof a, need);
    put_bytes(b, sizeof b, have);
    return hdo_error_set(
        err, HDO_ERR_INPUT, 0, 0,
        "%ld output rows of %ld variable%s at %ld digits%s "
        "would need about %s of memory (%.0f bytes a row), more than "
        "half of the %s this process may use: choose a larger --every, "
        "a shorter --until or fewer digits",
        (long)nrows, (long)model->nvars, model->nvars == 1 ? "" : "s", digits,
        verify ? " (with --verify: twice, the second at D + 10)" : "", a, per,
        b);
}
