/* events.c -- unit tests of event lists: events inferred from a
 * candidate, the events file, cascades */
#include <math.h>
#include <string.h>
#include <criterion/criterion.h>
#include "check.h"

static void
read_csv(hdo_csv_t csv, const char *text)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_csv_init(csv);
    cr_assert_eq(hdo_csv_read_string(csv, text, strlen(text), "c.csv", &err), 0,
                 "%s", err.message);
}

Test(compare, events_inferred_from_repeated_rows)
{
    hdo_csv_t csv;
    hdo_evlist_t l;
    /* 0.25 written twice with the same value is no event (#15); 0.5 is
       (the value jumps), and so is the group at 1 */
    read_csv(csv, "time,h\n0,1\n0.25,2\n0.25,2\n0.5,0\n0.5,-1\n0.75,1\n"
                  "1,1\n1,2\n1,3\n");
    hdo_evlist_init(l);
    cr_assert_eq(hdo_csv_infer_events(l, csv, NULL), 0);
    cr_assert_eq(l->n, 2);
    cr_expect_eq(l->ev[0].t_lo, 0.5);
    cr_expect_eq(l->ev[0].t_hi, 0.5);
    cr_expect_eq(l->ev[0].from, -1);
    cr_expect_eq(l->ev[0].line, 6);
    cr_expect_eq(l->ev[1].t_lo, 1);
    hdo_evlist_clear(l);
    hdo_csv_clear(csv);
}

Test(compare, events_inferred_from_modes)
{
    hdo_csv_t csv;
    hdo_evlist_t l;
    slong map[3] = {10, 20, 30};
    /* fly->fly at 0.5 (repeated rows, no mode change), fly->rest between
       0.8 and 0.9, rest->fly->stop at 1 (two changes in one group). */
    read_csv(csv, "time,mode,h\n0,fly,1\n0.5,fly,0\n0.5,fly,-0.5\n0.8,fly,1\n"
                  "0.9,rest,1\n1,rest,2\n1,fly,3\n1,stop,3\n2,stop,3");
    hdo_evlist_init(l);
    cr_assert_eq(hdo_csv_infer_events(l, csv, map), 0);
    cr_assert_eq(l->n, 4);
    cr_expect(l->ev[0].t_lo == 0.5 && l->ev[0].from == 10 && l->ev[0].to == 10);
    cr_expect(l->ev[1].t_lo == 0.8 && l->ev[1].t_hi == 0.9 &&
              l->ev[1].from == 10 && l->ev[1].to == 20);
    cr_expect(l->ev[2].t_lo == 1 && l->ev[2].from == 20 && l->ev[2].to == 10);
    cr_expect(l->ev[3].t_lo == 1 && l->ev[3].from == 10 && l->ev[3].to == 30);
    hdo_evlist_clear(l);
    hdo_csv_clear(csv);
}

Test(compare, events_events_file)
{
    const char *text = "index,time,from,to,kind,guard\r\n"
                       "1,0.4515,fly,fly,switch,\"h < 0\"\r\n"
                       "2,1.17,fly,rest,sliding-start,\"f, g\"\r\n";
    const char *simple = "time,from,to\n1,,\n2,a,b\n";
    hdo_evfile_t ef;
    hdo_error_t err;
    hdo_evfile_init(ef);
    hdo_error_clear(&err);
    cr_assert_eq(hdo_evfile_read_string(ef, text, strlen(text), "e.csv", &err),
                 0, "%s", err.message);
    cr_expect_eq(ef->n, 2);
    cr_expect_eq(ef->time[1], 1.17);
    cr_expect_str_eq(ef->modes.names[ef->from[1]], "fly");
    cr_expect_str_eq(ef->modes.names[ef->to[1]], "rest");
    hdo_evfile_clear(ef);
    hdo_evfile_init(ef);
    cr_assert_eq(
        hdo_evfile_read_string(ef, simple, strlen(simple), "e.csv", &err), 0,
        "%s", err.message);
    cr_expect_eq(ef->from[0], -1);
    cr_expect_eq(ef->to[0], -1);
    hdo_evfile_clear(ef);
    /* Errors: no 'to' column; times out of order. */
    hdo_evfile_init(ef);
    cr_expect_eq(
        hdo_evfile_read_string(ef, "time,from\n1,a\n", 14, "e.csv", &err),
        HDO_ERR_INPUT);
    hdo_evfile_clear(ef);
    hdo_evfile_init(ef);
    cr_expect_eq(hdo_evfile_read_string(ef, "time,from,to\n2,a,b\n1,a,b\n", 25,
                                        "e.csv", &err),
                 HDO_ERR_INPUT);
    cr_expect_eq(err.line, 3);
    cr_expect_eq(err.col, 1);
    hdo_evfile_clear(ef);
}

