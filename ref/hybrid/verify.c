/* verify.c -- the number of significant digits on which two runs agree (hdo run
 * --verify) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "hybrid.h"

/* Whether |x - y| <= 10^-k scale, decided on the safe side: d is |x - y|
   rounded up, the bound is rounded down, so a value on the boundary or
   within rounding of it does not count as agreeing to k digits. */
static int
within_digits(mpfr_srcptr d, mpfr_srcptr scale, long k, mpfr_prec_t prec)
{
    mpfr_t lim;
    mpfr_init2(lim, prec);
    mpfr_set_ui(lim, 10, MPFR_RNDN);
    mpfr_pow_si(lim, lim, -k, MPFR_RNDD);
    mpfr_mul(lim, lim, scale, MPFR_RNDD);
    int ok = mpfr_cmp(d, lim) <= 0;
    mpfr_clear(lim);
    return ok;
}

/* Digits of agreement of x with y relative to scale: the largest k with
   |x - y| <= 10^-k scale, capped at cap (also when x == y).  -log10 of
   the ratio in double precision only proposes k: rounded to a double it
   is k itself for a ratio 10^-k (1 + 2^-60), one digit more than the
   values agree to, so the candidates around it are checked exactly
   (within_digits) and a digit is never claimed that the values do not
   have (tests/hybrid/verify_thresholds.c). */
static double
agree(mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr scale, long cap)
{
    mpfr_t d;
    double r;
    long k, lo;
    if (mpfr_nan_p(x) || mpfr_nan_p(y))
        return mpfr_nan_p(x) && mpfr_nan_p(y) ? (double)cap : 0.0;
    if (mpfr_inf_p(x) || mpfr_inf_p(y))
        return mpfr_equal_p(x, y) ? (double)cap : 0.0;
    mpfr_prec_t prec =
        (mpfr_get_prec(x) > mpfr_get_prec(y) ? mpfr_get_prec(x)
                                             : mpfr_get_prec(y)) +
        64;
    mpfr_init2(d, prec);
    mpfr_sub(d, x, y, MPFR_RNDA); /* |x - y| rounded up */
    mpfr_abs(d, d, MPFR_RNDN);
    if (mpfr_zero_p(d) || mpfr_zero_p(scale)) {
        mpfr_clear(d);
        return (double)cap;
    }
    {
        mpfr_t q;
        mpfr_init2(q, 64);
        mpfr_div(q, d, scale, MPFR_RNDN);
        mpfr_log10(q, q, MPFR_RNDN);
        r = -mpfr_get_d(q, MPFR_RNDN);
        mpfr_clear(q);
    }
    if (r >= (double)cap + 1) {
        mpfr_clear(d);
        return (double)cap;
    }
    /* the estimate is within far less than a digit of -log10 */
    lo = (long)floor(r) - 1;
    k = (long)floor(r) + 1 < cap ? (long)floor(r) + 1 : cap;
    while (k > lo && !within_digits(d, scale, k, prec))
        k--;
    mpfr_clear(d);
    return (double)k;
}

/* scale[v] := the largest |value| variable v takes in b (1 if none). */
static mpfr_ptr
scales(const hdo_result_t b)
{
    mpfr_ptr s = hdo_vec_init(b->nvars, 64);
    mpfr_t t;
    mpfr_init2(t, 64);
    for (slong v = 0; v < b->nvars; v++)
        mpfr_set_ui(s + v, 0, MPFR_RNDN);
    for (slong i = 0; i < b->nrows; i++)
        for (slong v = 0; v < b->nvars; v++)
            if (b->rows[i].present[v]) {
                mpfr_abs(t, b->rows[i].values + v, MPFR_RNDU);
                if (mpfr_cmp(t, s + v) > 0)
                    mpfr_set(s + v, t, MPFR_RNDU);
            }
    for (slong i = 0; i < b->nevents; i++)
        for (slong v = 0; v < b->nvars; v++) {
            mpfr_srcptr lr[2] = {b->events[i].left + v, b->events[i].right + v};
            for (int k = 0; k < 2; k++)
                if (!mpfr_nan_p(lr[k])) {
                    mpfr_abs(t, lr[k], MPFR_RNDU);
                    if (mpfr_cmp(t, s + v) > 0)
                        mpfr_set(s + v, t, MPFR_RNDU);
                }
        }
    for (slong v = 0; v < b->nvars; v++)
        if (mpfr_zero_p(s + v))
            mpfr_set_ui(s + v, 1, MPFR_RNDN);
    mpfr_clear(t);
    return s;
}

