/* cli.h -- the one option parser of the hdo commands (oracle/cli.c): a
   table of options per command, read by getopt_long; --help, -d/--digits
   and -p/--param are every command's and handled here once. */
#ifndef HDO_CLI_H
#define HDO_CLI_H

#include <stdio.h>
#include "hdo.h"

/* What an option's value is, and where it goes (dest). */
typedef enum {
    CLI_FLAG,     /* int: set to 1 */
    CLI_PATH,     /* const char *: a non-empty name (`what`: "file name") */
    CLI_FILE,     /* the same, given at most once */
    CLI_COUNT,    /* long: a positive integer */
    CLI_TOL,      /* double: a finite number >= 0 */
    CLI_TIME,     /* cli_time: an exact decimal (hdo_run_parse_time) */
    CLI_TIME_POS, /* the same, > 0 */
    CLI_CHOICE,   /* int: the index of the value in `choices` (`what`) */
    CLI_PAIR      /* cli_list: repeatable A=B, both non-empty (`what`) */
} cli_kind;

typedef struct {
    fmpq_t q;
    int set;
    const char *text; /* as given (argv), for a record of the options */
} cli_time;

typedef struct {
    const char **v;
    int n;
} cli_list;

typedef struct {
    const char *name; /* the long name, without "--" */
    int short_name;   /* 0: none */
    cli_kind kind;
    void *dest;
    const char *what;               /* what the value is, for messages */
    const char *const *choices;     /* CLI_CHOICE, NULL-terminated */
} cli_option;

/* One command line: the command's table and what was read. */
typedef struct {
    const char *cmd;         /* "run", for the messages "hdo run: ..." */
    const char *operands;    /* "MODEL", for "hdo run: expected MODEL" */
    int nops;                /* operands expected */
    void (*usage)(FILE *);   /* the command's usage text */
    const cli_option *opts;  /* ended by a NULL name */
    long digits;             /* -d D: to HDO_MAX_DIGITS, HDO_DIGITS_DEFAULT */
    int digits_given;        /* whether -d was on the command line */
    cli_list params;         /* -p, --param NAME=VALUE, repeatable */
    const char *op[2];       /* the operands */
    int more_ops;            /* 1: operands after the nops go to rest */
    cli_list rest;           /* those operands (hdo check's candidates) */
} cli;

/* The run options of hdo run and hdo ref write, read into one place by
   the entries CLI_RUN_OPTIONS(r) of a command's table: --every, --until,
   --verify, --max-steps, --max-events, --method, --progress. */
typedef struct {
    hdo_run_options opt;
    cli_time every, until;
    int verify, progress;
} cli_run;

/* --method's values, in the order of HDO_METHOD_AUTO, _TAYLOR, _IMPLICIT */
extern const char *const cli_methods[];

#define CLI_RUN_OPTIONS(r)                                                     \
    {"every", 0, CLI_TIME_POS, .dest = &(r)->every},                          \
        {"until", 0, CLI_TIME, .dest = &(r)->until},                          \
        {"verify", 0, CLI_FLAG, .dest = &(r)->verify},                        \
        {"max-steps", 0, CLI_COUNT, .dest = &(r)->opt.max_steps},             \
        {"max-events", 0, CLI_COUNT, .dest = &(r)->opt.max_events},           \
        {"method", 0, CLI_CHOICE, .dest = &(r)->opt.method,                   \
         .what = "auto, taylor or implicit", .choices = cli_methods},         \
        {"progress", 0, CLI_FLAG, .dest = &(r)->progress}

/* Before cli_parse: the defaults.  After it: r->opt gets c's digits and
   the times read (they stay r's). */
void cli_run_init(cli_run *r);
void cli_run_finish(cli_run *r, const cli *c);

/* Reads argv[1..argc) (argv[0] is the command; argv itself is left in
   its order) into the table's destinations.  Returns -1 to go on, 0
   after printing the usage for --help, 2 after printing why the command
   line is wrong.  cli_clear frees what it read, whatever it returned. */
int cli_parse(cli *c, int argc, char **argv);
void cli_clear(cli *c);

/* Applies the -p overrides to model (initialised, not parsed): 0, or 2
   after printing why a value is malformed. */
int cli_params_apply(hdo_model_t model, const cli *c);

/* Prints err on stderr: "file:line:col: error: ..." when it names a
   file, else "hdo CMD: error: ..." (an option or the command). */
void cli_print_error(const cli *c, const hdo_error_t *err);

#endif
