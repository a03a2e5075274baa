/* walk.c -- walk() calls turn() in turn.c: a circle through renamed names */
#include "mid.h"
#include "mid/parser.h"

int
walk(int n)
{
    return n > 0 ? turn(n - 1) : 0;
}

int
mid_start(void)
{
    return walk(3);
}
