/* radau_dot.h -- private to ref/step: Radau IIA's products with its fixed
 * matrix A (the stage residual), as fixed-point dot products */
#ifndef HDO_STEP_RADAU_DOT_H
#define HDO_STEP_RADAU_DOT_H

#include "step.h"

/* The most limbs an entry the residual's rows are summed by columns
   with (radau_dot.c's exact_cols); longer ones by mpn_addmul_1. */
#define HDO_RADAU_COLS HDO_DOT_LIMBS_MAX

/* The collocation matrix A (s x s), its integer forms (fixed point
   with 64 l fraction bits, l = 1..lmax, made on first use), and room
   for the stages' right-hand sides (s x n) as integers. */
typedef struct {
    slong s, n, lmax;
    mpfr_ptr A;
    long ashift; /* the integer forms are of 2^-ashift A (0 but for the
                    predictor's powers) */
    mpz_ptr *Az; /* lmax + 1 entries */
    mpz_t *Fz, acc;
    mp_ptr pos, neg; /* nacc limbs each: a row's accumulators */
    slong nacc;
    /* A's integer forms of l <= HDO_RADAU_COLS limbs packed, l limbs an
       entry, and their signs; a column of F so (radau_dot.c's product
       scanning) */
    mp_limb_t *Al[HDO_RADAU_COLS + 1], *fl;
    unsigned char *As[HDO_RADAU_COLS + 1], *fs;
    int no_cols; /* tests: every row by mpn_addmul_1 */
    mpfr_t t;
    /* hdo_radau_dot_residual_next's memory (s x n each): the F of the
       last residual, and that residual less Z's change since */
    mpfr_ptr Fp, Rp;
    slong nmem; /* their entries: s n, or 0 (hdo_radau_dot_init_products) */
} hdo_radau_dot;

/* z := x 2^shift rounded to the nearest integer, ties to even: what
   mpfr_mul_2si then mpfr_get_z (MPFR_RNDN) give, read off x's
   significand's limbs (that pair cost 1,100 instructions an entry, 5% of
   the ring modulator's run at 16 digits; decisions.md D-097); 0 for a
   NaN or an infinity. */
void hdo_radau_fixed(mpz_t z, mpfr_srcptr x, long shift);
/* Copies the s x s matrix A (exactly) for stages of n components. */
void hdo_radau_dot_init(hdo_radau_dot *d, const hdo_mat_t A, slong n);
/* The same for products alone (hdo_radau_dot_apply,
   hdo_radau_dot_powers): without the residual's memories (2 s n
   numbers) that hdo_radau_dot_residual_next, _keep and _moved use */
void hdo_radau_dot_init_products(hdo_radau_dot *d, const hdo_mat_t A, slong n);
void hdo_radau_dot_clear(hdo_radau_dot *d);
/* out_mk := sum_j x_m^j F_jk for m, j <= s (d made for s + 1 rows:
   the powers 1, x_m, .., x_m^s of the s + 1 abscissae x, F and out of
   (s + 1) x n entries, stage-major; out not F), each one dot product
   rounded once.  The powers become d's matrix V (at d's precision, each
   rounded as mpfr_mul rounds), its integer forms taken below 2^vexp >
   |V|; F's columns in integers of prec + vexp bits below their largest
   entry.  Its error: F's rounding, 2^-prec of its column's largest
   |F_jk| a term whatever V's size; V's roundings, relative to each term
   |x_m^j F_jk| (j + 1 of d's precision, and 64 l fraction bits below
   2^vexp, l at most d's lmax limbs).  A NaN or infinite F_jk is read
   as 0 (hdo_radau_fixed): the callers' F are an accepted step's. */
void hdo_radau_dot_powers(mpfr_ptr out, hdo_radau_dot *d, mpfr_srcptr x,
                          mpfr_srcptr F, long prec);
/* out_ik := 2^scale sum_j a_ij F_jk for i < s and the columns k <
   ncols (out and F of s x n entries, stage-major; out not F), each one
   dot product rounded once to out's precision: F's column k in integers
   of prec bits below its largest entry (at least 64), A in integers of
   64 l >= prec fraction bits (at most lmax limbs), their products summed
   exactly.  Its error: A's and F's roundings to those integers.  The
   scale is applied to the exact sum, so a matrix kept as 2^-scale A
   (|entries| < 1) costs no intermediate beyond the exponent range. */
void hdo_radau_dot_apply(mpfr_ptr out, hdo_radau_dot *d, mpfr_srcptr F,
                         slong ncols, long prec, long scale);
/* R_ik := h sum_j a_ij F_jk - Z_ik for the stages i < s and the
   components k < nstate (the others, a DAE mode's algebraic rows, are
   not touched), F, Z and R of s x n entries (stage-major).  The sum is
   one dot product rounded once (exact in GMP integers), to a precision whose
   rounding is 2^-32 of ntol (> 0) relative to the larger of |Z| and
   |h F|, at most R's: the residual needs an absolute accuracy below the
   Newton iteration's stopping tolerance ntol, not R's relative one.
   ntol = 0: R's precision. */
void hdo_radau_dot_residual(mpfr_ptr R, hdo_radau_dot *d, const mpfr_t h,
                            mpfr_srcptr F, mpfr_srcptr Z, slong nstate,
                            const mpfr_t ntol);

/* The same residual for the next Newton iterate from the last one's
   (decisions.md D-123): with Fp the F of the last residual R' (kept by
   hdo_radau_dot_keep) and Rp = dZ - R' (dZ the change of Z since,
   hdo_radau_dot_moved), R := h (A (x) I) (F - Fp) - Rp, which is h (A
   (x) I) F - Z again; the dot products act on F's change, whose
   magnitude is far below F's near convergence, so the precision rule
   above asks fewer bits of them for the same absolute accuracy (2^-32
   ntol, plus R''s own).  Fp := F - Fp on return. */
void hdo_radau_dot_residual_next(mpfr_ptr R, hdo_radau_dot *d, const mpfr_t h,
                                 mpfr_srcptr F, slong nstate,
                                 const mpfr_t ntol);
/* Fp := F and Rp := R (the residual just computed), the rows k <
   nstate. */
void hdo_radau_dot_keep(hdo_radau_dot *d, mpfr_srcptr F, mpfr_srcptr R,
                        slong nstate);
/* The same, F's rows k < nstate exchanged into Fp rather than copied
   (F's values there are then Fp's old ones: for a caller that evaluates
   F again before it reads it; decisions.md D-128). */
void hdo_radau_dot_keep_swap(hdo_radau_dot *d, mpfr_ptr F, mpfr_srcptr R,
                             slong nstate);
/* Rp := dZ - Rp, dZ the increment added to Z after the kept residual. */
void hdo_radau_dot_moved(hdo_radau_dot *d, mpfr_srcptr dZ, slong nstate);

#endif
