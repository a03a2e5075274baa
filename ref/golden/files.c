/* files.c -- the files of a golden reference as text: read from a
 * folder, rendered from a run, written as one set */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "golden.h"
#include "outdir.h"

static const char *const names[HDO_GOLDEN_NFILES] = {
    "trajectory.csv", "events.csv", "summary.json", "ref.json"};

const char *
hdo_golden_file_name(int file)
{
    return file >= 0 && file < HDO_GOLDEN_NFILES ? names[file] : "?";
}

void
hdo_golden_files_init(hdo_golden_files_t g)
{
    memset(g, 0, sizeof *g);
}

void
hdo_golden_files_clear(hdo_golden_files_t g)
{
    free(g->where);
    for (int k = 0; k < HDO_GOLDEN_NFILES; k++) {
        free(g->path[k]);
        free(g->text[k]);
    }
    memset(g, 0, sizeof *g);
}

static int
nomem(hdo_error_t *err)
{
    return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
}

/* where and the path of every file, "WHERE/NAME". */
static int
set_names(hdo_golden_files_t g, const char *where)
{
    g->where = strdup(where);
    if (g->where == NULL)
        return -1;
    for (int k = 0; k < HDO_GOLDEN_NFILES; k++)
        if (asprintf(g->path + k, "%s/%s", where, names[k]) < 0) {
            g->path[k] = NULL;
            return -1;
        }
    return 0;
}

int
hdo_golden_files_read(hdo_golden_files_t g, const char *dir, int need_record,
                      hdo_error_t *err)
{
    if (set_names(g, dir) != 0)
        return nomem(err);
    for (int k = 0; k < HDO_GOLDEN_NFILES; k++) {
        hdo_error_t e;
        hdo_error_clear(&e);
        int st =
            hdo_read_whole_file(g->text + k, g->len + k, g->path[k],
                                HDO_INPUT_MAX_BYTES, HDO_FILE_REFUSE_NUL, &e);
        if (st == HDO_ERR_IO && k == HDO_GOLDEN_RECORD && !need_record &&
            access(g->path[k], F_OK) != 0)
            continue; /* a result of hdo run, without its options */
        if (st != 0)
            return hdo_error_set(
                err, st, 0, 0, "%s: %s%s", g->path[k], e.message,
                k == HDO_GOLDEN_RECORD
                    ? " (a golden reference is written by hdo ref write)"
                    : "");
    }
    return 0;
}

/* Renders file k of a run into g->text[k]. */
static int
render_one(hdo_golden_files_t g, int k, const hdo_result_t res,
           const hdo_model_t model, long verified, const hdo_golden_record *rec,
           hdo_error_t *err)
{
    FILE *f = open_memstream(g->text + k, g->len + k);
    int st;
    if (f == NULL)
        return nomem(err);
    st = k == HDO_GOLDEN_TRAJECTORY
             ? hdo_write_trajectory(f, res, model, res->digits, err)
         : k == HDO_GOLDEN_EVENTS
             ? hdo_write_events(f, res, model, res->digits, err)
         : k == HDO_GOLDEN_SUMMARY
             ? hdo_write_summary(f, res, model, verified, err)
             : hdo_golden_record_write(f, rec, err);
    if (fclose(f) != 0 && st == 0)
        st = nomem(err);
    return st;
}

int
hdo_golden_files_render(hdo_golden_files_t g, const char *where,
                        const hdo_result_t res, const hdo_model_t model,
                        long verified, const hdo_golden_record *rec,
                        hdo_error_t *err)
{
    if (set_names(g, where) != 0)
        return nomem(err);
    for (int k = 0; k < HDO_GOLDEN_NFILES; k++) {
        int st;
        if (k == HDO_GOLDEN_RECORD && rec == NULL)
            break;
        if ((st = render_one(g, k, res, model, verified, rec, err)) != 0)
            return st;
    }
    return 0;
}

int
hdo_golden_prepare(const char *dir, hdo_error_t *err)
{
    hdo_outdir od = {dir, names, HDO_GOLDEN_NFILES};
    return hdo_outdir_prepare(&od, err);
}

static int
write_one(FILE *f, int i, void *data, hdo_error_t *err)
{
    const hdo_golden_files_struct *g = data;
    if (fwrite(g->text[i], 1, g->len[i], f) != g->len[i])
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write %s",
                             names[i]);
    return 0;
}

int
hdo_golden_files_write(const char *dir, const hdo_golden_files_t g,
                       hdo_error_t *err)
{
    /* ref.json last in names[]: without one, the first three */
    int n = g->text[HDO_GOLDEN_RECORD] != NULL ? HDO_GOLDEN_NFILES
                                               : HDO_GOLDEN_RECORD;
    hdo_outdir od = {dir, names, n};
    return hdo_outdir_commit(&od, write_one, (void *)g, err);
}
