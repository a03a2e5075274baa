#!/usr/bin/env bash
# check_map.sh -- a map to a name the model lacks is refused (#23 item 8):
# `hdo check --map y=Y`, or `map = ball.y=yy` in a tolerance file, used to
# drop the candidate's column from the comparison ("not a variable of the
# model") and say PASS on a column wrong by 0.5 everywhere; now it is
# exit 2 naming the option or file:line:col of the target.  Correct maps
# still compare the column: PASS when it is right, FAIL when it is 0.5 off.
# Every candidate is written here from the closed form x = e^-t,
# y = 1 - e^-t of write_xy_model.
set -u
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/check_common.bash"
write_xy_model "$tmp/xy.hdae"
"$PY" - "$tmp" <<'P'
import math, sys
d = sys.argv[1]
ts = [i / 10 for i in range(11)]
X = lambda t: "%.17g" % math.exp(-t)
Y = lambda t, off=0.0: "%.17g" % (1 - math.exp(-t) + off)
def w(name, text):
    with open(f"{d}/{name}", "w") as f:
        f.write(text)
w("off.csv", "time,x,y\n" + "".join(f"{t!r},{X(t)},{Y(t, 0.5)}\n" for t in ts))
w("dotted.csv", "time,ball.x,ball.y\n" + "".join(f"{t!r},{X(t)},{Y(t)}\n" for t in ts))
w("dotted_off.csv", "time,ball.x,ball.y\n" +
  "".join(f"{t!r},{X(t)},{Y(t, 0.5)}\n" for t in ts))
w("yy.tol", "map = y=yy\n")
w("late.tol", "# two columns\ntime_abs = 1e-6\nmap = ball.x=x, ball.y=yy\n")
w("good.tol", "map = ball.x=x ball.y=y\n")
P
# the reproducer: y is 0.5 off and mapped away, x alone used to pass
expect option-unknown-target 2 "^hdo check: --map y=Y: 'Y' is not a variable of model xy$" -- "$tmp/xy.hdae" "$tmp/off.csv" --map y=Y
expect file-unknown-target 2 "yy.tol:1:9: error: 'yy' is not a variable of model xy \(map y=yy\)" -- "$tmp/xy.hdae" "$tmp/off.csv" -t "$tmp/yy.tol"
expect file-target-column 2 "late.tol:3:24: error: 'yy' is not a variable" -- "$tmp/xy.hdae" "$tmp/dotted.csv" -t "$tmp/late.tol"
# a mode's name is no variable either, nor is a target whose column is absent
expect option-mode-name 2 "--map y=m: 'm' is not a variable of model xy" -- "$tmp/xy.hdae" "$tmp/off.csv" --map y=m
expect option-absent-column 2 "--map z=Q: 'Q' is not a variable" -- "$tmp/xy.hdae" "$tmp/dotted.csv" --map ball.x=x --map ball.y=y --map z=Q
# correct maps compare the column they map
expect option-map-pass 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/dotted.csv" --map ball.x=x --map ball.y=y
expect option-map-fail 1 'verdict=FAIL .*vars_failed=1/2' -- "$tmp/xy.hdae" "$tmp/dotted_off.csv" --map ball.x=x --map ball.y=y
expect file-map-pass 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/dotted.csv" -t "$tmp/good.tol"
expect file-map-fail 1 'verdict=FAIL .*vars_failed=1/2' -- "$tmp/xy.hdae" "$tmp/dotted_off.csv" -t "$tmp/good.tol"
# --map replaces the file's entry for the same column (docs/cli.md)
expect option-replaces-file 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/dotted.csv" -t "$tmp/late.tol" --map ball.y=y
echo "check_map: $passed passed, $failed failed"
((failed == 0))
