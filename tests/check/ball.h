/* ball.h -- test data: the bouncing ball in closed form (h = 1 - g t^2/2 and
   the parabolic arcs after each bounce), evaluated in double precision,
   independently of hdo's integrator */
#ifndef HDO_TESTS_COMPARE_BALL_H
#define HDO_TESTS_COMPARE_BALL_H

#include <math.h>
#include <stdlib.h>

#define BALL_G 9.81
#define BALL_E 0.8
#define BALL_NEV 6

/* Event times t_k and the upward speed u_k right after bounce k
   (k = 1..BALL_NEV; t_0 = 0, u_0 = 0 with the ball at h = 1). */
static inline void
ball_events(double *t, double *u)
{
    double v1 = sqrt(2 * BALL_G); /* speed at the first impact from 1 m */
    t[0] = 0;
    u[0] = 0;
    t[1] = sqrt(2 / BALL_G);
    u[1] = BALL_E * v1;
    for (int k = 2; k <= BALL_NEV; k++) {
        t[k] = t[k - 1] + 2 * u[k - 1] / BALL_G;
        u[k] = BALL_E * u[k - 1];
    }
}

/* h (var 0) or v (var 1) on arc k (k = 0: the drop from 1 m) at time t;
   the arc may be continued past its ends. */
static inline double
ball_arc(int k, int var, double t)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1], s;
    ball_events(tk, uk);
    s = t - tk[k];
    if (k == 0)
        return var == 0 ? 1 - BALL_G * t * t / 2 : -BALL_G * t;
    return var == 0 ? uk[k] * s - BALL_G * s * s / 2 : uk[k] - BALL_G * s;
}

/* The arc that holds t (t not an event time): the right limit at events. */
static inline int
ball_arc_at(double t)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    int k = 0;
    ball_events(tk, uk);
    while (k < BALL_NEV && t >= tk[k + 1])
        k++;
    return k;
}

static inline double
ball(int var, double t)
{
    return ball_arc(ball_arc_at(t), var, t);
}

#endif
