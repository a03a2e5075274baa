#!/usr/bin/env bash
# check_tools.sh -- `hdo check` reads results as other tools write them
# (issue 26), each rule tested on both sides.  Every candidate is written
# here by Python from a closed form, never from hdo:
#
#   twin.hdae: x goes up at rate 1 and down at rate 1 between 0 and 1 (a
#   mode change at x = 1 that jumps nothing: x is continuous), and y, which
#   grows at rate 1, is reset to 0 at each return to x = 0.  Events: t = 1,
#   3, 5 up -> down (no jump), t = 2, 4 down -> up (y: 2 -> 0).
#
#   - OpenModelica writes a second pair of rows after an event where only
#     discrete columns change (impact, foo): no event; a pair where a
#     compared column jumps: an extra event.
#   - an event that changes no column the candidate has (no mode column):
#     not observable, counted, never missing; one that jumps y: required.
#   - a file without a header line (Octave's csvwrite): said so, and read
#     with --columns; --columns on a file with a header, or the wrong count
#     of names: refused.
set -u
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/check_common.bash"
cat >"$tmp/twin.hdae" <<'M'
model twin
var x = 0
var y = 0
mode up
  der(x) = 1
  der(y) = 1
  when x > 1 goto down
end
mode down
  der(x) = -1
  der(y) = 1
  when x < 0 goto up with y = 0
end
start up at 0
until 5.5
M
"$PY" - "$tmp" <<'P'
import sys
d = sys.argv[1]
def x_of(t):  # the triangle wave
    k = t % 2
    return k if k <= 1 else 2 - k
def y_of(t):
    return t % 2 if t >= 2 else t
def mode_of(t):
    return "up" if (t % 2) < 1 else "down"
ts = [i / 20 for i in range(111)]
def rows(events, extra=None, modes=False):
    out = []
    for t in ts:
        if t in events:
            # left then right limit
            yl = 2.0 if t in (2, 4) else y_of(t)
            ml, mr = ("up", "down") if t in (1, 3, 5) else ("down", "up")
            out.append((t, x_of(t), yl, ml))
            out.append((t, x_of(t), y_of(t), mr))
        else:
            out.append((t, x_of(t), y_of(t), mode_of(t)))
        if extra and t in extra:
            out += extra[t]
    return out
def write(name, rs, hdr=("time", "x", "y"), modes=False, more=None):
    with open(f"{d}/{name}", "w") as f:
        h = list(hdr) + (["mode"] if modes else []) + (list(more[0]) if more else [])
        f.write(",".join(h) + "\n")
        for i, r in enumerate(rs):
            cells = [repr(float(r[0])), repr(float(r[1])), repr(float(r[2]))]
            if modes:
                cells.append(r[3])
            if more:
                cells += [str(c) for c in more[1](i, r)]
            f.write(",".join(cells) + "\n")
# events as rows where y jumps (t = 2, 4), no mode column
write("jump-only.csv", rows({2.0, 4.0}))
# the rows of the reset at t = 4 left out: that event is missing
write("one-reset.csv", rows({2.0}))
# with a mode column that never changes at t = 1: the mode change is required
bad = [(t, x, y, "up" if t < 2 and not (t == 1 and False) else m) for (t, x, y, m) in rows({1.0, 2.0, 3.0})]
write("mode-late.csv", [(t, x, y, ("up" if t <= 1.5 else m)) for (t, x, y, m) in rows({2.0, 4.0})], modes=True)
# OpenModelica: after the event at 2, a second pair 6.5e-11 s later where
# only impact and foo change
om = rows({2.0, 4.0})
k = max(i for i, r in enumerate(om) if r[0] == 2.0)
te = 2.0 + 6.5e-11
om2 = om[:k + 1] + [(te, x_of(te), y_of(te), "up"), (te, x_of(te), y_of(te), "up")] + om[k + 1:]
flag = lambda i, r: (1 if (r[0] >= 2.0 and not (i == k + 1)) else 0, 7 if i == k + 2 else 3)
write("om-discrete.csv", om2, more=(("impact", "foo"), flag))
om3 = list(om2)
om3[k + 2] = (te, x_of(te), y_of(te) + 1e-3, "up")
write("om-jump.csv", om3, more=(("impact", "foo"), flag))
# Octave's csvwrite: no header
with open(f"{d}/octave.csv", "w") as f:
    for r in rows({2.0, 4.0}):
        f.write("%.15g,%.15g,%.15g\n" % r[:3])
