#!/bin/bash
# pendulum.sh -- hdo's Taylor integrator against python3-mpmath's odefun on
# the pendulum angle ODE over [0, 5]: CPU seconds of each, their ratio, and
# the digits on which the two values of theta(5) agree.
#
#   tools/bench/pendulum.sh BENCH_BINARY [DIGITS...]   (default 30 45 60 100)
#
# mpmath takes minutes at 100 digits; HDO_BENCH_MPMATH_MAX (default 60) caps
# the digit counts it is run at (the others print hdo's figures only).
set -euo pipefail
bench=${1:?usage: pendulum.sh BENCH_BINARY [DIGITS...]}
shift
digits=("${@:-}")
[ -z "${digits[0]}" ] && digits=(30 45 60 100)
mpmax=${HDO_BENCH_MPMATH_MAX:-60}
here=$(dirname "$0")

hdo_out=$("$bench" "${digits[@]}")
echo "$hdo_out"
echo
printf '%-7s %6s %6s %12s %12s %9s %7s\n' digits order steps hdo_cpu_s \
    mpmath_cpu_s ratio agree
while read -r d order steps secs theta; do
    [[ $d == \#* ]] && continue
    if [ "$d" -le "$mpmax" ]; then
        read -r _ msecs mtheta < <(/usr/bin/python3 "$here/pendulum_mpmath.py" "$d")
        ratio=$(/usr/bin/python3 -c "print('%.0f' % ($msecs / $secs))")
        # digits of agreement: -log10 |a - b| (theta(5) is about -0.52)
        agree=$(/usr/bin/python3 -c "
import mpmath; mpmath.mp.dps = $d + 20
e = abs(mpmath.mpf('$theta') - mpmath.mpf('$mtheta'))
print('all' if e == 0 else int(-mpmath.log10(e)))")
    else
        msecs=-; ratio=-; agree=-
    fi
    printf '%-7s %6s %6s %12s %12s %9s %7s\n' "$d" "$order" "$steps" \
        "$secs" "$msecs" "$ratio" "$agree"
done <<< "$hdo_out"
