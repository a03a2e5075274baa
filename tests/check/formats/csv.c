/* csv.c -- unit tests of the candidate CSV reader: accepted syntax and every
 * error with its place */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include "check.h"

static int
read_n(hdo_csv_t csv, const char *text, size_t len, hdo_error_t *err)
{
    hdo_error_clear(err);
    hdo_csv_init(csv);
    return hdo_csv_read_string(csv, text, len, "c.csv", err);
}

/* Expects text to fail at line:col with a message containing what. */
static void
expect_error(const char *text, int line, int col, const char *what)
{
    hdo_csv_t csv;
    hdo_error_t err;
    char buf[1500];
    int st = read_n(csv, text, strlen(text), &err);
    hdo_error_format(buf, sizeof buf, &err);
    cr_expect_eq(st, HDO_ERR_INPUT, "%s: status %d", text, st);
    cr_expect_eq(err.line, line, "%s: %s", text, buf);
    cr_expect_eq(err.col, col, "%s: %s", text, buf);
    cr_expect(strstr(err.message, what) != NULL, "%s: %s", text, buf);
    cr_expect(strncmp(buf, "c.csv:", 6) == 0, "%s", buf);
    hdo_csv_clear(csv);
}

Test(compare, csv_reads_values_modes_and_events)
{
    const char *text = "time,mode,h,v\n0,fly,1,0\n0.5,fly,-0.25,-4.9\n"
                       "0.5,fly,-0.25,3.92\n1,rest,0,\n";
    hdo_csv_t csv;
    hdo_error_t err;
    cr_assert_eq(read_n(csv, text, strlen(text), &err), 0, "%s", err.message);
    cr_expect_eq(csv->ncols, 2);
    cr_expect_str_eq(csv->names[0], "h");
    cr_expect_str_eq(csv->names[1], "v");
    cr_expect_eq(csv->name_col[1], 13);
    cr_expect_eq(csv->has_mode, 1);
    cr_expect_eq(csv->mode_col, 2);
    cr_expect_eq(csv->nrows, 4);
    cr_expect_eq(csv->time[2], 0.5);
    cr_expect_eq(csv->values[2 * 2 + 1], 3.92);
    cr_expect_eq(csv->values[1 * 2 + 0], -0.25);
    cr_expect_eq(csv->present[3 * 2 + 1], 0);
    cr_expect_eq(csv->present[3 * 2 + 0], 1);
    cr_expect_eq(csv->modes.n, 2);
    cr_expect_str_eq(csv->modes.names[csv->mode[3]], "rest");
    cr_expect_eq(csv->line[3], 5);
    cr_expect_eq(hdo_csv_find_column(csv, "v"), 1);
    cr_expect_eq(hdo_csv_find_column(csv, "mode"), -1);
    hdo_csv_clear(csv);
}

/* CRLF, no final newline, a byte order mark, blank lines, blanks around
   cells, quotes, and every strtod syntax. */
Test(compare, csv_tolerant_syntax)
{
    const char *text = "\xEF\xBB\xBF"
                       "\"time\" , \"h\"\r\n"
                       "\r\n"
                       "  0 ,\t1e0\r\n"
                       "0x1p-1,\"-2.5E-1\"\r\n"
                       "   \r\n"
                       "1,inf\r\n"
                       "1,NaN\r\n"
                       "2.,.5";
    hdo_csv_t csv;
    hdo_error_t err;
    cr_assert_eq(read_n(csv, text, strlen(text), &err), 0, "%d:%d %s", err.line,
                 err.col, err.message);
    cr_assert_eq(csv->nrows, 5);
    cr_expect_eq(csv->time[1], 0.5);
    cr_expect_eq(csv->values[0], 1.0);
    cr_expect_eq(csv->values[1], -0.25);
    cr_expect(isinf(csv->values[2]));
    cr_expect(isnan(csv->values[3]));
    cr_expect_eq(csv->values[4], 0.5);
    cr_expect_eq(csv->line[4], 8);
    hdo_csv_clear(csv);
}