P
tol=(--time-abs 1e-9 --value-abs 1e-9 --value-rel 1e-9)
M=$tmp/twin.hdae
# an event that jumps no column the candidate has: not observable, counted
expect unobservable 0 'verdict=PASS .*events_ref=2 events_cand=2 events_missing=0 .*events_unobservable=3' -- "$M" "$tmp/jump-only.csv" "${tol[@]}"
expect unobservable-said 0 'not judged: 3 not observable in the candidate' -- "$M" "$tmp/jump-only.csv" "${tol[@]}"
expect unobservable-row 0 '^ +1  1  +- .*up -> down .*not observable in the candidate' -- "$M" "$tmp/jump-only.csv" "${tol[@]}"
# the reset of y jumps a compared column: required, missing when absent
expect jump-required 1 'events_missing=1 .*events_unobservable=3' -- "$M" "$tmp/one-reset.csv" "${tol[@]}"
expect jump-required-said 1 'first failure: event down -> up at t = 4 is missing' -- "$M" "$tmp/one-reset.csv" "${tol[@]}"
# with a mode column the mode change is a column it has: required
expect mode-required 1 'verdict=FAIL .*events_unobservable=0' -- "$M" "$tmp/mode-late.csv" "${tol[@]}"
# OpenModelica's rows where only discrete columns change: no extra event
expect om-discrete 0 'verdict=PASS .*events_extra=0' -- "$M" "$tmp/om-discrete.csv" "${tol[@]}"
expect om-discrete-columns 0 'not compared \(not variables of the model\): impact foo' -- "$M" "$tmp/om-discrete.csv" "${tol[@]}"
# the same rows with y off by 1e-3 (a compared column jumps): an extra event
expect om-jump 1 'events_extra=1' -- "$M" "$tmp/om-jump.csv" "${tol[@]}"
# no header line: said outright, then read by position
expect headerless 2 'octave.csv:1:1: error: the file has no header line: line 1 starts with the number 0; name its 3 columns by position with --columns' -- "$M" "$tmp/octave.csv"
expect headerless-columns 0 'verdict=PASS .*rows_compared=226' -- "$M" "$tmp/octave.csv" --columns time,x,y --time-abs 1e-9 --value-abs 1e-12 --value-rel 1e-12
expect headerless-columns-count 2 'octave.csv:1:.*expected 2 cells as in the header, found 3' -- "$M" "$tmp/octave.csv" --columns time,x
expect columns-with-header 2 'jump-only.csv:1:1: error: --columns names the columns of a file without a header line, but line 1 starts with time' -- "$M" "$tmp/jump-only.csv" --columns time,x,y
# Dymola's co-simulation export: two rows per output time, the held value
# then the new one (x = e^-t, y = 1 - e^-t every 0.1 on [0, 1])
write_xy_model "$tmp/xy.hdae"
"$PY" - "$tmp" <<'P2'
import math, sys
d = sys.argv[1]
ts = [k / 10 for k in range(11)]
val = lambda t: (math.exp(-t), 1 - math.exp(-t))
def write(name, rows):
    with open(f"{d}/{name}", "w") as f:
        f.write("time,x,y\n")
        for r in rows:
            f.write("%r,%r,%r\n" % r)
rows = [(0.0,) + val(0.0)]
for k in range(1, 11):
    rows.append((ts[k],) + val(ts[k - 1]))
    rows.append((ts[k],) + val(ts[k]))
write("cosim.csv", rows)
# one pair whose first row is not the held value (0.45's, not 0.4's): not
# that kind of file, so its pairs are events
bad = list(rows)
bad[9] = (ts[5],) + val(0.45)
write("cosim-broken.csv", bad)
P2
expect cosim 0 'verdict=PASS .*events_given=no' -- "$tmp/xy.hdae" "$tmp/cosim.csv" --value-abs 1e-12 --value-rel 1e-12
expect cosim-said 0 '^rows: read as co-simulation output \(two rows at each of the 10 output times after the first, every 0.1: .*the first row of each pair was left out' -- "$tmp/xy.hdae" "$tmp/cosim.csv"
expect cosim-rows 0 'x +pass +11 compared' -- "$tmp/xy.hdae" "$tmp/cosim.csv"
expect cosim-broken 1 'events_extra=9 ' -- "$tmp/xy.hdae" "$tmp/cosim-broken.csv"
if "$HDO" check "$tmp/xy.hdae" "$tmp/cosim-broken.csv" 2>&1 | grep -q co-simulation; then
    bad "cosim-broken-unsaid: read as co-simulation output"
else
    ok
fi
# the report's "events: N reference" is the summary's events_ref, with and
# without the candidate's events
for c in jump-only.csv octave.csv; do
    args=("$M" "$tmp/$c" "${tol[@]}")
    [[ $c == octave.csv ]] && args+=(--columns time,x,y)
    out=$("$HDO" check "${args[@]}" 2>&1)
    a=$(grep -oE '^events: [0-9]+ reference' <<<"$out" | grep -oE '[0-9]+')
    b=$(grep -oE 'events_ref=[0-9]+' <<<"$out" | grep -oE '[0-9]+')
    [[ -n $a && $a == "$b" ]] && ok || bad "report-summary-agree $c: $a vs $b"
done
printf 'time,x,y\n0,0,0\n1,1,1\n2,0,2\n3,1,1\n' >"$tmp/coarse.csv"
out=$("$HDO" check "$M" "$tmp/coarse.csv" 2>&1)
grep -q '^events: 3 reference; not given by the candidate' <<<"$out" &&
    grep -q 'events_ref=3 .*events_given=no' <<<"$out" && ok || bad "report-summary-not-given: $(tail -n 1 <<<"$out")"
echo "check_tools: $passed passed, $failed failed"
((failed == 0))
