/* base.h -- the lower module's public header */
#ifndef BASE_H
#define BASE_H
int base_add(int a, int b);
int base_fail(int code);
/* a macro whose call is counted where it is used */
#define BASE_CHECK(c) ((c) ? 0 : base_fail(1))
static inline int
base_twice(int a)
{
    return base_add(a, a);
}
#endif
