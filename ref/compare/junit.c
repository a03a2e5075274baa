/* junit.c -- the JUnit XML report of hdo check: one test case per
   compared variable and one for the events, or one test case with an
   <error> when the check could not be done (exit 2), so that a CI job
   never reads a stale report from an earlier run. */
#include <string.h>
#include "compare.h"

/* Length of the well-formed UTF-8 sequence at p (at most n bytes) that
   XML 1.0 allows, or 0. */
static size_t
utf8_len(const unsigned char *p, size_t n)
{
    size_t len;
    unsigned cp;
    if (p[0] < 0x80)
        return 1;
    if ((p[0] & 0xE0) == 0xC0)
        len = 2, cp = p[0] & 0x1F;
    else if ((p[0] & 0xF0) == 0xE0)
        len = 3, cp = p[0] & 0x0F;
    else if ((p[0] & 0xF8) == 0xF0)
        len = 4, cp = p[0] & 0x07;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
        return 0;
    return len;
}

void
hdo_xml_escape(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n > 0) {
        size_t l = 1;
        switch (*p) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&apos;", f);
            break;
        case '\n':
            fputs("&#10;", f);
            break;
        case '\t':
            fputs("&#9;", f);
            break;
        default:
            l = utf8_len(p, n);
            if (l == 0 || (*p < 0x20)) {
                fputc('?', f);
                l = 1;
            } else {
                fwrite(p, 1, l, f);
            }
        }
        p += l;
        n -= l;
    }
}

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
