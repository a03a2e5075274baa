/* cmp.h -- private: the state of one comparison of golden references,
   its differences and numbers (cmp.c), shared by summary.c (summary.json
   and ref.json) and compare.c (the tables), each calling only those
   before it */
#ifndef HDO_GOLDEN_CMP_H
#define HDO_GOLDEN_CMP_H

#include <mpfr.h>
#include "golden.h"
#include "golden/json.h"

typedef struct {
    hdo_golden_cmp_struct *c;
    int shown[HDO_GOLDEN_NFILES]; /* differences kept per file */
    int oom;                      /* HDO_ERR_MEMORY once memory ran out */
    mpfr_prec_t prec;
    int live; /* the numbers below are initialised */
    mpfr_t a, b, diff, den, d, tscale, one;
    mpfr_t *scale; /* per column of the stored trajectory */
    slong nscale;
    /* summary.json of both sides, and what they were parsed from */
    hdo_json sa, sb;
    const char *ta, *tb;
    const hdo_golden_files_struct *stored, *fresh;
    /* ref.json of both sides, read when both have one (records) */
    int records;
    hdo_golden_record ra, rb;
} gcmp;

/* A difference in file, of part (message printf-style), counted; kept
   while fewer than HDO_GOLDEN_SHOWN of file are.  0, or HDO_ERR_MEMORY
   (also left in x->oom). */
int gcmp_diff(gcmp *x, int file, int part, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A note ("steps 33 -> 35"), joined to the others by "; ". */
int gcmp_note(gcmp *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The finite decimal number s (the whole string) into v: 0, or -1. */
int gcmp_parse(mpfr_t v, const char *s);
/* x->d = the agreeing digits of a and b against scale (golden.h). */
void gcmp_digits(gcmp *x, const mpfr_t a, const mpfr_t b, const mpfr_t scale);
/* Compares the numbers sa (stored) and sb (fresh) against scale: a
   difference "LABEL: stored A, fresh B: D digits (need N)" when they
   agree to fewer than need digits (or are not numbers); x->c->worst
   follows.  0 or HDO_ERR_MEMORY. */
int gcmp_number(gcmp *x, int file, int part, const char *label,
                const char *sa, const char *sb, const mpfr_t scale);

/* summary.c: both summaries parsed (HDO_ERR_INPUT at the place that is
   not JSON, or not an object); the stored digits (the cap; need + 5
   when it has none); the ref.json options of both sides, when both have
   one; the keys of the run's setting (model, digits, t0, t_end,
   parameters, overrides); the other keys; and the summaries freed. */
int gcmp_summaries_read(gcmp *x, const hdo_golden_files_t stored,
                        const hdo_golden_files_t fresh, hdo_error_t *err);
long gcmp_stored_digits(const gcmp *x, long need);
void gcmp_records(gcmp *x);
void gcmp_summary_setup(gcmp *x);
void gcmp_summary_rest(gcmp *x);
void gcmp_summaries_clear(gcmp *x);

#endif
