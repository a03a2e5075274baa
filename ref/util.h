/* util.h -- the generic helpers of libhdo, each once: growable arrays,
   reading a whole file, allocation that asserts, JSON and XML escaping,
   safe output files, the clocks.  They know
   nothing of models or runs: every other module may use them
   (tools/module-order.txt). */
#ifndef HDO_UTIL_H
#define HDO_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <flint/flint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Grows the array *p of *alloc elements of size sz to hold at least need
   (doubling, from 16): returns 0, or HDO_ERR_MEMORY with *p and *alloc
   unchanged (the caller still frees *p). */
int hdo_grow(void **p, slong *alloc, slong need, size_t sz);

/* What hdo_read_whole_file does with a NUL byte. */
enum {
    /* refused: HDO_ERR_INPUT "a NUL byte at offset N: not a text file",
       with its line (hdo check's inputs) */
    HDO_FILE_REFUSE_NUL = 0,
    /* the text ends with the first NUL byte, which it keeps (*len counts
       it), so that a lexer reports it at its line and column (the model
       file) */
    HDO_FILE_STOP_AT_NUL = 1
};

/* Reads the file at path into a malloc'd buffer *text of *len bytes
   (a NUL added after them), stopping as soon as the file shows it is
   not text (a NUL byte, as flags says: /dev/zero stops at once) or
   holds more than max_bytes bytes (a runaway device).  Returns 0,
   HDO_ERR_IO ("cannot open: <the system's reason>", "cannot read:
   ..."), HDO_ERR_MEMORY, or HDO_ERR_INPUT for a refused NUL byte or
   "larger than M MiB, the limit of an input file" (with
   HDO_FILE_STOP_AT_NUL, HDO_ERR_INPUT always means the size).  On
   failure *text is NULL; err's file is left to the caller. */
int hdo_read_whole_file(char **text, size_t *len, const char *path,
                        size_t max_bytes, int flags, hdo_error_t *err);

/* Writes s as a JSON string literal: '"' and '\\' escaped, control
   characters as \u00XX, every other byte as it is (UTF-8 passes
   through).  The one JSON escaping of hdo (summary.json, hdo analyze
   --json). */
void hdo_json_string(FILE *f, const char *s);

/* Writes s escaped for XML text and attributes; bytes XML cannot hold
   (control characters, broken UTF-8) become '?'. */
void hdo_xml_escape(FILE *f, const char *s);

/* Output files (hdo check's JUnit report and plots).  A regular file (or
   a new one) is written to a temporary file beside it and renamed into
   place by hdo_outfile_commit; a path that exists and is not a regular
   file (device, FIFO, symlink) is written through and never replaced.
   A folder is refused (HDO_ERR_IO). */
typedef struct {
    const char *path;
    char *tmp; /* NULL when writing through */
    FILE *f;
} hdo_outfile;

int hdo_outfile_open(hdo_outfile *o, const char *path, hdo_error_t *err);
/* Closes, checks every write, renames: 0 or HDO_ERR_IO (the temporary
   file removed). */
int hdo_outfile_commit(hdo_outfile *o, hdo_error_t *err);
void hdo_outfile_abort(hdo_outfile *o);
/* Copies the file src onto dst as above. */
int hdo_outfile_copy(const char *dst, const char *src, hdo_error_t *err);

/* malloc (hdo_xmalloc) and calloc (hdo_xcalloc, zeroed) of n entries of
   size bytes, at least one entry; a failure is an assertion
   (HDO_ASSERT): for the library's own tables, not for inputs. */
void *hdo_xmalloc(slong n, size_t size);
void *hdo_xcalloc(slong n, size_t size);

/* The clocks, in seconds: hdo_clock_now the wall time (CLOCK_MONOTONIC,
   from an arbitrary origin: only differences mean something),
   hdo_clock_thread_cpu the CPU time of the calling thread
   (CLOCK_THREAD_CPUTIME_ID: the other thread of hdo_run_verify is not
   counted). */
double hdo_clock_now(void);
double hdo_clock_thread_cpu(void);

#ifdef __cplusplus
}
#endif

#endif
