/* record.c -- ref.json, the options of a golden reference: written and
 * read back, and every bad value refused at its line and column */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "golden.h"
#include "version.h"

/* rec written by hdo_golden_record_write, as a malloc'd string. */
static char *
written(const hdo_golden_record *rec)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hdo_error_t err;
    cr_assert(f != NULL);
    cr_assert_eq(hdo_golden_record_write(f, rec, &err), 0);
    fclose(f);
    return text;
}

Test(golden_record, written_as_documented_and_read_back)
{
    const char *params[] = {"e=7/10", "g=9.81"};
    hdo_golden_record a, b;
    hdo_error_t err;
    char want[1024];
    hdo_golden_record_init(&a);
    hdo_golden_record_init(&b);
    cr_assert_eq(hdo_golden_record_set(&a, "ball", 40, 1, "0.03", "2.5",
                                       HDO_METHOD_IMPLICIT, 0, 17, params, 2),
                 0);
    char *text = written(&a);
    snprintf(want, sizeof want,
             "{\n  \"hdo_ref\": 1,\n  \"model\": \"ball\",\n"
             "  \"hdo_version\": \"%s\",\n  \"digits\": 40,\n"
             "  \"verify\": true,\n  \"every\": \"0.03\",\n"
             "  \"until\": \"2.5\",\n  \"method\": \"implicit\",\n"
             "  \"max_steps\": null,\n  \"max_events\": 17,\n"
             "  \"params\": {\"e\": \"7/10\", \"g\": \"9.81\"}\n}\n",
             hdo_version());
    cr_expect_str_eq(text, want);
    cr_assert_eq(
        hdo_golden_record_read(&b, text, strlen(text), "ref.json", &err), 0,
        "%s", err.message);
    cr_expect_str_eq(b.model, "ball");
    cr_expect_str_eq(b.hdo_version, hdo_version());
    cr_expect_eq(b.digits, 40);
    cr_expect_eq(b.verify, 1);
    cr_expect_str_eq(b.every, "0.03");
    cr_expect_str_eq(b.until, "2.5");
    cr_expect_eq(b.method, HDO_METHOD_IMPLICIT);
    cr_expect_eq(b.max_steps, 0);
    cr_expect_eq(b.max_events, 17);
    cr_assert_eq(b.nparams, 2);
    cr_expect_str_eq(b.params[0], "e=7/10");
    cr_expect_str_eq(b.params[1], "g=9.81");

    /* its run options: the decimals exact */
    hdo_run_options opt;
    fmpq_t every, until, q;
    fmpq_init(every);
    fmpq_init(until);
    fmpq_init(q);
    hdo_run_options_init(&opt);
    cr_assert_eq(hdo_golden_record_options(&opt, every, until, &b, &err), 0);
    cr_expect_eq(opt.digits, 40);
    cr_expect_eq(opt.method, HDO_METHOD_IMPLICIT);
    cr_expect_eq(opt.max_events, 17);
    fmpq_set_si(q, 3, 100);
    cr_expect(opt.every != NULL && fmpq_equal(opt.every, q));
    fmpq_set_si(q, 5, 2);
    cr_expect(opt.until != NULL && fmpq_equal(opt.until, q));
    fmpq_clear(every);
    fmpq_clear(until);
    fmpq_clear(q);
    free(text);
    hdo_golden_record_clear(&a);
    hdo_golden_record_clear(&b);
}

/* The least a ref.json needs; null for what was not given. */
Test(golden_record, defaults)
{
    const char *t = "{\"hdo_ref\": 1, \"model\": \"m\", \"digits\": 12, "
                    "\"every\": null, \"hdo_version\": null}";
    hdo_golden_record r;
    hdo_error_t err;
    hdo_golden_record_init(&r);
    cr_assert_eq(hdo_golden_record_read(&r, t, strlen(t), "ref.json", &err), 0,
                 "%s", err.message);
    cr_expect_eq(r.digits, 12);
    cr_expect(r.every == NULL && r.until == NULL && r.hdo_version == NULL);
    cr_expect_eq(r.verify, 0);
    cr_expect_eq(r.method, HDO_METHOD_AUTO);
    cr_expect_eq(r.nparams, 0);
    hdo_golden_record_clear(&r);
}

