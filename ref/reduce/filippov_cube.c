/* filippov_cube.c -- the Filippov sliding mode on the intersection of k
 * switching surfaces: the cube of the 2^k adjacent modes and its
 * multilinear convex combination (Aljarbouh-Caillaud (30), (39)) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reduce.h"
#include "reduce/filippov.h"

static int
popcount64(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* The when of mode q across surface S (orientation: q's guard is S when
   same, -S otherwise) whose target is in mask; -1 if none (an index, not
   a status). */
static slong
when_across(hdo_model_struct *model, slong q, hdo_expr S, int same,
            uint64_t mask)
{
    const hdo_mode *mode = model->modes + q;
    hdo_expr negS = hdo_expr_neg(model->pool, S);
    for (slong w = 0; w < mode->nwhens; w++) {
        slong t = mode->whens[w].target;
        hdo_expr G = mode->whens[w].guard;
        if (t < 0 || t >= 64 || !((mask >> t) & 1) || t == q)
            continue;
        int match =
            same ? G == S : (G == negS || hdo_expr_neg(model->pool, G) == S);
        if (match)
            return w;
    }
    return -1;
}

int
hdo_sliding_cube(hdo_sliding_set *set, hdo_model_struct *model, uint64_t mask,
                 char *why, size_t nwhy)
{
    int n = popcount64(mask), k = 0;
    while ((1 << k) < n)
        k++;
    memset(set, 0, sizeof *set);
    set->det = HDO_EXPR_NONE;
    for (int j = 0; j < HDO_SLIDING_MAXK; j++)
        set->surf[j] = set->beta[j] = HDO_EXPR_NONE;
    if (n < 2 || (1 << k) != n || k > HDO_SLIDING_MAXK) {
        snprintf(why, nwhy,
                 "sliding on an intersection of %d or more surfaces (%d "
                 "adjacent modes) is not covered",
                 k, n);
        return HDO_ERR_UNSUPPORTED;
    }
    slong q0 = 0;
    while (!((mask >> q0) & 1))
        q0++;
    set->k = k;
    set->corner[0] = q0;
    /* corner[0]'s whens into the cube: one per surface, in file order */
    const hdo_mode *m0 = model->modes + q0;
    int j = 0;
    uint64_t seen = (uint64_t)1 << q0;
    for (slong w = 0; w < m0->nwhens && j <= k; w++) {
        slong t = m0->whens[w].target;
        if (t < 0 || t >= 64 || !((mask >> t) & 1) || ((seen >> t) & 1))
            continue;
        if (j == k) {
            j++;
            break;
        }
        seen |= (uint64_t)1 << t;
        set->surf[j] = m0->whens[w].guard;
        set->corner[1 << j] = t;
        j++;
    }
    if (j != k)
        goto not_cube;
    for (slong s = 1; s < n; s++) {
        if ((s & (s - 1)) == 0)
            continue; /* a neighbour of corner[0], set above */
        int hb = 0;
        while ((s >> (hb + 1)) != 0)
            hb++;
        slong from = s ^ (1 << hb), q = set->corner[from];
        slong w = when_across(model, q, set->surf[hb], 1, mask);
        if (w < 0)
            goto not_cube;
        set->corner[s] = model->modes[q].whens[w].target;
    }
    /* closure: every corner reaches its neighbours across every surface,
       and the corners are the modes of mask */
    uint64_t got = 0;
    for (slong s = 0; s < n; s++) {
        slong q = set->corner[s];
        got |= (uint64_t)1 << q;
        for (int i = 0; i < k; i++) {
            slong w =
                when_across(model, q, set->surf[i], !((s >> i) & 1), mask);
            if (w < 0 ||
                model->modes[q].whens[w].target != set->corner[s ^ (1 << i)])
                goto not_cube;
        }
    }
    if (got != mask)
        goto not_cube;
    return 0;
not_cube:;
    char names[256];
    size_t len = 0;
    names[0] = '\0';
    for (slong q = 0; q < model->nmodes && q < 64; q++)
        if ((mask >> q) & 1) {
            int w = snprintf(names + len, sizeof names - len, "%s'%s'",
                             len ? ", " : "", model->modes[q].name);
            if (w < 0 || (size_t)w >= sizeof names - len)
                break;
            len += (size_t)w;
        }
    snprintf(why, nwhy,
             "sliding on an intersection of surfaces: the modes %s are not "
             "the 2^%d sign patterns of %d switching surfaces (each mode "
             "with a `when` across every surface into its neighbour, the "
             "guards of the two sides negated expressions): not covered",
             names, k, k);
    return HDO_ERR_UNSUPPORTED;
}

