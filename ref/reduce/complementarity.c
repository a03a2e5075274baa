/* complementarity.c -- the linear complementarity system of a mode's
 * complementarity block (Heemels, Schumacher and Weiland 2000): its
 * realisation from the mode's equations, exactly over the rationals, and
 * the Markov parameters of its transfer matrix (docs/decisions.md
 * D-086) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reduce.h"

void
hdo_cp_form_init(hdo_cp_form *f)
{
    memset(f, 0, sizeof *f);
}

void
hdo_cp_form_clear(hdo_cp_form *f)
{
    if (f->R != NULL)
        for (slong l = 0; l <= f->L; l++)
            fmpq_mat_clear(f->R + l);
    free(f->R);
    free(f->reldeg);
    free(f->state);
    if (f->have_B)
        fmpq_mat_clear(f->B);
    memset(f, 0, sizeof *f);
}

/* The constant derivative of e with respect to VAR(var, order) into q;
   0, or -1 when it is not a rational constant. */
static int
const_partial(fmpq_t q, hdo_model_struct *model, hdo_expr e, slong var,
              slong order)
{
    hdo_expr d = hdo_expr_diff(model->pool, e, var, order);
    return hdo_expr_get_fmpq(q, model->pool, d);
}

static void
say(hdo_cp_form *f, int status, const char *fmt, const char *a, int line)
{
    f->status = status;
    snprintf(f->why, sizeof f->why, fmt, a, line);
}

