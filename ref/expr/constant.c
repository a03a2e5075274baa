/* constant.c -- checking and evaluating constant expressions with Arb balls */
#include <string.h>
#include <arb.h>
#include "expr.h"
#include "pool.h"
#include "memo.h"
#include "exact.h"

/* MPFR cannot hold a number beyond 2^(2^62) (its exponent range), so a
   constant whose logarithm is that large cannot be used; and computing it
   at all can take hours (80^2^10800 is 10800 squarings at every precision
   of the Ziv loop: a fuzz finding).  Such values are refused up front:
   exp(y) and sinh/cosh(y) when |y| > 2^62, a^b when |b log a| > 2^62. */
#define HUGE_LOG_EXP 62

static int
huge_exp_arg(const arb_t y)
{
    mag_t m;
    mag_init(m);
    arb_get_mag_lower(m, y);
    int huge = mag_cmp_2exp_si(m, HUGE_LOG_EXP) > 0;
    mag_clear(m);
    return huge;
}

/* |b log|a|| > 2^62 (b exact or not), at low precision: a lower bound is
   enough to refuse. */
static int
huge_power(const arb_t a, const arb_t b)
{
    arb_t y;
    arb_init(y);
    arb_abs(y, a);
    if (arb_is_positive(y)) {
        arb_log(y, y, 64);
        arb_mul(y, y, b, 64);
    } else {
        arb_zero(y);
    }
    int huge = arb_is_finite(y) && huge_exp_arg(y);
    arb_clear(y);
    return huge;
}

/* eval_ball's failures: UNDECIDED when a ball merely contains a bad
   value (a divisor around zero: more precision may decide it), UNDEFINED
   when the value is bad for certain (an exact zero divisor, log of a
   nonpositive ball, a number beyond MPFR's range): no precision helps, so
   the precision loops below stop at once instead of climbing to 2^19 bits
   (a fuzz finding: minutes on 1/0^0.4 next to costly powers). */
#define UNDECIDED (-1)
#define UNDEFINED (-2)

/* The parser's decisions are made by 16384 bits (4932 digits); a
   constant Calcium cannot decide is taken as zero when its enclosure is
   within 2^-16000 of zero there.  At run time the threshold is the
   larger of that and 4 times the working precision, so that a run and
   the parse agree, and a run at many digits is stricter. */
#define CHECK_MAX_PREC 16384
#define FALLBACK_BITS 16000

/* One constant expression being evaluated: its reachable nodes, and
   what is known exactly about them.  A node whose ball contains zero is
   asked about once (Calcium, exact.c) and the answer kept across the
   precisions of a Ziv loop: zero[i] is 0 (not asked) or 1 + the truth
   value.  A node Calcium cannot decide is taken as zero when its ball
   lies within 2^-fallback_bits of zero (fallback_bits 0: never); the
   first such node is noted in assumed_zero, since the result then rests
   on a numerical decision, not a proof. */
typedef struct {
    const hdo_expr_pool_struct *pool;
    int32_t *nodes;
    slong len;
    signed char *zero;
    hdo_exact_t exact;
    slong fallback_bits;
    hdo_expr assumed_zero;
    int reason;                    /* HDO_CONST_* of the last failure */
    hdo_const_cache_struct *cache; /* or NULL */
    int mini;      /* only e and its cached children (no Calcium) ... */
    int need_full; /* ... until a question needs the whole expression */
    /* hdo_expr_enclose: balls for the variables (VAR nodes inputs[i]) and
       t; NULL for a constant expression.  Calcium is then never asked
       (the expression is not constant). */
    const hdo_program_input *inputs;
    slong ninputs;
    arb_srcptr in_ball;
    arb_srcptr t_ball;
} walk;

/* The cache holds, per pool node, its ball at CACHE_PREC bits (valid 1)
   and Calcium's answer on whether it is zero (zero: 0 not asked, else
   1 + the truth value). */
#define CACHE_PREC 256

void
hdo_const_cache_init(hdo_const_cache_t c)
{
    c->balls = NULL;
    c->valid = NULL;
    c->zero = NULL;
    c->alloc = 0;
}

