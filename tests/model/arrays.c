/* arrays.c -- unit tests of the version-2 constructs of the .hdae language:
   hierarchical names, arrays (declarations, indices, for, sum) expanded
   into scalar variables, and parameter overrides (-p).  Expected values
   are computed by hand or in exact arithmetic here, not taken from the
   parser. */
#include <string.h>
#include <criterion/criterion.h>
#include <flint/fmpq.h>
#include "model.h"

static int
parse(hdo_model_t m, const char *text, hdo_error_t *err)
{
    hdo_error_clear(err);
    return hdo_model_parse_string(m, text, strlen(text), "v2.hdae", err);
}

/* The exact value of constant e as num/den; fails the test otherwise. */
static void
assert_const(const hdo_model_t m, hdo_expr e, slong num, slong den)
{
    fmpq_t q, want;
    fmpq_init(q);
    fmpq_init(want);
    cr_assert_eq(hdo_expr_get_fmpq(q, m->pool, e), 0, "not a rational");
    fmpq_set_si(want, num, (ulong)den);
    cr_assert(fmpq_equal(q, want), "value %s, expected %ld/%ld",
              fmpq_get_str(NULL, 10, q), (long)num, (long)den);
    fmpq_clear(q);
    fmpq_clear(want);
}

static slong
param_index(const hdo_model_t m, const char *name)
{
    for (slong i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, name) == 0)
            return i;
    cr_assert_fail("no parameter %s", name);
    return -1;
}

Test(model_arrays, dotted_names)
{
    const char *src = "model circuit\n"
                      "param C1.C = 1/2\n"
                      "var C1.v = 1, R1.i\n"
                      "mode circuit.on\n"
                      "  C1.C*der(C1.v) = -R1.i\n"
                      "  R1.i = C1.v\n"
                      "end\n"
                      "start circuit.on\n";
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(parse(m, src, &err), 0, "%s", err.message);
    cr_assert_eq(m->nvars, 2);
    cr_assert_str_eq(m->vars[0].name, "C1.v");
    cr_assert_str_eq(m->vars[1].name, "R1.i");
    cr_assert_eq(hdo_model_find_var(m, "R1.i"), 1);
    cr_assert_eq(hdo_model_find_mode(m, "circuit.on"), 0);
    assert_const(m, m->params[param_index(m, "C1.C")].value, 1, 2);
    cr_assert_eq(m->modes[0].nvars, 2);
    hdo_model_clear(m);
}

Test(model_arrays, dotted_name_errors)
{
    hdo_model_t m;
    hdo_error_t err;
    /* a dot must be followed by a letter: "x.5" is not a name */
    hdo_model_init(m);
    cr_assert_eq(parse(m, "model m\nvar x. = 1\n", &err), HDO_ERR_SYNTAX);
    cr_assert_eq(err.line, 2);
    cr_assert_eq(err.col, 6);
    hdo_model_clear(m);
}

/* Version-1 files that use for, in and sum as names keep their meaning:
   the words are keywords only where the new constructs stand. */
Test(model_arrays, contextual_keywords_stay_names)
{
    const char *src = "model m\n"
                      "param in = 2\n"
                      "var for = 1, sum = 0\n"
                      "mode a\n"
                      "  der(for) = -in*sum\n"
                      "  der(sum) = for\n"
                      "end\n"
                      "start a\n";
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(parse(m, src, &err), 0, "%s", err.message);
    cr_assert_eq(hdo_model_find_var(m, "for"), 0);
    cr_assert_eq(hdo_model_find_var(m, "sum"), 1);
    hdo_model_clear(m);
}

/* Variables keep file order, arrays expanded in place; start values per
   element; element names as output columns. */
