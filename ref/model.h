/* model.h -- a parsed .hdae model: parameters, variables, modes with their
   equations and transitions, start, end time and chattering option. */
#ifndef HDO_MODEL_H
#define HDO_MODEL_H

#include "expr.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits that keep hostile input from crashing the parser or the
   recursive algorithms after it (symbolic derivatives, printing).
   HDO_MODEL_MAX_NESTING bounds the nesting of parentheses, function
   calls, unary signs and ^ in the text: the parser is recursive, and
   1000 levels stay below 1 MB of stack even under AddressSanitizer
   (about 900 bytes a level), while no model written by hand comes
   near.  HDO_MODEL_MAX_DEPTH bounds the height of every expression
   built (so a sum of more than that many terms is refused too), for
   the recursive algorithms of the expression module. */
#define HDO_MODEL_MAX_NESTING 1000
#define HDO_MODEL_MAX_DEPTH 10000
#define HDO_MODEL_MAX_DIGITS 100000      /* significant digits of a literal */
#define HDO_MODEL_MAX_EXPONENT 100000    /* |e| in a literal 1e... */
#define HDO_MODEL_MAX_CONST_BITS 1048576 /* of an exact constant's num/den */
#define HDO_MODEL_MAX_FILE_MIB 64        /* a model file's size, MiB */
/* elements of one array or range */
#define HDO_MODEL_MAX_ARRAY 1000000
/* loop bodies parsed in all (for, sum, u[i in ..] start values, nested
   loops multiplying): bounds the parse time of hostile loops */
#define HDO_MODEL_MAX_ITERATIONS 1000000

typedef struct {
    int line, col;
} hdo_srcpos;

typedef struct {
    char *name;
    hdo_srcpos pos;
    hdo_expr value; /* constant expression; rational params are CONST nodes */
} hdo_param;

typedef struct {
    char *name;
    hdo_srcpos pos;
    hdo_expr start; /* constant expression, HDO_EXPR_NONE if not given */
    /* `nominal E`: the variable's typical magnitude, a positive constant
       expression (HDO_EXPR_NONE if not given).  Below it the variable's
       digits are absolute, not relative to its value (the scale floor of
       the error control and of --verify: docs/model-format.md). */
    hdo_expr nominal;
    hdo_srcpos nominal_pos;
} hdo_var;

/* An array variable u[lo..hi]: expanded at parse time into the scalar
   variables vars[first .. first + hi - lo], named "u[lo]" .. "u[hi]". */
typedef struct {
    char *name; /* "u" */
    hdo_srcpos pos;
    slong first, lo, hi;
} hdo_array;

/* A parameter override (-p NAME=VALUE), set before parsing. */
typedef struct {
    char *name;
    char *text; /* the value as the user wrote it, for summary.json */
    fmpq_t value;
    int used;
} hdo_override;

typedef struct {
    hdo_expr residual; /* lhs - rhs: the equation is residual = 0 */
    hdo_srcpos pos;
    char *text; /* source text of the equation, trimmed */
} hdo_equation;

typedef struct {
    slong var;      /* index into model->vars */
    hdo_expr value; /* evaluated on the left limit */
    hdo_srcpos pos;
} hdo_assign;

typedef struct {
    hdo_expr guard;   /* switching function S: feasible while S >= 0 */
    char *guard_text; /* source text, e.g. "h < 0" ("zeno" for zeno) */
    slong target;     /* index into model->modes */
    hdo_assign *assigns;
    slong nassigns;
    hdo_srcpos pos;
    int crossing; /* 1: a sign pattern's relation changes sign (no reset,
                     events of kind crossing) */
    int zero;     /* 1 (a crossing of a zero variant, below): the relation
                     is identically zero in this pattern; its guard is the
                     switching function D itself, which the run expands
                     but never locates (ref/hybrid/pattern.c) */
    slong perp;   /* 1 + i: the inequality of complementarity condition i
                     of the mode's block (below) is crossed; its target is
                     the pattern with i flipped, and the run decides the
                     active set anew there (ref/hybrid/complementarity.c);
                     0 for every other transition */
} hdo_transition;