void
hdo_const_cache_clear(hdo_const_cache_t c)
{
    if (c->balls != NULL)
        _arb_vec_clear((arb_ptr)c->balls, c->alloc);
    flint_free(c->valid);
    flint_free(c->zero);
}

static void
cache_fit(hdo_const_cache_struct *c, slong len)
{
    if (len <= c->alloc)
        return;
    slong n = FLINT_MAX(len, 2 * c->alloc);
    arb_ptr b = _arb_vec_init(n);
    for (slong i = 0; i < c->alloc; i++)
        arb_swap(b + i, (arb_ptr)c->balls + i);
    if (c->balls != NULL)
        _arb_vec_clear((arb_ptr)c->balls, c->alloc);
    c->balls = b;
    c->valid = flint_realloc(c->valid, n);
    c->zero = flint_realloc(c->zero, n);
    memset(c->valid + c->alloc, 0, n - c->alloc);
    memset(c->zero + c->alloc, 0, n - c->alloc);
    c->alloc = n;
}

/* The rest of a walk over w->nodes[0..w->len), once they are set: no
   node decided yet; cache != NULL makes it a mini walk over cached
   children. */
static void
walk_setup(walk *w, const hdo_expr_pool_struct *pool, slong fallback_bits,
           hdo_const_cache_struct *cache)
{
    w->pool = pool;
    w->zero = flint_calloc(w->len, 1);
    hdo_exact_init(w->exact, pool, w->nodes, w->len);
    w->fallback_bits = fallback_bits;
    w->assumed_zero = HDO_EXPR_NONE;
    w->reason = HDO_CONST_OK;
    w->cache = cache;
    w->mini = cache != NULL;
    w->need_full = 0;
    w->inputs = NULL;
    w->ninputs = 0;
    w->in_ball = NULL;
    w->t_ball = NULL;
}

static void
walk_init(walk *w, const hdo_expr_pool_struct *pool, hdo_expr e,
          slong fallback_bits)
{
    w->len = hdo_expr_reachable(&w->nodes, pool, &e, 1);
    walk_setup(w, pool, fallback_bits, NULL);
}

/* A walk over e and its children only, all of them in the cache: a
   parser examining each node as it is built then spends one operation
   per node, instead of a sort of the whole sub-expression.  Returns 0,
   or -1 if a child is not cached (or e is a leaf): not a status, the
   caller then takes the full walk. */
static int
walk_init_mini(walk *w, const hdo_expr_pool_struct *pool, hdo_expr e,
               hdo_const_cache_struct *cache)
{
    const hdo_expr_node *n = pool->nodes + e;
    /* an IF reads its ELSE's operands, which a mini walk lacks */
    if (cache == NULL || hdo_expr_kind_arity(n->kind) == 0 ||
        n->kind == HDO_X_IF || n->kind == HDO_X_ELSE || n->a >= cache->alloc ||
        !cache->valid[n->a] ||
        (hdo_expr_kind_arity(n->kind) == 2 &&
         (n->b >= cache->alloc || !cache->valid[n->b])))
        return -1;
    w->pool = pool;
    w->nodes = flint_malloc(3 * sizeof *w->nodes);
    w->len = 0;
    int32_t a = n->a, b = hdo_expr_kind_arity(n->kind) == 2 ? n->b : n->a;
    w->nodes[w->len++] = a < b ? a : b;
    if (a != b)
        w->nodes[w->len++] = a < b ? b : a;
    w->nodes[w->len++] = e;
    walk_setup(w, pool, hdo_const_fallback_bits(0), cache);
    return 0;
}

static void
walk_clear(walk *w)
{
    hdo_exact_clear(w->exact);
    flint_free(w->zero);
    flint_free(w->nodes);
}

slong
hdo_const_fallback_bits(slong want)
{
    return want <= 0 ? FALLBACK_BITS : FLINT_MAX(4 * want, FALLBACK_BITS);
}

/* |mid| + rad rounded up to 64 bits, not arb_get_mag: that bound adds a
   unit of its 30-bit mantissa even to an exact 2^-bits, so a ball on the
   threshold (within 2^-bits, as documented) was not taken as zero. */
