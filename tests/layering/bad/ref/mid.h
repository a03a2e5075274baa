/* mid.h -- the middle module's public header */
#ifndef MID_H
#define MID_H
int mid_start(void);
#endif