/* A complementarity condition `0 <= A perp B >= 0` of a mode
   (docs/model-format.md, "Complementarity"): A a variable of the mode
   that is never differentiated, B an expression of the mode's variables
   and t without der() and without piecewise parts.  restitution: the
   constant e of `restitution e` (a unilateral contact with Newton's
   impact law), HDO_EXPR_NONE without it. */
typedef struct {
    slong var;                  /* A: index into model->vars */
    hdo_expr b;                 /* B */
    hdo_srcpos pos, apos, bpos; /* of the condition (its first token), A, B */
    char *text;                 /* "0 <= i_d perp -u_d >= 0", as written */
    char *atext, *btext;        /* "i_d", "-u_d" */
    hdo_expr restitution;
    hdo_srcpos rpos;
} hdo_perp;

typedef struct {
    char *name;
    hdo_srcpos pos;
    hdo_equation *eqs;
    slong neqs;
    slong *vars; /* the variables occurring in eqs, ascending index */
    slong nvars;
    hdo_transition *whens; /* in file order */
    slong nwhens;
    int has_zeno;
    hdo_transition zeno; /* guard HDO_EXPR_NONE */
    /* Sign patterns (version 2, hdo_model_expand_patterns): a mode whose
       expressions hold k relations is 2^k modes, one per pattern of
       their signs, each with the `if`s replaced by the branch taken and
       one `crossing` transition per relation towards the pattern with
       that sign flipped.  family: the mode of the file this one stands
       for (its own index for a mode without relations); pattern: the
       pattern as text ("x >= 0, t - 1 < 0"), NULL without relations;
       mask: bit j set when relation j is on its >= side.  The mode of
       the file keeps its index (pattern mask 0) and the others are
       appended; family_modes (2^nrel entries, on the family's own mode
       only; NULL for a lazy family, ref/model/lazy.c) lists the mode of
       each mask, rel the switching functions.
       Zero variants: a relation whose value at D = 0 neither side gives
       (sign(D), or D >= 0 and D > 0 both used: bit j of mixed, on the
       family's own mode) has a third state, D = 0 identically, in which
       D >= 0 is true and D > 0 false (hdo_expr_select with
       HDO_REL_ZERO); zmask has bit j set for such a relation in that
       state (its mask bit is then 0).  The zero variants are appended
       after every family's sign patterns, listed in zero_modes (nzero
       entries, on the family's own mode; hdo_model_pattern_mode finds
       one), and their crossing for a zero relation is flagged `zero`.
       rel_pos (on the family's own mode) is where each relation is
       written in the file (its first occurrence); strict has bit j set
       when relation j is only used as D > 0 (its value at D = 0 is then
       that of the < side; otherwise, when not mixed, of the >= side). */
    slong family;
    char *pattern;
    slong mask;
    slong nrel;
    hdo_expr *rel;
    slong *family_modes;
    slong zmask, mixed, strict;
    slong *zero_modes;
    slong nzero;
    hdo_srcpos *rel_pos;
    /* Complementarity (hdo_model_expand_perp, ref/model/perp.c): the
       conditions of the mode of the file (perp, nperp; the mode's
       complementarity block) make it 2^nperp modes, one per active set:
       cp_mask has bit i set when condition i is active (B_i = 0 is an
       equation, A_i >= 0 its inequality) and clear when it is inactive
       (A_i = 0, B_i >= 0).  Each has the file's equations, then one
       equation per condition, and the file's `when`s, then one `perp`
       transition per condition (its inequality crossed).  cp_family is
       the index of the mode of the file (mask 0), which owns perp and
       cp_modes (2^nperp entries: the mode of each mask); the others
       share perp.  The sign patterns of such a mode (relations) keep its
       cp fields.  nperp is 0 for a mode without conditions. */
    hdo_perp *perp;
    slong nperp;
    slong cp_family, cp_mask;
    slong *cp_modes;
    /* A sign pattern of a lazy family (a mode of more than
       HDO_MODEL_MAX_RELATIONS relations, or beyond
       HDO_MODEL_MAX_PATTERN_MODES: ref/model/lazy.c): 1 while only its
       id, name, pattern text, family and mask are set (registered), 2
       once its equations and transitions are built in the model or
       workspace that holds this array (hdo_model_pattern_ensure); 0 for
       every other mode.  name and pattern are then borrowed from the
       registry, never freed with the mode. */
    int lazy;
} hdo_mode;

