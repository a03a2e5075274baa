/* turn.c -- turn() calls walk() back */
#include "mid/parser.h"

int
turn(int n)
{
    return n > 0 ? walk(n - 1) : 1;
}
