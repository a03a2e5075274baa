/* piecewise.c -- unit tests of the piecewise constructs of the .hdae
   language (if/then/else, and/or/not, abs, sign, min, max): parsing,
   exact constant folding, and the expansion of a mode into the modes of
   its sign patterns.  Expected values are worked out by hand. */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <flint/fmpq.h>
#include "model.h"

static int
parse(hdo_model_t m, const char *text, hdo_error_t *err)
{
    hdo_error_clear(err);
    hdo_model_init(m);
    return hdo_model_parse_string(m, text, strlen(text), "pw.hdae", err);
}

static hdo_expr
param(const hdo_model_t m, const char *name)
{
    for (slong i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, name) == 0)
            return m->params[i].value;
    cr_assert_fail("no parameter %s", name);
    return HDO_EXPR_NONE;
}

static void
expect_rational(const hdo_model_t m, const char *name, slong num, ulong den)
{
    fmpq_t q;
    fmpq_init(q);
    cr_assert_eq(hdo_expr_get_fmpq(q, m->pool, param(m, name)), 0,
                 "%s is not a rational", name);
    fmpq_t w;
    fmpq_init(w);
    fmpq_set_si(w, num, den);
    cr_expect(fmpq_equal(q, w), "%s = %s", name, fmpq_get_str(NULL, 10, q));
    fmpq_clear(q);
    fmpq_clear(w);
}

Test(model_piecewise, constants_fold_exactly)
{
    hdo_model_t m;
    hdo_error_t err;
    const char *text = "model c\n"
                       "param a = max(1, 2)\n"
                       "param b = min(-1/3, 1/4) + abs(-5/2)\n"
                       "param s = sign(pi - pi) + 10*sign(sqrt(2)^2 - 2)\n"
                       "param u = sign(pi - 3) - sign(3 - pi)\n"
                       "param p = max(pi, 3)\n"
                       "param q = if a > 1 and not (b < 0) then 7 else 8\n"
                       "param r = if a >= 2 or 1 > 2 then if a > 2 then 1 "
                       "else 2 else 3\n"
                       "var x = max(a, 5)\n"
                       "mode m\n  der(x) = 1\nend\nstart m at 0\nuntil 1\n";
    cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
    expect_rational(m, "a", 2, 1);
    expect_rational(m, "b", 13, 6); /* -1/3 + 5/2 */
    expect_rational(m, "s", 0, 1);  /* both exact zeros: sign 0 */
    expect_rational(m, "u", 2, 1);
    expect_rational(m, "q", 7, 1);
    expect_rational(m, "r", 2, 1);
    cr_expect_eq(param(m, "p"), hdo_expr_pi(m->pool)); /* the pi node */
    cr_expect_eq(m->nmodes, 1); /* no relation left: no pattern */
    cr_expect(m->modes[0].pattern == NULL);
    hdo_model_clear(m);
}

