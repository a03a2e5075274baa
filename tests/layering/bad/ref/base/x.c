/* x.c -- calls y.c, which calls it back: a circle */
#include "base.h"
#include "internal.h"

int
base_x(int n)
{
    return n > 0 ? base_y(n - 1) : 0;
}

int
base_secret(void)
{
    return 7;
}
