/* file.c -- reading a whole file, the one reader of hdo's inputs (the
 * model, and hdo check's candidate, events and tolerance files) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

int
hdo_read_whole_file(char **text, size_t *len, const char *path,
                    size_t max_bytes, int flags, hdo_error_t *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int nul = 0;
    *text = NULL;
    *len = 0;
    if (f == NULL)
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot open: %s",
                             strerror(errno));
    /* In growing chunks: the size of a pipe or a /proc file is not known
       in advance. */
    for (;;) {
        size_t got;
        if (cap - n < 65536 + 1) {
            size_t ncap = cap < 65536 ? 262144 : 2 * cap;
            char *nb = ncap > cap ? realloc(buf, ncap) : NULL;
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                     "out of memory reading the file");
            }
            buf = nb;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        /* A text file has no NUL byte: stop at the first one (hdo check
           m cand /dev/zero must not read forever). */
        char *z = got > 0 ? memchr(buf + n, '\0', got) : NULL;
        if (z != NULL && (flags & HDO_FILE_STOP_AT_NUL)) {
            n = (size_t)(z - buf) + 1;
            nul = 1;
            break;
        }
        if (z != NULL) {
            int line = 1;
            for (char *p = buf; p < z; p++)
                line += *p == '\n';
            size_t off = (size_t)(z - buf);
            free(buf);
            fclose(f);
            return hdo_error_set(err, HDO_ERR_INPUT, line, 0,
                                 "a NUL byte at offset %zu: not a text file",
                                 off);
        }
        n += got;
        if (n > max_bytes) {
            free(buf);
            fclose(f);
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "larger than %zu MiB, the limit of an input "
                                 "file",
                                 max_bytes >> 20);
        }
        if (got == 0)
            break;
    }
    if (!nul && ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot read: %s",
                             strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}
