/* radau_eval.c -- Radau IIA's stage evaluations, with the operations that
 * depend on time alone kept per stage across the Newton iterations */
#include <stdlib.h>
#include "radau.h"

/* Why.  A step's Newton iterations evaluate f at the same s stage times
   t0 + c_i h again and again (about 5 times a step on the ring
   modulator), and the sources of a circuit, sin(20000 pi t) there, were
   recomputed each time: mpfr_sin was 10% of that run at 16 digits.  The
   operations whose operands are time and constants only are kept per
   stage with the time they were computed at, and copied back while it
   is the same: the very values a new evaluation gives (the same
   operation on the same operands at the same precision), so no result
   changes (decisions.md D-097). */

void
hdo_radau_tcache_init(hdo_radau_tcache *c, const hdo_program_struct *prog,
                      slong s)
{
    slong len = prog->nslots;
    /* dep: 0 constant, 1 time alone, 2 a variable */
    char *dep = malloc(len + 1);
    HDO_ASSERT(dep != NULL);
    c->s = s;
    c->nt = 0;
    c->slot = malloc((len + 1) * sizeof(slong));
    HDO_ASSERT(c->slot != NULL);
    for (slong i = 0; i < len; i++) {
        const hdo_program_instr *in = prog->code + i;
        if (hdo_expr_kind_arity(in->kind) == 0) {
            dep[i] = i == prog->time_slot ? 1 : in->kind == HDO_X_VAR ? 2 : 0;
            continue;
        }
        dep[i] = dep[in->a];
        if (in->b >= 0 && dep[in->b] > dep[i])
            dep[i] = dep[in->b];
        if (dep[i] == 1)
            c->slot[c->nt++] = i;
    }
    free(dep);
    c->val = hdo_vec_init(s * c->nt + 1, prog->prec);
    c->t = hdo_vec_init(s, prog->prec);
    c->valid = calloc(s + 1, sizeof(int));
    HDO_ASSERT(c->valid != NULL);
}

void
hdo_radau_tcache_clear(hdo_radau_tcache *c)
{
    if (c->slot == NULL)
        return; /* a zeroed cache, never made */
    hdo_vec_clear(c->val, c->s * c->nt + 1);
    hdo_vec_clear(c->t, c->s);
    free(c->slot);
    free(c->valid);
}

int
hdo_radau_tcache_eval(hdo_radau_tcache *c, hdo_program_struct *prog,
                      slong stage, hdo_expr *bad)
{
    mpfr_srcptr t = prog->time_slot >= 0 ? prog->value[prog->time_slot] : NULL;
    int hit = c->nt > 0 && t != NULL && c->valid[stage] &&
              mpfr_equal_p(c->t + stage, t);
    if (!hit) {
        int st = hdo_program_eval(prog, bad);
        c->valid[stage] = st == 0 && t != NULL;
        if (c->valid[stage]) {
            mpfr_set(c->t + stage, t, MPFR_RNDN);
            for (slong q = 0; q < c->nt; q++)
                mpfr_set(c->val + stage * c->nt + q, prog->value[c->slot[q]],
                         MPFR_RNDN);
        }
        return st;
    }
    return hdo_program_eval_given(prog, c->slot, c->nt, c->val + stage * c->nt,
                                  bad);
}
