/* thresholds.c -- hdo analyze's sign-pattern start test at its boundary
 * (docs/decisions.md D-013, "Piecewise expressions" (6)): a pattern can hold at
 * the start when every crossing guard is >= -2^(32 - prec) at its
 * consistent point, prec the run's precision at D digits. */
#include <stdio.h>
#include <criterion/criterion.h>
#include "analyze.h"
#include "../model_util.h"

/* The possible flags of the patterns "x >= 0" (guard x) and "x < 0"
   (guard -x) of `der(x) = if x >= 0 then -1 else 1` from x = x0, a
   model constant; the analysis at `digits`. */
static void
possible(int *ge, int *lt, const char *x0, long digits)
{
    char text[512];
    snprintf(text, sizeof text,
             "model s\nvar x = %s\nmode m\n"
             "  der(x) = if x >= 0 then -1 else 1\nend\nstart m\nuntil 1\n",
             x0);
    hdo_model_t model;
    hdo_analysis_t an;
    hdo_error_t err;
    tm_parse(model, text);
    hdo_analysis_init(an);
    cr_assert_eq(hdo_analyze(an, model, digits, &err), 0, "%s", err.message);
    *ge = *lt = -1;
    for (slong m = 0; m < an->nmodes; m++) {
        const char *p = model->modes[m].pattern;
        if (p == NULL)
            continue;
        if (strcmp(p, "x >= 0") == 0)
            *ge = an->modes[m].possible;
        else if (strcmp(p, "x < 0") == 0)
            *lt = an->modes[m].possible;
    }
    cr_assert(*ge >= 0 && *lt >= 0, "the two patterns of x >= 0");
    hdo_analysis_clear(an);
    hdo_model_clear(model);
}

Test(analyze_thresholds, sign_pattern_start_boundary)
{
    static const long digits[] = {10, 30, 60};
    for (size_t i = 0; i < sizeof digits / sizeof *digits; i++) {
        long D = digits[i];
        /* prec = bit length of 10^(D + 10) (hdo_run_prec), by GMP */
        mpz_t z;
        mpz_init(z);
        mpz_ui_pow_ui(z, 10, (unsigned long)(D + 10));
        long e = (long)mpz_sizeinbase(z, 2) - 32; /* 2^(32 - prec) = 1/2^e */
        mpz_clear(z);
        char x0[128];
        int ge, lt;
        /* exactly -2^(32 - prec): on the boundary, which holds (>=) */
        snprintf(x0, sizeof x0, "-1/2^%ld", e);
        possible(&ge, &lt, x0, D);
        cr_expect(ge && lt, "x = -2^(32-prec), D = %ld: %d %d", D, ge, lt);
        /* 2^-10 inside and outside */
        snprintf(x0, sizeof x0, "-(1 - 1/1024)/2^%ld", e);
        possible(&ge, &lt, x0, D);
        cr_expect(ge && lt, "just inside, D = %ld", D);
        snprintf(x0, sizeof x0, "-(1 + 1/1024)/2^%ld", e);
        possible(&ge, &lt, x0, D);
        cr_expect(!ge && lt, "just outside, D = %ld", D);
        /* the other side of the surface, for the guard -x */
        snprintf(x0, sizeof x0, "1/2^%ld", e);
        possible(&ge, &lt, x0, D);
        cr_expect(ge && lt, "x = 2^(32-prec), D = %ld", D);
        snprintf(x0, sizeof x0, "(1 + 1/1024)/2^%ld", e);
        possible(&ge, &lt, x0, D);
        cr_expect(ge && !lt, "x just above 2^(32-prec), D = %ld", D);
        /* a factor 2 either way */
        snprintf(x0, sizeof x0, "-1/2^%ld", e + 1);
        possible(&ge, &lt, x0, D);
        cr_expect(ge, "x = -2^(31-prec), D = %ld", D);
        snprintf(x0, sizeof x0, "-1/2^%ld", e - 1);
        possible(&ge, &lt, x0, D);
        cr_expect(!ge, "x = -2^(33-prec), D = %ld", D);
    }
}