/* Index of the next zeno event at or after i, or n. */
static slong
next_zeno(const hdo_result_t r, slong i)
{
    while (i < r->nevents && r->events[i].kind != HDO_EV_ZENO)
        i++;
    return i;
}

/* Where the comparison stands: the first value that agrees to fewer
   than `want` digits is described in msg (when msg is not NULL). */
typedef struct {
    long want;
    char *msg;
    size_t size;
    int found;
    const hdo_model_struct *model;
} place_t;

/* Records (once) that x (run a) and y (run b) agree to only d digits:
   what, the event's index (0: the last row) and time, both values. */
static void
note(place_t *pl, double d, const char *what, slong index, mpfr_srcptr t,
     mpfr_srcptr x, mpfr_srcptr y)
{
    if (pl == NULL || pl->msg == NULL || pl->found || d >= (double)pl->want)
        return;
    pl->found = 1;
    char where[64];
    if (index > 0)
        snprintf(where, sizeof where, "event %ld", (long)index);
    else
        snprintf(where, sizeof where, "the last row");
    mpfr_snprintf(pl->msg, pl->size,
                  "%s at t = %.17Rg, %s: %.*Re against %.*Re (%ld digits)",
                  where, t, what, (int)pl->want + 4, x, (int)pl->want + 4, y,
                  d <= 0 ? 0L : (long)floor(d));
}

static double
event_agreement(const hdo_event *ea, const hdo_event *eb, slong nvars,
                mpfr_srcptr sc, mpfr_srcptr tscale, long cap, place_t *pl)
{
    double worst = agree(ea->time, eb->time, tscale, cap);
    note(pl, worst, "its time", ea->index, ea->time, ea->time, eb->time);
    for (slong v = 0; v < nvars; v++) {
        const char *name = pl != NULL && pl->model != NULL
                               ? pl->model->vars[v].name
                               : "a variable";
        char what[300];
        double d = agree(ea->left + v, eb->left + v, sc + v, cap);
        snprintf(what, sizeof what, "%s before it", name);
        note(pl, d, what, ea->index, ea->time, ea->left + v, eb->left + v);
        if (d < worst)
            worst = d;
        d = agree(ea->right + v, eb->right + v, sc + v, cap);
        snprintf(what, sizeof what, "%s after it", name);
        note(pl, d, what, ea->index, ea->time, ea->right + v, eb->right + v);
        if (d < worst)
            worst = d;
    }
    return worst;
}

/* The sequences of events differ at event k of a (or b has more). */
static void
note_structure(place_t *pl, const hdo_result_struct *a, slong ia,
               const hdo_result_struct *b, slong ib)
{
    if (pl == NULL || pl->msg == NULL || pl->found)
        return;
    pl->found = 1;
    if (ia < a->nevents && ib < b->nevents) {
        char fa[256], ta[256], fb[256], tb[256];
        const hdo_event *ea = a->events + ia, *eb = b->events + ib;
        hdo_mode_name(fa, sizeof fa, pl->model, ea->from);
        hdo_mode_name(ta, sizeof ta, pl->model, ea->to);
        hdo_mode_name(fb, sizeof fb, pl->model, eb->from);
        hdo_mode_name(tb, sizeof tb, pl->model, eb->to);
        mpfr_snprintf(pl->msg, pl->size,
                      "event %ld: %s -> %s at t = %.17Rg against %s -> %s "
                      "at t = %.17Rg (the runs switch differently)",
                      (long)ea->index, fa, ta, ea->time, fb, tb, eb->time);
    } else if (ia < a->nevents) {
        mpfr_snprintf(pl->msg, pl->size,
                      "event %ld at t = %.17Rg, which the second run does not "
                      "have (%ld events against %ld)",
                      (long)a->events[ia].index, a->events[ia].time,
                      (long)a->nevents, (long)b->nevents);
    } else if (ib < b->nevents) {
        mpfr_snprintf(pl->msg, pl->size,
                      "event %ld of the second run at t = %.17Rg, which the "
                      "first does not have (%ld events against %ld)",
                      (long)b->events[ib].index, b->events[ib].time,
                      (long)a->nevents, (long)b->nevents);
    }
}

