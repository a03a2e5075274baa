/* check_many.c -- hdo check of several candidates of one model against
 * one reference run (a candidate may be a folder of .csv and .mat files),
 * one line each and an aggregate summary; and the progress of the
 * reference run on stderr */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"

void
check_progress_init(check_progress *ps, int want)
{
    memset(ps, 0, sizeof *ps);
    ps->start = hdo_clock_now();
    ps->want = want;
    ps->tty = isatty(STDERR_FILENO);
}

/* As hdo run --progress: after two seconds, on a terminal one line
   rewritten at most four times a second, elsewhere a line every five
   seconds, for a log. */
void
check_progress_show(void *data, double t, long steps, long nevents,
                    const char *method)
{
    check_progress *ps = data;
    double e = hdo_clock_now() - ps->start;
    if (!ps->want || e < 2.0 || e - ps->last < (ps->tty ? 0.25 : 5.0))
        return;
    ps->last = e;
    ps->shown = 1;
    fprintf(stderr,
            "%shdo check: reference t = %-14.8g steps %-9ld events %-8ld "
            "method %s %6.1f s%s",
            ps->tty ? "\r" : "", t, steps, nevents, method, e,
            ps->tty ? "" : "\n");
    fflush(stderr);
}

void
check_progress_end(check_progress *ps)
{
    if (ps->shown && ps->tty)
        fprintf(stderr, "\r\033[K");
}

/* A tolerance file that was looked for and not found, while a default
   tolerance is in use: where hdo looked, so that a file with another
   name (or in another folder) is seen not to be read. Once per command:
   the file looked for is the model's, the same for every candidate. */
void
check_note_no_tolerance_file(const hdo_check_t s)
{
    const hdo_tol_struct *t = s->tol;
    if (s->tol_from_file || s->tol_looked == NULL ||
        (t->line_time_abs != 0 && t->line_value_abs != 0 &&
         t->line_value_rel != 0))
        return;
    fprintf(stderr,
            "hdo check: note: no tolerance file (looked for %s): the "
            "defaults are used where no option gives a tolerance\n",
            s->tol_looked);
}

/* The one reference run of the checks s[0..n) (hdo_check_shared_run),
   with the progress on stderr when asked; a failure of the run itself
   is every check's (run_status).  0 or the status, with err filled;
   *seconds the time it took. */
int
check_reference(hdo_refrun_t run, hdo_check_struct *const *s, slong n,
                int want_progress, double *seconds, hdo_error_t *err)
{
    check_progress ps;
    double t0 = hdo_clock_now();
    int st;
    check_progress_init(&ps, want_progress);
    st = hdo_check_shared_run(
        run, s, n, want_progress ? check_progress_show : NULL, &ps, err);
    check_progress_end(&ps);
    if (st == HDO_ERR_MEMORY && n == 1) {
        size_t l = strlen(err->message);
        snprintf(err->message + l, sizeof err->message - l,
                 " (the candidate has %ld rows)", (long)s[0]->cand->nrows);
    } else if (st != 0 && st != HDO_ERR_INPUT && st != HDO_ERR_MEMORY) {
        for (slong i = 0; i < n; i++)
            s[i]->run_status = st;
    }
    *seconds = hdo_clock_now() - t0;
    return st;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether name ends in .csv or .mat (any case). */
static int
candidate_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && (strcasecmp(name + n - 4, ".csv") == 0 ||
                     strcasecmp(name + n - 4, ".mat") == 0);
}

