/* number.c -- decimal literals to exact rationals */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include "model.h"

/* Digits go into an fmpz through GMP's exact string conversion, never
   through a double: 0.1 must be 1/10, not the binary number nearest to
   it.  The value is mantissa * 10^(exponent - fraction digits). */
int
hdo_parse_decimal(fmpq_t q, const char *s, size_t len)
{
    size_t i = 0, ndigits = 0;
    slong frac = 0, expo = 0;
    int neg = 0, seen_digit = 0, status = 0;
    char *digits;
    fmpz_t p;

    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = (s[i++] == '-');
    digits = malloc(len + 2);
    if (digits == NULL)
        return HDO_ERR_MEMORY;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        seen_digit = 1;
        if (ndigits > 0 || s[i] != '0') /* leading zeros carry nothing */
            digits[ndigits++] = s[i];
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            seen_digit = 1;
            frac++;
            if (ndigits > 0 || s[i] != '0')
                digits[ndigits++] = s[i];
        }
    }
    if (!seen_digit) {
        free(digits);
        return HDO_ERR_SYNTAX;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0, edigit = 0;
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            eneg = (s[i++] == '-');
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            edigit = 1;
            /* Saturate instead of overflowing; the range check below
               rejects anything this large. */
            if (expo <= 10 * (slong)HDO_MODEL_MAX_EXPONENT)
                expo = 10 * expo + (s[i] - '0');
        }
        if (!edigit) {
            free(digits);
            return HDO_ERR_SYNTAX;
        }
        if (eneg)
            expo = -expo;
    }
    if (i != len) {
        free(digits);
        return HDO_ERR_SYNTAX;
    }
    if (ndigits > HDO_MODEL_MAX_DIGITS || expo > HDO_MODEL_MAX_EXPONENT ||
        expo < -(slong)HDO_MODEL_MAX_EXPONENT) {
        free(digits);
        return HDO_ERR_UNSUPPORTED;
    }
    if (ndigits == 0) {
        free(digits);
        fmpq_zero(q);
        return 0;
    }
    digits[ndigits] = 0;
    fmpz_init(p);
    if (fmpz_set_str(fmpq_numref(q), digits, 10) != 0)
        status = HDO_ERR_SYNTAX; /* cannot happen: only digits were kept */
    free(digits);
    if (status == 0) {
        expo -= frac;
        fmpz_set_ui(p, 10);
        if (expo >= 0) {
            fmpz_pow_ui(p, p, (ulong)expo);
            fmpz_mul(fmpq_numref(q), fmpq_numref(q), p);
            fmpz_one(fmpq_denref(q));
        } else {
            fmpz_pow_ui(fmpq_denref(q), p, (ulong)(-expo));
            fmpq_canonicalise(q);
        }
        if (neg)
            fmpq_neg(q, q);
    }
    fmpz_clear(p);
    return status;
}
