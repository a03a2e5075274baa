/* top.h -- the upper module's public header */
#ifndef TOP_H
#define TOP_H
#include "mid.h"
int top_run(void);
int top_hook(void);
#endif