int
check_candidates(cli_list *out, char ***owned, slong *nowned,
                 const char *const *paths, int n)
{
    for (int k = 0; k < n; k++) {
        struct stat st;
        DIR *d;
        struct dirent *e;
        slong first = *nowned;
        if (stat(paths[k], &st) != 0 || !S_ISDIR(st.st_mode)) {
            /* a file (or what cannot be read: its reader says why) */
            const char **v = realloc(out->v, (size_t)(out->n + 1) * sizeof *v);
            if (v == NULL)
                return 2;
            out->v = v;
            out->v[out->n++] = paths[k];
            continue;
        }
        d = opendir(paths[k]);
        if (d == NULL) {
            fprintf(stderr, "%s: error: cannot read the folder: %s\n", paths[k],
                    strerror(errno));
            return 2;
        }
        while ((e = readdir(d)) != NULL) {
            struct stat fs;
            char *p;
            char **o;
            if (!candidate_name(e->d_name))
                continue;
            p = malloc(strlen(paths[k]) + strlen(e->d_name) + 2);
            o = realloc(*owned, (size_t)(*nowned + 1) * sizeof *o);
            if (p == NULL || o == NULL) {
                free(p);
                closedir(d);
                return 2;
            }
            *owned = o;
            sprintf(p, "%s/%s", paths[k], e->d_name);
            if (stat(p, &fs) != 0 || !S_ISREG(fs.st_mode)) {
                free(p);
                continue;
            }
            (*owned)[(*nowned)++] = p;
        }
        closedir(d);
        if (*nowned == first) {
            fprintf(stderr,
                    "%s: error: the folder holds no .csv or .mat file to "
                    "check\n",
                    paths[k]);
            return 2;
        }
        /* in name order, whatever order the folder lists them in */
        qsort(*owned + first, (size_t)(*nowned - first), sizeof(char *),
              cmp_str);
        for (slong i = first; i < *nowned; i++) {
            const char **v = realloc(out->v, (size_t)(out->n + 1) * sizeof *v);
            if (v == NULL)
                return 2;
            out->v = v;
            out->v[out->n++] = (*owned)[i];
        }
    }
    return 0;
}

/* "file:line:col: error: ..." or "hdo check: ..." into buf. */
static void
error_text(char *buf, size_t n, const hdo_error_t *err)
{
    if (err->file != NULL)
        hdo_error_format(buf, n, err);
    else
        snprintf(buf, n, "hdo check: %s", err->message);
}

/* One line for candidate i: the verdict, the file, and why. */
static void
candidate_line(FILE *out, hdo_check_struct *s, const char *error)
{
    char buf[1400];
    hdo_check_summary sm;
    if (error != NULL) {
        fprintf(out, "ERROR %s: %s\n", s->opt.cand_path, error);
        return;
    }
    hdo_check_summary_of(&sm, s);
    if (sm.failed && hdo_check_first_failure(buf, sizeof buf, s)) {
        fprintf(out, "FAIL  %s: %s\n", s->opt.cand_path, buf);
        return;
    }
    fprintf(out,
            "PASS  %s: %ld variables, %ld rows, largest error %.3g of the "
            "band allowed, ",
            s->opt.cand_path, (long)sm.nvar, (long)s->cand->nrows,
            sm.value_ratio);
    if (sm.events_given)
        fprintf(out, "%ld events paired", (long)sm.events_ref);
    else
        fprintf(out, "events not given (values only)");
    if (sm.events_unobservable > 0)
        fprintf(out, ", %ld not observable", (long)sm.events_unobservable);
    fprintf(out, "\n");
}

