/* sliding_limits.c -- the limits of Filippov sliding on intersections of
 * switching surfaces at their boundaries (ref/reduce/filippov_cube.c,
 * ref/hybrid/intersect.c): at most HDO_SLIDING_MAXK = 3 surfaces (8
 * adjacent modes), in models of at most HDO_MODE_ID_MAXMODES = 62 modes.
 * Decoupled relays x_j' = c_j - sgn(x_j) stick on x_j = 0 at t = x_j(0) /
 * (1 - c_j) (closed form; c = 1/4, -1/2, 0, 0, x(0) = 1, 3, 5/2, 11/4:
 * t = 4/3, 2, 5/2, 11/4). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid.h"
#include "hybrid/internal.h"
#include "../model_util.h"
#include "run_util.h"

static const char *cs[4] = {"1/4", "-1/2", "0", "0"};
static const char *x0s[4] = {"1", "3", "5/2", "11/4"};

/* k relays (2^k modes named by the signs, p/m per relay, first relay
   first), then pad modes never entered; until 3. */
static char *
relays(int k, int pad)
{
    size_t size = 200000, len = 0;
    char *text = malloc(size);
    cr_assert(text != NULL);
    len += (size_t)snprintf(text + len, size - len, "model relays\nvar ");
    for (int j = 0; j < k; j++)
        len += (size_t)snprintf(text + len, size - len, "%sx%d = %s",
                                j ? ", " : "", j + 1, x0s[j]);
    len += (size_t)snprintf(text + len, size - len, "\n");
    for (int q = 0; q < (1 << k); q++) {
        char name[8];
        for (int j = 0; j < k; j++)
            name[j] = (q >> (k - 1 - j)) & 1 ? 'm' : 'p';
        name[k] = '\0';
        len += (size_t)snprintf(text + len, size - len, "mode %s\n", name);
        for (int j = 0; j < k; j++)
            len += (size_t)snprintf(text + len, size - len,
                                    "  der(x%d) = %s %s 1\n", j + 1, cs[j],
                                    name[j] == 'p' ? "-" : "+");
        for (int j = 0; j < k; j++) {
            char to[8];
            memcpy(to, name, sizeof to);
            to[j] = name[j] == 'p' ? 'm' : 'p';
            len += (size_t)snprintf(text + len, size - len,
                                    "  when x%d %c 0 goto %s\n", j + 1,
                                    name[j] == 'p' ? '<' : '>', to);
        }
        len += (size_t)snprintf(text + len, size - len, "end\n");
    }
    for (int u = 0; u < pad; u++) {
        len += (size_t)snprintf(text + len, size - len, "mode unused%d\n", u);
        for (int j = 0; j < k; j++)
            len += (size_t)snprintf(text + len, size - len, "  der(x%d) = 0\n",
                                    j + 1);
        len += (size_t)snprintf(text + len, size - len, "end\n");
    }
    snprintf(text + len, size - len, "start %.*s\nuntil 3\n", k, "pppp");
    return text;
}

/* 3 surfaces (8 modes) slide; 4 (16 modes) are refused at t = 11/4 with
   a clear message, after the three stickings before it. */
Test(sliding_limits, surfaces_boundary)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    char *text = relays(3, 0);
    tm_parse(model, text);
    free(text);
    cr_assert_eq(tm_run(res, model, 20, NULL, &err), 0, "%s", err.message);
    cr_expect_eq(res->nevents, 3);
    char name[256];
    hdo_mode_name(name, sizeof name, model, res->events[2].to);
    cr_expect_str_eq(name, "sliding(ppp,ppm,pmp,pmm,mpp,mpm,mmp,mmm)");
    hdo_result_clear(res);
    hdo_model_clear(model);

    text = relays(4, 0);
    tm_parse(model, text);
    free(text);
    int st = tm_run(res, model, 20, NULL, &err);
    cr_expect_eq(st, HDO_ERR_UNSUPPORTED, "%d %s", st, err.message);
    cr_expect(strstr(err.message, "intersection of 4 or more surfaces (16 "
                                  "adjacent modes) is not covered") != NULL,
              "%s", err.message);
    cr_expect(err.has_time && fabs(err.time - 2.75) < 1e-12, "%s", err.message);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Two relays (4 modes) slide on both surfaces in a model of 62 modes;
   with one more unused mode (63) the intersection is refused, naming the
   limit. */
Test(sliding_limits, modes_boundary)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    char *text = relays(2, 62 - 4);
    tm_parse(model, text);
    free(text);
    cr_assert_eq(model->nmodes, 62);
    cr_assert_eq(tm_run(res, model, 20, NULL, &err), 0, "%s", err.message);
    cr_expect_eq(res->nevents, 2);
    char name[256];
    hdo_mode_name(name, sizeof name, model, res->events[1].to);
    cr_expect_str_eq(name, "sliding(pp,pm,mp,mm)");
    hdo_result_clear(res);
    hdo_model_clear(model);

    text = relays(2, 63 - 4);
    tm_parse(model, text);
    free(text);
    cr_assert_eq(model->nmodes, 63);
    int st = tm_run(res, model, 20, NULL, &err);
    cr_expect_eq(st, HDO_ERR_UNSUPPORTED, "%d %s", st, err.message);
    cr_expect(strstr(err.message, "at most 62 modes") != NULL, "%s",
              err.message);
    hdo_result_clear(res);
    hdo_model_clear(model);
}