/* hdo's own events.csv as an events file: the rows of a kind a candidate
   need not show (crossing, result.h's table) are skipped, every other
   kind is kept, a kind the table does not know too. */
Test(compare, events_file_skips_crossings)
{
    const char *text = "index,time,from,to,kind,guard\n"
                       "1,0.25,a,a,crossing,\"0.25 - t < 0\"\n"
                       "2,0.5,a,b,switch,\"x < 0\"\n"
                       "3,0.75,b,b,crossing,\"t - 0.75 >= 0\"\n"
                       "4,1,b,a,reinit-adjusted,\"y < 0\"\n"
                       "5,1.5,a,b,a-kind-of-its-own,\"z < 0\"\n";
    hdo_evfile_t ef;
    hdo_error_t err;
    hdo_evfile_init(ef);
    hdo_error_clear(&err);
    cr_assert_eq(hdo_evfile_read_string(ef, text, strlen(text), "e.csv", &err),
                 0, "%s", err.message);
    cr_assert_eq(ef->n, 3);
    cr_expect_eq(ef->time[0], 0.5);
    cr_expect_eq(ef->time[1], 1);
    cr_expect_eq(ef->time[2], 1.5);
    hdo_evfile_clear(ef);
}

/* A cascade: events whose times differ by a few units in the last place
   are one event from the first's from to the last's to; an event known
   only as an interval is never merged, nor are events further apart. */
Test(compare, events_cascades_merge)
{
    hdo_evlist_t l;
    double z = 2.5586339655858081, z1 = nextafter(z, 3);
    hdo_evlist_init(l);
    hdo_evlist_push(l, 1.0, 1.0, 0, 0, 0);
    hdo_evlist_push(l, z, z, 0, 0, 0);
    hdo_evlist_push(l, z, z, 0, 0, 0);
    hdo_evlist_push(l, z1, z1, 0, 1, 0);
    hdo_evlist_push(l, z1, 2.6, 1, 0, 0);
    hdo_evlist_push(l, 2.7, 2.7, 0, 1, 0);
    cr_assert_eq(hdo_evlist_merge_cascades(l), 0);
    cr_assert_eq(l->n, 4);
    cr_expect(l->ev[1].t_lo == z && l->ev[1].t_hi == z1);
    cr_expect(l->ev[1].from == 0 && l->ev[1].to == 1 && l->ev[1].count == 3);
    cr_expect(l->ev[2].t_hi == 2.6 && l->ev[2].count == 1);
    cr_expect(l->ev[3].t_lo == 2.7);
    hdo_evlist_clear(l);
}

/* The jump rule (issue 26): a column jumps when its two values differ by
   more than value_abs + value_rel max(|a|, |b|); at the band itself it
   does not, just above it it does; an empty cell beside a value does. */
Test(compare, cells_jump_at_the_band)
{
    double b = 1e-6 + 1e-6 * 2; /* the band of 1 and 2 at 1e-6, 1e-6 */
    cr_expect(!hdo_cells_jump(1, 1, 1, 1, 0, 0));
    cr_expect(hdo_cells_jump(1, 1, nextafter(1, 2), 1, 0, 0));
    cr_expect(!hdo_cells_jump(2, 1, 2 - b / 2, 1, 1e-6, 1e-6));
    cr_expect(hdo_cells_jump(2, 1, 2 - 2 * b, 1, 1e-6, 1e-6));
    cr_expect(hdo_cells_jump(2, 1, NAN, 0, 1e-6, 1e-6));
    cr_expect(!hdo_cells_jump(NAN, 0, NAN, 0, 1e-6, 1e-6));
    cr_expect(!hdo_cells_jump(NAN, 1, NAN, 1, 0, 0));
    cr_expect(hdo_cells_jump(NAN, 1, 1, 1, 1, 1));
}

/* Rows at one time where only a column that is not compared changes
   (OpenModelica's discrete impact after an event) are no event; a
   compared column that jumps makes one; a change within the band does
   not. */
