/* radau_control.h -- private to ref/step: the cost thresholds of Radau
 * IIA's Newton iteration and step control, as functions to test */
#ifndef HDO_STEP_RADAU_CONTROL_H
#define HDO_STEP_RADAU_CONTROL_H

#include <mpfr.h>

/* The contraction per iteration above which the Newton matrix is
   factored again at the current iterate. */
#define HDO_RADAU_NEWTON_REFACTOR 0.25
/* The same for the block form, whose factorisation costs about one
   iteration: an older one is refactored at this contraction already. */
#define HDO_RADAU_BLOCK_REFACTOR 0.01
/* The same for the matrix with the stages' own Jacobians in double
   (radau_stagelu.c; full = 2 below): fresh it contracts by 1e-15 to
   1e-7 on Van der Pol, one step old by 1e-3, and refactoring costs
   about one iteration. */
#define HDO_RADAU_STAGED_REFACTOR 1e-6
/* The most corrections of the iteration in double by which the blocks
   solve the stages' matrix (radau_stagelu.c, refine_solve). */
#define HDO_RADAU_REFINE_MAX 1
/* Newton iterations on the stage equations up to 30 digits before the
   step is retried at a quarter of its size (hdo_radau_newton_limit). */
#define HDO_RADAU_NEWTON_MAX 40
/* An accepted step's proposed growth below this factor keeps the step,
   and with it the factored Newton matrix (as RADAU5). */
#define HDO_RADAU_STEP_KEEP 1.2
/* Accepted steps in a row that kept their size, after which the next
   step tries twice the size (hdo_radau_probe_due). */
#define HDO_RADAU_PROBE_AFTER 16
/* h |J_ii| from which a run of kept steps probes whatever exponent the
   estimate showed (hdo_radau_probe_due). */
#define HDO_RADAU_PROBE_STIFF 1000.0
/* The highest exponent of e ~ h^p that an estimate of s stages can show
   is s + HDO_RADAU_ORDER_ABOVE: the defect bound's s + 1 (D-104; the top
   term is of order s - 1, the start term s or 0).  A larger reading is
   not h's (hdo_radau_order_plausible). */
#define HDO_RADAU_ORDER_ABOVE 1
/* The share of the tolerance below which a probe's estimate, grown
   once more by the factor its doubling showed, lets it double again
   (hdo_radau_probe_again). */
#define HDO_RADAU_PROBE_AIM 0.5
/* The smallest factor by which a rejected step shrinks, and the one a
   stalled estimate takes (hdo_radau_reject_stalled). */
#define HDO_RADAU_REJECT_MIN 0.1
/* The share of the tolerance below which an accepted step's estimate
   counts as this much in the trend (hdo_radau_trend_factor), as RADAU5's
   ERRACC: a trend read off estimates far below the tolerance is their
   noise. */
#define HDO_RADAU_TREND_FLOOR 0.01
/* The share of the tolerance above which the trend's prediction counts
   as a failure beyond HDO_RADAU_SAFETY_STAGES stages (1 up to them;
   hdo_radau_trend_rejects): the prediction extrapolates the estimate's
   growth over the last step, floored, and fell short by 5 at 60 digits
   on Van der Pol (0.24 predicted, 1.27 used); at 17 stages (the ring
   modulator at 16 digits) 0.2 took 290 steps and 14 rejections to
   3e-5 where 1 takes 282 and 9 (decisions.md D-144). */
#define HDO_RADAU_TREND_FAIL 0.2
/* The accepted steps after a rejection whose estimate fell as the trend
   assumes on which the trend may act, and the factor by which it may
   shrink h on them together (hdo_radau_probe_rejected; radau_control.c's
   trend_limit). */
#define HDO_RADAU_TREND_HOLD 16
#define HDO_RADAU_TREND_SPAN 4.0
/* The stage count up to which the step's safety factor is 0.8. */
#define HDO_RADAU_SAFETY_STAGES 24

