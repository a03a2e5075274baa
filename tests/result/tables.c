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
