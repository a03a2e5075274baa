/* errors.c -- every model error, table-driven: source text -> status,
   line, column and a piece of the message (positions counted by hand) */
#include <string.h>
#include <criterion/criterion.h>
#include "model.h"

typedef struct {
    const char *src;
    int status, line, col;
    const char *msg;
} error_case;

#define SYN HDO_ERR_SYNTAX
#define SEM HDO_ERR_SEMANTIC

/* Line 7 of this model is the case's own line, inside mode a. */
#define IN_MODE(line7)                                                         \
    "model m\nparam g = 2\nvar x, y\nmode a\n  der(x) = y\n  der(y) = "        \
    "-g\n" line7 "\nend\nstart a\n"

/* Line 6 of this model is the case's own line, at top level. */
#define TOP(line6) "model m\nvar x\nmode a\n  der(x) = 1\nend\n" line6 "\n"

static const error_case cases[] = {
    /* lexical errors reach the parser's caller unchanged */
    {"model m\nvar x @ 1\n", SYN, 2, 7, "unexpected character '@'"},
    {IN_MODE("  x = 1 @"), SYN, 7, 9, "unexpected character '@'"},

    /* the header */
    {"", SYN, 1, 1,
     "expected 'model NAME' at the start of the file, found "
     "end of file"},
    {"# only a comment\n# and another\n", SYN, 3, 1,
     "expected 'model NAME' at the start of the file, found end of file"},
    {"\n\n  \n", SYN, 4, 1, "found end of file"},
    {"param g = 1\n", SYN, 1, 1,
     "expected 'model NAME' as the first statement, found 'param'"},
    {"model\n", SYN, 1, 6,
     "expected the model name after 'model', found end of line"},
    {"model m x\n", SYN, 1, 9,
     "expected end of line after the model name, found 'x'"},
    {"model mode\n", SYN, 1, 7,
     "expected the model name after 'model', found the reserved word "
     "'mode', which cannot be used as a name"},
    {TOP("model n"), SYN, 6, 1,
     "a second 'model' statement (the model is named at line 1)"},

    /* parameters */
    {"model m\nparam g 9.81\n", SYN, 2, 9,
     "expected '=' and a value after the parameter name 'g', found '9.81'"},
    {"model m\nparam g =\n", SYN, 2, 10,
     "expected an expression, found end of line"},
    {"model m\nparam = 1\n", SYN, 2, 7,
     "expected a parameter name after 'param', found '='"},
    {"model m\nparam a = b\nparam b = 1\n", SEM, 2, 11,
     "parameter 'b' is used before its declaration (a parameter may only "
     "use earlier parameters)"},
    {"model m\nparam a = a + 1\n", SEM, 2, 11,
     "parameter 'a' is defined in terms of itself"},
    {"model m\nparam a = 1/0\n", SEM, 2, 12, "division by zero"},
    {"model m\nparam a = 2/(1 - 1)\n", SEM, 2, 12, "division by zero"},
    {"model m\nvar x\nparam a = x\n", SEM, 3, 11,
     "'x' is a variable, but a parameter value must be constant (numbers, "
     "pi and parameters)"},
    {"model m\nparam a = 2*t\n", SEM, 2, 13,
     "time 't' cannot appear in a parameter value, which must be constant"},
    {"model m\nparam a = der(x)\nvar x\n", SEM, 2, 11,
     "der() cannot appear in a parameter value, which must be constant"},
    {"model m\nparam a = 1\nparam a = 2\n", SEM, 3, 7,
     "duplicate name 'a': already declared as a parameter at line 2"},
    {"model m\nvar x\nparam x = 2\n", SEM, 3, 7,
     "duplicate name 'x': already declared as a variable at line 2"},
    {"model m\nparam pi = 3\n", SYN, 2, 7,
     "expected a parameter name after 'param', found the reserved word "
     "'pi', which cannot be used as a name"},
    {"model m\nparam sin = 3\n", SYN, 2, 7, "the reserved word 'sin'"},
    {"model m\nparam t = 3\n", SYN, 2, 7, "the reserved word 't'"},
    {"model m\nparam a = log(0)\n", SEM, 2, 11,
     "a parameter value is undefined: log of an argument outside its "
     "domain"},
    {"model m\nparam a = sqrt(-1)\n", SEM, 2, 11,
     "a parameter value is undefined"},
    {"model m\nparam a = sin(1, 2)\n", SEM, 2, 11,
     "'sin' takes 1 argument, found 2"},
    {"model m\nparam a = sin()\n", SEM, 2, 11,
     "'sin' takes 1 argument, found 0"},
    {"model m\nparam a = sin 1\n", SYN, 2, 15,
     "expected '(' after 'sin', found '1'"},
    {"model m\nparam a = foo(1)\n", SEM, 2, 11, "unknown function 'foo'"},
    {"model m\nparam a = b\n", SEM, 2, 11, "unknown name 'b'"},
    {"model m\nparam a = (1 + 2\n", SYN, 2, 17,
     "expected ')' to close the '(' at 2:11, found end of line"},
    {"model m\nparam a = 1 + 2)\n", SYN, 2, 16,
     "expected end of line after the parameter value, found ')'"},
    {"model m\nparam a = 0^-1\n", SEM, 2, 12,
     "zero raised to a negative power"},
    {"model m\nparam a = 10^10000000\n", SEM, 2, 13,
     "exact constant too large (more than 1048576 bits)"},
    {"model m\nparam a = 1 2\n", SYN, 2, 13,
     "expected end of line after the parameter value, found '2'"},
    {"model m\nparam a = 1e100001\n", SEM, 2, 11,
     "number '1e100001' too large for exact arithmetic"},
    {"model m\nparam a = 2 *\n", SYN, 2, 14,
     "expected an expression, found end of line"},
    {"model m\nparam a = * 2\n", SYN, 2, 11,
     "expected an expression, found '*'"},
    {"model m\nparam a = 1 <\n", SYN, 2, 13,
     "expected end of line after the parameter value, found '<'"},

    /* variables */
    {"model m\nvar x, x\n", SEM, 2, 8,
     "duplicate name 'x': already declared as a variable at line 2"},
    {"model m\nvar x = y\nvar y\n", SEM, 2, 9,
     "'y' is a variable, but a start value must be constant"},
    {"model m\nvar x = t\n", SEM, 2, 9,
     "time 't' cannot appear in a start value"},
    {"model m\nvar x = 1/0\n", SEM, 2, 10, "division by zero"},
    {"model m\nvar x y\n", SYN, 2, 7,
     "expected '=', 'nominal', ',' or end of line after the variable 'x', "
     "found 'y'"},
    {"model m\nvar x = 1 y\n", SYN, 2, 11,
     "expected 'nominal', ',' or end of line after the variable 'x', found "
     "'y'"},
    {"model m\nvar x = 1 nominal 0\n", SEM, 2, 19,
     "the nominal value must be positive (the variable's typical "
     "magnitude)"},
    {"model m\nvar x nominal -1/2\n", SEM, 2, 15,
     "the nominal value must be positive"},
    {"model m\nvar x = 1 nominal\n", SYN, 2, 18, "expected an expression"},
    {"model m\nvar x = 1 nominal 2 nominal 3\n", SYN, 2, 21,
     "a second 'nominal' for the variable 'x'"},
    {"model m\nvar x = 1 nominal y\nvar y\n", SEM, 2, 19,
     "'y' is a variable, but a nominal value must be constant"},
    {"model m\nvar\n", SYN, 2, 4,
     "expected a variable name after 'var', found end of line"},
    {"model m\nvar x,\n", SYN, 2, 7,
     "expected a variable name after 'var', found end of line"},
    {"model m\nvar t\n", SYN, 2, 5, "the reserved word 't'"},
    {"model m\nvar der\n", SYN, 2, 5, "the reserved word 'der'"},
    {"model m\nvar x\nmode x\n  der(x) = 1\nend\n", SEM, 3, 6,
     "duplicate name 'x': already declared as a variable at line 2"},
    {"model m\nvar x\nmode a\n  der(x) = 1\nend\nvar a\n", SEM, 6, 5,
     "duplicate name 'a': already declared as a mode at line 3"},

    /* modes */
    {TOP("mode b\nend\nstart a"), SEM, 6, 1, "mode 'b' has no equations"},
    {"model m\nvar x, y\nmode a\n  der(x) = y\nend\nstart a\n", SEM, 3, 1,
     "mode 'a' (line 3) has 1 equation but 2 variables (x, y): a mode "
     "needs one equation per variable"},
    {IN_MODE("  x = 1"), SEM, 4, 1,
     "mode 'a' (line 4) has 3 equations but 2 variables (x, y)"},
    {"model m\nvar x\nmode a\n  0 = 1\nend\nstart a\n", SEM, 3, 1,
     "mode 'a' (line 3) has 1 equation but 0 variables: a mode needs"},
    {"model m\nvar x\nmode a\n  der(x) = 1\n", SYN, 5, 1,
     "expected 'end' to close mode 'a' (line 3), found end of file"},
    {"model m\nvar x\nmode a\n  der(x) = 1\nmode b\n", SYN, 5, 1,
     "expected 'end' to close mode 'a' (line 3), found 'mode'"},
    {IN_MODE("  var z"), SYN, 7, 3,
     "expected 'end' to close mode 'a' (line 4), found 'var'"},
    {"model m\nvar x\nmode a x\n", SYN, 3, 8,
     "expected end of line after the mode name, found 'x'"},
    {"model m\nmode\n", SYN, 2, 5,
     "expected a mode name after 'mode', found end of line"},
    {"model m\nvar x\nmode a\n  der(x) = 1\nend a\n", SYN, 5, 5,
     "expected end of line after 'end', found 'a'"},
    {"model m\nend\n", SYN, 2, 1, "'end' without a 'mode' to close"},
    {"model m\nvar x\nx = 1\n", SYN, 3, 1,
     "expected a statement (param, var, mode, start, until or chattering), "
     "found 'x'; equations belong inside 'mode NAME ... end'"},
    {"model m\n)\n", SYN, 2, 1,
     "expected a statement (param, var, mode, start, until or chattering), "
     "found ')'"},
    {"model m\nwhen x < 0 goto a\n", SYN, 2, 1,
     "'when' outside of a mode: transitions belong inside 'mode NAME ... "
     "end'"},

    /* equations */
    {IN_MODE("  der(x)"), SYN, 7, 9,
     "expected '=' in the equation, found end of line"},
    {IN_MODE("  x < 0"), SYN, 7, 5,
     "expected '=' in the equation, found '<' (a condition belongs in "
     "'when ... goto MODE')"},
    {IN_MODE("  x = 1 = 2"), SYN, 7, 9,
     "expected end of line after the equation, found '='"},
    {IN_MODE("  x = q"), SEM, 7, 7, "unknown name 'q'"},
    {IN_MODE("  der(g) = x"), SEM, 7, 7,
     "der() takes a variable, found 'g', which is a parameter"},
    {IN_MODE("  der(a) = x"), SEM, 7, 7,
     "der() takes a variable, found 'a', which is a mode"},
    {IN_MODE("  der(t) = x"), SEM, 7, 7,
     "der() takes a variable, found time 't'"},
    {IN_MODE("  der(der(x)) = x"), SYN, 7, 7,
     "der() takes a variable name, found 'der': der(der(x)) is not allowed"},
    {IN_MODE("  der(x + 1) = x"), SYN, 7, 9,
     "expected ')' after the variable in der(), found '+' (der() takes a "
     "variable name, not an expression)"},
    {IN_MODE("  der(2*x) = x"), SYN, 7, 7,
     "der() takes a variable name, found '2'"},
    {IN_MODE("  der(q) = x"), SEM, 7, 7, "unknown variable 'q' in der()"},
    {IN_MODE("  der x = 1"), SYN, 7, 7, "expected '(' after 'der', found 'x'"},
    {IN_MODE("  x = a"), SEM, 7, 7, "'a' is a mode, not a value"},
    {IN_MODE("  x(1) = 1"), SEM, 7, 3, "'x' is a variable, not a function"},
    {IN_MODE("  x = sin(x, y)"), SEM, 7, 7, "'sin' takes 1 argument, found 2"},
    {IN_MODE("  x = exp()"), SEM, 7, 7, "'exp' takes 1 argument, found 0"},
    {IN_MODE("  x = (y + 1"), SYN, 7, 13,
     "expected ')' to close the '(' at 7:7, found end of line"},
    {IN_MODE("  x = sin(y"), SYN, 7, 12,
     "expected ')' to close the arguments of 'sin', found end of line"},
    {IN_MODE("  x = y / 0"), SEM, 7, 9, "division by zero"},
    {IN_MODE("  x = y / (g - 2)"), SEM, 7, 9, "division by zero"},
    {IN_MODE("  x = y +"), SYN, 7, 10,
     "expected an expression, found end of line"},
    {IN_MODE("  x = goto"), SYN, 7, 7, "expected an expression, found 'goto'"},

    /* transitions */
    {IN_MODE("  when x goto a"), SYN, 7, 10,
     "expected '<' or '>' in the guard after 'when', found 'goto'"},
    {IN_MODE("  when x = 0 goto a"), SYN, 7, 10,
     "a guard is a comparison with '<' or '>', found '=' (write 'when a < b "
     "goto MODE')"},
    {IN_MODE("  when x <= 0 goto a"), SYN, 7, 10,
     "'<=' is not allowed in a guard: write '<'"},
    {IN_MODE("  when x >= 0 goto a"), SYN, 7, 10,
     "'>=' is not allowed in a guard: write '>'"},
    {IN_MODE("  when x < 0 a"), SYN, 7, 14,
     "expected 'goto MODE' after the guard, found 'a'"},
    {IN_MODE("  when x < 0 goto b"), SEM, 7, 19,
     "unknown mode 'b' after 'goto'"},
    {IN_MODE("  when x < 0 goto x"), SEM, 7, 19,
     "'x' is a variable, not a mode"},
    {IN_MODE("  when x < 0 goto"), SYN, 7, 18,
     "expected a mode name after 'goto', found end of line"},
    {IN_MODE("  when x < 0 goto a b"), SYN, 7, 21,
     "expected 'with' or end of line after the transition, found 'b'"},
    {IN_MODE("  when x < 0 goto a with q = 1"), SEM, 7, 26,
     "unknown variable 'q' in the reset"},
    {IN_MODE("  when x < 0 goto a with g = 1"), SEM, 7, 26,
     "'g' is a parameter; only variables can be reset"},
    {IN_MODE("  when x < 0 goto a with x = 1, x = 2"), SEM, 7, 33,
     "variable 'x' is assigned twice in one reset (first at 7:26)"},
    {IN_MODE("  when x < 0 goto a with x 1"), SYN, 7, 28,
     "expected '=' after 'x' in the reset, found '1'"},
    {IN_MODE("  when x < 0 goto a with x = 1 y = 2"), SYN, 7, 32,
     "expected ',' or end of line after the transition, found 'y'"},
    {IN_MODE("  when x < 0 goto a with"), SYN, 7, 25,
     "expected a variable name after 'with', found end of line"},
    {IN_MODE("  when der(x) < 0 goto a"), SEM, 7, 8,
     "der() cannot appear in a guard: it is evaluated on the state"},
    {IN_MODE("  when x < 0 goto a with x = der(y)"), SEM, 7, 30,
     "der() cannot appear in a reset"},
    {IN_MODE("  zeno goto a\n  zeno goto a"), SEM, 8, 3,
     "mode 'a' has a second 'zeno' clause (the first is at line 7)"},
    {IN_MODE("  zeno a"), SYN, 7, 8,
     "expected 'goto MODE' after 'zeno', found 'a'"},
    {IN_MODE("  zeno goto c"), SEM, 7, 13, "unknown mode 'c' after 'goto'"},
    {"model m\nvar x, z\nmode a\n  der(x) = 1\n  when z < 0 goto a\nend\n"
     "start a\n",
     SEM, 5, 8,
     "the guard uses 'z', which is not a variable of mode 'a' (it occurs in "
     "none of its equations)"},
    {"model m\nvar x, z\nmode a\n  der(x) = 1\n"
     "  when x < 0 goto a with x = z\nend\nstart a\n",
     SEM, 5, 30,
     "the reset uses 'z', which is not a variable of mode 'a' (right-hand "
     "sides are evaluated on the state of the mode being left)"},
    {"model m\nvar x, z\nmode a\n  der(x) = 1\n"
     "  when x < 0 goto b with x = 1\nend\nmode b\n  der(z) = 1\nend\n"
     "start a\n",
     SEM, 5, 26,
     "the reset assigns 'x', which is not a variable of the target mode 'b' "
     "(it occurs in none of its equations)"},
    {"model m\nvar x, z\nmode a\n  der(x) = 1\n"
     "  zeno goto b with x = 1\nend\nmode b\n  der(z) = 1\nend\n"
     "start a\n",
     SEM, 5, 20,
     "the reset assigns 'x', which is not a variable of the target mode 'b'"},

    /* start, until, chattering and what must be there */
    {TOP(""), SEM, 7, 1,
     "missing 'start MODE [at T0]': the model must name its initial mode"},
    {"model m\nvar x\n", SEM, 3, 1,
     "the model has no modes: expected at least one 'mode NAME ... end'"},
    {"model m", SEM, 1, 8, "the model has no modes"},
    {TOP("start b"), SEM, 6, 7, "unknown mode 'b' after 'start'"},
    {TOP("start x"), SEM, 6, 7, "'x' is a variable, not a mode"},
    {TOP("start"), SYN, 6, 6,
     "expected a mode name after 'start', found end of line"},
    {TOP("start a\nstart a"), SEM, 7, 1,
     "a second 'start' statement (the first is at line 6)"},
    {TOP("start a at t"), SEM, 6, 12,
     "time 't' cannot appear in the start time, which must be constant"},
    {TOP("start a at x"), SEM, 6, 12,
     "'x' is a variable, but the start time must be constant"},
    {TOP("start a at 1/0"), SEM, 6, 13, "division by zero"},
    {TOP("start a 5"), SYN, 6, 9,
     "expected 'at' or end of line after 'start a', found '5'"},
    {TOP("start a at 5\nuntil 5"), SEM, 7, 7,
     "the end time (until) must be after the start time"},
    {TOP("start a at 5\nuntil 49/10"), SEM, 7, 7,
     "the end time (until) must be after the start time"},
    {TOP("until 1\nstart a at 2"), SEM, 6, 7,
     "the end time (until) must be after the start time"},
    {TOP("start a at pi\nuntil 3"), SEM, 7, 7,
     "the end time (until) must be after the start time"},
    {TOP("start a at pi\nuntil 2*pi - pi"), SEM, 7, 7,
     "the end time (until) must be after the start time"},
    {TOP("start a\nuntil x"), SEM, 7, 7,
     "'x' is a variable, but the end time must be constant"},
    {TOP("start a\nuntil 1\nuntil 2"), SEM, 8, 1,
     "a second 'until' statement (the first is at line 7)"},
    {TOP("start a\nuntil"), SYN, 7, 6,
     "expected an expression, found end of line"},
    {TOP("start a\nchattering hysteresis 0"), SEM, 7, 23,
     "the hysteresis width must be positive"},
    {TOP("start a\nchattering hysteresis -1/2"), SEM, 7, 23,
     "the hysteresis width must be positive"},
    {TOP("start a\nchattering hysteresis 3 - pi"), SEM, 7, 23,
     "the hysteresis width must be positive"},
    {TOP("start a\nchattering hysteresis x"), SEM, 7, 23,
     "'x' is a variable, but the hysteresis width must be constant"},
    {TOP("start a\nchattering foo"), SYN, 7, 12,
     "expected 'filippov', 'hysteresis WIDTH' or 'stop' after 'chattering', "
     "found 'foo'"},
    {TOP("start a\nchattering stop\nchattering filippov"), SEM, 8, 1,
     "a second 'chattering' statement (the first is at line 7)"},
    {TOP("start a\nchattering stop x"), SYN, 7, 17,
     "expected end of line after the chattering option, found 'x'"},
};

