/* describe.c -- hdo check's results in words: one line per variable,
 * row failure or event pairing (for any report), and the summary line */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

const char *
hdo_check_mode_name(char *buf, size_t n, const hdo_check_t s, slong m)
{
    /* sliding modes (hybrid.h) have composed names */
    if (m >= 0 && m < s->model->nmodes)
        snprintf(buf, n, "%s", s->model->modes[m].name);
    else
        hdo_mode_name(buf, n, s->model, m);
    return buf;
}

void
hdo_check_describe_tolerance_file(char *buf, size_t n, const hdo_check_t s)
{
    const char *base = strrchr(s->opt.model_path, '/');
    base = base != NULL ? base + 1 : s->opt.model_path;
    if (!s->tol_from_file)
        snprintf(buf, n, "no tolerance file");
    else if (s->tol_found_by == HDO_TOL_BY_FILE_NAME)
        snprintf(buf, n, "%s, found by the model file's name %s", s->tol->file,
                 base);
    else if (s->tol_found_by == HDO_TOL_BY_MODEL)
        snprintf(buf, n, "%s, found by the model name %s", s->tol->file,
                 s->model->name);
    else
        snprintf(buf, n, "%s", s->tol->file);
}

void
hdo_check_event_time(char *buf, size_t n, const hdo_cmp_event *e)
{
    if (e->t_lo == e->t_hi)
        snprintf(buf, n, "%.17g", e->t_lo);
    else
        snprintf(buf, n, "%.10g..%.10g", e->t_lo, e->t_hi);
}

void
hdo_check_modes(char *buf, size_t n, const hdo_check_t s, slong from, slong to)
{
    size_t l;
    hdo_check_mode_name(buf, n, s, from);
    l = strlen(buf);
    if (l + 5 <= n) { /* else cut short, as any line of a report */
        memcpy(buf + l, " -> ", 5);
        hdo_check_mode_name(buf + l + 4, n - l - 4, s, to);
    }
}

void
hdo_check_describe_variable(char *buf, size_t n, const hdo_check_t s, slong j)
{
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    int k;
    if (tb->ncompared == 0) {
        snprintf(buf, n,
                 "no value compared (the reference or the candidate "
                 "has none in every window)");
        return;
    }
    if (tb->worst_err == 0)
        k = snprintf(buf, n, "%ld compared, all inside the tube",
                     (long)tb->ncompared);
    else
        k = snprintf(buf, n,
                     "%ld compared, %ld outside the tube; largest error %.3g "
                     "at t = %.17g (line %d, allowed %.3g)",
                     (long)tb->ncompared, (long)tb->nfailed, tb->worst_err,
                     c->time[tb->worst], c->line[tb->worst], tb->worst_allowed);
    if (tb->max_diff_row >= 0 && k > 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k,
                      "; largest |candidate - reference(t)| %.3g at t = %.15g",
                      tb->max_diff, c->time[tb->max_diff_row]);
    if (tb->nnoref + tb->nnocand > 0 && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k,
                 "; NOT COMPARED: %ld rows where the reference has no value, "
                 "%ld where the candidate's cell is empty (first at t = "
                 "%.15g, line %d)",
                 (long)tb->nnoref, (long)tb->nnocand,
                 c->time[tb->first_uncompared], c->line[tb->first_uncompared]);
}

void
hdo_check_describe_row_failure(char *buf, size_t n, const hdo_check_t s,
                               slong j, slong i)
{
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    if (tb->fail[i] == 2) {
        snprintf(buf, n,
                 "t = %.17g (%s line %d), variable %s: not compared: %s",
                 c->time[i], s->opt.cand_path, c->line[i], c->names[s->col[j]],
                 isnan(tb->lo[i]) ? "the reference has no value within "
                                    "time_abs"
                                  : "the candidate's cell is empty where the "
                                    "reference has a value");
        return;
    }
    snprintf(buf, n,
             "t = %.17g (%s line %d), variable %s: candidate %.17g, "
             "reference range [%.17g, %.17g] over [t - %g, t + %g], "
             "allowed [%.17g, %.17g]",
             c->time[i], s->opt.cand_path, c->line[i], c->names[s->col[j]],
             c->values[i * c->ncols + s->col[j]], tb->lo[i], tb->hi[i],
             s->tol->time_abs, s->tol->time_abs, tb->band_lo[i],
             tb->band_hi[i]);
}

void
hdo_check_describe_event_failure(char *buf, size_t n, const hdo_check_t s,
                                 const hdo_match *m)
{
    char ct[80], rm[120], cm[120];
    if (m->ref >= 0)
        hdo_check_modes(rm, sizeof rm, s, s->ref_ev->ev[m->ref].from,
                        s->ref_ev->ev[m->ref].to);
    if (m->cand >= 0) {
        hdo_check_event_time(ct, sizeof ct, s->cand_ev->ev + m->cand);
        hdo_check_modes(cm, sizeof cm, s, s->cand_ev->ev[m->cand].from,
                        s->cand_ev->ev[m->cand].to);
    }
    if (m->cand < 0)
        snprintf(buf, n, "event %s at t = %.17g is missing from the candidate",
                 rm, s->ref_ev->ev[m->ref].t_lo);
    else if (m->ref < 0)
        snprintf(buf, n,
                 "the candidate has an extra event %s at t = %s (line %d)", cm,
                 ct, s->cand_ev->ev[m->cand].line);
    else
        snprintf(buf, n,
                 "event %s at t = %.17g: candidate %s at t = %s (line %d), %s "
                 "(difference %.3g, time_abs %g)",
                 rm, s->ref_ev->ev[m->ref].t_lo, cm, ct,
                 s->cand_ev->ev[m->cand].line,
                 hdo_match_verdict_name(m->verdict), m->diff, s->tol->time_abs);
}

