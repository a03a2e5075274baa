#!/bin/bash
# dae_speed.sh -- a DAE mode at ODE speed (issue #18, item 6): the CPU time
# of cases/pendulum_angle.hdae (th, om and the algebraic outputs
# x = L sin(th), y = -L cos(th)) against tools/bench/pendulum_angle_ode.hdae
# (the same pendulum as a pure ODE), and their ratio; the target is 1.2.
#
#   tools/bench/dae_speed.sh HDO [DIGITS...]     (default 30 60)
#
# CPU time is hdo_run's (summary.json timing.cpu_s), the smallest of
# HDO_BENCH_REPEAT (default 5) runs: the machine may be shared.  When
# valgrind is installed, the instructions executed inside hdo_run
# (callgrind --toggle-collect=hdo_run) are printed too: on a loaded machine they are the steadier
# figure for the ratio.
set -euo pipefail
hdo=${1:?usage: dae_speed.sh HDO [DIGITS...]}
shift
digits=("${@:-}")
[ -z "${digits[0]}" ] && digits=(30 60)
repeat=${HDO_BENCH_REPEAT:-5}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dae=$top/cases/pendulum_angle.hdae
ode=$here/pendulum_angle_ode.hdae
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# smallest timing.cpu_s of $repeat runs of model $1 at $2 digits
cpu() {
    local best=""
    for ((k = 0; k < repeat; k++)); do
        "$hdo" run "$1" -d "$2" --every 0.03 -o "$work/out" >/dev/null
        best=$(/usr/bin/python3 -c "
import json, sys
c = json.load(open('$work/out/summary.json'))['timing']['cpu_s']
b = '$best'
print(c if b == '' else min(c, float(b)))")
    done
    echo "$best"
}

# instructions executed inside hdo_run (callgrind collecting only there:
# parsing, output files and the dynamic loader are left out) for model $1
# at $2 digits
instr() {
    valgrind --tool=callgrind --toggle-collect=hdo_run \
        --callgrind-out-file="$work/cg" \
        "$hdo" run "$1" -d "$2" --every 0.03 -o "$work/out" 2>&1 >/dev/null |
        awk '/I +refs:/ { gsub(",", "", $NF); print $NF }'
}

have_vg=0
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null && have_vg=1
printf '%-7s %12s %12s %7s' digits dae_cpu_s ode_cpu_s ratio
[ $have_vg = 1 ] && printf ' %14s %14s %7s' dae_instr ode_instr ratio
echo
for d in "${digits[@]}"; do
    a=$(cpu "$dae" "$d")
    b=$(cpu "$ode" "$d")
    printf '%-7s %12.4f %12.4f %7.3f' "$d" "$a" "$b" \
        "$(/usr/bin/python3 -c "print($a / $b)")"
    if [ $have_vg = 1 ]; then
        ia=$(instr "$dae" "$d")
        ib=$(instr "$ode" "$d")
        printf ' %14s %14s %7.3f' "$ia" "$ib" \
            "$(/usr/bin/python3 -c "print($ia / $ib)")"
    fi
    echo
done
