/* tol.c -- unit tests of the tolerance file reader */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include "check.h"

static int
read_tol(hdo_tol_t tol, const char *text, hdo_error_t *err)
{
    hdo_error_clear(err);
    hdo_tol_init(tol);
    return hdo_tol_read_string(tol, text, strlen(text), "x.tol", err);
}

Test(compare, tol_defaults)
{
    hdo_tol_t tol;
    hdo_error_t err;
    cr_assert_eq(read_tol(tol, "# nothing set\n\n", &err), 0);
    cr_expect_eq(tol->time_abs, 1e-6);
    cr_expect_eq(tol->value_abs, 1e-8);
    cr_expect_eq(tol->value_rel, 1e-6);
    cr_expect_eq(tol->modes_exact, 1);
    cr_expect_eq(tol->has_variables, 0);
    hdo_tol_clear(tol);
}

Test(compare, tol_all_keys)
{
    const char *text = "# ball\n"
                       "time_abs  = 2e-6      # events\n"
                       "value_abs=0.5\r\n"
                       "  value_rel = 0 \n"
                       "variables = h v,w\n"
                       "modes     = ignore";
    hdo_tol_t tol;
    hdo_error_t err;
    cr_assert_eq(read_tol(tol, text, &err), 0, "%d:%d %s", err.line, err.col,
                 err.message);
    cr_expect_eq(tol->time_abs, 2e-6);
    cr_expect_eq(tol->value_abs, 0.5);
    cr_expect_eq(tol->value_rel, 0);
    cr_expect_eq(tol->modes_exact, 0);
    cr_assert_eq(tol->nvariables, 3);
    cr_expect_str_eq(tol->variables[0].name, "h");
    cr_expect_str_eq(tol->variables[2].name, "w");
    cr_expect_eq(tol->variables[2].line, 5);
    cr_expect_eq(tol->variables[2].col, 17);
    hdo_tol_clear(tol);
}

static void
expect_error(const char *text, int line, int col, const char *what)
{
    hdo_tol_t tol;
    hdo_error_t err;
    cr_expect_eq(read_tol(tol, text, &err), HDO_ERR_INPUT, "%s", text);
    cr_expect_eq(err.line, line, "%s: %s", text, err.message);
    cr_expect_eq(err.col, col, "%s: %s", text, err.message);
    cr_expect(strstr(err.message, what) != NULL, "%s: %s", text, err.message);
    hdo_tol_clear(tol);
}

Test(compare, tol_errors)
{
    expect_error("time_abs = 1\ntol = 3\n", 2, 1, "unknown key 'tol'");
    expect_error("timeabs=1\n", 1, 1, "unknown key");
    expect_error("time_abs = 1\n\ntime_abs = 2\n", 3, 1, "twice");
    expect_error("value_abs 1e-8\n", 1, 11, "expected '='");
    expect_error("value_abs =\n", 1, 12, "expected a value");
    expect_error("value_abs = # none\n", 1, 12, "expected a value");
    expect_error("value_rel = 1e-6x\n", 1, 13, "expected a number");
    expect_error("value_rel = 1,5\n", 1, 13, "expected a number");
    expect_error("time_abs = -1\n", 1, 12, ">= 0");
    expect_error("time_abs = inf\n", 1, 12, ">= 0");
    expect_error("modes = strict\n", 1, 9, "'exact' or 'ignore'");
    expect_error("variables = h h\n", 1, 15, "twice");
    expect_error("variables = h; v\n", 1, 14, "variable name");
    /* an index must be digits in brackets, and a name cannot start with a
       dot or a bracket */
    expect_error("variables = u[i]\n", 1, 14, "variable name");
    expect_error("variables = u[]\n", 1, 14, "variable name");
    expect_error("variables = u[1\n", 1, 14, "variable name");
    expect_error("variables = .h\n", 1, 13, "variable name");
    expect_error("variables = [1]\n", 1, 13, "variable name");
    expect_error("variables = u[1] u[1]\n", 1, 18, "twice");
}

