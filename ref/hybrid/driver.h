/* driver.h -- private to the driver of hdo_run (run.c and the files it
   is split into): the run context, the per-mode cache and the functions
   they share.  Not installed; the functions are hidden from libhdo.so by
   its version script. */
#ifndef HDO_HYBRID_DRIVER_H
#define HDO_HYBRID_DRIVER_H

#include "hybrid.h"
#include "internal.h"
#include "event.h"
#include "km.h"

/* How many past events the Zeno detection looks at: enough for
   LIVELOCK_SAMPLES states of a cascade of period LIVELOCK_MAX_PERIOD. */
#define HIST 24

typedef struct {
    int built;
    hdo_reduced_t red;
    hdo_stepper_t step;         /* the integrator of this mode (step.h) */
    slong ntr;                  /* whens, then the zeno clause if any */
    hdo_program_struct *assign; /* per transition, compiled on first use */
    int *assign_built;
    mpfr_ptr xs, xu; /* the current state while in this mode */
    mpfr_ptr ls, lu; /* left limit scratch */
    mpfr_ptr ts, tu; /* dense output scratch */
    /* the state at the end of the step taken, as the step's magnitudes
       evaluated it (sample.c), while es_valid: the event's left limit
       there is the same (hdo_run_state_at_end) */
    mpfr_ptr es, eu;
    int es_valid;
    int *fixed;
    slong nguards; /* guards compiled into the stepper */
    /* a sliding mode (index >= nmodes): its pair, the weight of a, and
       the transitions of a and b behind guards 2.. */
    slong sa, sb;
    hdo_expr alpha;
    slong *other_mode, *other_when;
    /* sliding on an intersection of surfaces (key hdo_mode_id_cube of the
       mask): the cube of adjacent modes, surfaces and weights (ref/reduce/filippov_cube.c) */
    hdo_sliding_set *set;
    /* guards that are first integrals of the mode (ref/reduce/invariant.c), NULL
       when none: then the stepper integrates the regularised form */
    hdo_invariant *inv;
    /* the guards' noise floors (floors.c, hdo_run_guard_floors), and the
       program whose inputs list what the guards read; NULL until used */
    mpfr_ptr gfloor;
    hdo_program_struct *gprog;
    mpfr_ptr gmid, grad; /* scratch: the inputs' values and radii */
    /* the point of the stepper's gnoise (t, xs, xu; hdo_run_guard_noise):
       an event's expansion and the step after it share it */
    mpfr_ptr gnkey;
    int gnkey_valid;
    /* the last guard floors' inputs (t, the guards' inputs, their radii)
       and values (floors.c): the step after an event's expansion has
       the same (D-113) */
    mpfr_ptr gfkey, gfval;
    int gfkey_valid;
    /* the unknowns' errors through h (floors.c, unknown_radii) and their
       point (t, xs, xu, the states' errors): the guards of one candidate
       at one decision read the same (D-127) */
    mpfr_ptr ukey, uval;
    int ukey_valid;
    /* the guards' time derivatives along the mode's explicit flow
       (hdo_sliding_lie; HDO_EXPR_NONE where a guard reads another
       variable), the program that lists their inputs (NULL when none)
       and its scratch: S'(0)'s own error (floors.c, D-130); glie NULL
       until asked */
    hdo_expr *glie;
    hdo_program_struct *lprog;
    mpfr_ptr lmid, lrad;
} mode_cache;

/* A followed event, for the Zeno extrapolation. */
typedef struct {
    mpfr_t t;
    slong src, g;    /* the mode left and its `when` */
    mpfr_ptr ls, lu; /* left limit (sizes of src's state) */
    slong ns, nu;
} hist_entry;

/* The per-mode table of a run (mode.c): one mode_cache per mode the run
   has actually entered or looked at, keyed by a slong.  Open addressing
   over a power-of-two array of slots (1 + the entry's position, 0 for
   an empty slot), so a model of 20,000 modes costs what the modes
   entered cost, not nmodes^2 slots.  Entries are allocated one by one
   and never move: a mode_cache pointer stays valid for the whole run
   while other entries are added. */
