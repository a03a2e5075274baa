/* series.h -- helpers on a guard's series shared by the files of
 * ref/event */
#ifndef HDO_EVENT_SERIES_H
#define HDO_EVENT_SERIES_H

#include <flint/flint.h>
#include <math.h>
#include <mpfr.h>

/* The number of coefficients up to the last nonzero one (at least 1). */
slong hdo_event_actual_len(mpfr_srcptr c, slong len);

/* scale := max_k |c_k| H^k at 64 bits, each term rounded up; lc NULL,
   or lc[k] = log2 |c_k| + k log2 H in doubles to compute only the terms
   that can be the largest (the same bits; locate.c). */
void hdo_event_coef_scale(mpfr_t scale, mpfr_srcptr c, slong len,
                          const mpfr_t H, const double *lc);

/* ldexp(x, n) without its call where 2^n is a normal double (the
   product is then correctly rounded once, as ldexp is: the same bits). */
static inline double
hdo_event_scale2(double x, long n)
{
    if (n < -1022 || n > 1023)
        /* beyond +-2200 every finite double gives 0 or inf, as ldexp */
        return ldexp(x, (int)(n < -2200 ? -2200 : n > 2200 ? 2200 : n));
    union {
        unsigned long long i;
        double d;
    } v = {(unsigned long long)(n + 1023) << 52};
    return x * v.d;
}

/* Horner: f = P(x), fp = P'(x) for P = sum c_k x^k, len coefficients
   (refine.c). */
void hdo_event_horner2(mpfr_t f, mpfr_t fp, mpfr_srcptr c, slong len,
                       const mpfr_t x);

/* The root of P = sum c_k s^k in [a, b] (P(a) >= 0 >= P(b)) to the
   working precision prec relative to the root itself, H the step
   (refine.c).  e: NULL, or the
   doubles e_k = c_k H^k 2^-G of locate.c's search (fast_init: the
   values the start would compute, shared). */
void hdo_event_refine(mpfr_t x, mpfr_srcptr c, slong len, const mpfr_t a,
                      const mpfr_t b, const mpfr_t H, mpfr_prec_t prec,
                      const double *e, double G);

/* What a refinement took (tests): the evaluations of P at the working
   precision, whether the first was of P alone (P' from the doubles),
   and rho, the relative error bound of that P' (+inf: no double-double
   start). */
typedef struct {
    int evals, alone;
    double rho;
} hdo_event_refine_trace;

/* hdo_event_refine, and what it took into *tr (NULL: nothing). */
void hdo_event_refine_traced(mpfr_t x, mpfr_srcptr c, slong len,
                             const mpfr_t a, const mpfr_t b, const mpfr_t H,
                             mpfr_prec_t prec, const double *e, double G,
                             hdo_event_refine_trace *tr);

#endif
