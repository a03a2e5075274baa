#!/usr/bin/env bash
# run_tiny_event.sh -- an event at t = 1e-30 from t0 = 0 has D significant
# digits of its time (the scale rule; decisions.md D-106: the root is
# refined relative to itself, not to the step; D-112: the guard's value
# at t = 0 is a zero only within its own error), at 16, 30, 60 and 100
# digits.
#
# x' = 1 from 0, and the guard 1e-30 - x + k x^2 < 0: its root
# (1 - sqrt(1 - 4e-30 k)) / (2 k), from mpmath here, for k = 0, 1e20,
# -1e25 and 1e28 (curvature that moves the root by 1e-10, 1e-5 and 1e-2
# of itself); beside y' = -y (a step of order 1; model "y"), and alone
# (model "x": every state zero at the start, a step of the horizon's).
# The time must agree to D - 1 significant digits of itself.  Before
# D-112, at 16 and 30 digits with k != 0 the zero rule took the guard's
# 1e-30 at t = 0 for a zero, being below tol times the guard's size over
# the step (k x^2 over a step of 2.7: 1e-35 7e20 for k = 1e20 at 30
# digits), and put the event at t = 0.
set -u
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/event_time.bash"

fails=0
passes=0
for model in y x; do
    for k in 0 1e20 -1e25 1e28; do
        if [[ $model == y ]]; then
            printf 'model tiny\nvar x = 0, y = 1\nmode a\n  der(x) = 1\n  der(y) = -y\n  when 1e-30 - x + (%s)*x^2 < 0 goto b\nend\nmode b\n  der(x) = 1\n  der(y) = -y\nend\nstart a at 0\nuntil 2\n' \
                "$k" >"$tmp/tiny.hdae"
        else
            printf 'model tiny\nvar x = 0\nmode a\n  der(x) = 1\n  when 1e-30 - x + (%s)*x^2 < 0 goto b\nend\nmode b\n  der(x) = 1\nend\nstart a at 0\nuntil 2\n' \
                "$k" >"$tmp/tiny.hdae"
        fi
        for D in 16 30 60 100; do
            out="$tmp/out_${model}_${k}_$D"
            "$HDO" run "$tmp/tiny.hdae" -d "$D" -o "$out" >"$tmp/log" 2>&1
            rc=$?
            ref="(mpf('1e-30') if mpf('$k') == 0 else (1 - sqrt(1 - 4 * mpf('$k') * mpf('1e-30'))) / (2 * mpf('$k')))"
            res=$(one_event_time "$out" "$D" "$rc" "$ref")
            if [[ $? -eq 0 ]]; then
                passes=$((passes + 1))
                echo "PASS tiny_event_${model}_k${k}_d$D: $res"
            else
                fails=$((fails + 1))
                echo "FAIL tiny_event_${model}_k${k}_d$D: $res ($(tail -n 1 "$tmp/log" | head -c 300))"
            fi
        done
    done
done
echo "tiny_event: $passes passed, $fails failed"
exit $((fails > 0))
