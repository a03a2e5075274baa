/* parse_build.c -- building expression nodes for the parser: every node
 * through track() (heights and constant sizes within model.h's limits),
 * operators and relations, and the checks of constants (defined, within
 * MPFR's range) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include "model/parser.h"

int
node_arity(hdo_expr_kind k)
{
    return hdo_expr_kind_arity(k);
}

const fmpq *
node_fmpq(const parser *P, hdo_expr e)
{
    const hdo_expr_node *n = hdo_expr_node_get(P->pool, e);
    return n->kind == HDO_X_CONST ? P->pool->consts + n->a : NULL;
}

int
track(parser *P, hdo_expr e, slong tok)
{
    slong len = P->pool->len, i;
    const fmpq *q;
    slong old_alloc = P->height_alloc;
    if (grow((void **)&P->height, &P->height_alloc, len, sizeof *P->height))
        return nomem(P);
    if (P->height_alloc != old_alloc || P->cflag == NULL) {
        unsigned char *c = realloc(P->cflag, (size_t)P->height_alloc);
        if (c == NULL)
            return nomem(P);
        P->cflag = c;
    }
    /* Nodes are appended after their children, so one pass in index
       order sees every child's height before its parent. */
    for (i = P->nheight; i < len; i++) {
        const hdo_expr_node *n = hdo_expr_node_get(P->pool, (hdo_expr)i);
        int32_t h = 0;
        int ar = node_arity(n->kind);
        unsigned char c = n->kind == HDO_X_CONST || n->kind == HDO_X_PI;
        if (ar >= 1) {
            h = P->height[n->a];
            c = P->cflag[n->a] & CF_CONST;
        }
        if (ar == 2 && P->height[n->b] > h)
            h = P->height[n->b];
        if (ar == 2)
            c &= P->cflag[n->b];
        P->height[i] = h + 1;
        /* a rational is exact, defined and in range once it is built */
        P->cflag[i] = n->kind == HDO_X_CONST ? CF_CONST | CF_DEFINED | CF_RANGE
                                             : (c & CF_CONST);
    }
    P->nheight = len;
    if (P->height[e] > HDO_MODEL_MAX_DEPTH)
        return perr(P, HDO_ERR_SYNTAX, tok,
                    "expression too deep (more than %d nested operations; "
                    "split long sums with parentheses)",
                    HDO_MODEL_MAX_DEPTH);
    q = node_fmpq(P, e);
    if (q != NULL && (fmpz_bits(fmpq_numref(q)) > HDO_MODEL_MAX_CONST_BITS ||
                      fmpz_bits(fmpq_denref(q)) > HDO_MODEL_MAX_CONST_BITS))
        return perr(P, HDO_ERR_SEMANTIC, tok,
                    "exact constant too large (more than %d bits)",
                    HDO_MODEL_MAX_CONST_BITS);
    return 0;
}

static int
is_zero_const(const parser *P, hdo_expr e)
{
    const fmpq *q = node_fmpq(P, e);
    return q != NULL && fmpq_is_zero(q);
}

/* Appends "FILE:LINE:COL: warning: MSG" (and a newline) to the model's
   warnings. */