/* Where a relation of a piecewise expression is written: its switching
   function D (as in hdo_mode.rel) and the place of the comparison (of
   its left operand) or of abs, sign, min, max. */
typedef struct {
    hdo_expr d;
    hdo_srcpos pos;
} hdo_relpos;

/* Relations per mode, and modes in all after the expansion into sign
   patterns: what the symbolic copies of the patterns cost (12 relations,
   4096 patterns: 0.4 s and 31 MB for a run; decisions.md D-013); a mode
   beyond either is a lazy family (below).  The zero variants of a family
   are made only while the modes of all patterns and zero variants stay
   within HDO_MODEL_MAX_PATTERN_MODES; a family without them (a lazy one
   included) refuses a relation identically zero as not covered. */
#define HDO_MODEL_MAX_RELATIONS 12
#define HDO_MODEL_MAX_PATTERN_MODES 4096
/* Beyond those, a mode's sign patterns are built when a run enters them
   (decisions.md D-092): relations per such mode (the pattern is a 64-bit
   mask), and the sign patterns a model may name in all (those entered
   and their neighbours across one relation): the capacity of the mode
   table, whose ids stay fixed during a run. */
#define HDO_MODEL_MAX_LAZY_RELATIONS 62
#define HDO_MODEL_MAX_LAZY_MODES 65536
/* Complementarity conditions per mode: 2^10 active-set modes, each with
   its own symbolic copy; the count of all modes (active sets and sign
   patterns) stays within HDO_MODEL_MAX_PATTERN_MODES (decisions.md D-086). */
#define HDO_MODEL_MAX_PERP 10

typedef enum {
    HDO_CHATTER_FILIPPOV = 0,
    HDO_CHATTER_HYSTERESIS,
    HDO_CHATTER_STOP
} hdo_chattering;

typedef struct {
    char *name; /* after "model" */
    char *file; /* file name as given, for messages */
    hdo_expr_pool_t pool;
    hdo_param *params;
    slong nparams;
    hdo_var *vars;
    slong nvars;
    hdo_mode *modes;
    slong nmodes;
    slong start_mode;
    hdo_expr t0;    /* constant; 0 if "at" is absent */
    hdo_expr t_end; /* constant; HDO_EXPR_NONE if no "until" */
    hdo_chattering chattering;
    hdo_expr hysteresis; /* constant, for HDO_CHATTER_HYSTERESIS */
    hdo_srcpos start_pos, until_pos, chattering_pos;
    const char **var_names; /* var_names[i] = vars[i].name, for printing */
    hdo_array *arrays;      /* the array declarations, in file order */
    slong narrays;
    hdo_override *overrides; /* -p NAME=VALUE, in command-line order */
    slong noverrides;
    hdo_srcpos model_pos;
    /* "FILE:LINE:COL: warning: ..." lines (each ending in a newline) for
       the commands to print, or NULL: a constant taken as exactly zero
       without a proof (see hdo_expr_const_examine). */
    char *warnings;
    void *names; /* private: hash table of all declared names */
    /* private: the relations as the parser met them, for rel_pos */
    hdo_relpos *relpos;
    slong nrelpos, relpos_alloc;
    /* private (ref/model/lazy.c): the registry of the sign patterns
       built when entered, shared by the model and its workspaces (NULL
       when every mode is expanded at parse time); own_modes: this is a
       workspace with a modes array of its own (its built patterns). */
    void *lazy;
    int own_modes;
} hdo_model_struct;
typedef hdo_model_struct hdo_model_t[1];

/* hdo_model_init makes an empty model, to be filled by
   hdo_model_parse_file or hdo_model_parse_string.  hdo_model_clear
   frees it and leaves it empty (all zeros): a second hdo_model_clear
   does nothing, and hdo_model_parsed says 0 until the model is
   initialised and parsed again. */
