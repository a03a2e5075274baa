/* expr_print_long_decimal.c -- regression test (issue 10, a timeout of
   tests/fuzz/fuzz_model.c: `... 1e-300^1000 ...` in an equation).

   hdo_expr_to_string prints 10^-300000 as a decimal after
   finite_decimal() (ref/expr/print.c) has stripped the factors 2 and 5
   of the denominator one at a time: 600000 exact divisions of a number
   of up to a million bits, about 30 s (under AddressSanitizer 60 s) for
   a constant the parser accepts (HDO_MODEL_MAX_CONST_BITS).  With
   fmpz_val2 and fmpz_remove it takes milliseconds. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"
#include "model.h"
#include "../pool_fixture.h"

TestSuite(regress_expr_print_long_decimal, .init = pool_setup,
          .fini = pool_teardown);

Test(regress_expr_print_long_decimal, ten_to_minus_300000, .timeout = 10.0)
{
    fmpq_t q, back;
    hdo_expr e;
    char *s, *slash;
    size_t n;

    fmpq_init(q);
    fmpz_one(fmpq_numref(q));
    fmpz_set_ui(fmpq_denref(q), 10);
    fmpz_pow_ui(fmpq_denref(q), fmpq_denref(q), 300000);
    e = hdo_expr_const_fmpq(pool, q);
    s = hdo_expr_to_string(pool, e, NULL);
    n = strlen(s);
    /* Whatever the form (a decimal, or 1/1000... since decimals are only
       used up to 60 digits), the text must be the exact value. */
    fmpq_init(back);
    slash = strchr(s, '/');
    if (slash != NULL) {
        *slash = '\0';
        cr_assert_eq(fmpz_set_str(fmpq_numref(back), s, 10), 0);
        cr_assert_eq(fmpz_set_str(fmpq_denref(back), slash + 1, 10), 0);
        fmpq_canonicalise(back);
    } else {
        cr_assert_eq(hdo_parse_decimal(back, s, n), 0, "printed %.20s...", s);
    }
    cr_assert(fmpq_equal(back, q), "printed text is not 10^-300000");
    fmpq_clear(back);
    fmpq_clear(q);
    free(s);
}
