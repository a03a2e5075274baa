/* clock.c -- the clocks of hdo's timings: wall (monotonic) and the CPU
 * time of the calling thread, in seconds */
#include <time.h>
#include "util.h"

double
hdo_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double
hdo_clock_thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