/* Each bad value at its place: the first character of the value (of
   the innermost value for params), found in the text, not by the reader. */
Test(golden_record, errors_at_their_place)
{
    static const struct {
        const char *kv, *msg;
    } cases[] = {
        {"\"digits\": \"30\"", "digits: expected an integer from 1 to 10000"},
        {"\"digits\": 0", "digits: expected an integer from 1 to 10000"},
        {"\"digits\": 10001", "digits: expected an integer from 1 to"},
        {"\"digits\": 3.5", "digits: expected an integer"},
        {"\"every\": \"-1\"",
         "every: expected a positive decimal number, got '-1'"},
        {"\"every\": 0.1", "every: expected a decimal number as a string"},
        {"\"until\": \"abc\"", "until: expected a decimal number, got"},
        {"\"method\": \"fast\"",
         "method: expected \"auto\", \"taylor\" or \"implicit\""},
        {"\"verify\": 1", "verify: expected true or false"},
        {"\"max_steps\": -3", "max_steps: expected a positive integer"},
        {"\"params\": {\"e\": \"0.7x\"}",
         "params: -p e=0.7x: '0.7x' is not a number"},
        {"\"params\": {\"e\": 0.7}",
         "params: the value of e: expected a string"},
        {"\"params\": [1]", "params: expected an object"},
        {"\"speed\": 3", "unknown key \"speed\""},
        {"\"hdo_ref\": 2", "hdo_ref: this hdo reads golden references of "
                           "format 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char t[512];
        hdo_golden_record r;
        hdo_error_t err;
        const char *kv = cases[i].kv;
        /* the case's key instead of the record's own (a key twice is a
           JSON error of its own) */
        int n =
            snprintf(t, sizeof t, "{%s\"model\": \"m\", %s%s}",
                     strncmp(kv, "\"hdo_ref\"", 9) ? "\"hdo_ref\": 1, " : "",
                     strncmp(kv, "\"digits\"", 8) ? "\"digits\": 5, " : "", kv);
        const char *value = strrchr(strstr(t, kv), ':') + 2;
        int col = (int)(value - t) + 1;
        if (strstr(kv, "{\"e\": ") != NULL) /* the parameter's value */
            col = (int)(strrchr(t, ':') - t) + 3;
        hdo_golden_record_init(&r);
        cr_expect_eq(hdo_golden_record_read(&r, t, (size_t)n, "ref.json", &err),
                     HDO_ERR_INPUT, "case %zu", i);
        cr_expect(err.line == 1 && err.col == col,
                  "case %zu: at %d:%d, want 1:%d (%s in %s)", i, err.line,
                  err.col, col, err.message, t);
        cr_expect(strstr(err.message, cases[i].msg) != NULL,
                  "case %zu: '%s' lacks '%s'", i, err.message, cases[i].msg);
        cr_expect(err.file != NULL && strcmp(err.file, "ref.json") == 0);
        hdo_golden_record_clear(&r);
    }
}

Test(golden_record, missing_keys_and_not_an_object)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"{\"hdo_ref\": 1, \"digits\": 5}", "the key \"model\" is missing"},
        {"{\"model\": \"m\", \"digits\": 5}", "the key \"hdo_ref\" is missing"},
        {"{\"hdo_ref\": 1, \"model\": \"m\"}", "the key \"digits\" is missing"},
        {"[1]", "expected an object"},
        {"{\"hdo_ref\": 1, \"model\": 3, \"digits\": 5}",
         "model: expected a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hdo_golden_record r;
        hdo_error_t err;
        hdo_golden_record_init(&r);
        cr_expect_eq(hdo_golden_record_read(&r, cases[i].text,
                                            strlen(cases[i].text), "ref.json",
                                            &err),
                     HDO_ERR_INPUT, "case %zu", i);
        cr_expect(strstr(err.message, cases[i].msg) != NULL,
                  "case %zu: '%s' lacks '%s'", i, err.message, cases[i].msg);
        hdo_golden_record_clear(&r);
    }
}
