/* lex.c -- unit tests of the .hdae lexer: token kinds, positions, errors */
#include <string.h>
#include <criterion/criterion.h>
#include "model/lex.h"

static int
lex(hdo_lexed_t lx, const char *src, hdo_error_t *err)
{
    hdo_lexed_init(lx);
    hdo_error_clear(err);
    return hdo_lex(lx, src, strlen(src), err);
}

typedef struct {
    int kind, line, col;
    const char *text;
} expect_tok;

static void
check_tokens(const char *src, const expect_tok *want, int n)
{
    hdo_lexed_t lx;
    hdo_error_t err;
    int i;
    cr_assert_eq(lex(lx, src, &err), 0, "lex failed: %s", err.message);
    cr_assert_eq(lx->ntoks, n, "token count %ld, want %d", (long)lx->ntoks, n);
    for (i = 0; i < n; i++) {
        int line, col;
        hdo_lex_pos(&line, &col, lx, lx->toks[i].off);
        cr_expect_eq(lx->toks[i].kind, want[i].kind, "token %d kind %d != %d",
                     i, lx->toks[i].kind, want[i].kind);
        cr_expect_eq(line, want[i].line, "token %d line %d != %d", i, line,
                     want[i].line);
        cr_expect_eq(col, want[i].col, "token %d col %d != %d", i, col,
                     want[i].col);
        if (want[i].text != NULL)
            cr_expect(lx->toks[i].len == strlen(want[i].text) &&
                          memcmp(src + lx->toks[i].off, want[i].text,
                                 lx->toks[i].len) == 0,
                      "token %d text differs from '%s'", i, want[i].text);
    }
    hdo_lexed_clear(lx);
}

Test(model_lex, tokens_and_positions)
{
    const char *src = "der(h) = -9.81*x^2 # comment = 1\n"
                      "\twhen h<=0 goto fly; t pi\n";
    const expect_tok want[] = {{HDO_TK_DER, 1, 1, "der"},
                               {HDO_TK_LPAREN, 1, 4, "("},
                               {HDO_TK_NAME, 1, 5, "h"},
                               {HDO_TK_RPAREN, 1, 6, ")"},
                               {HDO_TK_EQ, 1, 8, "="},
                               {HDO_TK_MINUS, 1, 10, "-"},
                               {HDO_TK_NUMBER, 1, 11, "9.81"},
                               {HDO_TK_STAR, 1, 15, "*"},
                               {HDO_TK_NAME, 1, 16, "x"},
                               {HDO_TK_CARET, 1, 17, "^"},
                               {HDO_TK_NUMBER, 1, 18, "2"},
                               {HDO_TK_NEWLINE, 1, 33, NULL},
                               /* the tab is one column */
                               {HDO_TK_WHEN, 2, 2, "when"},
                               {HDO_TK_NAME, 2, 7, "h"},
                               {HDO_TK_LE, 2, 8, "<="},
                               {HDO_TK_NUMBER, 2, 10, "0"},
                               {HDO_TK_GOTO, 2, 12, "goto"},
                               {HDO_TK_NAME, 2, 17, "fly"},
                               {HDO_TK_SEMI, 2, 20, ";"},
                               {HDO_TK_T, 2, 22, "t"},
                               {HDO_TK_PI, 2, 24, "pi"},
                               {HDO_TK_NEWLINE, 2, 26, NULL},
                               {HDO_TK_EOF, 3, 1, NULL}};
    check_tokens(src, want, (int)(sizeof want / sizeof *want));
}

Test(model_lex, every_reserved_word)
{
    const char *words[] = {
        "model",      "param",    "var",        "mode",  "end",  "when",
        "goto",       "with",     "zeno",       "start", "at",   "until",
        "chattering", "filippov", "hysteresis", "stop",  "der",  "t",
        "pi",         "sin",      "cos",        "tan",   "asin", "acos",
        "atan",       "exp",      "log",        "sqrt",  "sinh", "cosh",
        "tanh"};
    const int kinds[] = {
        HDO_TK_MODEL,      HDO_TK_PARAM,    HDO_TK_VAR,        HDO_TK_MODE,
        HDO_TK_END,        HDO_TK_WHEN,     HDO_TK_GOTO,       HDO_TK_WITH,
        HDO_TK_ZENO,       HDO_TK_START,    HDO_TK_AT,         HDO_TK_UNTIL,
        HDO_TK_CHATTERING, HDO_TK_FILIPPOV, HDO_TK_HYSTERESIS, HDO_TK_STOP,
        HDO_TK_DER,        HDO_TK_T,        HDO_TK_PI,         HDO_TK_FUNC,
        HDO_TK_FUNC,       HDO_TK_FUNC,     HDO_TK_FUNC,       HDO_TK_FUNC,
        HDO_TK_FUNC,       HDO_TK_FUNC,     HDO_TK_FUNC,       HDO_TK_FUNC,
        HDO_TK_FUNC,       HDO_TK_FUNC,     HDO_TK_FUNC};
    size_t i;
    for (i = 0; i < sizeof words / sizeof *words; i++)
        cr_expect_eq(hdo_token_reserved(words[i], strlen(words[i])), kinds[i],
                     "%s", words[i]);
    /* Near misses are names: case matters, prefixes and suffixes too. */
    cr_expect_eq(hdo_token_reserved("Sin", 3), HDO_TK_NAME);
    cr_expect_eq(hdo_token_reserved("tt", 2), HDO_TK_NAME);
    cr_expect_eq(hdo_token_reserved("modes", 5), HDO_TK_NAME);
    cr_expect_eq(hdo_token_reserved("_t", 2), HDO_TK_NAME);
}

