/* main.c -- the program on top of both modules */
#include "top.h"

int
main(void)
{
    return top_step(top_enter(2));
}
