/* chatter.c -- the chattering policies of hdo_run, one row each */
#include "chatter.h"
#include "status.h"

/* `chattering hysteresis d`: every switching surface moved by d
   (feasible while S + d >= 0), from the start (decisions.md D-003). */
static hdo_expr
guard_hysteresis(hdo_model_struct *model, hdo_expr S)
{
    return hdo_expr_add(model->pool, S, model->hysteresis);
}

/* Indexed by hdo_chattering. */
static const hdo_chatter_policy policies[] = {
    [HDO_CHATTER_FILIPPOV] =
        {
            .policy = HDO_CHATTER_FILIPPOV,
            .keyword = "filippov",
            .guard = NULL,
            .sliding = 1,
            .status = HDO_ERR_UNSUPPORTED,
            .why = "Filippov sliding is not covered here (sliding on an "
                   "intersection of surfaces, a mode that switches to "
                   "itself, or modes not in explicit form)",
        },
    [HDO_CHATTER_HYSTERESIS] =
        {
            .policy = HDO_CHATTER_HYSTERESIS,
            .keyword = "hysteresis",
            .guard = guard_hysteresis,
            .sliding = 0,
            .status = HDO_ERR_CHATTERING,
            .why = "`chattering hysteresis` is not implemented yet",
        },
    [HDO_CHATTER_STOP] =
        {
            .policy = HDO_CHATTER_STOP,
            .keyword = "stop",
            .guard = NULL,
            .sliding = 0,
            .status = HDO_ERR_CHATTERING,
            .why = "`chattering stop` ends the run here",
        },
};

const slong hdo_run_chatter_npolicies =
    (slong)(sizeof policies / sizeof policies[0]);

const hdo_chatter_policy *
hdo_run_chatter_row(slong i)
{
    HDO_ASSERT(i >= 0 && i < hdo_run_chatter_npolicies);
    return policies + i;
}

const hdo_chatter_policy *
hdo_run_chatter_policy(const hdo_model_struct *model)
{
    return hdo_run_chatter_row((slong)model->chattering);
}