/* The process locale does not change the decimal point.  Skipped where no
   locale with a decimal comma is installed. */
Test(compare, csv_c_locale_whatever_the_process_locale)
{
    const char *text = "time,h\n0.5,1.25\n";
    hdo_csv_t csv;
    hdo_error_t err;
    char *old = strdup(setlocale(LC_NUMERIC, NULL));
    int st;
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL &&
        setlocale(LC_NUMERIC, "fr_FR.UTF-8") == NULL) {
        free(old);
        cr_skip_test("no locale with a decimal comma installed");
    }
    cr_assert_eq(strtod("1,25", NULL), 1.25, "the locale has a decimal comma");
    st = read_n(csv, text, strlen(text), &err);
    setlocale(LC_NUMERIC, old);
    free(old);
    cr_expect_eq(st, 0, "%s", err.message);
    if (st == 0)
        cr_expect_eq(csv->values[0], 1.25);
    hdo_csv_clear(csv);
}

Test(compare, csv_errors_with_place)
{
    expect_error("", 1, 1, "empty file");
    expect_error("\n\n  \n", 1, 1, "empty file");
    expect_error("time,h\n", 2, 1, "at least one data row");
    expect_error("x,h\n0,1\n", 1, 1, "'time'");
    expect_error("time,y\n0,\"1 2\"\n1,\"1 2 3\"\n", 3, 3,
                 "expected 2 numbers");
    expect_error("h,time\n0,1\n", 1, 1, "'time'");
    expect_error("time,h,h\n0,1,2\n", 1, 8, "appears twice");
    expect_error("time,h,\n0,1,2\n", 1, 8, "empty column name");
    expect_error("time,mode,mode\n0,a,b\n", 1, 11, "second 'mode'");
    expect_error("time,h,v\n0,1,2\n1,2\n", 3, 4, "expected 3 cells");
    expect_error("time,h,v\n0,1,2\n1,2,3,4\n", 3, 7, "expected 3 cells");
    expect_error("time,h\n0,1\n1,abc\n", 3, 3, "found 'abc'");
    expect_error("time,h\n0,1\n1,1.5x\n", 3, 3, "found '1.5x'");
    expect_error("time,h\n0,1\n1,1.5 2\n", 3, 3, "found '1.5 2'");
    expect_error("time,h\n0,1\n,1\n", 3, 1, "empty cell");
    expect_error("time,h\n0,1\nnan,1\n", 3, 1, "finite");
    expect_error("time,h\n0,1\n1e999,1\n", 3, 1, "beyond the range");
    expect_error("time,h\n0,1\n1,-1e999\n", 3, 3, "beyond the range");
    expect_error("time,h\n0,1\n2,1\n2,1\n1.5,1\n", 5, 1, "time goes backwards");
    expect_error("time,h\r\n0,1\r\n1,\"2\r\n", 3, 3, "unterminated");
    expect_error("time,h\n0,\"1\"x\n", 2, 6, "after a quoted cell");
    expect_error("time,h\n0,1\"\n", 2, 4, "quote inside");
    expect_error("time,mode,h\n0,,1\n", 2, 3, "mode name");
    expect_error("time,h\n0,\f1\n", 2, 3, "expected a number");
}

/* A NUL byte inside a cell is an error, not the end of the cell. */
Test(compare, csv_nul_bytes)
{
    const char text[] = "time,h\n0,1\0junk\n";
    hdo_csv_t csv;
    hdo_error_t err;
    cr_expect_eq(read_n(csv, text, sizeof text - 1, &err), HDO_ERR_INPUT);
    cr_expect_eq(err.line, 2);
    cr_expect(strstr(err.message, "\\x00") != NULL, "%s", err.message);
    hdo_csv_clear(csv);
}

/* 200000 rows of 3 columns from a file, values checked against the
   formula that wrote them. */
