/* compare.c -- the comparison of golden references on small results
 * written here: the 35-digit rule on each side of its two thresholds
 * (FLINT's rule: moving 35 or the floor's 10^-5 fails one of them), the
 * events, the structure, the summary keys and the order of the report */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "golden.h"

/* x = 1 and lambda = 0 at t = 0; x = 1/2 and lambda = 1 at t = 1 (so the
   scale S of lambda is 1); one event at 0.5; 40 digits. */
#define X0 "1.000000000000000000000000000000000000000e+00"
#define TRAJ_HEAD "time,mode,x,lambda\n"
#define ROW1 "1.000000000000000000000000000000000000000e+00,a,5.000e-01,1\n"
#define EVENTS "index,time,from,to,kind,guard\n1,5.000e-01,a,a,switch,x < 0\n"
#define SUMMARY                                                                \
    "{\n  \"model\": \"m\",\n  \"file\": \"m.hdae\",\n  \"digits\": 40,\n"     \
    "  \"t0\": 0.0e+00,\n  \"t_end\": 1.0e+00,\n  \"steps\": 3,\n"             \
    "  \"events\": 1,\n  \"seconds\": 0.01,\n  \"verified_digits\": 40,\n"     \
    "  \"parameters\": {\"e\": 8.0e-01}\n}\n"

static void
put(hdo_golden_files_t g, const char *where, const char *traj,
    const char *events, const char *summary, const char *record)
{
    const char *text[HDO_GOLDEN_NFILES] = {traj, events, summary, record};
    hdo_golden_files_init(g);
    g->where = strdup(where);
    for (int k = 0; k < HDO_GOLDEN_NFILES; k++) {
        cr_assert(
            asprintf(g->path + k, "%s/%s", where, hdo_golden_file_name(k)) > 0);
        if (text[k] != NULL) {
            g->text[k] = strdup(text[k]);
            g->len[k] = strlen(text[k]);
        }
    }
}

/* The trajectory with row 0 "0,a,X,LAMBDA". */
static char *
traj(const char *x, const char *lambda)
{
    char *t = NULL;
    cr_assert(asprintf(&t, TRAJ_HEAD "0,a,%s,%s\n" ROW1, x, lambda) > 0);
    return t;
}

/* Compares stored (x = 1, lambda = 0, stored_summary) with fresh;
   returns the number of differences, c filled. */
static slong
against_summary(hdo_golden_cmp_t c, const char *stored_summary,
                const char *fresh_traj, const char *fresh_events,
                const char *fresh_summary, long need)
{
    hdo_golden_files_t a, b;
    hdo_error_t err;
    char *ta = traj(X0, "0");
    put(a, "stored", ta, EVENTS, stored_summary, NULL);
    put(b, "fresh", fresh_traj, fresh_events, fresh_summary, NULL);
    hdo_golden_cmp_init(c);
    cr_assert_eq(hdo_golden_compare(c, a, b, need, &err), 0, "%s", err.message);
    hdo_golden_files_clear(a);
    hdo_golden_files_clear(b);
    free(ta);
    return c->ndiffs;
}

/* The same against SUMMARY. */
static slong
against(hdo_golden_cmp_t c, const char *fresh_traj, const char *fresh_events,
        const char *fresh_summary, long need)
{
    return against_summary(c, SUMMARY, fresh_traj, fresh_events, fresh_summary,
                           need);
}

/* x changed by 0.999e-35 of itself passes, by 1.001e-35 fails: the
   values are exact decimals (1 + 9.99e-36 and 1 + 1.001e-35). */
