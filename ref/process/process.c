/* process.c -- hdo_process_init: the standard streams, the allocation
 * handlers and the stop signals; hdo_stdout_finish */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "process.h"
#include "internal.h"

/* A standard stream that is closed at start would be reused by the next
   open(2): hdo would then print its report into an output file.  Fd 1
   becomes /dev/null opened for reading, so that every write to it fails
   (and hdo_stdout_finish reports it); fds 0 and 2 become /dev/null. */
static void
guard_fd(int fd, int flags)
{
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
        return;
    int g = open("/dev/null", flags);
    if (g >= 0 && g != fd) {
        dup2(g, fd);
        close(g);
    }
}

void
hdo_process_init(void)
{
    guard_fd(STDIN_FILENO, O_RDONLY);
    guard_fd(STDOUT_FILENO, O_RDONLY);
    guard_fd(STDERR_FILENO, O_WRONLY);
    hdo_process_memory_init();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = hdo_process_on_signal;
    sigemptyset(&sa.sa_mask);
    /* SIGABRT too: a failed assertion still removes the temporaries
       before the default action (core dump) */
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        /* a signal ignored by the parent (nohup) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

int
hdo_stdout_finish(hdo_error_t *err)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int saved = errno;
    if (!bad)
        return 0;
    return hdo_error_set(err, HDO_ERR_IO, 0, 0,
                         "cannot write the standard output: %s",
                         saved != 0 ? strerror(saved) : "write error");
}
