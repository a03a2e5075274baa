/* thresholds.c -- the parser's limits on loops and sign patterns at their
 * boundaries (ref/model.h; decisions.md D-006, D-013, tests/thresholds.md):
 * 10^6 loop iterations in all, ranges of at most 10^6 elements, 12 relations
 * per mode, 4096 sign-pattern modes (zero variants included while they fit).
 * Counts and values are worked out by hand here (sums of 1 over rectangles and
 * triangles), never read from the parser. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <flint/fmpq.h>
#include "model.h"

static int
parse(hdo_model_t m, const char *text, hdo_error_t *err)
{
    hdo_error_clear(err);
    hdo_model_init(m);
    return hdo_model_parse_string(m, text, strlen(text), "t.hdae", err);
}

/* Parses `param S = <expr>` (plus a trivial mode, with no loop: an
   array's start values would count too): 0 and S's exact integer value
   in *value, or the status (err filled). */
static int
param_sum(slong *value, const char *expr, hdo_error_t *err)
{
    char text[1024];
    snprintf(text, sizeof text,
             "model m\nparam S = %s\nvar x\nmode a\n"
             "  der(x) = 1\nend\nstart a\n",
             expr);
    hdo_model_t m;
    int st = parse(m, text, err);
    if (st == 0) {
        fmpq_t q;
        fmpq_init(q);
        cr_assert_eq(hdo_expr_get_fmpq(q, m->pool, m->params[0].value), 0);
        cr_assert(fmpz_is_one(fmpq_denref(q)));
        *value = fmpz_get_si(fmpq_numref(q));
        fmpq_clear(q);
    }
    hdo_model_clear(m);
    return st;
}

#define TOO_MANY "the loops of the model expand to more than 1000000 iterations"

/* 10^6 loop bodies in all pass, 10^6 + 1 do not.  Nested sums count one
   per outer and one per inner term: 1000 (1 + 999) = 10^6 exactly,
   101 (1 + 9900) = 10^6 + 1. */
Test(model_thresholds, loop_iterations_boundary, .timeout = 120)
{
    hdo_error_t err;
    slong v;
    cr_assert_eq(HDO_MODEL_MAX_ITERATIONS, 1000000);
    cr_expect_eq(param_sum(&v, "sum(i in 1..1000, sum(j in 1..999, 1))", &err),
                 0, "%s", err.message);
    cr_expect_eq(v, 999000);
    int st = param_sum(&v, "sum(i in 1..101, sum(j in 1..9900, 1))", &err);
    cr_expect_eq(st, HDO_ERR_SEMANTIC);
    cr_expect(strstr(err.message, TOO_MANY) != NULL, "%s", err.message);
    cr_expect_eq(err.line, 2);
    cr_expect_eq(err.col, 28, "at the inner sum: %d", err.col);
    /* one loop of 10^6 terms (the longest range) passes */
    cr_expect_eq(param_sum(&v, "sum(i in 1..1000000, 1)", &err), 0, "%s",
                 err.message);
    cr_expect_eq(v, 1000000);
    /* a triangle whose inner range names i is counted as it goes, not as
       a rectangle: 1000 + 1000 * 1001 / 2 = 501500 bodies pass */
    cr_expect_eq(param_sum(&v, "sum(i in 1..1000, sum(j in i..1000, 1))", &err),
                 0, "%s", err.message);
    cr_expect_eq(v, 500500);
    /* and a triangle in the middle of three levels: 100 + 5050 (1 + 150)
       = 762650 bodies pass (a rectangle 100 x 100 x 150 would be over) */
    cr_expect_eq(param_sum(&v,
                           "sum(i in 1..100, sum(k in i..100, "
                           "sum(j in 1..150, 1)))",
                           &err),
                 0, "%s", err.message);
    cr_expect_eq(v, 757500);
}

