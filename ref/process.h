/* process.h -- what a program built on libhdo may ask of its process
   (ref/process/): standard streams that cannot be mistaken for output
   files, allocation failures that end in a message instead of an abort,
   and temporary files removed when the process is stopped.  The hdo
   command calls hdo_process_init first; a library caller may, or may
   keep its own handlers. */
#ifndef HDO_PROCESS_H
#define HDO_PROCESS_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prepares the process: standard streams that were closed at start are
   replaced so that no output file can take their place (writes to a
   closed standard output still fail); GMP's, MPFR's and FLINT's
   allocation failures write "hdo: error: out of memory ..." on stderr,
   remove the registered temporary files and _exit(2) instead of
   aborting; SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGABRT remove the
   registered temporary files, then take their default action (a signal
   the parent ignores stays ignored). */
void hdo_process_init(void);

/* Flushes the standard output and checks that everything written to it
   arrived (a full disk, /dev/full, a closed stream).  Returns 0, or
   HDO_ERR_IO with err saying "cannot write the standard output: ...". */
int hdo_stdout_finish(hdo_error_t *err);

/* Registers PATH (kept, not copied, until forgotten) as a temporary file
   to remove if the process is stopped by a signal or runs out of
   memory; at most 8 at a time.  hdo_temp_forget takes the same pointer
   once the file is renamed or removed.  hdo_temp_remove_all unlinks
   every registered file; it is async-signal-safe. */
void hdo_temp_register(char *path);
void hdo_temp_forget(const char *path);
void hdo_temp_remove_all(void);

#ifdef __cplusplus
}
#endif

#endif
