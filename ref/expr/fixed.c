/* fixed.c -- the tables of the fixed-point elementary functions
 * (fixed.h): 1/i!, exp(j/64), sin and cos of j/64, ln2 and pi/4 */
#include <pthread.h>
#include "fixed.h"

limb hdo_fixed_fact[NTERMS][TMAX + 1];
limb hdo_fixed_exp[2 * HDO_FIXED_JEXP + 1][TMAX + 1];
limb hdo_fixed_sin[HDO_FIXED_JSIN + 1][TMAX + 1];
limb hdo_fixed_cos[HDO_FIXED_JSIN + 1][TMAX + 1];
limb hdo_fixed_ln2[TMAX + 1];
limb hdo_fixed_pi4[TMAX + 1];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready; /* set (release) once the tables are written */

void
hdo_fixed_floor(limb *out, int len, mpfr_srcptr v, long bits)
{
    mpz_t z;
    mpz_init(z);
    mpfr_t w;
    mpfr_init2(w, mpfr_get_prec(v));
    mpfr_mul_2si(w, v, bits, MPFR_RNDN); /* exact */
    mpfr_get_z(z, w, MPFR_RNDD);
    HDO_ASSERT(mpz_sizeinbase(z, 2) <= (size_t)(len * LB));
    memset(out, 0, (size_t)len * sizeof(limb));
    mpz_export(out, NULL, -1, sizeof(limb), 0, 0, z);
    mpfr_clear(w);
    mpz_clear(z);
}

static void
make_tables(void)
{
    /* 640 bits hold every table entry's 384 and 256 more: each entry
       rounded down there, then floored, is within 2^-600 of its floor */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min()); /* v 2^384 in any caller's range */
    mpfr_set_emax(mpfr_get_emax_max());
    mpfr_t v, w;
    mpfr_inits2(640, v, w, (mpfr_ptr)0);
    for (int j = -HDO_FIXED_JEXP; j <= HDO_FIXED_JEXP; j++) {
        mpfr_set_si_2exp(v, j, -6, MPFR_RNDN);
        mpfr_exp(v, v, MPFR_RNDD);
        hdo_fixed_floor(hdo_fixed_exp[j + HDO_FIXED_JEXP], TMAX + 1, v,
                        LB * TMAX);
    }
    for (int j = 0; j <= HDO_FIXED_JSIN; j++) {
        mpfr_set_si_2exp(w, j, -6, MPFR_RNDN);
        mpfr_sin(v, w, MPFR_RNDD);
        hdo_fixed_floor(hdo_fixed_sin[j], TMAX + 1, v, LB * TMAX);
        mpfr_cos(v, w, MPFR_RNDD);
        hdo_fixed_floor(hdo_fixed_cos[j], TMAX + 1, v, LB * TMAX);
    }
    mpfr_set_ui(v, 1, MPFR_RNDN);
    for (int i = 0; i < NTERMS; i++) {
        if (i > 1)
            mpfr_div_ui(v, v, (unsigned long)i, MPFR_RNDD);
        hdo_fixed_floor(hdo_fixed_fact[i], TMAX + 1, v, LB * TMAX);
    }
    mpfr_const_log2(v, MPFR_RNDD);
    hdo_fixed_floor(hdo_fixed_ln2, TMAX + 1, v, LB * (TMAX + 1));
    mpfr_const_pi(v, MPFR_RNDD);
    mpfr_div_2ui(v, v, 2, MPFR_RNDD);
    hdo_fixed_floor(hdo_fixed_pi4, TMAX + 1, v, LB * (TMAX + 1));
    mpfr_clears(v, w, (mpfr_ptr)0);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
}

void
hdo_fixed_init(void)
{
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
        pthread_once(&once, make_tables);
}
