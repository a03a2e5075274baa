/* tables.c -- tests of the output tables: trajectory.csv, events.csv,
 * summary.json, written from a hand-built result */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

/* The expected text is written out by hand from cli.md: header
   time,mode,<vars in declaration order>; D significant digits; empty
   cells for variables the mode lacks; events index,time,from,to,kind,
   guard. */

static const char *model_text =
    "model two\n"
    "var a = 1, b = 2\n"
    "var c\n"
    "mode m1\n  der(a) = -a\n  der(c) = 1\n  when a < 0.5 goto m2\nend\n"
    "mode m2\n  der(b) = a\n  der(a) = 0\nend\n"
    "start m1\nuntil 1\n";

static char *
write_to_string(int which, const hdo_result_t res, const hdo_model_t model,
                long digits)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hdo_error_t err;
    int st = which == 0   ? hdo_write_trajectory(f, res, model, digits, &err)
             : which == 1 ? hdo_write_events(f, res, model, digits, &err)
                          : hdo_write_summary(f, res, model, 17, &err);
    fclose(f);
    cr_assert_eq(st, 0);
    return buf;
}

static void
build(hdo_result_t res, hdo_model_t model)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_model_init(model);
    cr_assert_eq(hdo_model_parse_string(model, model_text, strlen(model_text),
                                        "two.hdae", &err),
                 0, "%s", err.message);
    hdo_result_init(res);
    hdo_result_setup(res, model, 5, 64);
    mpfr_t t;
    mpfr_init2(t, 64);
    /* row in m1 at t = 0: a = 1, c = 0 (b absent) */
    mpfr_set_ui(t, 0, MPFR_RNDN);
    hdo_row *r = hdo_result_add_row(res, t, 0);
    mpfr_set_ui(r->values + 0, 1, MPFR_RNDN);
    mpfr_set_ui(r->values + 2, 0, MPFR_RNDN);
    r->present[0] = r->present[2] = 1;
    /* the event at t = ln 2 ~ 0.69314718: left in m1, right in m2 */
    mpfr_const_log2(t, MPFR_RNDN);
    r = hdo_result_add_row(res, t, 0);
    mpfr_set_d(r->values + 0, 0.5, MPFR_RNDN);
    mpfr_set(r->values + 2, t, MPFR_RNDN);
    r->present[0] = r->present[2] = 1;
    r = hdo_result_add_row(res, t, 1);
    mpfr_set_d(r->values + 0, 0.5, MPFR_RNDN);
    mpfr_set_si(r->values + 1, -2, MPFR_RNDN);
    r->present[0] = r->present[1] = 1;
    hdo_event *e = hdo_result_add_event(res, t, 0, 1, HDO_EV_SIMULTANEOUS,
                                        model->modes[0].whens[0].guard_text);
    mpfr_set_d(e->left + 0, 0.5, MPFR_RNDN);
    mpfr_set_d(e->right + 0, 0.5, MPFR_RNDN);
    res->modes[0].used = res->modes[1].used = 1;
    res->modes[1].from_km = 1;
    res->modes[1].d = 2;
    res->steps = 7;
    mpfr_set_ui(res->t_end, 1, MPFR_RNDN);
    mpfr_clear(t);
}

