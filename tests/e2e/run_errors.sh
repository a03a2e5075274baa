#!/usr/bin/env bash
# run_errors.sh -- hdo run's failures: chattering, Zeno without a clause, too much work, bad options; exit 2, no output left behind.
#
# Each case provokes one error on purpose (GSL's habit) and checks the
# exit status 2, the key words of the message on stderr, and that no
# trajectory.csv (not even one from an earlier successful run in the same
# folder) or temporary file is left in the output folder.  The Zeno time
# in the message is checked against the closed form
# t1 (1 + e) / (1 - e) = 2.5586339655858... (mpmath).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/chatter.hdae" <<'MODEL'
model chatter
var x = 1
mode left
  der(x) = -1
  when x < 0 goto right
end
mode right
  der(x) = 1
  when x > 0 goto left
end
chattering stop
start left
until 3
MODEL

cat >"$tmp/zeno.hdae" <<'MODEL'
model ball_no_zeno
param g = 9.81
var h = 1, v = 0
mode fly
  der(h) = v
  der(v) = -g
  when h < 0 goto fly with v = -0.7*v
end
start fly
until 3
MODEL

fails=()
# expect NAME STALE MODEL PATTERN [options...]: exit 2, stderr matches
# PATTERN, no trajectory.csv or .tmp-* left in the output folder.  With
# STALE = 1 the folder holds an earlier run's trajectory.csv, which a
# failed run must remove; a command line that is refused before any run
# (STALE = 0) must not touch the folder at all.
expect() {
    local name=$1 stale=$2 model=$3 pattern=$4
    shift 4
    local out="$tmp/out-$name"
    mkdir -p "$out"
    ((stale)) && echo "stale" >"$out/trajectory.csv"
    "$HDO" run "$model" -o "$out" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    local rc=$?
    if [[ $rc -ne 2 ]]; then
        fails+=("$name: exit $rc, expected 2")
    elif ! grep -qE "$pattern" "$tmp/stderr"; then
        fails+=("$name: stderr '$(head -c 300 "$tmp/stderr")' lacks /$pattern/")
    elif [[ -e $out/trajectory.csv ]] || compgen -G "$out/.tmp-*" >/dev/null; then
        fails+=("$name: output left behind")
    fi
}

expect chattering 1 "$tmp/chatter.hdae" "chattering.*'left'.*'right'|chattering.*'right'.*'left'"
expect zeno 1 "$tmp/zeno.hdae" "Zeno.*accumulate at t = 2\.558633965585808458"
expect max_events 1 "$tmp/zeno.hdae" "max-events" --max-events 5
expect max_steps 1 "$tmp/zeno.hdae" "max-steps" --max-steps 3
expect bad_digits 0 "$tmp/zeno.hdae" "digits" -d abc
expect bad_every 0 "$tmp/zeno.hdae" "every" --every -1
expect bad_until 0 "$tmp/zeno.hdae" "end time" --until 0
expect no_file 0 "$tmp/missing.hdae" "missing.hdae"

# the Zeno time in the message against the closed form
zt=$("$HDO" run "$tmp/zeno.hdae" -o "$tmp/z2" 2>&1 | sed -nE 's/.*accumulate at t = ([0-9.e+-]+).*/\1/p')
ok=$("$PY" -c "
from mpmath import mp, mpf, sqrt, log10, fabs
mp.dps = 50
t1 = sqrt(2 / mpf('9.81')); tz = t1 * mpf('1.7') / mpf('0.3')
print(int(-log10(fabs(mpf('$zt') - tz))) if '$zt' else 0)")
if [[ ${ok:-0} -lt 25 ]]; then
    fails+=("zeno time '$zt' agrees to ${ok:-0} digits only")
fi

if ((${#fails[@]})); then
    echo "FAIL run_errors: ${fails[*]}"
    exit 1
fi
echo "PASS run_errors: 8 error cases exit 2 with no output left; Zeno time in the message to $ok digits"