typedef struct {
    mode_cache **entry; /* in the order of creation */
    slong *key;         /* key[i]: the key of entry[i] */
    slong len, alloc;
    slong *slot; /* hash slots, 1 + position in entry, 0: empty */
    slong size;  /* slots, a power of two, at least 2 (len + 1) */
} mode_table;

/* A program of hdo_run_eval_on_left kept by its expressions (left.c). */
#define HDO_RUN_LEFT_PROGS 8
typedef struct {
    hdo_expr *e; /* the roots, n of them; NULL: an empty entry */
    slong n;
    hdo_program_struct *prog;
} left_prog;

typedef struct {
    hdo_model_struct *model;
    const hdo_run_options *opt;
    hdo_result_struct *res;
    hdo_error_t *err;
    mpfr_prec_t prec;
    long digits;
    mpfr_t tol;
    mode_table modes; /* the per-mode caches (hdo_run_mode_entry) */
    /* sampling */
    slong nsamples, next_sample;
    mpfr_t every; /* at prec + 32 */
    /* current point */
    slong mode;
    mpfr_t t, t_end;
    /* events */
    hist_entry hist[HIST];
    slong nhist;       /* entries used, newest last */
    slong ninstant;    /* instantaneous switches in a row */
    int spurious;      /* one of them starts from a state that leaves */
    mpfr_t last_event; /* time of the last event (or -inf) */
    slong max_steps, max_events;
    hdo_stiff_watch stiff; /* is the current arc stiff (stiff.c) */
    double start;          /* hdo_clock_now() when the run started */
    /* scale floors (context.c, hdo_run_set_floors): per model variable,
       its nominal value (0: none) and the largest |value| it has had so
       far, at 64 bits */
    mpfr_ptr nominal, vmax;
    /* the last located event: its time and how well that time is known
       (hdo_run_event_digits); the first step after it widens the state
       by its rate times that uncertainty for the zero rule (floors.c) */
    mpfr_t event_at, event_dt;
    /* the magnitudes of the current step per variable (log2; sample.c,
       hdo_run_step_magnitudes), whether they are the current step's, and
       the first row whose magnitude waits for the next step's */
    double *stepmag;
    /* log2 of each variable's largest rate over that step (differences
       of the magnitudes' points): its value's noise from the rounding of
       the time, the floor of a cascade's short arcs (sample.c) */
    double *steprate;
    int stepmag_valid;
    slong pending_row;
    /* the current step's end offset and mode, for magnitudes computed
       only when a row needs them (stepmag_due) */
    mpfr_t stepmag_end;
    int stepmag_due;
    /* an output row with an undefined (NaN) value of a variable its mode
       has: the run fails rather than print it (hdo_run) */
    int undefined_row;
    /* the switching function of the event being taken when it is of t
       alone (a clock: its sign at a sample's exact time orders the two,
       sample.c), else HDO_EXPR_NONE */
    hdo_expr event_clock;
    /* the last exact sign of a clock at a sample's time (sample.c): the
       clock, the sample, the status and sign of hdo_expr_const_sign (the
       same question comes back when the event's samples are skipped) */
    hdo_expr clock_sign_of;
    slong clock_sign_k;
    int clock_sign_status, clock_sign;
    int phase; /* the phase timer in force, and since when */
    double phase_since;
    /* the last programs of hdo_run_eval_on_left: the Filippov entry test
       and the surface test compile the same few at every crossing
       (D-113); the oldest is replaced */
    left_prog lprog[HDO_RUN_LEFT_PROGS];
    slong lprog_next;
} run_ctx;

/* Phase timers (hdo_result_struct): the time since the last switch is
   charged to the phase in force; hdo_run_phase_enter switches and
   returns the previous phase, which the caller restores, so a nested
   phase is charged to itself only. */
enum { PH_OTHER, PH_INTEGRATION, PH_EVENTS, PH_REDUCTION, PH_REINIT };

