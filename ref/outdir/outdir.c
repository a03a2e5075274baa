/* outdir.c -- a folder of result files written as one set: locked, checked
 * before computing, filled through temporaries renamed into place */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include "outdir.h"
#include "process.h"

#define MAXFILES 8 /* five for hdo run --certify (ref/certify/output.c) */

static char *
join(const char *dir, const char *prefix, const char *name)
{
    size_t n = strlen(dir) + strlen(prefix) + strlen(name) + 2;
    char *p = malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s/%s%s", dir, prefix, name);
    return p;
}

/* mkdir -p PATH: 0, or -1 with errno telling why (POSIX style, not an
   hdo status). */
static int
make_dirs(const char *path)
{
    char *p = strdup(path);
    int rc = 0;
    if (p == NULL)
        return -1;
    /* from the second byte: a leading '/' is the root, not a separator
       after a component (PATH is not empty: the caller checked) */
    for (char *q = p + 1; *q && rc == 0; q++) {
        if (*q != '/')
            continue;
        *q = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            rc = -1;
        *q = '/';
    }
    if (rc == 0 && mkdir(p, 0777) != 0 && errno != EEXIST)
        rc = -1;
    int saved = errno;
    free(p);
    errno = saved;
    return rc;
}

/* The status of a failure: err's, or out of memory when nothing was
   said (a path that could not be allocated). */
static int
fail(hdo_error_t *err)
{
    if (err->status == 0)
        hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    return err->status;
}

static const char *
kind_of(mode_t m)
{
    return S_ISREG(m)    ? "a regular file"
           : S_ISDIR(m)  ? "a folder"
           : S_ISLNK(m)  ? "a symbolic link"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* The lock every hdo process takes before touching the result files:
   an fd of DIR with an exclusive flock, or -1 (err filled). */
static int
lock_dir(const hdo_outdir *od, hdo_error_t *err)
{
    int fd = open(od->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        hdo_error_set(err, HDO_ERR_IO, 0, 0,
                      "cannot open the output folder %s: %s", od->dir,
                      strerror(errno));
        return -1;
    }
    while (flock(fd, LOCK_EX) != 0) {
        if (errno == EINTR)
            continue;
        /* a file system without locks (some network mounts): go on
           unlocked rather than refuse to write at all */
        break;
    }
    return fd;
}

/* 0 when every result name in DIR is absent or a regular file; else 2
   with a message.  Run under the lock. */
static int
check_names(const hdo_outdir *od, hdo_error_t *err)
{
    for (int i = 0; i < od->n; i++) {
        char *p = join(od->dir, "", od->names[i]);
        struct stat sb;
        int rc = 0;
        if (p == NULL)
            return fail(err);
        if (lstat(p, &sb) == 0) {
            if (!S_ISREG(sb.st_mode)) {
                hdo_error_set(err, HDO_ERR_IO, 0, 0,
                              "%s is %s: hdo replaces only regular files "
                              "(remove it or choose another --out folder)",
                              p, kind_of(sb.st_mode));
                rc = fail(err);
            }
        } else if (errno != ENOENT) {
            hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot examine %s: %s", p,
                          strerror(errno));
            rc = fail(err);
        }
        free(p);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Removes the result files in DIR (regular files only: check_names has
   refused anything else). */
static void
remove_names(const hdo_outdir *od)
{
    for (int i = 0; i < od->n; i++) {
        char *p = join(od->dir, "", od->names[i]);
        struct stat sb;
        if (p != NULL && lstat(p, &sb) == 0 && S_ISREG(sb.st_mode))
            unlink(p);
        free(p);
    }
}

/* Creates a new temporary file for NAME in DIR: ".tmp-PID-K-NAME",
   O_EXCL and O_NOFOLLOW so that nothing already there (a leftover, a
   planted symlink) is written through; *path receives the name. */
static FILE *
open_temp(const hdo_outdir *od, const char *name, char **path, hdo_error_t *err)
{
    for (int k = 0; k < 1000; k++) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, ".tmp-%ld-%d-", (long)getpid(), k);
        char *p = join(od->dir, prefix, name);
        if (p == NULL)
            return NULL;
        hdo_temp_register(p);
        int fd =
            open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            FILE *f = fdopen(fd, "w");
            if (f == NULL) {
                close(fd);
                unlink(p);
                hdo_temp_forget(p);
                free(p);
                return NULL;
            }
            *path = p;
            return f;
        }
        int saved = errno;
        hdo_temp_forget(p);
        if (saved != EEXIST) {
            hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write %s: %s", p,
                          strerror(saved));
            free(p);
            return NULL;
        }
        free(p);
    }
    return NULL;
}