/* What the Newton iteration does after an iteration that contracted by
   theta (< 1), the matrix being the full one (full) or the blocks, and
   fresh when it was factored at this step's iterates: 0 keeps the
   matrix, 1 refactors the blocks, 2 refactors the full matrix.
   full = 2: the stages' matrix in double, or the blocks refined on it
   (radau_stagelu.c), refactored (1) when older and slower than
   HDO_RADAU_STAGED_REFACTOR, else as the blocks.
   theta > 1/4 refactors (a fresh block matrix that is still that slow
   goes to the full one); an older block matrix is refactored above
   1/100 already.  Equal values keep the matrix.  These choices change
   the iterates' path and the cost, not what the iteration converges to
   (its stopping rule is separate). */
int hdo_radau_refactor(double theta, int full, int fresh);
/* The factor HDO_RADAU_STAGE_LU_K of hdo_radau_stage_lu_due, and the
   most unknowns s n it allows (8 MB of doubles). */
#define HDO_RADAU_STAGE_LU_K 128
#define HDO_RADAU_STAGE_LU_MAX 1024
/* Whether the Newton matrix of s stages of n states at prec bits is
   factored in double with each stage's own Jacobian
   (radau_stagelu.c): when its LU, (s n)^3 / 3 products in double, costs
   about an iteration's residual or less, s^2 n products of L = prec/64
   limbs in MPFR: n^2 s <= 128 L (and s n <= 1024).  Measured (CPU):
   Van der Pol (n = 2) at 30 / 60 / 100 digits 0.19 / 1.67 / 7.1 s with
   the blocks, 0.12 / 0.84 / 2.85 s so; at 200 digits (141 stages, 282
   unknowns) to t = 0.4, 14.4 s against 6.6 s; the ring modulator
   (n = 15, 17 stages at 16 digits: n^2 s = 3,825) to t = 1e-4, 7.5 s
   with the blocks against 12.4 s so (decisions.md D-109).  A cost
   choice: both are preconditioners of the same iteration. */
int hdo_radau_stage_lu_due(long n, long s, mpfr_prec_t prec);
/* The Newton iterations a step may take at prec bits (D digits, read as
   hdo_radau_stages does): HDO_RADAU_NEWTON_MAX up to 30 digits, and
   beyond in proportion to the digits the iteration must gain,
   ceil(40 (D + 5)/35).  The iteration contracts linearly (the blocks'
   one Jacobian: theta about 0.03 per iteration on Van der Pol at every
   D, so 1.5 digits an iteration), and at 100 digits it took 28-38
   iterations on Van der Pol's slow arcs: a fixed 40 failed there at
   72 stages and cut the step by 4 three times, to 6e-4 where 0.04
   passes (decisions.md D-105).  A cost choice: the iteration's stopping
   rule is unchanged. */
int hdo_radau_newton_limit(mpfr_prec_t prec);
/* Whether an accepted step of s stages whose proposed growth factor is
   fac keeps its size (and with it the factored matrix): for a growth in
   [1, 1.2) up to 24 stages, in [1, 1.2^(23/(s-1))) beyond, the same
   error ratio 1.2^23 (the proposal's exponent is 1/(s-1)).  A cost
   choice: the step stays within its error estimate either way.  With a
   fixed 1.2, 44 stages at 60 digits needed an error estimate 2e-6 of
   the tolerance to grow at all, and the step stayed where the fast
   layer had left it (Van der Pol mu = 1000: 1,319 steps; 586 with the
   scaled rule; decisions.md D-082, "Radau's step count and the digits"). */
int hdo_radau_keep_step(double fac, long s);
/* The safety factor of the proposed step, fac = safety (tol/e)^(1/(s-1))
   for an error estimate e of order s - 1: 0.8 up to 24 stages, and
   0.8^(23/(s-1)) beyond, so that the error it aims at, safety^(s-1) tol,
   stays 0.8^23 tol (about 0.006 tol) instead of shrinking as 0.8^(s-1)
   (9e-6 tol at 53 stages, where with the keep rule above the step could
   not grow back after the fast layer: Van der Pol mu = 1000 at 100
   digits took 10,972 steps, 82 s, against 3,525 steps, 25 s). */