typedef struct {
    const hdo_reduced_struct *r;
    mpfr_srcptr xs, xu;
    const hdo_dense *dense; /* NULL: only the point values */
    mpfr_srcptr s;          /* offset in the series */
} left_limit;

/* The driver's files, lowest first: each calls only itself and those
   before it (tools/check-layering):
     context, left, surface, method < mode < floors < sample < kmreport
     < reinit < pattern < transition < zenodetect < filippov < intersect
     < event < run < verifyrun
   (chatter.c, stiff.c and args.c, below them, are declared in chatter.h
   and internal.h).  Their declarations follow in that order. */

/* context.c: clocks, phase timers, errors, tolerances */
double hdo_run_elapsed(const run_ctx *c);
int hdo_run_phase_enter(run_ctx *c, int phase);
int hdo_run_fail(run_ctx *c, int status, slong mode, const mpfr_t t);
int hdo_run_option_fail(run_ctx *c);
void hdo_run_time_tol(mpfr_t r, const run_ctx *c, const mpfr_t t);
/* u := the run's time unit min(1, |t_end - t0|) (one while t_end is not
   known), at u's precision (64 bits: exact). */
void hdo_run_time_unit(mpfr_t u, const run_ctx *c);
/* transition.c: 1 when hdo_expr_enclose of e cannot fail on finite input
   balls where it succeeds on others (total kinds only: a reset's
   enclosure on the event-widened radii is then not needed). */
int hdo_run_enclose_total(const hdo_expr_pool_struct *pool, hdo_expr e);
void hdo_run_event_horizon(mpfr_t H, const run_ctx *c, const mpfr_t t);

/* left.c: the left limit L of the state at an event.
   hdo_run_left_value: the value of (var, order) on L, a state or unknown
   of the source mode or a derivative of the series of a lower order of
   it; 1, or 0 when the source mode does not have it.
   hdo_run_eval_on_left: e[0..n) evaluated on L at t into out; 0, or -1
   when L lacks a variable or an expression is undefined there. */
int hdo_run_left_value(mpfr_t out, const left_limit *L, slong var, slong order);
int hdo_run_eval_on_left(run_ctx *c, mpfr_ptr out, const hdo_expr *e, slong n,
                         const left_limit *L, const mpfr_t t);
/* Frees the programs hdo_run_eval_on_left keeps (at the run's end). */
void hdo_run_left_progs_clear(run_ctx *c);

/* surface.c */
/* The numeric part of the Filippov entry test (hdo_run_sliding_pair),
   thr = sqrt(tol) at prec: v[0] = S_b, v[1] = L_a S, v[2] = L_b S,
   v[3] = L_b S_b at the event; 1 when |S_b| <= thr, L_a S <= thr,
   L_b S > thr and L_b S_b < -thr. */
int hdo_run_sliding_entry_test(mpfr_srcptr v, const mpfr_t tol,
                               mpfr_prec_t prec);
/* 1 when the gradients ga[0..n), gb[0..n) (in the variables and t) are
   opposite (ga.gb < 0) and parallel within thr = sqrt(tol):
   (ga.gb)^2 >= |ga|^2 |gb|^2 (1 - thr), that is sin^2 of their angle
   at most thr (equal included).  At prec. */
int hdo_run_gradients_opposite(mpfr_srcptr ga, mpfr_srcptr gb, slong n,
                               const mpfr_t tol, mpfr_prec_t prec);
/* 1 when Sb = -Sa as expressions and both are functions of t alone (a
   clock, as a PWM edge's `when sin(2*pi*t/T) < 0` and its `> 0` back):
   then Sb(t) = -Sa(t) along every flow, whatever the mode, so where Sa
   leaves zero into its positive side Sb leaves into its negative one, to
   the same order, and no mode's flow points back at the surface while
   another's leaves it (their Lie derivatives are the same dSa/dt): the
   mode back neither continues (hdo_run_check_when_unique: its Taylor
   expansion is not needed) nor slides (hdo_run_sliding_pair: nor the
   Lie derivatives' program), which they would only say (issue 28: a Taylor expansion and a
   program per PWM edge; decisions.md D-093). */