Test(model_piecewise, a_mode_becomes_its_sign_patterns)
{
    hdo_model_t m;
    hdo_error_t err;
    const char *text = "model p\nvar x = 1\nvar y = 0\n"
                       "mode a\n"
                       "  der(x) = -sign(x)\n"
                       "  der(y) = min(x, 1/2)\n"
                       "  when abs(y) > 3 goto b\n"
                       "end\n"
                       "mode b\n  der(x) = 0\n  der(y) = 0\nend\n"
                       "start a at 0\nuntil 1\n";
    cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
    /* a: relations x, 1/2 - x, y (abs in the guard): 8 patterns; b: 1;
       and the 4 zero variants of x (sign(x) is 0 at x = 0, which
       neither side gives), after every sign pattern */
    cr_assert_eq(m->nmodes, 13, "%ld modes", (long)m->nmodes);
    const hdo_mode *a = m->modes + 0;
    cr_expect_eq(a->nrel, 3);
    cr_expect_str_eq(a->name, "a");
    cr_assert(a->pattern != NULL);
    cr_expect_str_eq(a->pattern, "x < 0, 0.5 - x < 0, y < 0");
    cr_expect(m->modes[1].pattern == NULL); /* b keeps its index */
    for (slong p = 0; p < 8; p++) {
        const hdo_mode *pm = m->modes + a->family_modes[p];
        cr_expect_eq(pm->family, 0);
        cr_expect_eq(pm->mask, p);
        cr_expect_str_eq(pm->name, "a");
        cr_assert_eq(pm->nwhens, 4); /* the when, then one per relation */
        cr_expect_eq(pm->whens[0].target, 1);
        cr_expect(!pm->whens[0].crossing);
        for (slong j = 0; j < 3; j++) {
            cr_expect(pm->whens[1 + j].crossing);
            cr_expect_eq(pm->whens[1 + j].target,
                         a->family_modes[p ^ (1 << j)]);
            cr_expect_eq(pm->whens[1 + j].nassigns, 0);
        }
    }
    /* mask 7 (x >= 0, x <= 1/2, y >= 0): der(x) = -1, der(y) = x, guard
       of the when -(y - 3) = 3 - y; the crossing guards x, 1/2 - x, y */
    const hdo_mode *p7 = m->modes + a->family_modes[7];
    static const char *const names[] = {"x", "y"};
    char *s = hdo_expr_to_string(m->pool, p7->eqs[0].residual, names);
    cr_expect_str_eq(s, "der(x) + 1");
    free(s);
    s = hdo_expr_to_string(m->pool, p7->eqs[1].residual, names);
    cr_expect_str_eq(s, "der(y) - x");
    free(s);
    s = hdo_expr_to_string(m->pool, p7->whens[0].guard, names);
    cr_expect_str_eq(s, "3 - y");
    free(s);
    cr_expect_str_eq(p7->whens[1].guard_text, "x < 0");
    cr_expect_str_eq(p7->whens[2].guard_text, "0.5 - x < 0");
    /* mask 0: the negated switching functions */
    s = hdo_expr_to_string(m->pool, a->whens[1].guard, names);
    cr_expect_str_eq(s, "-x");
    free(s);
    cr_expect_str_eq(a->whens[1].guard_text, "x > 0");
    /* x is used as x > 0 and x >= 0 (sign), the others only as >= */
    cr_expect_eq(a->mixed, 1);
    cr_expect_eq(a->strict, 0);
    cr_assert_eq(a->nzero, 4);
    for (slong i = 0; i < 4; i++) {
        slong q = a->zero_modes[i];
        const hdo_mode *z = m->modes + q;
        cr_expect_eq(q, 9 + i);
        cr_expect_eq(z->family, 0);
        cr_expect_eq(z->zmask, 1);
        cr_expect_eq(z->mask, 2 * i, "%ld", (long)z->mask);
        cr_expect_eq(hdo_model_pattern_mode(m, 0, z->mask, 1), q);
        cr_expect(z->whens[1].zero && z->whens[1].crossing);
        /* the zero relation's guard is x itself, and leaving zero goes
           to the >= side's pattern; the others cross into zero variants */
        s = hdo_expr_to_string(m->pool, z->whens[1].guard, names);
        cr_expect_str_eq(s, "x");
        free(s);
        cr_expect_eq(z->whens[1].target, a->family_modes[z->mask | 1]);
        cr_expect_eq(z->whens[2].target,
                     hdo_model_pattern_mode(m, 0, z->mask ^ 2, 1));
        cr_expect(!z->whens[2].zero && !z->whens[3].zero);
        /* sign(0) = 0: der(x) = 0 */
        s = hdo_expr_to_string(m->pool, z->eqs[0].residual, names);
        cr_expect_str_eq(s, "der(x)");
        free(s);
    }
    cr_expect_str_eq(m->modes[a->zero_modes[0]].pattern,
                     "x = 0, 0.5 - x < 0, y < 0");
    cr_expect_eq(hdo_model_pattern_mode(m, 0, 5, 0), a->family_modes[5]);
    hdo_model_clear(m);
}

/* The value of a relation at D = 0 where the two sides' patterns do not
   give it: x >= 0 with x > 0, or x > 0 with x < 0 (sign), needs zero
   variants; x >= 0 with x < 0 (the same relation, negated) does not,
   its value at 0 being the >= side's; x > 0 alone is strict (its value
   at 0 is the < side's). */
