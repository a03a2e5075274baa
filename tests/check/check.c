/* check.c -- hdo check through the library (ref/check.h): candidates
 * whose values come from libm's exp, not from hdo, judged against the
 * reference of x' = -x */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "../scratch_dir.h"

static const char *decay = "model unit_check_decay\n"
                           "var x = 1\n"
                           "mode m\n"
                           "  der(x) = -x\n"
                           "end\n"
                           "start m\n"
                           "until 1\n";

static void
setup(void)
{
    scratch_make("check");
}

/* Writes text into scratch/name; returns the path (static buffer k). */
static const char *
put(int k, const char *name, const char *text)
{
    static char path[4][128];
    FILE *f;
    snprintf(path[k], sizeof path[k], "%s/%s", scratch, name);
    f = fopen(path[k], "w");
    cr_assert(f != NULL);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
    return path[k];
}

/* exp(-t) every 0.1 from 0 to 1, with bump added at t = 0.5 */
static const char *
candidate(double bump)
{
    static char text[2048];
    size_t n = (size_t)snprintf(text, sizeof text, "time,x\n");
    for (int i = 0; i <= 10; i++) {
        double t = i / 10.0;
        n += (size_t)snprintf(text + n, sizeof text - n, "%.17g,%.17g\n", t,
                              exp(-t) + (i == 5 ? bump : 0));
    }
    return put(1, "cand.csv", text);
}

static int
check(hdo_check_t s, const char *cand, hdo_error_t *err)
{
    hdo_check_options opt;
    hdo_check_options_init(&opt);
    opt.model_path = put(0, "unit_check_decay.hdae", decay);
    opt.cand_path = cand;
    opt.digits = 20;
    opt.time_abs = 1e-9;
    opt.value_abs = 1e-12;
    opt.value_rel = 1e-12;
    hdo_check_init(s);
    return hdo_check_run(s, &opt, err);
}

Test(check, pass_and_fail, .init = setup, .fini = scratch_remove)
{
    hdo_check_t s;
    hdo_error_t err;
    hdo_check_summary sm;
    char buf[1024];
    cr_assert_eq(check(s, candidate(0), &err), 0, "%s", err.message);
    cr_expect_eq(s->nvar, 1);
    cr_expect_eq(s->tol_from_file, 0);
    cr_expect_eq(hdo_check_failed(s), 0);
    cr_expect_eq(hdo_check_first_failure(buf, sizeof buf, s), 0);
    hdo_check_summarize(&sm, s->tube, s->nvar, s->cand->time, s->cand->values,
                        s->cand->present, s->cand->ncols, s->col,
                        s->cand->nrows, s->match, s->events_given);
    cr_expect_eq(sm.failed, 0);
    cr_expect_eq(sm.rows_compared, 11);
    /* libm's exp is correctly rounded to about an ulp */
    cr_expect(sm.point_err < 1e-15, "point_err %g", sm.point_err);
    hdo_check_clear(s);

    /* 1e-6 off at t = 0.5 (line 7 of the file): the first failure */
    cr_assert_eq(check(s, candidate(1e-6), &err), 0, "%s", err.message);
    cr_expect_eq(hdo_check_failed(s), 1);
    cr_expect_eq(hdo_check_variable_failed(s, 0), 1);
    cr_expect_eq(hdo_check_first_bad_row(s, 0), 5);
    cr_assert_eq(hdo_check_first_failure(buf, sizeof buf, s), 1);
    cr_expect(strstr(buf, "t = 0.5 (") != NULL, "%s", buf);
    cr_expect(strstr(buf, "line 7") != NULL, "%s", buf);
    hdo_check_clear(s);
}

Test(check, errors_name_the_place, .init = setup, .fini = scratch_remove)
{
    hdo_check_t s;
    hdo_error_t err;
    const char *cand = put(1, "y.csv", "time,y\n0,1\n1,2\n");
    cr_assert_eq(check(s, cand, &err), HDO_ERR_INPUT);
    cr_expect_str_eq(err.file, cand);
    cr_expect_eq(err.line, 1);
    cr_expect(strstr(err.message, "no variable to compare") != NULL, "%s",
              err.message);
    hdo_check_clear(s);

    /* a candidate that starts before t0, at its first row */
    cand = put(1, "early.csv", "# comment\ntime,x\n-1,1\n1,0.36\n");
    cr_assert_eq(check(s, cand, &err), HDO_ERR_INPUT);
    cr_expect_str_eq(err.file, cand);
    cr_expect_eq(err.line, 3);
    cr_expect_eq(s->run_status, 0);
    hdo_check_clear(s);
}