int hdo_run_clock_pair(hdo_model_struct *model, hdo_expr Sa, hdo_expr Sb);
/* 1 if the switching functions Sa and Sb are one surface seen from its
   two sides near the point L at t: their gradients (in the variables
   and t) opposite and parallel within sqrt(tol)
   (hdo_run_gradients_opposite); 0 otherwise, and when L lacks a
   variable of them. */
int hdo_run_same_surface(run_ctx *c, hdo_expr Sa, hdo_expr Sb,
                         const left_limit *L, const mpfr_t t);

/* method.c */
/* The Jacobian test of --method auto at this step of mode m (stepper st
   at c->t, the mode's point xs, xu, the natural step h); the watch
   (c->stiff) keeps the verdict. */
void hdo_run_stiff_check(run_ctx *c, slong m, hdo_stepper_t st,
                         mpfr_srcptr xs, mpfr_srcptr xu, const mpfr_t h);
int hdo_run_auto_switch(run_ctx *c, mode_cache *mc);
int hdo_run_stepper_init(const run_ctx *c, hdo_stepper_t s, hdo_model_t model,
                         const hdo_reduced_struct *red, const hdo_expr *guards,
                         slong ng);
void hdo_run_stiff_why(char *buf, size_t n, const run_ctx *c);
/* Notes that a step of the method name starts at c->t (res's
   method_arcs). */
void hdo_run_note_method(run_ctx *c, const char *name);

/* mode.c */

/* The keys of the mode table are the mode ids of the results (model.h,
   hdo_mode_id_kind_of): a model mode m < nmodes; the Filippov sliding
   mode of the pair a < b (hdo_mode_id_pair); the sliding mode on an
   intersection (hdo_mode_id_cube, models of at most
   HDO_MODE_ID_MAXMODES modes).  A new kind of mode takes keys of its
   own that collide with none of these (negative keys are free) and maps
   them to result indices in hdo_run_res_mode.

   hdo_run_mode_entry returns the entry of key, creating it zeroed when
   the run has none yet (built = 0: the caller builds it, as
   hdo_run_mode_cache_get does for model modes, and sets built = 1 with
   hdo_run_mode_cache_alloc); never NULL (allocation failure asserts).
   The pointer stays valid until the run ends, when
   hdo_run_mode_table_clear clears every built entry.
   hdo_run_mode_find returns the entry of key, or NULL without creating
   one. */
mode_cache *hdo_run_mode_entry(run_ctx *c, slong key);
mode_cache *hdo_run_mode_find(const run_ctx *c, slong key);
void hdo_run_mode_table_init(mode_table *t);
void hdo_run_mode_table_clear(mode_table *t, hdo_result_struct *res);
void hdo_run_mode_cache_clear(mode_cache *mc, hdo_result_struct *res);
void hdo_run_mode_cache_alloc(mode_cache *mc, slong ntr, mpfr_prec_t prec);
int hdo_run_mode_cache_get(run_ctx *c, slong m, const mpfr_t t);
/* Rebuilds model mode m's cache (built, with Pryce's reduced form) with
   the Kunkel-Mehrmann fallback's form (hdo_reduce_mode_km), carrying the
   current values and fixed flags over by (variable, order).  Returns 0,
   or the fallback reduction's status (the cache is then unchanged and
   why says why the fallback does not apply), or the build's (c->err). */
int hdo_run_mode_cache_km_fallback(run_ctx *c, slong m, const mpfr_t t,
                                   hdo_error_t *why);
const hdo_transition *hdo_run_transition_of(const hdo_model_struct *model,
                                            slong m, slong k);
/* The start value of variable v as a guess (0 when it has none). */
void hdo_run_start_guess(mpfr_t out, const run_ctx *c, slong v);

