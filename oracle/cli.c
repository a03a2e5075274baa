/* cli.c -- the one option parser of the hdo commands: getopt_long over a
 * table per command, with the options every command has */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* --digits: 1 to HDO_MAX_DIGITS, the library's limit (hybrid.h says
   why), so that the commands and the library refuse the same D. */
#define NOPT_MAX 32

enum { O_HELP = 'h', O_DIGITS = 'd', O_PARAM = 'p', O_TABLE = 256 };

static int fail(const cli *c, int with_usage, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prints "hdo CMD: message" (and the usage): 2. */
static int
fail(const cli *c, int with_usage, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "hdo %s: ", c->cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (with_usage)
        c->usage(stderr);
    return 2;
}

static int
push(cli_list *l, const char *v)
{
    const char **p = realloc(l->v, (size_t)(l->n + 1) * sizeof *p);
    if (p == NULL)
        return 2;
    l->v = p;
    l->v[l->n++] = v;
    return 0;
}

/* A whole decimal integer in [1, max], or -1. */
static long
parse_count(const char *s, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v <= 0 || v > max)
        return -1;
    return v;
}

/* The value v of option o (its long name n). */
static int
take(cli *c, const cli_option *o, const char *n, const char *v)
{
    switch (o->kind) {
    case CLI_FLAG:
        *(int *)o->dest = 1;
        return 0;
    case CLI_FILE:
        if (*(const char **)o->dest != NULL)
            return fail(c, 0, "%s given twice", n);
        /* fall through */
    case CLI_PATH:
        if (*v == '\0')
            return fail(c, 0, "%s: the %s is empty", n, o->what);
        *(const char **)o->dest = v;
        return 0;
    case CLI_COUNT: {
        long k = parse_count(v, LONG_MAX);
        if (k < 0)
            return fail(c, 0, "%s expects a positive integer, not '%s'", n, v);
        *(long *)o->dest = k;
        return 0;
    }
    case CLI_TOL: {
        char *end;
        double x;
        errno = 0;
        x = strtod(v, &end);
        if (*v == '\0' || *end != '\0' || errno == ERANGE || !isfinite(x) ||
            x < 0)
            return fail(c, 0, "%s expects a finite number >= 0, not '%s'", n,
                        v);
        *(double *)o->dest = x;
        return 0;
    }
    case CLI_TIME:
    case CLI_TIME_POS: {
        cli_time *t = o->dest;
        hdo_error_t err;
        hdo_error_clear(&err);
        if (hdo_run_parse_time(t->q, n, v, o->kind == CLI_TIME_POS, &err)) {
            cli_print_error(c, &err);
            return 2;
        }
        t->set = 1;
        t->text = v;
        return 0;
    }
    case CLI_CHOICE:
        for (int k = 0; o->choices[k] != NULL; k++)
            if (strcmp(v, o->choices[k]) == 0) {
                *(int *)o->dest = k;
                return 0;
            }
        return fail(c, 0, "%s expects %s, not '%s'", n, o->what, v);
    case CLI_PAIR: {
        const char *eq = strchr(v, '=');
        if (eq == NULL || eq == v || eq[1] == '\0')
            return fail(c, 0, "%s expects %s, not '%s'", n,
                        o->what ? o->what : "NAME=VALUE", v);
        return push(o->dest, v);
    }
    }
    return 2;
}

/* The message for what getopt_long refused ('?'): the text given is
   av[optind - 1], except inside a cluster of short options (-vx), where
   optopt names the letter. */
static int
refused(cli *c, const struct option *lo, char *const *av)
{
    const char *given = av[optind - 1];
    if (optopt > 0 && optopt < O_TABLE && strncmp(given, "--", 2) != 0)
        return fail(c, 1, "unknown option '-%c'", optopt);
    if (optopt != 0 && strchr(given, '=') != NULL)
        return fail(c, 1, "option '%.*s' takes no value",
                    (int)(strchr(given, '=') - given), given);
    if (strncmp(given, "--", 2) == 0) {
        size_t len = strcspn(given + 2, "=");
        int matches = 0;
        for (const struct option *o = lo; o->name != NULL; o++)
            matches += strncmp(o->name, given + 2, len) == 0;
        if (matches > 1)
            return fail(c, 1,
                        "ambiguous option '%s' (an abbreviation of %d "
                        "options)",
                        given, matches);
    }
    return fail(c, 1, "unknown option '%s'", given);
}