Test(golden_compare, thirty_five_digits_both_sides)
{
    hdo_golden_cmp_t c;
    char *t;
    t = traj("1.00000000000000000000000000000000000999", "0");
    cr_expect_eq(against(c, t, EVENTS, SUMMARY, 35), 0);
    cr_expect(c->worst > 35 && c->worst < 35.01, "worst %g", c->worst);
    cr_expect_eq(c->cap, 40);
    hdo_golden_cmp_clear(c);
    free(t);
    t = traj("1.00000000000000000000000000000000001001", "0");
    cr_expect_eq(against(c, t, EVENTS, SUMMARY, 35), 1);
    cr_assert_eq(c->nshown, 1);
    cr_expect_eq(c->shown[0].file, HDO_GOLDEN_TRAJECTORY);
    cr_expect_eq(c->shown[0].part, HDO_GOLDEN_PART_VALUES);
    cr_expect_str_eq(c->shown[0].message,
                     "line 2 (t = 0) column x: stored " X0
                     ", fresh 1.00000000000000000000000000000000001001: 35.0 "
                     "digits (need 35)");
    cr_expect(c->worst < 35 && c->worst > 34.99, "worst %g", c->worst);
    hdo_golden_cmp_clear(c);
    /* the same fresh value, asked for 34 digits: it passes */
    cr_expect_eq(against(c, t, EVENTS, SUMMARY, 34), 0);
    hdo_golden_cmp_clear(c);
    free(t);
}

/* lambda = 0 against 0.999 and 1.001 times 10^-40 S (S = 1, the
   column's largest magnitude): absolute below 10^-5 S. */
Test(golden_compare, floor_both_sides)
{
    hdo_golden_cmp_t c;
    char *t = traj(X0, "9.99e-41");
    cr_expect_eq(against(c, t, EVENTS, SUMMARY, 35), 0);
    hdo_golden_cmp_clear(c);
    free(t);
    t = traj(X0, "1.001e-40");
    cr_expect_eq(against(c, t, EVENTS, SUMMARY, 35), 1);
    cr_expect(strstr(c->shown[0].message, "column lambda: stored 0, fresh "
                                          "1.001e-40") != NULL,
              "%s", c->shown[0].message);
    hdo_golden_cmp_clear(c);
    free(t);
}

Test(golden_compare, identical_and_notes)
{
    hdo_golden_cmp_t c;
    char *t = traj(X0, "0");
    const char *s = "{\n  \"model\": \"m\",\n  \"file\": \"other/m.hdae\",\n"
                    "  \"digits\": 40,\n  \"t0\": 0,\n  \"t_end\": 1.000,\n"
                    "  \"steps\": 5,\n  \"events\": 1,\n  \"seconds\": 9,\n"
                    "  \"verified_digits\": 38,\n  \"parameters\": {\"e\": "
                    "0.8},\n  \"new_key\": 1\n}\n";
    cr_expect_eq(against(c, t, EVENTS, s, 35), 0);
    cr_expect_eq(c->identical, 1);
    cr_expect_eq(c->worst, 40);
    cr_expect_eq(c->rows, 2);
    cr_expect_eq(c->events, 1);
    /* file and seconds are not compared; the rest are notes */
    cr_expect_str_eq(c->notes, "new_key only in fresh; steps 3 -> 5; "
                               "verified_digits 40 -> 38");
    hdo_golden_cmp_clear(c);
    free(t);
}

/* absolute_values (how many values fell below their scale floor) moved
   by noise at the floor is a note, as steps: the values themselves are
   held by the trajectory's rule (decisions.md D-137); a changed "events"
   beside it still fails. */
Test(golden_compare, absolute_values_noted)
{
    hdo_golden_cmp_t c;
    char *t = traj(X0, "0");
    const char *stored_abs = "{\"model\": \"m\", \"digits\": 40, \"t0\": 0, "
                             "\"t_end\": 1, \"steps\": 3, \"events\": 1, "
                             "\"verified_digits\": 40, \"absolute_values\": "
                             "{\"lambda\": {\"count\": 1, \"from\": 0}}}";
    const char *fresh_abs = "{\"model\": \"m\", \"digits\": 40, \"t0\": 0, "
                            "\"t_end\": 1, \"steps\": 3, \"events\": %d, "
                            "\"verified_digits\": 40, \"absolute_values\": "
                            "{\"lambda\": {\"count\": 2, \"from\": 0}}}";
    char *fresh = NULL;
    for (int events = 1; events <= 2; events++) {
        cr_assert(asprintf(&fresh, fresh_abs, events) > 0);
        cr_expect_eq(against_summary(c, stored_abs, t, EVENTS, fresh, 35),
                     events - 1, "events %d", events);
        cr_expect(c->notes != NULL &&
                      strstr(c->notes, "absolute_values ") != NULL,
                  "notes %s", c->notes != NULL ? c->notes : "(none)");
        hdo_golden_cmp_clear(c);
        free(fresh);
    }
    free(t);
}

