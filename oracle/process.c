/* process.c -- what every hdo command shares about its process: the
 * standard streams, out-of-memory handling, and temporary files removed
 * when the process is stopped */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gmp.h>
#include <flint/flint.h>
#include "process.h"

/* The temporary files of this process, removed by a signal or an
   allocation failure.  Fixed slots: the handlers may neither allocate
   nor take locks, and a path is set before its file exists. */
#define NTEMP 8
static char *volatile temp_paths[NTEMP];

void
hdo_temp_register(char *path)
{
    for (int i = 0; i < NTEMP; i++)
        if (temp_paths[i] == NULL) {
            temp_paths[i] = path;
            return;
        }
}

void
hdo_temp_forget(const char *path)
{
    for (int i = 0; i < NTEMP; i++)
        if (temp_paths[i] == path)
            temp_paths[i] = NULL;
}

/* unlink(2) is async-signal-safe; nothing else here needs to be. */
static void
remove_temps(void)
{
    for (int i = 0; i < NTEMP; i++)
        if (temp_paths[i] != NULL)
            unlink(temp_paths[i]);
}

static void
on_signal(int sig)
{
    remove_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Called where an allocation failed: there is no way to go on, and a
   crash (abort, core dump) would look like a bug.  Writes with write(2):
   stdio may need memory. */
static void
out_of_memory(void)
{
    static const char msg[] = "hdo: error: out of memory (the computation "
                              "needs more memory than this process may "
                              "use)\n";
    remove_temps();
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more can be said */
    }
    _exit(2);
}

static void *
oom_malloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL && n != 0)
        out_of_memory();
    return p;
}

static void *
oom_calloc(size_t n, size_t m)
{
    void *p = calloc(n, m);
    if (p == NULL && n != 0 && m != 0)
        out_of_memory();
    return p;
}

static void *
oom_realloc(void *q, size_t n)
{
    void *p = realloc(q, n);
    if (p == NULL && n != 0)
        out_of_memory();
    return p;
}

static void *
gmp_realloc(void *q, size_t old, size_t n)
{
    (void)old;
    return oom_realloc(q, n);
}

static void
gmp_free(void *q, size_t n)
{
    (void)n;
    free(q);
}

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
    /* GMP (and MPFR, which allocates through GMP's functions) and FLINT
       abort on a failed allocation; these report it and exit 2. */
    mp_set_memory_functions(oom_malloc, gmp_realloc, gmp_free);
    __flint_set_memory_functions(oom_malloc, oom_calloc, oom_realloc, free);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
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
hdo_stdout_finish(void)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int saved = errno;
    if (!bad)
        return 0;
    fprintf(stderr, "hdo: error: cannot write the standard output: %s\n",
            saved != 0 ? strerror(saved) : "write error");
    return 2;
}
