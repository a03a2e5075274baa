/* radau_guard.c -- the switching functions' dense output of hdo_step_radau:
 * their collocation polynomials, anchored to their exact Taylor jet where
 * they vanish at the step's start (decisions.md D-085, "Radau IIA on modes with
 * switching functions") */
#include <stdlib.h>
#include <string.h>
#include "radau.h"
#include "taylor.h"

/* The jet's order: the zero rule of KM Remark 12 (hdo_event_zero_order)
   reads the first coefficient of a vanishing guard beyond the tolerance,
   1 at a transversal crossing, 2 at a grazing one or a sliding entry; a
   few more cover degenerate contacts.  Kept small on purpose: on a stiff
   arc the k-th coefficient of the exact jet carries lambda^k times the
   state's distance to the slow manifold (see radau_guard_dense). */
#define JET_ORDER 4

int
hdo_radau_guard_init(hdo_radau_guard *g, hdo_model_t model,
                     const hdo_reduced_struct *red, const hdo_expr *guards,
                     slong nguards, mpfr_srcptr c, slong s, mpfr_prec_t wprec,
                     char *msg, size_t msglen)
{
    memset(g, 0, sizeof *g);
    g->ng = nguards;
    g->s = s;
    g->n = red->nstate;
    g->N = red->nstate + red->nimplicit;
    g->K = JET_ORDER < s - 2 ? JET_ORDER : s - 2;
    g->wprec = wprec;
    g->tay = malloc(sizeof(hdo_taylor_struct));
    HDO_ASSERT(g->tay != NULL);
    /* The Taylor object compiles the guards as the Taylor method does
       (a der(x) of an explicit variable replaced by its rhs): its
       program evaluates them at the stages, its expansion of order K
       gives the jet at the start */
    int st = hdo_taylor_init(g->tay, model, red, guards, nguards, NULL, 0,
                             wprec, g->K);
    g->tay_init = 1;
    if (st != 0) {
        snprintf(msg, msglen, "%s", g->tay->init_message);
        return HDO_ERR_UNSUPPORTED;
    }
    g->gv = hdo_vec_init((s + 1) * nguards, wprec);
    g->b = hdo_vec_init(s + 1, wprec);
    g->near = calloc(nguards + 1, sizeof(int));
    HDO_ASSERT(g->near != NULL);
    /* the confluent system: b_k for k = K+1..s from the values at the
       stages c_{K+1}..c_s (1-based), rows c_i^k */
    slong q = s - g->K;
    hdo_mat_init(g->C, q, q, wprec);
    g->cperm = malloc((q + 1) * sizeof(slong));
    HDO_ASSERT(g->cperm != NULL);
    for (slong i = 0; i < q; i++) {
        mpfr_srcptr ci = c + g->K + i;
        mpfr_pow_ui(hdo_mat_entry(g->C, i, 0), ci, (unsigned long)g->K + 1,
                    MPFR_RNDN);
        for (slong k = 1; k < q; k++)
            mpfr_mul(hdo_mat_entry(g->C, i, k), hdo_mat_entry(g->C, i, k - 1),
                     ci, MPFR_RNDN);
    }
    g->cinit = 1;
    if (hdo_lu_factor(g->C, g->cperm) != 0) {
        snprintf(msg, msglen,
                 "the implicit method's confluent interpolation matrix is "
                 "singular");
        return HDO_ERR_UNSUPPORTED;
    }
    return 0;
}

void
hdo_radau_guard_clear(hdo_radau_guard *g)
{
    if (g->tay_init)
        hdo_taylor_clear(g->tay);
    free(g->tay);
    if (g->gv != NULL) {
        hdo_vec_clear(g->gv, (g->s + 1) * g->ng);
        hdo_vec_clear(g->b, g->s + 1);
    }
    if (g->cinit)
        hdo_mat_clear(g->C);
    free(g->cperm);
    free(g->near);
    memset(g, 0, sizeof *g);
}

/* The guards at the point (t, y) of N components (states, then
   unknowns) into out[0..ng).  Returns 0 or HDO_ERR_DOMAIN (*bad). */
static int
guards_at(mpfr_ptr out, hdo_radau_guard *g, const mpfr_t t, mpfr_srcptr y,
          hdo_expr *bad)
{
    hdo_taylor_struct *tay = g->tay;
    hdo_program_struct *prog = tay->prog;
    for (slong q = 0; q < prog->ninputs; q++) {
        const hdo_taylor_src *src = tay->in_src + q;
        slong i =
            src->kind == HDO_TAYLOR_SRC_STATE ? src->idx : g->n + src->idx;
        mpfr_set(prog->value[prog->inputs[q].slot], y + i, MPFR_RNDN);
    }
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    int st = hdo_program_eval(prog, bad);
    if (st != 0)
        return st;
    slong base = tay->red->nexplicit + tay->red->nh;
    for (slong q = 0; q < g->ng; q++)
        mpfr_set(out + q, prog->value[prog->root_slot[base + q]], MPFR_RNDN);
    return 0;
}

