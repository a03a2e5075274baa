#!/usr/bin/env bash
# references.sh -- writes or checks the golden references cases/<case>.ref/.
#
# usage: tools/references.sh write|check [CASE ...]
#
# Every case of cases/*.hdae (or the CASE names given) is run, in parallel
# (one job per case), as
#   $HDO run cases/<case>.hdae --digits 40 --verify --every <every> -o TMP/<case>
# with <every> from cases/references.txt, and the fresh result is compared
# with the stored cases/<case>.ref/ by tools/refcompare.py (35 significant
# digits, the rule is explained there and in docs/decisions.md).
#
#   write  (make references): a case without a stored reference gets one; a
#          stored one that agrees is replaced by the fresh files unless they
#          are the same apart from summary.json's "seconds" (then it is left
#          untouched, so git shows only references that really changed); one
#          that disagrees beyond 35 digits is kept and the run fails, unless
#          REF_FORCE=1 (an engine change that is known to move the results).
#   check  (tests/e2e/references.sh): nothing is written; a missing or
#          disagreeing reference fails.
#
# Cases listed in tests/corpus/pending.txt are not run: they are printed as
# SKIP with the reason.  The last line is "references: N passed, N failed,
# N skipped" (the e2e runner adds the counts); exit 0 when nothing failed.
#
# environment: HDO (default build/hdo), JOBS (default nproc), REF_TIMEOUT
#              seconds per case (default 600: car_axis, the slowest, takes
#              10-40 s), REF_FORCE=1 (write only), HDO_PYTHON (default
#              /usr/bin/python3)
set -u
cd "$(dirname "$0")/.." || exit 2
mode=${1:-}
shift || true
if [[ $mode != write && $mode != check ]]; then
    echo "usage: tools/references.sh write|check [CASE ...]" >&2
    exit 2
fi
HDO=${HDO:-build/hdo}
PY=${HDO_PYTHON:-/usr/bin/python3}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
REF_TIMEOUT=${REF_TIMEOUT:-600}
DIGITS=40
NEED=35
if [[ ! -x $HDO ]]; then
    echo "references: $HDO is missing (run make)" >&2
    exit 2
fi