Test(model_piecewise, zero_variants_only_where_needed)
{
    static const struct {
        const char *eq;
        slong mixed, strict, nmodes;
    } cases[] = {
        {"der(x) = if x >= 0 then 1 else -1", 0, 0, 2},
        {"der(x) = if x < 0 then 1 else -1", 0, 0, 2},
        {"der(x) = (if x >= 0 then 1 else -1) + (if x < 0 then 1 else 0)", 0, 0,
         2},
        {"der(x) = if x > 0 then 1 else -1", 0, 1, 2},
        {"der(x) = if 0 > x then 1 else -1", 0, 0, 2},
        {"der(x) = (if x >= 0 then 1 else -1) + (if x > 0 then 1 else 0)", 1, 0,
         3},
        {"der(x) = sign(x)", 1, 0, 3},
        {"der(x) = sign(x) + sign(t - 1)", 3, 0, 4 + 5},
        {"der(x) = sign(x) + abs(t - 1)", 1, 0, 4 + 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[300];
        snprintf(text, sizeof text,
                 "model z\nvar x = 0\nmode m\n  %s\nend\nstart m\n"
                 "until 1\n",
                 cases[i].eq);
        hdo_model_t m;
        hdo_error_t err;
        cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
        cr_expect_eq(m->modes[0].mixed, cases[i].mixed, "%s", cases[i].eq);
        cr_expect_eq(m->modes[0].strict, cases[i].strict, "%s", cases[i].eq);
        cr_expect_eq(m->nmodes, cases[i].nmodes, "%s: %ld modes", cases[i].eq,
                     (long)m->nmodes);
        hdo_model_clear(m);
    }
}

/* Where each relation is written: the comparison's left operand, or
   the abs/sign/min/max; a relation met twice keeps its first place. */
Test(model_piecewise, relation_positions)
{
    const char *text = "model p\nvar x = 1\nvar y = 0\n"
                       "mode a\n"
                       "  der(x) = -sign(x)\n"
                       "  der(y) = if t - 1 < 0 then min(x, 1/2) else x\n"
                       "end\n"
                       "start a\nuntil 1\n";
    hdo_model_t m;
    hdo_error_t err;
    cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
    const hdo_mode *a = m->modes + 0;
    cr_assert_eq(a->nrel, 3);
    static const char *const names[] = {"x", "y"};
    for (slong j = 0; j < 3; j++) {
        char *s = hdo_expr_to_string(m->pool, a->rel[j], names);
        if (strcmp(s, "x") == 0) {
            cr_expect_eq(a->rel_pos[j].line, 5);
            cr_expect_eq(a->rel_pos[j].col, 13);
        } else if (strcmp(s, "0.5 - x") == 0) {
            cr_expect_eq(a->rel_pos[j].line, 6);
            cr_expect_eq(a->rel_pos[j].col, 30);
        } else {
            cr_expect_eq(a->rel_pos[j].line, 6, "%s", s);
            cr_expect_eq(a->rel_pos[j].col, 15, "%s", s);
        }
        free(s);
    }
    hdo_model_clear(m);
}

Test(model_piecewise, else_extends_and_ifs_nest)
{
    hdo_model_t m;
    hdo_error_t err;
    const char *text = "model n\nvar x = 0\n"
                       "mode m\n"
                       "  der(x) = 2*if t < 1 then 1 else if t < 2 then 2 "
                       "else 3 + 1\n"
                       "end\nstart m at 0\nuntil 1\n";
    cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
    cr_assert_eq(m->nmodes, 4);
    static const char *const names[] = {"x"};
    /* masks: bit 0 for 1 - t > 0, bit 1 for 2 - t > 0; the else branch
       of the inner if is 3 + 1 */
    static const char *const want[4] = {"der(x) - 8", "der(x) - 2",
                                        "der(x) - 4", "der(x) - 2"};
    for (slong p = 0; p < 4; p++) {
        const hdo_mode *pm = m->modes + m->modes[0].family_modes[p];
        char *s = hdo_expr_to_string(m->pool, pm->eqs[0].residual, names);
        cr_expect_str_eq(s, want[p], "mask %ld: %s", (long)p, s);
        free(s);
    }
    hdo_model_clear(m);
}

Test(model_piecewise, keywords_stay_names)
{
    /* a version-1 model may name a variable `then`, `and` or `abs` */
    hdo_model_t m;
    hdo_error_t err;
    const char *text = "model k\nvar then = 1\nvar abs = 2\n"
                       "mode m\n  der(then) = -abs\n  der(abs) = 0\nend\n"
                       "start m at 0\nuntil 1\n";
    cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
    cr_expect_eq(m->nmodes, 1);
    hdo_model_clear(m);
}

Test(model_piecewise, parenthesised_conditions_and_expressions)
{
    /* ((t > 1)) is a condition, ((t + 1)) > 2 a comparison of an
       expression in parentheses, (if ...) > 0 a comparison of an if */
    static const char *const conds[] = {
        "((t > 1))", "((t + 1)) > 2", "(t > 1 and (t < 3))",
        "(if t > 1 then 1 else 0) > 0", "not ((1 < t))"};
    for (size_t i = 0; i < sizeof conds / sizeof *conds; i++) {
        char text[300];
        snprintf(text, sizeof text,
                 "model p\nvar x = 0\nmode m\n  der(x) = if %s then 1 "
                 "else 0\nend\nstart m at 0\nuntil 1\n",
                 conds[i]);
        hdo_model_t m;
        hdo_error_t err;
        cr_expect_eq(parse(m, text, &err), 0, "%s: %s", conds[i], err.message);
        hdo_model_clear(m);
    }
}
