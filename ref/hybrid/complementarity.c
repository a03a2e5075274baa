/* complementarity.c -- entering a mode with complementarity conditions:
 * the active set that continues from the entry state (a forward solution
 * in the sense of Camlibel, Heemels, van der Schaft and Schumacher 2002,
 * Def. 3.5), by enumeration of the active sets and the signs of their
 * Taylor series; the refusal where no active set or several continue
 * (docs/model-format.md, "Complementarity"; decisions.md D-086) */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include "driver.h"

/* The entry state of a mode: every state and unknown of its reduced
   form as (variable, order, value, fixed), what each candidate active
   set starts from. */
typedef struct {
    slong n;
    hdo_varord *vo;
    int *fixed;
    mpfr_ptr val;
} entry_state;

static void
entry_save(entry_state *e, const run_ctx *c, slong m)
{
    const mode_cache *mc = hdo_run_mode_find(c, m);
    const hdo_reduced_struct *r = mc->red;
    e->n = r->nstate + r->nimplicit;
    e->vo = malloc((e->n + 1) * sizeof *e->vo);
    e->fixed = calloc(e->n + 1, sizeof *e->fixed);
    HDO_ASSERT(e->vo != NULL && e->fixed != NULL);
    e->val = hdo_vec_init(e->n, c->prec);
    for (slong i = 0; i < e->n; i++) {
        int st = i < r->nstate;
        e->vo[i] = st ? r->state[i] : r->unknown[i - r->nstate];
        e->fixed[i] = st ? mc->fixed[i] : 0;
        mpfr_set(e->val + i, st ? mc->xs + i : mc->xu + i - r->nstate,
                 MPFR_RNDN);
    }
}

static void
entry_clear(entry_state *e)
{
    hdo_vec_clear(e->val, e->n);
    free(e->vo);
    free(e->fixed);
}

/* Starts mode q (built) from the entry state: each state and unknown
   that the entry has, with its fixed flag, the rest free guesses. */
static void
entry_load(run_ctx *c, slong q, const entry_state *e)
{
    mode_cache *mc = hdo_run_mode_entry(c, q);
    const hdo_reduced_struct *r = mc->red;
    for (slong i = 0; i < r->nstate + r->nimplicit; i++) {
        int st = i < r->nstate;
        hdo_varord vo = st ? r->state[i] : r->unknown[i - r->nstate];
        mpfr_ptr x = st ? mc->xs + i : mc->xu + i - r->nstate;
        slong k;
        for (k = 0; k < e->n; k++)
            if (e->vo[k].var == vo.var && e->vo[k].order == vo.order)
                break;
        if (k < e->n) {
            mpfr_set(x, e->val + k, MPFR_RNDN);
        } else if (vo.order == 0) {
            hdo_run_start_guess(x, c, vo.var);
        } else {
            mpfr_set_ui(x, 0, MPFR_RNDN);
        }
        if (st)
            mc->fixed[i] = k < e->n ? e->fixed[k] : 0;
    }
}

/* What a candidate active set is at the entry point. */
enum {
    CAND_NONE,     /* no such mode (a zero variant beyond the cap) */
    CAND_SINGULAR, /* no consistent point: its DAE cannot be entered */
    CAND_JUMP,     /* consistent only after a kept value changes */
    CAND_FAIL,     /* the expansion failed */
    CAND_VIOLATES, /* an inequality leaves its side */
    CAND_CONTINUES /* every inequality stays on its side */
};

typedef struct {
    int kind;
    slong mask; /* the active set */
    slong mode;
    slong bad;   /* CAND_VIOLATES: the condition whose inequality leaves */
    slong order; /* ... and the Taylor order at which it does */
    mpfr_t H;    /* the zero rule's horizon of its expansion */
} candidate;

/* The index of condition i's `perp` transition in mode q: after the
   file's `when`s, before the relations' crossings (ref/model/perp.c). */
static slong
perp_guard(const hdo_mode *q, slong i)
{
    return q->nwhens - q->nrel - q->nperp + i;
}

/* Whether mode q's consistent point (in its cache) keeps every kept
   (fixed) state of the entry state e within the value's own error: for
   a variable, tol times its largest size so far (hdo_run_var_scale, as
   the zero rule's D-112), never an absolute tolerance; a derivative
   state, which has no such scale, within hdo_consistent_init's test.
   hdo_consistent_init counts a move beyond 2^(-prec/2) ||x0|| as a
   jump, relative to the entry state's size: a state located at a wall
   x >= 0 (x the event's error, a few tol) moved onto the wall by its
   own error is none (decisions.md D-125). */
