/* json.c -- hdo_json_string, the one JSON escaping of hdo (summary.json,
 * hdo analyze --json), against RFC 8259's rules written out by hand */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include "util.h"

static void
expect_json(const char *in, const char *want)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    cr_assert(f != NULL);
    hdo_json_string(f, in);
    cr_assert_eq(fclose(f), 0);
    cr_expect_str_eq(buf, want);
    free(buf);
}

Test(hybrid, json_string)
{
    expect_json("ball", "\"ball\"");
    expect_json("a\"b\\c", "\"a\\\"b\\\\c\"");
    /* control characters as \u00XX, including newline and tab */
    expect_json("x\ny\t\x01", "\"x\\u000ay\\u0009\\u0001\"");
    /* UTF-8 passes through unchanged */
    expect_json("\xce\xbb = 2", "\"\xce\xbb = 2\"");
    expect_json("", "\"\"");
}
