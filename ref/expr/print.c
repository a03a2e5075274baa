/* print.c -- expressions as text in the model language (re-parseable) */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include "expr.h"
#include "pool.h"

typedef struct {
    char *s;
    size_t len, alloc;
} strbuf;

static void
put(strbuf *b, const char *t)
{
    size_t n = strlen(t);
    if (b->len + n + 1 > b->alloc) {
        b->alloc = 2 * (b->len + n + 1);
        b->s = realloc(b->s, b->alloc);
        HDO_ASSERT(b->s != NULL);
    }
    memcpy(b->s + b->len, t, n + 1);
    b->len += n;
}

/* Precedence: the table's column (expr.h). */
enum {
    P_SUM = HDO_PREC_SUM,
    P_PROD = HDO_PREC_PROD,
    P_NEG = HDO_PREC_NEG,
    P_POW = HDO_PREC_POW,
    P_ATOM = HDO_PREC_ATOM
};

/* 1 if the denominator is 2^a 5^b, so the value has a finite decimal. */
static int
finite_decimal(const fmpz_t den, slong *digits)
{
    fmpz_t d;
    fmpz_init_set(d, den);
    fmpz_t five;
    fmpz_init_set_ui(five, 5);
    /* one valuation each, not one division per factor: 10^-300000
       must print in linear time */
    slong twos = fmpz_val2(d);
    fmpz_tdiv_q_2exp(d, d, twos);
    slong fives = fmpz_remove(d, d, five);
    fmpz_clear(five);
    int ok = fmpz_is_one(d);
    fmpz_clear(d);
    *digits = twos > fives ? twos : fives;
    return ok && *digits <= 60;
}

static int
const_prec(const fmpq *q)
{
    slong digits;
    if (fmpq_sgn(q) < 0)
        return P_NEG;
    if (fmpz_is_one(fmpq_denref(q)) || finite_decimal(fmpq_denref(q), &digits))
        return P_ATOM;
    return P_PROD;
}

static void
put_const(strbuf *b, const fmpq *q)
{
    slong digits;
    char *t;
    if (fmpz_is_one(fmpq_denref(q))) {
        t = fmpz_get_str(NULL, 10, fmpq_numref(q));
    } else if (finite_decimal(fmpq_denref(q), &digits)) {
        /* value * 10^digits is an integer: print it with a point */
        fmpz_t n, p;
        fmpz_init(n);
        fmpz_init(p);
        fmpz_set_ui(p, 10);
        fmpz_pow_ui(p, p, digits);
        fmpz_mul(n, fmpq_numref(q), p);
        fmpz_divexact(n, n, fmpq_denref(q));
        int neg = fmpz_sgn(n) < 0;
        fmpz_abs(n, n);
        char *s = fmpz_get_str(NULL, 10, n);
        size_t len = strlen(s);
        size_t width = len > (size_t)digits ? len : (size_t)digits + 1;
        t = malloc(width + 3);
        size_t k = 0;
        if (neg)
            t[k++] = '-';
        for (size_t i = 0; i < width; i++) {
            if (i == width - digits)
                t[k++] = '.';
            t[k++] = (i + len < width) ? '0' : s[i + len - width];
        }
        t[k] = 0;
        flint_free(s);
        fmpz_clear(n);
        fmpz_clear(p);
        put(b, t);
        free(t);
        return;
    } else {
        t = fmpq_get_str(NULL, 10, q);
    }
    put(b, t);
    flint_free(t);
}

static int
prec_of(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    const hdo_expr_node *n = pool->nodes + e;
    if (n->kind == HDO_X_CONST) /* a negative or fraction binds less */
        return const_prec(pool->consts + n->a);
    return hdo_expr_kind_table[n->kind].prec;
}

/* Deeper than this, the printer elides (the parser refuses deeper
   nesting anyway); it keeps the recursion far from the stack limit. */
#define MAX_PRINT_DEPTH 2000

static void print_node(strbuf *b, const hdo_expr_pool_struct *pool, hdo_expr e,
                       const char *const *names, int depth);

static void
print_child(strbuf *b, const hdo_expr_pool_struct *pool, hdo_expr e,
            const char *const *names, int need, int depth)
{
    int paren = prec_of(pool, e) < need;
    if (paren)
        put(b, "(");
    print_node(b, pool, e, names, depth + 1);
    if (paren)
        put(b, ")");
}