/* A linear combination of expressions: sum coef_i * term_i + constant,
   with the terms (expressions that are not sums, differences,
   negations or products/quotients by rational constants) merged by
   node. */
typedef struct {
    hdo_expr *term;
    fmpq *coef;
    slong len, alloc;
    fmpq_t cst;
} lincomb;

static void
lc_init(lincomb *l)
{
    l->term = NULL;
    l->coef = NULL;
    l->len = l->alloc = 0;
    fmpq_init(l->cst);
}

static void
lc_clear(lincomb *l)
{
    for (slong i = 0; i < l->alloc; i++)
        fmpq_clear(l->coef + i);
    free(l->term);
    free(l->coef);
    fmpq_clear(l->cst);
}

static void
lc_add_term(lincomb *l, hdo_expr e, const fmpq_t c)
{
    for (slong i = 0; i < l->len; i++)
        if (l->term[i] == e) {
            fmpq_add(l->coef + i, l->coef + i, c);
            return;
        }
    if (l->len == l->alloc) {
        slong na = l->alloc ? 2 * l->alloc : 8;
        l->term = realloc(l->term, na * sizeof *l->term);
        l->coef = realloc(l->coef, na * sizeof *l->coef);
        HDO_ASSERT(l->term != NULL && l->coef != NULL);
        for (slong i = l->alloc; i < na; i++)
            fmpq_init(l->coef + i);
        l->alloc = na;
    }
    l->term[l->len] = e;
    fmpq_set(l->coef + l->len, c);
    l->len++;
}

/* l += c * e */
static void
lc_flatten(lincomb *l, const hdo_expr_pool_struct *pool, hdo_expr e,
           const fmpq_t c)
{
    const hdo_expr_node *nd = pool->nodes + e;
    fmpq_t q, c2;
    if (fmpq_is_zero(c))
        return;
    fmpq_init(q);
    fmpq_init(c2);
    if (nd->kind == HDO_X_CONST &&
        hdo_expr_get_fmpq(q, (hdo_expr_pool_struct *)pool, e) == 0) {
        fmpq_addmul(l->cst, c, q);
    } else if (nd->kind == HDO_X_ADD || nd->kind == HDO_X_SUB) {
        lc_flatten(l, pool, nd->a, c);
        fmpq_set(c2, c);
        if (nd->kind == HDO_X_SUB)
            fmpq_neg(c2, c2);
        lc_flatten(l, pool, nd->b, c2);
    } else if (nd->kind == HDO_X_NEG) {
        fmpq_neg(c2, c);
        lc_flatten(l, pool, nd->a, c2);
    } else if (nd->kind == HDO_X_MUL &&
               pool->nodes[nd->a].kind == HDO_X_CONST) {
        hdo_expr_get_fmpq(q, (hdo_expr_pool_struct *)pool, nd->a);
        fmpq_mul(c2, c, q);
        lc_flatten(l, pool, nd->b, c2);
    } else if (nd->kind == HDO_X_MUL &&
               pool->nodes[nd->b].kind == HDO_X_CONST) {
        hdo_expr_get_fmpq(q, (hdo_expr_pool_struct *)pool, nd->b);
        fmpq_mul(c2, c, q);
        lc_flatten(l, pool, nd->a, c2);
    } else if (nd->kind == HDO_X_DIV &&
               pool->nodes[nd->b].kind == HDO_X_CONST &&
               hdo_expr_get_fmpq(q, (hdo_expr_pool_struct *)pool, nd->b) == 0 &&
               !fmpq_is_zero(q)) {
        fmpq_div(c2, c, q);
        lc_flatten(l, pool, nd->a, c2);
    } else {
        lc_add_term(l, e, c);
    }
    fmpq_clear(q);
    fmpq_clear(c2);
}

static int
lc_is_zero(const lincomb *l)
{
    if (!fmpq_is_zero(l->cst))
        return 0;
    for (slong i = 0; i < l->len; i++)
        if (!fmpq_is_zero(l->coef + i))
            return 0;
    return 1;
}

static hdo_expr
lc_expr(hdo_expr_pool_struct *pool, const lincomb *l)
{
    hdo_expr e = hdo_expr_const_fmpq(pool, l->cst);
    for (slong i = 0; i < l->len; i++)
        if (!fmpq_is_zero(l->coef + i))
            e = hdo_expr_add(
                pool, e,
                hdo_expr_mul(pool, hdo_expr_const_fmpq(pool, l->coef + i),
                             l->term[i]));
    return e;
}