int
hdo_outdir_prepare(const hdo_outdir *od, hdo_error_t *err)
{
    struct stat sb;
    hdo_error_clear(err);
    if (od->dir[0] == '\0') {
        hdo_error_set(err, HDO_ERR_IO, 0, 0, "--out: the folder name is empty");
        return fail(err);
    }
    if (make_dirs(od->dir) != 0) {
        hdo_error_set(err, HDO_ERR_IO, 0, 0,
                      "cannot create the output folder %s: %s", od->dir,
                      strerror(errno));
        return fail(err);
    }
    if (stat(od->dir, &sb) != 0) {
        hdo_error_set(err, HDO_ERR_IO, 0, 0,
                      "cannot examine the output folder %s: %s", od->dir,
                      strerror(errno));
        return fail(err);
    }
    if (!S_ISDIR(sb.st_mode)) {
        hdo_error_set(err, HDO_ERR_IO, 0, 0,
                      "the output folder %s is %s, not a folder", od->dir,
                      kind_of(sb.st_mode));
        return fail(err);
    }
    int fd = lock_dir(od, err);
    if (fd < 0)
        return fail(err);
    int rc = check_names(od, err);
    if (rc == 0) {
        /* can a file be created here?  Better to know now than after
           hours of computing */
        char *probe = NULL;
        FILE *f = open_temp(od, "probe", &probe, err);
        if (f == NULL) {
            rc = fail(err);
        } else {
            fclose(f);
            unlink(probe);
            hdo_temp_forget(probe);
            free(probe);
        }
    }
    if (rc == 0)
        remove_names(od);
    close(fd);
    return rc;
}

int
hdo_outdir_commit(const hdo_outdir *od, hdo_outdir_writer writer, void *data,
                  hdo_error_t *err)
{
    char *tmp[MAXFILES] = {NULL}, *fin[MAXFILES] = {NULL};
    int rc = 0, renamed = 0, fd = -1;
    sigset_t hold, old;

    hdo_error_clear(err);
    if (od->n > MAXFILES)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "more than %d output files", MAXFILES);
    for (int i = 0; i < od->n && rc == 0; i++) {
        fin[i] = join(od->dir, "", od->names[i]);
        FILE *f =
            fin[i] != NULL ? open_temp(od, od->names[i], tmp + i, err) : NULL;
        if (f == NULL) {
            rc = fail(err);
            break;
        }
        int st = writer(f, i, data, err);
        if (fclose(f) != 0 && st == 0)
            st = hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write %s: %s",
                               tmp[i], strerror(errno));
        if (st != 0)
            rc = st;
    }
    /* the renames, under the lock and with the stop signals held back,
       so that the folder never shows files of two runs */
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    sigaddset(&hold, SIGHUP);
    sigaddset(&hold, SIGQUIT);
    sigprocmask(SIG_BLOCK, &hold, &old);
    if (rc == 0 && (fd = lock_dir(od, err)) < 0)
        rc = fail(err);
    if (rc == 0)
        rc = check_names(od, err);
    for (int i = 0; i < od->n && rc == 0; i++) {
        if (rename(tmp[i], fin[i]) != 0) {
            hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot rename %s to %s: %s",
                          tmp[i], fin[i], strerror(errno));
            rc = fail(err);
        } else {
            renamed = i + 1;
        }
    }
    for (int i = 0; i < od->n; i++) {
        if (tmp[i] != NULL) {
            if (i >= renamed)
                unlink(tmp[i]);
            hdo_temp_forget(tmp[i]);
        }
        if (rc != 0 && i < renamed)
            unlink(fin[i]);
        free(tmp[i]);
        free(fin[i]);
    }
    if (fd >= 0)
        close(fd);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}