declare -A every
while read -r name dt _; do
    [[ -z $name || $name == \#* ]] && continue
    every[$name]=$dt
done <cases/references.txt

if (($# > 0)); then names=("$@"); else
    names=()
    for f in cases/*.hdae; do names+=("$(basename "$f" .hdae)"); done
fi

passed=0
failed=0
skipped=0
jobs=()
for name in "${names[@]}"; do
    if [[ ! -f cases/$name.hdae ]]; then
        echo "FAIL $name: no cases/$name.hdae"
        failed=$((failed + 1))
        continue
    fi
    reason=$(grep -E "^$name:" tests/corpus/pending.txt 2>/dev/null | cut -d: -f2-)
    if [[ -n $reason ]]; then
        echo "SKIP $name: pending (tests/corpus/pending.txt):$reason"
        skipped=$((skipped + 1))
        continue
    fi
    if [[ -z ${every[$name]:-} ]]; then
        echo "FAIL $name: no sampling step in cases/references.txt"
        failed=$((failed + 1))
        continue
    fi
    jobs+=("$name")
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Longest first (the stored wall time), so that the slow cases do not start
# last and leave the other workers idle.
order=$(for name in "${jobs[@]}"; do
    s=$(grep -oE '"seconds": *[0-9.eE+-]+' "cases/$name.ref/summary.json" 2>/dev/null |
        grep -oE '[0-9.eE+-]+$')
    echo "${s:-1000} $name"
done | sort -rg | cut -d' ' -f2)

run_case() {
    local name=$1 dt=$2 start rc
    start=$(date +%s.%N)
    timeout "$REF_TIMEOUT" "$HDO" run "cases/$name.hdae" --digits "$DIGITS" \
        --verify --every "$dt" -o "$tmp/$name" >"$tmp/$name.log" 2>&1
    rc=$?
    echo "$rc $(echo "$(date +%s.%N) - $start" | bc)" >"$tmp/$name.status"
}
export -f run_case
export HDO DIGITS tmp REF_TIMEOUT
t_start=$(date +%s.%N)
for name in $order; do echo "$name ${every[$name]}"; done |
    xargs -r -P "$JOBS" -L 1 bash -c 'run_case "$0" "$1"'
t_all=$(echo "$(date +%s.%N) - $t_start" | bc)

for name in "${jobs[@]}"; do
    ref=cases/$name.ref
    read -r rc secs <"$tmp/$name.status" 2>/dev/null || { rc=-1; secs=0; }
    secs=$(printf '%.1f' "$secs")
    if ((rc == 124)); then
        echo "FAIL $name: hdo run gave no result within $REF_TIMEOUT s (REF_TIMEOUT)"
        failed=$((failed + 1))
        continue
    elif ((rc != 0)); then
        echo "FAIL $name: hdo run exited $rc after $secs s: $(grep -v '^==' "$tmp/$name.log" | tail -n 1)"
        failed=$((failed + 1))
        continue
    fi
    vd=$(grep -oE '"verified_digits": *[0-9]+' "$tmp/$name/summary.json" | grep -oE '[0-9]+$')
    warn=""
    if ((${vd:-0} < NEED)); then
        warn=" [warning: hdo's own --verify gives verified_digits ${vd:-?} < $NEED]"
    fi
    if [[ ! -d $ref ]]; then
        if [[ $mode == check ]]; then
            echo "FAIL $name: no stored reference $ref (run make references)"
            failed=$((failed + 1))
        else
            cp -r "$tmp/$name" "$ref"
            echo "NEW  $name: $ref written ($secs s)$warn"
            passed=$((passed + 1))
        fi
        continue
    fi
    verdict=$("$PY" tools/refcompare.py --digits "$NEED" "$name" "$ref" "$tmp/$name")
    crc=$?
    if [[ $mode == check ]]; then
        printf '%s\n' "$verdict" | sed "\$s/\$/ [$secs s]/"
        if ((crc == 0)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
        continue
    fi
    if ((crc != 0)) && [[ ${REF_FORCE:-0} != 1 ]]; then
        printf '%s\n' "$verdict"
        echo "FAIL $name: stored $ref kept; REF_FORCE=1 make references replaces it"
        failed=$((failed + 1))
        continue
    fi
    if cmp -s "$ref/trajectory.csv" "$tmp/$name/trajectory.csv" &&
        cmp -s "$ref/events.csv" "$tmp/$name/events.csv" &&
        cmp -s <(grep -v '"seconds"' "$ref/summary.json") \
            <(grep -v '"seconds"' "$tmp/$name/summary.json"); then
        echo "SAME $name: ${verdict#PASS "$name": } [$secs s]$warn"
    else
        rm -rf "$ref"
        cp -r "$tmp/$name" "$ref"
        if ((crc == 0)); then
            echo "UPD  $name: ${verdict#PASS "$name": } [$secs s]$warn"
        else
            printf '%s\n' "$verdict"
            echo "FORCED $name: $ref replaced (REF_FORCE=1)$warn"
        fi
    fi
    passed=$((passed + 1))
done
# A stored reference whose case is gone or pending is not checked: say so.
for ref in cases/*.ref; do
    [[ -d $ref ]] || continue
    name=$(basename "$ref" .ref)
    if [[ ! -f cases/$name.hdae ]] || grep -qE "^$name:" tests/corpus/pending.txt 2>/dev/null; then
        echo "note: $ref is not checked (its case is missing or pending)"
    fi
done
echo "references: wall time $(printf '%.1f' "$t_all") s for ${#jobs[@]} cases, $JOBS jobs"
echo "references: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