Test(model_errors, table)
{
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        const error_case *c = cases + i;
        hdo_model_t m;
        hdo_error_t err;
        int status;
        hdo_model_init(m);
        status = hdo_model_parse_string(m, c->src, strlen(c->src), "case.hdae",
                                        &err);
        cr_expect_eq(status, c->status, "case %zu (%s): status %d, want %d", i,
                     c->msg, status, c->status);
        cr_expect_eq(err.status, status, "case %zu: err.status", i);
        cr_expect(err.line == c->line && err.col == c->col,
                  "case %zu (%s): at %d:%d, want %d:%d (message: %s)", i,
                  c->msg, err.line, err.col, c->line, c->col, err.message);
        cr_expect(strstr(err.message, c->msg) != NULL,
                  "case %zu: message\n  '%s'\nlacks\n  '%s'", i, err.message,
                  c->msg);
        cr_expect(err.file != NULL && strcmp(err.file, "case.hdae") == 0,
                  "case %zu: file", i);
        /* A failed parse leaves the model empty but for its file name. */
        cr_expect_eq(m->nmodes, 0, "case %zu: modes left behind", i);
        cr_expect_eq(m->nvars, 0, "case %zu: variables left behind", i);
        cr_expect(err.file == m->file, "case %zu: err.file not the model's", i);
        hdo_model_clear(m);
    }
}