/* floors.c: the scale floors of the error control and of the zero
   rule (decisions.md D-011, "Digits at every scale").
   hdo_run_floors_init evaluates the model's nominal values into
   c->nominal and zeroes c->vmax (freed by hdo_run_floors_clear); returns
   0 or HDO_ERR_DOMAIN with the declaration's place.
   hdo_run_var_floor: variable v's floor, nominal_v when given, else
   max(tol vmax_v, tol^2 max_w vmax_w).
   hdo_run_set_floors takes the order-0 values of mc's state (xs, xu)
   into c->vmax, then sets the floors of mc's stepper, component by
   component from its variable's.
   hdo_run_guard_floors sets mc->gfloor[g] for every switching function
   of mc's stepper at (t, xs, xu) (dense: the expansion there, for
   derivatives; may be NULL) over the horizon H: the radius of the
   guard's value when each input is known to tol max(|value|, floor)
   plus its drift tol |rate| H over the step (and, right after an event,
   its rate times the event time's uncertainty), the size below which
   the guard cannot be told from zero (0 where it cannot be enclosed). */
int hdo_run_floors_init(run_ctx *c);
void hdo_run_floors_clear(run_ctx *c);
void hdo_run_var_floor(mpfr_t floor, const run_ctx *c, slong v);
/* log2 of hdo_run_var_floor for every variable v with present[v]
   (present NULL: all), into lf (c->vmax must be set): the model's floor
   computed once, not once per variable. */
void hdo_run_var_floors_log2(double *lf, const run_ctx *c, const int *present);
/* r := tol max(|x|, vmax_v, nominal_v): the error of a value x of
   variable v, against the largest size the variable has had. */
void hdo_run_var_scale(mpfr_t r, const run_ctx *c, slong v, mpfr_srcptr x);
void hdo_run_set_floors(run_ctx *c, mode_cache *mc);
void hdo_run_guard_floors(run_ctx *c, mode_cache *mc, const mpfr_t t,
                          mpfr_srcptr xs, mpfr_srcptr xu,
                          const hdo_dense *dense, const mpfr_t H);
/* hdo_run_guard_noise sets mc->step->gnoise, the guards' noise floors
   of the step size (step.h), before an apply at (t, xs, xu): the radius
   of hdo_run_guard_floors without the drift over the step and the event
   time's term (both need the step); nothing for an implicit stepper. */
void hdo_run_guard_noise(run_ctx *c, mode_cache *mc, const mpfr_t t,
                         mpfr_srcptr xs, mpfr_srcptr xu);
/* vf := the error of guard g's value coef[0] at c->t (mc->xs, mc->xu),
   the zero rule's floor for S(0) (hdo_event_zero_order_at, decisions.md
   D-112): its enclosure when each input, a state, is known to its error
   hdo_run_var_scale, an algebraic unknown to those errors carried
   through h (hdo_reduced_unknown_error, D-124), and t to tol |t|, plus
   |coef[0] - the enclosure's midpoint|, plus after an event the change
   of S (coef[0..len)) within the event time's uncertainty.  0 when that
   is not known (an input neither, dh/du singular, or an enclosure
   fails): then the rule of D-016. */
int hdo_run_guard_value_floor(mpfr_t vf, run_ctx *c, mode_cache *mc,
                              slong g, mpfr_srcptr coef, slong len, int after);
/* The same at t (a decision point before c->t is moved there). */
int hdo_run_guard_value_floor_at(mpfr_t vf, run_ctx *c, mode_cache *mc,
                                 slong g, mpfr_srcptr coef, slong len,
                                 const mpfr_t t, int after);
/* out += sum_{k > order} C(k, order) |coef[k]| dt^(k - order) rounded up
   term by term (a guard coefficient's change within the event time's
   uncertainty dt, order 0 or 1; r, trad: 64-bit scratch), with the bits
   of that plain sum in any exponent range (floors.c, decisions.md
   D-134). */
void hdo_run_add_time_terms(mpfr_t out, mpfr_srcptr coef, slong len,
                            slong order, const mpfr_t dt, mpfr_t r,
                            mpfr_t trad);
/* The zero order of guard g's series coef (len coefficients) over H at
   a decision at time t (pattern.c, complementarity.c): D-016's rule
   (floor fl), with S(0) a value known to its own error (D-112, D-125)
   and, once that is a zero, S'(0) too (D-130); D-016's where an error
   is not known. */