/* A builtin function as the table spells it, with its operands. */
static void
put_call(strbuf *b, const hdo_expr_pool_struct *pool, const hdo_expr_node *n,
         const char *const *names, int depth)
{
    put(b, hdo_expr_kind_table[n->kind].name);
    put(b, "(");
    print_node(b, pool, n->a, names, depth + 1);
    if (hdo_expr_kind_arity(n->kind) == 2) {
        put(b, ", ");
        print_node(b, pool, n->b, names, depth + 1);
    }
    put(b, ")");
}

static void
print_node(strbuf *b, const hdo_expr_pool_struct *pool, hdo_expr e,
           const char *const *names, int depth)
{
    const hdo_expr_node *n = pool->nodes + e;
    char tmp[64];
    if (depth > MAX_PRINT_DEPTH) {
        put(b, "...");
        return;
    }
    switch (n->kind) {
    case HDO_X_CONST:
        put_const(b, pool->consts + n->a);
        return;
    case HDO_X_PI:
        put(b, "pi");
        return;
    case HDO_X_TIME:
        put(b, "t");
        return;
    case HDO_X_VAR:
        for (int i = 0; i < n->b; i++)
            put(b, "der(");
        if (names != NULL) {
            put(b, names[n->a]);
        } else {
            snprintf(tmp, sizeof tmp, "x%d", (int)n->a);
            put(b, tmp);
        }
        for (int i = 0; i < n->b; i++)
            put(b, ")");
        return;
    case HDO_X_ADD:
    case HDO_X_SUB:
    case HDO_X_MUL:
    case HDO_X_DIV: {
        int p = prec_of(pool, e);
        print_child(b, pool, n->a, names, p, depth);
        put(b, n->kind == HDO_X_ADD   ? " + "
               : n->kind == HDO_X_SUB ? " - "
               : n->kind == HDO_X_MUL ? "*"
                                      : "/");
        /* the right operand of - and / binds tighter than the operator */
        int right = (n->kind == HDO_X_SUB || n->kind == HDO_X_DIV) ? p + 1 : p;
        if (n->kind == HDO_X_ADD || n->kind == HDO_X_MUL)
            right = p + (prec_of(pool, n->b) == P_NEG);
        print_child(b, pool, n->b, names, right, depth);
        return;
    }
    case HDO_X_POW:
        /* right-associative: the base needs more than a power */
        print_child(b, pool, n->a, names, P_ATOM, depth);
        put(b, "^");
        print_child(b, pool, n->b, names, P_POW, depth);
        return;
    case HDO_X_NEG:
        put(b, "-");
        print_child(b, pool, n->a, names, P_POW, depth);
        return;
    case HDO_X_SIN: /* builtin functions: name(a) or name(a, b) */
    case HDO_X_COS:
    case HDO_X_TAN:
    case HDO_X_ASIN:
    case HDO_X_ACOS:
    case HDO_X_ATAN:
    case HDO_X_EXP:
    case HDO_X_LOG:
    case HDO_X_SQRT:
    case HDO_X_SINH:
    case HDO_X_COSH:
    case HDO_X_TANH:
        put_call(b, pool, n, names, depth);
        return;
    /* Conditions print in parentheses where they combine, an `if` always
       in parentheses: both re-parse as written. */
    case HDO_X_GE:
    case HDO_X_GT:
        print_node(b, pool, n->a, names, depth + 1);
        put(b, " ");
        put(b, hdo_expr_kind_table[n->kind].name);
        put(b, " 0");
        return;
    case HDO_X_NOT:
        put(b, "not (");
        print_node(b, pool, n->a, names, depth + 1);
        put(b, ")");
        return;
    case HDO_X_AND:
    case HDO_X_OR:
        put(b, "(");
        print_node(b, pool, n->a, names, depth + 1);
        put(b, n->kind == HDO_X_AND ? ") and (" : ") or (");
        print_node(b, pool, n->b, names, depth + 1);
        put(b, ")");
        return;
    case HDO_X_IF:
        put(b, "(if ");
        print_node(b, pool, n->a, names, depth + 1);
        put(b, " then ");
        print_node(b, pool, pool->nodes[n->b].a, names, depth + 1);
        put(b, " else ");
        print_node(b, pool, pool->nodes[n->b].b, names, depth + 1);
        put(b, ")");
        return;
    case HDO_X_ELSE: /* only inside an IF */
        print_node(b, pool, n->a, names, depth + 1);
        put(b, " else ");
        print_node(b, pool, n->b, names, depth + 1);
        return;
    }
}

char *
hdo_expr_to_string(const hdo_expr_pool_t pool, hdo_expr e,
                   const char *const *var_names)
{
    strbuf b = {NULL, 0, 0};
    put(&b, "");
    print_node(&b, pool, e, var_names, 0);
    return b.s;
}
