/* y.c -- calls x.c back */
#include "base.h"

int
base_y(int n)
{
    return n > 0 ? base_x(n - 1) : 1;
}
