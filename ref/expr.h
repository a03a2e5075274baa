/* expr.h -- expression graphs: a hash-consed DAG of real expressions with
   exact rational constants, MPFR evaluation, symbolic derivatives and
   Taylor-mode automatic differentiation over a flat instruction list. */
#ifndef HDO_EXPR_H
#define HDO_EXPR_H

#include <stdio.h>
#include <stdint.h>
#include <mpfr.h>
#include <flint/flint.h>
#include <flint/fmpq.h>
#include "status.h" /* the HDO_ERR_* codes its functions return */

#ifdef __cplusplus
extern "C" {
#endif

/* A node of a pool is named by its index.  Nodes are appended after their
   children, so increasing index is a topological order; equal
   sub-expressions are the same node (hash-consing), which keeps
   derivative arrays from growing exponentially and gives common
   sub-expression elimination for free. */
typedef int32_t hdo_expr;
#define HDO_EXPR_NONE ((hdo_expr)-1)

/* The table of expression kinds: one row per kind, in enum order.  A row
   is X(SUFFIX, name, arity, syntax, precedence):
   - SUFFIX names the kind HDO_X_SUFFIX;
   - name is its spelling: what the lexer reads and the printer writes
     for a builtin function ("sin"), the operator for the others ("+");
   - arity is its number of operands (node fields a, b), 0 for leaves;
   - syntax says how it is written (HDO_SYNTAX_*): a CALL kind is a
     builtin function of the model language, name(arg, ...), found by the
     lexer and parser through this table;
   - precedence is its binding strength for the printer (HDO_PREC_*).
   The rules of a kind (MPFR evaluation in program.c, symbolic derivative
   in diff.c, Taylor recurrence in autodiff.c, Arb ball in constant.c,
   exact test in exact.c, folding in construct.c) are cases of switches
   that have no default: the build (-Werror=switch) refuses a kind that
   lacks one.  docs/internals.md says how to add a builtin. */
#define HDO_EXPR_KINDS(X)                                                      \
    X(CONST, "const", 0, HDO_SYNTAX_LEAF, HDO_PREC_ATOM) /* pool->consts[a] */ \
    X(PI, "pi", 0, HDO_SYNTAX_LEAF, HDO_PREC_ATOM)                             \
    X(TIME, "t", 0, HDO_SYNTAX_LEAF, HDO_PREC_ATOM)                            \
    X(VAR, "var", 0, HDO_SYNTAX_LEAF, HDO_PREC_ATOM) /* var a, order b */      \
    X(ADD, "+", 2, HDO_SYNTAX_INFIX, HDO_PREC_SUM)                             \
    X(SUB, "-", 2, HDO_SYNTAX_INFIX, HDO_PREC_SUM)                             \
    X(MUL, "*", 2, HDO_SYNTAX_INFIX, HDO_PREC_PROD)                            \
    X(DIV, "/", 2, HDO_SYNTAX_INFIX, HDO_PREC_PROD)                            \
    X(POW, "^", 2, HDO_SYNTAX_INFIX, HDO_PREC_POW)                             \
    X(NEG, "neg", 1, HDO_SYNTAX_PREFIX, HDO_PREC_NEG)                          \
    X(SIN, "sin", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                           \
    X(COS, "cos", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                           \
    X(TAN, "tan", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                           \
    X(ASIN, "asin", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                         \
    X(ACOS, "acos", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                         \
    X(ATAN, "atan", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                         \
    X(EXP, "exp", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                           \
    X(LOG, "log", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                           \
    X(SQRT, "sqrt", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                         \
    X(SINH, "sinh", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                         \
    X(COSH, "cosh", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                         \
    X(TANH, "tanh", 1, HDO_SYNTAX_CALL, HDO_PREC_ATOM)                         \
    /* piecewise expressions (ref/expr/piecewise.c): a relation D >= 0 or      \
       D > 0 on its switching function a = D; not, and, or of conditions       \
       (value 1 or 0); if C then A else B as IF(C, ELSE(A, B)), ELSE only      \
       ever the second operand of an IF */                                     \
    X(GE, ">=", 1, HDO_SYNTAX_COND, HDO_PREC_ATOM)                             \
    X(GT, ">", 1, HDO_SYNTAX_COND, HDO_PREC_ATOM)                              \
    X(NOT, "not", 1, HDO_SYNTAX_COND, HDO_PREC_ATOM)                           \
    X(AND, "and", 2, HDO_SYNTAX_COND, HDO_PREC_ATOM)                           \
    X(OR, "or", 2, HDO_SYNTAX_COND, HDO_PREC_ATOM)                             \
    X(IF, "if", 2, HDO_SYNTAX_COND, HDO_PREC_ATOM)                             \
    X(ELSE, "else", 2, HDO_SYNTAX_COND, HDO_PREC_ATOM)

/* How a kind is written (the table's syntax column). */
enum {
    HDO_SYNTAX_LEAF,   /* a constant, pi, t or a variable */
    HDO_SYNTAX_INFIX,  /* a op b */
    HDO_SYNTAX_PREFIX, /* -a */
    HDO_SYNTAX_CALL,   /* a builtin function: name(a) or name(a, b) */
    HDO_SYNTAX_COND    /* a relation, condition or `if`: the printer's and
                          the parser's own cases (abs, sign, min, max are
                          built from IF, not kinds) */
};

/* Binding strength for printing: 1 sum, 2 product, 3 unary minus, 4
   power, 5 atom (the table's precedence column). */
enum {
    HDO_PREC_SUM = 1,
    HDO_PREC_PROD,
    HDO_PREC_NEG,
    HDO_PREC_POW,
    HDO_PREC_ATOM
};

#define HDO_X_ENUM_(suffix, name, arity, syntax, prec) HDO_X_##suffix,
typedef enum { HDO_EXPR_KINDS(HDO_X_ENUM_) } hdo_expr_kind;
#undef HDO_X_ENUM_
/* The number of kinds: not an enumerator of hdo_expr_kind, so that a
   switch over the kinds needs no case for it. */
#define HDO_X_COUNT_(suffix, name, arity, syntax, prec) +1
enum { HDO_X_NKINDS = 0 HDO_EXPR_KINDS(HDO_X_COUNT_) };
#undef HDO_X_COUNT_

/* One row of the table. */
typedef struct {
    const char *name;
    int arity;
    int syntax;
    int prec;
} hdo_expr_kind_info;

/* The table itself, indexed by kind (ref/expr/kinds.c). */
extern const hdo_expr_kind_info hdo_expr_kind_table[HDO_X_NKINDS];
/* The number of operands of kind (0 for leaves). */
static inline int
hdo_expr_kind_arity(hdo_expr_kind kind)
{
    return hdo_expr_kind_table[kind].arity;
}
/* The builtin function (a CALL kind) spelt s[0..len), or -1. */
int hdo_expr_kind_lookup(const char *s, size_t len);

typedef struct {
    hdo_expr_kind kind;
    int32_t a, b; /* children, or const index, or (variable, order) */
} hdo_expr_node;

typedef struct {
    hdo_expr_node *nodes;
    slong len, alloc;
    fmpq *consts;
    slong nconsts, consts_alloc;
    int32_t *table; /* open-addressing hash table of node indices */
    slong table_size;
    void *memo; /* derivative caches, owned by the pool ... */
    void (*memo_free)(void *memo); /* ... and freed by this at clear */
    void *series; /* the programs' shared series (share.c), not copied */
} hdo_expr_pool_struct;
typedef hdo_expr_pool_struct hdo_expr_pool_t[1];

void hdo_expr_pool_init(hdo_expr_pool_t pool);
void hdo_expr_pool_clear(hdo_expr_pool_t pool);
/* Initialises dst as a copy of src: the same nodes under the same
   indices, the same constants, hash table and derivative cache, so that
   every expression of src names the same expression in dst and dst
   grows (derivatives, substitutions) without touching src.  src is only
   read, so several threads may copy one pool at once (hdo_run does, to
   leave the parsed model unchanged).  dst is cleared with
   hdo_expr_pool_clear. */
void hdo_expr_pool_init_copy(hdo_expr_pool_t dst, const hdo_expr_pool_t src);

/* Constructors.  Each returns the node for the expression after light
   simplification: exact folding of rational constants (including integer
   powers), x+0, x*1, x*0, x^1, x^0, -(-x), x-x, x/x is NOT folded (it
   would hide a division by zero).  Non-rational constants (pi, sqrt(2))
   stay symbolic.  Constructors never fail except for memory.  A
   division by an exact zero constant or 0^negative is kept as a node:
   hdo_expr_const_check() reports it.  The constructors by kind
   (hdo_expr_unary, hdo_expr_binary) are in ref/expr/construct.c, the
   arithmetic ones (add ... pow, neg) in ref/expr/arith.c. */
hdo_expr hdo_expr_const_fmpq(hdo_expr_pool_t pool, const fmpq_t q);
hdo_expr hdo_expr_const_si(hdo_expr_pool_t pool, slong num, ulong den);
hdo_expr hdo_expr_pi(hdo_expr_pool_t pool);
hdo_expr hdo_expr_time(hdo_expr_pool_t pool);
hdo_expr hdo_expr_var(hdo_expr_pool_t pool, slong var, slong order);
hdo_expr hdo_expr_unary(hdo_expr_pool_t pool, hdo_expr_kind kind, hdo_expr a);
hdo_expr hdo_expr_binary(hdo_expr_pool_t pool, hdo_expr_kind kind, hdo_expr a,
                         hdo_expr b);
hdo_expr hdo_expr_add(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b);
hdo_expr hdo_expr_sub(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b);
hdo_expr hdo_expr_mul(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b);
hdo_expr hdo_expr_div(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b);
hdo_expr hdo_expr_pow(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b);
hdo_expr hdo_expr_neg(hdo_expr_pool_t pool, hdo_expr a);

/* Piecewise expressions (constructors: ref/expr/piecewise.c; the
   relations of an expression and hdo_expr_select, which rewrite a graph:
   ref/expr/substitute.c).  A relation is stored
   as D >= 0 or D > 0 (strict != 0) with its switching function D in a
   canonical form, so that a < b, b > a, a >= b and -(a - b) > 0 share one
   D: a negated D (NEG(y)) or a difference y - z with y after z in the
   pool becomes the negation of the opposite relation on -D.  A relation
   on a rational constant folds to the constant 1 or 0; and/or/not fold
   on constants; an `if` whose condition is a constant folds to its
   branch, and one with equal branches to that branch.  (A constant
   condition that is not rational, pi > 3, stays a node: the parser
   decides it exactly with hdo_expr_const_sign and folds it.) */
hdo_expr hdo_expr_rel(hdo_expr_pool_t pool, int strict, hdo_expr d);
hdo_expr hdo_expr_not(hdo_expr_pool_t pool, hdo_expr c);
hdo_expr hdo_expr_and(hdo_expr_pool_t pool, hdo_expr c1, hdo_expr c2);
hdo_expr hdo_expr_or(hdo_expr_pool_t pool, hdo_expr c1, hdo_expr c2);
hdo_expr hdo_expr_if(hdo_expr_pool_t pool, hdo_expr c, hdo_expr a, hdo_expr b);
/* abs(x) = if x >= 0 then x else -x; sign(x) = if x > 0 then 1 else if
   x < 0 then -1 else 0; min(a, b) = if a <= b then a else b; max(a, b) =
   if a >= b then a else b. */
hdo_expr hdo_expr_abs(hdo_expr_pool_t pool, hdo_expr x);
hdo_expr hdo_expr_sign(hdo_expr_pool_t pool, hdo_expr x);
hdo_expr hdo_expr_min(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b);
hdo_expr hdo_expr_max(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b);
/* Appends to *d (flint_realloc'd, *n entries, *alloc capacity) the
   switching functions D of the relations in e that are not in it yet,
   in the order of a depth-first walk (children first), so that the
   relations of several roots collected in file order come in file
   order. */
void hdo_expr_relations(hdo_expr **d, slong *n, slong *alloc,
                        const hdo_expr_pool_t pool, hdo_expr e);
/* e with every relation on d[j] replaced by the constant its side
   bits[j] gives it (1: D_j on its >= side, true for both D_j >= 0 and
   D_j > 0; 0: D_j < 0, false for both; HDO_REL_ZERO: D_j = 0
   identically, where D_j >= 0 is true and D_j > 0 false, so sign(D_j)
   is 0), and the `if`s whose conditions become constant by their
   branch: the smooth expression of one sign pattern.  Relations on
   other D stay. */
#define HDO_REL_ZERO 2
hdo_expr hdo_expr_select(hdo_expr_pool_t pool, hdo_expr e, const hdo_expr *d,
                         const int *bits, slong n);
/* ORs into kinds[j] 1 when e holds the relation D_j >= 0 and 2 when it
   holds D_j > 0 (d[0..n) as for hdo_expr_select).  A relation whose
   kinds are 3 (sign, or both strictnesses) has a value at D_j = 0 that
   neither side's pattern gives. */
void hdo_expr_relation_kinds(int *kinds, const hdo_expr_pool_t pool, hdo_expr e,
                             const hdo_expr *d, slong n);
/* 1 if e contains a relation (so an `if`, abs, sign, min or max). */
int hdo_expr_has_relation(const hdo_expr_pool_t pool, hdo_expr e);
/* The sign (-1, 0, 1) of a constant expression, exactly: Arb balls up
   to 16384 bits, Calcium where a ball keeps containing zero (as
   hdo_expr_const_examine).  Returns 0, or -1 when it cannot be decided
   or the expression is undefined. */
int hdo_expr_const_sign(int *sign, const hdo_expr_pool_t pool, hdo_expr e);

/* Queries. */
static inline const hdo_expr_node *
hdo_expr_node_get(const hdo_expr_pool_t pool, hdo_expr e)
{
    return pool->nodes + e;
}
int hdo_expr_is_rational(const hdo_expr_pool_t pool, hdo_expr e);
/* Sets q to the value of a rational constant node; returns 0, or -1 if
   e is not a rational constant (an answer, not a status: q is then
   unchanged). */
int hdo_expr_get_fmpq(fmpq_t q, const hdo_expr_pool_t pool, hdo_expr e);
/* 1 if e contains no variable and no time (only constants and pi). */
int hdo_expr_is_constant(const hdo_expr_pool_t pool, hdo_expr e);
/* Highest derivative order of variable var in e, -1 if var is absent. */
slong hdo_expr_max_order(const hdo_expr_pool_t pool, hdo_expr e, slong var);
/* 1 if e depends on time explicitly (contains a TIME node). */
int hdo_expr_has_time(const hdo_expr_pool_t pool, hdo_expr e);
/* Calls f(var, order, data) once for each distinct variable node in e. */
void hdo_expr_foreach_var(const hdo_expr_pool_t pool, hdo_expr e,
                          void (*f)(slong var, slong order, void *data),
                          void *data);

/* Why a constant expression is refused (hdo_expr_const_examine). */
enum {
    HDO_CONST_OK = 0,
    HDO_CONST_UNDEFINED, /* division by zero, log(0), sqrt(-1), tan(pi/2) */
    HDO_CONST_OVERFLOW,  /* beyond MPFR's exponent range: would be inf */
    HDO_CONST_UNDERFLOW, /* nonzero but below MPFR's range: would be 0 */
    HDO_CONST_UNDECIDED  /* a ball that stays around a bad value */
};

typedef struct {
    int reason;            /* HDO_CONST_* */
    hdo_expr bad;          /* the offending node when reason != OK */
    hdo_expr assumed_zero; /* a node taken as zero without a proof, or
                              HDO_EXPR_NONE */
} hdo_const_report;

/* Examines a constant expression (no variables, no time): a division by
   zero or a domain error (log of a non-positive, sqrt of a negative,
   asin outside [-1, 1], 0^negative, a pole of tan ...), decided with
   Arb balls up to 16384 bits, and exactly with Calcium where a ball
   contains zero (sin(pi), sqrt(2)^2 - 2 and exp(log(2)) - 2 are exactly
   zero, so 1/sin(pi) is a division by zero).  A value Calcium cannot
   decide is taken as zero when its ball lies within 2^-16000 of zero;
   rep->assumed_zero then names it, for a warning.  With range != 0 the
   value must also fit MPFR's exponent range (exp(10^10) overflows).
   Returns 0 if the expression is well defined, else HDO_ERR_DOMAIN with
   rep->reason (undefined, out of range or undecided) and rep->bad set. */
int hdo_expr_const_examine(hdo_const_report *rep, const hdo_expr_pool_t pool,
                           hdo_expr e, int range);
/* A cache for callers that examine many nested constants (the parser
   examines each node as it is built): every node's ball at the first
   precision, and Calcium's zero decisions, are kept, so that a chain of
   n constants costs O(n) evaluations, not O(n^2).  Valid for one pool,
   whose nodes never change. */
typedef struct {
    void *balls; /* arb_ptr, indexed by node */
    char *valid;
    signed char *zero;
    slong alloc;
} hdo_const_cache_struct;
typedef hdo_const_cache_struct hdo_const_cache_t[1];
void hdo_const_cache_init(hdo_const_cache_t c);
void hdo_const_cache_clear(hdo_const_cache_t c);
int hdo_expr_const_examine_cached(hdo_const_report *rep,
                                  const hdo_expr_pool_t pool, hdo_expr e,
                                  int range, hdo_const_cache_t cache);
/* The same without the range check; returns 0, or HDO_ERR_DOMAIN and
   sets *bad. */
int hdo_expr_const_check(const hdo_expr_pool_t pool, hdo_expr e, hdo_expr *bad);

/* Sets r to the value of the constant expression e, correctly rounded
   for rational constants and pi, and faithfully (within one ulp) for
   anything else, at the precision of r; an exact zero (decided as in
   hdo_expr_const_examine, the fallback's threshold being the larger of
   2^-16000 and 2^(-4 prec)) is 0.  Returns 0, or HDO_ERR_DOMAIN on a
   domain error, a value beyond MPFR's exponent range or one no precision
   up to the cap decides (r is then unchanged). */
int hdo_expr_eval_constant(mpfr_t r, const hdo_expr_pool_t pool, hdo_expr e);

/* Symbolic differentiation.  Results are memoized in the pool.
   hdo_expr_diff: partial derivative with respect to the order-th time
   derivative of variable var (order 0: the variable itself).
   hdo_expr_diff_time: partial derivative with respect to explicit t.
   hdo_expr_total_derivative: d/dt along a trajectory:
     de/dt = de/dt|explicit + sum over (v,k) in e of de/dx_v^(k) * x_v^(k+1),
   so higher derivatives appear as new VAR nodes of order k+1. */
hdo_expr hdo_expr_diff(hdo_expr_pool_t pool, hdo_expr e, slong var,
                       slong order);
hdo_expr hdo_expr_diff_time(hdo_expr_pool_t pool, hdo_expr e);
hdo_expr hdo_expr_total_derivative(hdo_expr_pool_t pool, hdo_expr e);

/* Substitution: every VAR(var, order) node (for _many: every node
   from[i], which must be VAR nodes or the TIME node) replaced by repl
   (to[i]), simultaneously, and the expression rebuilt with
   simplification. */
hdo_expr hdo_expr_substitute(hdo_expr_pool_t pool, hdo_expr e, slong var,
                             slong order, hdo_expr repl);
hdo_expr hdo_expr_substitute_many(hdo_expr_pool_t pool, hdo_expr e,
                                  const hdo_expr *from, const hdo_expr *to,
                                  slong n);

/* Printing in the model language (re-parseable): der(x), der(der(x)) for
   higher orders; rationals whose denominator is 2^a 5^b as decimals
   (9.81), others as 1/3; minimal parentheses.  var_names[i] names
   variable i.  Returns a string allocated with flint_malloc-compatible
   malloc(); the caller frees it with free(). */
char *hdo_expr_to_string(const hdo_expr_pool_t pool, hdo_expr e,
                         const char *const *var_names);
/* The table's name of kind: "sin", "+", ...; "?" if kind is none. */
const char *hdo_expr_kind_name(hdo_expr_kind kind);

/* ------------------------------------------------------------------ */
/* Flat programs: a set of root expressions compiled once into an
   instruction list over slots (node order), with constants rounded once
   at the program's precision.  Evaluation at a point and Taylor-mode AD
   both run over this list without recursion.

   Inputs are the distinct VAR nodes of the roots, listed in
   prog->inputs (variable, order); the caller writes their values (or
   Taylor coefficients) into the input slots before evaluating. */

typedef struct {
    slong var, order;
    slong slot;
} hdo_program_input;

typedef struct {
    hdo_expr_kind kind;
    slong a, b; /* operand slots (or constant slot) */
    slong aux;  /* first auxiliary series (e.g. cos for sin in Taylor
                   mode), an index into the aux coefficients, or -1 */
    slong naux;
    slong twin;  /* Taylor mode: an earlier slot, sin(a) for cos(a) (sinh
                    and cosh alike), whose series and companion are this
                    one's companion and series, or -1 */
    int int_pow; /* POW with a small integer exponent ipow */
    slong ipow;
    hdo_expr node; /* pool node, for error messages */
    /* Taylor mode with a shared series cache (hdo_program_taylor_share):
       share_ok for a unary function of t alone (sin(2 pi t/T)); the entry
       of the cache its coefficients 0..share_len-1 are, and that entry's
       generation then (share_entry -1: none) */
    int share_ok;
    slong share_entry, share_len;
    ulong share_gen;
} hdo_program_instr;

typedef struct {
    mpfr_prec_t prec;
    slong nslots;
    hdo_program_instr *code; /* one per slot; inputs/consts are no-ops */
    slong ninputs;
    hdo_program_input *inputs;
    slong nroots;
    slong *root_slot;
    slong time_slot; /* -1 if time does not occur */
    mpfr_t *value;   /* nslots point values */
    /* Taylor mode: nslots x (order+1) coefficients, allocated on demand */
    slong taylor_order;
    mpfr_t *coef; /* coef[slot * (taylor_order + 1) + k] */
    slong naux;
    mpfr_t *auxcoef; /* auxiliary series, same layout */
    slong nops;
    slong *ops;    /* Taylor mode: the slots with operands, in slot order */
    mpfr_t tmp[3]; /* scratch */
    void *share;   /* Taylor mode: the pool's series cache, or NULL */
} hdo_program_struct;
typedef hdo_program_struct hdo_program_t[1];

void hdo_program_init(hdo_program_t prog, const hdo_expr_pool_t pool,
                      const hdo_expr *roots, slong nroots, mpfr_prec_t prec);
void hdo_program_clear(hdo_program_t prog);

/* Encloses the value of e, an expression of the variables and derivatives
   listed in inputs (as in a program) and of t, when input q lies in
   in_mid[q] +- in_rad[q] (in_rad NULL: exactly in_mid[q]) and t in
   t +- t_rad: Arb balls at prec bits.  Sets mid and rad (rounded up) and
   returns 0, or returns HDO_ERR_DOMAIN when the enclosure meets a pole
   or leaves a domain (1/x with x within its radius of 0), or an input is
   missing.  It measures how the value of a reset, or of a switching
   function, depends on the error of the state it is evaluated on. */
int hdo_expr_enclose(mpfr_t mid, mpfr_t rad, const hdo_expr_pool_t pool,
                     hdo_expr e, const hdo_program_input *inputs,
                     mpfr_srcptr in_mid, mpfr_srcptr in_rad, slong ninputs,
                     const mpfr_t t, const mpfr_t t_rad, slong prec);
/* hdo_expr_enclose by the walk over e's nodes alone, which it skips for
   a small expression of constants, t, inputs, +, -, * and negation
   (the same Arb operations on the same balls: the same bits, D-116;
   tests/expr/constants.c holds the two against each other). */
int hdo_expr_enclose_walk(mpfr_t mid, mpfr_t rad, const hdo_expr_pool_t pool,
                          hdo_expr e, const hdo_program_input *inputs,
                          mpfr_srcptr in_mid, mpfr_srcptr in_rad, slong ninputs,
                          const mpfr_t t, const mpfr_t t_rad, slong prec);

/* Point evaluation.  Set prog->value[prog->inputs[i].slot] for every
   input and t (if prog->time_slot >= 0), then call this.  Root i's value
   is prog->value[prog->root_slot[i]].  Returns 0, or HDO_ERR_DOMAIN with
   *bad set to the failing pool node (NaN or infinity produced).  Both
   this and hdo_program_taylor_step_some clear MPFR's overflow flag
   first, so that after a failure mpfr_overflow_p() says whether a value
   overflowed MPFR's exponent range ("overflow", not "domain error"). */
int hdo_program_eval(hdo_program_t prog, hdo_expr *bad);
/* hdo_program_eval with the operations at the slots given[0 .. ngiven -
   1] (increasing) not computed but set from val[q]: values kept from an
   evaluation of the same operands (Radau's operations of time alone,
   ref/step/radau_eval.c). */
int hdo_program_eval_given(hdo_program_t prog, const slong *given, slong ngiven,
                           mpfr_srcptr val, hdo_expr *bad);
/* One operation c of a program at a point, r := c(a, b) (b NULL for one
   operand); r must not alias a or b for POW. */
void hdo_program_eval_op(mpfr_ptr r, const hdo_program_instr *c, mpfr_srcptr a,
                         mpfr_srcptr b);
/* Convenience: looks up input values in x[order * nvars + var] (order-major
   table of all variables and derivatives, max_order + 1 blocks), sets t, and
   evaluates; writes the roots into out[0..nroots). */
int hdo_program_eval_at(mpfr_ptr out, hdo_program_t prog, const mpfr_t t,
                        mpfr_srcptr x, slong nvars, slong max_order,
                        hdo_expr *bad);

/* Taylor mode.  Allocates coefficient storage for orders 0..order. */
void hdo_program_taylor_alloc(hdo_program_t prog, slong order);
/* Lets the Taylor passes of prog (allocated) share the series of its
   unary functions of t alone, such as a PWM guard's sin(2 pi t/T), with
   the other programs of pool that call this: an order is copied from
   the cache where the cache's series was computed from the same bits
   (the operand's coefficients 0..k, the function's 0..k-1, the kind and
   precision), so the coefficients are those computed (decisions.md
   D-129).  The cache belongs to pool (freed with it, not copied); the
   programs sharing it must be used by one thread, as the pool is. */
void hdo_program_taylor_share(hdo_program_t prog, hdo_expr_pool_t pool);
static inline mpfr_ptr
hdo_program_coef(hdo_program_t prog, slong slot, slong k)
{
    return prog->coef[slot * (prog->taylor_order + 1) + k];
}
/* Computes the k-th normalised Taylor coefficient (f^(k)(t0)/k!) of every
   slot from coefficients 0..k of the inputs (set by the caller) and
   0..k-1 of all other slots (computed by earlier calls, k = 0, 1, ...).
   Time is t0 + s: coefficient 0 is t0 (set in the time slot's
   coefficient 0 by the caller), 1 is 1, the rest 0 (set by this call).
   Calling it again for the same k after changing inputs of order k
   recomputes order k.  Returns 0, or HDO_ERR_DOMAIN with *bad set. */
int hdo_program_taylor_step(hdo_program_t prog, slong k, hdo_expr *bad);
/* The same for the slots i with active[i] != 0 only: after changing
   inputs of order k, recomputing the slots that depend on them (active
   closed under "an operand is active") gives the same coefficients as
   hdo_program_taylor_step, since every other slot's operands are
   unchanged.  active = NULL: every slot (hdo_program_taylor_step). */
int hdo_program_taylor_step_some(hdo_program_t prog, slong k,
                                 const char *active, hdo_expr *bad);
/* Sets active[i] (nslots entries) to 1 for the slots that depend on an
   input slot marked in active on entry (inputs marked by the caller),
   0 for the others that are not inputs. */
void hdo_program_dependents(char *active, const hdo_program_t prog);
/* 1 when order k of slot i reads coefficients below k (its own or its
   operands'): every kind but +, -, negation, a product by a constant
   and a division by one, whose order k reads its operands' order k. */
int hdo_program_taylor_reads_past(const hdo_program_t prog, slong i);

/* MPFR kernels on the limbs (ref/expr/fused.c), for the dense output's
   Horner loops and the Taylor recurrences (issue 28).

   r := x y + z rounded to nearest (ties to even) to r's precision: the
   bits of mpfr_fma(r, x, y, z, MPFR_RNDN) (it is that call for special
   values, an exact zero, operands above 256 bits or results out of
   MPFR's exponent range), in a third of its instructions.  MPFR's flags
   are not set.  r may be x, y or z. */
void hdo_fma_rn(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z);
/* out := c[0] + h (c[1] + h (... + h c[len - 1])) by Horner's rule
   through acc (scratch; its precision is the accumulator's): acc =
   c[len - 1] rounded to nearest, then acc = x y + z rounded to nearest
   for k = len - 2 .. 0, then out = acc rounded to nearest: the bits of
   that loop with mpfr_set and mpfr_fma (MPFR_RNDN), the accumulator kept
   on its limbs between the steps.  len >= 1. */
void hdo_horner_rn(mpfr_ptr out, const mpfr_t *c, slong len, mpfr_srcptr h,
                   mpfr_ptr acc);
/* v[p - j] := h^j for j = 0 .. p, all of one precision (v[p]'s): 1,
   h rounded to nearest, then v[p - j] = v[p - j + 1] h rounded to
   nearest: the bits of that loop with mpfr_mul (MPFR_RNDN), on the
   limbs (146 instructions a power at 3 limbs, 249 with mpfr_mul) for h of the
   powers' limbs (1 to 4) and results in MPFR's exponent range, else
   mpfr_mul.  MPFR's flags are not set.  v reversed: the second operand
   of the Cauchy product sum_j c[j] v[p - j] (hdo_conv_fused). */
void hdo_powers_rn(mpfr_t *v, slong p, mpfr_srcptr h);
/* r := sum_{j = lo .. hi} w_j u[j] v[k - j] (a Cauchy product), w_j = 1
   (weight 0), j (weight 1) or k - j (weight 2): the products summed in
   one fixed-point window from the largest down to p + 64 bits below it
   (p: r's precision, n its limbs), each partial product of limbs cut at
   the window's last bit, and rounded to nearest once, so within half an
   ulp plus (2n + 1) (hi - lo + 1) 2^-(p + 61) of the largest product of
   the exact sum (ref/expr/fused.c, decisions.md D-108).  A sum of
   nothing or an exact zero
   is +0.  Returns 0, or 1 when it cannot (an operand an infinity or a
   NaN, above 256 bits, or a result out of MPFR's exponent range), r
   then untouched.  r must not be one of the operands. */
int hdo_conv_fused(mpfr_ptr r, const mpfr_t *u, const mpfr_t *v, slong k,
                   slong lo, slong hi, int weight);
/* MPFR's current exponent range, read once for a run of the
   operations below (mpfr_get_emin, mpfr_get_emax: a thread-local read
   each). */
typedef struct {
    mpfr_exp_t emin, emax;
} hdo_erange;
void hdo_erange_get(hdo_erange *er);
/* r := a + b, a - b, a b rounded to nearest: the bits of mpfr_add,
   mpfr_sub, mpfr_mul (MPFR_RNDN), on the limbs when r, a and b share a
   precision of 65 to 256 bits (ref/expr/farith.c, decisions.md D-132),
   by MPFR otherwise, for zeros, infinities and NaN, a zero difference
   and results near the ends of er's range (MPFR's then).  MPFR's flags
   are not set on the limbs' path.  r may be a or b; er from
   hdo_erange_get, still the current range. */
void hdo_add_rn(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er);
void hdo_sub_rn(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er);
void hdo_mul_rn(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er);
/* The limbs' paths alone: 0 when r was set, 1 when MPFR is needed (r
   untouched), for the tests. */
int hdo_add_rn_limbs(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b,
                     const hdo_erange *er);
int hdo_sub_rn_limbs(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b,
                     const hdo_erange *er);
int hdo_mul_rn_limbs(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b,
                     const hdo_erange *er);
/* r := exp(x) rounded to nearest (ref/expr/fexp.c, decisions.md
   D-117): the bits of mpfr_exp(r, x, MPFR_RNDN), computed in fixed point
   on 2 to 5 limbs for r of at most 280 bits and |x| < 2^11, by mpfr_exp
   otherwise and when the fixed-point value lies too near a midpoint to decide.
   MPFR's flags are not set on the fixed-point path.  r may be x. */
void hdo_exp_rn(mpfr_ptr r, mpfr_srcptr x);
/* hdo_exp_rn's fixed-point path alone: 0 when it set r, 1 when it
   cannot decide (r untouched), for the tests. */
int hdo_exp_rn_limbs(mpfr_ptr r, mpfr_srcptr x);
/* r := sin(x), cos(x) rounded to nearest (ref/expr/fsin.c): the bits
   of mpfr_sin, mpfr_cos (MPFR_RNDN), in fixed point as hdo_exp_rn for r
   of at most 280 bits and |x| < 2^11, by MPFR otherwise, when the value
   lies too near a midpoint and when it is near zero.  MPFR's flags are
   not set on the fixed-point path.  r may be x.  The _limbs forms: the
   fixed-point path alone (0: r set; 1: undecided, r untouched). */
void hdo_sin_rn(mpfr_ptr r, mpfr_srcptr x);
void hdo_cos_rn(mpfr_ptr r, mpfr_srcptr x);
int hdo_sin_rn_limbs(mpfr_ptr r, mpfr_srcptr x);
int hdo_cos_rn_limbs(mpfr_ptr r, mpfr_srcptr x);
/* out[0 .. 2 l] := sum_{t < np} a_j f_j - sum_{t < nn} a_j' f_j'
   (j = jp[t], j' = jn[t]) exactly, in two's complement of 2 l + 1 limbs,
   a_j and f_j the l limbs at a + j l and f + j l (unsigned integers),
   1 <= l <= HDO_DOT_LIMBS_MAX, np + nn < 2^50: a product-scanning dot
   product (ref/expr/ldot.c; Radau's stage residual, decisions.md
   D-121; up to 12 limbs since D-143). */
#define HDO_DOT_LIMBS_MAX 12
void hdo_dot_limbs(mp_ptr out, const mp_limb_t *a, const mp_limb_t *f,
                   const slong *jp, slong np, const slong *jn, slong nn,
                   slong l);

#ifdef __cplusplus
}
#endif

#endif