static int
kept_within_error(run_ctx *c, slong q, const entry_state *e)
{
    const mode_cache *mc = hdo_run_mode_find(c, q);
    const hdo_reduced_struct *r = mc->red;
    mpfr_t d, lim, big;
    mpfr_inits2(c->prec, d, lim, big, (mpfr_ptr)0);
    mpfr_set_ui(big, 0, MPFR_RNDN);
    for (slong k = 0; k < e->n; k++)
        if (mpfr_cmpabs(e->val + k, big) > 0)
            mpfr_abs(big, e->val + k, MPFR_RNDN);
    mpfr_mul_2si(big, big, -(long)(c->prec / 2), MPFR_RNDN);
    int kept = 1;
    for (slong i = 0; i < r->nstate && kept; i++) {
        if (!mc->fixed[i])
            continue;
        slong k;
        for (k = 0; k < e->n; k++)
            if (e->vo[k].var == r->state[i].var &&
                e->vo[k].order == r->state[i].order)
                break;
        if (k == e->n)
            continue;
        mpfr_sub(d, mc->xs + i, e->val + k, MPFR_RNDN);
        mpfr_set(lim, big, MPFR_RNDN);
        if (r->state[i].order == 0) {
            hdo_run_var_scale(lim, c, r->state[i].var, e->val + k);
            mpfr_max(lim, lim, big, MPFR_RNDN);
        }
        kept = mpfr_cmpabs(d, lim) <= 0;
    }
    mpfr_clears(d, lim, big, (mpfr_ptr)0);
    return kept;
}

/* The consistent point of active set mask of the block of mode m at t
   from the entry state e: kind CAND_FAIL when there is one without a
   jump (the expansion, candidate_expand, then decides). */
static void
candidate_point(candidate *cd, run_ctx *c, slong m, slong mask,
                const entry_state *e, const mpfr_t t)
{
    cd->mask = mask;
    cd->mode = hdo_model_cp_mode(c->model, m, mask);
    cd->kind = CAND_NONE;
    cd->bad = -1;
    cd->order = 0;
    if (cd->mode < 0)
        return;
    slong q = cd->mode;
    int adjusted = 0;
    cd->kind = CAND_SINGULAR;
    if (hdo_run_mode_cache_get(c, q, t) == 0) {
        entry_load(c, q, e);
        if (hdo_run_reinit_point(c, q, t, &adjusted) == 0)
            cd->kind =
                adjusted && !kept_within_error(c, q, e) ? CAND_JUMP : CAND_FAIL;
    }
    if (c->err != NULL)
        hdo_error_clear(c->err); /* a candidate's failure is no error */
}

/* A candidate consistent at t without a jump (CAND_FAIL): its expansion
   and the zero rule on every inequality (the first Taylor coefficient of
   each that matters, as for a guard at the start of an arc).  entered:
   the expansion of the mode as entered (hdo_run_expand_entered: its
   values in the scale floors, the floors its first step takes), where
   this candidate is the one that can continue; else at the floors the
   mode has, without noting a candidate's values. */
static void
candidate_expand(candidate *cd, run_ctx *c, const mpfr_t t, int entered)
{
    slong q = cd->mode;
    mode_cache *mc = hdo_run_mode_entry(c, q);
    if (entered) {
        if (hdo_run_expand_entered(c, q, t, cd->H) < 0)
            return;
    } else {
        hdo_error_t ee;
        hdo_error_clear(&ee);
        if (hdo_stepper_apply(mc->step, t, mc->xs, mc->xu, &ee) != 0)
            return;
        hdo_stepper_step_size(cd->H, mc->step);
        hdo_run_event_horizon(cd->H, c, t);
        hdo_run_guard_floors(c, mc, t, mc->xs, mc->xu, &mc->step->dense, cd->H);
    }
    const hdo_mode *mode = c->model->modes + q;
    slong p = mc->step->dense.order;
    int after = mpfr_equal_p(t, c->event_at); /* at an event's time */
    cd->kind = CAND_CONTINUES;
    for (slong i = 0; i < mode->nperp; i++) {
        slong g = perp_guard(mode, i);
        mpfr_srcptr coef = mc->step->dense.guard[g * (p + 1)];
        mpfr_srcptr fl = mc->gfloor != NULL ? mc->gfloor + g : NULL;
        /* B(0) a value: zero only within its own error (D-112), not
           within tol times B's size over the step (x = 1e-30 at a wall x
           >= 0 approached at rate 1, D-125); then B'(0) too (D-130) */
        slong o = hdo_run_guard_zero_order(c, mc, g, coef, p + 1, cd->H, fl, t,
                                           after);
        if (o <= p && mpfr_sgn(coef + o) < 0 &&
            (cd->bad < 0 || o < cd->order)) {
            cd->kind = CAND_VIOLATES;
            cd->bad = i;
            cd->order = o;
        }
    }
}

/* Tries active set mask of the block of mode m at t from the entry
   state e: its consistent point, then its expansion and the zero rule
   on every inequality. */
