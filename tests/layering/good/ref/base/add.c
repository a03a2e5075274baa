/* add.c -- base_add; names that the upper module also uses, as locals,
   members and statics, which are no calls up */
#include "base.h"

struct pair {
    int top_step;
};

static int
top_enter(int x) /* a static namesake of a global function of top */
{
    return x + 1;
}

int
base_add(int a, int b)
{
    struct pair p = {a};
    int top_leave = b; /* a local namesake */
    return top_enter(p.top_step) + top_leave;
}
