/* mac.h -- internal: column sums of limb products (fused.c, fexp.c, ldot.c)
 * and the unrolling of their loops */
#ifndef HDO_EXPR_MAC_H
#define HDO_EXPR_MAC_H

#include <gmp.h>

/* the includer defines limb (mp_limb_t), dlimb (unsigned __int128) and
   LB (64) */

/* The loop that follows unrolled n times: the kernels' loops on the
   limbs, whose count is a constant in each inlined copy.  GCC's only:
   clang honours the pragma too, and with UBSan (make fuzz) did not
   finish fused.c unrolled (over 400 s; 7.4 s without, decisions.md
   D-148); unrolling moves no bit. */
#if defined(__GNUC__) && !defined(__clang__)
#define HDO_PRAGMA_(x) _Pragma(#x)
#define HDO_UNROLL(n) HDO_PRAGMA_(GCC unroll n)
#else
#define HDO_UNROLL(n)
#endif

/* (c2 c1 c0) += x y, and (c2 c1) += the high limb of x y alone: the
   column sums of fused.c's add_cut_d and fexp.c's mulhi, on amd64 in
   the four instructions they take (the compiler's 128-bit arithmetic
   spills its registers here); (c2 c1 c0) -= x y modulo 2^192, the
   signed column sums of ref/step/radau_dot.c. */
#if defined(__x86_64__) && !defined(HDO_FUSED_NO_ASM)
#define MAC3(c0, c1, c2, x, y)                                                 \
    do {                                                                       \
        limb lo_, hi_;                                                         \
        __asm__("mulq %5\n\taddq %%rax, %2\n\tadcq %%rdx, %3\n\tadcq $0, %4"   \
                : "=&a"(lo_), "=&d"(hi_), "+r"(c0), "+r"(c1), "+r"(c2)         \
                : "rm"(y), "0"(x)                                              \
                : "cc");                                                       \
    } while (0)
#define MACHI(c1, c2, x, y)                                                    \
    do {                                                                       \
        limb lo_, hi_;                                                         \
        __asm__("mulq %4\n\taddq %%rdx, %2\n\tadcq $0, %3"                     \
                : "=&a"(lo_), "=&d"(hi_), "+r"(c1), "+r"(c2)                   \
                : "rm"(y), "0"(x)                                              \
                : "cc");                                                       \
    } while (0)
#define MSB3(c0, c1, c2, x, y)                                                 \
    do {                                                                       \
        limb lo_, hi_;                                                         \
        __asm__("mulq %5\n\tsubq %%rax, %2\n\tsbbq %%rdx, %3\n\tsbbq $0, %4"   \
                : "=&a"(lo_), "=&d"(hi_), "+r"(c0), "+r"(c1), "+r"(c2)         \
                : "rm"(y), "0"(x)                                              \
                : "cc");                                                       \
    } while (0)
#define ADD3(c0, c1, c2, x)                                                    \
    __asm__("addq %3, %0\n\tadcq $0, %1\n\tadcq $0, %2"                        \
            : "+r"(c0), "+r"(c1), "+r"(c2)                                     \
            : "rm"(x)                                                          \
            : "cc")
#else
#define MAC3(c0, c1, c2, x, y)                                                 \
    do {                                                                       \
        dlimb t_ = (dlimb)(x) * (y);                                           \
        dlimb s_ = (dlimb)(c0) + (limb)t_;                                     \
        dlimb h_ = (dlimb)(c1) + (limb)(s_ >> LB) + (limb)(t_ >> LB);          \
        c0 = (limb)s_;                                                         \
        c1 = (limb)h_;                                                         \
        c2 += (limb)(h_ >> LB);                                                \
    } while (0)
#define MACHI(c1, c2, x, y)                                                    \
    do {                                                                       \
        dlimb h_ = (dlimb)(c1) + (limb)(((dlimb)(x) * (y)) >> LB);             \
        c1 = (limb)h_;                                                         \
        c2 += (limb)(h_ >> LB);                                                \
    } while (0)
#define MSB3(c0, c1, c2, x, y)                                                 \
    do {                                                                       \
        dlimb t_ = (dlimb)(x) * (y);                                           \
        limb b0_ = (limb)(c0) < (limb)t_;                                      \
        dlimb h_ = (dlimb)(c1) - (limb)(t_ >> LB) - b0_;                       \
        c0 = (limb)(c0) - (limb)t_;                                            \
        c1 = (limb)h_;                                                         \
        c2 -= (limb)(h_ >> LB) != 0;                                           \
    } while (0)
#define ADD3(c0, c1, c2, x)                                                    \
    do {                                                                       \
        dlimb s_ = (dlimb)(c0) + (x);                                          \
        dlimb h_ = (dlimb)(c1) + (limb)(s_ >> LB);                             \
        c0 = (limb)s_;                                                         \
        c1 = (limb)h_;                                                         \
        c2 += (limb)(h_ >> LB);                                                \
    } while (0)
#endif

#endif
