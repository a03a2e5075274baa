/* json.c -- the JSON reader of the golden module: values with their
 * places, numbers as written, errors at line and column (counted by
 * hand), equality as decimal numbers */
#include <criterion/criterion.h>
#include <string.h>
#include "golden/json.h"

static int
parse(hdo_json *v, const char *text, hdo_error_t *err)
{
    hdo_error_clear(err);
    return hdo_json_parse(v, text, strlen(text), "x.json", err);
}

Test(golden_json, values_and_places)
{
    const char *t = "{\n  \"a\": 1.50e-3,\n  \"b\": [true, false, null],\n"
                    "  \"s\": \"x\\\"y\\u00e9\\ud83d\\ude00\\n\",\n"
                    "  \"o\": {\"k\": -0}\n}\n";
    hdo_json v;
    hdo_error_t err;
    cr_assert_eq(parse(&v, t, &err), 0, "%s", err.message);
    cr_expect_eq(v.type, HDO_JSON_OBJECT);
    cr_assert_eq(v.n, 4);
    const hdo_json *a = hdo_json_get(&v, "a");
    cr_assert(a != NULL);
    cr_expect_eq(a->type, HDO_JSON_NUMBER);
    cr_expect_str_eq(a->text, "1.50e-3"); /* as written */
    cr_expect(a->line == 2 && a->col == 8, "at %d:%d", a->line, a->col);
    const hdo_json *b = hdo_json_get(&v, "b");
    cr_assert(b != NULL && b->type == HDO_JSON_ARRAY && b->n == 3);
    cr_expect_eq(b->items[0].type, HDO_JSON_TRUE);
    cr_expect_eq(b->items[1].type, HDO_JSON_FALSE);
    cr_expect_eq(b->items[2].type, HDO_JSON_NULL);
    cr_expect(b->items[2].line == 3 && b->items[2].col == 22);
    /* escapes decoded: a quote, e acute, a surrogate pair (U+1F600) */
    cr_expect_str_eq(hdo_json_get(&v, "s")->text,
                     "x\"y\xc3\xa9\xf0\x9f\x98\x80\n");
    cr_expect(hdo_json_get(&v, "missing") == NULL);
    cr_expect(hdo_json_get(a, "a") == NULL); /* not an object */
    char buf[64];
    hdo_json_show(buf, sizeof buf, t, b);
    cr_expect_str_eq(buf, "[true, false, null]");
    hdo_json_show(buf, 8, t, b);
    cr_expect_str_eq(buf, "[tru...");
    hdo_json_clear(&v);
}

Test(golden_json, errors_at_their_place)
{
    static const struct {
        const char *text;
        int line, col;
        const char *msg;
    } cases[] = {
        {"", 1, 1, "expected a value, found the end of the file"},
        {"{\"a\": 1,}", 1, 9, "expected a key (a string), found '}'"},
        {"{\"a\": 1\n \"b\": 2}", 2, 2, "expected ',' or '}', found '\"'"},
        {"[1, 2", 1, 6, "expected ',' or ']', found the end of the file"},
        {"{\"a\" 1}", 1, 6, "expected ':' after the key, found '1'"},
        {"{\"a\": 1, \"a\": 2}", 1, 10, "the key \"a\" appears twice"},
        {"\"abc", 1, 1, "a string that does not end on its line"},
        {"\"a\\qb\"", 1, 3, "a bad escape in a string"},
        {"\"a\\u0000\"", 1, 3, "\\u0000 in a string"},
        {"\"\\udc00\"", 1, 2, "a lone surrogate in a string"},
        {"01", 1, 2, "expected the end of the file after the value"},
        {"1.", 1, 1, "a malformed number"},
        {"-", 1, 1, "a malformed number"},
        {"1e+", 1, 1, "a malformed number"},
        {"tru", 1, 1, "expected a value, found 't'"},
        {"[1] x", 1, 5, "expected the end of the file after the value"},
        {"\"a\tb\"", 1, 3, "a control character 0x09 in a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hdo_json v;
        hdo_error_t err;
        cr_expect_eq(parse(&v, cases[i].text, &err), HDO_ERR_INPUT, "case %zu",
                     i);
        cr_expect(err.line == cases[i].line && err.col == cases[i].col,
                  "case %zu: at %d:%d, want %d:%d (%s)", i, err.line, err.col,
                  cases[i].line, cases[i].col, err.message);
        cr_expect(strstr(err.message, cases[i].msg) != NULL,
                  "case %zu: '%s' lacks '%s'", i, err.message, cases[i].msg);
        cr_expect(err.file != NULL && strcmp(err.file, "x.json") == 0);
        hdo_json_clear(&v);
    }
}

/* A reader that recurses must refuse hostile nesting, at the limit and
   not before. */
Test(golden_json, nesting_limit)
{
    char deep[2 * HDO_JSON_MAX_DEPTH + 8];
    hdo_json v;
    hdo_error_t err;
    for (int depth = HDO_JSON_MAX_DEPTH; depth <= HDO_JSON_MAX_DEPTH + 1;
         depth++) {
        int n = 0;
        for (int k = 0; k <= depth; k++)
            deep[n++] = '[';
        for (int k = 0; k <= depth; k++)
            deep[n++] = ']';
        deep[n] = '\0';
        int st = parse(&v, deep, &err);
        cr_expect_eq(st, depth <= HDO_JSON_MAX_DEPTH ? 0 : HDO_ERR_INPUT,
                     "depth %d: %s", depth, err.message);
        hdo_json_clear(&v);
    }
}

Test(golden_json, equality)
{
    static const struct {
        const char *a, *b;
        int equal;
    } cases[] = {
        {"1.0", "1.00e0", 1},
        {"-0", "0", 1},
        {"1e-45", "1.0E-45", 1},
        {"1", "1.0000000000000000000000000000000000000001", 0},
        {"{\"a\": 1, \"b\": [2]}", "{\"b\": [2.0], \"a\": 1}", 1},
        {"{\"a\": 1}", "{\"a\": 1, \"b\": 2}", 0},
        {"[1, 2]", "[2, 1]", 0},
        {"\"1\"", "1", 0},
        {"null", "false", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hdo_json a, b;
        hdo_error_t err;
        cr_assert_eq(parse(&a, cases[i].a, &err), 0);
        cr_assert_eq(parse(&b, cases[i].b, &err), 0);
        cr_expect_eq(hdo_json_equal(&a, &b), cases[i].equal, "case %zu", i);
        cr_expect_eq(hdo_json_equal(&b, &a), cases[i].equal, "case %zu", i);
        hdo_json_clear(&a);
        hdo_json_clear(&b);
    }
}