Test(model_lex, numbers_and_names)
{
    const char *src = "1 2.5E+3 1e-2 .5 5. x_1 _y 0.000";
    const expect_tok want[] = {
        {HDO_TK_NUMBER, 1, 1, "1"},     {HDO_TK_NUMBER, 1, 3, "2.5E+3"},
        {HDO_TK_NUMBER, 1, 10, "1e-2"}, {HDO_TK_NUMBER, 1, 15, ".5"},
        {HDO_TK_NUMBER, 1, 18, "5."},   {HDO_TK_NAME, 1, 21, "x_1"},
        {HDO_TK_NAME, 1, 25, "_y"},     {HDO_TK_NUMBER, 1, 28, "0.000"},
        {HDO_TK_EOF, 1, 33, NULL}};
    check_tokens(src, want, (int)(sizeof want / sizeof *want));
}

Test(model_lex, comments_crlf_bom_and_utf8_in_comments)
{
    /* An en dash and an e acute in a comment are fine and count as one
       column each; CR before LF is a blank; the byte order mark does not
       count as columns. */
    const char *src = "\xEF\xBB\xBF"
                      "a # Kunkel\xE2\x80\x93Mehrmann, caf\xC3\xA9\r\n"
                      "b\r\n";
    const expect_tok want[] = {{HDO_TK_NAME, 1, 1, "a"},
                               {HDO_TK_NEWLINE, 1, 27, NULL},
                               {HDO_TK_NAME, 2, 1, "b"},
                               {HDO_TK_NEWLINE, 2, 3, NULL},
                               {HDO_TK_EOF, 3, 1, NULL}};
    check_tokens(src, want, (int)(sizeof want / sizeof *want));
}

Test(model_lex, empty_input)
{
    const expect_tok want[] = {{HDO_TK_EOF, 1, 1, NULL}};
    check_tokens("", want, 1);
}

typedef struct {
    const char *src;
    size_t len; /* 0: strlen */
    int line, col;
    const char *msg;
} lex_error_case;

Test(model_lex, errors)
{
    static const lex_error_case cases[] = {
        {"x @ y", 0, 1, 3, "unexpected character '@'"},
        {"a\nb = 1 $", 0, 2, 7, "unexpected character '$'"},
        {"a\n\0b", 4, 2, 1,
         "NUL byte in the model file (is it a binary file?)"},
        {"x\x01", 0, 1, 2, "unexpected control character 0x01"},
        {"x = 1 \x7f", 0, 1, 7, "unexpected control character 0x7F"},
        {"# ok \xff\n", 0, 1, 6,
         "invalid UTF-8 byte 0xFF (is it a binary file?)"},
        {"x \xc3", 0, 1, 3, "invalid UTF-8 byte 0xC3"},
        /* an overlong encoding of '/' is not UTF-8 */
        {"# \xc0\xaf", 0, 1, 3, "invalid UTF-8 byte 0xC0"},
        /* a UTF-16 surrogate encoded in UTF-8 is not UTF-8 either */
        {"# \xed\xa0\x80", 0, 1, 3, "invalid UTF-8 byte 0xED"},
        /* columns after a multi-byte character count characters */
        {"# \xc3\xa9\xc3\xa9 \xff", 0, 1, 6, "invalid UTF-8 byte 0xFF"},
        {"x = 1 \xc3\x97 2", 0, 1, 7,
         "unexpected character '\xc3\x97' (U+00D7): model text is ASCII "
         "outside comments"},
        {"p = 2x", 0, 1, 5,
         "malformed number '2x': a number cannot run into "
         "a name (write a product with '*')"},
        {"p = 1.2.3", 0, 1, 5,
         "malformed number '1.2.3': a second decimal "
         "point"},
        {"p = 1e", 0, 1, 5,
         "malformed number '1e': expected digits after "
         "the exponent mark"},
        {"p = 1e+", 0, 1, 5, "malformed number '1e+': expected digits"},
        {"p = 3.x", 0, 1, 5, "malformed number '3.x'"},
        {"x . y", 0, 1, 3, "unexpected character '.'"},
        {"x != y", 0, 1, 3, "unexpected character '!'"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        const lex_error_case *c = cases + i;
        hdo_lexed_t lx;
        hdo_error_t err;
        size_t len = c->len ? c->len : strlen(c->src);
        int status;
        hdo_lexed_init(lx);
        hdo_error_clear(&err);
        status = hdo_lex(lx, c->src, len, &err);
        cr_expect_eq(status, HDO_ERR_SYNTAX, "case %zu: status %d", i, status);
        cr_expect_eq(err.line, c->line, "case %zu: line %d, want %d", i,
                     err.line, c->line);
        cr_expect_eq(err.col, c->col, "case %zu: col %d, want %d", i, err.col,
                     c->col);
        cr_expect(strstr(err.message, c->msg) != NULL,
                  "case %zu: message '%s' lacks '%s'", i, err.message, c->msg);
        hdo_lexed_clear(lx);
    }
}

Test(model_lex, kind_names)
{
    cr_expect_str_eq(hdo_token_kind_name(HDO_TK_NEWLINE), "end of line");
    cr_expect_str_eq(hdo_token_kind_name(HDO_TK_EOF), "end of file");
    cr_expect_str_eq(hdo_token_kind_name(HDO_TK_LE), "'<='");
    cr_expect_str_eq(hdo_token_kind_name(HDO_TK_FUNC), "a function");
    cr_expect_str_eq(hdo_token_kind_name(HDO_TK_MODEL), "'model'");
}
