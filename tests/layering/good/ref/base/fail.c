/* fail.c -- base_fail */
#include "base.h"

int
base_fail(int code)
{
    return -code;
}