Test(model_arrays, array_declarations)
{
    const char *src = "model m\n"
                      "param N = 3\n"
                      "var a = 7\n"
                      "var u[i in 1..N] = i/2 + 1, b\n"
                      "var w[0..N-1] = 5\n"
                      "var z[2..2]\n"
                      "mode q\n"
                      "  der(a) = 1\n"
                      "  for k in 1..N\n"
                      "    der(u[k]) = w[k-1]\n"
                      "    der(w[k-1]) = -u[k]\n"
                      "  end\n"
                      "  der(b) = z[2]\n"
                      "  z[2] = 1\n"
                      "end\n"
                      "start q\n";
    static const char *names[] = {"a",    "u[1]", "u[2]", "u[3]", "b",
                                  "w[0]", "w[1]", "w[2]", "z[2]"};
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(parse(m, src, &err), 0, "%s", err.message);
    cr_assert_eq(m->nvars, 9);
    for (int i = 0; i < 9; i++) {
        cr_assert_str_eq(m->vars[i].name, names[i]);
        cr_assert_eq(hdo_model_find_var(m, names[i]), i);
    }
    assert_const(m, m->vars[0].start, 7, 1);
    assert_const(m, m->vars[1].start, 3, 2);
    assert_const(m, m->vars[2].start, 2, 1);
    assert_const(m, m->vars[3].start, 5, 2);
    cr_assert_eq(m->vars[4].start, HDO_EXPR_NONE);
    for (int i = 5; i < 8; i++)
        assert_const(m, m->vars[i].start, 5, 1);
    cr_assert_eq(m->vars[8].start, HDO_EXPR_NONE);
    cr_assert_eq(m->narrays, 3);
    cr_assert_str_eq(m->arrays[1].name, "w");
    cr_assert_eq(m->arrays[1].first, 5);
    cr_assert_eq(m->arrays[1].lo, 0);
    cr_assert_eq(m->arrays[1].hi, 2);
    cr_assert_eq(hdo_model_find_var(m, "u"), -1);
    cr_assert_eq(m->modes[0].neqs, 9);
    cr_assert_str_eq(m->modes[0].eqs[4].text, "der(w[k-1]) = -u[k] (k = 2)");
    hdo_model_clear(m);
}

/* Nested loops: 2 x 3 equations, indices of both loop variables. */
Test(model_arrays, nested_for)
{
    const char *src = "model m\n"
                      "param R = 2, C = 3\n"
                      "var x[1..R*C] = 0\n"
                      "mode q\n"
                      "  for i in 1..R\n"
                      "    for j in 1..C\n"
                      "      der(x[C*(i-1)+j]) = i + 10*j\n"
                      "    end\n"
                      "  end\n"
                      "end\n"
                      "start q\n";
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    /* "param R = 2, C = 3" is not the syntax: one parameter a line */
    cr_assert_neq(parse(m, src, &err), 0);
    hdo_model_clear(m);
    const char *src2 = "model m\n"
                       "param R = 2\nparam C = 3\n"
                       "var x[1..R*C] = 0\n"
                       "mode q\n"
                       "  for i in 1..R\n"
                       "    for j in 1..C\n"
                       "      der(x[C*(i-1)+j]) = i + 10*j\n"
                       "    end\n"
                       "  end\n"
                       "end\n"
                       "start q\n";
    hdo_model_init(m);
    cr_assert_eq(parse(m, src2, &err), 0, "%s", err.message);
    cr_assert_eq(m->nvars, 6);
    cr_assert_eq(m->modes[0].neqs, 6);
    cr_assert_str_eq(m->modes[0].eqs[4].text,
                     "der(x[C*(i-1)+j]) = i + 10*j (i = 2, j = 2)");
    hdo_model_clear(m);
}

/* sum() in a parameter is folded exactly: 1 + 4 + ... + 100 = 385, and
   the sum of 1/(k(k+1)) for k = 1..9 telescopes to 9/10. */
Test(model_arrays, sum_exact)
{
    const char *src = "model m\n"
                      "param S = sum(k in 1..10, k^2)\n"
                      "param T = sum(k in 1..9, 1/(k*(k+1)))\n"
                      "param U = sum(k in 1..3, sum(j in k..3, j))\n"
                      "var x = S\n"
                      "mode q\n"
                      "  der(x) = T\n"
                      "end\n"
                      "start q\n";
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(parse(m, src, &err), 0, "%s", err.message);
    assert_const(m, m->params[0].value, 385, 1);
    assert_const(m, m->params[1].value, 9, 10);
    /* (1+2+3) + (2+3) + 3 = 14 */
    assert_const(m, m->params[2].value, 14, 1);
    hdo_model_clear(m);
}

/* A sum of more terms than the height limit of one expression (10000)
   is accepted: the terms form a balanced tree.  1 + ... + 20000 =
   20000 * 20001 / 2; the sum over the variable x has 20000 terms. */