double hdo_radau_step_safety(long s);
/* The growth factor that the estimate's trend proposes for the next step
   (Gustafsson's predictive controller, RADAU5's PRED): an accepted step
   of size h whose estimate used the share used of the tolerance, after
   an accepted step of size h / hratio that used usedlast (at least
   HDO_RADAU_TREND_FLOOR): safety hratio (usedlast / used^2)^(1/(s-1)),
   the step at which the estimate, moving by the same factor again at
   the same h, would be the one the safety factor aims at.  An accepted
   step's growth is this factor when the trend predicts that the plain
   proposal (1 where it keeps h) fails the error test
   (hdo_radau_trend_rejects) and this factor is smaller
   (hdo_radau_probe_accept): with
   the plain proposal and the keep rule, a solution whose time scale
   shrinks by 10% a step (Van der Pol mu = 1000 before its fast layers)
   kept h at 72 stages while the estimate grew by 0.9^-71 = 1,800 a step,
   and every other step was rejected (245 rejections in 602 steps at 100
   digits; decisions.md D-105).  Only where a rejection is predicted:
   up to 30 digits (24 stages) the estimate's growth at a kept h stays
   far below the tolerance (0.9^-23 = 11 times 0.006), and taking the
   trend's factor everywhere cost 3% more steps there.  A cost choice:
   every step passes the same error test. */
double hdo_radau_trend_factor(double hratio, double used, double usedlast,
                              long s);
/* Whether the trend predicts that a step of fac times h fails the error
   test: the estimate, having moved from usedlast (at least
   HDO_RADAU_TREND_FLOOR) to used over a change of h by hratio, moves by
   used / usedlast (over the part that h's change explains) again, and
   by fac^(s-1): used^2 / usedlast (fac / hratio)^(s-1) > 1, or >
   HDO_RADAU_TREND_FAIL beyond HDO_RADAU_SAFETY_STAGES stages (D-144). */
int hdo_radau_trend_rejects(double hratio, double used, double usedlast,
                            double fac, long s);
/* Whether, after kept accepted steps in a row that kept their size, the
   next step of s stages tries twice the size: from HDO_RADAU_PROBE_AFTER
   on, when the estimate's exponent p seen at the last change of h (e ~
   h^p) was below (s - 1)/2, or when the step is stiff: hlam = h max
   |J_ii| (the states' diagonal at the last stage) at least 1000, where a
   fast mode's remnant 1/(h lambda) can hold the estimate whatever p the
   last change showed (EMEP's third sunrise: p = 30 at h = 3e-3, then
   1,100 kept steps).  The keep rule assumes an estimate of order
   s - 1; on a stiff arc it can instead be the remnant of a fast mode in
   the stages, of order 1/(h lambda), which a longer step makes smaller:
   EMEP after sunrise kept h = 1e-3 s at an estimate 0.005 tol for good
   (issue 28).  A probe that passes with an estimate no larger doubles
   again; one that fails returns to the kept h.  The error test holds
   every step either way: a cost choice.  Where the estimate follows
   h^(s-1) a probe would fail (2^23 times the estimate) and only cost a
   step: the exponent rule keeps it out (decisions.md D-095).  An
   unknown p (NaN, INFINITY) is hdo_radau_probe_blind_due's case. */
int hdo_radau_probe_due(long kept, double p, double hlam, long s);
/* Whether an exponent p read off two accepted steps' estimates (e ~
   h^p over a change of h of more than 1%) is one the estimate can have:
   p <= s + 1.  Above, the estimate moved for another reason than h: a
   floor that does not depend on h (the start term, the rounding) read
   through its noise, or the solution's change along t.  EMEP at 40
   digits (31 stages) after a sunrise, its estimate held by the start
   term at tol/219: 2.7e-48 after 6.9e-48 for an h 1.7% smaller read as
   p = 55, which disabled the probe while the keep rule held h at 2.4e-7
   s for good (decisions.md D-109, D-114).  An implausible reading
   leaves the order unknown (NaN). */