/* sum over corners s of w(s) * rhs_s[var i] into l (w(s) = +-2^-k) */
static void
lc_corners(lincomb *l, const hdo_expr_pool_struct *pool,
           const hdo_reduced_struct *const *cr, slong ncorner, slong var,
           uint64_t signmask)
{
    fmpq_t w;
    fmpq_init(w);
    for (slong s = 0; s < ncorner; s++) {
        const hdo_reduced_struct *r = cr[s];
        slong i = explicit_index(r, var);
        HDO_ASSERT(i >= 0);
        /* the sign: prod over j in signmask of s_j, s_j = -1 across j */
        int neg = popcount64((uint64_t)s & signmask) & 1;
        fmpq_set_si(w, neg ? -1 : 1, (ulong)ncorner);
        lc_flatten(l, pool, r->rhs[i], w);
    }
    fmpq_clear(w);
}

static int
is_zero_const(hdo_expr_pool_struct *pool, hdo_expr e)
{
    fmpq_t q;
    fmpq_init(q);
    int z = hdo_expr_get_fmpq(q, pool, e) == 0 && fmpq_is_zero(q);
    fmpq_clear(q);
    return z;
}

/* determinant of the k x k matrix a (row-major), k <= 3 */
static hdo_expr
det_expr(hdo_expr_pool_struct *pool, const hdo_expr *a, int k)
{
#define M(i, j) a[(i)*k + (j)]
#define MUL hdo_expr_mul
#define SUB hdo_expr_sub
#define ADD hdo_expr_add
    if (k == 1)
        return M(0, 0);
    if (k == 2)
        return SUB(pool, MUL(pool, M(0, 0), M(1, 1)),
                   MUL(pool, M(0, 1), M(1, 0)));
    hdo_expr c0 = SUB(pool, MUL(pool, M(1, 1), M(2, 2)),
                      MUL(pool, M(1, 2), M(2, 1))),
             c1 = SUB(pool, MUL(pool, M(1, 0), M(2, 2)),
                      MUL(pool, M(1, 2), M(2, 0))),
             c2 = SUB(pool, MUL(pool, M(1, 0), M(2, 1)),
                      MUL(pool, M(1, 1), M(2, 0)));
    return ADD(pool, SUB(pool, MUL(pool, M(0, 0), c0), MUL(pool, M(0, 1), c1)),
               MUL(pool, M(0, 2), c2));
#undef M
#undef MUL
#undef SUB
#undef ADD
}

