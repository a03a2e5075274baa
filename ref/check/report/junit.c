/* junit.c -- the JUnit XML report of hdo check: one test case per
 * compared variable and one for the events, or one test case with an
 * <error> when the check could not be done (exit 2), so that a CI job
 * never reads a stale report from an earlier run */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

int
hdo_junit_write(const char *path, const char *suite, const hdo_junit_case *tc,
                slong n, const char *error, double seconds, hdo_error_t *err)
{
    return hdo_junit_write_for("hdo check", path, suite, tc, n, error, seconds,
                               err);
}

/* The command's words joined by dots ("hdo.ref.compare"), for the
   classname. */
static void
put_class(FILE *f, const char *command, const char *suite)
{
    for (const char *p = command; *p; p++)
        fputc(*p == ' ' ? '.' : *p, f);
    fputc('.', f);
    hdo_xml_escape(f, suite);
}

int
hdo_junit_write_for(const char *command, const char *path, const char *suite,
                    const hdo_junit_case *tc, slong n, const char *error,
                    double seconds, hdo_error_t *err)
{
    const char *last = strrchr(command, ' ');
    hdo_outfile o;
    FILE *f;
    slong nfail = 0;
    int st = hdo_outfile_open(&o, path, err);
    if (st)
        return st;
    f = o.f;
    if (error != NULL)
        n = 0;
    slong nerr = error != NULL;
    for (slong k = 0; k < n; k++) {
        nfail += tc[k].failure != NULL && tc[k].error == NULL;
        nerr += tc[k].error != NULL;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    fprintf(f, "  <testsuite name=\"");
    hdo_xml_escape(f, command);
    fputc(' ', f);
    hdo_xml_escape(f, suite);
    fprintf(f,
            "\" tests=\"%ld\" failures=\"%ld\" errors=\"%ld\" time=\"%.3f\">\n",
            (long)(error != NULL ? 1 : n), (long)nfail, (long)nerr, seconds);
    if (error != NULL) {
        fprintf(f, "    <testcase classname=\"");
        put_class(f, command, suite);
        fprintf(f, "\" name=\"");
        hdo_xml_escape(f, last != NULL ? last + 1 : command);
        fprintf(f, "\" time=\"%.3f\">\n", seconds);
        fprintf(f, "      <error message=\"");
        hdo_xml_escape(f, error);
        fprintf(f, "\">");
        hdo_xml_escape(f, error);
        fprintf(f, "</error>\n    </testcase>\n");
    }
    for (slong k = 0; k < n; k++) {
        fprintf(f, "    <testcase classname=\"");
        put_class(f, command, suite);
        fprintf(f, "\" name=\"");
        hdo_xml_escape(f, tc[k].name);
        fprintf(f, "\" time=\"%.3f\">\n", tc[k].seconds);
        if (tc[k].error != NULL) {
            fprintf(f, "      <error message=\"");
            hdo_xml_escape(f, tc[k].error);
            fprintf(f, "\">");
            hdo_xml_escape(f, tc[k].error);
            fprintf(f, "</error>\n");
        } else if (tc[k].failure != NULL) {
            fprintf(f, "      <failure message=\"");
            hdo_xml_escape(f, tc[k].failure);
            fprintf(f, "\">");
            hdo_xml_escape(f, tc[k].text != NULL ? tc[k].text : "");
            fprintf(f, "</failure>\n");
        } else {
            fprintf(f, "      <system-out>");
            hdo_xml_escape(f, tc[k].text != NULL ? tc[k].text : "");
            fprintf(f, "</system-out>\n");
        }
        fprintf(f, "    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    return hdo_outfile_commit(&o, err);
}

int
hdo_check_write_junit(const char *path, const hdo_check_t s, const char *error,
                      double seconds, hdo_error_t *err)
{
    int rc = error != NULL ? 2 : 0;
    slong n = s->tube != NULL ? s->nvar + 1 : 0;
    hdo_junit_case *tc = calloc((size_t)(n + 1), sizeof *tc);
    char(*fail)[512] = calloc((size_t)(n + 1), sizeof *fail);
    char(*text)[1024] = calloc((size_t)(n + 1), sizeof *text);
    const char *suite = s->model->name != NULL      ? s->model->name
                        : s->opt.model_path != NULL ? s->opt.model_path
                                                    : "(no model)";
    int st;
    if (tc == NULL || fail == NULL || text == NULL) {
        free(tc);
        free(fail);
        free(text);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    for (slong j = 0; rc != 2 && j < s->nvar; j++) {
        tc[j].name = s->cand->names[s->col[j]];
        tc[j].seconds = s->seconds_compare / (double)(s->nvar + 1);
        hdo_check_describe_variable(text[j], sizeof text[j], s, j);
        if (hdo_check_variable_failed(s, j)) {
            snprintf(fail[j], sizeof fail[j], "%s", text[j]);
            tc[j].failure = fail[j];
            slong i = hdo_check_first_bad_row(s, j);
            if (i >= 0) {
                memcpy(text[j], "first failure: ", 16);
                hdo_check_describe_row_failure(text[j] + 15,
                                               sizeof text[j] - 15, s, j, i);
            }
        }
        tc[j].text = text[j];
    }
    if (rc != 2) {
        slong k = s->nvar, len = 0;
        tc[k].name = "events";
        tc[k].seconds = s->seconds_compare / (double)(s->nvar + 1);
        if (s->match->nfailed > 0) {
            snprintf(fail[k], sizeof fail[k],
                     "%ld of %ld events wrong (%ld reference, %ld candidate)",
                     (long)s->match->nfailed, (long)s->match->n,
                     (long)s->ref_ev->n, (long)s->cand_ev->n);
            tc[k].failure = fail[k];
            for (slong q = 0; q < s->match->n && len < 900; q++) {
                const hdo_match *m = s->match->m + q;
                char b[400];
                if (m->verdict == HDO_MATCH_OK || !hdo_match_judged(m->verdict))
                    continue;
                hdo_check_describe_event_failure(b, sizeof b, s, m);
                len += snprintf(text[k] + len, sizeof text[k] - (size_t)len,
                                "%s\n", b);
            }
        } else {
            snprintf(text[k], sizeof text[k], "%ld events match",
                     (long)s->match->n);
        }
        tc[k].text = text[k];
    }
    hdo_error_clear(err);
    st = hdo_junit_write(path, suite, tc, n, error, seconds, err);
    free(tc);
    free(fail);
    free(text);
    if (st != 0 && err != NULL && err->file == NULL)
        err->file = path;
    return st;
}

int
hdo_check_write_junit_many(const char *path, hdo_check_struct *const *s,
                           const char *const *errors, slong n, double seconds,
                           hdo_error_t *err)
{
    hdo_junit_case *tc = calloc((size_t)(n + 1), sizeof *tc);
    char(*fail)[1024] = calloc((size_t)(n + 1), sizeof *fail);
    char(*text)[2048] = calloc((size_t)(n + 1), sizeof *text);
    const char *suite = n > 0 && s[0]->model->name != NULL ? s[0]->model->name
                        : n > 0 ? s[0]->opt.model_path
                                : "(no model)";
    int st;
    if (tc == NULL || fail == NULL || text == NULL) {
        free(tc);
        free(fail);
        free(text);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    for (slong i = 0; i < n; i++) {
        size_t len = 0;
        tc[i].name = s[i]->opt.cand_path;
        tc[i].seconds = s[i]->seconds_ref + s[i]->seconds_compare;
        if (errors[i] != NULL) {
            tc[i].error = errors[i];
            continue;
        }
        /* per variable its line, then the events */
        for (slong j = 0; j < s[i]->nvar && len < sizeof text[i] - 1; j++) {
            char b[1024];
            hdo_check_describe_variable(b, sizeof b, s[i], j);
            len += (size_t)snprintf(text[i] + len, sizeof text[i] - len,
                                    "%s: %s\n", s[i]->cand->names[s[i]->col[j]],
                                    b);
        }
        if (len < sizeof text[i] - 1)
            snprintf(text[i] + len, sizeof text[i] - len,
                     "events: %ld paired, %ld wrong\n", (long)s[i]->match->n,
                     (long)s[i]->match->nfailed);
        tc[i].text = text[i];
        if (hdo_check_failed(s[i]) &&
            hdo_check_first_failure(fail[i], sizeof fail[i], s[i]))
            tc[i].failure = fail[i];
    }
    hdo_error_clear(err);
    st = hdo_junit_write(path, suite, tc, n, NULL, seconds, err);
    free(tc);
    free(fail);
    free(text);
    if (st != 0 && err != NULL && err->file == NULL)
        err->file = path;
    return st;
}
