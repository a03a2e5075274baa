"""reference.py -- the independent references of tools/bench/heyoka/run.py:
neither hdo's nor heyoka's code, at more digits than tested.

  /usr/bin/python3 tools/bench/heyoka/reference.py PROBLEM DIGITS

prints the reference (event times, then the state at the end) as
"event K T" and "final NAME V" lines, the format of heyoka_bench.

- The pendulum (g = 9.8, L = 1, theta0 = pi/2 at rest; all four forms):
  the Jacobi elliptic closed form, m = sin^2(theta0/2) = 1/2, w = sqrt(g/L),
  u = K(m) - w t: sin(theta/2) = sqrt(m) sn(u|m), theta' = -2 w sqrt(m)
  cn(u|m); x = L sin(theta), y = -L cos(theta); x = 0 at (2k - 1) K / w.
- The bouncing ball (h0 = 1, g = 9.81, e = 0.7) to t = 2.5: impact k at
  t1 (1 + 2 (e + ... + e^(k-1))), t1 = sqrt(2 h0 / g), leaving upwards at
  g t1 e^k; then free fall to the end.
- The FPU-beta chain (20 masses, beta = 1/10, first normal mode, t = 10):
  no closed form; a Taylor series integrator of its own in fixed-point
  integer arithmetic (Python's integers, 64 guard bits), the order raised
  at each step until the terms fall below the precision, run with two step
  sizes; the digits the two agree on are checked to exceed the digits
  asked, else it stops with an error.
"""
import operator
import sys

import mpmath
from mpmath import mp, mpf

G_PEND = "9.8"
G_BALL = "9.81"
E_BALL = "0.7"
BALL_END = "2.5"
PEND_END = 3
FPU_N = 20
FPU_END = 10


def pendulum_at(t):
    m = mpf(1) / 2
    w = mpmath.sqrt(mpf(G_PEND))
    u = mpmath.ellipk(m) - w * t
    th = 2 * mpmath.asin(mpmath.sqrt(m) * mpmath.ellipfun("sn", u, m=m))
    om = -2 * w * mpmath.sqrt(m) * mpmath.ellipfun("cn", u, m=m)
    return th, om


def pendulum_events(t_end):
    k_over_w = mpmath.ellipk(mpf(1) / 2) / mpmath.sqrt(mpf(G_PEND))
    out, k = [], 1
    while (2 * k - 1) * k_over_w < t_end:
        out.append((2 * k - 1) * k_over_w)
        k += 1
    return out


def pendulum(form):
    t = mpf(PEND_END)
    th, om = pendulum_at(t)
    events = [] if form == "pendulum" else pendulum_events(t)
    if form in ("pendulum", "pendulum_events"):
        final = {"th": th, "om": om}
    elif form == "pendulum_dae":
        final = {"th": th, "om": om, "x": mpmath.sin(th), "y": -mpmath.cos(th)}
    else:  # pendulum_cart: velocities from theta' along the circle
        final = {"x": mpmath.sin(th), "y": -mpmath.cos(th),
                 "vx": mpmath.cos(th) * om, "vy": mpmath.sin(th) * om}
    return events, final


def ball():
    g, e, t_end = mpf(G_BALL), mpf(E_BALL), mpf(BALL_END)
    t1 = mpmath.sqrt(2 / g)
    events, t, k = [], t1, 1
    while t < t_end:
        events.append(t)
        t += 2 * e ** k * t1
        k += 1
    n = len(events)
    s = t_end - events[-1]
    v0 = g * t1 * e ** n
    return events, {"h": v0 * s - g * s * s / 2, "v": v0 - g * s}


def fpu_taylor(bits, steps):
    """The chain at t = FPU_END by `steps` equal Taylor steps, as
    fixed-point integers scaled by 2^bits.  The series are in the step's
    own time tau = t / h, so the value at the step's end is the sum of the
    coefficients."""
    one = 1 << bits
    n = FPU_N
    pi = mpmath.pi
    with mpmath.workdps(int(bits / 3.32) + 20):
        u = [int(mpmath.nint(mpmath.sin(pi * i / (n + 1)) * one))
             for i in range(1, n + 1)]
    w = [0] * n
    tiny = 1 << 8  # a term under 2^(8 - bits) no longer counts
    for _ in range(steps):
        U = [[x] for x in u]
        W = [[x] for x in w]
        # stretches d[j] = u[j+1] - u[j] (walls at 0) and their squares
        D = [[] for _ in range(n + 1)]
        S = [[] for _ in range(n + 1)]
        C = [[] for _ in range(n + 1)]
        k = 0
        small = 0
        while True:
            for j in range(n + 1):
                right = U[j][k] if j < n else 0
                left = U[j - 1][k] if j > 0 else 0
                dj = D[j]
                dj.append(right - left)
                S[j].append(sum(map(operator.mul, dj, reversed(dj))) >> bits)
                C[j].append(sum(map(operator.mul, S[j], reversed(dj))) >> bits)
            # (k + 1) c_{k+1} = h f_k with h = FPU_END / steps; beta = 1/10
            div = (k + 1) * steps
            for i in range(n):
                f = (D[i + 1][k] - D[i][k]) * 10 + (C[i + 1][k] - C[i][k])
                # f holds 10 x (the linear part + beta x the cubic part)
                W[i].append(f * FPU_END // (10 * div))
                U[i].append(W[i][k] * FPU_END // div)
            k += 1
            big = max(max(abs(U[i][k]), abs(W[i][k])) for i in range(n))
            small = small + 1 if big < tiny else 0
            if small == 3:
                break
            if k > 4000:
                raise SystemExit("reference.py: fpu: the series do not "
                                 "converge in 4000 terms; take more steps")
        u = [sum(c) for c in U]
        w = [sum(c) for c in W]
    return [mpf(x) / one for x in u + w]


def fpu(digits):
    bits = int(digits * 3.3219281) + 64
    a = fpu_taylor(bits, 10)
    b = fpu_taylor(bits, 16)
    worst = max(abs(x - y) for x, y in zip(a, b))
    agree = mpmath.inf if worst == 0 else -mpmath.log10(worst)
    if agree < digits - 8:
        raise SystemExit("reference.py: fpu: the two step sizes agree to "
                         "%s digits only, fewer than %d" %
                         (mpmath.nstr(agree, 5), digits - 8))
    names = ["u%d" % i for i in range(1, FPU_N + 1)]
    names += ["w%d" % i for i in range(1, FPU_N + 1)]
    return [], dict(zip(names, b))


def reference(problem, digits):
    """(event times, {name: value at the end}) to `digits` digits."""
    mp.dps = digits + 10
    if problem.startswith("pendulum"):
        return pendulum(problem)
    if problem == "ball":
        return ball()
    if problem == "fpu":
        return fpu(digits + 10)
    raise SystemExit("reference.py: unknown problem '%s'" % problem)


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: reference.py PROBLEM DIGITS")
    digits = int(sys.argv[2])
    events, final = reference(sys.argv[1], digits)
    for k, t in enumerate(events, 1):
        print("event", k, mpmath.nstr(t, digits, strip_zeros=False))
    for name, v in final.items():
        print("final", name, mpmath.nstr(v, digits, strip_zeros=False))


if __name__ == "__main__":
    main()
