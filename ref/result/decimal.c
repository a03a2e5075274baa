/* decimal.c -- the decimal digits of a binary number, rounded to nearest,
 * from exact integer arithmetic */
#include <math.h>
#include "result.h"
#include "util.h"

/* Why not mpfr_get_str.  trajectory.csv writes every value of every row
   with D digits: 6,040 values cost mpfr_get_str 29.5 M instructions on
   the pendulum's 1,000 rows at 30 digits (4,900 a value), more than a
   quarter of its dense output (issue 28).  mpfr_get_str is general
   (any base, Ziv's loop on an approximate power of the base); here the
   base is 10 and the value m 2^E (m the significand's limbs read as an
   integer) times 10^s is an integer operation: m 5^s 2^(E + s) for s >= 0, or
   m 2^(E + s) / 5^-s, whose quotient and remainder give the digits and
   the rounding exactly.  The result is mpfr_get_str's text, digit for
   digit (tests/result/decimal.c holds it to that; decisions.md
   D-110). */

/* Decimal exponents beyond which mpfr_get_str does the work (values
   beyond 10^+-100000, where 5^s grows past 230,000 bits). */
#define HDO_DECIMAL_EXP_MAX 100000.0

void
hdo_decimal_init(hdo_decimal_t d)
{
    mpz_inits(d->p5, d->p, d->q, d->r, d->lo, d->hi, (mpz_ptr)0);
    d->n = 0;
    d->k5 = -1;
}

void
hdo_decimal_clear(hdo_decimal_t d)
{
    mpz_clears(d->p5, d->p, d->q, d->r, d->lo, d->hi, (mpz_ptr)0);
}

/* d->p5 := 5^k, kept from the call before when k is the same (values
   written one after the other often share their decimal exponent: 40%
   of the pendulum's) */
static mpz_srcptr
five_to(hdo_decimal_t d, long k)
{
    if (d->k5 != k) {
        mpz_ui_pow_ui(d->p5, 5, (unsigned long)k);
        d->k5 = k;
    }
    return d->p5;
}

/* d->q := floor(|x| 10^s) for |x| = m 2^E (m > 0); returns the
   remainder's place against half a unit: -1 below, 0 at, 1 above; -2
   for no remainder (the quotient exact). */
static int
scaled_floor(hdo_decimal_t d, mpz_srcptr m, mpfr_exp_t E, long s)
{
    mpfr_exp_t sh = E + s;
    if (s >= 0) {
        mpz_mul(d->q, m, five_to(d, s));
        if (sh >= 0) {
            mpz_mul_2exp(d->q, d->q, (mp_bitcnt_t)sh);
            return -2;
        }
        /* the bits below 2^-sh are the remainder: its top bit is the
           half, the others below it */
        mp_bitcnt_t k = (mp_bitcnt_t)-sh;
        mp_bitcnt_t low = mpz_scan1(d->q, 0); /* q > 0: m > 0 */
        int half = mpz_tstbit(d->q, k - 1);
        mpz_fdiv_q_2exp(d->q, d->q, k);
        if (low >= k)
            return -2;
        return !half ? -1 : low == k - 1 ? 0 : 1;
    }
    /* m 2^sh / 5^-s: the divisor 5^-s, or 5^-s 2^-sh */
    mpz_srcptr den = five_to(d, -s);
    if (sh >= 0) {
        mpz_mul_2exp(d->r, m, (mp_bitcnt_t)sh);
    } else {
        mpz_set(d->r, m);
        mpz_mul_2exp(d->p, den, (mp_bitcnt_t)-sh);
        den = d->p;
    }
    mpz_fdiv_qr(d->q, d->r, d->r, den);
    if (mpz_sgn(d->r) == 0)
        return -2;
    mpz_mul_2exp(d->r, d->r, 1);
    int c = mpz_cmp(d->r, den);
    return c < 0 ? -1 : c > 0;
}

/* out := the n decimal digits of q (10^(n-1) <= q < 10^n) and a NUL.
   Up to 38 digits q fits in 128 bits: two 19-digit halves by machine
   division (mpz_get_str's general conversion took 720 instructions a
   value, over half of the rest). */
static void
put_digits(char *out, mpz_srcptr q, size_t n)
{
#if GMP_NUMB_BITS == 64 && defined(__SIZEOF_INT128__)
    if (n <= 38) {
        const unsigned long long P19 = 10000000000000000000ULL;
        unsigned __int128 v =
            (unsigned __int128)mpz_getlimbn(q, 1) << 64 | mpz_getlimbn(q, 0);
        char *p = out + n;
        *p = '\0';
        if (v >= P19) {
            unsigned long long lo = (unsigned long long)(v % P19);
            v /= P19;
            for (int i = 0; i < 19; i++) {
                *--p = (char)('0' + lo % 10);
                lo /= 10;
            }
        }
        unsigned long long hi = (unsigned long long)v;
        do {
            *--p = (char)('0' + hi % 10);
            hi /= 10;
        } while (hi != 0);
        HDO_ASSERT(p == out);
        return;
    }
#endif
    mpz_get_str(out, 10, q);
}

mpfr_exp_t
hdo_decimal_get_str(char *buf, hdo_decimal_t d, size_t n, const mpfr_t x)
{
    HDO_ASSERT(mpfr_regular_p(x) && n >= 1);
    if (d->n != n) {
        /* the range of an n-digit integer: [10^(n-1), 10^n) */
        mpz_ui_pow_ui(d->lo, 10, (unsigned long)(n - 1));
        mpz_mul_ui(d->hi, d->lo, 10);
        d->n = n;
    }
    /* |x| = m 2^E, m the significand's limbs read in place as an
       integer (its padding bits are zeros: the value is the same) */
    mp_size_t nl =
        (mp_size_t)((mpfr_get_prec(x) + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    mpz_t ml;
    mpz_srcptr m =
        mpz_roinit_n(ml, (const mp_limb_t *)mpfr_custom_get_significand(x), nl);
    mpfr_exp_t E = mpfr_get_exp(x) - (mpfr_exp_t)nl * GMP_NUMB_BITS;
    /* 2^(ex - 1) <= |x| < 2^ex, so 10^(e - 1) <= |x| < 10^e for e the
       estimate or one more; the quotient's size decides (and corrects
       an estimate rounded the wrong way) */
    double l10 = (double)(mpfr_get_exp(x) - 1) * 0.30102999566398119521;
    if (fabs(l10) > HDO_DECIMAL_EXP_MAX) {
        /* 5^|s| would have millions of bits: MPFR's approximate power */
        mpfr_exp_t ex;
        mpfr_get_str(buf, &ex, 10, n, x, MPFR_RNDN);
        return ex;
    }
    long e = (long)floor(l10) + 1, s;
    int rem;
    for (;;) {
        s = (long)n - e;
        rem = scaled_floor(d, m, E, s);
        if (mpz_cmp(d->q, d->lo) < 0)
            e--;
        else if (mpz_cmp(d->q, d->hi) >= 0)
            e++;
        else
            break;
    }
    /* to nearest, ties to an even last digit, as mpfr_get_str */
    if (rem > 0 || (rem == 0 && mpz_odd_p(d->q))) {
        mpz_add_ui(d->q, d->q, 1);
        if (mpz_cmp(d->q, d->hi) == 0) {
            mpz_set(d->q, d->lo);
            e++;
        }
    }
    char *out = buf;
    if (mpfr_signbit(x))
        *out++ = '-';
    put_digits(out, d->q, n);
    return (mpfr_exp_t)e;
}
