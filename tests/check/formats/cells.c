/* cells.c -- a CSV file read as text (hdo_csv_cells): every cell as
 * written, the header as row -1, and malformed rows at their place */
#include <criterion/criterion.h>
#include <string.h>
#include "check.h"

static int
read_cells(hdo_csv_cells_t c, const char *text, hdo_error_t *err)
{
    hdo_csv_cells_init(c);
    hdo_error_clear(err);
    return hdo_csv_cells_read_string(c, text, strlen(text), "t.csv", err);
}

Test(csv_cells, cells_as_written)
{
    hdo_csv_cells_t c;
    hdo_error_t err;
    const char *t = "time,mode,x\n\n0.000e+00,a, 1.5000000000000000000001\n"
                    "1,\"b,c\",\n";
    cr_assert_eq(read_cells(c, t, &err), 0, "%s", err.message);
    cr_expect_eq(c->ncols, 3);
    cr_expect_eq(c->nrows, 2);
    cr_expect_str_eq(hdo_csv_cell(c, -1, 2), "x");
    /* the digits as written, blanks trimmed, not a double */
    cr_expect_str_eq(hdo_csv_cell(c, 0, 0), "0.000e+00");
    cr_expect_str_eq(hdo_csv_cell(c, 0, 2), "1.5000000000000000000001");
    cr_expect_str_eq(hdo_csv_cell(c, 1, 1), "b,c");
    cr_expect_str_eq(hdo_csv_cell(c, 1, 2), "");
    /* lines as in the file: the blank line skipped */
    cr_expect_eq(c->line[0], 1);
    cr_expect_eq(c->line[1], 3);
    cr_expect_eq(c->line[2], 4);
    hdo_csv_cells_clear(c);
}

Test(csv_cells, errors_at_their_place)
{
    static const struct {
        const char *text, *msg;
        int line, col;
    } cases[] = {
        {"", "empty file: expected a header line", 1, 1},
        {"a,b\n1,2,3\n", "expected 2 cells as in the header, found 3", 2, 5},
        {"a,b\n1\n", "expected 2 cells as in the header, found 1", 2, 2},
        {"a,b\n1,\"2\n", "unterminated quoted cell", 2, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hdo_csv_cells_t c;
        hdo_error_t err;
        cr_expect_eq(read_cells(c, cases[i].text, &err), HDO_ERR_INPUT,
                     "case %zu", i);
        cr_expect(err.line == cases[i].line && err.col == cases[i].col,
                  "case %zu: at %d:%d (%s)", i, err.line, err.col, err.message);
        cr_expect(strstr(err.message, cases[i].msg) != NULL, "case %zu: %s", i,
                  err.message);
        cr_expect_str_eq(err.file, "t.csv");
        hdo_csv_cells_clear(c);
    }
}
