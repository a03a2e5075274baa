/* parser.h -- the parser's state and the helpers its files share
   (private to ref/model/: parse_base.c, parse_build.c, parse_expr.c,
   parse_equations.c, parse_decls.c) */
#ifndef HDO_MODEL_PARSER_H
#define HDO_MODEL_PARSER_H

#include "model.h"
#include "model/lex.h"
#include "model/names.h"
#include "model/parse.h"
#include "util.h"

/* Why four sweeps.  The format lets top-level statements come in any
   order, as a user of Modelica would expect (a mode may use a variable
   declared below it, a `when` may go to a mode defined further down),
   but a parameter may only use parameters declared before it, and an
   array's size may depend on parameters.  So:

     sweep 1 collects the names of all parameters, variables and modes
             (leniently: a malformed statement is skipped and reported
             by a later sweep);
     sweep 2 parses the parameters in file order, each seeing only the
             parameters before it, and applies the -p overrides;
     sweep 2b allocates the variables in file order, each array expanded
             into its elements once its bounds are known;
     sweep 3 parses everything else in file order, with every parameter
             value known.

   Statements are lines (or ';'-separated pieces of lines) in every
   sweep, so each sweep can find statement starts without the others.

   Version 2 (docs/model-format.md, decisions.md): arrays, `for` and
   `sum` are expanded here, by parsing a loop's body once per index value
   with the loop variable bound to an integer constant, so that nothing
   after the parser knows about them. */

/* What the parser knows of a pool node (parser.cflag): constant (no
   variable, no time), checked for a domain error, checked for MPFR's
   exponent range. */
enum { CF_CONST = 1, CF_DEFINED = 2, CF_RANGE = 4, CF_WARNED = 8 };

/* Where a recorded variable reference was used. */
enum { REF_GUARD = 1, REF_RESET = 2 };

typedef struct {
    slong var, tok;
    int kind;
} var_ref;

typedef struct {
    hdo_model_struct *m;
    hdo_expr_pool_struct *pool;
    hdo_lexed_struct *lx;
    const hdo_token *tk;
    slong p; /* current token */
    hdo_error_t *err;
    hdo_names *names;

    int depth;       /* nesting of (, unary signs and ^ */
    int32_t *height; /* height of every pool node seen so far */
    slong nheight, height_alloc;
    unsigned char *cflag;     /* per pool node: CF_* (allocated with height) */
    hdo_const_cache_t ccache; /* balls of the constants examined */

    /* What an expression may contain.  ctx != NULL: constant (numbers,
       pi, parameters) and ctx says what is being parsed, for messages;
       no_der != NULL: no der(), and it says where we are. */
    const char *ctx;
    const char *no_der;
    slong param_tok; /* name token of the parameter being parsed */

    int record; /* REF_* while parsing guards and resets */
    var_ref *refs;
    slong nrefs, refs_alloc;

    int32_t *stamp; /* per pool node, for walks over a mode */
    slong stamp_alloc;
    slong *var_mark; /* per variable: serial of the last mark */
    slong *var_tok;  /* per variable: token of that mark */
    slong serial;
    hdo_expr *stack;
    slong stack_alloc;

    /* The loop variables in scope (for, sum, var u[i in ..]), innermost
       last: a name token and its current integer value; its range lo..hi
       once known (known = 1), and fixed = 1 when that range names no
       loop variable, so that every entry of the loop has the same range
       (loop_bound, parse_base.c). */
    struct {
        slong tok, value, lo, hi;
        int known, fixed;
    } * loops;
    slong nloops, loops_alloc;
    slong iterations; /* loop bodies parsed so far, for the limit */
    slong *decl_toks; /* name token of every first variable declaration */
    slong ndecl, decl_alloc;

    slong until_tok; /* first token of the until expression */
    slong params_alloc, vars_alloc, modes_alloc, arrays_alloc;

    char found[4][64]; /* describe() rotates, so two fit in one message */
    int nfound;
} parser;

/* The shared helpers keep their short names in the parser's code; these
   macros give them a prefix in the library, where short external names
   such as kind() or grow() could clash. */
#define perr(...) hdo_model_p_perr(__VA_ARGS__)
#define nomem(...) hdo_model_p_nomem(__VA_ARGS__)
#define tok_pos(...) hdo_model_p_tok_pos(__VA_ARGS__)
#define kind(...) hdo_model_p_kind(__VA_ARGS__)
#define is_eos(...) hdo_model_p_is_eos(__VA_ARGS__)
#define describe(...) hdo_model_p_describe(__VA_ARGS__)
#define found(...) hdo_model_p_found(__VA_ARGS__)
#define eq_hint(...) hdo_model_p_eq_hint(__VA_ARGS__)
#define starts_top_level(...) hdo_model_p_starts_top_level(__VA_ARGS__)
#define tok_strdup(...) hdo_model_p_tok_strdup(__VA_ARGS__)
#define slice_strdup(...) hdo_model_p_slice_strdup(__VA_ARGS__)
#define skip_statement(...) hdo_model_p_skip_statement(__VA_ARGS__)
#define skip_terminators(...) hdo_model_p_skip_terminators(__VA_ARGS__)
#define expect_eos(...) hdo_model_p_expect_eos(__VA_ARGS__)
#define expect_name(...) hdo_model_p_expect_name(__VA_ARGS__)
#define lookup(...) hdo_model_p_lookup(__VA_ARGS__)
#define name_kind_word(...) hdo_model_p_name_kind_word(__VA_ARGS__)
#define check_first_declaration(...)                                           \
    hdo_model_p_check_first_declaration(__VA_ARGS__)
