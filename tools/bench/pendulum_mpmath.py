"""pendulum_mpmath.py -- times python3-mpmath's odefun (its own Taylor
series integrator) on the pendulum of tools/bench/pendulum_bench.c:
theta'' = -g/L sin theta, g = 9.8 (exact decimal), L = 1, theta(0) = 1,
theta'(0) = 0, over [0, 5], at the digit counts given on the command line.

Prints one line per digit count: digits, CPU seconds (time.process_time,
like the C side), theta(5).  Run with /usr/bin/python3 (Debian's
python3-mpmath), not a pyenv python.
"""
import sys
import time

import mpmath


def run(digits):
    mpmath.mp.dps = digits
    g = mpmath.mpf('9.8')  # the decimal 9.8, as the model's exact 49/5
    start = time.process_time()
    f = mpmath.odefun(lambda t, y: [y[1], -g * mpmath.sin(y[0])], 0,
                      [mpmath.mpf(1), mpmath.mpf(0)])
    theta = f(5)[0]
    return time.process_time() - start, theta


def main():
    for arg in sys.argv[1:]:
        digits = int(arg)
        seconds, theta = run(digits)
        print(digits, "%.3f" % seconds, mpmath.nstr(theta, digits))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