int
check_many(const hdo_check_options *opt, const char *const *cands, slong n,
           const check_outputs *o)
{
    hdo_check_struct **s = calloc((size_t)n + 1, sizeof *s);
    char **error = calloc((size_t)n + 1, sizeof *error);
    hdo_check_struct **ok = calloc((size_t)n + 1, sizeof *ok);
    slong nok = 0, npass = 0, nfail = 0, nerr = 0;
    hdo_refrun_t run;
    hdo_error_t err;
    double seconds = 0, t0 = hdo_clock_now();
    int rc = 0, st;
    if (s == NULL || error == NULL || ok == NULL) {
        free(s);
        free(error);
        free(ok);
        fprintf(stderr, "hdo check: out of memory\n");
        return 2;
    }
    hdo_refrun_init(run);
    for (slong i = 0; i < n; i++) {
        hdo_check_options oi = *opt;
        char buf[1400];
        s[i] = malloc(sizeof(hdo_check_struct));
        if (s[i] == NULL) {
            rc = 2;
            break;
        }
        hdo_check_init(s[i]);
        oi.cand_path = cands[i];
        st = hdo_check_read_model(s[i], &oi, &err);
        if (st != 0) {
            /* the model is every candidate's: no check can be done */
            error_text(buf, sizeof buf, &err);
            fprintf(stderr, "%s\n", buf);
            rc = 2;
            n = i + 1;
            break;
        }
        if (i == 0 && s[i]->model->warnings != NULL)
            fputs(s[i]->model->warnings, stderr);
        st = hdo_check_read_inputs(s[i], &err);
        if (st != 0) {
            error_text(buf, sizeof buf, &err);
            error[i] = strdup(buf);
            continue;
        }
        ok[nok++] = s[i];
    }
    if (rc == 0 && nok > 0) {
        check_note_no_tolerance_file(ok[0]);
        st = check_reference(run, ok, nok, o->progress, &seconds, &err);
        if (st != 0) {
            char buf[1400];
            error_text(buf, sizeof buf, &err);
            fprintf(stderr, "%s\n", buf);
            if (ok[0]->run_status != 0)
                fprintf(stderr,
                        "hdo check: the reference run at %ld digits failed "
                        "(%s)\n",
                        opt->digits, hdo_status_name(ok[0]->run_status));
            rc = 2;
        }
    }
    for (slong i = 0; rc == 0 && i < n; i++) {
        if (error[i] == NULL) {
            char buf[1400];
            st = hdo_check_compute_from(s[i], run, &err);
            s[i]->seconds_ref += seconds / (double)nok;
            if (st != 0) {
                error_text(buf, sizeof buf, &err);
                error[i] = strdup(buf);
            }
        }
        candidate_line(stdout, s[i], error[i]);
        if (error[i] != NULL)
            nerr++;
        else if (hdo_check_failed(s[i]))
            nfail++;
        else
            npass++;
        if (error[i] == NULL && o->plot != NULL) {
            /* PLOT-<candidate file name>.png for each */
            const char *base = strrchr(cands[i], '/');
            size_t stem = strlen(o->plot);
            char *png = malloc(stem + strlen(cands[i]) + 8);
            base = base != NULL ? base + 1 : cands[i];
            if (stem >= 4 && strcmp(o->plot + stem - 4, ".png") == 0)
                stem -= 4;
            if (png != NULL) {
                sprintf(png, "%.*s-%s.png", (int)stem, o->plot, base);
                if (hdo_check_plot(s[i], png, &err) != 0) {
                    char buf[1400];
                    error_text(buf, sizeof buf, &err);
                    fprintf(stderr, "%s\n", buf);
                    rc = 2;
                }
                free(png);
            }
        }
    }
    if (rc == 0) {
        printf("\nsummary: verdict=%s candidates=%ld passed=%ld failed=%ld "
               "errors=%ld reference_runs=%d reference_seconds=%.3f\n",
               nfail + nerr > 0 ? "FAIL" : "PASS", (long)n, (long)npass,
               (long)nfail, (long)nerr, nok > 0, seconds);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr,
                    "hdo check: cannot write the report to standard output: "
                    "%s\n",
                    strerror(errno));
            rc = 2;
        }
    }
    if (rc == 0)
        rc = nerr > 0 ? 2 : nfail > 0 ? 1 : 0;
    if (o->junit != NULL &&
        hdo_check_write_junit_many(o->junit, s, (const char *const *)error, n,
                                   hdo_clock_now() - t0, &err) != 0) {
        char buf[1400];
        error_text(buf, sizeof buf, &err);
        fprintf(stderr, "%s\n", buf);
        rc = 2;
    }
    if (o->report != NULL &&
        hdo_check_write_html(o->report, s, (const char *const *)error, n,
                             o->plot_in_report, &err) != 0) {
        char buf[1400];
        error_text(buf, sizeof buf, &err);
        fprintf(stderr, "%s\n", buf);
        rc = 2;
    }
    for (slong i = 0; i < n; i++) {
        if (s[i] != NULL)
            hdo_check_clear(s[i]);
        free(s[i]);
        free(error[i]);
    }
    hdo_refrun_clear(run);
    free(s);
    free(error);
    free(ok);
    return rc;
}