int
hdo_const_tiny_ball(const arb_t x, slong bits)
{
    if (bits <= 0)
        return 0;
    arf_t u, r;
    arf_init(u);
    arf_init(r);
    arf_abs(u, arb_midref(x));
    arf_set_mag(r, arb_radref(x));
    arf_add(u, u, r, 64, ARF_RND_UP);
    int tiny = arf_cmp_2exp_si(u, -bits) <= 0;
    arf_clear(r);
    arf_clear(u);
    return tiny;
}

/* The ball x of node nodes[i] contains zero: makes it the exact zero
   when it is one (Calcium's proof, or the fallback), so that a division
   by it is refused and sin(pi) - x evaluates. */
static void
settle_zero(arb_t x, walk *w, slong i)
{
    signed char *known = w->cache ? w->cache->zero + w->nodes[i] : NULL;
    if (w->zero[i] == 0 && known != NULL && *known != 0)
        w->zero[i] = *known;
    if (w->zero[i] == 0 && w->mini) {
        w->need_full = 1;
        return;
    }
    if (w->zero[i] == 0)
        w->zero[i] = 1 + (signed char)hdo_exact_is_zero(w->exact, i);
    if (known != NULL)
        *known = w->zero[i];
    if (w->zero[i] == 1 + T_TRUE) {
        arb_zero(x);
    } else if (w->zero[i] == 1 + T_UNKNOWN &&
               hdo_const_tiny_ball(x, w->fallback_bits)) {
        arb_zero(x);
        if (w->assumed_zero == HDO_EXPR_NONE)
            w->assumed_zero = w->nodes[i];
    }
}

/* tan at a ball where cos contains zero: a pole for certain (Calcium, or
   a cos within the fallback's reach of zero) is UNDEFINED, else more
   precision may decide. */
static int
tan_pole(walk *w, slong i, const arb_t a, slong prec)
{
    if (w->mini) {
        w->need_full = 1;
        return UNDECIDED;
    }
    truth_t num = hdo_exact_is_number(w->exact, i);
    if (num == T_FALSE)
        return UNDEFINED;
    if (num == T_TRUE)
        return UNDECIDED;
    arb_t c;
    arb_init(c);
    arb_cos(c, a, prec);
    int pole = hdo_const_tiny_ball(c, w->fallback_bits);
    arb_clear(c);
    if (pole && w->assumed_zero == HDO_EXPR_NONE)
        w->assumed_zero = w->nodes[i];
    return pole ? UNDEFINED : UNDECIDED;
}

/* 1 if |a| > 1 for certain: outside the domain of asin and acos. */
static int
abs_above_one(const arb_t a)
{
    mag_t m;
    mag_init(m);
    arb_get_mag_lower(m, a);
    int above = mag_cmp_2exp_si(m, 0) > 0;
    mag_clear(m);
    return above;
}

/* Evaluates every reachable node of the walk's expression as an Arb ball
   at prec bits.  Returns 0 and sets r, or UNDECIDED / UNDEFINED with
   *bad set to the first node whose value cannot be decided at this
   precision (a divisor whose ball contains zero, say) or is undefined. */
