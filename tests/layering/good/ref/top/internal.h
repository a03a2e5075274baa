/* internal.h -- private to ref/top/ */
#ifndef TOP_INTERNAL_H
#define TOP_INTERNAL_H
#include "top.h"
int top_depth(void);
#endif
