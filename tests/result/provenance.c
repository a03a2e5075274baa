/* provenance.c -- summary.json records what produced a result: hdo's
 * version, the command line and the parameter values */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"
#include "version.h"

static const char *model_text = "model prov\n"
                                "param p = 1/3\n"
                                "param r = sqrt(2)\n"
                                "param n = -7\n"
                                "var x = 1\n"
                                "mode m\n  der(x) = -p*x\nend\n"
                                "start m\nuntil 1\n";

static char *
summary(const hdo_result_t res, const hdo_model_t model)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hdo_error_t err;
    int st = hdo_write_summary(f, res, model, -1, &err);
    fclose(f);
    cr_assert_eq(st, 0);
    return buf;
}

Test(hybrid, summary_version_command_parameters)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    /* a quote and a backslash must come out escaped */
    const char *argv[] = {"run", "prov.hdae", "-o", "a\"b\\c"};
    hdo_error_clear(&err);
    hdo_model_init(model);
    cr_assert_eq(hdo_model_parse_string(model, model_text, strlen(model_text),
                                        "prov.hdae", &err),
                 0, "%s", err.message);
    hdo_result_init(res);
    cr_assert_null(res->command_argv);
    hdo_result_setup(res, model, 5, 64);

    /* without a command line the key is left out */
    char *s = summary(res, model);
    cr_assert(strstr(s, "\"command_line\"") == NULL, "%s", s);
    free(s);

    res->command_argv = argv;
    res->command_argc = 4;
    s = summary(res, model);
    /* the version: the three numbers of version.h, written out here */
    cr_assert_str_eq(hdo_version(), HDO_VERSION_STRING);
    char want[64];
    snprintf(want, sizeof want, "\"hdo_version\": \"%d.%d.%d\"",
             HDO_VERSION_MAJOR, HDO_VERSION_MINOR, HDO_VERSION_PATCH);
    cr_assert(strstr(s, want) != NULL, "%s", s);
    cr_assert(strstr(s, "\"command_line\": [\"run\", \"prov.hdae\", \"-o\", "
                        "\"a\\\"b\\\\c\"]") != NULL,
              "%s", s);
    /* 1/3, sqrt(2) = 1.41421356..., -7 with 5 significant digits */
    cr_assert(strstr(s, "\"parameters\": {\"p\": 3.3333e-01, \"r\": "
                        "1.4142e+00, \"n\": -7.0000e+00}") != NULL,
              "%s", s);
    free(s);
    hdo_result_clear(res);
    hdo_model_clear(model);
}
