/* memory.c -- HDO_ERR_MEMORY provoked on purpose: the model reader and
 * the candidate CSV reader under an address-space limit that their input
 * does not fit, in a child process (setrlimit(RLIMIT_AS)). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include "check.h"
#include "check/formats/formats.h"
#include "model.h"

/* Under AddressSanitizer the process reserves terabytes of shadow
   memory, so an address-space limit stops everything, not one malloc. */
#if defined(__SANITIZE_ADDRESS__)
#define HDO_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HDO_TEST_ASAN 1
#endif
#endif

/* The process' current virtual size in bytes (/proc/self/statm). */
static size_t
vm_size(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    cr_assert_not_null(f);
    cr_assert_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* n copies of unit: text that is already allocated before the limit. */
static char *
repeat(const char *head, const char *unit, size_t n, const char *tail,
       size_t *len)
{
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
    char *s = malloc(h + n * u + t + 1);
    cr_assert_not_null(s);
    memcpy(s, head, h);
    for (size_t i = 0; i < n; i++)
        memcpy(s + h + i * u, unit, u);
    memcpy(s + h + n * u, tail, t + 1);
    *len = h + n * u + t;
    return s;
}

/* Runs fn(text, len) in a child whose address space may grow by only
   `room` bytes; returns what fn returned (the child's exit status): 0
   when it saw HDO_ERR_MEMORY with an "out of memory" message. */
static int
limited(int (*fn)(const char *, size_t), const char *text, size_t len,
        size_t room)
{
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = vm_size() + room;
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(90);
        _exit(fn(text, len));
    }
    int ws;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    cr_assert(WIFEXITED(ws), "child killed by signal %d",
              WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
    return WEXITSTATUS(ws);
}

static int
parse_model(const char *text, size_t len)
{
    hdo_model_t model;
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_model_init(model);
    int st = hdo_model_parse_string(model, text, len, "big.hdae", &err);
    int ok = st == HDO_ERR_MEMORY && err.status == HDO_ERR_MEMORY &&
             strstr(err.message, "out of memory") != NULL;
    hdo_model_clear(model); /* must still work after the failure */
    return ok ? 0 : st == 0 ? 2 : 3;
}

static int
read_csv(const char *text, size_t len)
{
    hdo_csv_t csv;
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_csv_init(csv);
    int st = hdo_csv_read_string(csv, text, len, "big.csv", &err);
    int ok = st == HDO_ERR_MEMORY && err.status == HDO_ERR_MEMORY &&
             strstr(err.message, "out of memory") != NULL;
    hdo_csv_clear(csv);
    return ok ? 0 : st == 0 ? 2 : 3;
}

/* Interns text (a mode name) in an empty table: exit 0 when that failed
   with HDO_ERR_MEMORY (and not -1, which is HDO_ERR_SYNTAX), 2 when it
   was interned at index 0, 3 otherwise. */
static int
intern_name(const char *text, size_t len)
{
    hdo_strtab tab;
    hdo_strtab_init(&tab);
    slong i = hdo_strtab_intern(&tab, text, 1, 1);
    hdo_strtab_clear(&tab); /* must still work after the failure */
    return i == HDO_ERR_MEMORY ? 0 : i == 0 ? 2 : 3;
}

/* 8 million tokens (16 MB of text) need a 96 MB token array: with 24 MB
   of room the lexer's realloc fails.  The same text with room to spare
   gets past the lexer (and is refused as a model: exit 3, not memory),
   which shows that the limit, not the text, made the difference. */
Test(memory, model_reader_out_of_memory, .timeout = 120)
{
#ifdef HDO_TEST_ASAN
    cr_skip_test("address-space limits do not work under AddressSanitizer");
#else
    size_t len;
    char *text = repeat("model big\n", "a ", 8000000, "\n", &len);
    cr_assert_eq(limited(parse_model, text, len, 24u << 20), 0);
    cr_assert_eq(limited(parse_model, text, len, 1024u << 20), 3);
    free(text);
#endif
}

/* A candidate of 2 million rows: its values do not fit in 24 MB. */
Test(memory, csv_reader_out_of_memory, .timeout = 120)
{
#ifdef HDO_TEST_ASAN
    cr_skip_test("address-space limits do not work under AddressSanitizer");
#else
    size_t len;
    char *text = repeat("time,x,y,z\n", "1,2,3,4\n", 2000000, "", &len);
    cr_assert_eq(limited(read_csv, text, len, 24u << 20), 0);
    cr_assert_eq(limited(read_csv, text, len, 1024u << 20), 2);
    free(text);
#endif
}

/* A mode name of 64 MB (a hostile events or candidate file): its copy in
   the table of mode names does not fit in 24 MB of room. */
Test(memory, mode_name_table_out_of_memory, .timeout = 120)
{
#ifdef HDO_TEST_ASAN
    cr_skip_test("address-space limits do not work under AddressSanitizer");
#else
    size_t len;
    char *text = repeat("", "m", 64u << 20, "", &len);
    cr_assert_eq(limited(intern_name, text, len, 24u << 20), 0);
    cr_assert_eq(limited(intern_name, text, len, 1024u << 20), 2);
    free(text);
#endif
}
