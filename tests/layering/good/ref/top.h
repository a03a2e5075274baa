/* top.h -- the upper module's public header */
#ifndef TOP_H
#define TOP_H
#include "base.h"
int top_enter(int x);
int top_leave(int x);
int top_step(int x);
#endif
