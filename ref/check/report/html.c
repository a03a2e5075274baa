/* html.c -- hdo check --report: one self-contained HTML page (no file
 * beside it, no script, no outside style): the verdict table of the
 * candidates, and per candidate its first failure, its report and its
 * plots as inline SVG */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "version.h"

static const char *style =
    "body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}"
    "table{border-collapse:collapse;font-size:90%}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;"
    "vertical-align:top}"
    "th{background:#f0f0f0}td.num{text-align:right;font-family:monospace}"
    ".PASS{color:#1a7f37;font-weight:bold}.FAIL{color:#cf222e;"
    "font-weight:bold}.ERROR{color:#9a6700;font-weight:bold}"
    "pre{background:#f6f8fa;padding:8px;overflow-x:auto;font-size:80%}"
    "section{border-top:2px solid #ddd;margin-top:2em}"
    "svg{max-width:100%;height:auto}";

static const char *
verdict_of(const hdo_check_struct *s, const char *error)
{
    return error != NULL ? "ERROR" : hdo_check_failed(s) ? "FAIL" : "PASS";
}

/* The human report and the summary line of s, escaped, as <pre>. */
static void
report_pre(FILE *f, hdo_check_struct *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m == NULL)
        return;
    hdo_check_write_report(m, s);
    hdo_check_write_summary(m, s);
    fclose(m);
    fprintf(f, "<pre>");
    hdo_xml_escape(f, buf);
    fprintf(f, "</pre>\n");
    free(buf);
}

/* Variable j's plot as inline SVG (gnuplot's, without its XML prologue):
   0, or a status with err filled. */
static int
inline_svg(FILE *f, hdo_check_struct *s, slong j, hdo_error_t *err)
{
    char path[] = "/tmp/hdo-report-XXXXXX";
    char *text = NULL, *svg;
    size_t len;
    int fd = mkstemp(path), st;
    if (fd < 0)
        return hdo_error_set(err, HDO_ERR_IO, 0, 0,
                             "cannot make a temporary file");
    close(fd);
    st = hdo_check_plot_svg(s, j, path, err);
    if (st == 0)
        st = hdo_read_whole_file(&text, &len, path, (size_t)1 << 30,
                                 HDO_FILE_REFUSE_NUL, err);
    remove(path);
    if (st != 0)
        return st;
    svg = strstr(text, "<svg");
    if (svg != NULL)
        fprintf(f, "%s\n", svg);
    free(text);
    return 0;
}

int
hdo_check_write_html(const char *path, hdo_check_struct *const *s,
                     const char *const *errors, slong n, int plots,
                     hdo_error_t *err)
{
    hdo_outfile o;
    FILE *f;
    slong npass = 0, nfail = 0, nerr = 0;
    const char *model = n > 0 && s[0]->model->name != NULL ? s[0]->model->name
                        : n > 0 && s[0]->opt.model_path != NULL
                            ? s[0]->opt.model_path
                            : "(no model)";
    int st = hdo_outfile_open(&o, path, err);
    if (st)
        return st;
    f = o.f;
    for (slong i = 0; i < n; i++) {
        const char *v = verdict_of(s[i], errors[i]);
        npass += v[0] == 'P';
        nfail += v[0] == 'F';
        nerr += v[0] == 'E';
    }
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
               "charset=\"utf-8\">\n<title>hdo check ");
    hdo_xml_escape(f, model);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
    fprintf(f, "<h1>hdo check: model ");
    hdo_xml_escape(f, model);
    fprintf(f,
            "</h1>\n<p><span class=\"%s\">%s</span>: %ld candidate%s, "
            "%ld passed, %ld failed, %ld could not be checked; one "
            "reference run (hdo %s, %ld digits).</p>\n",
            nfail + nerr > 0 ? "FAIL" : "PASS",
            nfail + nerr > 0 ? "FAIL" : "PASS", (long)n, n == 1 ? "" : "s",
            (long)npass, (long)nfail, (long)nerr, hdo_version(),
            n > 0 ? s[0]->opt.digits : 0L);
    /* the verdict table: the figures of each summary line */
    fprintf(f, "<table>\n<tr><th>candidate</th><th>verdict</th><th>rows</th>"
               "<th>variables failed</th><th>largest error / band</th>"
               "<th>events ref / cand</th><th>missing</th><th>extra</th>"
               "<th>wrong</th><th>not observable</th><th>first failure</th>"
               "</tr>\n");
    for (slong i = 0; i < n; i++) {
        const char *v = verdict_of(s[i], errors[i]);
        char buf[1400] = "";
        fprintf(f, "<tr><td><a href=\"#c%ld\">", (long)i);
        hdo_xml_escape(f, s[i]->opt.cand_path);
        fprintf(f, "</a></td><td class=\"%s\">%s</td>", v, v);
        if (errors[i] != NULL) {
            fprintf(f, "<td colspan=\"8\"></td><td>");
            hdo_xml_escape(f, errors[i]);
            fprintf(f, "</td></tr>\n");
            continue;
        }
        hdo_check_summary sm;
        hdo_check_summary_of(&sm, s[i]);
        if (sm.failed)
            hdo_check_first_failure(buf, sizeof buf, s[i]);
        fprintf(f,
                "<td class=\"num\">%ld</td><td class=\"num\">%ld/%ld</td>"
                "<td class=\"num\">%.3g</td><td class=\"num\">%ld / "
                "%ld%s</td><td class=\"num\">%ld</td><td class=\"num\">%ld"
                "</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td>"
                "<td>",
                (long)s[i]->cand->nrows, (long)sm.vars_failed, (long)sm.nvar,
                sm.value_ratio, (long)sm.events_ref, (long)sm.events_cand,
                sm.events_given ? "" : " (not given)", (long)sm.events_missing,
                (long)sm.events_extra, (long)sm.events_wrong,
                (long)sm.events_unobservable);
        hdo_xml_escape(f, buf);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
    if (!plots)
        fprintf(f, "<p>No plots: the gnuplot command is not on PATH here "
                   "(install gnuplot or gnuplot-nox).</p>\n");
    /* per candidate: the first failure, the plots, the report */
    for (slong i = 0; i < n && st == 0; i++) {
        const char *v = verdict_of(s[i], errors[i]);
        char buf[1400];
        fprintf(f, "<section id=\"c%ld\">\n<h2><span class=\"%s\">%s</span> ",
                (long)i, v, v);
        hdo_xml_escape(f, s[i]->opt.cand_path);
        fprintf(f, "</h2>\n");
        if (errors[i] != NULL) {
            fprintf(f, "<p>");
            hdo_xml_escape(f, errors[i]);
            fprintf(f, "</p>\n</section>\n");
            continue;
        }
        if (hdo_check_failed(s[i]) &&
            hdo_check_first_failure(buf, sizeof buf, s[i])) {
            fprintf(f, "<p><b>First failure:</b> ");
            hdo_xml_escape(f, buf);
            fprintf(f, "</p>\n");
        }
        for (slong j = 0; plots && j < s[i]->nvar && st == 0; j++)
            st = inline_svg(f, s[i], j, err);
        report_pre(f, s[i]);
        fprintf(f, "</section>\n");
    }
    fprintf(f, "</body>\n</html>\n");
    if (st != 0) {
        hdo_outfile_abort(&o);
        return st;
    }
    return hdo_outfile_commit(&o, err);
}