int
hdo_check_first_failure(char *buf, size_t n, const hdo_check_t s)
{
    const hdo_csv_struct *c = s->cand;
    double first_t = INFINITY;
    slong first_var = -1, first_row = -1, first_match = -1;
    for (slong j = 0; j < s->nvar; j++) {
        slong i = hdo_check_first_bad_row(s, j);
        if (i >= 0 && c->time[i] < first_t) {
            first_t = c->time[i];
            first_var = j;
            first_row = i;
        }
    }
    for (slong k = 0; k < s->match->n && first_match < 0; k++)
        if (s->match->m[k].verdict != HDO_MATCH_OK &&
            hdo_match_judged(s->match->m[k].verdict))
            first_match = k;
    if (first_match >= 0) {
        /* the time of the pairing: the reference's, else the candidate's */
        const hdo_match *m = s->match->m + first_match;
        double tm = m->ref >= 0 ? s->ref_ev->ev[m->ref].t_lo
                                : s->cand_ev->ev[m->cand].t_lo;
        if (first_var < 0 || tm <= first_t) {
            hdo_check_describe_event_failure(buf, n, s, m);
            return 1;
        }
    }
    if (first_var >= 0) {
        hdo_check_describe_row_failure(buf, n, s, first_var, first_row);
        return 1;
    }
    for (slong j = 0; j < s->nvar; j++)
        if (hdo_check_variable_failed(s, j)) {
            snprintf(buf, n, "variable %s: no value compared",
                     c->names[s->col[j]]);
            return 1;
        }
    return 0;
}

/* The machine-readable last line of the report (docs/decisions.md,
   "hdo check summary line"):
     summary: verdict=PASS|FAIL value_err=E value_where=VAR@T value_ratio=R
              event_time_err=D events_ref=N events_cand=N events_missing=N
              events_extra=N events_wrong=N vars_failed=K/N
              rows_compared=N rows_uncompared=N point_err=E
              events_given=yes|no cand_span=A..B ref_span=T0..T1
              events_unobservable=N
   value_err is the largest distance of a candidate value from the range
   the reference takes over [t - time_abs, t + time_abs] (the tube before
   the tolerance band), in the variable's units, and value_where where it
   occurs (VAR@- and value_err=0 when every value is inside the range);
   value_ratio is the largest such distance divided by the band allowed
   there (the verdict's measure: above 1 fails); event_time_err is the
   largest |candidate - reference| event time over the paired events, `-`
   when no event was paired; events_wrong counts pairs early, late or with
   the wrong mode change.  Reference events outside the candidate's time
   span are not counted.  rows_compared / rows_uncompared count
   (variable, row) cells compared and not compared (the latter fail);
   point_err is the largest |candidate - reference(t)| at the candidate's
   own times away from events (- when none), which a wide time_abs cannot hide;
   events_given no when the candidate has no events file, mode column or
   repeated time rows (then nothing is paired, and events_ref counts the
   reference events in the candidate's span);
   cand_span
   the candidate's first and last time, ref_span the model's t0 and end
   time; events_unobservable the reference events the candidate cannot
   show (they change no column it has), listed and not judged.  Numbers are
   printed with %.3e (inf for a NaN candidate value). */
void
hdo_check_write_summary(FILE *out, const hdo_check_t s)
{
    const hdo_csv_struct *c = s->cand;
    hdo_check_summary sm;
    hdo_check_summary_of(&sm, s);
    fprintf(out, "\nsummary: verdict=%s value_err=%.3e value_where=",
            sm.failed ? "FAIL" : "PASS", sm.value_err);
    if (sm.value_var >= 0)
        fprintf(out, "%s@%.17g", c->names[s->col[sm.value_var]], sm.value_t);
    else
        fprintf(out, "-");
    fprintf(out, " value_ratio=%.3e event_time_err=", sm.value_ratio);
    if (!isnan(sm.event_time_err))
        fprintf(out, "%.3e", sm.event_time_err);
    else
        fprintf(out, "-");
    fprintf(out,
            " events_ref=%ld events_cand=%ld events_missing=%ld "
            "events_extra=%ld events_wrong=%ld vars_failed=%ld/%ld "
            "rows_compared=%ld rows_uncompared=%ld point_err=",
            (long)sm.events_ref, (long)sm.events_cand, (long)sm.events_missing,
            (long)sm.events_extra, (long)sm.events_wrong, (long)sm.vars_failed,
            (long)sm.nvar, (long)sm.rows_compared, (long)sm.rows_uncompared);
    if (!isnan(sm.point_err))
        fprintf(out, "%.3e", sm.point_err);
    else
        fprintf(out, "-");
    fprintf(out, " events_given=%s", sm.events_given ? "yes" : "no");
    fprintf(out, " cand_span=%.17g..%.17g ref_span=%.17g..", c->time[0],
            c->time[c->nrows - 1], s->ref->t0);
    if (isnan(s->ref->t_end))
        fprintf(out, "-");
    else
        fprintf(out, "%.17g", s->ref->t_end);
    fprintf(out, " events_unobservable=%ld\n", (long)sm.events_unobservable);
}
