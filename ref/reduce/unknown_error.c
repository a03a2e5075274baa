/* hdo_reduced_unknown_error -- how far the algebraic unknowns of a reduced
 * mode can be from the truth, given the errors of the states they are
 * solved from (decisions.md D-124) */
#include <stdlib.h>
#include "reduce.h"
#include "cache.h"

/* The unknowns u solve h(t, xs, u) = 0.  At the truth (t*, xs*, u*),
   0 = h(t*, xs*, u) + H (u* - u) with H the mean of dh/du between u and
   u* (the mean value theorem, row by row), so |u* - u| <= |H^-1|
   |h(t*, xs*, u)| componentwise, and |h(t*, xs*, u)| <= |m| + r for the
   enclosure m +- r of h over t +- trad, xs +- srad at u itself: the
   states' errors, t's and the residual Newton left (its rounding floor,
   D-069) together.  H is taken at u (first order, as the states' radii
   are: the difference is the product of two errors). */
/* The work space for nin inputs and nu unknowns at prec (cache.h): the
   values at prec, the radii, bounds and H at 64 bits */
static hdo_unknown_scratch *
scratch(struct hdo_reduce_cache *cache, slong nin, slong nu, mpfr_prec_t prec)
{
    hdo_unknown_scratch *s = cache->uscratch;
    /* made for these inputs at this precision (a recompile drops it:
       hdo_reduce_cache_invalidate) */
    if (s != NULL) {
        HDO_ASSERT(s->nin == nin && s->nu == nu &&
                   mpfr_get_prec(s->mid) == prec);
        return s;
    }
    s = xcalloc(1, sizeof *s);
    s->nin = nin;
    s->nu = nu;
    s->mid = hdo_vec_init(nin + 1, prec);
    s->rad = hdo_vec_init(nin + 1, 64);
    s->rho = hdo_vec_init(nu, 64);
    s->col = hdo_vec_init(nu, 64);
    s->perm = malloc((nu + 1) * sizeof(slong));
    HDO_ASSERT(s->perm != NULL);
    hdo_mat_init(s->J, nu, nu, 64);
    mpfr_init2(s->m, prec + 32);
    mpfr_init2(s->e, 64);
    cache->uscratch = s;
    return s;
}

int
hdo_reduced_unknown_error(mpfr_ptr urad, hdo_model_t model,
                          const hdo_reduced_t r, const mpfr_t t,
                          const mpfr_t trad, mpfr_srcptr xs, mpfr_srcptr srad,
                          mpfr_srcptr xu, mpfr_prec_t prec)
{
    struct hdo_reduce_cache *cache = r->cache;
    slong nu = r->nimplicit;
    if (nu == 0)
        return 0;
    if (cache == NULL)
        return HDO_ERR_UNSUPPORTED;
    /* a compile at another precision drops the programs and the scratch */
    hdo_reduce_cache_compile(model, r, prec);
    hdo_program_struct *prog = cache->prog_h;
    const slong *in = cache->in_h;
    slong nin = prog->ninputs;
    hdo_unknown_scratch *sc = scratch(cache, nin, nu, prec);
    mpfr_ptr mid = sc->mid, rad = sc->rad, rho = sc->rho, col = sc->col;
    slong *perm = sc->perm;
    mpfr_ptr m = sc->m, e = sc->e;
    hdo_expr bad;
    int st = 0;
    for (slong q = 0; q < nin; q++) {
        if (in[q] >= 0) {
            mpfr_set(mid + q, xs + in[q], MPFR_RNDN);
            mpfr_set(rad + q, srad + in[q], MPFR_RNDU);
        } else {
            mpfr_set(mid + q, xu + (-1 - in[q]), MPFR_RNDN);
            mpfr_set_zero(rad + q, 1);
        }
        mpfr_set(prog->value[prog->inputs[q].slot], mid + q, MPFR_RNDN);
    }
    /* rho_k >= |h_k(t*, xs*, u)| */
    for (slong k = 0; k < nu && st == 0; k++) {
        st = hdo_expr_enclose(m, e, model->pool, r->h[k], prog->inputs, mid,
                              rad, nin, t, trad, prec + 32);
        if (st == 0) {
            mpfr_abs(rho + k, m, MPFR_RNDU);
            mpfr_add(rho + k, rho + k, e, MPFR_RNDU);
        }
    }
    /* dh/du at u: prog_h's roots after h are the entries of jh */
    if (st == 0) {
        if (prog->time_slot >= 0)
            mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
        st = hdo_program_eval(prog, &bad);
    }
    if (st == 0) {
        hdo_mat_zero(sc->J);
        for (slong i = 0; i < cache->jh.len; i++)
            mpfr_set(hdo_mat_entry(sc->J, cache->jh.row[i], cache->jh.col[i]),
                     prog->value[prog->root_slot[nu + i]], MPFR_RNDN);
        st = hdo_lu_factor(sc->J, perm);
    }
    /* urad_j = sum_k |(H^-1)_jk| rho_k, column k of H^-1 by a solve with
       e_k; 64 bits: a bound needs a few correct digits, not all */
    for (slong j = 0; j < nu && st == 0; j++)
        mpfr_set_zero(urad + j, 1);
    for (slong k = 0; k < nu && st == 0; k++) {
        if (mpfr_zero_p(rho + k))
            continue;
        for (slong j = 0; j < nu; j++)
            mpfr_set_ui(col + j, j == k, MPFR_RNDN);
        hdo_lu_solve(col, sc->J, perm);
        for (slong j = 0; j < nu; j++) {
            mpfr_abs(e, col + j, MPFR_RNDU);
            mpfr_mul(e, e, rho + k, MPFR_RNDU);
            mpfr_add(urad + j, urad + j, e, MPFR_RNDU);
        }
    }
    for (slong j = 0; j < nu && st == 0; j++)
        if (!mpfr_number_p(urad + j))
            st = HDO_ERR_DOMAIN;
    return st;
}
