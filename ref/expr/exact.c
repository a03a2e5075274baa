/* exact.c -- exact zero and pole decisions on constant expressions with
   Calcium */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "exact.h"
#include "memo.h"
#include "status.h"

/* Calcium is loaded at its first use, not linked: most runs never ask it
   (only a ball that contains zero does), and a linked Calcium cost every
   start of hdo 1.8 M instructions of the dynamic loader binding its and
   Antic's symbols (Debian builds them BIND_NOW; issue 28, decisions.md
   D-094).  The functions this file calls, through cal. */
#define CA_FUNCTIONS(X)                                                        \
    X(_ca_vec_clear)                                                           \
    X(_ca_vec_init)                                                            \
    X(ca_acos)                                                                 \
    X(ca_add)                                                                  \
    X(ca_asin)                                                                 \
    X(ca_atan)                                                                 \
    X(ca_check_equal)                                                          \
    X(ca_check_is_number)                                                      \
    X(ca_check_is_zero)                                                        \
    X(ca_clear)                                                                \
    X(ca_cos)                                                                  \
    X(ca_ctx_clear)                                                            \
    X(ca_ctx_init)                                                             \
    X(ca_div)                                                                  \
    X(ca_div_si)                                                               \
    X(ca_exp)                                                                  \
    X(ca_init)                                                                 \
    X(ca_inv)                                                                  \
    X(ca_log)                                                                  \
    X(ca_mul)                                                                  \
    X(ca_neg)                                                                  \
    X(ca_pi)                                                                   \
    X(ca_pow)                                                                  \
    X(ca_set_fmpq)                                                             \
    X(ca_set_si)                                                               \
    X(ca_sin)                                                                  \
    X(ca_sqrt)                                                                 \
    X(ca_sub)                                                                  \
    X(ca_tan)

static struct {
#define X(f) __typeof__(f) *f;
    CA_FUNCTIONS(X)
#undef X
} cal;

static pthread_once_t cal_once = PTHREAD_ONCE_INIT;
static int cal_ok; /* every function above was found */

/* Without Calcium (not installed, or an older one), every exact question
   is answered T_UNKNOWN, as for one Calcium cannot decide: the callers
   then decide by Arb's enclosures or say the case is undecided; a
   library does not end its caller's process. */