/* The report's order: what the run was asked (a parameter), then the
   events, then the values, then the other keys. */
Test(golden_compare, order_of_the_report)
{
    hdo_golden_cmp_t c;
    char *t = traj("2", "0");
    const char *ev = "index,time,from,to,kind,guard\n1,5.000e-01,a,a,zeno,x "
                     "< 0\n";
    const char *s = "{\"model\": \"m\", \"digits\": 40, \"t0\": 0, "
                    "\"t_end\": 1, \"steps\": 3, \"events\": 2, "
                    "\"verified_digits\": 30, \"parameters\": {\"e\": 0.7}}";
    cr_expect_eq(against(c, t, ev, s, 35), 5);
    cr_assert_eq(c->nshown, 5);
    cr_expect_str_eq(c->shown[0].message,
                     "parameter e: stored 8.0e-01, fresh 0.7: 0.9 digits "
                     "(need 35)");
    cr_expect_eq(c->shown[0].part, HDO_GOLDEN_PART_OPTIONS);
    cr_expect_str_eq(c->shown[1].message,
                     "line 2 column kind: stored switch, fresh zeno");
    cr_expect_eq(c->shown[1].part, HDO_GOLDEN_PART_EVENTS);
    cr_expect(strncmp(c->shown[2].message, "line 2 (t = 0) column x:", 24) ==
              0);
    cr_expect_str_eq(c->shown[3].message, "key events: stored 1, fresh 2");
    cr_expect_str_eq(c->shown[4].message,
                     "verified_digits: stored 40, fresh 30 (need 35)");
    cr_expect_eq(c->parts[HDO_GOLDEN_PART_SUMMARY], 2);
    hdo_golden_cmp_clear(c);
    free(t);
}

Test(golden_compare, structure)
{
    hdo_golden_cmp_t c;
    char *t = traj(X0, "0");
    /* an event dropped; a row added; a header changed; t_end moved */
    cr_expect_eq(against(c, t, "index,time,from,to,kind,guard\n", SUMMARY, 35),
                 1);
    cr_expect_str_eq(c->shown[0].message, "stored has 1 events, fresh 0");
    hdo_golden_cmp_clear(c);
    char *t3 = NULL;
    cr_assert(asprintf(&t3, "%s2,a,1,1\n", t) > 0);
    cr_expect_eq(against(c, t3, EVENTS, SUMMARY, 35), 1);
    cr_expect_str_eq(c->shown[0].message, "stored has 2 rows, fresh 3");
    hdo_golden_cmp_clear(c);
    cr_expect_eq(against(c, "time,mode,x,mu\n0,a,1,0\n", EVENTS, SUMMARY, 35),
                 1);
    cr_expect_str_eq(c->shown[0].message, "header differs: stored "
                                          "time,mode,x,lambda, fresh "
                                          "time,mode,x,mu");
    hdo_golden_cmp_clear(c);
    const char *s = "{\"model\": \"m\", \"digits\": 40, \"t0\": 0, "
                    "\"t_end\": 2, \"steps\": 3, \"events\": 1, "
                    "\"verified_digits\": 40, \"parameters\": {\"e\": 0.8}}";
    cr_expect_eq(against(c, t, EVENTS, s, 35), 1);
    cr_expect_str_eq(c->shown[0].message, "key t_end: stored 1.0e+00, fresh "
                                          "2: 0.3 digits (need 35)");
    hdo_golden_cmp_clear(c);
    free(t);
    free(t3);
}