slong hdo_run_guard_zero_order(run_ctx *c, mode_cache *mc, slong g,
                               mpfr_srcptr coef, slong len, const mpfr_t H,
                               mpfr_srcptr fl, const mpfr_t t, int after);
/* floor := guard g's floor at the driver's point (c->t, mc's state)
   with its inputs' drift over b instead of the step (hdo_run_guard_floors'
   rule over [0, b]); 1.  decisions.md D-131. */
int hdo_run_guard_floor_over(mpfr_t floor, run_ctx *c, mode_cache *mc, slong g,
                             const mpfr_t b);
/* The own error sf of guard g's slope S'(t) = coef[1] at time t: the
   enclosure of its time derivative along the mode's flow over the
   inputs' errors (as hdo_run_guard_value_floor_at's), plus, after an
   event, the slope's change within the event time's uncertainty; 0
   where S' is not known that way (a guard of an algebraic variable, an
   enclosure that fails).  decisions.md D-130. */
int hdo_run_guard_slope_floor_at(mpfr_t sf, run_ctx *c, mode_cache *mc,
                                 slong g, mpfr_srcptr coef, slong len,
                                 const mpfr_t t, int after);


/* sample.c */
void hdo_run_mode_values(mpfr_ptr values, int *present, const mode_cache *mc,
                         mpfr_srcptr xs, mpfr_srcptr xu);
slong hdo_run_res_mode(const run_ctx *c, slong m);
/* Adds a row of mode's values at t (to the result, or to the row sink);
   returns its index in the result's rows, or -1 (a sink).  Its
   magnitudes (hdo_row.mag) are the current step's when
   c->stepmag_valid, else they wait for the next step's
   (hdo_run_step_magnitudes). */
slong hdo_run_add_row(run_ctx *c, const mpfr_t t, slong mode, mpfr_srcptr xs,
                      mpfr_srcptr xu);
/* The current step (of the current mode, taken to the offset s_end)
   has magnitudes: per variable the largest |x| at its start and at a
   quarter, half, three quarters and its end (the dense output), into
   c->stepmag.  They are computed when a row first needs them (the
   rows waiting since a transition, or one of this step's), not on every
   step: most steps write no row.  Valid until hdo_run_stepmag_end (a
   transition: the rows after it belong to the next arc). */
void hdo_run_step_magnitudes(run_ctx *c, const mpfr_t s_end);
/* mc->ls, mc->lu := the state of the current mode's step at offset s:
   the magnitudes' own evaluation when they made it at that s in this
   step (an event's left limit: the end of the step taken), else the
   dense output's (issue 28: the same bits, evaluated once). */
void hdo_run_state_at_end(run_ctx *c, mode_cache *mc, const mpfr_t s);
void hdo_run_stepmag_end(run_ctx *c);
/* Raises the floors of row `to` (an event's right row) to those of row
   `from` (its left row, same instant): the event time's rounding (the
   time floor, sample.c) is in the state after it as before it, also
   when no step follows (a Zeno point ends the arc).  Rows < 0: none. */
void hdo_run_carry_floors(run_ctx *c, slong from, slong to);
void hdo_run_sample_time(mpfr_t out, const run_ctx *c, slong k);
void hdo_run_emit_samples(run_ctx *c, const mpfr_t limit, int inclusive);
void hdo_run_emit_samples_point(run_ctx *c, slong mode, mpfr_srcptr xs,
                                mpfr_srcptr xu, const mpfr_t limit,
                                int inclusive);
int hdo_run_setup_samples(run_ctx *c);
/* The samples at an event of guard g of mode m located at tstar (cli.md:
   a sample at an event's time is no row of its own, the event's two rows
   stand for it).  hdo_run_event_samples_begin sets c->event_clock and
   emits the samples of the current expansion that precede the event;
   hdo_run_skip_samples_at (transition.c) skips those at its time and
   writes one that follows it, though its rounded time does not, from
   the right limit (mode, xs, xu); hdo_run_event_samples_end clears
   c->event_clock. */