static void
try_candidate(candidate *cd, run_ctx *c, slong m, slong mask,
              const entry_state *e, const mpfr_t t)
{
    candidate_point(cd, c, m, mask, e, t);
    if (cd->kind == CAND_FAIL)
        candidate_expand(cd, c, t, 0);
}

/* "id = 0, -ud = 0": the equations of active set mask of block fam. */
static void
describe_set(char *buf, size_t n, const hdo_mode *fam, slong mask)
{
    size_t len = 0;
    buf[0] = '\0';
    for (slong i = 0; i < fam->nperp && len + 1 < n; i++) {
        const hdo_perp *p = fam->perp + i;
        len += (size_t)snprintf(buf + len, n - len, "%s%s = 0", i ? ", " : "",
                                (mask >> i) & 1 ? p->btext : p->atext);
    }
}

/* The inequality of condition i in active set mask: "id >= 0". */
static void
describe_ineq(char *buf, size_t n, const hdo_mode *fam, slong mask, slong i)
{
    const hdo_perp *p = fam->perp + i;
    snprintf(buf, n, "%s >= 0", (mask >> i) & 1 ? p->atext : p->btext);
}

/* Whether the expansions of modes a and b (built, expanded at the same
   point) are one solution: every variable's series agrees within the
   zero rule (tolerance relative to the larger of the two over the step,
   and the variable's scale floor). */
static int
same_solution(run_ctx *c, slong a, slong b, const mpfr_t Ha, const mpfr_t Hb)
{
    const mode_cache *ma = hdo_run_mode_find(c, a),
                     *mb = hdo_run_mode_find(c, b);
    const hdo_reduced_struct *ra = ma->red, *rb = mb->red;
    slong pa = ma->step->dense.order, pb = mb->step->dense.order;
    slong p = pa < pb ? pa : pb;
    mpfr_t H, d, size, term, fl;
    mpfr_inits2(c->prec, H, d, size, term, fl, (mpfr_ptr)0);
    mpfr_min(H, Ha, Hb, MPFR_RNDN);
    int same = 1;
    mpfr_ptr diff = hdo_vec_init(p + 1, c->prec);
    for (slong i = 0; i < ra->nstate + ra->nimplicit && same; i++) {
        int sa = i < ra->nstate;
        hdo_varord vo = sa ? ra->state[i] : ra->unknown[i - ra->nstate];
        if (vo.order != 0)
            continue;
        slong j;
        for (j = 0; j < rb->nstate + rb->nimplicit; j++) {
            hdo_varord wo =
                j < rb->nstate ? rb->state[j] : rb->unknown[j - rb->nstate];
            if (wo.var == vo.var && wo.order == 0)
                break;
        }
        if (j == rb->nstate + rb->nimplicit)
            continue;
        const mpfr_t *ca =
            sa ? ma->step->dense.state + i * (pa + 1)
               : ma->step->dense.unknown + (i - ra->nstate) * (pa + 1);
        const mpfr_t *cb = j < rb->nstate ? mb->step->dense.state + j * (pb + 1)
                                          : mb->step->dense.unknown +
                                                (j - rb->nstate) * (pb + 1);
        mpfr_set_ui(size, 0, MPFR_RNDN);
        mpfr_set_ui(term, 1, MPFR_RNDN);
        for (slong k = 0; k <= p; k++) {
            mpfr_sub(diff + k, ca[k], cb[k], MPFR_RNDN);
            mpfr_mul(d, ca[k], term, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            mpfr_max(size, size, d, MPFR_RNDN);
            mpfr_mul(d, cb[k], term, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            mpfr_max(size, size, d, MPFR_RNDN);
            mpfr_mul(term, term, H, MPFR_RNDN);
        }
        hdo_run_var_floor(fl, c, vo.var);
        mpfr_max(size, size, fl, MPFR_RNDN);
        mpfr_mul(size, size, c->tol, MPFR_RNDN);
        if (hdo_event_zero_order(diff, p + 1, H, c->tol, size) <= p)
            same = 0;
    }
    hdo_vec_clear(diff, p + 1);
    mpfr_clears(H, d, size, term, fl, (mpfr_ptr)0);
    return same;
}

/* Refuses at t: the error status with the block's place (its first
   condition) and the message "<what> at t = ...: <why>". */
static int
refuse(run_ctx *c, int status, slong m, const mpfr_t t, const char *what,
       const char *why)
{
    const hdo_mode *mode = c->model->modes + m;
    const hdo_mode *fam = c->model->modes + mode->cp_family;
    char *ts, lines[128];
    size_t len = 0;
    lines[0] = '\0';
    slong nl = 0;
    for (slong i = 0; i < fam->nperp && len + 16 < sizeof lines; i++) {
        /* a loop's conditions share their line: named once */
        if (i > 0 && fam->perp[i].pos.line == fam->perp[i - 1].pos.line)
            continue;
        len += (size_t)snprintf(lines + len, sizeof lines - len, "%s%d",
                                nl++ ? ", " : "", fam->perp[i].pos.line);
    }
    mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), t);
    hdo_error_set(c->err, status, fam->perp[0].pos.line, fam->perp[0].pos.col,
                  "%s at t = %s in the complementarity block of mode '%s' "
                  "(line%s %s): %s",
                  what, ts, mode->name, nl > 1 ? "s" : "", lines, why);
    mpfr_free_str(ts);
    return hdo_run_fail(c, status, m, t);
}