Test(model_arrays, sum_long)
{
    const char *src = "model m\n"
                      "param S = sum(k in 1..20000, k)\n"
                      "var x = 1\n"
                      "mode q\n"
                      "  der(x) = sum(k in 1..20000, x/k^2)\n"
                      "end\n"
                      "start q\n";
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(parse(m, src, &err), 0, "%s", err.message);
    assert_const(m, m->params[0].value, 200010000, 1);
    hdo_model_clear(m);
}

typedef struct {
    const char *src;
    int status, line, col;
    const char *msg;
} v2_error;

static const v2_error v2_errors[] = {
    {"model m\nvar u[1..0]\n", HDO_ERR_SEMANTIC, 2, 7, "empty range 1..0"},
    {"model m\nvar u[1 2]\n", HDO_ERR_SYNTAX, 2, 9, "expected '..'"},
    {"model m\nvar x\nmode a\n  der(x) = sum(i in 1..0, i)\nend\nstart a\n",
     HDO_ERR_SEMANTIC, 4, 21, "empty range 1..0 in 'sum'"},
    {"model m\nvar x\nmode a\n  der(x) = sum(x in 1..2, 1)\nend\nstart a\n",
     HDO_ERR_SEMANTIC, 4, 16, "already declared as a variable"},
    {"model m\nvar u[1..2]\nmode a\n  for i in 1..2\n    for i in 1..2\n",
     HDO_ERR_SEMANTIC, 5, 9, "already the variable of an enclosing loop"},
    {"model m\nvar u[1..2]\nmode a\n  for i in 1..2\n    der(u[i]) = 1\n",
     HDO_ERR_SYNTAX, 6, 1, "expected 'end' to close the 'for' at line 4"},
    {"model m\nvar u[1..2] = 0\nmode a\n  der(u[0]) = 1\nend\nstart a\n",
     HDO_ERR_SEMANTIC, 4, 9, "index 0 out of range"},
    {"model m\nvar u[1..2] = 0\nmode a\n  der(u[1/2]) = 1\nend\nstart a\n",
     HDO_ERR_SEMANTIC, 4, 9, "an array index must be an exact integer"},
    {"model m\nvar u[1..2] = 0, x\nmode a\n  der(u[x]) = 1\nend\nstart a\n",
     HDO_ERR_SEMANTIC, 4, 9, "'x' is a variable, but an array index must be"},
    {"model m\nvar u[1..2] = 0\nmode a\n  der(u[1) = 1\nend\nstart a\n",
     HDO_ERR_SYNTAX, 4, 10, "expected ']' after the index of 'u'"},
    {"model m\nvar u[i in 1..2] = x\nvar x\n", HDO_ERR_SEMANTIC, 2, 20,
     "'x' is a variable, but a start value must be constant"},
    {"model m\nvar u[1..2000000]\n", HDO_ERR_SEMANTIC, 2, 7, "too long"},
    /* an element that is not a variable of the mode is named in full */
    {"model m\nvar u[1..3] = 0\nmode a\n  der(u[1]) = 1\n  when u[3] < 0 "
     "goto a\nend\nstart a\n",
     HDO_ERR_SEMANTIC, 5, 8, "the guard uses 'u[3]', which is not"},
    {"model m\nvar u[1..3] = 0\nmode a\n  der(u[1]) = 1\n  when u[1] < 0 "
     "goto a with u[1] = u[2]\nend\nstart a\n",
     HDO_ERR_SEMANTIC, 5, 36, "the reset uses 'u[2]', which is not"},
};

Test(model_arrays, errors)
{
    for (size_t k = 0; k < sizeof v2_errors / sizeof *v2_errors; k++) {
        const v2_error *c = v2_errors + k;
        hdo_model_t m;
        hdo_error_t err;
        hdo_model_init(m);
        int st = parse(m, c->src, &err);
        cr_expect_eq(st, c->status, "case %zu: status %d (%s)", k, st,
                     err.message);
        cr_expect_eq(err.line, c->line, "case %zu: line %d (%s)", k, err.line,
                     err.message);
        cr_expect_eq(err.col, c->col, "case %zu: col %d (%s)", k, err.col,
                     err.message);
        cr_expect(strstr(err.message, c->msg) != NULL,
                  "case %zu: '%s' lacks '%s'", k, err.message, c->msg);
        hdo_model_clear(m);
    }
}

