/* formats.h -- private to the formats layer of hdo check: the CSV
   tokenizer shared by the candidate and the
   events file readers, and the strict C-locale number parser */
#ifndef HDO_CHECK_FORMATS_H
#define HDO_CHECK_FORMATS_H

#include <locale.h>
#include "check.h"
#include "util.h"

/* One decoded cell: NUL-terminated text (quotes removed, surrounding
   blanks trimmed), its length (it may hold NUL bytes from a hostile file)
   and the 1-based column of its first character. */
typedef struct {
    char *s;
    size_t len, cap;
    int col;
} csv_cell;

typedef struct {
    const char *p, *end;
    int line;      /* line of the current row */
    int next_line; /* line where the next row starts */
    slong ncells, cells_alloc;
    csv_cell *cells;
    int end_col;  /* column just past the last cell of the row */
    locale_t loc; /* the C locale, for csv_number */
    char sep;     /* ',' (the default), ';', '\t', or ' ' for runs of
                     blanks */
} csv_lexer;

/* Sets lx->sep from the header (the first line that is neither blank nor
   a `#` comment): of ',', ';' and tab outside quotes the most frequent,
   else whitespace. */
void csv_detect_separator(csv_lexer *lx);

/* Returns 0 or HDO_ERR_MEMORY (the lexer must still be cleared). */
int csv_lexer_init(csv_lexer *lx, const char *text, size_t len);
void csv_lexer_clear(csv_lexer *lx);

/* Reads the next non-blank row into lx->cells.  Returns 1 for a row, 0 at
   the end of the text, or HDO_ERR_INPUT / HDO_ERR_MEMORY with err set. */
int csv_next_row(csv_lexer *lx, hdo_error_t *err);

/* Parses the whole cell as a double (strtod, C locale).  Returns 0, or
   HDO_ERR_INPUT with err set at line/cell and "expected what". */
int csv_number(double *x, const csv_cell *cell, int line, const char *what,
               locale_t loc, hdo_error_t *err);

/* Writes a printable, shortened rendering of s[0..len) to out (size n). */
void csv_quote(char *out, size_t n, const char *s, size_t len);

/* String tables. */
void hdo_strtab_init(hdo_strtab *tab);
void hdo_strtab_clear(hdo_strtab *tab);
/* Index of s in tab (>= 0), added with (line, col) if new; HDO_ERR_MEMORY
   (< 0) when out of memory. */
slong hdo_strtab_intern(hdo_strtab *tab, const char *s, int line, int col);

/* The readers of candidate files, one row each (readers.c): its name, a
   test of a file by its content (NULL: the fallback, tried last) and the
   reader, which fills a freshly initialised csv and returns 0 or a
   negative status with err filled.  hdo_csv_read_file tries the rows in
   order and reads with the first whose detect says 1. */
typedef struct {
    const char *name;
    int (*detect)(const char *path);
    int (*read)(hdo_csv_t csv, const char *path, hdo_error_t *err);
} hdo_candidate_reader;

extern const hdo_candidate_reader hdo_candidate_readers[];

/* The CSV reader of a file (the text through hdo_csv_read_string). */
int hdo_csv_read_text_file(hdo_csv_t csv, const char *path, hdo_error_t *err);

#endif