/* The exact line that `hdo` prints, through hdo_error_format. */
Test(model_errors, formatted)
{
    const char *src = "model m\nparam g = 9.81\nvar h\nmode fly\n"
                      "  der(h) = -g\n  when h < 0 goto land\nend\n";
    hdo_model_t m;
    hdo_error_t err;
    char line[1200];
    hdo_model_init(m);
    cr_assert_eq(hdo_model_parse_string(m, src, strlen(src), "ball.hdae", &err),
                 HDO_ERR_SEMANTIC);
    hdo_error_format(line, sizeof line, &err);
    cr_expect_str_eq(line, "ball.hdae:6:19: error: unknown mode 'land' after "
                           "'goto'");
    hdo_model_clear(m);
}

Test(model_errors, missing_file)
{
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(hdo_model_parse_file(m, "/nonexistent/dir/x.hdae", &err),
                 HDO_ERR_IO);
    cr_expect_eq(err.status, HDO_ERR_IO);
    cr_expect_str_eq(err.file, "/nonexistent/dir/x.hdae");
    cr_expect_eq(err.line, 0);
    cr_expect_str_eq(err.message, "cannot open: No such file or directory");
    hdo_model_clear(m);
}

Test(model_errors, directory_is_not_a_model)
{
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(hdo_model_parse_file(m, "/tmp", &err), HDO_ERR_IO);
    cr_expect(strstr(err.message, "Is a directory") != NULL, "%s", err.message);
    hdo_model_clear(m);
}