int hdo_radau_order_plausible(double p, long s);
/* Whether, with the estimate's order unknown (p not finite: none seen
   since the run's start, or the last reading implausible) and h not
   stiff, kept accepted steps in a row try twice h: from wait on, wait
   starting at HDO_RADAU_PROBE_AFTER and doubled by every such probe that
   fails (hdo_radau_probe_back), back to HDO_RADAU_PROBE_AFTER when one
   passes.  An estimate that does not fall with h (a floor) then cannot
   hold h by the keep rule: its probe passes and doubles again
   (hdo_radau_probe_again).  Where the estimate follows h^(s-1) the probe
   fails by 2^(s-1) and h goes back, a step spent; the doubling wait
   bounds that to about log2(kept steps / 16) per run: boost_converter_ccm
   under --method implicit reads an implausible order 211 times (28.9 to
   450: its estimate follows the PWM along t), and with a fixed wait of
   16 probed 47 times, each failing (decisions.md D-114). */
int hdo_radau_probe_blind_due(long kept, double p, double hlam, long wait);
/* The growth an accepted step of s stages with estimate e proposes:
   safety (tol/e)^(1/(s-1)) (hdo_radau_step_safety), at most 4; 4 for a
   zero estimate. */
void hdo_radau_accept_factor(mpfr_t fac, const mpfr_t tol, const mpfr_t e,
                             long s);

/* Whether an accepted probe (a step of twice the kept h) doubles again:
   when its estimate did not grow (grew = e / e_before <= 1), or when one
   more growth by the same factor stays below HDO_RADAU_PROBE_AIM of the
   tolerance (grew * used <= 1/2, used = e / tol).  Where the estimate
   follows h^(s-1) a doubling multiplies it by 2^(s-1) and the probe ends
   there; on a stiff plateau where it is the fast mode's remnant it
   wavers from step to step, which the test "no larger" alone read as
   growth (EMEP at 30 digits after a sunrise: 0.0015 tol at 1.5e-3 s,
   0.0087 tol at twice that, the next step back near 1.5e-3 s for
   thousands of steps; decisions.md D-098).  A cost choice: every step
   passes the error test either way. */
int hdo_radau_probe_again(double grew, double used);

/* Whether a step rejected twice in a row has a stalled estimate: the
   estimate fell by efell = e_before / e over a shrink of hfell = h_before
   / h (> 1), less than in proportion to h (e ~ h^p, p < 1).  The
   proposal (tol/e)^(1/(s-1)) assumes p = s - 1 and shrinks h by about
   0.84 for an estimate just above the tolerance; an estimate that does
   not follow h (y0 off the slow manifold of a fast mode, hlam 2e8: the
   start term of a mode with guards, constant from h = 0.29 s to 7e-6 s
   at 1.16 tol) then ran into the 60 rejections of a collapse before h
   reached the fast mode's time scale, where the step resolves the
   offset and passes (EMEP at 40 digits after its fourth midnight;
   decisions.md D-103).  A stalled estimate shrinks h by
   HDO_RADAU_REJECT_MIN instead.  Every step still passes the same
   error test: a cost choice. */
int hdo_radau_reject_stalled(double efell, double hfell);
/* A rejected step's estimate e at size h: whether it stalled against the
   last rejection of the same step (erej, hrej; erej zero: none), which
   (e, h) then replaces. */
int hdo_radau_reject_note(mpfr_t erej, mpfr_t hrej, const mpfr_t e,
                          const mpfr_t h);
/* The factor by which a rejected step of s stages shrinks:
   safety (tol/e)^(1/(s-1)), at least HDO_RADAU_REJECT_MIN, which a
   stalled estimate takes, and a NaN one (an infinite one gives 0, so the
   same). */
void hdo_radau_reject_factor(mpfr_t fac, const mpfr_t tol, const mpfr_t e,
                             long s, int stalled);
/* The rejections of one step in a row from which each shrinks h to at
   most hrej^2 / hfirst (hdo_radau_reject_streak). */
#define HDO_RADAU_REJECT_STREAK 8
/* h := min(h, hrej^2 / hfirst) once the step has been rejected k >=
   HDO_RADAU_REJECT_STREAK times in a row, hrej the size just rejected,
   hfirst the first one tried: each further rejection at least doubles
   log(hfirst / h).  Why.  A rejection shrinks h by a bounded factor (a
   failed Newton iteration by 4, an estimate by at least
   HDO_RADAU_REJECT_MIN), so 60 rejections covered 4^60 = 1.3e36: a
   first step 1e180 too long (a free fall from x = 1, vx = -2e-182 with
   y and vy below their floors at 16 digits: the time scale |x|/|vx|)
   collapsed at 2.6e144 (decisions.md D-126).  With the doubling 14
   rejections cover 4^448.  Below the eighth the rule is silent, so the
   runs that recover within seven keep their steps. */
