#!/usr/bin/env bash
# reduce_cost.sh -- the parts of a mode's reduction phase on the FPU chain
# (tests/certify/models/fpu20.hdae, -p N) at 40 to 640 masses, in CPU
# seconds (build/reduce-cost, tools/bench/reduce_cost.c), with the growth
# exponent from each size to the next: issue 28 asks for the index
# reduction near linear in the size of the mode (docs/decisions.md D-092).
#
# usage: tools/bench/reduce_cost.sh BUILD/reduce-cost [MASSES ...]
set -u
cd "$(dirname "$0")/../.." || exit 2
bin=${1:?usage: reduce_cost.sh REDUCE_COST [MASSES ...]}
shift
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(40 80 160 320 640)
echo "FPU chain, CPU s per part of the reduction phase (best of 3):"
printf "%8s %12s %12s %12s   %s\n" masses pryce taylor km_report "exponents (pryce, taylor, km)"
prev=()
for n in "${sizes[@]}"; do
    line=$("$bin" tests/certify/models/fpu20.hdae "N=$n") || exit 1
    read -r _ _ _ r _ t _ k <<<"$line"
    exps=""
    if [[ ${#prev[@]} -gt 0 ]]; then
        exps=$(/usr/bin/python3 -c "
import math,sys
a=[float(x) for x in sys.argv[1:4]]; b=[float(x) for x in sys.argv[4:7]]
r=math.log($n/${prev[0]})
print(' '.join('%.2f' % (math.log(max(y,1e-5)/max(x,1e-5))/r) for x,y in zip(a,b)))" \
            "${prev[1]}" "${prev[2]}" "${prev[3]}" "$r" "$t" "$k")
    fi
    printf "%8s %12s %12s %12s   %s\n" "$n" "$r" "$t" "$k" "$exps"
    prev=("$n" "$r" "$t" "$k")
done
echo "target (issue 28): the reduction near linear (exponent about 1)"
