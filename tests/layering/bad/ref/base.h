/* base.h -- the lower module's public header */
#ifndef BASE_H
#define BASE_H
int base_x(int n);
int base_y(int n);
int base_up(void);
int base_hooked(void);
/* a call up the order hidden in a macro */
#define BASE_HOOK() top_hook()
int top_hook(void);
#endif