/* The refusal comes before the bodies are parsed: each case has a body
   that fails at the inner loop's second iteration (u has the one
   element u[1]; 1/(2 - j) divides by zero at j = 2), so an error about
   that body means the loops were expanded, and the message about the
   iterations means they were refused after one inner body.  The hostile
   seed (two sums of 10^5) took 0.68 s before, refused after 10^6
   bodies. */
Test(model_thresholds, loop_iterations_refused_before_expanding)
{
    static const char *cases[] = {
        /* sums, 101 (1 + 9900) = 10^6 + 1 */
        "model m\nvar u[1..1] = 0\nmode a\n"
        "  der(u[1]) = sum(i in 1..101, sum(j in 1..9900, u[j]))\n"
        "end\nstart a\n",
        /* nested for */
        "model m\nvar u[1..1] = 0\nmode a\n"
        "  for i in 1..101\n    for j in 1..9900\n      der(u[j]) = 1\n"
        "    end\n  end\nend\nstart a\n",
        /* a sum inside a for */
        "model m\nvar u[1..1] = 0\nmode a\n"
        "  for i in 1..101\n    der(u[1]) = sum(j in 1..9900, u[j])\n"
        "  end\nend\nstart a\n",
        /* a sum in the start values of an array */
        "model m\nvar u[i in 1..101] = sum(j in 1..9900, 1/(2 - j))\n"
        "mode a\n  for i in 1..101\n    der(u[i]) = 0\n  end\nend\n"
        "start a\n",
        /* three levels: 11 (1 + 11 (1 + 8264)) = 1000076 */
        "model m\nvar u[1..1] = 0\nmode a\n"
        "  der(u[1]) = sum(i in 1..11, sum(k in 1..11, sum(j in 1..8264, "
        "u[j])))\nend\nstart a\n",
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        hdo_model_t m;
        hdo_error_t err;
        int st = parse(m, cases[k], &err);
        cr_expect_eq(st, HDO_ERR_SEMANTIC, "case %zu: %s", k, err.message);
        cr_expect(strstr(err.message, TOO_MANY) != NULL, "case %zu: %s", k,
                  err.message);
        hdo_model_clear(m);
    }
    /* one term fewer per entry passes the bound and reaches the bad body:
       101 (1 + 9899) = 10^6 */
    hdo_model_t m;
    hdo_error_t err;
    int st = parse(m,
                   "model m\nvar u[1..1] = 0\nmode a\n"
                   "  der(u[1]) = sum(i in 1..101, sum(j in 1..9899, u[j]))\n"
                   "end\nstart a\n",
                   &err);
    cr_expect_eq(st, HDO_ERR_SEMANTIC);
    cr_expect(strstr(err.message, "index 2 out of range") != NULL, "%s",
              err.message);
    hdo_model_clear(m);
}

/* A range of 10^6 elements passes, 10^6 + 1 is "too long". */
Test(model_thresholds, range_length_boundary)
{
    hdo_error_t err;
    slong v;
    cr_assert_eq(HDO_MODEL_MAX_ARRAY, 1000000);
    cr_expect_eq(param_sum(&v, "sum(i in 0..999999, 2)", &err), 0, "%s",
                 err.message);
    cr_expect_eq(v, 2000000);
    cr_expect_eq(param_sum(&v, "sum(i in 0..1000000, 2)", &err),
                 HDO_ERR_SEMANTIC);
    cr_expect(strstr(err.message, "too long (more than 1000000 elements)") !=
                  NULL,
              "%s", err.message);
}

/* A mode with relations x >= 1, ..., x >= k (k distinct relations) in
   its equation; n such modes. */