Test(compare, csv_large_file)
{
    char path[] = "/tmp/hdo-csv-test-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    hdo_csv_t csv;
    hdo_error_t err;
    long n = 200000;
    cr_assert(f != NULL);
    fprintf(f, "time,a,b,c\n");
    for (long i = 0; i < n; i++)
        fprintf(f, "%ld,%ld,%ld.5,-%ld\n", i / 2, 3 * i, i, i);
    fclose(f);
    hdo_csv_init(csv);
    hdo_error_clear(&err);
    cr_assert_eq(hdo_csv_read_file(csv, path, &err), 0, "%s", err.message);
    remove(path);
    cr_assert_eq(csv->nrows, n);
    for (long i = 0; i < n; i += 9973) {
        cr_expect_eq(csv->time[i], (double)(i / 2));
        cr_expect_eq(csv->values[3 * i], 3.0 * i);
        cr_expect_eq(csv->values[3 * i + 1], i + 0.5);
        cr_expect_eq(csv->values[3 * i + 2], -(double)i);
    }
    hdo_csv_clear(csv);
}

Test(compare, csv_missing_file)
{
    hdo_csv_t csv;
    hdo_error_t err;
    char buf[1500];
    hdo_csv_init(csv);
    hdo_error_clear(&err);
    cr_expect_eq(hdo_csv_read_file(csv, "/nonexistent/x.csv", &err),
                 HDO_ERR_IO);
    hdo_error_format(buf, sizeof buf, &err);
    cr_expect(strstr(buf, "/nonexistent/x.csv") != NULL, "%s", buf);
    hdo_csv_clear(csv);
}

/* The dialects of other tools (#15): the time column named Time or t;
   ';', tab or whitespace separators found from the header; `#` comment
   lines; quoted names; CRLF; FMI 3 array cells. */
static void
expect_table(const char *text, const char *names, slong nrows,
             const double *vals)
{
    hdo_csv_t csv;
    hdo_error_t err;
    char got[256] = "";
    cr_assert_eq(read_n(csv, text, strlen(text), &err), 0, "%s: %d:%d %s", text,
                 err.line, err.col, err.message);
    for (slong i = 0; i < csv->ncols; i++) {
        strcat(got, i ? " " : "");
        strcat(got, csv->names[i]);
    }
    cr_expect_str_eq(got, names, "%s", text);
    cr_assert_eq(csv->nrows, nrows, "%s", text);
    for (slong k = 0; k < nrows * (csv->ncols + 1); k++) {
        slong r = k / (csv->ncols + 1), c = k % (csv->ncols + 1);
        double x = c == 0 ? csv->time[r] : csv->values[r * csv->ncols + c - 1];
        cr_expect_eq(x, vals[k], "%s: row %ld column %ld: %g", text, (long)r,
                     (long)c, x);
    }
    hdo_csv_clear(csv);
}

Test(compare, csv_dialects)
{
    const double v2[] = {0, 1, 2, 0.5, 3, 4};
    const double v3[] = {0, 1, 2, 3, 1, 4, 5, 6};
    expect_table("Time;h;v\n0;1;2\n0.5;3;4\n", "h v", 2, v2);
    expect_table("t\th\tv\r\n0\t1\t2\r\n0.5\t3\t4\r\n", "h v", 2, v2);
    expect_table("  time   h    v\n  0  1 2  \n0.5\t3   4\n", "h v", 2, v2);
    expect_table("# written by a solver\n\"time\",\"ball.h\",\"der(h)\"\n"
                 "# a comment between rows\n0,1,2\n0.5,3,4\n",
                 "ball.h der(h)", 2, v2);
    expect_table("time,\"y\"\n0,\"1 2 3\"\n1,\"4  5 6\"\n", "y[1] y[2] y[3]", 2,
                 v3);
    expect_table("time;y\n0;1 2 3\n1;4 5 6\n", "y[1] y[2] y[3]", 2, v3);
}