void hdo_model_init(hdo_model_t model);
void hdo_model_clear(hdo_model_t model);

/* 1 when model holds a model that hdo_model_parse_file or
   hdo_model_parse_string parsed successfully, 0 when it was only
   initialised, its parse failed, or it was cleared (hdo_run and
   hdo_analyze refuse such a model with HDO_ERR_INPUT).  The model must
   have been initialised at least once. */
int hdo_model_parsed(const hdo_model_struct *model);

/* The symbolic workspace of a computation on a parsed model (a run, an
   analysis): *work is model with an expression pool of its own (a copy
   of the model's, same node indices), into which reduced forms,
   derivatives and substitutions go, so that model is never written and
   several computations may share it at once.  The rest (modes,
   variables, names, strings) is shared, read only, and must outlive
   work.  hdo_model_workspace_clear frees the pool copy only. */
void hdo_model_workspace_init(hdo_model_struct *work,
                              const hdo_model_struct *model);
void hdo_model_workspace_clear(hdo_model_struct *work);

/* Parses and checks a model into model, which must be freshly
   initialised.  On success returns 0.  On failure returns HDO_ERR_SYNTAX
   or HDO_ERR_SEMANTIC (HDO_ERR_IO for an unreadable file, HDO_ERR_MEMORY
   when memory runs out) and fills err with file, line, column and a
   message that says what was expected; the model is then left empty
   except for model->file, and must still be cleared.

   filename (may be NULL) is copied into model->file, and err->file
   points to that copy: print the error before hdo_model_clear().

   Statement order: the model header comes first; after it, top-level
   statements may come in any order (a mode may use a variable, a
   parameter or a mode declared further down), except that a parameter
   may only use parameters declared before it.  The checks run in four
   sweeps over the file -- names, then parameters (and the overrides of
   hdo_model_add_override), then variable declarations (array bounds),
   then everything else in file order -- so of several errors the one
   reported is the first of the earliest sweep that finds one. */
int hdo_model_parse_string(hdo_model_t model, const char *text, size_t len,
                           const char *filename, hdo_error_t *err);
/* Reads the file at path and parses it as above, with path as the file
   name.  A file that cannot be read gives HDO_ERR_IO with the system's
   reason (strerror) and line 0. */
int hdo_model_parse_file(hdo_model_t model, const char *path, hdo_error_t *err);

/* Records the override arg = "NAME=VALUE" (the option -p) in model, which
   must be initialised and not yet parsed: the parameter NAME then has the
   exact value VALUE, an optionally signed decimal (9.81, -1e-3) or a
   ratio of two decimals (1/3), instead of the value in the file, and
   later parameters see it.  Returns 0, or HDO_ERR_INPUT with a message
   naming the option for a malformed argument or a name given twice.  A
   NAME that is not a parameter of the model is reported by the parse. */
int hdo_model_add_override(hdo_model_t model, const char *arg,
                           hdo_error_t *err);

/* Index of the variable or mode with this name, or -1 if there is none
   (an index, not a status).  An array
   element is named as in the output columns: "u[3]". */
slong hdo_model_find_var(const hdo_model_t model, const char *name);
slong hdo_model_find_mode(const hdo_model_t model, const char *name);

/* Mode ids: the indices of modes in results, events and the driver's
   mode table (decisions.md D-005, D-035).  A model mode is its index m < n (n =
   nmodes); the Filippov sliding mode of the ordered pair (a, b) is
   n + a n + b, named "sliding(A,B)"; the sliding mode on the
   intersection of the surfaces between the modes of mask (bit q: mode
   q, 4 or more modes) is n + n^2 + mask, named "sliding(A,B,C,D)" with
   the modes in file order, for models of at most HDO_MODE_ID_MAXMODES
   modes.  This is the one place that spells the arithmetic out. */