static void
cal_load(void)
{
    void *h = dlopen("libcalcium.so.0", RTLD_NOW | RTLD_LOCAL);
    const char *missing = NULL;
    if (h == NULL) {
        const char *why = dlerror();
        fprintf(stderr,
                "hdo: note: cannot load Calcium (%s): exact tests are "
                "left undecided\n",
                why != NULL ? why : "libcalcium.so.0 not found");
        return;
    }
#define X(f)                                                                   \
    if ((*(void **)&cal.f = dlsym(h, #f)) == NULL)                             \
        missing = #f;
    CA_FUNCTIONS(X)
#undef X
    if (missing != NULL) {
        fprintf(stderr,
                "hdo: note: libcalcium.so.0 has no %s: exact tests are left "
                "undecided\n",
                missing);
        return;
    }
    cal_ok = 1;
}

/* Calcium is handed only rationals of moderate size: sin(10^100000) is
   decided by Arb at enough precision, while Calcium would try to reduce
   it symbolically. */
#define EXACT_MAX_BITS 20000
/* Calcium's numerical separation goes up to this precision (its default
   is 4096 bits): beyond the 16000 bits of hdo's fallback, so that what
   Calcium leaves undecided (exp(10^-5000) - 1 is not zero) is never
   above that threshold. */
#define EXACT_PREC_LIMIT 20000

void
hdo_exact_init(hdo_exact_t x, const hdo_expr_pool_struct *pool,
               const int32_t *nodes, slong len)
{
    x->pool = pool;
    x->nodes = nodes;
    x->len = len;
    x->ready = 0;
    x->v = NULL;
    x->have = NULL;
}

void
hdo_exact_clear(hdo_exact_t x)
{
    if (x->ready) {
        cal._ca_vec_clear(x->v, x->len, x->ctx);
        cal.ca_ctx_clear(x->ctx);
        flint_free(x->have);
    }
}

/* Sets x->v[i] from its children; returns 0, or HDO_ERR_UNSUPPORTED if
   Calcium cannot represent it (a huge rational, an unknown result, a
   child it could not represent, time or a variable). */
static int
build_one(hdo_exact_t x, slong i)
{
    const hdo_expr_node *n = x->pool->nodes + x->nodes[i];
    ca_ptr r = x->v + i, a = NULL, b = NULL;
    ca_ctx_struct *ctx = x->ctx;
    if (hdo_expr_kind_arity(n->kind) > 0) {
        slong pa = hdo_expr_reachable_position(x->nodes, i, n->a);
        if (x->have[pa] != 1)
            return HDO_ERR_UNSUPPORTED;
        a = x->v + pa;
        if (hdo_expr_kind_arity(n->kind) == 2) {
            slong pb = hdo_expr_reachable_position(x->nodes, i, n->b);
            if (x->have[pb] != 1)
                return HDO_ERR_UNSUPPORTED;
            b = x->v + pb;
        }
    }
    switch (n->kind) {
    case HDO_X_CONST: {
        const fmpq *q = x->pool->consts + n->a;
        if (fmpz_bits(fmpq_numref(q)) > EXACT_MAX_BITS ||
            fmpz_bits(fmpq_denref(q)) > EXACT_MAX_BITS)
            return HDO_ERR_UNSUPPORTED;
        cal.ca_set_fmpq(r, q, ctx);
        break;
    }
    case HDO_X_PI:
        cal.ca_pi(r, ctx);
        break;
    case HDO_X_ADD:
        cal.ca_add(r, a, b, ctx);
        break;
    case HDO_X_SUB:
        cal.ca_sub(r, a, b, ctx);
        break;
    case HDO_X_MUL:
        cal.ca_mul(r, a, b, ctx);
        break;
    case HDO_X_DIV:
        cal.ca_div(r, a, b, ctx);
        break;
    case HDO_X_POW:
        cal.ca_pow(r, a, b, ctx);
        break;
    case HDO_X_NEG:
        cal.ca_neg(r, a, ctx);
        break;
    case HDO_X_SIN:
        cal.ca_sin(r, a, ctx);
        break;
    case HDO_X_COS:
        cal.ca_cos(r, a, ctx);
        break;
    case HDO_X_TAN:
        cal.ca_tan(r, a, ctx);
        break;
    case HDO_X_ASIN:
        cal.ca_asin(r, a, ctx);
        break;
    case HDO_X_ACOS:
        cal.ca_acos(r, a, ctx);
        break;
    case HDO_X_ATAN:
        cal.ca_atan(r, a, ctx);
        break;
    case HDO_X_EXP:
        cal.ca_exp(r, a, ctx);
        break;
    case HDO_X_LOG:
        cal.ca_log(r, a, ctx);
        break;
    case HDO_X_SQRT:
        cal.ca_sqrt(r, a, ctx);
        break;
    case HDO_X_SINH:
    case HDO_X_COSH:
    case HDO_X_TANH: {
        /* through e^a and e^-a: sinh = (e^a - e^-a)/2, cosh = (e^a +
           e^-a)/2, tanh = (e^a - e^-a)/(e^a + e^-a) */
        ca_t p, m;
        cal.ca_init(p, ctx);
        cal.ca_init(m, ctx);
        cal.ca_exp(p, a, ctx);
        cal.ca_inv(m, p, ctx);
        if (n->kind == HDO_X_SINH) {
            cal.ca_sub(r, p, m, ctx);
            cal.ca_div_si(r, r, 2, ctx);
        } else if (n->kind == HDO_X_COSH) {
            cal.ca_add(r, p, m, ctx);
            cal.ca_div_si(r, r, 2, ctx);
        } else {
            ca_t s;
            cal.ca_init(s, ctx);
            cal.ca_sub(s, p, m, ctx);
            cal.ca_add(r, p, m, ctx);
            cal.ca_div(r, s, r, ctx);
            cal.ca_clear(s, ctx);
        }
        cal.ca_clear(p, ctx);
        cal.ca_clear(m, ctx);
        break;
    }
    case HDO_X_TIME: /* not a constant */
    case HDO_X_VAR:
        return HDO_ERR_UNSUPPORTED;
    case HDO_X_GE: /* conditions and `if`: decided on balls, never */
    case HDO_X_GT: /* handed to Calcium */
    case HDO_X_NOT:
    case HDO_X_AND:
    case HDO_X_OR:
    case HDO_X_IF:
    case HDO_X_ELSE:
        return HDO_ERR_UNSUPPORTED;
    }
    return ca_is_unknown(r, ctx) ? HDO_ERR_UNSUPPORTED : 0;
}

/* Makes x->v[pos] available; returns 0, or HDO_ERR_UNSUPPORTED if it
   cannot be (the callers then answer T_UNKNOWN). */
static int
build(hdo_exact_t x, slong pos)
{
    if (!x->ready) {
        pthread_once(&cal_once, cal_load);
        if (!cal_ok)
            return HDO_ERR_UNSUPPORTED;
        cal.ca_ctx_init(x->ctx);
        ca_ctx_set_option(x->ctx, CA_OPT_PREC_LIMIT, EXACT_PREC_LIMIT);
        x->v = cal._ca_vec_init(x->len, x->ctx);
        x->have = flint_calloc(x->len, 1);
        x->ready = 1;
    }
    if (x->have[pos] != 0)
        return x->have[pos] == 1 ? 0 : HDO_ERR_UNSUPPORTED;
    /* Only the sub-expression under pos, children first. */
    int32_t *sub;
    hdo_expr root = x->nodes[pos];
    slong n = hdo_expr_reachable(&sub, x->pool, &root, 1);
    for (slong k = 0; k < n; k++) {
        slong i = hdo_expr_reachable_position(x->nodes, x->len, sub[k]);
        if (x->have[i] == 0)
            x->have[i] = build_one(x, i) == 0 ? 1 : -1;
    }
    flint_free(sub);
    return x->have[pos] == 1 ? 0 : HDO_ERR_UNSUPPORTED;
}

truth_t
hdo_exact_is_zero(hdo_exact_t x, slong pos)
{
    if (build(x, pos) != 0)
        return T_UNKNOWN;
    return cal.ca_check_is_zero(x->v + pos, x->ctx);
}

truth_t
hdo_exact_equals_si(hdo_exact_t x, slong pos, slong c)
{
    if (build(x, pos) != 0)
        return T_UNKNOWN;
    ca_t k;
    cal.ca_init(k, x->ctx);
    cal.ca_set_si(k, c, x->ctx);
    truth_t eq = cal.ca_check_equal(x->v + pos, k, x->ctx);
    cal.ca_clear(k, x->ctx);
    return eq;
}

truth_t
hdo_exact_is_number(hdo_exact_t x, slong pos)
{
    if (build(x, pos) != 0)
        return T_UNKNOWN;
    return cal.ca_check_is_number(x->v + pos, x->ctx);
}
