#!/usr/bin/env bash
# run_certify.sh -- hdo run --certify as a user sees it: the five files,
# the first lines that say how far they are certified, summary.json's
# "certified", the exit codes (0 the whole run, 1 a stop with its place on
# stderr), a run without --certify removing an earlier certificate, and
# every ball of certified.csv holding the closed form of the harmonic
# oscillator (mpmath at D + 20 digits, an independent evaluator).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fail() {
    echo "FAIL run_certify: $*"
    exit 1
}

cat >"$tmp/ho.hdae" <<'MODEL'
model ho
var x = 1, v = 0
mode m
  der(x) = v
  der(v) = -x
end
start m
until 10
MODEL

out="$tmp/ho"
"$HDO" run "$tmp/ho.hdae" -d 30 --certify -o "$out" >"$tmp/ho.out" 2>"$tmp/ho.err"
rc=$?
((rc == 0)) || fail "the oscillator: exit $rc ($(cat "$tmp/ho.err"))"
for f in trajectory.csv events.csv summary.json certified.csv certified_events.csv; do
    [[ -f $out/$f ]] || fail "no $f"
done
grep -q '^ho: certified: every value and event time' "$tmp/ho.out" ||
    fail "no certified line on stdout: $(cat "$tmp/ho.out")"
[[ $(head -n 1 "$out/certified.csv") == "# certified until t = 10: complete" ]] ||
    fail "certified.csv's first line: $(head -n 1 "$out/certified.csv")"
[[ $(sed -n 2p "$out/certified.csv") == "$(head -n 1 "$out/trajectory.csv")" ]] ||
    fail "certified.csv's header is not trajectory.csv's"
rows_t=$(($(wc -l <"$out/trajectory.csv") - 1))
rows_c=$(($(wc -l <"$out/certified.csv") - 2))
((rows_t == rows_c)) || fail "$rows_c certified rows for $rows_t"
"$PY" - "$out" <<'PY' || fail "the balls against cos t, -sin t"
import json, sys
from mpmath import mp, mpf, cos, sin
mp.dps = 50
out = sys.argv[1]
s = json.load(open(out + "/summary.json"))["certified"]
assert s["complete"] is True and s["min_digits"] >= 27, s
assert s["until"] == 10 and s["reason"] == "", s
def ball(cell):
    cell = cell.strip()
    if cell.startswith("["):
        m, r = cell[1:-1].split("+/-")
        return mpf(m.strip() or "0"), mpf(r)
    return mpf(cell), mpf(0)
lines = open(out + "/certified.csv").read().splitlines()[2:]
for line in lines:
    t, mode, x, v = line.split(",")
    # a sample's time is a binary number; its decimal cell is a ball
    # around it (|d/dt| <= 1 here, so tr widens each value's range by tr)
    tm, tr = ball(t)
    assert tr < mpf(10) ** -34, line
    for cell, exact in ((x, cos(tm)), (v, -sin(tm))):
        m, r = ball(cell)
        assert abs(m - exact) <= r + tr, (line, exact)
print("ok", len(lines), "rows")
PY

# a stop: filippov_spiral's Zeno point 3/2 is enclosed, but the grid
# point 1.5 lies at it, a row whose mode the pass cannot decide
out="$tmp/ball"
"$HDO" run cases/filippov_spiral.hdae -d 30 --certify -o "$out" >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
((rc == 1)) || fail "filippov_spiral: exit $rc, not 1"
grep -q '^hdo run: --certify: certified up to t = 1.5; not beyond: the events accumulate (Zeno) at t\* in \[1.5' "$tmp/b.err" ||
    fail "the stop message: $(cat "$tmp/b.err")"
head -n 1 "$out/certified.csv" | grep -q '^# certified until t = .*; not beyond: the events accumulate' ||
    fail "certified.csv does not say where it stops: $(head -n 1 "$out/certified.csv")"
head -n 1 "$out/certified_events.csv" | grep -q 'not beyond' ||
    fail "certified_events.csv does not say where it stops"
"$PY" -c "
import json, sys
s = json.load(open('$out/summary.json'))['certified']
assert s['complete'] is False and 'Zeno' in s['reason'], s
" || fail "summary.json's certified of a stop"

# a run without --certify leaves no earlier certificate behind
"$HDO" run "$tmp/ho.hdae" -d 20 -o "$tmp/ho" >/dev/null 2>&1 || fail "the plain run"
[[ ! -e $tmp/ho/certified.csv && ! -e $tmp/ho/certified_events.csv ]] ||
    fail "an earlier certified.csv survived a run without --certify"
grep -q '"certified"' "$tmp/ho/summary.json" && fail "summary.json of a plain run has certified"

echo "PASS run_certify: the oscillator certified ($rows_c rows), the spiral's stop at its Zeno point, no stale certificate"
