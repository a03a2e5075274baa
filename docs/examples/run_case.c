/* run_case.c -- runs a model file through libhdo and prints its events and
   final state.

   The smallest complete use of the library, installed as
   share/doc/hdo/examples/run_case.c by `make install`.  Build it against
   the installed library with

       cc run_case.c $(pkg-config --cflags --libs hdo) -o run_case

   (add --static to pkg-config and link libhdo.a for a static program) and
   run it as

       ./run_case bouncing_ball.hdae 30

   It parses the model (hdo_model_parse_file), runs it from its start to
   its `until` time with D significant digits (hdo_run, the computation of
   `hdo run MODEL -d D`), and prints one line per event and the state at
   the end, every number with D significant digits in the format of
   `hdo run`'s events.csv and trajectory.csv:

       hdo 0.1.0
       event 1 t=4.51...e-01 fly -> fly switch [h < 0]
       ...
       final t=3.00...e+00 mode=rest
       h=...

   A variable the final mode lacks is printed as "-".  Exit status: 0, or
   2 when the model cannot be read or the run fails (with the message, as
   file:line:col: error: ..., on stderr). */
#include <stdio.h>
#include <stdlib.h>
#include <hdo/hdo.h>

int
main(int argc, char **argv)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_run_options opt;
    hdo_error_t err;
    char msg[2048], from[512], to[512];
    int status;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: run_case MODEL [DIGITS]\n");
        return 2;
    }
    hdo_run_options_init(&opt); /* 30 digits, the model's end time */
    if (argc == 3) {
        char *end;
        opt.digits = strtol(argv[2], &end, 10);
        /* hdo_run refuses more than HDO_MAX_DIGITS too, with a message;
           checked here so that the usage error comes first */
        if (*end != '\0' || opt.digits <= 0 || opt.digits > HDO_MAX_DIGITS) {
            fprintf(stderr, "run_case: DIGITS: 1 to %d\n", HDO_MAX_DIGITS);
            return 2;
        }
    }
    printf("hdo %s\n", hdo_version());

    hdo_error_clear(&err);
    hdo_model_init(model);
    status = hdo_model_parse_file(model, argv[1], &err);
    if (status != 0) {
        /* err->file points into model: format before clearing it */
        hdo_error_format(msg, sizeof msg, &err);
        fprintf(stderr, "%s\n", msg);
        hdo_model_clear(model);
        return 2;
    }

    hdo_result_init(res);
    status = hdo_run(res, model, &opt, &err);
    if (status != 0) {
        hdo_error_format(msg, sizeof msg, &err);
        fprintf(stderr, "%s (%s)\n", msg, hdo_status_name(status));
    } else {
        int d = (int)(opt.digits - 1); /* digits after the point */
        for (slong i = 0; i < res->nevents; i++) {
            const hdo_event *e = res->events + i;
            hdo_mode_name(from, sizeof from, model, e->from);
            hdo_mode_name(to, sizeof to, model, e->to);
            mpfr_printf("event %ld t=%.*Re %s -> %s %s [%s]\n", (long)e->index,
                        d, e->time, from, to, hdo_event_kind_name(e->kind),
                        e->guard != NULL ? e->guard : "");
        }
        if (res->nrows > 0) {
            const hdo_row *r = res->rows + res->nrows - 1;
            hdo_mode_name(to, sizeof to, model, r->mode);
            mpfr_printf("final t=%.*Re mode=%s\n", d, r->time, to);
            for (slong v = 0; v < model->nvars; v++) {
                if (r->present[v])
                    mpfr_printf("%s=%.*Re\n", model->vars[v].name, d,
                                r->values + v);
                else
                    printf("%s=-\n", model->vars[v].name);
            }
        }
    }
    hdo_result_clear(res);
    hdo_model_clear(model);
    /* release MPFR's and FLINT's caches, for leak checkers */
    mpfr_free_cache();
    flint_cleanup_master();
    return status == 0 ? 0 : 2;
}