/* Array elements and hierarchical names (model format v2) are the output
   columns' names, so a tolerance file names them as they are. */
Test(compare, tol_array_and_dotted_names)
{
    hdo_tol_t tol;
    hdo_error_t err;
    cr_assert_eq(
        read_tol(tol, "variables = u[10] ball.h, w[0] c.C1.v x\n", &err), 0,
        "%d:%d %s", err.line, err.col, err.message);
    cr_assert_eq(tol->nvariables, 5);
    cr_expect_str_eq(tol->variables[0].name, "u[10]");
    cr_expect_str_eq(tol->variables[1].name, "ball.h");
    cr_expect_str_eq(tol->variables[2].name, "w[0]");
    cr_expect_str_eq(tol->variables[3].name, "c.C1.v");
    cr_expect_str_eq(tol->variables[4].name, "x");
    cr_expect_eq(tol->variables[2].col, 27);
    hdo_tol_clear(tol);
}

/* The map: entries in order with their place, a later entry (--map, line
   0) overriding a file entry, a name not mapped standing for itself. */
Test(compare, tol_map)
{
    hdo_tol_t tol;
    hdo_error_t err;
    cr_assert_eq(read_tol(tol, "# columns\nmap = ball.h=h  ball.v=v\n", &err),
                 0, "%s", err.message);
    cr_assert_eq(tol->nmap, 2);
    cr_expect_str_eq(tol->map[1].from, "ball.v");
    cr_expect_str_eq(tol->map[1].to, "v");
    cr_expect_eq(tol->map[1].line, 2);
    cr_expect_eq(tol->map[1].col, 17);
    cr_expect_str_eq(hdo_tol_map_name(tol, "ball.h"), "h");
    cr_expect_str_eq(hdo_tol_map_name(tol, "x"), "x");
    cr_assert_eq(hdo_tol_add_map(tol, "ball.h", 6, "w", 1, 0, 0, &err), 0);
    cr_expect_str_eq(hdo_tol_map_name(tol, "ball.h"), "w");
    cr_expect_str_eq(hdo_tol_map_name(tol, "ball.v"), "v");
    hdo_tol_clear(tol);
    expect_error("map = a=x a=y\n", 1, 11, "mapped twice");
}

/* 40 variables and 40 map entries: the tables grow past their first
   allocation (16 entries) and keep every entry with its column. */
Test(compare, tol_many_entries)
{
    char text[2048], *p = text;
    p += sprintf(p, "variables =");
    for (int i = 0; i < 40; i++)
        p += sprintf(p, " v%02d", i);
    p += sprintf(p, "\nmap =");
    for (int i = 0; i < 40; i++)
        p += sprintf(p, " c%02d=v%02d", i, i);
    sprintf(p, "\n");
    hdo_tol_t tol;
    hdo_error_t err;
    cr_assert_eq(read_tol(tol, text, &err), 0, "%s", err.message);
    cr_assert_eq(tol->nvariables, 40);
    cr_assert_eq(tol->nmap, 40);
    for (int i = 0; i < 40; i++) {
        char v[8], c[8];
        snprintf(v, sizeof v, "v%02d", i);
        snprintf(c, sizeof c, "c%02d", i);
        cr_expect_str_eq(tol->variables[i].name, v);
        /* "variables =" is 11 characters, then " vNN" per name */
        cr_expect_eq(tol->variables[i].col, 13 + 4 * i);
        cr_expect_eq(tol->variables[i].line, 1);
        cr_expect_str_eq(hdo_tol_map_name(tol, c), v);
        /* "map =" is 5 characters, then " cNN=vNN" per entry */
        cr_expect_eq(tol->map[i].col, 7 + 8 * i);
        cr_expect_eq(tol->map[i].line, 2);
    }
    hdo_tol_clear(tol);
}