static int
eval_ball(arb_t r, hdo_expr *bad, walk *w, slong prec)
{
    const hdo_expr_pool_struct *pool = w->pool;
    const int32_t *nodes = w->nodes;
    slong len = w->len;
    arb_ptr v = _arb_vec_init(len);
    int status = 0;
    w->reason = HDO_CONST_OK;
    hdo_const_cache_struct *cache = prec == CACHE_PREC ? w->cache : NULL;
    if (cache != NULL)
        cache_fit(cache, pool->len);
    for (slong i = 0; i < len && status == 0; i++) {
        const hdo_expr_node *n = pool->nodes + nodes[i];
        arb_ptr x = v + i, a = NULL, b = NULL;
        if (cache != NULL && cache->valid[nodes[i]]) {
            arb_set(x, (arb_ptr)cache->balls + nodes[i]);
            continue;
        }
        if (hdo_expr_kind_arity(n->kind) > 0) {
            a = v + hdo_expr_reachable_position(nodes, i, n->a);
            if (hdo_expr_kind_arity(n->kind) == 2)
                b = v + hdo_expr_reachable_position(nodes, i, n->b);
        }
        switch (n->kind) {
        case HDO_X_CONST:
            arb_set_fmpq(x, pool->consts + n->a, prec);
            break;
        case HDO_X_PI:
            arb_const_pi(x, prec);
            break;
        case HDO_X_TIME:
            if (w->t_ball != NULL)
                arb_set(x, w->t_ball);
            else
                status = UNDEFINED;
            break;
        case HDO_X_VAR:
            status = UNDEFINED;
            for (slong q = 0; q < w->ninputs; q++)
                if (w->inputs[q].var == n->a && w->inputs[q].order == n->b) {
                    arb_set(x, w->in_ball + q);
                    status = 0;
                    break;
                }
            break;
        case HDO_X_ADD:
            arb_add(x, a, b, prec);
            break;
        case HDO_X_SUB:
            arb_sub(x, a, b, prec);
            break;
        case HDO_X_GE:
        case HDO_X_GT:
            /* D's ball was settled (exact zero) or excludes zero, or the
               relation is undecided at this precision */
            if (arb_is_zero(a))
                arb_set_si(x, n->kind == HDO_X_GE);
            else if (arb_is_positive(a))
                arb_one(x);
            else if (arb_is_negative(a))
                arb_zero(x);
            else
                status = UNDECIDED;
            break;
        case HDO_X_NOT:
            arb_set_si(x, arb_is_zero(a));
            break;
        case HDO_X_AND:
            arb_set_si(x, !arb_is_zero(a) && !arb_is_zero(b));
            break;
        case HDO_X_OR:
            arb_set_si(x, !arb_is_zero(a) || !arb_is_zero(b));
            break;
        case HDO_X_ELSE:
            arb_zero(x); /* no value: its IF reads the branches */
            break;
        case HDO_X_IF: {
            const hdo_expr_node *p = pool->nodes + n->b;
            slong k = hdo_expr_reachable_position(nodes, i,
                                                  arb_is_zero(a) ? p->b : p->a);
            arb_set(x, v + k);
            break;
        }
        case HDO_X_MUL:
            arb_mul(x, a, b, prec);
            break;
        case HDO_X_DIV:
            if (arb_contains_zero(b))
                status = arb_is_zero(b) ? UNDEFINED : UNDECIDED;
            else
                arb_div(x, a, b, prec);
            break;
        case HDO_X_POW:
            if (huge_power(a, b)) {
                status = UNDEFINED; /* beyond MPFR's range (huge_exp_arg) */
                w->reason = HDO_CONST_OVERFLOW;
            } else if (arb_contains_zero(a) && !arb_is_positive(b)) {
                /* 0^0 is folded before; 0^negative is bad */
                status = arb_is_zero(a) && arb_is_nonpositive(b) ? UNDEFINED
                                                                 : UNDECIDED;
            } else if (arb_is_zero(a)) {
                arb_zero(x); /* 0^b = 0 for b > 0 (b need not be exact) */
            } else if (arb_is_exact(b) && arf_is_int(arb_midref(b))) {
                fmpz_t k;
                fmpz_init(k);
                arf_get_fmpz(k, arb_midref(b), ARF_RND_DOWN);
                if (fmpz_sgn(k) < 0 && arb_contains_zero(a))
                    status = arb_is_zero(a) ? UNDEFINED : UNDECIDED;
                else
                    arb_pow_fmpz(x, a, k, prec);
                fmpz_clear(k);
            } else if (!arb_is_positive(a)) {
                /* negative base, non-integer exponent */
                status = arb_is_negative(a) ? UNDEFINED : UNDECIDED;
            } else {
                arb_pow(x, a, b, prec);
            }
            break;
        case HDO_X_NEG:
            arb_neg(x, a);
            break;
        case HDO_X_SIN:
            arb_sin(x, a, prec);
            break;
        case HDO_X_COS:
            arb_cos(x, a, prec);
            break;
        case HDO_X_TAN:
            arb_tan(x, a, prec);
            if (!arb_is_finite(x))
                status = tan_pole(w, i, a, prec);
            break;
        case HDO_X_ASIN:
        case HDO_X_ACOS:
            /* defined on [-1, 1]: |a| > 1 for certain is undefined; an
               argument that is exactly +-1 (sin(pi/2)) is made exact */
            if (abs_above_one(a)) {
                status = UNDEFINED;
                break;
            }
            if (w->mini && !arb_is_exact(a) &&
                (arb_contains_si(a, 1) || arb_contains_si(a, -1))) {
                w->need_full = 1;
                status = UNDECIDED;
                break;
            }
            if (!arb_is_exact(a) && arb_contains_si(a, 1) &&
                hdo_exact_equals_si(w->exact,
                                    hdo_expr_reachable_position(nodes, i, n->a),
                                    1) == T_TRUE)
                arb_one(a);
            else if (!arb_is_exact(a) && arb_contains_si(a, -1) &&
                     hdo_exact_equals_si(
                         w->exact, hdo_expr_reachable_position(nodes, i, n->a),
                         -1) == T_TRUE)
                arb_set_si(a, -1);
            if (n->kind == HDO_X_ASIN)
                arb_asin(x, a, prec);
            else
                arb_acos(x, a, prec);
            break;
        case HDO_X_ATAN:
            arb_atan(x, a, prec);
            break;
        case HDO_X_EXP:
            if (huge_exp_arg(a)) {
                status = UNDEFINED; /* beyond MPFR's range */
                w->reason = HDO_CONST_OVERFLOW;
            } else {
                arb_exp(x, a, prec);
            }
            break;
        case HDO_X_LOG:
            if (!arb_is_positive(a))
                status = arb_is_nonpositive(a) ? UNDEFINED : UNDECIDED;
            else
                arb_log(x, a, prec);
            break;
        case HDO_X_SQRT:
            if (!arb_is_nonnegative(a))
                status = arb_is_negative(a) ? UNDEFINED : UNDECIDED;
            else
                arb_sqrt(x, a, prec);
            break;
        case HDO_X_SINH:
        case HDO_X_COSH:
            if (huge_exp_arg(a)) {
                status = UNDEFINED; /* beyond MPFR's range */
                w->reason = HDO_CONST_OVERFLOW;
            } else if (n->kind == HDO_X_SINH) {
                arb_sinh(x, a, prec);
            } else {
                arb_cosh(x, a, prec);
            }
            break;
        case HDO_X_TANH:
            arb_tanh(x, a, prec);
            break;
        }
        if (status == 0 && !arb_is_finite(x))
            status = UNDECIDED;
        if (status == 0 && hdo_expr_kind_arity(n->kind) > 0 &&
            w->inputs == NULL && arb_contains_zero(x) && !arb_is_zero(x))
            settle_zero(x, w, i);
        if (w->need_full)
            status = UNDECIDED;
        if (status == UNDEFINED && w->reason == HDO_CONST_OK)
            w->reason = HDO_CONST_UNDEFINED;
        if (status != 0 && bad != NULL)
            *bad = nodes[i];
        if (status == 0 && cache != NULL) {
            arb_set((arb_ptr)cache->balls + nodes[i], x);
            cache->valid[nodes[i]] = 1;
        }
    }
    if (status == 0)
        arb_set(r, v + len - 1);
    _arb_vec_clear(v, len);
    return status;
}