/* Five differences of a file are kept, the others counted. */
Test(golden_compare, shown_and_more)
{
    hdo_golden_cmp_t c;
    char *t = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&t, &len);
    hdo_golden_files_t a, b;
    hdo_error_t err;
    fputs(TRAJ_HEAD, f);
    for (int i = 0; i < 8; i++)
        fprintf(f, "%d,a,1,0\n", i);
    fclose(f);
    char *u = strdup(t);
    for (char *p = strstr(u, ",1,"); p != NULL; p = strstr(p + 1, ",1,"))
        p[1] = '2';
    put(a, "s", t, EVENTS, SUMMARY, NULL);
    put(b, "f", u, EVENTS, SUMMARY, NULL);
    hdo_golden_cmp_init(c);
    cr_assert_eq(hdo_golden_compare(c, a, b, 35, &err), 0, "%s", err.message);
    cr_expect_eq(c->ndiffs, 8);
    cr_expect_eq(c->nshown, HDO_GOLDEN_SHOWN);
    cr_expect_eq(c->more[HDO_GOLDEN_TRAJECTORY], 8 - HDO_GOLDEN_SHOWN);
    hdo_golden_cmp_clear(c);
    hdo_golden_files_clear(a);
    hdo_golden_files_clear(b);
    free(t);
    free(u);
}

/* Both sides with ref.json: the options are compared, and come first. */
Test(golden_compare, options_of_the_records)
{
    const char *ra = "{\"hdo_ref\": 1, \"model\": \"m\", \"digits\": 40, "
                     "\"every\": \"0.1\", \"hdo_version\": \"0.0.1\"}";
    const char *rb = "{\"hdo_ref\": 1, \"model\": \"m\", \"digits\": 40, "
                     "\"every\": \"0.05\", \"params\": {\"e\": \"7/10\"}}";
    hdo_golden_files_t a, b;
    hdo_golden_cmp_t c;
    hdo_error_t err;
    char *t = traj(X0, "0");
    put(a, "s", t, EVENTS, SUMMARY, ra);
    put(b, "f", t, EVENTS, SUMMARY, rb);
    hdo_golden_cmp_init(c);
    cr_assert_eq(hdo_golden_compare(c, a, b, 35, &err), 0, "%s", err.message);
    cr_expect_eq(c->ndiffs, 2);
    cr_assert_eq(c->nshown, 2);
    cr_expect_str_eq(c->shown[0].message,
                     "option --every: stored 0.1, fresh 0.05");
    cr_expect_eq(c->shown[0].file, HDO_GOLDEN_RECORD);
    cr_expect_str_eq(c->shown[1].message,
                     "option -p: stored (not given), fresh e=7/10");
    hdo_golden_cmp_clear(c);
    hdo_golden_files_clear(a);
    hdo_golden_files_clear(b);
    free(t);
}

/* A file that is not as hdo writes it: exit 2's error, at its place. */
Test(golden_compare, malformed_files)
{
    static const struct {
        const char *traj, *summary;
        const char *file, *msg;
        int line, col;
    } cases[] = {
        {TRAJ_HEAD "0,a,1,0\n", "{\"digits\": 40,", "fresh/summary.json",
         "expected a key", 1, 15},
        {TRAJ_HEAD "0,a,1,0\n", "[40]", "fresh/summary.json",
         "expected an object", 1, 1},
        {TRAJ_HEAD "0,a,1\n", SUMMARY, "fresh/trajectory.csv",
         "expected 4 cells as in the header, found 3", 2, 6},
        {"", SUMMARY, "fresh/trajectory.csv", "empty file", 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hdo_golden_files_t a, b;
        hdo_golden_cmp_t c;
        hdo_error_t err;
        char *t = traj(X0, "0");
        put(a, "stored", t, EVENTS, SUMMARY, NULL);
        put(b, "fresh", cases[i].traj, EVENTS, cases[i].summary, NULL);
        hdo_golden_cmp_init(c);
        cr_expect_eq(hdo_golden_compare(c, a, b, 35, &err), HDO_ERR_INPUT,
                     "case %zu", i);
        cr_expect(err.file != NULL && strcmp(err.file, cases[i].file) == 0,
                  "case %zu: file %s", i, err.file ? err.file : "(null)");
        cr_expect(err.line == cases[i].line && err.col == cases[i].col,
                  "case %zu: at %d:%d (%s)", i, err.line, err.col, err.message);
        cr_expect(strstr(err.message, cases[i].msg) != NULL, "case %zu: %s", i,
                  err.message);
        hdo_golden_cmp_clear(c);
        hdo_golden_files_clear(a);
        hdo_golden_files_clear(b);
        free(t);
    }
}