#define enter(...) hdo_model_p_enter(__VA_ARGS__)
#define cmp_slong hdo_model_p_cmp_slong
#define tok_is(...) hdo_model_p_tok_is(__VA_ARGS__)
#define find_loop(...) hdo_model_p_find_loop(__VA_ARGS__)
#define push_loop(...) hdo_model_p_push_loop(__VA_ARGS__)
#define count_iteration(...) hdo_model_p_count_iteration(__VA_ARGS__)
#define loop_range(...) hdo_model_p_loop_range(__VA_ARGS__)
#define loop_bound(...) hdo_model_p_loop_bound(__VA_ARGS__)
#define node_arity(...) hdo_model_p_node_arity(__VA_ARGS__)
#define node_fmpq(...) hdo_model_p_node_fmpq(__VA_ARGS__)
#define track(...) hdo_model_p_track(__VA_ARGS__)
#define check_root(...) hdo_model_p_check_root(__VA_ARGS__)
#define build_binary(...) hdo_model_p_build_binary(__VA_ARGS__)
#define build_unary(...) hdo_model_p_build_unary(__VA_ARGS__)
#define build_leaf(...) hdo_model_p_build_leaf(__VA_ARGS__)
#define constant_sign(...) hdo_model_p_constant_sign(__VA_ARGS__)
#define is_relop(...) hdo_model_p_is_relop(__VA_ARGS__)
#define build_relation(...) hdo_model_p_build_relation(__VA_ARGS__)
#define parse_arguments(...) hdo_model_p_parse_arguments(__VA_ARGS__)
#define parse_group(...) hdo_model_p_parse_group(__VA_ARGS__)
#define parse_sum(...) hdo_model_p_parse_sum(__VA_ARGS__)
#define parse_constant(...) hdo_model_p_parse_constant(__VA_ARGS__)
#define starts_if(...) hdo_model_p_starts_if(__VA_ARGS__)
#define parse_if(...) hdo_model_p_parse_if(__VA_ARGS__)
#define is_piecewise_call(...) hdo_model_p_is_piecewise_call(__VA_ARGS__)
#define parse_piecewise_call(...) hdo_model_p_parse_piecewise_call(__VA_ARGS__)
#define parse_range(...) hdo_model_p_parse_range(__VA_ARGS__)
#define parse_var_ref(...) hdo_model_p_parse_var_ref(__VA_ARGS__)
#define parse_sum_of(...) hdo_model_p_parse_sum_of(__VA_ARGS__)
#define parse_mode_ref(...) hdo_model_p_parse_mode_ref(__VA_ARGS__)
#define parse_equation(...) hdo_model_p_parse_equation(__VA_ARGS__)
#define append_loop_values(...) hdo_model_p_append_loop_values(__VA_ARGS__)
#define parse_for(...) hdo_model_p_parse_for(__VA_ARGS__)
#define parse_mode(...) hdo_model_p_parse_mode(__VA_ARGS__)
#define parse_array_bounds(...) hdo_model_p_parse_array_bounds(__VA_ARGS__)
#define sweep_vars(...) hdo_model_p_sweep_vars(__VA_ARGS__)

/* The parser is one recursive-descent parser in files by grammar level,
   each calling only the levels below it (tools/check-layering holds
   them to it: a call back up would be a circle):

     parse_base.c       the tools: errors, tokens, statements, names,
                        the scope of the loop variables
     parse_build.c      building nodes within the limits, constants,
                        relations
     parse_expr.c       expressions, all of them (the grammar recurses
                        through every part: an `if` holds expressions,
                        a `sum` its terms, an index a constant)
     parse_equations.c  the body of a mode: equations, `for`, `when`,
                        `zeno`
     parse_decls.c      declarations and the four sweeps
     model.c            hdo_model_parse_string, above them all */