static const char *const override_model = "model m\n"
                                          "param N = 2\n"
                                          "param g = 9.81\n"
                                          "param h = 2*g\n"
                                          "var u[1..N] = h\n"
                                          "mode q\n"
                                          "  for i in 1..N\n"
                                          "    der(u[i]) = -g\n"
                                          "  end\n"
                                          "end\n"
                                          "start q\n";

/* An override replaces the value, later parameters and array bounds
   see it, and the overrides are kept for summary.json. */
Test(model_arrays, overrides)
{
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    hdo_error_clear(&err);
    cr_assert_eq(hdo_model_add_override(m, "g=1/3", &err), 0, "%s",
                 err.message);
    cr_assert_eq(hdo_model_add_override(m, "N=4", &err), 0, "%s", err.message);
    cr_assert_eq(parse(m, override_model, &err), 0, "%s", err.message);
    cr_assert_eq(m->nvars, 4);
    cr_assert_str_eq(m->vars[3].name, "u[4]");
    assert_const(m, m->params[1].value, 1, 3);
    assert_const(m, m->params[2].value, 2, 3);
    assert_const(m, m->vars[3].start, 2, 3);
    cr_assert_eq(m->noverrides, 2);
    cr_assert_str_eq(m->overrides[0].text, "1/3");
    hdo_model_clear(m);

    static const struct {
        const char *arg;
        slong num, den;
    } values[] = {{"g=-2.5e-1", -1, 4}, {"g=0.1/3", 1, 30}, {"g=+7", 7, 1}};
    for (size_t k = 0; k < 3; k++) {
        hdo_model_init(m);
        cr_assert_eq(hdo_model_add_override(m, values[k].arg, &err), 0,
                     "%s: %s", values[k].arg, err.message);
        cr_assert_eq(parse(m, override_model, &err), 0, "%s", err.message);
        assert_const(m, m->params[1].value, values[k].num, values[k].den);
        hdo_model_clear(m);
    }
}

Test(model_arrays, override_errors)
{
    static const char *const bad[] = {"g",      "=1",   "g=",   "g=abc",
                                      "g=1/0",  "g=1/", "g=/2", "g=1/-2",
                                      "g=0x10", "g=1e", "g=inf"};
    hdo_model_t m;
    hdo_error_t err;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        hdo_model_init(m);
        hdo_error_clear(&err);
        cr_expect_eq(hdo_model_add_override(m, bad[k], &err), HDO_ERR_INPUT,
                     "'%s' accepted", bad[k]);
        cr_expect(strstr(err.message, "-p") != NULL, "%s", err.message);
        hdo_model_clear(m);
    }
    hdo_model_init(m);
    cr_assert_eq(hdo_model_add_override(m, "g=1", &err), 0);
    cr_assert_eq(hdo_model_add_override(m, "g=2", &err), HDO_ERR_INPUT);
    cr_assert(strstr(err.message, "given twice") != NULL);
    hdo_model_clear(m);

    /* names that are no parameter of the model */
    hdo_model_init(m);
    cr_assert_eq(hdo_model_add_override(m, "G=1", &err), 0);
    cr_assert_eq(parse(m, override_model, &err), HDO_ERR_SEMANTIC);
    cr_assert_eq(err.line, 0);
    cr_assert(strstr(err.message, "no parameter 'G'") != NULL, "%s",
              err.message);
    hdo_model_clear(m);
    hdo_model_init(m);
    cr_assert_eq(hdo_model_add_override(m, "u=1", &err), 0);
    cr_assert_eq(parse(m, override_model, &err), HDO_ERR_SEMANTIC);
    cr_assert(strstr(err.message, "an array variable, not a parameter"), "%s",
              err.message);
    hdo_model_clear(m);
    /* an override that empties an array is caught at the declaration */
    hdo_model_init(m);
    cr_assert_eq(hdo_model_add_override(m, "N=0", &err), 0);
    cr_assert_eq(parse(m, override_model, &err), HDO_ERR_SEMANTIC);
    cr_assert_eq(err.line, 5);
    cr_assert(strstr(err.message, "empty range 1..0") != NULL);
    hdo_model_clear(m);
}