/* The JUnit report: a test case per variable and one for the events, or
   one <error> for a check that could not be done. */
Test(check, junit, .init = setup, .fini = scratch_remove)
{
    hdo_check_t s;
    hdo_error_t err;
    char path[128], text[8192];
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "%s/report.xml", scratch);
    cr_assert_eq(check(s, candidate(1e-6), &err), 0, "%s", err.message);
    cr_assert_eq(hdo_check_write_junit(path, s, NULL, 1.0, &err), 0, "%s",
                 err.message);
    f = fopen(path, "r");
    cr_assert(f != NULL);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    cr_expect(strstr(text, "tests=\"2\" failures=\"1\" errors=\"0\"") != NULL,
              "%s", text);
    cr_expect(strstr(text, "name=\"x\"") != NULL);
    cr_expect(strstr(text, "first failure: t = 0.5") != NULL);
    cr_assert_eq(hdo_check_write_junit(path, s, "bad <input>", 1.0, &err), 0);
    f = fopen(path, "r");
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    cr_expect(strstr(text, "<error message=\"bad &lt;input&gt;\"") != NULL,
              "%s", text);
    hdo_check_clear(s);
}

/* A map whose target is not a variable of the model (#23 item 8): the
   candidate column x, 0.5 off at every row, mapped to X used to be left
   out as "not a variable of the model", and the check passed with
   nothing compared but the rows of another column.  Refused now: at the
   target's place in a tolerance file, by the option for a --map entry
   (err.file NULL). */
Test(check, map_target_not_a_variable, .init = setup, .fini = scratch_remove)
{
    hdo_check_t s;
    hdo_check_options opt;
    hdo_error_t err;
    const char *maps[] = {"x=X"};
    const char *tol = put(2, "bad.tol", "# the column\nmap = x=X\n");
    hdo_check_options_init(&opt);
    opt.model_path = put(0, "unit_check_decay.hdae", decay);
    opt.cand_path = candidate(0.5);
    opt.digits = 20;
    opt.tol_path = tol;
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), HDO_ERR_INPUT);
    cr_expect_str_eq(err.file, tol);
    cr_expect_eq(err.line, 2);
    cr_expect_eq(err.col, 9);
    cr_expect(strstr(err.message,
                     "'X' is not a variable of model unit_check_decay") != NULL,
              "%s", err.message);
    hdo_check_clear(s);

    opt.tol_path = put(3, "none.tol", "# no map\n");
    opt.maps = maps;
    opt.nmaps = 1;
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), HDO_ERR_INPUT);
    cr_expect(err.file == NULL);
    cr_expect_str_eq(err.message, "--map x=X: 'X' is not a variable of model "
                                  "unit_check_decay");
    hdo_check_clear(s);

    /* the file's bad entry replaced by --map x=x: the column is compared,
       and its 0.5 fails */
    maps[0] = "x=x";
    opt.tol_path = tol;
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), 0, "%s", err.message);
    cr_expect_eq(s->nvar, 1);
    cr_expect_eq(hdo_check_failed(s), 1);
    hdo_check_clear(s);
}

/* The error record says which input failed (issue 24, 4.7): each reader
   sets err.input, and the candidate that starts before t0 is placed at
   its first row by that field, not by the words of the message.  A model
   whose message holds "candidate" (a parameter named so) stays the
   model's. */