int
hdo_radau_guard_values(hdo_radau_guard *g, const mpfr_t t0, const mpfr_t h,
                       mpfr_srcptr y0, mpfr_srcptr Z, mpfr_srcptr c,
                       hdo_expr *bad)
{
    slong s = g->s, N = g->N, ng = g->ng;
    mpfr_ptr y = hdo_vec_init(N, g->wprec);
    mpfr_t t;
    int st = 0;
    mpfr_init2(t, g->wprec);
    /* values at tau = 0, c_1..c_s: y0 and the stages y0 + Z_m */
    for (slong m = 0; m <= s && st == 0; m++) {
        mpfr_set(t, t0, MPFR_RNDN);
        for (slong i = 0; i < N; i++)
            mpfr_set(y + i, y0 + i, MPFR_RNDN);
        if (m > 0) {
            mpfr_mul(t, c + m - 1, h, MPFR_RNDN);
            mpfr_add(t, t, t0, MPFR_RNDN);
            for (slong i = 0; i < N; i++)
                mpfr_add(y + i, y + i, Z + (m - 1) * N + i, MPFR_RNDN);
        }
        st = guards_at(g->gv + m * ng, g, t, y, bad);
    }
    mpfr_clear(t);
    hdo_vec_clear(y, N);
    return st;
}

/* sc := guard q's size over the step: max(|g| at tau = 0, c_1..c_s,
   gfloor_q / tol).  Relative to max(1, |g|) (up to stop 21) a guard of
   size 1e-30 was held to tol absolutely; relative to |g(y0)| alone, a
   guard that starts at zero after an event (1e12 h of a bouncing ball)
   was held to its rounding, the step fell to 3e-8, and over that horizon
   the zero rule read the event's rounding in g(y0) as a new crossing at
   once.  The floor keeps a guard that is zero up to the state's errors
   (a first integral) from being held to its own noise. */
static void
guard_scale(mpfr_t sc, const hdo_radau_guard *g, slong q, const mpfr_t tol)
{
    slong s = g->s, ng = g->ng;
    mpfr_set_zero(sc, 1);
    if (g->gfloor != NULL)
        mpfr_div(sc, g->gfloor + q, tol, MPFR_RNDN);
    for (slong m = 0; m <= s; m++)
        if (mpfr_cmpabs(g->gv + m * ng + q, sc) > 0)
            mpfr_abs(sc, g->gv + m * ng + q, MPFR_RNDN);
}

void
hdo_radau_guard_error(mpfr_t e, const hdo_radau_guard *g, mpfr_srcptr L,
                      mpfr_srcptr w0, const mpfr_t tol)
{
    slong s = g->s, ng = g->ng;
    mpfr_t a, b, sc;
    mpfr_inits2(g->wprec, a, b, sc, (mpfr_ptr)0);
    for (slong q = 0; q < ng; q++) {
        guard_scale(sc, g, q, tol);
        /* as hdo_radau_top_term: the first stage against the others' polynomial
         */
        mpfr_set(a, g->gv + ng + q, MPFR_RNDN);
        for (slong j = 1; j < s; j++) {
            mpfr_mul(b, L + j, g->gv + (j + 1) * ng + q, MPFR_RNDN);
            mpfr_sub(a, a, b, MPFR_RNDN);
        }
        hdo_radau_scaled_max(e, a, 1, 1, sc);
        /* start_term: the start against the stages' polynomial */
        mpfr_neg(a, g->gv + q, MPFR_RNDN);
        for (slong j = 0; j < s; j++)
            mpfr_fma(a, w0 + j, g->gv + (j + 1) * ng + q, a, MPFR_RNDN);
        hdo_radau_scaled_max(e, a, 1, 1, sc);
    }
    mpfr_clears(a, b, sc, (mpfr_ptr)0);
}

