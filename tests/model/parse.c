/* parse.c -- unit tests of the .hdae parser: structure, exact constants,
   precedence, statement order */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <flint/fmpq.h>
#include "model.h"

/* An exact evaluator written for the tests, independent of the parser
   and of the simplifications the expression module may do: the value of
   e with variable i = x[i], der(variable i) = dx[i], t = t, over the
   rationals.  Returns -1 for nodes it does not know (pi, functions,
   non-integer powers). */
static int
eval_q(fmpq_t r, const hdo_expr_pool_t pool, hdo_expr e, const fmpq *x,
       const fmpq *dx, const fmpq_t t)
{
    const hdo_expr_node *n = hdo_expr_node_get(pool, e);
    fmpq_t a, b;
    int s = 0;
    switch (n->kind) {
    case HDO_X_CONST:
        return hdo_expr_get_fmpq(r, pool, e);
    case HDO_X_TIME:
        fmpq_set(r, t);
        return 0;
    case HDO_X_VAR:
        if (n->b > 1)
            return -1;
        fmpq_set(r, n->b == 0 ? x + n->a : dx + n->a);
        return 0;
    case HDO_X_NEG:
        s = eval_q(r, pool, n->a, x, dx, t);
        fmpq_neg(r, r);
        return s;
    case HDO_X_ADD:
    case HDO_X_SUB:
    case HDO_X_MUL:
    case HDO_X_DIV:
    case HDO_X_POW:
        break;
    default:
        return -1;
    }
    fmpq_init(a);
    fmpq_init(b);
    s = eval_q(a, pool, n->a, x, dx, t);
    if (s == 0)
        s = eval_q(b, pool, n->b, x, dx, t);
    if (s == 0) {
        switch (n->kind) {
        case HDO_X_ADD:
            fmpq_add(r, a, b);
            break;
        case HDO_X_SUB:
            fmpq_sub(r, a, b);
            break;
        case HDO_X_MUL:
            fmpq_mul(r, a, b);
            break;
        case HDO_X_DIV:
            if (fmpq_is_zero(b))
                s = -1;
            else
                fmpq_div(r, a, b);
            break;
        default:
            if (!fmpz_is_one(fmpq_denref(b)) || !fmpz_fits_si(fmpq_numref(b)) ||
                (fmpq_is_zero(a) && fmpq_sgn(b) < 0))
                s = -1;
            else
                fmpq_pow_si(r, a, fmpz_get_si(fmpq_numref(b)));
        }
    }
    fmpq_clear(a);
    fmpq_clear(b);
    return s;
}

static int
parse(hdo_model_t m, const char *src, hdo_error_t *err)
{
    hdo_model_init(m);
    return hdo_model_parse_string(m, src, strlen(src), "test.hdae", err);
}

static void
expect_q(const hdo_expr_pool_t pool, hdo_expr e, const char *frac,
         const char *what)
{
    fmpq_t got, want;
    fmpq_init(got);
    fmpq_init(want);
    cr_assert_eq(fmpq_set_str(want, frac, 10), 0);
    fmpq_canonicalise(want);
    cr_expect(e != HDO_EXPR_NONE, "%s: no expression", what);
    if (e != HDO_EXPR_NONE) {
        cr_expect(hdo_expr_is_rational(pool, e), "%s: not a rational", what);
        cr_expect_eq(hdo_expr_get_fmpq(got, pool, e), 0, "%s", what);
        cr_expect(fmpq_equal(got, want), "%s: value differs from %s", what,
                  frac);
    }
    fmpq_clear(got);
    fmpq_clear(want);
}

static const char *ball =
    "# Ball dropped from 1 m; restitution e; Zeno point regularised by a "
    "rest mode.\n"
    "model bouncing_ball\n"
    "\n"
    "param g = 9.81          # decimal literals are exact rationals: 9.81 "
    "== 981/100\n"
    "param e = 0.8\n"
    "\n"
    "var h = 1               # start values\n"
    "var v = 0\n"
    "var f                   # no start value: computed by consistent "
    "initialisation\n"
    "\n"
    "mode fly\n"
    "  der(h) = v\n"
    "  der(v) = -g\n"
    "  when h < 0 goto fly with v = -e*v    # right-hand sides use the "
    "values just before the event\n"
    "  zeno goto rest                       # taken at the accumulation "
    "point of fly's events\n"
    "end\n"
    "\n"
    "mode rest\n"
    "  der(h) = v\n"
    "  der(v) = -g + f        # f: contact force (algebraic)\n"
    "  h = 0                  # position constraint: this mode has "
    "strangeness index > 0\n"
    "  when f < 0 goto fly\n"
    "end\n"
    "\n"
    "start fly at 0\n"
    "until 10\n";

