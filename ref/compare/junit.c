/* junit.c -- the JUnit XML report of hdo check: one test case per
   compared variable and one for the events, or one test case with an
   <error> when the check could not be done (exit 2), so that a CI job
   never reads a stale report from an earlier run. */
#include <string.h>
#include "compare.h"

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
    hdo_outfile o;
    FILE *f;
    slong nfail = 0;
    const char *last = strrchr(command, ' ');
    int st = hdo_outfile_open(&o, path, err);
    if (st)
        return st;
    f = o.f;
    if (error != NULL)
        n = 0;
    for (slong k = 0; k < n; k++)
        nfail += tc[k].failure != NULL;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    fprintf(f, "  <testsuite name=\"");
    hdo_xml_escape(f, command);
    fputc(' ', f);
    hdo_xml_escape(f, suite);
    fprintf(f,
            "\" tests=\"%ld\" failures=\"%ld\" errors=\"%d\" time=\"%.3f\">\n",
            (long)(error != NULL ? 1 : n), (long)nfail, error != NULL, seconds);
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
        if (tc[k].failure != NULL) {
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
