/* limits.c -- hostile sizes: deep nesting, long sums, 10 MB expressions,
   100000 modes, huge constants; each must parse or fail cleanly */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include "model.h"

/* A growing string for generated models. */
typedef struct {
    char *s;
    size_t len, alloc;
} buf_t;

static void
put(buf_t *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n + 1 > b->alloc) {
        b->alloc = 2 * (b->len + n + 1);
        b->s = realloc(b->s, b->alloc);
        cr_assert(b->s != NULL);
    }
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

static void
put_n(buf_t *b, const char *s, long n)
{
    for (long i = 0; i < n; i++)
        put(b, s);
}

static int
parse_buf(hdo_model_t m, const buf_t *b, hdo_error_t *err)
{
    hdo_model_init(m);
    return hdo_model_parse_string(m, b->s, b->len, "big.hdae", err);
}

static const char *tail = "\nvar x\nmode q\n der(x) = 1\nend\nstart q\n";

/* "param a = " followed by n copies of open, "1", n copies of close. */
static int
nested_param(hdo_model_t m, hdo_error_t *err, const char *open,
             const char *close, long n)
{
    buf_t b = {0};
    int status;
    put(&b, "model m\nparam a = ");
    put_n(&b, open, n);
    put(&b, "1");
    put_n(&b, close, n);
    put(&b, tail);
    status = parse_buf(m, &b, err);
    free(b.s);
    return status;
}

static void
expect_error(int status, const hdo_error_t *err, int line, int col,
             const char *msg)
{
    cr_expect_eq(status, HDO_ERR_SYNTAX);
    cr_expect(strstr(err->message, msg) != NULL, "%s", err->message);
    cr_expect(err->line == line && err->col == col, "at %d:%d, want %d:%d",
              err->line, err->col, line, col);
}

static void
expect_too_deep(int status, const hdo_error_t *err, int line, int col)
{
    expect_error(status, err, line, col,
                 "expression nested too deeply (more than 1000 levels of "
                 "parentheses, signs and powers)");
}

static void
expect_too_high(int status, const hdo_error_t *err, int line, int col)
{
    expect_error(status, err, line, col,
                 "expression too deep (more than 10000 nested operations; "
                 "split long sums with parentheses)");
}

Test(model_limits, parentheses)
{
    hdo_model_t m;
    hdo_error_t err;
    fmpq_t q;
    fmpq_init(q);
    cr_expect_eq(nested_param(m, &err, "(", ")", HDO_MODEL_MAX_NESTING), 0,
                 "%s", err.message);
    cr_expect_eq(hdo_expr_get_fmpq(q, m->pool, m->params[0].value), 0);
    cr_expect(fmpq_is_one(q));
    hdo_model_clear(m);
    /* The 1001st '(' is at column 11 + 1000 of line 2. */
    expect_too_deep(nested_param(m, &err, "(", ")", HDO_MODEL_MAX_NESTING + 1),
                    &err, 2, 1011);
    hdo_model_clear(m);
    /* An unclosed flood of parentheses fails the same way, not later. */
    expect_too_deep(nested_param(m, &err, "(", "", 1000000), &err, 2, 1011);
    hdo_model_clear(m);
    fmpq_clear(q);
}

Test(model_limits, unary_minus_chain)
{
    hdo_model_t m;
    hdo_error_t err;
    fmpq_t q;
    fmpq_init(q);
    cr_expect_eq(nested_param(m, &err, "-", "", HDO_MODEL_MAX_NESTING), 0, "%s",
                 err.message);
    cr_expect_eq(hdo_expr_get_fmpq(q, m->pool, m->params[0].value), 0);
    cr_expect(fmpq_is_one(q)); /* an even number of signs */
    hdo_model_clear(m);
    expect_too_deep(nested_param(m, &err, "-", "", HDO_MODEL_MAX_NESTING + 1),
                    &err, 2, 1011);
    hdo_model_clear(m);
    /* "-(" pairs: the '-' of pair 501 is level 1001, at 11 + 1000. */
    expect_too_deep(nested_param(m, &err, "-(", ")", 501), &err, 2, 1011);
    hdo_model_clear(m);
    fmpq_clear(q);
}