long
hdo_result_agreement(const hdo_result_t a, const hdo_result_t b)
{
    return hdo_result_agreement_where(NULL, 0, NULL, a, b);
}

long
hdo_result_agreement_where(char *msg, size_t size,
                           const hdo_model_struct *model, const hdo_result_t a,
                           const hdo_result_t b)
{
    long cap = a->digits;
    double worst = (double)cap;
    int same = 1;
    mpfr_ptr sc;
    mpfr_t tscale;
    place_t place = {a->digits, msg, size, 0, model};
    place_t *pl = msg != NULL && size > 0 && model != NULL ? &place : NULL;

    if (pl != NULL)
        msg[0] = '\0';
    if (a->nvars != b->nvars)
        return 0;
    sc = scales(b);
    mpfr_init2(tscale, 64);
    mpfr_abs(tscale, b->t0, MPFR_RNDU);
    if (mpfr_cmpabs(b->t_end, tscale) > 0)
        mpfr_abs(tscale, b->t_end, MPFR_RNDU);
    if (mpfr_zero_p(tscale))
        mpfr_set_ui(tscale, 1, MPFR_RNDN);
    /* Segments end at zeno events.  Before an accumulation point the runs
       follow events until their gaps fall below each run's tolerance, so
       the tighter run follows more of them: there the common prefix is
       compared, and the zeno events with each other.  A segment that
       ends without accumulation must have the same events in both. */
    slong ia = 0, ib = 0;
    while (same && (ia < a->nevents || ib < b->nevents)) {
        slong za = next_zeno(a, ia), zb = next_zeno(b, ib);
        int ends_a = za < a->nevents, ends_b = zb < b->nevents;
        slong na = za - ia, nb = zb - ib, n = na < nb ? na : nb;
        /* a different number of events fails the comparison, but the
           common ones are compared first: the first place where the
           runs part may be a value before the extra event */
        int mismatch = ends_a != ends_b || (!ends_a && na != nb);
        for (slong k = 0; k < n && same; k++) {
            const hdo_event *ea = a->events + ia + k, *eb = b->events + ib + k;
            if (ea->from != eb->from || ea->to != eb->to) {
                note_structure(pl, a, ia + k, b, ib + k);
                same = 0;
                break;
            }
            double d = event_agreement(ea, eb, a->nvars, sc, tscale, cap, pl);
            if (d < worst)
                worst = d;
        }
        if (same && mismatch) {
            note_structure(pl, a, ia + n, b, ib + n);
            same = 0;
            break;
        }
        if (same && ends_a) {
            /* the mode left at the accumulation point is the one the
               last followed event entered, which depends on how many
               were followed: only the target must agree */
            const hdo_event *ea = a->events + za, *eb = b->events + zb;
            if (ea->to != eb->to) {
                note_structure(pl, a, za, b, zb);
                same = 0;
            }
            double d = event_agreement(ea, eb, a->nvars, sc, tscale, cap, pl);
            if (d < worst)
                worst = d;
        }
        ia = ends_a ? za + 1 : a->nevents;
        ib = ends_b ? zb + 1 : b->nevents;
    }
    if (same && a->nevents == 0 && a->nrows > 0 && b->nrows > 0) {
        const hdo_row *ra = a->rows + a->nrows - 1,
                      *rb = b->rows + b->nrows - 1;
        for (slong v = 0; v < a->nvars; v++)
            if (ra->present[v] && rb->present[v]) {
                double d = agree(ra->values + v, rb->values + v, sc + v, cap);
                note(pl, d, model != NULL ? model->vars[v].name : "", 0,
                     ra->time, ra->values + v, rb->values + v);
                if (d < worst)
                    worst = d;
            }
    }
    hdo_vec_clear(sc, b->nvars);
    mpfr_clear(tscale);
    if (!same)
        return 0;
    return worst <= 0 ? 0 : (long)floor(worst);
}