/* q := x exactly: an MPFR number is a dyadic rational, mant 2^e. */
static void
fmpq_set_mpfr_exact(fmpq_t q, mpfr_srcptr x)
{
    mpz_t mant;
    fmpz_t two;
    mpz_init(mant);
    fmpz_init(two);
    mpfr_exp_t e = mpfr_zero_p(x) ? 0 : mpfr_get_z_2exp(mant, x);
    if (mpfr_zero_p(x))
        mpz_set_ui(mant, 0);
    fmpz_set_mpz(fmpq_numref(q), mant);
    fmpz_one(fmpq_denref(q));
    fmpz_one(two);
    fmpz_mul_2exp(two, two, (ulong)(e < 0 ? -e : e));
    if (e >= 0)
        fmpz_mul(fmpq_numref(q), fmpq_numref(q), two);
    else
        fmpz_set(fmpq_denref(q), two);
    fmpq_canonicalise(q);
    fmpz_clear(two);
    mpz_clear(mant);
}

/* The candidates of a block of more than HDO_CP_ENUM conditions, from
   the complementarity problem at the point: the block's linear form
   (reduce.h) must exist with D a P-matrix (one solution at every point);
   q is B in the active set 0 (every A = 0), read exactly from its MPFR
   values, Lemke's method solves LCP(q, D) over the rationals, and every
   condition with z_i or w_i above its noise (the guard floor of B_i, over
   D_ii for z_i) is decided; the others, degenerate (both zero at the
   point), make the candidates: the 2^j sets that vary them, j at most
   HDO_CP_ENUM.  Returns 0 with masks (malloc'd, *n of them), or the
   refusal's status. */