Test(model_limits, function_nesting)
{
    hdo_model_t m;
    hdo_error_t err;
    /* The k-th '(' of sin(sin(... is at column 10 + 4k. */
    expect_too_deep(
        nested_param(m, &err, "sin(", ")", HDO_MODEL_MAX_NESTING + 1), &err, 2,
        10 + 4 * (HDO_MODEL_MAX_NESTING + 1));
    hdo_model_clear(m);
    cr_expect_eq(nested_param(m, &err, "sin(", ")", 1000), 0, "%s",
                 err.message);
    hdo_model_clear(m);
}

/* x = x^x^...^x with n carets, in a mode. */
static int
power_chain(hdo_model_t m, hdo_error_t *err, long n)
{
    buf_t b = {0};
    int status;
    put(&b, "model m\nvar x\nmode a\n  x = ");
    put_n(&b, "x^", n);
    put(&b, "x\nend\nstart a\n");
    status = parse_buf(m, &b, err);
    free(b.s);
    return status;
}

Test(model_limits, power_chain)
{
    hdo_model_t m;
    hdo_error_t err;
    cr_expect_eq(power_chain(m, &err, 1000), 0, "%s", err.message);
    hdo_model_clear(m);
    /* The k-th '^' is at column 6 + 2k of line 4. */
    expect_too_deep(power_chain(m, &err, HDO_MODEL_MAX_NESTING + 1), &err, 4,
                    6 + 2 * (HDO_MODEL_MAX_NESTING + 1));
    hdo_model_clear(m);
}

/* A sum of n terms alternating x and t: no nesting in the text, but an
   expression tree of height n, which the later recursive algorithms
   could not take. */
static int
long_sum(hdo_model_t m, hdo_error_t *err, long n)
{
    buf_t b = {0};
    int status;
    put(&b, "model m\nvar x\nmode a\n  der(x) = x");
    for (long i = 1; i < n; i++)
        put(&b, i % 2 ? " + t" : " + x");
    put(&b, "\nend\nstart a\n");
    status = parse_buf(m, &b, err);
    free(b.s);
    return status;
}

Test(model_limits, long_sum)
{
    hdo_model_t m;
    hdo_error_t err;
    cr_expect_eq(long_sum(m, &err, 5000), 0, "%s", err.message);
    hdo_model_clear(m);
    expect_too_high(long_sum(m, &err, 20000), &err, 4,
                    /* the 10000th '+', which makes height 10001: term k
                       starts at column 12 + 4(k-1), its '+' two before */
                    12 + 4 * HDO_MODEL_MAX_DEPTH - 2);
    hdo_model_clear(m);
}

Test(model_limits, ten_megabyte_constant_sum, .timeout = 120)
{
    /* param p = 1+1+...+1, 5 million terms: folded as it is read. */
    const long n = 5000000;
    buf_t b = {0};
    hdo_model_t m;
    hdo_error_t err;
    fmpq_t q;
    put(&b, "model m\nparam p = 1");
    b.alloc = 2 * (size_t)n + 256;
    b.s = realloc(b.s, b.alloc);
    for (long i = 1; i < n; i++) {
        b.s[b.len++] = '+';
        b.s[b.len++] = '1';
    }
    b.s[b.len] = 0;
    put(&b, tail);
    cr_assert(b.len > 10000000);
    cr_assert_eq(parse_buf(m, &b, &err), 0, "%s", err.message);
    fmpq_init(q);
    cr_expect_eq(hdo_expr_get_fmpq(q, m->pool, m->params[0].value), 0);
    cr_expect(fmpq_equal_si(q, n));
    fmpq_clear(q);
    hdo_model_clear(m);
    free(b.s);
}