void hdo_run_event_samples_begin(run_ctx *c, slong m, slong g,
                                 const mpfr_t tstar);
void hdo_run_event_samples_end(run_ctx *c);
int hdo_run_sample_side(run_ctx *c, slong k, const mpfr_t tk,
                        const mpfr_t tstar);

/* kmreport.c */
void hdo_run_note_mode_used(run_ctx *c, slong m, const mpfr_t t);

/* reinit.c: consistent (re)initialisation of mode m at t from mc->xs,
   mc->xu and mc->fixed (*adjusted as hdo_consistent_init), with the
   Kunkel-Mehrmann fallback where Pryce's form is numerically singular. */
int hdo_run_reinit(run_ctx *c, slong m, const mpfr_t t, int *adjusted);
/* hdo_run_reinit in two parts: the consistent point alone (a mode only
   tried: complementarity.c), and the entry once it is taken (the first
   integrals' values, the mode's note in the result). */
int hdo_run_reinit_point(run_ctx *c, slong m, const mpfr_t t, int *adjusted);
void hdo_run_reinit_enter(run_ctx *c, slong m, const mpfr_t t);
/* The expansion of mode m, entered at t (consistent there), and H, the
   horizon of the zero rule: what the first step will expand and the
   step size it will take (the stepper keeps them), timed as
   integration, with the guards' floors.  0, or -1
   when it fails (the first step reports it). */
int hdo_run_expand_entered(run_ctx *c, slong m, const mpfr_t t, mpfr_t H);

/* pattern.c: at the start and after a `when`, the sign pattern of a mode
   with relations that the state selects (*m: a mode of the family on
   entry, its consistent state in hdo_run_mode_entry(c, *m); the chosen one on
   return, with the state moved there).  Returns 0 or a negative status. */
int hdo_run_pick_pattern(run_ctx *c, slong *m, const mpfr_t t);
/* pattern.c: at the start and after a `when`, in the mode m entered
   (consistent at t): a `when` of m whose switching function is zero at
   t and leaves into m's feasible side, towards a mode without relations
   that comes back across the same surface (hdo_run_same_surface), with
   no reset either way, and whose field leaves into its own feasible side
   too, is refused as HDO_ERR_NOT_UNIQUE (repulsive sliding: both modes
   continue).  Returns 0 or a negative status. */
int hdo_run_check_when_unique(run_ctx *c, slong m, const mpfr_t t);

/* transition.c */
void hdo_run_event_digits(run_ctx *c, mpfr_srcptr coef, slong len,
                          const mpfr_t H, const mpfr_t s);
void hdo_run_skip_samples_at(run_ctx *c, const mpfr_t t, slong mode,
                             mpfr_srcptr xs, mpfr_srcptr xu);
int hdo_run_take_transition_tr(run_ctx *c, slong src, const hdo_transition *tr,
                               slong k, const left_limit *L, const mpfr_t t,
                               hdo_event_kind kind);
int hdo_run_take_transition(run_ctx *c, slong src, slong k, const left_limit *L,
                            const mpfr_t t, hdo_event_kind kind);

/* zenodetect.c */
void hdo_run_hist_push(run_ctx *c, const mpfr_t t, slong src, slong g,
                       mpfr_srcptr ls, mpfr_srcptr lu);
/* 1 when the last 6 (ZENO_MIN_EVENTS) events of c->hist have strictly
   shrinking positive gaps, the last of them at most 10^6 ttol (equal
   included): an instantaneous event after them is an accumulation of
   event times.  Reads only c->nhist, c->hist[].t and c->prec. */
int hdo_run_gaps_shrinking(const run_ctx *c, const mpfr_t ttol);
/* The period of the livelock rule: hdo_zeno_period with 6 states per
   place (LIVELOCK_SAMPLES: the last 5p + 1 events) and p <= 4
   (LIVELOCK_MAX_PERIOD); 0 when there is none. */