Test(compare, events_only_compared_columns)
{
    hdo_csv_t csv;
    hdo_evlist_t l;
    slong col[1] = {0}; /* h only; impact is column 1 */
    read_csv(csv, "time,h,impact\n0,1,0\n0.5,0,0\n0.5,-1,0\n"
                  "0.50000000006,-1,0\n0.50000000006,-1,1\n0.7,1,1\n"
                  "0.7,1.0000001,1\n1,2,1\n");
    hdo_evlist_init(l);
    cr_assert_eq(hdo_csv_infer_events_on(l, csv, NULL, col, 1, 1e-6, 1e-6), 0);
    cr_assert_eq(l->n, 1);
    cr_expect_eq(l->ev[0].t_lo, 0.5);
    hdo_evlist_clear(l);
    /* every column, any difference: impact's change and the 1e-7 are
       events too */
    hdo_evlist_init(l);
    cr_assert_eq(hdo_csv_infer_events(l, csv, NULL), 0);
    cr_expect_eq(l->n, 3);
    hdo_evlist_clear(l);
    hdo_csv_clear(csv);
}

/* Co-simulation double rows (issue 26): recognised only as a whole; the
   first row of each pair (the held value) is left out. */
Test(compare, cosim_rows_recognised)
{
    hdo_csv_t csv;
    double h;
    read_csv(csv, "time,x\n0,1\n0.1,1\n0.1,0.9\n0.2,0.9\n0.2,0.8\n"
                  "0.3,0.8\n0.3,0.7\n");
    cr_assert_eq(hdo_csv_cosim_rows(csv, &h), 3);
    cr_expect_eq(csv->nrows, 4);
    cr_expect(fabs(h - 0.1) < 1e-15);
    cr_expect(csv->time[1] == 0.1 && csv->values[1] == 0.9);
    cr_expect(csv->time[3] == 0.3 && csv->values[3] == 0.7);
    cr_expect_eq(csv->line[3], 8);
    hdo_csv_clear(csv);
}

/* Dymola's times are floats: 0.1 is written 0.10000000149011612 and the
   grid holds within the rounding of a float. */
Test(compare, cosim_rows_single_precision_times)
{
    hdo_csv_t csv;
    double h;
    read_csv(csv, "time,x\n0,1\n0.10000000149011612,1\n"
                  "0.10000000149011612,0.9\n0.20000000298023224,0.9\n"
                  "0.20000000298023224,0.8\n0.30000001192092896,0.8\n"
                  "0.30000001192092896,0.7\n");
    cr_assert_eq(hdo_csv_cosim_rows(csv, &h), 3);
    cr_expect_eq(csv->nrows, 4);
    cr_expect(fabs(h - 0.1) < 1e-7);
    hdo_csv_clear(csv);
    /* off the grid by more than a float's rounding (0.3 + 2.4e-7, a
       float too): not one grid */
    read_csv(csv, "time,x\n0,1\n0.10000000149011612,1\n"
                  "0.10000000149011612,0.9\n0.20000000298023224,0.9\n"
                  "0.20000000298023224,0.8\n0.30000025033950806,0.8\n"
                  "0.30000025033950806,0.7\n0.40000000596046448,0.7\n"
                  "0.40000000596046448,0.6\n");
    cr_expect_eq(hdo_csv_cosim_rows(csv, &h), 0);
    hdo_csv_clear(csv);
    /* the same offset with double times is not on a grid either, and a
       double 0.10000000149011612 among doubles is off by 1.5e-9 */
    read_csv(csv, "time,x\n0,1\n0.10000000149011612,1\n"
                  "0.10000000149011612,0.9\n0.2,0.9\n0.2,0.8\n"
                  "0.3,0.8\n0.3,0.7\n");
    cr_expect_eq(hdo_csv_cosim_rows(csv, &h), 0);
    hdo_csv_clear(csv);
}

Test(compare, cosim_rows_not_recognised)
{
    static const char *files[] = {
        /* the first row of a pair is not the previous value */
        "time,x\n0,1\n0.1,1\n0.1,0.9\n0.2,0.85\n0.2,0.8\n0.3,0.8\n0.3,0.7\n",
        /* one output time with one row */
        "time,x\n0,1\n0.1,1\n0.1,0.9\n0.2,0.9\n0.3,0.9\n0.3,0.7\n",
        /* not one grid */
        "time,x\n0,1\n0.1,1\n0.1,0.9\n0.25,0.9\n0.25,0.8\n0.3,0.8\n0.3,0.7\n",
        /* every pair identical: nothing to leave out */
        "time,x\n0,1\n0.1,1\n0.1,1\n0.2,1\n0.2,1\n0.3,1\n0.3,1\n",
        /* two output times only */
        "time,x\n0,1\n0.1,1\n0.1,0.9\n"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        hdo_csv_t csv;
        double h;
        read_csv(csv, files[k]);
        slong n = csv->nrows;
        cr_expect_eq(hdo_csv_cosim_rows(csv, &h), 0, "file %zu", k);
        cr_expect_eq(csv->nrows, n);
        cr_expect(isnan(h));
        hdo_csv_clear(csv);
    }
}
