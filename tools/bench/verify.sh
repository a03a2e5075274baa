#!/usr/bin/env bash
# verify.sh -- the wall time of `hdo run --verify` (make bench): per case,
# the run at D digits, the run at D + 10 digits, and the verify run, which
# makes both at once in two threads (hdo_run_verify), so that on a machine
# with two free cores it should take about as long as the D + 10 run
# alone, not as long as both.  Wall times of the whole process (parsing
# and output included), the best of REPEAT tries each.  The column "procs"
# is the wall time of the D and D + 10 runs started as two processes at
# once: what the machine allows two concurrent runs at this moment; the
# verify run should be close to it (on a machine whose other load leaves
# one core, both are close to D + (D+10)).
#
#   tools/bench/verify.sh HDO [DIGITS] [CASE.hdae ...]
#
# A record of one machine at one moment, not a test: on a loaded machine
# the second thread waits for a core and the verify column drifts towards
# the sum of the other two.
set -u
HDO=${1:?usage: verify.sh HDO [DIGITS] [CASE ...]}
D=${2:-60}
shift $(($# >= 2 ? 2 : 1))
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(cases/pendulum.hdae cases/bouncing_ball.hdae cases/car_axis.hdae cases/water_tanks.hdae)
REPEAT=${REPEAT:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# best wall time in seconds of REPEAT runs of "$@"
wall() {
    local best="" t0 t1 s
    for _ in $(seq "$REPEAT"); do
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1 || { echo "failed"; return; }
        t1=$(date +%s.%N)
        s=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$s < $best" | bc -l)" = 1 ]; then best=$s; fi
    done
    printf '%.2f' "$best"
}

# the D and D + 10 runs as two processes at once
both() {
    "$HDO" run "$1" -d "$D" -o "$work/p1" >/dev/null 2>&1 &
    local p=$!
    "$HDO" run "$1" -d $((D + 10)) -o "$work/p2" >/dev/null 2>&1
    local r=$?
    wait $p && return $r
}

echo "# hdo run --verify in two threads: wall seconds (best of $REPEAT), D = $D"
printf '%-22s %8s %8s %8s %8s %8s %10s\n' case "D" "D+10" verify procs "D+(D+10)" "verify/D+10"
for f in "${cases[@]}"; do
    name=$(basename "$f" .hdae)
    a=$(wall "$HDO" run "$f" -d "$D" -o "$work/a")
    b=$(wall "$HDO" run "$f" -d $((D + 10)) -o "$work/b")
    v=$(wall "$HDO" run "$f" -d "$D" --verify -o "$work/v")
    p=$(wall both "$f")
    if [[ $a == failed || $b == failed || $v == failed || $p == failed ]]; then
        printf '%-22s %8s %8s %8s %8s\n' "$name" "$a" "$b" "$v" "$p"
        continue
    fi
    printf '%-22s %8s %8s %8s %8s %8.2f %10.2f\n' "$name" "$a" "$b" "$v" "$p" \
        "$(echo "$a + $b" | bc -l)" "$(echo "$v / $b" | bc -l)"
done
