/* temps.c -- the temporary files of the process, removed when it is
 * stopped by a signal or runs out of memory */
#include <signal.h>
#include <stddef.h>
#include <unistd.h>
#include "process.h"
#include "internal.h"

/* The temporary files of this process, removed by a signal or an
   allocation failure.  Fixed slots: the handlers may neither allocate
   nor take locks, and a path is set before its file exists.  A slot is
   taken by compare-and-swap, so two threads never take the same one; a
   path beyond NTEMP (more files written at once than any command
   writes) is only left behind by a signal, never lost otherwise. */
#define NTEMP 8
static char *volatile temp_paths[NTEMP];

void
hdo_temp_register(char *path)
{
    for (int i = 0; i < NTEMP; i++)
        if (__sync_bool_compare_and_swap(&temp_paths[i], NULL, path))
            return;
}

void
hdo_temp_forget(const char *path)
{
    for (int i = 0; i < NTEMP; i++)
        if (temp_paths[i] == path)
            temp_paths[i] = NULL;
}

/* unlink(2) is async-signal-safe; nothing else here needs to be. */
void
hdo_temp_remove_all(void)
{
    for (int i = 0; i < NTEMP; i++)
        if (temp_paths[i] != NULL)
            unlink(temp_paths[i]);
}

/* The handler of the stop signals (hdo_process_init). */
void
hdo_process_on_signal(int sig)
{
    hdo_temp_remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}
