/* run.c -- reads the lower module's internals */
#include "top.h"
#include "base/internal.h"

int
top_run(void)
{
    return mid_start() + base_secret();
}

int
top_hook(void)
{
    return 0;
}