Test(model_parse, bouncing_ball)
{
    hdo_model_t m;
    hdo_error_t err;
    const hdo_mode *fly, *rest;
    fmpq x[3], dx[3];
    fmpq_t t, r;
    int i;

    cr_assert_eq(parse(m, ball, &err), 0, "%d:%d: %s", err.line, err.col,
                 err.message);
    cr_expect_str_eq(m->name, "bouncing_ball");
    cr_expect_str_eq(m->file, "test.hdae");
    cr_assert_eq(m->nparams, 2);
    cr_expect_str_eq(m->params[0].name, "g");
    cr_expect_str_eq(m->params[1].name, "e");
    expect_q(m->pool, m->params[0].value, "981/100", "g");
    expect_q(m->pool, m->params[1].value, "4/5", "e");
    cr_expect(m->params[0].pos.line == 4 && m->params[0].pos.col == 7);

    cr_assert_eq(m->nvars, 3);
    cr_expect_str_eq(m->vars[0].name, "h");
    cr_expect_str_eq(m->vars[1].name, "v");
    cr_expect_str_eq(m->vars[2].name, "f");
    cr_expect_str_eq(m->var_names[2], "f");
    expect_q(m->pool, m->vars[0].start, "1", "h start");
    expect_q(m->pool, m->vars[1].start, "0", "v start");
    cr_expect_eq(m->vars[2].start, HDO_EXPR_NONE);
    cr_expect(m->vars[2].pos.line == 9 && m->vars[2].pos.col == 5);

    cr_assert_eq(m->nmodes, 2);
    fly = m->modes + 0;
    rest = m->modes + 1;
    cr_expect_str_eq(fly->name, "fly");
    cr_expect_str_eq(rest->name, "rest");
    cr_expect_eq(fly->pos.line, 11);
    cr_expect_eq(rest->pos.line, 18);
    cr_assert_eq(fly->neqs, 2);
    cr_assert_eq(fly->nvars, 2);
    cr_expect(fly->vars[0] == 0 && fly->vars[1] == 1);
    cr_expect_str_eq(fly->eqs[0].text, "der(h) = v");
    cr_expect_str_eq(fly->eqs[1].text, "der(v) = -g");
    cr_expect(fly->eqs[1].pos.line == 13 && fly->eqs[1].pos.col == 3);
    cr_assert_eq(rest->neqs, 3);
    cr_assert_eq(rest->nvars, 3);
    cr_expect(rest->vars[0] == 0 && rest->vars[1] == 1 && rest->vars[2] == 2);
    cr_expect_str_eq(rest->eqs[1].text, "der(v) = -g + f");
    cr_expect_str_eq(rest->eqs[2].text, "h = 0");

    cr_assert_eq(fly->nwhens, 1);
    cr_expect_str_eq(fly->whens[0].guard_text, "h < 0");
    cr_expect_eq(fly->whens[0].target, 0);
    cr_expect(fly->whens[0].pos.line == 14 && fly->whens[0].pos.col == 3);
    cr_assert_eq(fly->whens[0].nassigns, 1);
    cr_expect_eq(fly->whens[0].assigns[0].var, 1);
    cr_expect(fly->whens[0].assigns[0].pos.line == 14 &&
              fly->whens[0].assigns[0].pos.col == 28);
    cr_expect(fly->has_zeno);
    cr_expect_eq(fly->zeno.target, 1);
    cr_expect_eq(fly->zeno.guard, HDO_EXPR_NONE);
    cr_expect_str_eq(fly->zeno.guard_text, "zeno");
    cr_expect_eq(fly->zeno.nassigns, 0);
    cr_assert_eq(rest->nwhens, 1);
    cr_expect_str_eq(rest->whens[0].guard_text, "f < 0");
    cr_expect_eq(rest->whens[0].target, 0);
    cr_expect(!rest->has_zeno);

    cr_expect_eq(m->start_mode, 0);
    expect_q(m->pool, m->t0, "0", "t0");
    expect_q(m->pool, m->t_end, "10", "until");
    cr_expect_eq(m->chattering, HDO_CHATTER_FILIPPOV);
    cr_expect_eq(m->start_pos.line, 25);
    cr_expect_eq(m->until_pos.line, 26);

    /* The expressions, evaluated exactly at h = 3/2, v = -2, f = 5,
       der(h) = 7, der(v) = 11/3, t = 0. */
    for (i = 0; i < 3; i++) {
        fmpq_init(x + i);
        fmpq_init(dx + i);
    }
    fmpq_init(t);
    fmpq_init(r);
    fmpq_set_si(x + 0, 3, 2);
    fmpq_set_si(x + 1, -2, 1);
    fmpq_set_si(x + 2, 5, 1);
    fmpq_set_si(dx + 0, 7, 1);
    fmpq_set_si(dx + 1, 11, 3);
#define EXPECT_AT(e, num, den)                                                 \
    do {                                                                       \
        fmpq_t w_;                                                             \
        fmpq_init(w_);                                                         \
        fmpq_set_si(w_, num, den);                                             \
        cr_expect_eq(eval_q(r, m->pool, (e), x, dx, t), 0, "eval " #e);        \
        cr_expect(fmpq_equal(r, w_), #e " != %ld/%ld", (long)(num),            \
                  (long)(den));                                                \
        fmpq_clear(w_);                                                        \
    } while (0)
    EXPECT_AT(fly->eqs[0].residual, 9, 1);       /* 7 - (-2) */
    EXPECT_AT(fly->eqs[1].residual, 4043, 300);  /* 11/3 + 981/100 */
    EXPECT_AT(rest->eqs[1].residual, 2543, 300); /* 11/3 + 9.81 - 5 */
    EXPECT_AT(rest->eqs[2].residual, 3, 2);
    /* when h < 0: S = h - 0, feasible while S >= 0 */
    EXPECT_AT(fly->whens[0].guard, 3, 2);
    EXPECT_AT(rest->whens[0].guard, 5, 1);
    /* v = -e*v at v = -2: 8/5 */
    EXPECT_AT(fly->whens[0].assigns[0].value, 8, 5);
    for (i = 0; i < 3; i++) {
        fmpq_clear(x + i);
        fmpq_clear(dx + i);
    }
    fmpq_clear(t);
    fmpq_clear(r);

    cr_expect_eq(hdo_model_find_var(m, "f"), 2);
    cr_expect_eq(hdo_model_find_var(m, "rest"), -1);
    cr_expect_eq(hdo_model_find_var(m, "g"), -1);
    cr_expect_eq(hdo_model_find_mode(m, "rest"), 1);
    cr_expect_eq(hdo_model_find_mode(m, "h"), -1);
    cr_expect_eq(hdo_model_find_mode(m, "nothing"), -1);
    hdo_model_clear(m);
}

/* Parameter values are folded exactly by the parser and the expression
   constructors: each case is a parameter and its value worked out by
   hand. */
Test(model_parse, precedence_and_exact_constants)
{
    static const struct {
        const char *expr, *value;
    } cases[] = {
        {"-2^2", "-4"}, /* unary minus binds looser than ^ */
        {"(-2)^2", "4"},
        {"2^3^2", "512"}, /* ^ is right-associative */
        {"(2^3)^2", "64"},
        {"2-3-4", "-5"}, /* - is left-associative */
        {"2/3/4", "1/6"},
        {"2*3+4*5", "26"},
        {"2+3*4^2", "50"},
        {"2^-1", "1/2"},
        {"2^-1^2", "1/2"}, /* 2^(-(1^2)) */
        {"-(-3)", "3"},
        {"--3", "3"},
        {"+3", "3"},
        {"2*-3", "-6"},
        {"1 - -1", "2"},
        {"8/2^2", "2"},
        {"-2^-2", "-1/4"},
        {"0.1 + 0.2", "3/10"},
        {"9.81", "981/100"},
        {"1e-2", "1/100"},
        {"2.5E+3", "2500"},
        {"123456789012345678901234567890.5",
         "246913578024691357802469135781/2"},
        {"4/5", "4/5"},
        {"((((1))))", "1"},
        {"(1+2)*(3+4)", "21"},
        {"1/3 + 1/6", "1/2"},
        {"2^0", "1"},
        {"0^0", "1"},
        {"(1/2)^10", "1/1024"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[256];
        hdo_model_t m;
        hdo_error_t err;
        snprintf(src, sizeof src,
                 "model m\nparam p = %s\nvar x\nmode a\n der(x) = p\nend\n"
                 "start a\n",
                 cases[i].expr);
        cr_expect_eq(parse(m, src, &err), 0, "%s: %s", cases[i].expr,
                     err.message);
        if (m->nparams == 1)
            expect_q(m->pool, m->params[0].value, cases[i].value,
                     cases[i].expr);
        hdo_model_clear(m);
    }
}

/* Expressions with variables, evaluated exactly at x = 3, y = -1/2,
   der(x) = 5, t = 7. */
Test(model_parse, precedence_with_variables)
{
    static const struct {
        const char *rhs, *value; /* value of the residual x - (rhs) */
    } cases[] = {
        {"-x^2", "12"},             /* 3 - (-9) */
        {"x^2^-1", NULL},           /* not rational: parsed, not evaluated */
        {"x - y - t", "13/2"},      /* 3 - (3 + 1/2 - 7) */
        {"x/y/x", "5"},             /* 3 - ((3 / (-1/2)) / 3) */
        {"2*t^2", "-95"},           /* 3 - 98 */
        {"der(x)*-y", "1/2"},       /* 3 - 5/2 */
        {"-x*y", "3/2"},            /* 3 - 3/2 */
        {"(x - (y - t))", "-15/2"}, /* 3 - (3 - (-1/2 - 7)) */
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[256];
        hdo_model_t m;
        hdo_error_t err;
        fmpq x[2], dx[2];
        fmpq_t t, r, want;
        int j, s;
        snprintf(src, sizeof src,
                 "model m\nvar x, y\nmode a\n x = %s\n y = 1\nend\nstart a\n",
                 cases[i].rhs);
        cr_expect_eq(parse(m, src, &err), 0, "%s: %s", cases[i].rhs,
                     err.message);
        if (cases[i].value == NULL || m->nmodes != 1) {
            hdo_model_clear(m);
            continue;
        }
        for (j = 0; j < 2; j++) {
            fmpq_init(x + j);
            fmpq_init(dx + j);
        }
        fmpq_init(t);
        fmpq_init(r);
        fmpq_init(want);
        fmpq_set_si(x + 0, 3, 1);
        fmpq_set_si(x + 1, -1, 2);
        fmpq_set_si(dx + 0, 5, 1);
        fmpq_set_si(t, 7, 1);
        fmpq_set_str(want, cases[i].value, 10);
        fmpq_canonicalise(want);
        s = eval_q(r, m->pool, m->modes[0].eqs[0].residual, x, dx, t);
        cr_expect_eq(s, 0, "%s: not evaluable", cases[i].rhs);
        cr_expect(fmpq_equal(r, want), "x - (%s) != %s", cases[i].rhs,
                  cases[i].value);
        for (j = 0; j < 2; j++) {
            fmpq_clear(x + j);
            fmpq_clear(dx + j);
        }
        fmpq_clear(t);
        fmpq_clear(r);
        fmpq_clear(want);
        hdo_model_clear(m);
    }
}

/* Top-level statements in any order: start before the modes, modes
   before the variables they use, parameters after the modes that use
   them, a mode going to a mode defined below it. */
Test(model_parse, statement_order_is_free)
{
    const char *src = "model order\n"
                      "until 5; start second at 1\n"
                      "chattering hysteresis 1/1000\n"
                      "mode first\n"
                      "  der(b) = -k*b\n"
                      "  when b < 1 goto second with a = b, b = 0\n"
                      "end\n"
                      "mode second\n"
                      "  der(a) = k; der(b) = a\n"
                      "  when a > 2*b goto first with b = a\n"
                      "end\n"
                      "var b = k\n"
                      "param k = 3\n"
                      "var a\n";
    hdo_model_t m;
    hdo_error_t err;
    fmpq x[2], dx[2];
    fmpq_t t, r;
    int j;
    cr_assert_eq(parse(m, src, &err), 0, "%d:%d: %s", err.line, err.col,
                 err.message);
    /* Variables are numbered in declaration order, b before a. */
    cr_assert_eq(m->nvars, 2);
    cr_expect_str_eq(m->vars[0].name, "b");
    cr_expect_str_eq(m->vars[1].name, "a");
    expect_q(m->pool, m->vars[0].start, "3", "b start");
    cr_expect_eq(m->start_mode, 1);
    expect_q(m->pool, m->t0, "1", "t0");
    expect_q(m->pool, m->t_end, "5", "until");
    cr_expect_eq(m->chattering, HDO_CHATTER_HYSTERESIS);
    expect_q(m->pool, m->hysteresis, "1/1000", "hysteresis");
    cr_assert_eq(m->nmodes, 2);
    cr_expect_eq(m->modes[0].nvars, 1);
    cr_expect_eq(m->modes[0].whens[0].target, 1);
    cr_expect_eq(m->modes[0].whens[0].nassigns, 2);
    cr_expect_eq(m->modes[0].whens[0].assigns[0].var, 1);
    cr_expect_eq(m->modes[0].whens[0].assigns[1].var, 0);
    /* ';' separates statements inside a mode too. */
    cr_assert_eq(m->modes[1].neqs, 2);
    cr_expect_str_eq(m->modes[1].eqs[0].text, "der(a) = k");
    cr_expect_str_eq(m->modes[1].eqs[1].text, "der(b) = a");
    /* The mode's variables are ascending indices, whatever the order in
       which the equations mention them. */
    cr_assert_eq(m->modes[1].nvars, 2);
    cr_expect(m->modes[1].vars[0] == 0 && m->modes[1].vars[1] == 1);
    /* a > 2*b gives S = 2*b - a: at b = 2, a = 1 it is 3. */
    cr_expect_str_eq(m->modes[1].whens[0].guard_text, "a > 2*b");
    for (j = 0; j < 2; j++) {
        fmpq_init(x + j);
        fmpq_init(dx + j);
    }
    fmpq_init(t);
    fmpq_init(r);
    fmpq_set_si(x + 0, 2, 1);
    fmpq_set_si(x + 1, 1, 1);
    cr_expect_eq(eval_q(r, m->pool, m->modes[1].whens[0].guard, x, dx, t), 0);
    cr_expect(fmpq_equal_si(r, 3));
    /* first's equation der(b) = -k*b with k = 3: residual at der(b) = 0,
       b = 2 is 6. */
    cr_expect_eq(eval_q(r, m->pool, m->modes[0].eqs[0].residual, x, dx, t), 0);
    cr_expect(fmpq_equal_si(r, 6));
    for (j = 0; j < 2; j++) {
        fmpq_clear(x + j);
        fmpq_clear(dx + j);
    }
    fmpq_clear(t);
    fmpq_clear(r);
    hdo_model_clear(m);
}

Test(model_parse, defaults_and_options)
{
    const char *src = "model m\nvar x\nmode a\n der(x) = x\nend\nstart a\n"
                      "chattering stop\n";
    hdo_model_t m;
    hdo_error_t err;
    cr_assert_eq(parse(m, src, &err), 0, "%s", err.message);
    expect_q(m->pool, m->t0, "0", "default t0");
    cr_expect_eq(m->t_end, HDO_EXPR_NONE);
    cr_expect_eq(m->chattering, HDO_CHATTER_STOP);
    cr_expect_eq(m->hysteresis, HDO_EXPR_NONE);
    cr_expect_eq(m->vars[0].start, HDO_EXPR_NONE);
    cr_expect_eq(m->modes[0].nwhens, 0);
    hdo_model_clear(m);
}

Test(model_parse, irrational_constants)
{
    /* pi and functions of constants stay symbolic, and are accepted
       where constants are required; until is compared by MPFR. */
    const char *src = "model m\nparam w = 2*pi\nparam s = sqrt(2)\n"
                      "var x = sin(w/4) + s\nmode a\n der(x) = w*x\nend\n"
                      "start a at pi\nuntil 2*pi\n"
                      "chattering hysteresis pi - 3\n";
    hdo_model_t m;
    hdo_error_t err;
    cr_assert_eq(parse(m, src, &err), 0, "%d:%d %s", err.line, err.col,
                 err.message);
    cr_expect(hdo_expr_is_constant(m->pool, m->params[0].value));
    cr_expect(!hdo_expr_is_rational(m->pool, m->params[0].value));
    cr_expect(hdo_expr_is_constant(m->pool, m->vars[0].start));
    cr_expect(hdo_expr_is_constant(m->pool, m->t_end));
    hdo_model_clear(m);
}

Test(model_parse, crlf_tabs_semicolons_and_blank_lines)
{
    const char *src = "\r\n# header\r\nmodel m;\r\n\r\n\tvar x = 1;;\r\n"
                      "mode a; der(x) = -x; end\r\nstart a\r\n";
    hdo_model_t m;
    hdo_error_t err;
    cr_assert_eq(parse(m, src, &err), 0, "%d:%d %s", err.line, err.col,
                 err.message);
    cr_expect_str_eq(m->name, "m");
    cr_expect_eq(m->modes[0].neqs, 1);
    cr_expect_str_eq(m->modes[0].eqs[0].text, "der(x) = -x");
    cr_expect(m->vars[0].pos.line == 5 && m->vars[0].pos.col == 6);
    hdo_model_clear(m);
}

Test(model_parse, file_round_trip)
{
    char path[] = "/tmp/hdo-model-test-XXXXXX";
    int fd = mkstemp(path);
    FILE *f;
    hdo_model_t m;
    hdo_error_t err;
    cr_assert(fd >= 0);
    f = fdopen(fd, "w");
    fputs(ball, f);
    fclose(f);
    hdo_model_init(m);
    cr_expect_eq(hdo_model_parse_file(m, path, &err), 0, "%s", err.message);
    cr_expect_str_eq(m->file, path);
    cr_expect_eq(m->nmodes, 2);
    hdo_model_clear(m);
    unlink(path);
}
