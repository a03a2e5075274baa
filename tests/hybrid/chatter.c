/* chatter.c -- the table of chattering policies (ref/hybrid/chatter.c):
 * one row per policy of the language, and what each does with the same
 * chattering cascade (decisions.md D-004, D-022, "Filippov sliding",
 * "Chattering limit"). */
#include <stdio.h>
#include <criterion/criterion.h>
#include "hybrid.h"
#include "hybrid/chatter.h"
#include "../model_util.h"

/* Every value of hdo_chattering has its row, at its own index, and the
   row's keyword after `chattering` parses to that value. */
Test(hybrid_chatter, one_row_per_policy_of_the_language)
{
    cr_assert_eq(hdo_run_chatter_npolicies, 3);
    for (slong i = 0; i < hdo_run_chatter_npolicies; i++) {
        const hdo_chatter_policy *row = hdo_run_chatter_row(i);
        cr_assert_eq((slong)row->policy, i);
        char text[256];
        /* a width is written only after `hysteresis` (model-format.md) */
        int width = strcmp(row->keyword, "hysteresis") == 0;
        snprintf(text, sizeof text,
                 "model p\nvar x = 0\nmode a\n  der(x) = 1\nend\n"
                 "start a\nuntil 1\nchattering %s%s\n",
                 row->keyword, width ? " 1/2" : "");
        hdo_model_t model;
        tm_parse(model, text);
        cr_assert_eq((slong)model->chattering, i, "%s", row->keyword);
        cr_assert_eq(hdo_run_chatter_policy(model), row);
        hdo_model_clear(model);
    }
}

/* `when n < 200 goto a with n = n + 1` from n = 0 switches 200 times at
   t = 0: no Filippov pair (a mode that switches to itself), no Zeno (no
   gaps) and no livelock (n changes), so the 101st switch is chattering
   under every policy; hysteresis 1/2 moves the surface to n < 200 + 1/2,
   the same for integer n.  decisions.md D-004: HDO_ERR_UNSUPPORTED under
   `filippov`, HDO_ERR_CHATTERING under `stop` (and `hysteresis`, which
   says it does not implement more). */
static int
run_cascade(const char *policy, hdo_error_t *err)
{
    char text[512];
    snprintf(text, sizeof text,
             "model ch\nvar n = 0\nvar x = 0\nmode a\n  der(n) = 0\n"
             "  der(x) = 1\n  when n < 200 goto a with n = n + 1\nend\n"
             "start a at 0\nuntil 1\nchattering %s\n",
             policy);
    hdo_model_t model;
    hdo_result_t res;
    tm_parse(model, text);
    int st = tm_run(res, model, 20, NULL, err);
    cr_assert_eq(res->nevents, HDO_RUN_MAX_INSTANT, "%s", policy);
    hdo_result_clear(res);
    hdo_model_clear(model);
    return st;
}

Test(hybrid_chatter, detected_chattering_per_policy)
{
    hdo_error_t err;
    cr_assert_eq(run_cascade("filippov", &err), HDO_ERR_UNSUPPORTED);
    cr_assert(strstr(err.message, "Filippov sliding is not covered here") !=
                  NULL,
              "%s", err.message);
    cr_assert_eq(run_cascade("stop", &err), HDO_ERR_CHATTERING);
    cr_assert(strstr(err.message, "`chattering stop` ends the run here") !=
                  NULL,
              "%s", err.message);
    cr_assert_eq(run_cascade("hysteresis 1/2", &err), HDO_ERR_CHATTERING);
    cr_assert(strstr(err.message, "`chattering hysteresis`") != NULL, "%s",
              err.message);
}