Test(model_limits, ten_megabyte_variable_sum, .timeout = 120)
{
    /* der(x) = x+t+x+t..., 10 MB: refused at the 10000th '+'. */
    const long n = 2500000;
    buf_t b = {0};
    hdo_model_t m;
    hdo_error_t err;
    put(&b, "model m\nvar x\nmode a\n  der(x) = x");
    b.alloc = 4 * (size_t)n + 256;
    b.s = realloc(b.s, b.alloc);
    for (long i = 1; i < n; i++)
        memcpy(b.s + b.len + 4 * (i - 1), i % 2 ? " + t" : " + x", 4);
    b.len += 4 * (size_t)(n - 1);
    b.s[b.len] = 0;
    put(&b, "\nend\nstart a\n");
    cr_assert(b.len > 10000000);
    expect_too_high(parse_buf(m, &b, &err), &err, 4,
                    12 + 4 * HDO_MODEL_MAX_DEPTH - 2);
    hdo_model_clear(m);
    free(b.s);
}

Test(model_limits, hundred_thousand_modes, .timeout = 120)
{
    /* A ring of modes m0 -> m1 -> ... -> m99999 -> m0, each with its
       own equation and transition, and the start at the end. */
    const long n = 100000;
    buf_t b = {0};
    hdo_model_t m;
    hdo_error_t err;
    char line[256];
    put(&b, "model ring\nvar x = 0\n");
    for (long i = 0; i < n; i++) {
        snprintf(line, sizeof line,
                 "mode m%ld\n  der(x) = %ld\n  when x > %ld goto m%ld with "
                 "x = 0\nend\n",
                 i, i + 1, i + 1, (i + 1) % n);
        put(&b, line);
    }
    put(&b, "start m99999\n");
    cr_assert_eq(parse_buf(m, &b, &err), 0, "%s", err.message);
    cr_expect_eq(m->nmodes, n);
    cr_expect_eq(m->start_mode, n - 1);
    cr_expect_eq(m->modes[n - 1].whens[0].target, 0);
    cr_expect_eq(m->modes[41].whens[0].target, 42);
    cr_expect_str_eq(m->modes[41].whens[0].guard_text, "x > 42");
    cr_expect_eq(hdo_model_find_mode(m, "m77777"), 77777);
    hdo_model_clear(m);
    free(b.s);
}

Test(model_limits, constants_that_grow)
{
    /* 1e100000 has 332193 bits, its square twice that; squaring again
       passes 2^20 bits and is refused at the '*'. */
    const char *src = "model m\nparam a = 1e100000\nparam b = a*a\n"
                      "param c = b*b\nvar x\nmode q\n der(x) = 1\nend\n"
                      "start q\n";
    /* a^4096 would be folded exactly (1.4 billion bits) if the parser
       did not refuse it first, at the '^'. */
    const char *src2 = "model m\nparam a = 1e100000\nparam b = a^4096\n";
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_expect_eq(hdo_model_parse_string(m, src, strlen(src), "c.hdae", &err),
                 HDO_ERR_SEMANTIC);
    cr_expect(err.line == 4 && err.col == 12, "at %d:%d", err.line, err.col);
    cr_expect(strstr(err.message, "exact constant too large") != NULL, "%s",
              err.message);
    hdo_model_clear(m);
    hdo_model_init(m);
    cr_expect_eq(hdo_model_parse_string(m, src2, strlen(src2), "c.hdae", &err),
                 HDO_ERR_SEMANTIC);
    cr_expect(err.line == 3 && err.col == 12, "at %d:%d", err.line, err.col);
    cr_expect(strstr(err.message, "exact constant too large") != NULL, "%s",
              err.message);
    hdo_model_clear(m);
}

Test(model_limits, long_names_and_numbers)
{
    /* A 1 MB name and a 100000-digit number are fine. */
    buf_t b = {0};
    hdo_model_t m;
    hdo_error_t err;
    put(&b, "model m\nparam ");
    put_n(&b, "n", 1000000);
    put(&b, " = ");
    put_n(&b, "7", HDO_MODEL_MAX_DIGITS);
    put(&b, tail);
    cr_expect_eq(parse_buf(m, &b, &err), 0, "%s", err.message);
    cr_expect_eq(strlen(m->params[0].name), 1000000);
    hdo_model_clear(m);
    free(b.s);
}
