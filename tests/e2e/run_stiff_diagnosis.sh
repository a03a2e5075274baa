#!/usr/bin/env bash
# run_stiff_diagnosis.sh -- a stiff arc is reported at once, with the method
# that ran (issue #18: der(x) = -1e12*x ran 86 s into "more than 1000000
# steps").
#
# The explicit Taylor step on x' = -1e12 x after the transient is about
# 2e-11 (stability-limited), so [0, 1] needs ~5e10 steps: hdo run
# --method taylor must exit 2 within a few hundred steps, naming the mode
# as stiff and the method (taylor). With the default --method auto the
# arc goes on with the implicit method and the run ends at t = 1 with
# x = exp(-1e12), 0 within the absolute tolerance 1e-35. The same model to t = 1e-9 (about 50 steps) runs, and its x(1e-9)
# = exp(-1000) ~ 5e-435 is below the absolute tolerance 1e-35 (closed form).
# --progress is accepted (the run is shorter than the 2 s before the first
# progress line, so no line is printed).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/fast.hdae" <<'MODEL'
model fast
var x = 1
mode m
  der(x) = -1e12*x
end
start m
until 1
MODEL

start=$(date +%s)
"$HDO" run "$tmp/fast.hdae" --method taylor --progress -o "$tmp/out" >"$tmp/log" 2>&1
rc=$?
secs=$(($(date +%s) - start))
if [[ $rc -ne 2 ]]; then
    echo "FAIL stiff_diagnosis: exit $rc, expected 2: $(tail -n 1 "$tmp/log")"
    exit 1
fi
if ! grep -q "mode m is stiff" "$tmp/log" || ! grep -q "method taylor" "$tmp/log"; then
    echo "FAIL stiff_diagnosis: no stiffness diagnosis: $(tail -n 1 "$tmp/log")"
    exit 1
fi
if [[ -e "$tmp/out/summary.json" ]]; then
    echo "FAIL stiff_diagnosis: a failed run left summary.json"
    exit 1
fi
if ! "$HDO" run "$tmp/fast.hdae" --method taylor --until 1e-9 -o "$tmp/short" >"$tmp/log2" 2>&1; then
    echo "FAIL stiff_diagnosis: the short run failed: $(tail -n 1 "$tmp/log2")"
    exit 1
fi
res=$("$PY" - "$tmp/short" <<'PYEOF'
import csv, sys
from mpmath import mpf
r = list(csv.DictReader(open(sys.argv[1] + '/trajectory.csv')))[-1]
x = mpf(r['x'])
print('x(1e-9) = %s' % r['x'])
sys.exit(0 if abs(x) <= mpf('1e-35') and mpf(r['time']) == mpf('1e-9') else 1)
PYEOF
)
if [[ $? -ne 0 ]]; then
    echo "FAIL stiff_diagnosis: ${res:-checker crashed}"
    exit 1
fi
if ! "$HDO" run "$tmp/fast.hdae" -o "$tmp/auto" >"$tmp/log3" 2>&1; then
    echo "FAIL stiff_diagnosis: --method auto failed: $(tail -n 1 "$tmp/log3")"
    exit 1
fi
res2=$("$PY" - "$tmp/auto" <<'PYEOF'
import csv, sys
from mpmath import mpf
r = list(csv.DictReader(open(sys.argv[1] + '/trajectory.csv')))[-1]
print('auto: x(1) = %s' % r['x'])
sys.exit(0 if abs(mpf(r['x'])) <= mpf('1e-35') and mpf(r['time']) == 1 else 1)
PYEOF
)
if [[ $? -ne 0 ]]; then
    echo "FAIL stiff_diagnosis: ${res2:-checker crashed}"
    exit 1
fi
echo "PASS stiff_diagnosis (taylor: diagnosed in ${secs} s; $res; $res2)"