Test(hybrid, output_trajectory_csv)
{
    hdo_model_t model;
    hdo_result_t res;
    build(res, model);
    char *s = write_to_string(0, res, model, 5);
    cr_assert_str_eq(s, "time,mode,a,b,c\n"
                        "0.0000e+00,m1,1.0000e+00,,0.0000e+00\n"
                        "6.9315e-01,m1,5.0000e-01,,6.9315e-01\n"
                        "6.9315e-01,m2,5.0000e-01,-2.0000e+00,\n");
    free(s);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, output_events_csv)
{
    hdo_model_t model;
    hdo_result_t res;
    build(res, model);
    char *s = write_to_string(1, res, model, 5);
    cr_assert_str_eq(s, "index,time,from,to,kind,guard\n"
                        "1,6.9315e-01,m1,m2,simultaneous,a < 0.5\n");
    free(s);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, output_summary_json)
{
    hdo_model_t model;
    hdo_result_t res;
    build(res, model);
    char *s = write_to_string(2, res, model, 5);
    cr_assert(strstr(s, "\"model\": \"two\"") != NULL, "%s", s);
    cr_assert(strstr(s, "\"digits\": 5,") != NULL, "%s", s);
    cr_assert(strstr(s, "\"precision_bits\": 64,") != NULL, "%s", s);
    cr_assert(strstr(s, "\"t_end\": 1.0000e+00,") != NULL, "%s", s);
    cr_assert(strstr(s, "\"steps\": 7,") != NULL, "%s", s);
    cr_assert(strstr(s, "\"events\": 1,") != NULL, "%s", s);
    cr_assert(strstr(s, "{\"name\": \"m2\", \"mu\": 0, \"d\": 2, \"a\": 0, "
                        "\"v\": 0, \"index\": 0, \"analysis\": "
                        "\"kunkel-mehrmann\"}") != NULL,
              "%s", s);
    cr_assert(strstr(s, "\"verified_digits\": 17") != NULL, "%s", s);
    /* the timing record (decisions.md D-050), whatever its figures */
    cr_assert(strstr(s, "\"average_order\": ") != NULL, "%s", s);
    cr_assert(strstr(s, "\"timing\": {\"total_s\": ") != NULL, "%s", s);
    cr_assert(strstr(s, "\"reinit_s\": ") != NULL, "%s", s);
    cr_assert(strstr(s, "\"cpu_s\": ") != NULL, "%s", s);
    free(s);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* trajectory.csv's numbers are mpfr_printf's "%.*Re" to the byte
   (output.c formats them from mpfr_get_str, issue 28): random values at
   1 to 120 digits and several precisions, values just below a power of
   ten (9.99...96 rounding up to 1.0e+01), integers, tiny and huge
   exponents (three-digit exponents), signs, +0, -0, infinities. */
Test(hybrid, output_numbers_as_mpfr_printf)
{
    static const long digits[] = {1, 2, 3, 5, 16, 17, 30, 31, 40, 61, 120};
    static const mpfr_prec_t precs[] = {53, 64, 133, 200, 420};
    flint_rand_t st;
    flint_randinit(st);
    for (int di = 0; di < (int)(sizeof digits / sizeof digits[0]); di++)
        for (int pi = 0; pi < (int)(sizeof precs / sizeof precs[0]); pi++) {
            long D = digits[di];
            hdo_model_t model;
            hdo_result_t res;
            hdo_error_t err;
            hdo_model_init(model);
            cr_assert_eq(hdo_model_parse_string(model, model_text,
                                                strlen(model_text), "two.hdae",
                                                &err),
                         0);
            hdo_result_init(res);
            hdo_result_setup(res, model, D, precs[pi]);
            mpfr_t t;
            mpfr_init2(t, precs[pi]);
            char **want = calloc(200 * 3, sizeof *want);
            for (int i = 0; i < 200; i++) {
                mpfr_set_ui(t, (unsigned long)i, MPFR_RNDN);
                hdo_row *r = hdo_result_add_row(res, t, 0);
                r->present[0] = r->present[2] = 1;
                for (int v = 0; v <= 2; v += 2) {
                    mpfr_ptr x = r->values + v;
                    switch (i % 8) {
                    case 0: /* just below 10^k: rounds up to a new decade */
                        mpfr_set_ui(x, 10, MPFR_RNDN);
                        mpfr_pow_si(x, x, (long)n_randint(st, 60) - 30,
                                    MPFR_RNDN);
                        mpfr_nextbelow(x);
                        break;
                    case 1:
                        mpfr_set_si(x, (long)n_randint(st, 2000) - 1000,
                                    MPFR_RNDN);
                        break;
                    case 2:
                        mpfr_set_zero(x, n_randint(st, 2) ? 1 : -1);
                        break;
                    case 3:
                        mpfr_set_inf(x, n_randint(st, 2) ? 1 : -1);
                        break;
                    default:
                        /* random bits through the whole precision */
                        mpfr_set_zero(x, 1);
                        for (int b = 0; b < 8; b++) {
                            mpfr_mul_2si(x, x, 60, MPFR_RNDN);
                            mpfr_add_ui(x, x, n_randint(st, 1UL << 60),
                                        MPFR_RNDN);
                        }
                        mpfr_mul_2si(x, x, (long)n_randint(st, 1400) - 1180,
                                     MPFR_RNDN);
                        if (n_randint(st, 2))
                            mpfr_neg(x, x, MPFR_RNDN);
                    }
                    mpfr_asprintf(&want[i * 3 + v], "%.*Re", (int)(D - 1), x);
                }
                mpfr_asprintf(&want[i * 3 + 1], "%.*Re", (int)(D - 1), t);
            }
            char *s = write_to_string(0, res, model, D);
            char *line = strchr(s, '\n') + 1; /* past the header */
            for (int i = 0; i < 200; i++) {
                char expect[1200];
                snprintf(expect, sizeof expect, "%s,m1,%s,,%s\n",
                         want[i * 3 + 1], want[i * 3], want[i * 3 + 2]);
                cr_assert(strncmp(line, expect, strlen(expect)) == 0,
                          "D = %ld, prec %ld, row %d: %.*s instead of %s", D,
                          (long)precs[pi], i, (int)strlen(expect), line,
                          expect);
                line += strlen(expect);
                for (int k = 0; k < 3; k++)
                    mpfr_free_str(want[i * 3 + k]);
            }
            free(want);
            free(s);
            mpfr_clear(t);
            hdo_result_clear(res);
            hdo_model_clear(model);
        }
    flint_randclear(st);
}