#define HDO_MODE_ID_MAXMODES 62
typedef enum {
    HDO_MODE_ID_NONE = -1, /* no mode of the model */
    HDO_MODE_ID_MODEL,
    HDO_MODE_ID_PAIR,
    HDO_MODE_ID_CUBE
} hdo_mode_id_kind;
hdo_mode_id_kind hdo_mode_id_kind_of(const hdo_model_struct *model, slong id);
/* The id of the sliding mode of the pair (a, b) / of the modes of mask. */
slong hdo_mode_id_pair(const hdo_model_struct *model, slong a, slong b);
slong hdo_mode_id_cube(const hdo_model_struct *model, uint64_t mask);
/* The pair (a, b) of a pair id. */
void hdo_mode_id_pair_of(slong *a, slong *b, const hdo_model_struct *model,
                         slong id);
/* The model modes an id stands for, as a mask (bit q: mode q): itself,
   the two of a pair, those of a cube; 0 for no mode.  For a model mode
   or a pair, only when its modes are below 64. */
uint64_t hdo_mode_id_mask(const hdo_model_struct *model, slong id);
/* The id of the same mode with every sign pattern and every active set
   of a complementarity block replaced by the mode of the file: a model
   mode's, the pair of those; a cube (and no mode) is its own. */
slong hdo_mode_id_family(const hdo_model_struct *model, slong id);
/* Writes the name of id into buf ("?" when it is no mode of model);
   hdo_find_mode_name is its inverse: the id of a name, or -1 (an
   index, not a status). */
void hdo_mode_name(char *buf, size_t size, const hdo_model_struct *model,
                   slong id);
slong hdo_find_mode_name(const hdo_model_struct *model, const char *name);

/* The mode of family (a mode of the file with relations) whose
   relations are on the sides of mask, except those of zmask, which are
   identically zero (a zero variant; zmask a subset of the family's
   mixed relations, mask & zmask == 0); -1 when the model has no such
   mode (zero variants beyond the cap, or of a lazy family).  For a lazy
   family (family_modes NULL: ref/model/lazy.c) the pattern gets an id if
   it has none (its slot filled in model and in the parsed model: a
   cache, hence the const), -1 beyond HDO_MODEL_MAX_LAZY_MODES. */
slong hdo_model_pattern_mode(const hdo_model_struct *model, slong family,
                             slong mask, slong zmask);

/* The number mode ids are reckoned with (hdo_mode_id_pair): nmodes, or
   for a model with lazy sign patterns the fixed capacity
   HDO_MODEL_MAX_LAZY_MODES (nmodes grows as a run meets patterns). */
slong hdo_model_id_n(const hdo_model_struct *model);

/* Builds mode m's equations and transitions if it is a lazy sign
   pattern not yet built in model (a workspace, whose pool receives the
   expressions), and those of its neighbours across one relation (the
   sliding and surface code reads them).  Returns 0, or
   HDO_ERR_UNSUPPORTED with err set (may be NULL) when the model would
   name more than HDO_MODEL_MAX_LAZY_MODES sign patterns.  Thread-safe
   between workspaces of one model. */
int hdo_model_pattern_ensure(hdo_model_struct *model, slong m,
                             hdo_error_t *err);
/* The i-th mode of the file whose patterns are built when entered, as
   the file wrote it (its relations unselected), or NULL past the last. */
const hdo_mode *hdo_model_lazy_file_mode(const hdo_model_struct *model,
                                         slong i);

/* The mode of the complementarity block of mode m (nperp > 0) whose
   active set is cp_mask and whose sign pattern (relations) is m's own:
   the mode m would be with its active set replaced. */
slong hdo_model_cp_mode(const hdo_model_struct *model, slong m, slong cp_mask);

/* Sets q to the exact value of the decimal literal s[0..len): an optional
   sign, digits with an optional decimal point (".5" and "5." are fine),
   an optional exponent e[+-]digits, nothing else.  Returns 0,
   HDO_ERR_SYNTAX if s is not such a literal, or HDO_ERR_UNSUPPORTED if it
   has more than HDO_MODEL_MAX_DIGITS significant digits or an exponent
   beyond HDO_MODEL_MAX_EXPONENT.  Usable for any exact decimal text
   (tolerances, --every). */
int hdo_parse_decimal(fmpq_t q, const char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif
