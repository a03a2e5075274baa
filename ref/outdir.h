/* outdir.h -- a folder of result files written as one set
   (ref/outdir/outdir.c): locked, checked before computing, filled
   through temporary files renamed into place together */
#ifndef HDO_OUTDIR_H
#define HDO_OUTDIR_H

#include <stdio.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The files of one result, named NAMES[0..N-1] inside DIR.  Every hdo
   process that touches them holds an exclusive flock(2) on DIR, so that
   concurrent runs into one folder leave the complete set of one of them
   (docs/cli.md, "Output files and safety"). */
typedef struct {
    const char *dir;
    const char *const *names;
    int n;
} hdo_outdir;

/* Makes DIR (mkdir -p) and checks, before any computing, that it is a
   folder hdo may write into and that each of the names is absent or a
   regular file (a device, FIFO, symlink or folder there is refused: hdo
   never replaces one); then removes the files of an earlier result, so
   that a run that fails or is interrupted from here on leaves none.
   Returns 0, or HDO_ERR_IO with err saying why ("DIR/trajectory.csv is
   a FIFO: hdo replaces only regular files ..."; err->file NULL). */
int hdo_outdir_prepare(const hdo_outdir *od, hdo_error_t *err);

/* Writes file i with writer(f, i, data, err) (0 or an hdo status) into a
   temporary file of DIR for every i, then, holding the lock, renames all
   of them into place with SIGINT/SIGTERM held back (the temporary files
   are registered with hdo_temp_register meanwhile).  On any failure it
   removes the temporaries and whatever it renamed and returns the
   writer's status and err, or HDO_ERR_IO with err saying why; otherwise
   0. */
typedef int (*hdo_outdir_writer)(FILE *f, int i, void *data, hdo_error_t *err);
int hdo_outdir_commit(const hdo_outdir *od, hdo_outdir_writer writer,
                      void *data, hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