static int
relations_model(hdo_model_t m, const int *k, int n, hdo_error_t *err)
{
    static char text[16384];
    size_t len = 0;
    len +=
        (size_t)snprintf(text + len, sizeof text - len, "model r\nvar x = 0\n");
    for (int q = 0; q < n; q++) {
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "mode m%d\n  der(x) = 1", q);
        for (int j = 1; j <= k[q]; j++)
            len += (size_t)snprintf(text + len, sizeof text - len,
                                    " + if x >= %d then 1 else 0", j);
        len += (size_t)snprintf(text + len, sizeof text - len, "\nend\n");
    }
    snprintf(text + len, sizeof text - len, "start m0\nuntil 1\n");
    return parse(m, text, err);
}

/* Up to 12 relations in a mode, and 4096 sign-pattern modes in all (one
   mode of 12, or two of 11), the patterns are made at parse time; beyond
   either, a mode's patterns are built when a run enters them
   (decisions.md D-092): at parse time only the mode itself (mask 0) and
   its neighbours across one relation get ids.  62 relations pass, 63 do
   not (a pattern is a 64-bit mask). */
Test(model_thresholds, relations_and_patterns_boundary, .timeout = 120)
{
    hdo_model_t m;
    hdo_error_t err;
    cr_assert_eq(HDO_MODEL_MAX_RELATIONS, 12);
    cr_assert_eq(HDO_MODEL_MAX_PATTERN_MODES, 4096);
    cr_assert_eq(HDO_MODEL_MAX_LAZY_RELATIONS, 62);
    int k12[] = {12}, k13[] = {13}, k11x2[] = {11, 11}, k12_1[] = {12, 1},
        k11x2_1[] = {11, 11, 1}, k62[] = {62}, k63[] = {63};
    cr_expect_eq(relations_model(m, k12, 1, &err), 0, "%s", err.message);
    cr_expect_eq(m->nmodes, 1 + 4096 - 1, "%ld modes", (long)m->nmodes);
    cr_expect(m->lazy == NULL);
    hdo_model_clear(m);
    cr_expect_eq(relations_model(m, k13, 1, &err), 0, "%s", err.message);
    cr_expect(m->lazy != NULL);
    cr_expect_eq(m->nmodes, 1 + 13, "%ld modes", (long)m->nmodes);
    cr_expect(m->modes[0].family_modes == NULL);
    cr_expect_eq(m->modes[0].nrel, 13);
    hdo_model_clear(m);
    cr_expect_eq(relations_model(m, k11x2, 2, &err), 0, "%s", err.message);
    cr_expect_eq(m->nmodes, 4096, "%ld modes", (long)m->nmodes);
    cr_expect(m->lazy == NULL);
    hdo_model_clear(m);
    /* the 12 are expanded (4096 modes with m1 itself), m1's one relation
       is not: m1's neighbour is the 4098th mode */
    cr_expect_eq(relations_model(m, k12_1, 2, &err), 0, "%s", err.message);
    cr_expect_eq(m->nmodes, 4098, "%ld modes", (long)m->nmodes);
    cr_expect(m->modes[0].family_modes != NULL);
    cr_expect(m->modes[1].family_modes == NULL);
    hdo_model_clear(m);
    cr_expect_eq(relations_model(m, k11x2_1, 3, &err), 0, "%s", err.message);
    cr_expect(m->modes[2].family_modes == NULL && m->modes[2].nrel == 1);
    hdo_model_clear(m);
    cr_expect_eq(relations_model(m, k62, 1, &err), 0, "%s", err.message);
    cr_expect_eq(m->nmodes, 1 + 62, "%ld modes", (long)m->nmodes);
    hdo_model_clear(m);
    cr_expect_eq(relations_model(m, k63, 1, &err), HDO_ERR_UNSUPPORTED);
    cr_expect(strstr(err.message, "has 63 relations") != NULL &&
                  strstr(err.message, "at most 62") != NULL,
              "%s", err.message);
    hdo_model_clear(m);
}

/* Mode m0: sign(y) (a relation used as y > 0 and y >= 0, with zero
   variants) and x >= 1, ..., x >= 10: 2^11 sign patterns, and
   3 * 2^10 - 2^11 = 1024 zero variants; mode m1: x >= 1, ..., x >= 10
   (2^10 patterns); mode m2, when three: x >= 1 (2 patterns). */
