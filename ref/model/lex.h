/* lex.h -- the tokens of the .hdae model language (private to ref/model/) */
#ifndef HDO_MODEL_LEX_H
#define HDO_MODEL_LEX_H

#include <stddef.h>
#include <stdint.h>
#include <flint/flint.h>
#include "status.h"

/* Token kinds.  Every reserved word has its own kind, so that the parser
   switches on kinds and never compares strings.  The builtin functions
   are one kind, HDO_TK_FUNC: their names are those of the table of
   expression kinds (expr.h), where the parser finds which one it is. */
typedef enum {
    HDO_TK_EOF,
    HDO_TK_NEWLINE,
    HDO_TK_SEMI,
    HDO_TK_NAME,
    HDO_TK_NUMBER,
    HDO_TK_PLUS,
    HDO_TK_MINUS,
    HDO_TK_STAR,
    HDO_TK_SLASH,
    HDO_TK_CARET,
    HDO_TK_LPAREN,
    HDO_TK_RPAREN,
    HDO_TK_COMMA,
    HDO_TK_EQ,
    HDO_TK_LT,
    HDO_TK_GT,
    HDO_TK_LE,
    HDO_TK_GE, /* not in the language: lexed for a clear error */
    HDO_TK_LBRACKET,
    HDO_TK_RBRACKET,
    HDO_TK_DOTDOT,
    HDO_TK_EQEQ, /* not in the language: lexed for "did you mean '='?" */
    /* keywords */
    HDO_TK_MODEL,
    HDO_TK_PARAM,
    HDO_TK_VAR,
    HDO_TK_MODE,
    HDO_TK_END,
    HDO_TK_WHEN,
    HDO_TK_GOTO,
    HDO_TK_WITH,
    HDO_TK_ZENO,
    HDO_TK_START,
    HDO_TK_AT,
    HDO_TK_UNTIL,
    HDO_TK_CHATTERING,
    HDO_TK_FILIPPOV,
    HDO_TK_HYSTERESIS,
    HDO_TK_STOP,
    HDO_TK_DER,
    /* builtins */
    HDO_TK_T,
    HDO_TK_PI,
    HDO_TK_FUNC, /* a builtin function (a CALL row of the kind table) */
    HDO_TK_NKINDS
} hdo_token_kind;

#define HDO_TK_FIRST_RESERVED HDO_TK_MODEL
#define HDO_TK_IS_RESERVED(k) ((k) >= HDO_TK_MODEL && (k) < HDO_TK_NKINDS)
#define HDO_TK_IS_FUNCTION(k) ((k) == HDO_TK_FUNC)

/* A token is a slice of the source.  Twelve bytes, because a 10 MB
   expression has millions of tokens; line and column are computed from
   the offset on demand (hdo_lex_pos), which errors and the few stored
   positions need, not every token. */
typedef struct {
    uint32_t off, len;
    uint8_t kind;
} hdo_token;

typedef struct {
    const char *src; /* borrowed */
    size_t len;
    hdo_token *toks;
    slong ntoks, toks_alloc;
    uint32_t *line_start; /* offset of the first byte of each line */
    slong nlines, lines_alloc;
} hdo_lexed_struct;
typedef hdo_lexed_struct hdo_lexed_t[1];

void hdo_lexed_init(hdo_lexed_t lx);
void hdo_lexed_clear(hdo_lexed_t lx);

/* Splits src[0..len) into tokens, ending with one HDO_TK_EOF token whose
   offset is len.  Each '\n' gives one HDO_TK_NEWLINE token; '#'
   comments, blanks, tabs, '\r' and '\f' are skipped; a UTF-8 byte
   order mark at the very start is skipped.  Returns 0, or
   HDO_ERR_SYNTAX with err's line, column and message set (err->file is
   left alone) for an unknown character, a NUL or other control byte,
   bytes that are not UTF-8, or a malformed number.  src must outlive
   lx. */
int hdo_lex(hdo_lexed_t lx, const char *src, size_t len, hdo_error_t *err);

/* Sets line and col (1-based; a tab counts as one column) of byte offset
   off, which may be len (the end of the file). */
void hdo_lex_pos(int *line, int *col, const hdo_lexed_t lx, size_t off);

/* How a token kind is named in messages: "'+'", "a name", "end of line",
   "'when'", "a function" (the parser quotes a function's own name). */
const char *hdo_token_kind_name(int kind);

/* The reserved word with this spelling (HDO_TK_FUNC for every builtin
   function), or HDO_TK_NAME if it is none. */
int hdo_token_reserved(const char *s, size_t len);

#endif
