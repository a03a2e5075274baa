/* lex.c -- the lexer of the .hdae model language */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/lex.h"
#include "expr.h"

static const char *const reserved_words[] = {
    "model",      "param", "var",   "mode", "end",   "when",       "goto",
    "with",       "zeno",  "start", "at",   "until", "chattering", "filippov",
    "hysteresis", "stop",  "der",   "t",    "pi"};

void
hdo_lexed_init(hdo_lexed_t lx)
{
    memset(lx, 0, sizeof *lx);
}

void
hdo_lexed_clear(hdo_lexed_t lx)
{
    free(lx->toks);
    free(lx->line_start);
    memset(lx, 0, sizeof *lx);
}

int
hdo_token_reserved(const char *s, size_t len)
{
    /* A linear scan of a few dozen short words is cheap next to hashing,
       and only words of at most 10 letters get here at all. */
    for (size_t i = 0;
         len <= 10 && i < sizeof reserved_words / sizeof *reserved_words; i++)
        if (strlen(reserved_words[i]) == len &&
            memcmp(reserved_words[i], s, len) == 0)
            return HDO_TK_FIRST_RESERVED + (int)i;
    return hdo_expr_kind_lookup(s, len) >= 0 ? HDO_TK_FUNC : HDO_TK_NAME;
}

const char *
hdo_token_kind_name(int kind)
{
    static const char *const names[] = {
        "end of file", "end of line", "';'",  "a name", "a number", "'+'",
        "'-'",         "'*'",         "'/'",  "'^'",    "'('",      "')'",
        "','",         "'='",         "'<'",  "'>'",    "'<='",     "'>='",
        "'['",         "']'",         "'..'", "'=='"};
    static const char *const quoted[] = {
        "'model'", "'param'", "'var'",        "'mode'",     "'end'",
        "'when'",  "'goto'",  "'with'",       "'zeno'",     "'start'",
        "'at'",    "'until'", "'chattering'", "'filippov'", "'hysteresis'",
        "'stop'",  "'der'",   "'t'",          "'pi'",       "a function"};
    if (kind >= 0 && kind < HDO_TK_FIRST_RESERVED)
        return names[kind];
    if (HDO_TK_IS_RESERVED(kind))
        return quoted[kind - HDO_TK_FIRST_RESERVED];
    return "?";
}

/* Appends a token; 0, or HDO_ERR_MEMORY. */
static int
push_token(hdo_lexed_t lx, int kind, size_t off, size_t len)
{
    if (lx->ntoks == lx->toks_alloc) {
        slong n = lx->toks_alloc ? 2 * lx->toks_alloc : 256;
        hdo_token *p = realloc(lx->toks, (size_t)n * sizeof *p);
        if (p == NULL)
            return HDO_ERR_MEMORY;
        lx->toks = p;
        lx->toks_alloc = n;
    }
    lx->toks[lx->ntoks].off = (uint32_t)off;
    lx->toks[lx->ntoks].len = (uint32_t)len;
    lx->toks[lx->ntoks].kind = (uint8_t)kind;
    lx->ntoks++;
    return 0;
}

/* Records that a line starts at off; 0, or HDO_ERR_MEMORY. */
static int
push_line(hdo_lexed_t lx, size_t off)
{
    if (lx->nlines == lx->lines_alloc) {
        slong n = lx->lines_alloc ? 2 * lx->lines_alloc : 64;
        uint32_t *p = realloc(lx->line_start, (size_t)n * sizeof *p);
        if (p == NULL)
            return HDO_ERR_MEMORY;
        lx->line_start = p;
        lx->lines_alloc = n;
    }
    lx->line_start[lx->nlines++] = (uint32_t)off;
    return 0;
}