int
hdo_cp_form_build(hdo_cp_form *f, hdo_model_struct *model, slong m)
{
    const hdo_mode *mode = model->modes + m;
    slong k = mode->nperp, nf = mode->neqs - k, n = mode->nvars;
    HDO_ASSERT(k > 0 && nf + k == n);
    hdo_cp_form_clear(f);
    hdo_cp_form_init(f);
    f->m = k;
    f->reldeg = calloc(k, sizeof *f->reldeg);
    HDO_ASSERT(f->reldeg != NULL);
    /* the unknowns: each variable at its highest order kv in the
       equations (0 for an algebraic one); the states: the lower orders */
    slong *kv = calloc(n, sizeof *kv), ns = 0;
    HDO_ASSERT(kv != NULL);
    for (slong j = 0; j < n; j++) {
        for (slong r = 0; r < nf; r++) {
            slong o = hdo_expr_max_order(model->pool, mode->eqs[r].residual,
                                         mode->vars[j]);
            if (o > kv[j])
                kv[j] = o;
        }
        ns += kv[j];
    }
    hdo_varord *st = malloc((ns + 1) * sizeof *st);
    slong *zof = malloc((ns + 1) * sizeof *zof); /* state's variable slot */
    HDO_ASSERT(st != NULL && zof != NULL);
    for (slong j = 0, s = 0; j < n; j++)
        for (slong o = 0; o < kv[j]; o++, s++) {
            st[s].var = mode->vars[j];
            st[s].order = o;
            zof[s] = j;
        }
    fmpq_mat_t J, G, bz, bs;
    fmpq_mat_init(J, n, n);
    fmpq_mat_init(G, nf, ns);
    fmpq_mat_init(bz, k, n);
    fmpq_mat_init(bs, k, ns);
    int ok = 1;
    /* the equations and the conditions' B, affine with constant
       coefficients in the unknowns and the states */
    for (slong r = 0; r < nf + k && ok; r++) {
        hdo_expr e = r < nf ? mode->eqs[r].residual : mode->perp[r - nf].b;
        for (slong j = 0; j < n && ok; j++) {
            fmpq *dst = r < nf ? fmpq_mat_entry(J, r, j)
                               : fmpq_mat_entry(bz, r - nf, j);
            ok = const_partial(dst, model, e, mode->vars[j], kv[j]) == 0;
        }
        for (slong s = 0; s < ns && ok; s++) {
            fmpq *dst = r < nf ? fmpq_mat_entry(G, r, s)
                               : fmpq_mat_entry(bs, r - nf, s);
            ok = const_partial(dst, model, e, st[s].var, st[s].order) == 0;
        }
        if (!ok) {
            if (r < nf)
                say(f, HDO_CP_NOT_LINEAR,
                    "the equation '%s' (line %d) is not affine with constant "
                    "coefficients in the mode's variables",
                    mode->eqs[r].text, mode->eqs[r].pos.line);
            else
                say(f, HDO_CP_NOT_LINEAR,
                    "B = %s (line %d) is not affine with constant "
                    "coefficients in the mode's variables",
                    mode->perp[r - nf].btext, mode->perp[r - nf].pos.line);
        }
    }
    fmpq_mat_t Ji, K, PG, D, C, A, B, T;
    fmpq_mat_init(Ji, n, n);
    fmpq_mat_init(K, n, k);
    fmpq_mat_init(PG, n, ns);
    fmpq_mat_init(C, k, ns);
    fmpq_mat_init(A, ns, ns);
    fmpq_mat_init(B, ns, k);
    fmpq_mat_init(T, k, ns);
    fmpq_mat_init(D, k, k);
    if (ok) {
        /* with A_i = lambda_i appended, the unknowns are z = -P G s + K
           lambda (+ terms in t), when this is regular */
        for (slong i = 0; i < k; i++)
            for (slong j = 0; j < n; j++)
                if (mode->vars[j] == mode->perp[i].var)
                    fmpq_one(fmpq_mat_entry(J, nf + i, j));
        if (!fmpq_mat_inv(Ji, J)) {
            ok = 0;
            say(f, HDO_CP_NOT_FREE,
                "the left sides are not free: with every A given, the "
                "mode's equations do not determine its other unknowns (they "
                "fix a combination of the A's or of the states%s)",
                "", 0);
        }
    }
    if (ok) {
        for (slong i = 0; i < n; i++) {
            for (slong j = 0; j < k; j++)
                fmpq_set(fmpq_mat_entry(K, i, j),
                         fmpq_mat_entry(Ji, i, nf + j));
            for (slong s = 0; s < ns; s++)
                for (slong r = 0; r < nf; r++)
                    fmpq_addmul(fmpq_mat_entry(PG, i, s),
                                fmpq_mat_entry(Ji, i, r),
                                fmpq_mat_entry(G, r, s));
        }
        /* B = bz z + bs s: D = bz K, C = bs - bz P G */
        fmpq_mat_mul(D, bz, K);
        fmpq_mat_mul(C, bz, PG);
        fmpq_mat_sub(C, bs, C);
        /* the states' derivatives: the next order, or the unknown */
        for (slong s = 0; s < ns; s++) {
            slong j = zof[s];
            if (st[s].order + 1 < kv[j]) {
                fmpq_one(fmpq_mat_entry(A, s, s + 1));
                continue;
            }
            for (slong u = 0; u < ns; u++)
                fmpq_neg(fmpq_mat_entry(A, s, u), fmpq_mat_entry(PG, j, u));
            for (slong i = 0; i < k; i++)
                fmpq_set(fmpq_mat_entry(B, s, i), fmpq_mat_entry(K, j, i));
        }
        /* the Markov parameters D, C B, C A B, ... */
        f->ns = ns;
        /* the states and B, for an impulse's jump of the state */
        f->state = malloc((ns + 1) * sizeof *f->state);
        HDO_ASSERT(f->state != NULL);
        memcpy(f->state, st, ns * sizeof *st);
        fmpq_mat_init_set(f->B, B);
        f->have_B = 1;
        f->L = k * (ns + 1);
        f->R = malloc((f->L + 1) * sizeof *f->R);
        HDO_ASSERT(f->R != NULL);
        fmpq_mat_set(T, C);
        for (slong l = 0; l <= f->L; l++) {
            fmpq_mat_init(f->R + l, k, k);
            if (l == 0) {
                fmpq_mat_set(f->R, D);
                continue;
            }
            fmpq_mat_mul(f->R + l, T, B);
            fmpq_mat_t T2;
            fmpq_mat_init(T2, k, ns);
            fmpq_mat_mul(T2, T, A);
            fmpq_mat_swap(T, T2);
            fmpq_mat_clear(T2);
        }
        for (slong i = 0; i < k; i++) {
            f->reldeg[i] = -1;
            for (slong l = 0; l <= f->L && f->reldeg[i] < 0; l++)
                for (slong j = 0; j < k; j++)
                    if (!fmpq_is_zero(fmpq_mat_entry(f->R + l, i, j))) {
                        f->reldeg[i] = l;
                        break;
                    }
        }
        f->status = HDO_CP_LCS;
    }
    fmpq_mat_clear(J);
    fmpq_mat_clear(G);
    fmpq_mat_clear(bz);
    fmpq_mat_clear(bs);
    fmpq_mat_clear(Ji);
    fmpq_mat_clear(K);
    fmpq_mat_clear(PG);
    fmpq_mat_clear(C);
    fmpq_mat_clear(A);
    fmpq_mat_clear(B);
    fmpq_mat_clear(T);
    fmpq_mat_clear(D);
    free(st);
    free(zof);
    free(kv);
    return f->status == HDO_CP_LCS ? 0 : f->status;
}
