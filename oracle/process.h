/* process.h -- the process-wide duties of the hdo command (oracle/process.c) */
#ifndef HDO_PROCESS_H
#define HDO_PROCESS_H

/* Prepares the process before any command runs: standard streams that
   were closed at start are replaced so that no output file can take
   their place (writes to a closed standard output still fail); GMP's,
   MPFR's and FLINT's allocation failures print "out of memory" and exit
   with 2 instead of aborting; SIGINT, SIGTERM, SIGHUP, SIGQUIT and
   SIGABRT remove the registered temporary files, then take their
   default action. */
void hdo_process_init(void);

/* Flushes the standard output and checks that everything written to it
   arrived (a full disk, /dev/full, a closed stream).  Returns 0, or
   prints "hdo: error: cannot write the standard output: ..." on stderr
   and returns 2.  main() calls it after every command and turns an exit
   code of 0 or 1 into 2 when it fails; a command may call it earlier. */
int hdo_stdout_finish(void);

/* Registers PATH (kept, not copied, until forgotten) as a temporary file
   to remove if the process is stopped by a signal or runs out of
   memory; at most 8 at a time.  hdo_temp_forget takes the same pointer
   once the file is renamed or removed. */
void hdo_temp_register(char *path);
void hdo_temp_forget(const char *path);

#endif