void
hdo_lex_pos(int *line, int *col, const hdo_lexed_t lx, size_t off)
{
    /* The last line whose start is <= off, by bisection. */
    slong lo = 0, hi = lx->nlines - 1;
    if (lx->nlines == 0) {
        *line = 1;
        *col = (int)off + 1;
        return;
    }
    while (lo < hi) {
        slong mid = lo + (hi - lo + 1) / 2;
        if (lx->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = (int)lo + 1;
    *col = (int)(off - lx->line_start[lo]) + 1;
    /* Columns count characters, not bytes.  Outside comments the text
       is ASCII, so only a position at the end of a line (after a
       comment), at the end of the file or inside a comment can follow
       a multi-byte character; only then are UTF-8 continuation bytes
       counted, so that positions of ordinary tokens cost nothing. */
    if (off >= lx->len || (unsigned char)lx->src[off] < 0x20 ||
        (unsigned char)lx->src[off] >= 0x80) {
        size_t i;
        for (i = lx->line_start[lo]; i < off && i < lx->len; i++)
            if (((unsigned char)lx->src[i] & 0xC0) == 0x80)
                (*col)--;
    }
}

/* Length of the well-formed UTF-8 sequence at p (at most n bytes), with
   its code point in *cp, or 0 if the bytes are not UTF-8 (overlong
   forms, surrogates and code points above U+10FFFF included). */
static int
utf8_decode(uint32_t *cp, const unsigned char *p, size_t n)
{
    uint32_t c = p[0], min;
    int len, i;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        len = 2, c &= 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, c &= 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, c &= 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if ((size_t)len > n)
        return 0;
    for (i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

static int
is_name_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int
is_name_char(int c)
{
    return is_name_start(c) || is_digit(c);
}

static int lex_error(hdo_lexed_t lx, hdo_error_t *err, size_t off,
                     const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
lex_error(hdo_lexed_t lx, hdo_error_t *err, size_t off, const char *fmt, ...)
{
    int line, col;
    char msg[sizeof err->message];
    va_list ap;
    hdo_lex_pos(&line, &col, lx, off);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hdo_error_set(err, HDO_ERR_SYNTAX, line, col, "%s", msg);
}

/* The variable written just before offset i, for the hint on x' (a
   derivative as textbooks write it): the name token that ends at i, or
   an element u[...] whose ']' ends at i; sets *first to its offset and
   returns its length, 0 when there is none (a quote after a blank, a
   number or a ')' gets no hint) or it is too long to quote. */
static size_t
variable_before(size_t *first, const hdo_lexed_t lx, size_t i)
{
    slong k = lx->ntoks - 1;
    if (k < 0 || lx->toks[k].off + lx->toks[k].len != i)
        return 0;
    if (lx->toks[k].kind == HDO_TK_RBRACKET) {
        int depth = 0;
        for (; k >= 0; k--) {
            depth += lx->toks[k].kind == HDO_TK_RBRACKET;
            depth -= lx->toks[k].kind == HDO_TK_LBRACKET;
            if (depth == 0 || lx->toks[k].kind == HDO_TK_NEWLINE)
                break;
        }
        if (k < 1 || depth != 0 || lx->toks[k - 1].kind != HDO_TK_NAME ||
            lx->toks[k - 1].off + lx->toks[k - 1].len != lx->toks[k].off)
            return 0;
        k--;
    } else if (lx->toks[k].kind != HDO_TK_NAME) {
        return 0;
    }
    *first = lx->toks[k].off;
    return i - *first <= 60 ? i - *first : 0;
}

/* x' for der(x) (and x'' for a second derivative, which needs a variable
   for der(x)): the error a compiler gives, with the fix, at the quote. */
static int
prime_hint(hdo_lexed_t lx, hdo_error_t *err, size_t i)
{
    size_t first = 0, n = variable_before(&first, lx, i);
    const char *x = lx->src + first;
    int w = (int)n;
    if (n == 0)
        return lex_error(lx, err, i, "unexpected character '''");
    if (i + 1 < lx->len && lx->src[i + 1] == '\'')
        return lex_error(lx, err, i,
                         "unexpected character ''' after '%.*s': did you "
                         "mean der(%.*s)? (a second derivative needs a "
                         "variable for der(%.*s): v = der(%.*s), then "
                         "der(v))",
                         w, x, w, x, w, x, w, x);
    return lex_error(lx, err, i,
                     "unexpected character ''' after '%.*s': did you mean "
                     "der(%.*s)? (the time derivative is written der(%.*s))",
                     w, x, w, x, w, x);
}

/* Rejects a byte that cannot start a token: says which character it is
   in a way the user can find in an editor. */
static int
bad_char(hdo_lexed_t lx, hdo_error_t *err, size_t i)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    uint32_t cp;
    int n;
    char buf[8];
    if (s[i] == '\'')
        return prime_hint(lx, err, i);
    if (s[i] == 0)
        return lex_error(lx, err, i,
                         "NUL byte in the model file (is it a binary file?)");
    if (s[i] < 0x20 || s[i] == 0x7F)
        return lex_error(lx, err, i, "unexpected control character 0x%02X",
                         s[i]);
    if (s[i] < 0x80) {
        buf[0] = (char)s[i];
        buf[1] = 0;
        return lex_error(lx, err, i, "unexpected character '%s'", buf);
    }
    n = utf8_decode(&cp, s + i, lx->len - i);
    if (n == 0)
        return lex_error(lx, err, i,
                         "invalid UTF-8 byte 0x%02X (is it a binary file?)",
                         s[i]);
    memcpy(buf, s + i, (size_t)n);
    buf[n] = 0;
    return lex_error(lx, err, i,
                     "unexpected character '%s' (U+%04lX): model text is "
                     "ASCII outside comments",
                     buf, (unsigned long)cp);
}

/* Lexes the number at i: digits [. digits] [e [+-] digits], or
   . digits [e ...].  Sets *end past it.  A number that runs into a
   letter, a digit after a second point, or an exponent without digits
   is an error, so that "2x" and "1.2.3" are not silently split. */
static int
lex_number(size_t *end, hdo_lexed_t lx, size_t i, hdo_error_t *err)
{
    const char *s = lx->src;
    size_t n = lx->len, j = i, k;
    int bad = 0;
    while (j < n && is_digit(s[j]))
        j++;
    if (j < n && s[j] == '.' && !(j + 1 < n && s[j + 1] == '.')) {
        j++;
        while (j < n && is_digit(s[j]))
            j++;
    }
    if (j < n && (s[j] == 'e' || s[j] == 'E')) {
        k = j + 1;
        if (k < n && (s[k] == '+' || s[k] == '-'))
            k++;
        if (k < n && is_digit(s[k])) {
            while (k < n && is_digit(s[k]))
                k++;
            j = k;
        } else {
            bad = 1;
        }
    }
    if (bad || (j < n && (is_name_char(s[j]) ||
                          (s[j] == '.' && !(j + 1 < n && s[j + 1] == '.'))))) {
        /* Show the whole run the user typed as one word, cut short. */
        char buf[64];
        size_t m = i;
        while (m < n && m - i < 40 &&
               (is_name_char(s[m]) || s[m] == '.' ||
                ((s[m] == '+' || s[m] == '-') && m > i &&
                 (s[m - 1] == 'e' || s[m - 1] == 'E'))))
            m++;
        memcpy(buf, s + i, m - i);
        strcpy(buf + (m - i), m - i == 40 ? "..." : "");
        if (bad)
            return lex_error(lx, err, i,
                             "malformed number '%s': expected digits after "
                             "the exponent mark",
                             buf);
        if (s[j] == '.')
            return lex_error(lx, err, i,
                             "malformed number '%s': a second decimal point",
                             buf);
        return lex_error(lx, err, i,
                         "malformed number '%s': a number cannot run into a "
                         "name (write a product with '*')",
                         buf);
    }
    *end = j;
    return 0;
}

int
hdo_lex(hdo_lexed_t lx, const char *src, size_t len, hdo_error_t *err)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t i = 0;
    int kind, status;

    lx->ntoks = 0;
    lx->nlines = 0;
    lx->src = src;
    lx->len = len;
    if (len >= UINT32_MAX)
        return hdo_error_set(err, HDO_ERR_IO, 0, 0,
                             "model file too large (4 GiB or more)");
    if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        i = 3; /* the byte order mark is invisible: columns start after it */
    if (push_line(lx, i) != 0)
        goto nomem;

    while (i < len) {
        int c = s[i];
        size_t start = i;
        switch (c) {
        case ' ':
        case '\t':
        case '\r':
        case '\f':
            i++;
            continue;
        case '\n':
            if (push_token(lx, HDO_TK_NEWLINE, i, 1) != 0 ||
                push_line(lx, i + 1) != 0)
                goto nomem;
            i++;
            continue;
        case '#':
            /* A comment may hold any UTF-8 text (names of authors, en
               dashes), but not bytes that are not text. */
            while (i < len && s[i] != '\n') {
                uint32_t cp;
                int n;
                if (s[i] == 0 || (s[i] < 0x20 && s[i] != '\t' && s[i] != '\r' &&
                                  s[i] != '\f'))
                    return bad_char(lx, err, i);
                n = utf8_decode(&cp, s + i, len - i);
                if (n == 0)
                    return bad_char(lx, err, i);
                i += (size_t)n;
            }
            continue;
        case '+':
            kind = HDO_TK_PLUS;
            break;
        case '-':
            kind = HDO_TK_MINUS;
            break;
        case '*':
            kind = HDO_TK_STAR;
            break;
        case '/':
            kind = HDO_TK_SLASH;
            break;
        case '^':
            kind = HDO_TK_CARET;
            break;
        case '(':
            kind = HDO_TK_LPAREN;
            break;
        case ')':
            kind = HDO_TK_RPAREN;
            break;
        case ',':
            kind = HDO_TK_COMMA;
            break;
        case '[':
            kind = HDO_TK_LBRACKET;
            break;
        case ']':
            kind = HDO_TK_RBRACKET;
            break;
        case ';':
            kind = HDO_TK_SEMI;
            break;
        case '=':
            /* '==' is not in the language: one token, so that the
               parser can say "did you mean '='?" where '=' belongs */
            kind = HDO_TK_EQ;
            if (i + 1 < len && s[i + 1] == '=')
                kind = HDO_TK_EQEQ, i++;
            break;
        case '<':
            kind = HDO_TK_LT;
            if (i + 1 < len && s[i + 1] == '=')
                kind = HDO_TK_LE, i++;
            break;
        case '>':
            kind = HDO_TK_GT;
            if (i + 1 < len && s[i + 1] == '=')
                kind = HDO_TK_GE, i++;
            break;
        default:
            if (is_name_start(c)) {
                /* A hierarchical name (ball.h, circuit.C1.v, as
                   flattened Modelica writes them) is one token: a dot
                   followed by a letter or '_' continues the name. */
                for (;;) {
                    while (i < len && is_name_char(s[i]))
                        i++;
                    if (i + 1 < len && s[i] == '.' && is_name_start(s[i + 1]))
                        i++;
                    else
                        break;
                }
                kind = hdo_token_reserved(src + start, i - start);
                if (push_token(lx, kind, start, i - start) != 0)
                    goto nomem;
                continue;
            }
            if (c == '.' && i + 1 < len && s[i + 1] == '.') {
                i += 2;
                if (push_token(lx, HDO_TK_DOTDOT, start, 2) != 0)
                    goto nomem;
                continue;
            }
            if (is_digit(c) ||
                (c == '.' && i + 1 < len && is_digit(s[i + 1]))) {
                status = lex_number(&i, lx, start, err);
                if (status != 0)
                    return status;
                if (push_token(lx, HDO_TK_NUMBER, start, i - start) != 0)
                    goto nomem;
                continue;
            }
            return bad_char(lx, err, i);
        }
        i++;
        if (push_token(lx, kind, start, i - start) != 0)
            goto nomem;
    }
    if (push_token(lx, HDO_TK_EOF, len, 0) != 0)
        goto nomem;
    return 0;

nomem:
    return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                         "out of memory while reading the model");
}