slong hdo_run_livelock_period(const slong *src, const slong *g, slong n);
int hdo_run_zeno(run_ctx *c, slong src, const left_limit *L, const mpfr_t tn);
int hdo_run_guard_leaves_at(run_ctx *c, slong m, slong g, mpfr_srcptr xs,
                            mpfr_srcptr xu, const mpfr_t t);
int hdo_run_livelock(run_ctx *c, slong src, slong g, const left_limit *L,
                     const mpfr_t tn, const mpfr_t ttol, int *taken);
void hdo_run_hist_clear(run_ctx *c);

/* filippov.c */
int hdo_run_sliding_pair(run_ctx *c, slong src, slong g, const left_limit *L,
                         const mpfr_t t);
int hdo_run_sliding_get(run_ctx *c, slong a, slong b, const mpfr_t t,
                        slong *idx);
int hdo_run_sliding_enter(run_ctx *c, slong src, slong g, const left_limit *L,
                          const mpfr_t t);
int hdo_run_enter_slot(run_ctx *c, slong src, slong m, const left_limit *L,
                       const mpfr_t t, hdo_event_kind kind, const char *text);

/* intersect.c */
/* The numeric part of the test for a surface G simply crossed while
   sliding (intersect.c, plain_crossing), thr = sqrt(tol) at prec: v[0]
   = L G (the sliding field's), v[1] = L' G' (the field across, G' the
   guard back), v[2..n) the weights beta = 2 alpha - 1 across; 1 when
   v[0] < -thr, v[1] > thr and every |beta| < 1 - thr. */
int hdo_run_plain_crossing_test(mpfr_srcptr v, slong n, const mpfr_t tol,
                                mpfr_prec_t prec);
int hdo_run_intersect_reach(run_ctx *c, slong m, slong g, const left_limit *L,
                            const mpfr_t t);
int hdo_run_intersect_leave(run_ctx *c, slong m, slong j, int to_far,
                            const left_limit *L, const mpfr_t t);

/* complementarity.c: entering mode *m (its cache prepared with the
   entry state: kept and assigned values fixed, the rest guesses, not yet
   consistent) at t.  Without complementarity conditions: the consistent
   reinitialisation (hdo_run_reinit, *adjusted as there), then, when
   pick_relations, the sign pattern (hdo_run_pick_pattern).  With them:
   the active set of the block that continues from the entry state
   (docs/model-format.md, "Complementarity": every active set is tried,
   the one whose inequalities all stay on their side by the zero rule is
   taken; none, or several with different solutions, or the others
   excluded only at a Taylor order above HDO_CP_MAX_ORDER, is
   HDO_ERR_NOT_UNIQUE naming the block, the mode and t), no kept value
   changed (*adjusted = 0; HDO_RUN_IMPACT when contacts with restitution
   took an impulse first: the state jumped by Newton's law), then the
   sign pattern, the active set decided anew while the pattern changes.  *m is the mode entered, consistent at
   t.  Returns 0 or a negative status. */
#define HDO_CP_MAX_ORDER 2
#define HDO_RUN_IMPACT 2
/* Blocks of up to HDO_CP_ENUM conditions try every active set; larger
   ones ask Lemke's method on the problem at the point first
   (complementarity.c, lemke_candidates). */
#define HDO_CP_ENUM 6
int hdo_run_enter(run_ctx *c, slong *m, const mpfr_t t, int *adjusted,
                  int pick_relations);

/* event.c */
int hdo_run_handle_event(run_ctx *c, slong g, const mpfr_t s, int simultaneous);
/* The event of guard g of the current sliding mode at offset s (a
   pair's alpha leaving [0, 1], or intersect.c's surfaces). */
int hdo_run_sliding_event(run_ctx *c, slong g, const mpfr_t s);

/* run.c: 1 when the event at offset root of the last step (length h,
   from c->t to c->t_end) lies within the time tolerance of t_end,
   tol max(1, |t_end|) (equal included): it is not taken. */
int hdo_run_event_at_end(const run_ctx *c, const mpfr_t h, const mpfr_t root);

#endif