void hdo_radau_reject_streak(mpfr_t h, const mpfr_t hrej, const mpfr_t hfirst,
                             int k);
/* h := min(h, 2^lspan), the run's span |t_end - t0| (the driver's
   st->lspan; none when it is not finite): a step beyond it is never
   used, and its error, held relative to the state over the whole step,
   says nothing of the values at the run's end (RADAU5's default hmax;
   decisions.md D-126). */
void hdo_radau_span_cap(mpfr_t h, double lspan);

/* The probe's state along a run of steps. */
typedef struct {
    long kept;    /* accepted steps in a row that kept h */
    int probing;  /* this step tries twice h */
    mpfr_t eprobe; /* the error estimate of the step it doubled */
    /* the last accepted step's h and estimate, and the exponent p of
       e ~ h^p seen at the last change of h (INFINITY: none yet; NaN:
       the last reading was not plausible) */
    mpfr_t hlast, elast;
    double pobs;
    /* kept steps before a probe while the order is unknown
       (hdo_radau_probe_blind_due), and whether this probe is one */
    long wait;
    int blind;
    /* this step's last rejected size and estimate (erej zero: none) */
    mpfr_t hrej, erej;
    /* the accepted steps on which the trend may still act, and the
       factor by which it may still shrink h on them (radau_control.c's
       trend_evidence; hdo_radau_probe_rejected says when) */
    long steep;
    double room;
} hdo_radau_probe;

void hdo_radau_probe_init(hdo_radau_probe *p);
void hdo_radau_probe_clear(hdo_radau_probe *p);
/* A run's first step: no probe, no exponent seen. */
void hdo_radau_probe_reset(hdo_radau_probe *p);
/* An accepted step of size h, estimate e and stiffness hlam (h max
   |J_ii|), whose proposed growth is fac: fac becomes the growth to take.
   A small growth keeps h (hdo_radau_keep_step), and with it the factored
   Newton matrix; a probe doubles again as hdo_radau_probe_again says
   (tol: the error test's tolerance); a long run of kept steps tries
   twice h (hdo_radau_probe_due, hdo_radau_probe_blind_due). */
void hdo_radau_probe_accept(hdo_radau_probe *p, mpfr_t fac, const mpfr_t h,
                            const mpfr_t e, const mpfr_t tol, double hlam,
                            long s);
/* A step rejected by the error test at size h with estimate e: the
   trend (hdo_radau_trend_factor) acts on the step accepted after it
   only when the estimate fell from e at least as fast as
   h^((s-1)/2), the order it assumes.  Without that evidence a flat
   estimate read as a trend and cut h by 2.7 a step (EMEP at 40 digits
   before a sunset: 6.7e-4 s down to 2e-7 s in eight accepted steps at
   0.02-0.04 tol, then 1,000 steps kept there; decisions.md D-105).
   The evidence holds for the HDO_RADAU_TREND_HOLD accepted steps after
   that one (D-144), which together may shrink h by at most
   HDO_RADAU_TREND_SPAN; a rejection that falls slower, or a reset,
   ends it.  A failed probe counts as any rejection.  On the way into
   Van der Pol's fast layer at 100 digits the estimate grew 10^4 a step
   at a kept h, and with the trend only on the step after a rejection
   every third step was rejected (109 of 655 tries); unbounded, the
   held trend cut EMEP's flat estimate at 40 digits from 46 s to 9e-4 s
   in 15 steps. */
void hdo_radau_probe_rejected(hdo_radau_probe *p, const mpfr_t e,
                              const mpfr_t h);
/* A failed step: when it was a probe, h goes back to the step it doubled
   and 1 is returned; else 0 and h unchanged. */
int hdo_radau_probe_back(hdo_radau_probe *p, mpfr_t h);

#endif