int
hdo_sliding_build_set(hdo_reduced_struct *out, hdo_sliding_set *set,
                      hdo_model_struct *model,
                      const hdo_reduced_struct *const *red, char *why,
                      size_t nwhy)
{
    hdo_expr_pool_struct *pool = model->pool;
    int k = (int)set->k;
    slong nc = (slong)1 << k;
    const hdo_reduced_struct *cr[1 << HDO_SLIDING_MAXK];
    const hdo_reduced_struct *r0 = red[set->corner[0]];
    const char *n0 = model->modes[set->corner[0]].name;
    for (slong s = 0; s < nc; s++) {
        const hdo_reduced_struct *r = cr[s] = red[set->corner[s]];
        int ok =
            r->nimplicit == 0 && r->ncons == 0 && r->nexplicit == r0->nexplicit;
        for (slong i = 0; ok && i < r0->nexplicit; i++)
            ok = explicit_index(r, r0->explicit_var[i]) >= 0;
        if (!ok) {
            snprintf(why, nwhy,
                     "sliding on an intersection of %d surfaces is built for "
                     "modes in explicit form der(x) = f with the same "
                     "variables; modes '%s' and '%s' are not: not covered",
                     k, n0, model->modes[set->corner[s]].name);
            return HDO_ERR_UNSUPPORTED;
        }
    }
    slong nx = r0->nexplicit;
    hdo_expr *f0 = malloc(nx * (k + 1) * sizeof *f0), *g = f0 + nx;
    HDO_ASSERT(f0 != NULL);
    /* Walsh decomposition of the corner fields: the mean f0, the
       half-differences g_j, and the interaction terms (products of two
       or more signs), which must vanish identically: then the
       multilinear combination (30) is f0 + sum_j (2 alpha_j - 1) g_j,
       Utkin's equivalent control, and the tangency conditions (39) are
       linear in alpha. */
    for (slong i = 0; i < nx; i++) {
        slong var = r0->explicit_var[i];
        for (uint64_t sm = 0; sm < (uint64_t)nc; sm++) {
            lincomb l;
            lc_init(&l);
            lc_corners(&l, pool, cr, nc, var, sm);
            int pc = popcount64(sm);
            if (pc >= 2 && !lc_is_zero(&l)) {
                lc_clear(&l);
                free(f0);
                snprintf(why, nwhy,
                         "sliding on an intersection of %d surfaces at mode "
                         "'%s': the equation of der(%s) is not affine in the "
                         "signs of the surfaces (the multilinear Filippov "
                         "weights need not be unique): not covered",
                         k, n0, model->vars[var].name);
                return HDO_ERR_UNSUPPORTED;
            }
            if (pc == 0)
                f0[i] = lc_expr(pool, &l);
            else if (pc == 1) {
                int j = 0;
                while (!((sm >> j) & 1))
                    j++;
                g[j * nx + i] = lc_expr(pool, &l);
            }
            lc_clear(&l);
        }
    }
    /* tangency: L_f0 surf_j + sum_l beta_l (grad surf_j . g_l) = 0 */
    hdo_expr a[HDO_SLIDING_MAXK] = {0},
             G[HDO_SLIDING_MAXK * HDO_SLIDING_MAXK] = {0};
    for (int j = 0; j < k; j++) {
        var_list l;
        l.n = 0;
        l.bad = 0;
        hdo_expr_foreach_var(pool, set->surf[j], collect, &l);
        a[j] = hdo_expr_diff_time(pool, set->surf[j]);
        for (int c = 0; c < k; c++)
            G[j * k + c] = hdo_expr_const_si(pool, 0, 1);
        for (slong v = 0; v < l.n && !l.bad; v++) {
            slong i = explicit_index(r0, l.var[v]);
            if (i < 0) {
                l.bad = 1;
                break;
            }
            hdo_expr d = hdo_expr_diff(pool, set->surf[j], l.var[v], 0);
            a[j] = hdo_expr_add(pool, a[j], hdo_expr_mul(pool, d, f0[i]));
            for (int c = 0; c < k; c++)
                G[j * k + c] = hdo_expr_add(
                    pool, G[j * k + c], hdo_expr_mul(pool, d, g[c * nx + i]));
        }
        if (l.bad) {
            free(f0);
            snprintf(why, nwhy,
                     "a switching surface at mode '%s' depends on a "
                     "derivative or on a variable that is not a state; "
                     "sliding on it is not covered",
                     n0);
            return HDO_ERR_UNSUPPORTED;
        }
    }
    set->det = det_expr(pool, G, k);
    if (is_zero_const(pool, set->det)) {
        free(f0);
        snprintf(why, nwhy,
                 "sliding on an intersection of %d surfaces at mode '%s': "
                 "the Filippov weights are not unique (the tangency "
                 "conditions are singular, det = 0): not covered",
                 k, n0);
        return HDO_ERR_UNSUPPORTED;
    }
    for (int c = 0; c < k; c++) {
        hdo_expr Gc[HDO_SLIDING_MAXK * HDO_SLIDING_MAXK];
        memcpy(Gc, G, (size_t)(k * k) * sizeof *G);
        for (int j = 0; j < k; j++)
            Gc[j * k + c] = hdo_expr_neg(pool, a[j]);
        set->beta[c] = hdo_expr_div(pool, det_expr(pool, Gc, k), set->det);
    }
    hdo_reduced_init(out);
    out->mode = set->corner[0];
    out->explicit_var = calloc(nx ? nx : 1, sizeof(slong));
    out->rhs = calloc(nx ? nx : 1, sizeof(hdo_expr));
    out->explicit_eq = calloc(nx ? nx : 1, sizeof(slong));
    out->state = calloc(nx ? nx : 1, sizeof(hdo_varord));
    HDO_ASSERT(out->explicit_var != NULL && out->rhs != NULL &&
               out->explicit_eq != NULL && out->state != NULL);
    for (slong i = 0; i < nx; i++) {
        hdo_expr e = f0[i];
        for (int j = 0; j < k; j++)
            if (!is_zero_const(pool, g[j * nx + i]))
                e = hdo_expr_add(
                    pool, e, hdo_expr_mul(pool, set->beta[j], g[j * nx + i]));
        out->explicit_var[i] = r0->explicit_var[i];
        out->explicit_eq[i] = r0->explicit_eq[i];
        out->rhs[i] = e;
        out->state[i].var = r0->explicit_var[i];
        out->state[i].order = 0;
    }
    free(f0);
    out->nexplicit = nx;
    out->n = nx;
    out->nstate = nx;
    out->dof = nx;
    out->index = 1;
    return 0;
}