static int
lemke_candidates(slong **masks, slong *n, run_ctx *c, slong m,
                 const entry_state *e, const mpfr_t t)
{
    const hdo_mode *mode = c->model->modes + m;
    slong k = mode->nperp;
    char why[768];
    hdo_cp_form f;
    hdo_cp_form_init(&f);
    int st = hdo_cp_form_build(&f, c->model, m);
    ulong alpha;
    fmpq_t minor;
    fmpq_init(minor);
    if (st != 0) {
        snprintf(why, sizeof why,
                 "a block of %ld conditions (more than %d) is decided by "
                 "Lemke's method on its linear complementarity form, and it "
                 "has none: %s",
                 (long)k, HDO_CP_ENUM, f.why);
    } else if (!hdo_lcp_is_p_matrix(&alpha, minor, f.R)) {
        char *ms = fmpq_get_str(NULL, 10, minor), rows[96];
        size_t len = 0;
        rows[0] = '\0';
        for (slong i = 0; i < k && len + 8 < sizeof rows; i++)
            if ((alpha >> i) & 1)
                len += (size_t)snprintf(rows + len, sizeof rows - len, "%s%ld",
                                        len ? ", " : "", (long)i + 1);
        snprintf(why, sizeof why,
                 "a block of %ld conditions (more than %d) is decided by "
                 "Lemke's method, which needs its matrix D = dB/dA to be a "
                 "P-matrix, and its principal minor of rows {%s} is %s",
                 (long)k, HDO_CP_ENUM, rows, ms);
        flint_free(ms);
        st = -1;
    }
    fmpq_clear(minor);
    if (st != 0) {
        hdo_cp_form_clear(&f);
        return refuse(c, HDO_ERR_UNSUPPORTED, m, t,
                      "the continuation is not covered", why);
    }
    /* q: B at the point with every A = 0 (the active set 0, which the
       free A's make consistent without a jump), and its noise */
    candidate c0;
    mpfr_init2(c0.H, c->prec);
    try_candidate(&c0, c, m, 0, e, t);
    int ok = c0.kind == CAND_CONTINUES || c0.kind == CAND_VIOLATES;
    fmpq_mat_t q, z, w;
    fmpq_mat_init(q, k, 1);
    fmpq_mat_init(z, k, 1);
    fmpq_mat_init(w, k, 1);
    mpfr_ptr noise = hdo_vec_init(k, c->prec);
    if (ok) {
        const mode_cache *mc = hdo_run_mode_find(c, c0.mode);
        const hdo_mode *q0 = c->model->modes + c0.mode;
        slong p = mc->step->dense.order;
        for (slong i = 0; i < k; i++) {
            slong g = perp_guard(q0, i);
            fmpq_set_mpfr_exact(fmpq_mat_entry(q, i, 0),
                                mc->step->dense.guard[g * (p + 1)]);
            if (mc->gfloor != NULL)
                mpfr_set(noise + i, mc->gfloor + g, MPFR_RNDN);
            else
                mpfr_set_ui(noise + i, 0, MPFR_RNDN);
        }
    }
    mpfr_clear(c0.H);
    slong piv = 0;
    int ls = ok ? hdo_lcp_lemke(z, &piv, f.R, q, 100 * (k + 1)) : -1;
    if (ls != 0) {
        snprintf(why, sizeof why,
                 ls < 0 ? "the active set with every A = 0 has no consistent "
                          "point, so the problem at the point cannot be set up"
                 : ls == HDO_LCP_RAY
                     ? "Lemke's method ends on a ray (no solution found)"
                     : "Lemke's method stops after its pivot cap");
        fmpq_mat_clear(q);
        fmpq_mat_clear(z);
        fmpq_mat_clear(w);
        hdo_vec_clear(noise, k);
        hdo_cp_form_clear(&f);
        return refuse(c, HDO_ERR_UNSUPPORTED, m, t,
                      "the continuation is not covered", why);
    }
    fmpq_mat_mul(w, f.R, z);
    fmpq_mat_add(w, w, q);
    slong base = 0, degen = 0;
    mpfr_t x, d;
    mpfr_inits2(c->prec, x, d, (mpfr_ptr)0);
    for (slong i = 0; i < k; i++) {
        fmpq_get_mpfr(x, fmpq_mat_entry(z, i, 0), MPFR_RNDN);
        fmpq_get_mpfr(d, fmpq_mat_entry(f.R, i, i), MPFR_RNDN);
        mpfr_mul(x, x, d, MPFR_RNDN); /* z_i's effect on B_i */
        if (mpfr_cmp(x, noise + i) > 0) {
            base |= (slong)1 << i;
            continue;
        }
        fmpq_get_mpfr(x, fmpq_mat_entry(w, i, 0), MPFR_RNDN);
        if (mpfr_cmp(x, noise + i) <= 0)
            degen |= (slong)1 << i;
    }
    mpfr_clears(x, d, (mpfr_ptr)0);
    fmpq_mat_clear(q);
    fmpq_mat_clear(z);
    fmpq_mat_clear(w);
    hdo_vec_clear(noise, k);
    hdo_cp_form_clear(&f);
    slong nd = 0;
    for (slong i = 0; i < k; i++)
        nd += (degen >> i) & 1;
    if (nd > HDO_CP_ENUM) {
        snprintf(why, sizeof why,
                 "%ld conditions are degenerate at the point (both sides "
                 "zero), more than the %d whose active sets are tried",
                 (long)nd, HDO_CP_ENUM);
        return refuse(c, HDO_ERR_UNSUPPORTED, m, t,
                      "the continuation is not covered", why);
    }
    *n = (slong)1 << nd;
    *masks = malloc(*n * sizeof **masks);
    HDO_ASSERT(*masks != NULL);
    for (slong s = 0; s < *n; s++) {
        slong mask = base, bit = 0;
        for (slong i = 0; i < k; i++)
            if ((degen >> i) & 1) {
                if ((s >> bit++) & 1)
                    mask |= (slong)1 << i;
            }
        (*masks)[s] = mask;
    }
    return 0;
}

/* Newton's impact law with Moreau's rule (docs/model-format.md,
   "Impacts"): at t, in the block of mode m with conditions `restitution
   e` (contacts: B a gap of relative degree 2), the closed contacts (gap
   zero by the guard floor, at the entry state e) whose velocities
   approach get an impulse P >= 0 from the velocity-level problem
   0 <= P perp (1 + e) g'- + G P >= 0, G = C A B on the closed contacts
   (the block's linear form: g'' depends on the multipliers through it),
   exact over the rationals with the gaps' velocities read exactly from
   the active set 0's expansion; the state jumps by B P.  *applied is 1
   when the state moved.  Returns 0 or the refusal's status. */