static slong
max_const_bits(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, &e, 1), bits = 0;
    for (slong i = 0; i < len; i++) {
        const hdo_expr_node *n = pool->nodes + nodes[i];
        if (n->kind == HDO_X_CONST) {
            /* the binary magnitude: a large argument (sin(10^100000))
               needs that many bits before its reduction mod 2 pi is
               right; a tiny one (11e-30088) is exact in Arb's exponent
               and needs none (it once sent this loop to 6.4 million
               bits: a fuzz finding) */
            slong b = fmpz_bits(fmpq_numref(pool->consts + n->a)) -
                      fmpz_bits(fmpq_denref(pool->consts + n->a)) + 1;
            bits = b > bits ? b : bits;
        }
    }
    flint_free(nodes);
    return bits;
}

/* Whether the nonzero ball x fits MPFR's exponent range: HDO_CONST_OK,
   or HDO_CONST_OVERFLOW / HDO_CONST_UNDERFLOW when it is out of it for
   certain (a value that would become inf or 0). */
static int
range_of(const arb_t x)
{
    if (arb_contains_zero(x))
        return HDO_CONST_OK;
    mag_t lo, hi;
    mag_init(lo);
    mag_init(hi);
    arb_get_mag_lower(lo, x);
    arb_get_mag(hi, x);
    int r = HDO_CONST_OK;
    if (mag_cmp_2exp_si(lo, mpfr_get_emax() - 1) >= 0)
        r = HDO_CONST_OVERFLOW;
    else if (mag_cmp_2exp_si(hi, mpfr_get_emin() + 1) <= 0)
        r = HDO_CONST_UNDERFLOW;
    mag_clear(lo);
    mag_clear(hi);
    return r;
}

