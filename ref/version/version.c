/* version.c -- hdo_version: the version of the library linked */
#include "version.h"

const char *
hdo_version(void)
{
    return HDO_VERSION_STRING;
}