static int pwarn(parser *P, slong tok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
pwarn(parser *P, slong tok, const char *fmt, ...)
{
    char msg[700];
    hdo_srcpos pos = tok_pos(P, tok);
    size_t old = P->m->warnings ? strlen(P->m->warnings) : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *file = P->m->file ? P->m->file : "model";
    size_t add = strlen(file) + strlen(msg) + 64;
    char *w = realloc(P->m->warnings, old + add);
    if (w == NULL)
        return nomem(P);
    snprintf(w + old, add, "%s:%d:%d: warning: %s\n", file, pos.line, pos.col,
             msg);
    P->m->warnings = w;
    return 0;
}

/* Checks the constant node e, which starts at token tok: defined (no
   division by zero, no argument outside a function's domain), and with
   range != 0 a value MPFR can hold.  Exact zeros are decided by Calcium
   (hdo_expr_const_examine); a zero taken from an enclosure instead of a
   proof is reported as a warning. */
static int
check_constant(parser *P, hdo_expr e, slong tok, int range)
{
    unsigned char want = range ? CF_RANGE : CF_DEFINED;
    if (!(P->cflag[e] & CF_CONST) || (P->cflag[e] & want))
        return 0;
    hdo_const_report rep;
    int st = hdo_expr_const_examine_cached(&rep, P->pool, e, range, P->ccache);
    if (rep.assumed_zero != HDO_EXPR_NONE && st == 0 &&
        !(P->cflag[e] & CF_WARNED)) {
        P->cflag[e] |= CF_WARNED;
        char *z = hdo_expr_to_string(P->pool, rep.assumed_zero, NULL);
        int ws = pwarn(P, tok,
                       "%.300s is taken as exactly 0: Calcium cannot decide "
                       "it, and its enclosure at 16384 bits lies within "
                       "2^-16000 (about 10^-4816) of 0",
                       z ? z : "a sub-expression");
        free(z);
        if (ws != 0)
            return ws;
    }
    if (st == 0) {
        P->cflag[e] |= CF_DEFINED | want;
        return 0;
    }
    char *bad = hdo_expr_to_string(P->pool, rep.bad, NULL);
    char *zero = rep.assumed_zero == HDO_EXPR_NONE
                     ? NULL
                     : hdo_expr_to_string(P->pool, rep.assumed_zero, NULL);
    hdo_expr_kind k = hdo_expr_node_get(P->pool, rep.bad)->kind;
    const char *text = bad ? bad : "a constant";
    char what[200], note[200] = "";
    int undefined = 1;
    if (rep.reason == HDO_CONST_OVERFLOW) {
        snprintf(what, sizeof what,
                 "overflow (its magnitude is beyond 2^%ld, the largest "
                 "MPFR number)",
                 (long)mpfr_get_emax());
        undefined = 0;
    } else if (rep.reason == HDO_CONST_UNDERFLOW) {
        snprintf(what, sizeof what,
                 "underflow (it is not 0 but below 2^%ld, the smallest "
                 "MPFR number)",
                 (long)mpfr_get_emin() - 1);
        undefined = 0;
    } else if (rep.reason == HDO_CONST_UNDECIDED) {
        snprintf(what, sizeof what,
                 "undecided at 16384 bits (an argument too close to a pole "
                 "or to the edge of a domain)");
        undefined = 0;
    } else if (k == HDO_X_DIV) {
        snprintf(what, sizeof what, "division by zero");
    } else if (k == HDO_X_POW) {
        snprintf(what, sizeof what, "a power outside its domain");
    } else if (k == HDO_X_TAN) {
        snprintf(what, sizeof what, "a pole of tan");
    } else {
        snprintf(what, sizeof what, "%s of an argument outside its domain",
                 hdo_expr_kind_name(k));
    }
    if (zero != NULL)
        snprintf(note, sizeof note,
                 " (%.80s%s is taken as 0: Calcium cannot decide it, and it "
                 "is within 2^-16000 of 0)",
                 zero, strlen(zero) > 80 ? "..." : "");
    int status;
    if (P->ctx != NULL)
        status = perr(P, HDO_ERR_SEMANTIC, tok, "%s is %s: %s in %.200s%s%s",
                      P->ctx, undefined ? "undefined" : "refused", what, text,
                      strlen(text) > 200 ? "..." : "", note);
    else
        status = perr(P, HDO_ERR_SEMANTIC, tok, "%.200s%s is %s: %s%s", text,
                      strlen(text) > 200 ? "..." : "",
                      undefined ? "undefined" : "refused", what, note);
    free(zero);
    free(bad);
    return status;
}

/* A constant node that becomes an operand of a non-constant one is a
   value the run holds in MPFR: its range is checked there. */
static int
check_operand(parser *P, hdo_expr out, hdo_expr child, slong tok)
{
    if ((P->cflag[out] & CF_CONST) || !(P->cflag[child] & CF_CONST))
        return 0;
    return check_constant(P, child, tok, 1);
}

/* The root of an expression (an equation, a guard, a reset value, a
   constant statement) starting at token tok. */
int
check_root(parser *P, hdo_expr e, slong tok)
{
    return check_constant(P, e, tok, 1);
}

int
build_binary(hdo_expr *out, parser *P, hdo_expr_kind k, hdo_expr a, hdo_expr b,
             slong tok, slong atok, slong btok)
{
    int status;
    const fmpq *qa = node_fmpq(P, a), *qb = node_fmpq(P, b);
    if (k == HDO_X_DIV && is_zero_const(P, b))
        return perr(P, HDO_ERR_SEMANTIC, tok, "division by zero");
    if (k == HDO_X_POW && qa != NULL && qb != NULL) {
        if (fmpq_is_zero(qa) && fmpq_sgn(qb) < 0)
            return perr(P, HDO_ERR_SEMANTIC, tok,
                        "zero raised to a negative power");
        /* Folding a^n exactly costs |n| times the size of a: refuse
           before computing what the size check in track() would refuse
           after.  (fmpz_get_d saturates, so a huge n is refused too.) */
        int trivial =
            fmpz_is_one(fmpq_denref(qa)) &&
            (fmpz_is_zero(fmpq_numref(qa)) || fmpz_is_pm1(fmpq_numref(qa)));
        if (fmpz_is_one(fmpq_denref(qb)) && !trivial) {
            double n = fmpz_get_d(fmpq_numref(qb));
            double bits = (double)FLINT_MAX(fmpz_bits(fmpq_numref(qa)),
                                            fmpz_bits(fmpq_denref(qa)));
            if ((n < 0 ? -n : n) * bits > (double)HDO_MODEL_MAX_CONST_BITS)
                return perr(P, HDO_ERR_SEMANTIC, tok,
                            "exact constant too large (more than %d bits)",
                            HDO_MODEL_MAX_CONST_BITS);
        }
    }
    *out = hdo_expr_binary(P->pool, k, a, b);
    if ((status = track(P, *out, tok)) != 0 ||
        (status = check_constant(P, *out, atok, 0)) != 0 ||
        (status = check_operand(P, *out, a, atok)) != 0)
        return status;
    return check_operand(P, *out, b, btok);
}

/* tok: the start of the expression (a function's name, the sign); atok:
   the start of the operand. */
int
build_unary(hdo_expr *out, parser *P, hdo_expr_kind k, hdo_expr a, slong tok,
            slong atok)
{
    int status;
    *out = k == HDO_X_NEG ? hdo_expr_neg(P->pool, a)
                          : hdo_expr_unary(P->pool, k, a);
    if ((status = track(P, *out, tok)) != 0 ||
        (status = check_constant(P, *out, tok, 0)) != 0)
        return status;
    return check_operand(P, *out, a, atok);
}

int
build_leaf(parser *P, hdo_expr e, slong tok)
{
    return track(P, e, tok);
}

/* Sets *sign to the sign of the constant e: exactly for rationals,
   otherwise from MPFR evaluations at 256 and then 4096 bits (a value
   that is still zero then is taken as zero). */
void
constant_sign(int *sign, parser *P, hdo_expr e)
{
    const fmpq *q = node_fmpq(P, e);
    mpfr_prec_t prec;
    if (q != NULL) {
        *sign = fmpq_sgn(q);
        return;
    }
    *sign = 0;
    for (prec = 256; prec <= 4096 && *sign == 0; prec *= 16) {
        mpfr_t r;
        mpfr_init2(r, prec);
        if (hdo_expr_eval_constant(r, P->pool, e) == 0 && !mpfr_nan_p(r))
            *sign = mpfr_sgn(r);
        mpfr_clear(r);
    }
}

int
is_relop(int k)
{
    return k == HDO_TK_LT || k == HDO_TK_GT || k == HDO_TK_LE || k == HDO_TK_GE;
}

/* Records where the relation rel (a GE or GT node, or NOT of one) is
   written, at token tok, for the messages of a run that stops on it
   (hdo_mode.rel_pos). */
static int
note_relation(parser *P, hdo_expr rel, slong tok)
{
    hdo_model_struct *m = P->m;
    const hdo_expr_node *nd = hdo_expr_node_get(P->pool, rel);
    if (nd->kind == HDO_X_NOT)
        nd = hdo_expr_node_get(P->pool, nd->a);
    if (nd->kind != HDO_X_GE && nd->kind != HDO_X_GT)
        return 0;
    if (grow((void **)&m->relpos, &m->relpos_alloc, m->nrelpos + 1,
             sizeof *m->relpos))
        return nomem(P);
    m->relpos[m->nrelpos].d = nd->a;
    m->relpos[m->nrelpos].pos = tok_pos(P, tok);
    m->nrelpos++;
    return 0;
}

/* A relation a op b as the node D >= 0 or D > 0 (hdo_expr_rel); a
   constant one is decided exactly and folds to 1 or 0. */
int
build_relation(hdo_expr *out, parser *P, int op, hdo_expr a, hdo_expr b,
               slong atok, slong optok, slong btok)
{
    hdo_expr d;
    int status, strict = op == HDO_TK_LT || op == HDO_TK_GT;
    /* a < b, a <= b: D = b - a; a > b, a >= b: D = a - b */
    if (op == HDO_TK_LT || op == HDO_TK_LE)
        status = build_binary(&d, P, HDO_X_SUB, b, a, optok, btok, atok);
    else
        status = build_binary(&d, P, HDO_X_SUB, a, b, optok, atok, btok);
    if (status != 0)
        return status;
    if ((P->cflag[d] & CF_CONST) && node_fmpq(P, d) == NULL) {
        int sign;
        if (hdo_expr_const_sign(&sign, P->pool, d) != 0)
            return perr(P, HDO_ERR_SEMANTIC, optok,
                        "the comparison of two constants cannot be decided "
                        "(their difference is undefined, or too close to 0 "
                        "to tell at 16384 bits)");
        *out =
            hdo_expr_const_si(P->pool, sign > 0 || (sign == 0 && !strict), 1);
    } else {
        *out = hdo_expr_rel(P->pool, strict, d);
        if ((status = note_relation(
                 P, *out, is_relop(P->tk[optok].kind) ? atok : optok)) != 0)
            return status;
    }
    return track(P, *out, optok);
}
