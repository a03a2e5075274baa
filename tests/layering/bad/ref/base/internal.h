/* internal.h -- private to ref/base/ */
#ifndef BASE_INTERNAL_H
#define BASE_INTERNAL_H
int base_secret(void);
#endif
