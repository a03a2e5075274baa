#!/usr/bin/env bash
# check_progress.sh -- `hdo check --progress` (issue 26): on stderr, when
# stderr is not a terminal, a line every 5 s of the reference run
# ("hdo check: reference t = ... steps N events N method M S s"), and
# stdout and the exit code exactly those of the same check without it
# (but for the seconds the run took).  The run must last over 5 s: the
# oscillator x' = -y, y' = x is run to T = 3e5 (about 4 s on a loaded
# machine, under 2 s on a quiet one with issue 28's fused products), T
# doubled until a line comes (at most 8 tries: a machine 100 times
# faster still gets one; each try costs about the sum of those before).
# The candidate is the closed form cos t, sin t.
set -u
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/check_common.bash"
strip() { sed -E 's/[0-9.]+ s\b//g; s/(seconds|reference_seconds)=[0-9.e+-]+//g'; }
T=300000
for try in 1 2 3 4 5 6 7 8; do
    cat >"$tmp/osc.hdae" <<M
model osc
var x = 1
var y = 0
mode m
  der(x) = -y
  der(y) = x
end
start m at 0
until $T
M
    "$PY" - "$T" >"$tmp/osc.csv" <<'P'
import math, sys
T = int(sys.argv[1])
print("time,x,y")
for t in (0, T // 3, 2 * T // 3, T):
    print("%r,%r,%r" % (t, math.cos(t), math.sin(t)))
P
    args=("$tmp/osc.hdae" "$tmp/osc.csv" --time-abs 1e-9 --value-abs 1e-9 --value-rel 1e-9)
    "$HDO" check "${args[@]}" --progress >"$tmp/with.out" 2>"$tmp/with.err"
    rc_with=$?
    grep -q "^hdo check: reference t = " "$tmp/with.err" && break
    T=$((T * 2))
done
grep -q "^hdo check: reference t = " "$tmp/with.err" && ok || bad "no progress line after 8 tries (T = $T): $(cat "$tmp/with.err")"
grep "^hdo check: reference" "$tmp/with.err" | grep -vqE '^hdo check: reference t = [0-9.e+-]+ +steps [0-9]+ +events [0-9]+ +method [a-z]+ +[0-9.]+ s$' && bad "progress line: $(grep reference "$tmp/with.err" | head -2)" || ok
grep -q $'\r' "$tmp/with.err" && bad "a carriage return on a stderr that is no terminal" || ok
"$HDO" check "${args[@]}" >"$tmp/without.out" 2>"$tmp/without.err"
rc_without=$?
((rc_with == rc_without && rc_with == 0)) && ok || bad "exit codes: $rc_with with --progress, $rc_without without"
[[ $(strip <"$tmp/with.out") == "$(strip <"$tmp/without.out")" ]] && ok || bad "stdout differs: $(diff <(strip <"$tmp/with.out") <(strip <"$tmp/without.out") | head -5)"
[[ -s "$tmp/without.err" ]] && bad "stderr without --progress: $(cat "$tmp/without.err")" || ok
echo "check_progress: $passed passed, $failed failed"
((failed == 0))