int
hdo_radau_guard_dense(mpfr_t *coef, hdo_radau_guard *g, const mpfr_t t0,
                      const mpfr_t h, mpfr_srcptr y0, mpfr_srcptr c,
                      const hdo_mat_t W, const slong *wperm, const mpfr_t tol,
                      hdo_error_t *err)
{
    slong s = g->s, N = g->N, ng = g->ng, K = g->K;
    mpfr_prec_t w = g->wprec;
    mpfr_t hk, lim, a;
    int st = 0, any_near = 0;
    mpfr_inits2(w, hk, lim, a, (mpfr_ptr)0);
    /* A guard within sqrt(tol) of zero at the start, relative to its
       size over the step: an arc that starts on its surface (after an
       event), or a contact */
    for (slong q = 0; q < ng && st == 0; q++) {
        guard_scale(lim, g, q, tol);
        mpfr_sqrt(a, tol, MPFR_RNDN);
        mpfr_mul(lim, lim, a, MPFR_RNDN);
        g->near[q] = mpfr_cmpabs(g->gv + q, lim) <= 0;
        any_near |= g->near[q];
    }
    if (st == 0 && any_near) {
        mpfr_srcptr xu = N > g->n ? y0 + g->n : NULL;
        st = hdo_taylor_expand(g->tay, t0, y0, xu, err);
    }
    for (slong q = 0; q < ng && st == 0; q++) {
        mpfr_t *dst = coef + q * (s + 1);
        if (!g->near[q]) {
            /* the polynomial through (0, g_0), (c_m, g_m) */
            for (slong m = 0; m <= s; m++)
                mpfr_set(g->b + m, g->gv + m * ng + q, MPFR_RNDN);
            hdo_lu_solve(g->b, W, wperm);
        } else {
            /* b_k = jet_k h^k for k <= K, then the values at the stages
               K+1..s: sum_{k > K} b_k c_i^k = g_i - sum_{k <= K} b_k c_i^k */
            const mpfr_t *jet =
                (const mpfr_t *)g->tay->guard_coef + q * (K + 1);
            mpfr_set_ui(hk, 1, MPFR_RNDN);
            for (slong k = 0; k <= K; k++) {
                mpfr_mul(g->b + k, jet[k], hk, MPFR_RNDN);
                mpfr_mul(hk, hk, h, MPFR_RNDN);
            }
            mpfr_ptr rhs = g->b + K + 1;
            for (slong i = 0; i < s - K; i++) {
                mpfr_srcptr ci = c + K + i;
                mpfr_t acc;
                mpfr_init2(acc, w);
                mpfr_set_ui(acc, 0, MPFR_RNDN);
                for (slong k = K; k >= 0; k--) {
                    mpfr_mul(acc, acc, ci, MPFR_RNDN);
                    mpfr_add(acc, acc, g->b + k, MPFR_RNDN);
                }
                mpfr_sub(a, g->gv + (K + 1 + i) * ng + q, acc, MPFR_RNDN);
                mpfr_clear(acc);
                /* rhs_i is written below b_{K+1+i}: keep a copy first */
                mpfr_set(g->gv + (K + 1 + i) * ng + q, a, MPFR_RNDN);
            }
            for (slong i = 0; i < s - K; i++)
                mpfr_set(rhs + i, g->gv + (K + 1 + i) * ng + q, MPFR_RNDN);
            hdo_lu_solve(rhs, g->C, g->cperm);
        }
        /* tau = (t - t0)/h to t - t0 */
        mpfr_set_ui(hk, 1, MPFR_RNDN);
        for (slong k = 0; k <= s; k++) {
            mpfr_div(dst[k], g->b + k, hk, MPFR_RNDN);
            mpfr_mul(hk, hk, h, MPFR_RNDN);
        }
    }
    mpfr_clears(hk, lim, a, (mpfr_ptr)0);
    return st;
}

void
hdo_radau_memo_init(hdo_radau_memo *mo, slong N, slong ncoef, mpfr_prec_t w)
{
    mo->N = N;
    mo->ncoef = ncoef;
    mo->valid = 0;
    mpfr_inits2(w, mo->t0, mo->h, mo->hnext, (mpfr_ptr)0);
    mo->y0 = hdo_vec_init(N, w);
    mo->coef = malloc((ncoef + 1) * sizeof(mpfr_t));
    HDO_ASSERT(mo->coef != NULL);
    for (slong k = 0; k < ncoef; k++)
        mpfr_init2(mo->coef[k], w);
}

void
hdo_radau_memo_clear(hdo_radau_memo *mo)
{
    mpfr_clears(mo->t0, mo->h, mo->hnext, (mpfr_ptr)0);
    hdo_vec_clear(mo->y0, mo->N);
    for (slong k = 0; k < mo->ncoef; k++)
        mpfr_clear(mo->coef[k]);
    free(mo->coef);
}

void
hdo_radau_memo_swap(hdo_radau_memo *mo, mpfr_t t0, mpfr_t h, mpfr_t hnext,
                    mpfr_ptr y0, mpfr_t *state_coef, slong nstate_coef,
                    mpfr_t *guard_coef)
{
    mpfr_swap(mo->t0, t0);
    mpfr_swap(mo->h, h);
    mpfr_swap(mo->hnext, hnext);
    for (slong i = 0; i < mo->N; i++)
        mpfr_swap(mo->y0 + i, y0 + i);
    for (slong k = 0; k < mo->ncoef; k++)
        mpfr_swap(mo->coef[k], k < nstate_coef ? state_coef[k]
                                               : guard_coef[k - nstate_coef]);
}