static int
zero_variant_model(hdo_model_t m, int three, hdo_error_t *err)
{
    static char text[8192];
    size_t len = 0;
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "model z\nvar x = 0, y = 0\nmode m0\n"
                            "  der(y) = 0\n  der(x) = sign(y)");
    for (int j = 1; j <= 10; j++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                " + if x >= %d then 1 else 0", j);
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "\nend\nmode m1\n  der(y) = 0\n  der(x) = 1");
    for (int j = 1; j <= 10; j++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                " + if x >= %d then 1 else 0", j);
    len += (size_t)snprintf(text + len, sizeof text - len, "\nend\n");
    if (three)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "mode m2\n  der(y) = 0\n"
                                "  der(x) = if x >= 1 then 1 else 0\nend\n");
    snprintf(text + len, sizeof text - len, "start m0\nuntil 1\n");
    return parse(m, text, err);
}

/* Zero variants are made while the patterns and zero variants of all
   modes stay within 4096: 2048 + 1024 patterns and 1024 zero variants
   are 4096 (made); with 2 more patterns, 4098 (not made, and the model
   is still accepted: its 3074 sign patterns are within the cap). */
Test(model_thresholds, zero_variants_boundary, .timeout = 120)
{
    hdo_model_t m;
    hdo_error_t err;
    cr_assert_eq(zero_variant_model(m, 0, &err), 0, "%s", err.message);
    cr_expect_eq(m->modes[0].nzero, 1024);
    cr_expect_eq(m->nmodes, 4096, "%ld modes", (long)m->nmodes);
    hdo_model_clear(m);
    cr_assert_eq(zero_variant_model(m, 1, &err), 0, "%s", err.message);
    cr_expect_eq(m->modes[0].nzero, 0);
    cr_expect_eq(m->nmodes, 2048 + 1024 + 2, "%ld modes", (long)m->nmodes);
    hdo_model_clear(m);
}

/* A model file of exactly `size` bytes: the model, then comment lines of
   '#' up to the size (the last one ends the file without a newline). */
static void
write_padded(const char *path, size_t size)
{
    static const char *text = "model f\nvar x = 0\nmode a\n  der(x) = 1\n"
                              "end\nstart a\nuntil 1\n";
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    size_t n = strlen(text);
    cr_assert(fwrite(text, 1, n, f) == n);
    static char line[4096];
    memset(line, '#', sizeof line);
    line[sizeof line - 1] = '\n';
    while (n < size) {
        size_t k = size - n < sizeof line ? size - n : sizeof line;
        cr_assert(fwrite(line, 1, k, f) == k);
        n += k;
    }
    cr_assert_eq(fclose(f), 0);
}

/* A model file of 64 MiB is read, one byte more is refused. */
Test(model_thresholds, file_size_boundary, .timeout = 120)
{
    char dir[] = "/tmp/hdo-unit-filesize-XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/big.hdae", dir);
    cr_assert_eq(HDO_MODEL_MAX_FILE_MIB, 64);
    const size_t cap = (size_t)64 << 20;
    hdo_model_t m;
    hdo_error_t err;
    write_padded(path, cap);
    hdo_error_clear(&err);
    hdo_model_init(m);
    cr_expect_eq(hdo_model_parse_file(m, path, &err), 0, "%s", err.message);
    hdo_model_clear(m);
    write_padded(path, cap + 1);
    hdo_error_clear(&err);
    hdo_model_init(m);
    cr_expect_eq(hdo_model_parse_file(m, path, &err), HDO_ERR_IO);
    cr_expect(strstr(err.message, "larger than 64 MiB") != NULL, "%s",
              err.message);
    hdo_model_clear(m);
    cr_expect_eq(unlink(path), 0);
    cr_expect_eq(rmdir(dir), 0);
}