int
hdo_expr_const_examine(hdo_const_report *rep, const hdo_expr_pool_t pool,
                       hdo_expr e, int range)
{
    return hdo_expr_const_examine_cached(rep, pool, e, range, NULL);
}

int
hdo_expr_const_examine_cached(hdo_const_report *rep, const hdo_expr_pool_t pool,
                              hdo_expr e, int range, hdo_const_cache_t cache)
{
    /* A ball that contains zero may only be too wide: retry at higher
       precision before calling a divisor zero (1/(exp(10^-90) - 1) is
       fine); an exact zero (sin(pi)) is decided by Calcium. */
    arb_t r;
    walk w;
    arb_init(r);
    if (walk_init_mini(&w, pool, e, cache) == 0) {
        int st = eval_ball(r, &rep->bad, &w, CACHE_PREC);
        int done = st == 0 && !w.need_full &&
                   !(range && arb_contains_zero(r) && !arb_is_zero(r));
        walk_clear(&w);
        if (done) {
            rep->assumed_zero = HDO_EXPR_NONE;
            rep->reason = range ? range_of(r) : HDO_CONST_OK;
            rep->bad = e;
            arb_clear(r);
            return rep->reason == HDO_CONST_OK ? 0 : HDO_ERR_DOMAIN;
        }
    }
    walk_init(&w, pool, e, hdo_const_fallback_bits(0));
    w.cache = cache;
    int status = UNDECIDED;
    rep->bad = e;
    /* With range: a value around zero is taken further, until it is
       either separated from zero or decided to be zero, as the run will
       (hdo_expr_eval_constant), so that a zero taken without a proof is
       reported here. */
    for (slong prec = 256; prec <= CHECK_MAX_PREC; prec *= 4) {
        status = eval_ball(r, &rep->bad, &w, prec);
        if (status != UNDECIDED &&
            !(status == 0 && range && arb_contains_zero(r) && !arb_is_zero(r)))
            break;
    }
    rep->assumed_zero = w.assumed_zero;
    if (status == 0) {
        rep->reason = range ? range_of(r) : HDO_CONST_OK;
        rep->bad = e;
    } else {
        rep->reason = status == UNDECIDED ? HDO_CONST_UNDECIDED : w.reason;
    }
    walk_clear(&w);
    arb_clear(r);
    return rep->reason == HDO_CONST_OK ? 0 : HDO_ERR_DOMAIN;
}

int
hdo_expr_const_check(const hdo_expr_pool_t pool, hdo_expr e, hdo_expr *bad)
{
    hdo_const_report rep;
    int st = hdo_expr_const_examine(&rep, pool, e, 0);
    if (st != 0 && bad != NULL)
        *bad = rep.bad;
    return st;
}

