/* internal.h -- private to ref/process/: the handlers hdo_process_init
   installs */
#ifndef HDO_PROCESS_INTERNAL_H
#define HDO_PROCESS_INTERNAL_H

/* memory.c: GMP's and FLINT's allocators that report and exit 2 */
void hdo_process_memory_init(void);
/* temps.c: removes the temporary files, then the signal's default */
void hdo_process_on_signal(int sig);

#endif
