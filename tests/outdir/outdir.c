/* outdir.c -- a result folder written as one set: checked before, all
 * files or none after, never through a FIFO */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include "outdir.h"
#include "../scratch_dir.h"

static const char *const names[] = {"a.txt", "b.txt"};

static void
setup(void)
{
    scratch_make("outdir");
}

/* Writes "file i" into file i; fails (as a full disk would) on file
 *fail_at. */
static int
writer(FILE *f, int i, void *data, hdo_error_t *err)
{
    fprintf(f, "file %d\n", i);
    if (data != NULL && *(int *)data == i)
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "disk full");
    return 0;
}

static int
entries(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int n = 0;
    cr_assert(d != NULL);
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.' || strncmp(e->d_name, ".tmp-", 5) == 0;
    closedir(d);
    return n;
}

static char *
slurp(const char *name)
{
    static char buf[256];
    char path[128];
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

Test(outdir, all_or_nothing, .init = setup, .fini = scratch_remove)
{
    char sub[128];
    hdo_error_t err;
    int fail_at = 1;
    snprintf(sub, sizeof sub, "%s/x/y", scratch); /* made with its parents */
    hdo_outdir od = {sub, names, 2};
    cr_assert_eq(hdo_outdir_prepare(&od, &err), 0, "%s", err.message);
    cr_assert_eq(hdo_outdir_commit(&od, writer, NULL, &err), 0, "%s",
                 err.message);
    cr_assert_eq(entries(sub), 2);
    od.dir = scratch;
    cr_assert_eq(hdo_outdir_prepare(&od, &err), 0, "%s", err.message);
    cr_assert_eq(hdo_outdir_commit(&od, writer, NULL, &err), 0);
    cr_expect_str_eq(slurp("b.txt"), "file 1\n");
    /* the next run removes the earlier result before computing, and a
       writer that fails leaves neither files nor temporaries */
    cr_assert_eq(hdo_outdir_prepare(&od, &err), 0);
    cr_expect(slurp("a.txt") == NULL);
    cr_assert_eq(hdo_outdir_commit(&od, writer, &fail_at, &err), HDO_ERR_IO);
    cr_expect_str_eq(err.message, "disk full");
    cr_expect_eq(entries(scratch), 1); /* the folder x only */
}

Test(outdir, refuses_non_regular, .init = setup, .fini = scratch_remove)
{
    char fifo[128], file[128];
    hdo_error_t err;
    hdo_outdir od = {scratch, names, 2};
    snprintf(fifo, sizeof fifo, "%s/b.txt", scratch);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    cr_assert_eq(hdo_outdir_prepare(&od, &err), HDO_ERR_IO);
    cr_expect(strstr(err.message, "b.txt is a FIFO: hdo replaces only "
                                  "regular files") != NULL,
              "%s", err.message);
    cr_expect(err.file == NULL);
    /* a folder that is a file */
    snprintf(file, sizeof file, "%s/plain", scratch);
    fclose(fopen(file, "w"));
    od.dir = file;
    cr_assert_eq(hdo_outdir_prepare(&od, &err), HDO_ERR_IO);
    od.dir = "";
    cr_assert_eq(hdo_outdir_prepare(&od, &err), HDO_ERR_IO);
}
