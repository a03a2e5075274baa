/* api_util.h -- what the tests of the library's calling conventions
 * (tests/api/) share: a model with a closed form, the check of a row
 * against it, and the check of a refusal */
#ifndef HDO_TESTS_API_UTIL_H
#define HDO_TESTS_API_UTIL_H

#include <criterion/criterion.h>
#include <string.h>
#include "hybrid.h"
#include "../model_util.h"

/* x' = -x, x(0) = 1 on [0, 1]: x = e^-t, evaluated by MPFR's exp, not by
   hdo. */
static const char *api_decay = "model api_decay\n"
                               "var x = 1\n"
                               "mode m\n"
                               "  der(x) = -x\n"
                               "end\n"
                               "start m at 0\n"
                               "until 1\n";

/* 1 when row r holds t = want_t exactly and x = e^-t to digits - 2
   significant digits (the run's D digits, two spared for the last
   rounding of a long run). */
static inline int
api_row_is_decay(const hdo_row *r, double want_t, long digits)
{
    mpfr_t t, x;
    int ok;
    mpfr_inits2(mpfr_get_prec(r->time) + 64, t, x, (mpfr_ptr)0);
    mpfr_set_d(t, want_t, MPFR_RNDN);
    mpfr_neg(x, t, MPFR_RNDN);
    mpfr_exp(x, x, MPFR_RNDN);
    ok = mpfr_equal_p(r->time, t) && r->present[0] &&
         tm_close_rel(r->values + 0, x, digits - 2);
    mpfr_clears(t, x, (mpfr_ptr)0);
    return ok;
}

/* A refusal of the call's arguments: HDO_ERR_INPUT, no file named (the
   call is wrong, not the model), a message holding what. */
static inline void
api_expect_refused(int st, const hdo_error_t *err, const char *what)
{
    cr_expect_eq(st, HDO_ERR_INPUT, "status %d (%s)", st, err->message);
    cr_expect_eq(err->status, HDO_ERR_INPUT);
    cr_expect(err->file == NULL, "file %s", err->file);
    cr_expect(strstr(err->message, what) != NULL, "'%s' lacks '%s'",
              err->message, what);
}

#endif