Test(model_errors, null_error_record)
{
    /* err may be NULL: the status alone tells. */
    hdo_model_t m;
    hdo_model_init(m);
    cr_expect_eq(hdo_model_parse_string(m, "model", 5, NULL, NULL),
                 HDO_ERR_SYNTAX);
    hdo_model_clear(m);
}

/* The hints for the two mistakes a user of textbooks or of C makes most:
   x' for der(x), == for =.  Each says "did you mean" with the fix at the
   place of the mistake; the near misses (a quote that follows no
   variable, '=' '=' apart, '==' where a comparison belongs) get the
   plain message and no hint. */
typedef struct {
    const char *src;
    int line, col;
    const char *msg;
    int hint; /* 1: "did you mean" must be in the message, 0: must not */
} hint_case;

static const hint_case hints[] = {
    {IN_MODE("  x' = y"), 7, 4,
     "unexpected character ''' after 'x': did you mean der(x)?", 1},
    {"model m\nvar ball.h\nmode a\n  ball.h' = 1\nend\nstart a\n", 4, 9,
     "after 'ball.h': did you mean der(ball.h)?", 1},
    {"model m\nvar u[1..2]\nmode a\n  u[1]' = 1\n  der(u[2]) = 1\nend\n", 4, 7,
     "after 'u[1]': did you mean der(u[1])?", 1},
    {IN_MODE("  x'' = y"), 7, 4,
     "did you mean der(x)? (a second derivative needs a variable for "
     "der(x): v = der(x), then der(v))",
     1},
    {IN_MODE("  der(x) == y"), 7, 10,
     "expected '=' in the equation, found '==': did you mean '='?", 1},
    {"model m\nparam g == 9.81\n", 2, 9,
     "after the parameter name 'g', found '==': did you mean '='?", 1},
    {"model m\nvar x == 1\n", 2, 7, "found '==': did you mean '='?", 1},
    {IN_MODE("  when x < 0 goto a with y == 0"), 7, 28,
     "expected '=' after 'y' in the reset, found '==': did you mean '='?", 1},
    /* near misses */
    {IN_MODE("  x ' = y"), 7, 5, "unexpected character '''", 0},
    {IN_MODE("  (x)' = y"), 7, 6, "unexpected character '''", 0},
    {IN_MODE("  2' = y"), 7, 4, "unexpected character '''", 0},
    {IN_MODE("  der(x) = = y"), 7, 12, "expected an expression, found '='", 0},
    {IN_MODE("  when x == 0 goto a"), 7, 10,
     "a guard is a comparison with '<' or '>', found '=='", 0},
    {IN_MODE("  y = if x == 0 then 1 else 2"), 7, 12,
     "'==' is not a comparison: a condition compares with", 0},
};

Test(model_errors, hints)
{
    for (size_t i = 0; i < sizeof hints / sizeof *hints; i++) {
        const hint_case *c = hints + i;
        hdo_model_t m;
        hdo_error_t err;
        hdo_model_init(m);
        int status = hdo_model_parse_string(m, c->src, strlen(c->src),
                                            "case.hdae", &err);
        cr_expect_eq(status, HDO_ERR_SYNTAX, "case %zu: status %d", i, status);
        cr_expect(err.line == c->line && err.col == c->col,
                  "case %zu: at %d:%d, want %d:%d (message: %s)", i, err.line,
                  err.col, c->line, c->col, err.message);
        cr_expect(strstr(err.message, c->msg) != NULL,
                  "case %zu: message\n  '%s'\nlacks\n  '%s'", i, err.message,
                  c->msg);
        cr_expect_eq(strstr(err.message, "did you mean") != NULL, c->hint,
                     "case %zu: hint %s expected: %s", i, c->hint ? "" : "not",
                     err.message);
        hdo_model_clear(m);
    }
}