int
hdo_expr_const_sign(int *sign, const hdo_expr_pool_t pool, hdo_expr e)
{
    if (pool->nodes[e].kind == HDO_X_CONST) {
        *sign = fmpq_sgn(pool->consts + pool->nodes[e].a);
        return 0;
    }
    /* the walk settles every node whose ball contains zero (Calcium, or
       the fallback within 2^-16000), the root included, so a ball that
       still contains zero after that is only too wide */
    arb_t r;
    walk w;
    arb_init(r);
    walk_init(&w, pool, e, hdo_const_fallback_bits(0));
    int status = -1;
    for (slong prec = 256; prec <= CHECK_MAX_PREC; prec *= 4) {
        int st = eval_ball(r, NULL, &w, prec);
        if (st == UNDEFINED)
            break;
        if (st != 0)
            continue;
        if (arb_is_zero(r) || !arb_contains_zero(r)) {
            *sign = arb_is_zero(r) ? 0 : arb_is_positive(r) ? 1 : -1;
            status = 0;
            break;
        }
    }
    walk_clear(&w);
    arb_clear(r);
    return status;
}

int
hdo_expr_eval_constant(mpfr_t r, const hdo_expr_pool_t pool, hdo_expr e)
{
    mpfr_prec_t want = mpfr_get_prec(r);
    if (pool->nodes[e].kind == HDO_X_CONST) {
        fmpq_get_mpfr(r, pool->consts + pool->nodes[e].a, MPFR_RNDN);
        return 0;
    }
    if (pool->nodes[e].kind == HDO_X_PI) {
        mpfr_const_pi(r, MPFR_RNDN);
        return 0;
    }
    /* Ziv's loop: raise the precision until the ball is narrow enough
       for its midpoint to be a faithful rounding. */
    arb_t x;
    walk w;
    arb_init(x);
    walk_init(&w, pool, e, hdo_const_fallback_bits(want));
    int status = HDO_ERR_DOMAIN;
    /* Start above the size of the largest rational in e: sin(10^100000)
       needs its argument to 332193 bits before any digit is right. */
    slong start = want + 64 + max_const_bits(pool, e);
    slong cap = FLINT_MAX(64 * start + 4096, WORD(1) << 19);
    for (slong prec = start; prec < cap; prec *= 2) {
        int st = eval_ball(x, NULL, &w, prec);
        if (st == UNDEFINED)
            break;
        if (st != 0)
            continue; /* undecided at this precision: raise it */
        if (range_of(x) != HDO_CONST_OK)
            break; /* MPFR would hold inf or 0 */
        if (arb_rel_accuracy_bits(x) >= want + 2 || arb_is_zero(x)) {
            arf_get_mpfr(r, arb_midref(x), MPFR_RNDN);
            status = 0;
            break;
        }
    }
    walk_clear(&w);
    arb_clear(x);
    return status;
}

/* The ball mid +- rad at prec bits (rad NULL: mid rounded to prec). */
static void
ball_around(arb_t b, const mpfr_t mid, mpfr_srcptr rad, slong prec)
{
    arf_set_mpfr(arb_midref(b), mid);
    mag_zero(arb_radref(b));
    arb_set_round(b, b, prec);
    if (rad != NULL) {
        arf_t a;
        arf_init(a);
        arf_set_mpfr(a, rad);
        arb_add_error_arf(b, a); /* |rad|, rounded up */
        arf_clear(a);
    }
}

/* mid := x's midpoint (to nearest), rad := its radius (rounded up) */
static void
ball_out(mpfr_t mid, mpfr_t rad, const arb_t x)
{
    arf_t rr;
    arf_init(rr);
    arf_get_mpfr(mid, arb_midref(x), MPFR_RNDN);
    arf_set_mag(rr, arb_radref(x));
    arf_get_mpfr(rad, rr, MPFR_RNDU);
    arf_clear(rr);
}

/* eval_ball's value of node e of a small expression (at most *budget
   nodes: constants, t, inputs, +, -, *, negation), computed as eval_ball
   computes each of these nodes (the same Arb operation on the same
   operands at prec), without its walk: 1, or 0 where eval_ball would
   refuse a node or the expression is another (then the walk decides).
   inputs is not NULL: settle_zero is the walk's only without inputs. */
