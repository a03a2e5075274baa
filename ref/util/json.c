/* json.c -- JSON string literals: hdo_json_string, the one JSON escaping
 * of hdo (summary.json, hdo analyze --json) */
#include "util.h"

void
hdo_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}
