/* leave.c -- leaving a state enters the next one (the allowed circle) */
#include "internal.h"

int
top_leave(int x)
{
    return top_enter(x) + top_depth();
}