int
cli_parse(cli *c, int argc, char **argv)
{
    struct option lo[NOPT_MAX + 4];
    char so[3 * NOPT_MAX + 16] = ":hd:p:", name[64];
    int n = 0, ch, rc = -1;
    char **av;

    c->digits = HDO_DIGITS_DEFAULT;
    c->digits_given = 0;
    c->params.v = NULL;
    c->params.n = 0;
    c->rest.v = NULL;
    c->rest.n = 0;
    c->op[0] = c->op[1] = NULL;
    for (const cli_option *o = c->opts; o->name != NULL; o++)
        if (o->kind == CLI_TIME || o->kind == CLI_TIME_POS)
            fmpq_init(((cli_time *)o->dest)->q);
    lo[n++] = (struct option){"help", no_argument, NULL, O_HELP};
    lo[n++] = (struct option){"digits", required_argument, NULL, O_DIGITS};
    lo[n++] = (struct option){"param", required_argument, NULL, O_PARAM};
    for (int k = 0; c->opts[k].name != NULL && k < NOPT_MAX; k++) {
        const cli_option *o = c->opts + k;
        int arg = o->kind == CLI_FLAG ? no_argument : required_argument;
        lo[n++] = (struct option){o->name, arg, NULL, O_TABLE + k};
        if (o->short_name != 0) {
            size_t l = strlen(so);
            snprintf(so + l, sizeof so - l, "%c%s", o->short_name,
                     arg == no_argument ? "" : ":");
        }
    }
    lo[n] = (struct option){NULL, 0, NULL, 0};

    /* getopt_long permutes what it reads: a copy, so that argv (which
       summary.json records) keeps the order it was given in */
    av = malloc((size_t)(argc + 1) * sizeof *av);
    if (av == NULL)
        return 2;
    memcpy(av, argv, (size_t)argc * sizeof *av);
    av[argc] = NULL;
    optind = 0; /* a full reinitialisation (GNU): parse from av[1] */
    opterr = 0;
    while (rc < 0 && (ch = getopt_long(argc, av, so, lo, NULL)) != -1) {
        const cli_option *o = NULL;
        if (ch >= O_TABLE) {
            o = c->opts + (ch - O_TABLE);
        } else {
            for (const cli_option *p = c->opts; p->name != NULL; p++)
                if (p->short_name == ch)
                    o = p;
        }
        if (o != NULL) {
            snprintf(name, sizeof name, "--%s", o->name);
            rc = take(c, o, name, optarg);
            rc = rc == 0 ? -1 : rc;
            continue;
        }
        switch (ch) {
        case O_HELP:
            c->usage(stdout);
            rc = 0;
            break;
        case O_DIGITS:
            c->digits_given = 1;
            c->digits = parse_count(optarg, LONG_MAX);
            if (c->digits < 0)
                rc = fail(c, 0,
                          "--digits expects an integer from 1 to %d, "
                          "not '%s'",
                          HDO_MAX_DIGITS, optarg);
            else if (c->digits > HDO_MAX_DIGITS)
                rc = fail(c, 0,
                          "--digits %s: at most %d digits (the work grows "
                          "like D^2.2: 2000 digits take about 10 s on one "
                          "variable, 10000 about 6 minutes); expected an "
                          "integer from 1 to %d",
                          optarg, HDO_MAX_DIGITS, HDO_MAX_DIGITS);
            break;
        case O_PARAM: /* applied when the model is read */
            rc = push(&c->params, optarg) == 0 ? -1 : 2;
            break;
        case ':':
            rc = fail(c, 0, "%s needs a value", av[optind - 1]);
            break;
        default:
            rc = refused(c, lo, av);
            break;
        }
    }
    for (int k = optind + c->nops; rc < 0 && c->more_ops && k < argc; k++)
        rc = push(&c->rest, av[k]) == 0 ? -1 : 2;
    if (rc < 0 && !c->more_ops && argc - optind > c->nops)
        rc = fail(c, 1, "unexpected argument '%s'", av[optind + c->nops]);
    else if (rc < 0 && argc - optind < c->nops)
        rc = fail(c, 1, "expected %s", c->operands);
    for (int k = 0; rc < 0 && k < c->nops; k++)
        c->op[k] = av[optind + k];
    free(av);
    return rc;
}

void
cli_clear(cli *c)
{
    for (const cli_option *o = c->opts; o->name != NULL; o++) {
        if (o->kind == CLI_TIME || o->kind == CLI_TIME_POS)
            fmpq_clear(((cli_time *)o->dest)->q);
        else if (o->kind == CLI_PAIR)
            free(((cli_list *)o->dest)->v);
    }
    free(c->params.v);
    free(c->rest.v);
    c->rest.v = NULL;
}

const char *const cli_methods[] = {"auto", "taylor", "implicit", NULL};

void
cli_run_init(cli_run *r)
{
    hdo_run_options_init(&r->opt);
    r->every.set = r->until.set = 0;
    r->every.text = r->until.text = NULL;
    r->verify = r->progress = 0;
}

void
cli_run_finish(cli_run *r, const cli *c)
{
    r->opt.digits = c->digits;
    r->opt.every = r->every.set ? r->every.q : NULL;
    r->opt.until = r->until.set ? r->until.q : NULL;
}

int
cli_params_apply(hdo_model_t model, const cli *c)
{
    for (int k = 0; k < c->params.n; k++) {
        hdo_error_t err;
        hdo_error_clear(&err);
        if (hdo_model_add_override(model, c->params.v[k], &err) != 0) {
            fprintf(stderr, "hdo %s: %s\n", c->cmd, err.message);
            return 2;
        }
    }
    return 0;
}

void
cli_print_error(const cli *c, const hdo_error_t *err)
{
    char buf[2048];
    hdo_error_format(buf, sizeof buf, err);
    /* an error without a file is about the command line */
    if (err->file == NULL)
        fprintf(stderr, "hdo %s: ", c->cmd);
    fprintf(stderr, "%s\n", buf);
}