Test(check, error_names_its_input, .init = setup, .fini = scratch_remove)
{
    hdo_check_t s;
    hdo_check_options opt;
    hdo_error_t err;
    const char *maps[] = {"x"};
    const char *params[] = {"k"};
    hdo_check_options_init(&opt);
    opt.model_path = put(0, "unit_check_decay.hdae", decay);
    opt.digits = 20;

    opt.cand_path = put(1, "bad.csv", "time,x\n0,1\n0.5\n");
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), HDO_ERR_INPUT);
    cr_expect_eq(err.input, HDO_INPUT_CANDIDATE, "%s", err.message);
    hdo_check_clear(s);

    opt.cand_path = put(1, "early.csv", "time,x\n-1,1\n0,1\n");
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), HDO_ERR_INPUT);
    cr_expect_eq(err.input, HDO_INPUT_CANDIDATE, "%s", err.message);
    cr_expect_str_eq(err.file, opt.cand_path);
    cr_expect_eq(err.line, 2);
    hdo_check_clear(s);

    opt.cand_path = candidate(0);
    opt.tol_path = put(2, "t.tol", "time_abs = -1\n");
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), HDO_ERR_INPUT);
    cr_expect_eq(err.input, HDO_INPUT_TOLERANCES, "%s", err.message);
    hdo_check_clear(s);
    opt.tol_path = put(2, "t.tol", "# none\n");

    opt.events_path = put(3, "ev.csv", "time,from,to\n0.5,m,nomode\n");
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), HDO_ERR_INPUT);
    cr_expect_eq(err.input, HDO_INPUT_EVENTS, "%s", err.message);
    hdo_check_clear(s);
    opt.events_path = NULL;

    opt.maps = maps;
    opt.nmaps = 1;
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), HDO_ERR_INPUT);
    cr_expect_eq(err.input, HDO_INPUT_OPTION, "%s", err.message);
    hdo_check_clear(s);
    opt.nmaps = 0;

    opt.params = params;
    opt.nparams = 1;
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), HDO_ERR_INPUT);
    cr_expect_eq(err.input, HDO_INPUT_OPTION, "%s", err.message);
    hdo_check_clear(s);
    opt.nparams = 0;

    opt.model_path = put(0, "candidate.hdae",
                         "model m\nparam candidate = 1\nvar x = 1\nmode m\n"
                         "  der(x) = -candidate * x\nend\nstart m at "
                         "candidate/0\nuntil 1\n");
    hdo_check_init(s);
    cr_assert_neq(hdo_check_run(s, &opt, &err), 0);
    cr_expect_eq(err.input, HDO_INPUT_MODEL, "%s", err.message);
    hdo_check_clear(s);

    /* check() initialises s itself */
    cr_assert_eq(check(s, candidate(0), &err), 0, "%s", err.message);
    cr_expect_eq(err.input, HDO_INPUT_NONE);
    hdo_check_clear(s);
}

/* One reference run for several candidates (issue 26): each takes from
   it exactly the samples its check alone takes -- the same times and the
   same doubles, bit for bit -- and the same events. */
Test(check, shared_run_same_samples, .init = setup, .fini = scratch_remove)
{
    hdo_check_t a, b, alone;
    hdo_error_t err;
    hdo_refrun_t run;
    hdo_check_struct *both[2] = {a, b};
    const char *model = put(0, "saw.hdae",
                            "model saw\nvar x = 0\nvar y = 1\nmode m\n"
                            "  der(x) = 1\n  der(y) = -y\n"
                            "  when x > 0.5 goto m with x = 0\nend\n"
                            "start m at 0\nuntil 1\n");
    char text[2][4096];
    const char *cand[2];
    for (int k = 0; k < 2; k++) {
        size_t n = (size_t)snprintf(text[k], sizeof text[k], "time,x,y\n");
        int rows = k == 0 ? 11 : 7;
        for (int i = 0; i < rows; i++) {
            double t = (k == 0 ? 0.1 : 1.0 / 7.0) * i;
            if (k == 1 && i == rows - 1)
                t = 0.9; /* a shorter candidate */
            n += (size_t)snprintf(text[k] + n, sizeof text[k] - n,
                                  "%.17g,%.17g,%.17g\n", t,
                                  t <= 0.5 ? t : t - 0.5, exp(-t));
        }
    }
    cand[0] = put(1, "a.csv", text[0]);
    cand[1] = put(2, "b.csv", text[1]);
    for (int k = 0; k < 3; k++) {
        hdo_check_struct *s = k == 0 ? a : k == 1 ? b : alone;
        hdo_check_options opt;
        hdo_check_options_init(&opt);
        opt.model_path = model;
        opt.cand_path = cand[k == 1];
        opt.digits = 20;
        opt.time_abs = 1e-9;
        hdo_check_init(s);
        cr_assert_eq(hdo_check_read_model(s, &opt, &err), 0, "%s", err.message);
        cr_assert_eq(hdo_check_read_inputs(s, &err), 0, "%s", err.message);
    }
    cr_assert_eq(hdo_check_compute(alone, &err), 0, "%s", err.message);
    hdo_refrun_init(run);
    cr_assert_eq(hdo_check_shared_run(run, both, 2, NULL, NULL, &err), 0, "%s",
                 err.message);
    cr_assert_eq(hdo_check_compute_from(a, run, &err), 0, "%s", err.message);
    cr_assert_eq(hdo_check_compute_from(b, run, &err), 0, "%s", err.message);
    /* the run holds more samples than either candidate takes */
    cr_expect_gt(run->n, a->ref->n);
    cr_assert_eq(a->ref->n, alone->ref->n);
    cr_expect(memcmp(a->ref->t, alone->ref->t,
                     (size_t)a->ref->n * sizeof(double)) == 0);
    cr_expect(memcmp(a->ref->v, alone->ref->v,
                     (size_t)(a->ref->n * a->nvar) * sizeof(double)) == 0);
    cr_assert_eq(a->ref_ev->n, alone->ref_ev->n);
    cr_expect_eq(a->ref_ev->ev[0].t_lo, alone->ref_ev->ev[0].t_lo);
    cr_expect_eq(hdo_check_failed(a), hdo_check_failed(alone));
    /* the shorter candidate's samples end at its own last time + time_abs */
    cr_expect_leq(b->ref->t[b->ref->n - 1], 0.9 + 1e-9);
    hdo_refrun_clear(run);
    hdo_check_clear(a);
    hdo_check_clear(b);
    hdo_check_clear(alone);
}

