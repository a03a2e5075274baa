/* outfile.c -- writing an output file (JUnit report, plot) without ever
   replacing what the user did not mean to replace: a regular file (or a
   new one) is written beside it and renamed over it once complete; a
   path that exists and is not a regular file (a device such as
   /dev/null, a FIFO, a symlink) is written through, never renamed over,
   so that even as root `--junit /dev/null` leaves /dev/null a device. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

int
hdo_outfile_open(hdo_outfile *o, const char *path, hdo_error_t *err)
{
    struct stat st;
    int fd;
    memset(o, 0, sizeof o[0]);
    o->path = path;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return hdo_error_set(err, HDO_ERR_IO, 0, 0,
                                 "cannot write: it is a folder");
        o->f = fopen(path, "w");
        if (o->f == NULL)
            return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write: %s",
                                 strerror(errno));
        return 0;
    }
    o->tmp = malloc(strlen(path) + 16);
    if (o->tmp == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    sprintf(o->tmp, "%s.tmp.XXXXXX", path);
    fd = mkstemp(o->tmp);
    if (fd < 0 || (o->f = fdopen(fd, "w")) == NULL) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write: %s",
                             strerror(e));
    }
    /* mkstemp makes 0600; an output file is as readable as any other */
    {
        mode_t um = umask(0);
        umask(um);
        fchmod(fd, 0666 & ~um);
    }
    return 0;
}

void
hdo_outfile_abort(hdo_outfile *o)
{
    if (o->f != NULL)
        fclose(o->f);
    if (o->tmp != NULL) {
        unlink(o->tmp);
        free(o->tmp);
    }
    memset(o, 0, sizeof o[0]);
}

int
hdo_outfile_commit(hdo_outfile *o, hdo_error_t *err)
{
    int ok = o->f != NULL && !ferror(o->f), e;
    if (o->f != NULL) {
        ok = (fclose(o->f) == 0) && ok;
        o->f = NULL;
    }
    e = errno;
    if (ok && o->tmp != NULL && rename(o->tmp, o->path) != 0) {
        ok = 0;
        e = errno;
    }
    if (!ok) {
        hdo_outfile_abort(o);
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write: %s",
                             strerror(e ? e : EIO));
    }
    free(o->tmp);
    memset(o, 0, sizeof o[0]);
    return 0;
}

int
hdo_outfile_copy(const char *dst, const char *src, hdo_error_t *err)
{
    hdo_outfile o;
    char buf[65536];
    size_t n;
    FILE *in = fopen(src, "rb");
    int st;
    if (in == NULL)
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot read %s: %s", src,
                             strerror(errno));
    st = hdo_outfile_open(&o, dst, err);
    if (st) {
        fclose(in);
        return st;
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, o.f) != n)
            break;
    if (ferror(in)) {
        fclose(in);
        hdo_outfile_abort(&o);
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot read %s", src);
    }
    fclose(in);
    return hdo_outfile_commit(&o, err);
}
