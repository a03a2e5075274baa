/* up.c -- a call up the order, and one through a macro */
#include "base.h"

int top_run(void);

int
base_up(void)
{
    return top_run();
}

int
base_hooked(void)
{
    return BASE_HOOK();
}
