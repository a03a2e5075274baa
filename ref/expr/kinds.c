/* kinds.c -- the table of expression kinds (name, arity, syntax, precedence)
   that the lexer, parser, printer and adapters read */
#include <string.h>
#include "expr.h"
#include "pool.h"

#define HDO_X_ROW_(suffix, name, arity, syntax, prec)                          \
    [HDO_X_##suffix] = {name, arity, syntax, prec},
const hdo_expr_kind_info hdo_expr_kind_table[HDO_X_NKINDS] = {
    HDO_EXPR_KINDS(HDO_X_ROW_)};
#undef HDO_X_ROW_
#define kinds hdo_expr_kind_table

const char *
hdo_expr_kind_name(hdo_expr_kind kind)
{
    return ((int)kind >= 0 && (int)kind < HDO_X_NKINDS) ? kinds[kind].name
                                                        : "?";
}

int
hdo_expr_kind_lookup(const char *s, size_t len)
{
    /* A linear scan: a few dozen rows, and only names get here. */
    for (int k = 0; k < HDO_X_NKINDS; k++)
        if (kinds[k].syntax == HDO_SYNTAX_CALL &&
            strlen(kinds[k].name) == len && memcmp(kinds[k].name, s, len) == 0)
            return k;
    return -1;
}
