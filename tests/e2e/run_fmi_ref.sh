#!/usr/bin/env bash
# run_fmi_ref.sh -- `hdo run MODEL --fmi-ref DIR` writes the reference files
# of the FMI cross-check (issue 26): <Model>_ref.csv (comma separated,
# quoted header, doubles, an event as two rows at its time) and
# <Model>_ref.opt (StartTime, StopTime, StepSize, RelTol).  The values are
# held against the closed form by Python (x = e^-t; the sawtooth x = t
# reset to 0 at 0.5), and hdo check reads the file back and passes it,
# while the same file with one value off fails.
set -u
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/check_common.bash"
write_xy_model "$tmp/xy.hdae"
cat >"$tmp/saw.hdae" <<'M'
model saw
var x = 0
mode m
  der(x) = 1
  when x > 0.5 goto m with x = 0
end
start m at 0
until 1
M
"$HDO" run "$tmp/xy.hdae" -o "$tmp/o1" --every 0.125 --fmi-ref "$tmp/fmi" >/dev/null 2>&1 && ok || bad "run xy"
"$HDO" run "$tmp/saw.hdae" -o "$tmp/o2" --fmi-ref "$tmp/fmi" >/dev/null 2>&1 && ok || bad "run saw"
"$PY" - "$tmp/fmi" <<'P' && ok || bad "files against the closed forms"
import csv, math, sys
d = sys.argv[1]
lines = open(f"{d}/xy_ref.csv").read().splitlines()
assert lines[0] == '"time","x","y"', lines[0]
rows = [list(map(float, l.split(","))) for l in lines[1:]]
assert [r[0] for r in rows] == [k / 8 for k in range(9)], [r[0] for r in rows]
for t, x, y in rows:
    assert abs(x - math.exp(-t)) <= 1e-16 and abs(y - (1 - math.exp(-t))) <= 1e-16, (t, x, y)
opt = open(f"{d}/xy_ref.opt").read().splitlines()
assert opt == ["StartTime, 0", "StopTime, 1", "StepSize, 0.125", "RelTol, 1e-15"], opt
# the sawtooth: two rows at 0.5, left 0.5 then right 0
saw = [list(map(float, l.split(","))) for l in open(f"{d}/saw_ref.csv").read().splitlines()[1:]]
at = [r for r in saw if r[0] == 0.5]
assert len(at) == 2 and at[0][1] == 0.5 and at[1][1] == 0.0, at
for t, x in saw:
    if t != 0.5:
        assert abs(x - (t if t < 0.5 else t - 0.5)) <= 1e-16, (t, x)
assert open(f"{d}/saw_ref.opt").read().splitlines()[2] == "StepSize, 0.001"
P
expect read-back 0 'verdict=PASS .*vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/fmi/xy_ref.csv" --value-abs 1e-15 --value-rel 1e-15
expect read-back-events 0 'verdict=PASS .*events_ref=1 events_cand=1 events_missing=0' -- "$tmp/saw.hdae" "$tmp/fmi/saw_ref.csv" --value-abs 1e-15 --value-rel 1e-15
sed '5s/^\([^,]*\),\([^,]*\)/\1,0.5/' "$tmp/fmi/xy_ref.csv" >"$tmp/off.csv"
expect read-back-off 1 'verdict=FAIL' -- "$tmp/xy.hdae" "$tmp/off.csv"
"$HDO" run "$tmp/xy.hdae" -o "$tmp/o3" --fmi-ref /dev/null/x >/dev/null 2>"$tmp/err"
rc=$?
((rc == 2)) && grep -q 'hdo run: --fmi-ref: /dev/null/x: cannot make the folder' "$tmp/err" && ok || bad "unwritable folder: exit $rc: $(cat "$tmp/err")"
# a variable that a mode of the run lacks is left out, with a note naming
# it and the mode (the FMI CSV rules want a number in every cell); kept
# when every row of the run has it; no variable left: exit 2
cat >"$tmp/two.hdae" <<'M'
model two
var x = 0
var f
mode a
  der(x) = 1
  when x > 0.5 goto b
end
mode b
  der(x) = 1
  f = 2*x
end
start a at 0
until 1
M
sed 's/start a at 0/start b at 0/; s/model two/model twob/' "$tmp/two.hdae" >"$tmp/twob.hdae"
"$HDO" run "$tmp/two.hdae" -o "$tmp/o4" --every 0.25 --fmi-ref "$tmp/fmi" >/dev/null 2>"$tmp/err" && ok || bad "run two: $(cat "$tmp/err")"
grep -q "note: f is left out of .*two_ref.csv: mode a (from t = 0) has no value of it" "$tmp/err" && ok || bad "two note: $(cat "$tmp/err")"
[[ $(head -1 "$tmp/fmi/two_ref.csv") == '"time","x"' ]] && ok || bad "two header: $(head -1 "$tmp/fmi/two_ref.csv")"
grep -qE ',$|,,' "$tmp/fmi/two_ref.csv" && bad "two: an empty cell" || ok
"$HDO" run "$tmp/twob.hdae" -o "$tmp/o5" --every 0.25 --fmi-ref "$tmp/fmi" >/dev/null 2>"$tmp/err" && ok || bad "run twob"
grep -q "left out" "$tmp/err" && bad "twob: a note: $(cat "$tmp/err")" || ok
"$PY" - "$tmp/fmi/twob_ref.csv" <<'P' && ok || bad "twob: f = 2 x in every row"
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == '"time","x","f"', lines[0]
for l in lines[1:]:
    t, x, f = map(float, l.split(","))
    assert abs(x - t) <= 1e-16 and abs(f - 2 * t) <= 1e-16, l
P
cat >"$tmp/none.hdae" <<'M'
model none
var x = 0
var y
mode a
  der(x) = 1
  when x > 0.5 goto b
end
mode b
  y = 1
end
start a at 0
until 1
M
"$HDO" run "$tmp/none.hdae" -o "$tmp/o6" --fmi-ref "$tmp/fmi" >/dev/null 2>"$tmp/err"
rc=$?
((rc == 2)) && grep -q "hdo run: --fmi-ref: no variable of model none has a value in every row of the run" "$tmp/err" && ok || bad "none: exit $rc: $(cat "$tmp/err")"
echo "run_fmi_ref: $passed passed, $failed failed"
((failed == 0))