/* Reads model file `model` (the decay model, whatever its file name) and
   the candidate, with no tolerance file given: s is left for the test. */
static void
read_untold(hdo_check_t s, const char *model)
{
    hdo_check_options opt;
    hdo_error_t err;
    hdo_check_options_init(&opt);
    opt.model_path = model;
    opt.cand_path = candidate(0);
    hdo_check_init(s);
    cr_assert_eq(hdo_check_read_model(s, &opt, &err), 0, "%s", err.message);
    cr_assert_eq(hdo_check_read_inputs(s, &err), 0, "%s", err.message);
}

/* The tolerance file is found by the model file's name before the model
   line's (#27: a copy mine.hdae of a case, whose model line still names
   the case, had its own tolerances/mine.tol passed over), and the report
   says which and how; without either, the places tried are listed. */
Test(check, tolerance_file_by_file_name, .init = setup, .fini = scratch_remove)
{
    hdo_check_t s;
    char dir[160], model[160], mine[160], byname[160], want[512], buf[1024];
    snprintf(dir, sizeof dir, "%s/cases", scratch);
    cr_assert_eq(mkdir(dir, 0777), 0);
    snprintf(dir, sizeof dir, "%s/tolerances", scratch);
    cr_assert_eq(mkdir(dir, 0777), 0);
    snprintf(model, sizeof model, "%s/cases/mine.hdae", scratch);
    snprintf(mine, sizeof mine, "%s/cases/../tolerances/mine.tol", scratch);
    snprintf(byname, sizeof byname,
             "%s/cases/../tolerances/unit_check_decay.tol", scratch);
    put(0, "cases/mine.hdae", decay);
    put(2, "tolerances/mine.tol", "time_abs = 2e-9\n");
    put(3, "tolerances/unit_check_decay.tol", "time_abs = 3e-9\n");

    read_untold(s, model);
    cr_expect_str_eq(s->tol_path, mine);
    cr_expect_eq(s->tol_found_by, HDO_TOL_BY_FILE_NAME);
    cr_expect_eq(s->tol->time_abs, 2e-9);
    hdo_check_describe_tolerance_file(buf, sizeof buf, s);
    snprintf(want, sizeof want, "%s, found by the model file's name mine.hdae",
             mine);
    cr_expect_str_eq(buf, want);
    hdo_check_clear(s);

    /* without mine.tol: the model line's file, said so */
    cr_assert_eq(unlink(mine), 0);
    read_untold(s, model);
    cr_expect_str_eq(s->tol_path, byname);
    cr_expect_eq(s->tol_found_by, HDO_TOL_BY_MODEL);
    cr_expect_eq(s->tol->time_abs, 3e-9);
    hdo_check_describe_tolerance_file(buf, sizeof buf, s);
    snprintf(want, sizeof want, "%s, found by the model name unit_check_decay",
             byname);
    cr_expect_str_eq(buf, want);
    hdo_check_clear(s);

    /* neither: the defaults, and the four places tried, in order */
    cr_assert_eq(unlink(byname), 0);
    read_untold(s, model);
    cr_expect(s->tol_path == NULL);
    cr_expect_eq(s->tol_from_file, 0);
    cr_expect_eq(s->tol->time_abs, 1e-6);
    snprintf(want, sizeof want,
             "tolerances/mine.tol, %s, tolerances/unit_check_decay.tol, %s",
             mine, byname);
    cr_expect_str_eq(s->tol_looked, want);
    hdo_check_describe_tolerance_file(buf, sizeof buf, s);
    cr_expect_str_eq(buf, "no tolerance file");
    hdo_check_clear(s);

    /* a file named as its model: each place once */
    snprintf(model, sizeof model, "%s/cases/unit_check_decay.hdae", scratch);
    put(0, "cases/unit_check_decay.hdae", decay);
    read_untold(s, model);
    snprintf(want, sizeof want, "tolerances/unit_check_decay.tol, %s", byname);
    cr_expect_str_eq(s->tol_looked, want);
    hdo_check_clear(s);
}