static int
enclose_small(arb_t x, const hdo_expr_pool_struct *pool, hdo_expr e,
              const hdo_program_input *inputs, mpfr_srcptr in_mid,
              mpfr_srcptr in_rad, slong ninputs, const mpfr_t t,
              const mpfr_t t_rad, slong prec, int *budget)
{
    const hdo_expr_node *n = pool->nodes + e;
    if (--*budget < 0)
        return 0;
    int ok = 1;
    switch (n->kind) {
    case HDO_X_CONST:
        arb_set_fmpq(x, pool->consts + n->a, prec);
        break;
    case HDO_X_TIME:
        ball_around(x, t, t_rad, prec);
        break;
    case HDO_X_VAR:
        ok = 0;
        for (slong q = 0; q < ninputs && !ok; q++)
            if (inputs[q].var == n->a && inputs[q].order == n->b) {
                ball_around(x, in_mid + q, in_rad != NULL ? in_rad + q : NULL,
                            prec);
                ok = 1;
            }
        break;
    case HDO_X_NEG:
        ok = enclose_small(x, pool, n->a, inputs, in_mid, in_rad, ninputs, t,
                           t_rad, prec, budget);
        if (ok)
            arb_neg(x, x);
        break;
    case HDO_X_ADD:
    case HDO_X_SUB:
    case HDO_X_MUL: {
        arb_t b;
        arb_init(b);
        ok = enclose_small(x, pool, n->a, inputs, in_mid, in_rad, ninputs, t,
                           t_rad, prec, budget) &&
             enclose_small(b, pool, n->b, inputs, in_mid, in_rad, ninputs, t,
                           t_rad, prec, budget);
        if (ok && n->kind == HDO_X_ADD)
            arb_add(x, x, b, prec);
        else if (ok && n->kind == HDO_X_SUB)
            arb_sub(x, x, b, prec);
        else if (ok)
            arb_mul(x, x, b, prec);
        arb_clear(b);
        break;
    }
    default:
        ok = 0;
    }
    return ok && arb_is_finite(x);
}

int
hdo_expr_enclose(mpfr_t mid, mpfr_t rad, const hdo_expr_pool_t pool, hdo_expr e,
                 const hdo_program_input *inputs, mpfr_srcptr in_mid,
                 mpfr_srcptr in_rad, slong ninputs, const mpfr_t t,
                 const mpfr_t t_rad, slong prec)
{
    /* a small expression (a guard x2 < 0, L > Lth) without the walk and
       the balls of the inputs it does not read (issue 28: the guards'
       floors at every step and event; decisions.md D-116) */
    int budget = 8;
    if (inputs != NULL) {
        arb_t x;
        arb_init(x);
        int done = enclose_small(x, pool, e, inputs, in_mid, in_rad, ninputs, t,
                                 t_rad, prec, &budget);
        if (done)
            ball_out(mid, rad, x);
        arb_clear(x);
        if (done)
            return 0;
    }
    return hdo_expr_enclose_walk(mid, rad, pool, e, inputs, in_mid, in_rad,
                                 ninputs, t, t_rad, prec);
}

int
hdo_expr_enclose_walk(mpfr_t mid, mpfr_t rad, const hdo_expr_pool_t pool,
                      hdo_expr e, const hdo_program_input *inputs,
                      mpfr_srcptr in_mid, mpfr_srcptr in_rad, slong ninputs,
                      const mpfr_t t, const mpfr_t t_rad, slong prec)
{
    walk w;
    arb_ptr in = _arb_vec_init(ninputs > 0 ? ninputs : 1);
    arb_t tb, r;
    arb_init(tb);
    arb_init(r);
    for (slong q = 0; q < ninputs; q++)
        ball_around(in + q, in_mid + q, in_rad != NULL ? in_rad + q : NULL,
                    prec);
    ball_around(tb, t, t_rad, prec);
    walk_init(&w, pool, e, 0);
    w.inputs = inputs;
    w.ninputs = ninputs;
    w.in_ball = in;
    w.t_ball = tb;
    int st = eval_ball(r, NULL, &w, prec);
    if (st == 0)
        ball_out(mid, rad, r);
    walk_clear(&w);
    arb_clear(r);
    arb_clear(tb);
    _arb_vec_clear(in, ninputs > 0 ? ninputs : 1);
    return st == 0 ? 0 : HDO_ERR_DOMAIN;
}
