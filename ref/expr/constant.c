/* constant.c -- checking and evaluating constant expressions with Arb balls */
#include <arb.h>
#include "expr.h"
#include "pool.h"
#include "memo.h"

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

/* The position of node id among nodes[0..len), sorted ascending: the
   children of a node come before it (hdo_expr_reachable's order). */
static slong
position(const int32_t *nodes, slong len, int32_t id)
{
    slong lo = 0, hi = len - 1;
    while (lo <= hi) {
        slong mid = (lo + hi) / 2;
        if (nodes[mid] == id)
            return mid;
        if (nodes[mid] < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    HDO_ASSERT(0 && "a child is reachable before its parent");
    return -1;
}

/* Evaluates every reachable node of the constant expression e as an Arb
   ball at prec bits.  Returns 0 and sets r, or UNDECIDED / UNDEFINED with
   *bad set to the first node whose value cannot be decided at this
   precision (a divisor whose ball contains zero, say) or is undefined. */
static int
eval_ball(arb_t r, hdo_expr *bad, const hdo_expr_pool_struct *pool, hdo_expr e,
          slong prec)
{
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, &e, 1);
    arb_ptr v = _arb_vec_init(len);
    int status = 0;
    arb_t one;
    arb_init(one);
    arb_one(one);
    for (slong i = 0; i < len && status == 0; i++) {
        const hdo_expr_node *n = pool->nodes + nodes[i];
        arb_ptr x = v + i, a = NULL, b = NULL;
        if (n->kind >= HDO_X_ADD) {
            a = v + position(nodes, i, n->a);
            if (n->kind <= HDO_X_POW)
                b = v + position(nodes, i, n->b);
        }
        switch (n->kind) {
        case HDO_X_CONST:
            arb_set_fmpq(x, pool->consts + n->a, prec);
            break;
        case HDO_X_PI:
            arb_const_pi(x, prec);
            break;
        case HDO_X_TIME:
        case HDO_X_VAR:
            status = -1;
            break;
        case HDO_X_ADD:
            arb_add(x, a, b, prec);
            break;
        case HDO_X_SUB:
            arb_sub(x, a, b, prec);
            break;
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
            break;
        case HDO_X_ASIN:
            arb_asin(x, a, prec);
            break;
        case HDO_X_ACOS:
            arb_acos(x, a, prec);
            break;
        case HDO_X_ATAN:
            arb_atan(x, a, prec);
            break;
        case HDO_X_EXP:
            if (huge_exp_arg(a))
                status = UNDEFINED; /* beyond MPFR's range */
            else
                arb_exp(x, a, prec);
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
            if (huge_exp_arg(a))
                status = UNDEFINED; /* beyond MPFR's range */
            else
                arb_sinh(x, a, prec);
            break;
        case HDO_X_COSH:
            if (huge_exp_arg(a))
                status = UNDEFINED; /* beyond MPFR's range */
            else
                arb_cosh(x, a, prec);
            break;
        case HDO_X_TANH:
            arb_tanh(x, a, prec);
            break;
        default:
            status = -1;
        }
        if (status == 0 && !arb_is_finite(x))
            status = -1;
        if (status != 0 && bad != NULL)
            *bad = nodes[i];
    }
    if (status == 0)
        arb_set(r, v + len - 1);
    arb_clear(one);
    _arb_vec_clear(v, len);
    flint_free(nodes);
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

int
hdo_expr_const_check(const hdo_expr_pool_t pool, hdo_expr e, hdo_expr *bad)
{
    /* A ball that contains zero may only be too wide: retry at higher
       precision before calling a divisor zero (1/(exp(10^-90) - 1) is
       fine).  Exact zeros (sin(pi)) stay undecidable and are refused. */
    arb_t r;
    arb_init(r);
    int status = -1;
    for (slong prec = 256; prec <= 16384 && status == UNDECIDED; prec *= 4)
        status = eval_ball(r, bad, pool, e, prec);
    arb_clear(r);
    return status == 0 ? 0 : -1;
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
    arb_init(x);
    int status = -1;
    /* Start above the size of the largest rational in e: sin(10^100000)
       needs its argument to 332193 bits before any digit is right. */
    slong start = want + 64 + max_const_bits(pool, e);
    slong cap = FLINT_MAX(64 * start + 4096, WORD(1) << 19);
    for (slong prec = start; prec < cap; prec *= 2) {
        int st = eval_ball(x, NULL, pool, e, prec);
        if (st == UNDEFINED)
            break;
        if (st != 0)
            continue; /* undecided at this precision: raise it */
        if (arb_rel_accuracy_bits(x) >= want + 2 || arb_is_zero(x)) {
            arf_get_mpfr(r, arb_midref(x), MPFR_RNDN);
            status = 0;
            break;
        }
    }
    arb_clear(x);
    return status;
}
