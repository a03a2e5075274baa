/* radau_control.c -- Radau IIA's two cost thresholds: when to refactor the
 * Newton matrix, when to keep the step size */
#include <math.h>
#include "radau_control.h"

int
hdo_radau_refactor(double theta, int full, int fresh)
{
    if (theta > HDO_RADAU_NEWTON_REFACTOR)
        /* slow: the matrix again at this iterate; the full one when the
           blocks' one Jacobian was fresh and still slow (the stages'
           Jacobians differ too much) */
        return full || fresh ? 2 : 1;
    if (!full && !fresh && theta > HDO_RADAU_BLOCK_REFACTOR)
        return 1;
    return 0;
}

int
hdo_radau_keep_step(double fac, long s)
{
    double keep =
        s <= HDO_RADAU_SAFETY_STAGES
            ? HDO_RADAU_STEP_KEEP
            : pow(HDO_RADAU_STEP_KEEP,
                  (double)(HDO_RADAU_SAFETY_STAGES - 1) / (double)(s - 1));
    return fac >= 1 && fac < keep;
}

double
hdo_radau_step_safety(long s)
{
    return s <= HDO_RADAU_SAFETY_STAGES
               ? 0.8
               : pow(0.8,
                     (double)(HDO_RADAU_SAFETY_STAGES - 1) / (double)(s - 1));
}

int
hdo_radau_probe_due(long kept, double p, double hlam, long s)
{
    return kept >= HDO_RADAU_PROBE_AFTER &&
           (p < 0.5 * (double)(s - 1) || hlam >= HDO_RADAU_PROBE_STIFF);
}
