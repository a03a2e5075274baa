#!/usr/bin/env bash
# check_dialects.sh -- `hdo check` reads candidates as other tools write
# them (#15): Time/t first, ';' tab or whitespace separators, `#` comments,
# quoted names, CRLF, FMI 3 array cells, dotted names with --map or a `map`
# key, columns that are not model variables listed and not compared, and a
# `variables` entry the candidate lacks an error.  Every candidate is
# written here from the closed form x = e^-t, y = 1 - e^-t.
set -u
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/check_common.bash"
write_xy_model "$tmp/xy.hdae"
"$PY" - "$tmp" <<'P'
import math, sys
d = sys.argv[1]
ts = [i / 10 for i in range(11)]
X = lambda t: "%.17g" % math.exp(-t)
Y = lambda t: "%.17g" % (1 - math.exp(-t))
def w(name, text):
    with open(f"{d}/{name}", "w", newline="") as f:
        f.write(text)
w("semi.csv", "Time;x;y\n" + "".join(f"{t!r};{X(t)};{Y(t)}\n" for t in ts))
w("tab.csv", "t\tx\ty\r\n" + "".join(f"{t!r}\t{X(t)}\t{Y(t)}\r\n" for t in ts))
w("space.csv", "# fixed-step output\n  time   x   y\n" +
  "".join(f"  {t!r}   {X(t)} {Y(t)}\n" for t in ts))
w("dotted.csv", '# exported\n"time","ball.x","ball.y","der(ball.x)"\n' +
  "".join(f'{t!r},{X(t)},{Y(t)},{"%.17g" % -math.exp(-t)}\n' for t in ts))
w("array.csv", 'time,y\n' + "".join(f'{t!r},"{X(t)} {Y(t)}"\n' for t in ts))
w("onlyx.csv", "time,x\n" + "".join(f"{t!r},{X(t)}\n" for t in ts))
bad = [(t, X(t) if t != 0.5 else "%.17g" % (math.exp(-t) + 1e-3)) for t in ts]
w("semi_bad.csv", "time;x;y\n" + "".join(f"{t!r};{x};{Y(t)}\n" for t, x in bad))
w("map.tol", "map = ball.x=x, ball.y=y\n")
w("vars.tol", "variables = x y\n")
P
expect semicolon 0 '^PASS' -- "$tmp/xy.hdae" "$tmp/semi.csv"
expect semicolon-fails 1 'first failure: t = 0.5.*variable x' -- "$tmp/xy.hdae" "$tmp/semi_bad.csv"
expect tab-crlf 0 '^PASS' -- "$tmp/xy.hdae" "$tmp/tab.csv"
expect whitespace-comments 0 '^PASS' -- "$tmp/xy.hdae" "$tmp/space.csv"
expect dotted-map 0 'not compared \(not variables of the model\): der\(ball.x\)' -- "$tmp/xy.hdae" "$tmp/dotted.csv" --map ball.x=x --map ball.y=y
expect dotted-map-vars 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/dotted.csv" --map ball.x=x --map ball.y=y
expect dotted-map-file 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/dotted.csv" -t "$tmp/map.tol"
expect dotted-unmapped 2 'no column named after a variable' -- "$tmp/xy.hdae" "$tmp/dotted.csv"
expect fmi3-array 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/array.csv" --map 'y[1]=x' --map 'y[2]=y'
expect fmi3-array-columns 0 'not compared \(not variables of the model\): y\[1\]$' -- "$tmp/xy.hdae" "$tmp/array.csv" --map 'y[2]=y'
expect variables-missing 2 "vars.tol:1:15: error: 'y' is not a column of the candidate" -- "$tmp/xy.hdae" "$tmp/onlyx.csv" -t "$tmp/vars.tol"
expect map-bad 2 'expects CANDIDATE_NAME=MODEL_VAR' -- "$tmp/xy.hdae" "$tmp/semi.csv" --map x
echo "check_dialects: $passed passed, $failed failed"
((failed == 0))
