/* model_util.h -- helpers shared by the unit tests that start from model
 * text: parse it or fail the test, find a variable or fail, run it */
#ifndef HDO_TESTS_MODEL_UTIL_H
#define HDO_TESTS_MODEL_UTIL_H

#include <criterion/criterion.h>
#include <string.h>
#include "hybrid.h"

/* Parses text as "test.hdae" into model (initialised here); a parse error
   fails the test with its message. */
static inline void
tm_parse(hdo_model_t model, const char *text)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_model_init(model);
    int st =
        hdo_model_parse_string(model, text, strlen(text), "test.hdae", &err);
    cr_assert_eq(st, 0, "parse failed: %s", err.message);
}

/* The index of variable name; its absence fails the test. */
static inline slong
tm_var(const hdo_model_t model, const char *name)
{
    slong v = hdo_model_find_var(model, name);
    cr_assert(v >= 0, "no variable %s", name);
    return v;
}

/* Runs model at digits (sampling every `every`, NULL for the default) into
   res (initialised here); returns hdo_run's status, err filled. */
static inline int
tm_run(hdo_result_t res, hdo_model_t model, long digits, const char *every,
       hdo_error_t *err)
{
    hdo_run_options opt;
    fmpq_t q;
    int st;
    hdo_run_options_init(&opt);
    opt.digits = digits;
    fmpq_init(q);
    if (every != NULL) {
        cr_assert_eq(hdo_run_parse_time(q, "--every", every, 1, err), 0,
                     "%s", err->message);
        opt.every = q;
    }
    hdo_result_init(res);
    st = hdo_run(res, model, &opt, err);
    fmpq_clear(q);
    return st;
}

/* Sets q (initialised) to the exact decimal s, which must be valid. */
static inline void
tm_decimal(fmpq_t q, const char *s)
{
    cr_assert_eq(hdo_parse_decimal(q, s, strlen(s)), 0, "'%s'", s);
}

/* 1 if |a - b| <= 10^-digits max(1, |b|) */
static inline int
tm_close_rel(const mpfr_t a, const mpfr_t b, long digits)
{
    mpfr_t d, lim, p;
    mpfr_inits2(mpfr_get_prec(b) + 32, d, lim, (mpfr_ptr)0);
    mpfr_init2(p, 64);
    mpfr_sub(d, a, b, MPFR_RNDN);
    mpfr_abs(lim, b, MPFR_RNDN);
    if (mpfr_cmp_ui(lim, 1) < 0)
        mpfr_set_ui(lim, 1, MPFR_RNDN);
    mpfr_set_ui(p, 10, MPFR_RNDN);
    mpfr_pow_si(p, p, -digits, MPFR_RNDN);
    mpfr_mul(lim, lim, p, MPFR_RNDN);
    int ok = mpfr_cmpabs(d, lim) <= 0;
    mpfr_clears(d, lim, p, (mpfr_ptr)0);
    return ok;
}

#endif
