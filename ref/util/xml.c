/* xml.c -- XML text and attribute escaping (the JUnit report) */
#include <string.h>
#include "util.h"

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