/* parse_base.c: errors, tokens and statements */
int perr(parser *P, int status, slong tok, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int nomem(parser *P);
hdo_srcpos tok_pos(const parser *P, slong tok);
int kind(const parser *P);
int is_eos(int k);
const char *describe(parser *P, slong tok);
const char *found(parser *P);
/* ": did you mean '='?" when the current token is '==' (where '='
   belongs: after a parameter or variable name, in an equation or a
   reset), else "": appended to the "found ..." message there. */
const char *eq_hint(const parser *P);
/* Whether token kind k can only start a top-level statement (or end the
   file): inside a mode or a loop it means a missing 'end'. */
int starts_top_level(int k);
char *tok_strdup(const parser *P, slong tok);
char *slice_strdup(const parser *P, slong first, slong last);
void skip_statement(parser *P);
void skip_terminators(parser *P);
int expect_eos(parser *P, const char *what);
int expect_name(parser *P, const char *what);
hdo_name_entry *lookup(const parser *P, slong tok);
const char *name_kind_word(int k);
int check_first_declaration(parser *P, slong tok, hdo_name_entry **entry);
int enter(parser *P, slong tok);
/* Grows *ptr (of *alloc entries of size bytes) to hold at least need;
   0, or HDO_ERR_MEMORY (*ptr and *alloc unchanged): util.h's one rule. */
#define grow(...) hdo_grow(__VA_ARGS__)
/* qsort's comparison of two slong. */
int cmp_slong(const void *a, const void *b);
/* parse_base.c: the loop variables in scope (for, sum, var u[i in ..]) */
int tok_is(const parser *P, slong tok, const char *word);
slong find_loop(const parser *P, slong tok);
int push_loop(parser *P, slong tok, const char *what);
int count_iteration(parser *P, slong tok);
void loop_range(parser *P, slong first, slong lo, slong hi);
int loop_bound(parser *P, slong tok);

/* parse_build.c: nodes, constants, relations */
int node_arity(hdo_expr_kind k);
const fmpq *node_fmpq(const parser *P, hdo_expr e);
int track(parser *P, hdo_expr e, slong tok);
/* Checks the root of an expression (an equation, a guard, a reset value,
   a constant statement) that starts at token tok: a constant must be
   defined and within MPFR's range (docs/model-format.md, Constants). */
int check_root(parser *P, hdo_expr e, slong tok);
/* tok: the operator; atok, btok: the starts of the operands (where a
   constant operand's error is reported). */
int build_binary(hdo_expr *out, parser *P, hdo_expr_kind k, hdo_expr a,
                 hdo_expr b, slong tok, slong atok, slong btok);
/* tok: the start of the expression (a function's name, the sign); atok:
   the start of the operand. */
int build_unary(hdo_expr *out, parser *P, hdo_expr_kind k, hdo_expr a,
                slong tok, slong atok);
int build_leaf(parser *P, hdo_expr e, slong tok);
void constant_sign(int *sign, parser *P, hdo_expr e);
int is_relop(int k);
/* A relation a op b as the node D >= 0 or D > 0 (hdo_expr_rel); a
   constant one is decided exactly and folds to 1 or 0. */
int build_relation(hdo_expr *out, parser *P, int op, hdo_expr a, hdo_expr b,
                   slong atok, slong optok, slong btok);

/* parse_expr.c: expressions */
/* A call's arguments up to its ')': all parsed, the first keep stored. */
int parse_arguments(hdo_expr *arg, slong *argtok, int keep, int *nargs,
                    parser *P, slong ftok, const char *fname);
/* "( inner )" opened by token tok, the inside parsed by parse_inner. */
int parse_group(hdo_expr *out, parser *P, slong tok,
                int (*parse_inner)(hdo_expr *, parser *));
int parse_sum(hdo_expr *out, parser *P);
int parse_constant(hdo_expr *out, parser *P, const char *what);
/* the piecewise expressions (if, and/or/not, abs, sign, min, max) */
int starts_if(const parser *P, slong tok);
int parse_if(hdo_expr *out, parser *P);
int is_piecewise_call(const parser *P, slong tok);
int parse_piecewise_call(hdo_expr *out, parser *P);
/* ranges, array elements and sum */
int parse_range(slong *lo, slong *hi, parser *P, const char *what);
int parse_var_ref(slong *var, parser *P);
int parse_sum_of(hdo_expr *out, parser *P);

/* parse_equations.c: the body of a mode */
/* NAME that must be a mode; after says where it stands, for messages. */
int parse_mode_ref(slong *mode, parser *P, const char *after);
int parse_equation(parser *P, hdo_mode *mode, slong *eqs_alloc);
int append_loop_values(parser *P, char **text);
int parse_for(parser *P, hdo_mode *mode, slong *eqs_alloc);
int parse_mode(parser *P);

/* parse_decls.c: declarations and the sweeps */
int parse_array_bounds(slong *lo, slong *hi, slong *ivar, parser *P);
int sweep_vars(parser *P);

#define GROW(P, arr, alloc, need)                                              \
    do {                                                                       \
        if (grow((void **)&(arr), &(alloc), (need), sizeof *(arr)) != 0)       \
            return nomem(P);                                                   \
    } while (0)

#endif