static int
cp_impact(run_ctx *c, slong m, entry_state *e, const mpfr_t t, int *applied)
{
    const hdo_mode *mode = c->model->modes + m;
    slong k = mode->nperp, nr = 0;
    *applied = 0;
    for (slong i = 0; i < k; i++)
        nr += mode->perp[i].restitution != HDO_EXPR_NONE;
    if (nr == 0)
        return 0;
    char why[768];
    hdo_cp_form f;
    hdo_cp_form_init(&f);
    if (hdo_cp_form_build(&f, c->model, m) != 0) {
        snprintf(why, sizeof why,
                 "an impact (restitution) needs the block's linear "
                 "complementarity form, and it has none: %s",
                 f.why);
        hdo_cp_form_clear(&f);
        return refuse(c, HDO_ERR_UNSUPPORTED, m, t,
                      "the continuation is not covered", why);
    }
    for (slong i = 0; i < k; i++)
        if (mode->perp[i].restitution != HDO_EXPR_NONE && f.reldeg[i] != 2) {
            snprintf(why, sizeof why,
                     "'%s' has a restitution, which needs a contact whose "
                     "gap B has relative degree 2 (its acceleration depends "
                     "on the multipliers); its relative degree is %ld",
                     mode->perp[i].text, (long)f.reldeg[i]);
            hdo_cp_form_clear(&f);
            return refuse(c, HDO_ERR_UNSUPPORTED, m, t,
                          "the continuation is not covered", why);
        }
    /* the gaps and their velocities: B's series in the active set 0 */
    candidate c0;
    mpfr_init2(c0.H, c->prec);
    try_candidate(&c0, c, m, 0, e, t);
    if (c0.kind != CAND_CONTINUES && c0.kind != CAND_VIOLATES) {
        mpfr_clear(c0.H);
        hdo_cp_form_clear(&f);
        return refuse(c, HDO_ERR_UNSUPPORTED, m, t,
                      "the continuation is not covered",
                      "an impact needs the gaps' velocities, and the active "
                      "set with every A = 0 has no consistent point there");
    }
    const mode_cache *mc = hdo_run_mode_find(c, c0.mode);
    const hdo_mode *q0 = c->model->modes + c0.mode;
    slong p = mc->step->dense.order, nc = 0, closed[HDO_MODEL_MAX_PERP];
    int approach = 0;
    mpfr_t x, fl;
    mpfr_inits2(c->prec, x, fl, (mpfr_ptr)0);
    for (slong i = 0; i < k; i++) {
        if (mode->perp[i].restitution == HDO_EXPR_NONE)
            continue;
        slong g = perp_guard(q0, i);
        mpfr_srcptr cf = mc->step->dense.guard[g * (p + 1)];
        mpfr_set_ui(fl, 0, MPFR_RNDN);
        if (mc->gfloor != NULL)
            mpfr_set(fl, mc->gfloor + g, MPFR_RNDN);
        /* open only when clearly positive: a gap a little below 0 is
           the located event's rounding, closed */
        if (mpfr_cmp(cf, fl) > 0)
            continue;
        closed[nc++] = i;
        /* approaching: an impulse on a velocity at noise level is a
           change below the reinitialisation's tolerance, harmless, while
           a threshold would leave a ball near its Zeno point with a
           small approach that no active set can take without a jump */
        approach |= p >= 1 && mpfr_sgn(cf + 1) < 0;
    }
    int st = 0;
    if (nc > 0 && approach) {
        fmpq_mat_t G, q, P, dS;
        fmpq_mat_init(G, nc, nc);
        fmpq_mat_init(q, nc, 1);
        fmpq_mat_init(P, nc, 1);
        fmpq_mat_init(dS, f.ns, 1);
        fmpq_t ei, one;
        fmpq_init(ei);
        fmpq_init(one);
        for (slong a = 0; a < nc; a++) {
            slong i = closed[a], g = perp_guard(q0, i);
            for (slong b = 0; b < nc; b++)
                fmpq_set(fmpq_mat_entry(G, a, b),
                         fmpq_mat_entry(f.R + 2, i, closed[b]));
            /* q_a = (1 + e_i) g'_i, e_i exact when rational */
            if (hdo_expr_get_fmpq(ei, c->model->pool,
                                  mode->perp[i].restitution) != 0) {
                hdo_expr_eval_constant(x, c->model->pool,
                                       mode->perp[i].restitution);
                fmpq_set_mpfr_exact(ei, x);
            }
            fmpq_one(one);
            fmpq_add(ei, ei, one);
            fmpq_set_mpfr_exact(fmpq_mat_entry(q, a, 0),
                                mc->step->dense.guard[g * (p + 1) + 1]);
            fmpq_mul(fmpq_mat_entry(q, a, 0), fmpq_mat_entry(q, a, 0), ei);
        }
        /* one post-impact velocity: G a P-matrix, or a problem with one
           solution */
        int cont = 0;
        slong ns_ = nc <= HDO_LCP_MAX_ENUM
                        ? hdo_lcp_enumerate(P, NULL, &cont, G, q)
                        : -1;
        if (ns_ != 1 || cont) {
            snprintf(why, sizeof why,
                     "the impact problem on the %ld closed contacts (Moreau's "
                     "velocity-level LCP) has %s",
                     (long)nc,
                     ns_ == 0  ? "no solution"
                     : ns_ < 0 ? "too many contacts to be solved exactly"
                               : "more than one solution");
            st = refuse(c, HDO_ERR_NOT_UNIQUE, m, t,
                        "the impact is not determined", why);
        } else {
            /* the jump B P, onto the entry state by (variable, order) */
            for (slong s2 = 0; s2 < f.ns; s2++)
                for (slong a = 0; a < nc; a++)
                    fmpq_addmul(fmpq_mat_entry(dS, s2, 0),
                                fmpq_mat_entry(f.B, s2, closed[a]),
                                fmpq_mat_entry(P, a, 0));
            for (slong s2 = 0; s2 < f.ns; s2++) {
                if (fmpq_is_zero(fmpq_mat_entry(dS, s2, 0)))
                    continue;
                for (slong j = 0; j < e->n; j++)
                    if (e->vo[j].var == f.state[s2].var &&
                        e->vo[j].order == f.state[s2].order) {
                        fmpq_get_mpfr(x, fmpq_mat_entry(dS, s2, 0), MPFR_RNDN);
                        mpfr_add(e->val + j, e->val + j, x, MPFR_RNDN);
                        e->fixed[j] = 1;
                    }
            }
            *applied = 1;
        }
        fmpq_clear(ei);
        fmpq_clear(one);
        fmpq_mat_clear(G);
        fmpq_mat_clear(q);
        fmpq_mat_clear(P);
        fmpq_mat_clear(dS);
    }
    mpfr_clears(x, fl, (mpfr_ptr)0);
    mpfr_clear(c0.H);
    hdo_cp_form_clear(&f);
    return st;
}

/* The decision among the active sets of mode *m's block at t, from the
   entry state in mode *m's cache (prepared, not yet made consistent):
   docs/model-format.md, "Complementarity".  Up to HDO_CP_ENUM conditions
   every active set is a candidate, beyond them those that the problem at
   the point leaves open (lemke_candidates).  Sets *m to the active set
   that continues, consistent at t. */
static int
cp_pick(run_ctx *c, slong *m, const mpfr_t t, int *impacted)
{
    const hdo_mode *mode = c->model->modes + *m;
    const hdo_mode *fam = c->model->modes + mode->cp_family;
    slong k = mode->nperp, n = (slong)1 << k;
    entry_state e;
    entry_save(&e, c, *m);
    int impact = 0, ist = cp_impact(c, *m, &e, t, &impact);
    *impacted |= impact;
    if (ist < 0) {
        entry_clear(&e);
        return ist;
    }
    slong *masks = NULL;
    if (k > HDO_CP_ENUM) {
        int lst = lemke_candidates(&masks, &n, c, *m, &e, t);
        if (lst < 0) {
            entry_clear(&e);
            return lst;
        }
    }
    candidate *cd = calloc(n, sizeof *cd);
    HDO_ASSERT(cd != NULL);
    /* Every consistent point first: where one active set alone has one
       without a jump, only it can continue, and its expansion is the one
       its first step takes (hdo_run_expand_entered: the step finds it
       kept, D-107).  The candidates are distinct modes, each touching
       only its own cache, so the order is free; else each is expanded
       at its mode's floors as before. */
    int distinct = 1;
    for (slong s = 0; s < n; s++) {
        mpfr_init2(cd[s].H, c->prec);
        cd[s].mask = masks != NULL ? masks[s] : s;
        cd[s].mode = hdo_model_cp_mode(c->model, *m, cd[s].mask);
        for (slong r = 0; r < s; r++)
            distinct &= cd[s].mode < 0 || cd[r].mode != cd[s].mode;
    }
    slong nfail = 0;
    for (slong s = 0; s < n; s++) {
        if (!distinct) { /* one mode for two sets: each in turn */
            try_candidate(cd + s, c, *m, cd[s].mask, &e, t);
            continue;
        }
        candidate_point(cd + s, c, *m, cd[s].mask, &e, t);
        nfail += cd[s].kind == CAND_FAIL;
    }
    for (slong s = 0; s < n && distinct; s++)
        if (cd[s].kind == CAND_FAIL)
            candidate_expand(cd + s, c, t, nfail == 1);
    slong ncont = 0, first = -1, njump = 0, late = -1;
    for (slong s = 0; s < n; s++) {
        if (cd[s].kind == CAND_CONTINUES && ncont++ == 0)
            first = s;
        njump += cd[s].kind == CAND_JUMP;
        if (cd[s].kind == CAND_VIOLATES && cd[s].order > HDO_CP_MAX_ORDER &&
            (late < 0 || cd[s].order > cd[late].order))
            late = s;
    }
    free(masks);
    entry_clear(&e);
    int st = 0;
    char why[1024], a[256], b[256], ineq[128];
    slong other = -1;
    for (slong s = first + 1; s < n && ncont > 1 && other < 0; s++)
        if (cd[s].kind == CAND_CONTINUES &&
            !same_solution(c, cd[first].mode, cd[s].mode, cd[first].H, cd[s].H))
            other = s;
    if (ncont == 0) {
        /* no active set continues: the complementarity problem at this
           point has no solution (or only after a jump of the state) */
        size_t len = 0;
        why[0] = '\0';
        for (slong s = 0; s < n && len + 200 < sizeof why; s++) {
            describe_set(a, sizeof a, fam, cd[s].mask);
            if (cd[s].kind == CAND_VIOLATES) {
                describe_ineq(ineq, sizeof ineq, fam, cd[s].mask, cd[s].bad);
                len += (size_t)snprintf(why + len, sizeof why - len,
                                        "%s[%s] violates %s", len ? "; " : "",
                                        a, ineq);
            } else if (cd[s].kind == CAND_JUMP) {
                len += (size_t)snprintf(why + len, sizeof why - len,
                                        "%s[%s] needs a jump of the state",
                                        len ? "; " : "", a);
            } else if (cd[s].kind != CAND_NONE) {
                len += (size_t)snprintf(why + len, sizeof why - len,
                                        "%s[%s] has no consistent point",
                                        len ? "; " : "", a);
            }
        }
        if (impact)
            /* an impact whose rebound no active set can follow: the
               velocity left is below what the state resolves, as at the
               accumulation point of a bouncing ball's impacts */
            st = refuse(c, HDO_ERR_ZENO, *m, t, "impacts accumulate (Zeno)",
                        "after the impact the contact's velocity is below "
                        "the resolution of the state, and a continuation "
                        "past the accumulation point (a resting contact) is "
                        "not covered");
        else
            st = refuse(c, HDO_ERR_INCONSISTENT, *m, t,
                        njump > 0 ? "no continuation without a jump of the "
                                    "state"
                                  : "no solution (the complementarity "
                                    "problem has none)",
                        why);
    } else if (other >= 0) {
        describe_set(a, sizeof a, fam, cd[first].mask);
        describe_set(b, sizeof b, fam, cd[other].mask);
        snprintf(why, sizeof why,
                 "the active sets [%s] and [%s] both continue, with "
                 "different solutions; hdo does not choose one",
                 a, b);
        st = refuse(c, HDO_ERR_NOT_UNIQUE, *m, t, "the solution is not unique",
                    why);
    } else if (late >= 0) {
        /* the others are excluded only by a derivative of order 3 or
           more: solutions that leave with switches accumulating at t
           from the right (Filippov, L2 solutions; Pogromsky et al. 2001)
           are not excluded, and the forward solution is unique only
           among those without such accumulations */
        describe_set(a, sizeof a, fam, cd[first].mask);
        describe_set(b, sizeof b, fam, cd[late].mask);
        describe_ineq(ineq, sizeof ineq, fam, cd[late].mask, cd[late].bad);
        snprintf(why, sizeof why,
                 "[%s] continues, and [%s] is excluded only at order %ld of "
                 "the Taylor series of %s (above %d): solutions whose "
                 "switches accumulate at t from the right (Filippov, L2) may "
                 "leave; hdo does not choose one",
                 a, b, (long)cd[late].order, ineq, HDO_CP_MAX_ORDER);
        st = refuse(c, HDO_ERR_NOT_UNIQUE, *m, t, "the solution is not unique",
                    why);
    } else {
        *m = cd[first].mode;
        hdo_run_reinit_enter(c, *m, t);
    }
    for (slong s = 0; s < n; s++)
        mpfr_clear(cd[s].H);
    free(cd);
    return st;
}

int
hdo_run_enter(run_ctx *c, slong *m, const mpfr_t t, int *adjusted,
              int pick_relations)
{
    if (c->model->modes[*m].nperp == 0) {
        int st = hdo_run_reinit(c, *m, t, adjusted);
        if (st == 0 && pick_relations)
            st = hdo_run_pick_pattern(c, m, t);
        return st;
    }
    *adjusted = 0;
    /* the active set, then the sign pattern of the relations; a pattern
       that changes decides the active set anew from its state */
    for (int round = 0; round < 4; round++) {
        int impacted = 0, st = cp_pick(c, m, t, &impacted);
        if (impacted)
            *adjusted = HDO_RUN_IMPACT;
        if (st < 0 || !pick_relations)
            return st;
        slong before = *m;
        if ((st = hdo_run_pick_pattern(c, m, t)) < 0 || *m == before)
            return st;
    }
    return refuse(c, HDO_ERR_UNSUPPORTED, *m, t,
                  "the continuation is not covered",
                  "the active set and the sign pattern of the relations do "
                  "not settle");
}
