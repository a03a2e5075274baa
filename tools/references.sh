#!/usr/bin/env bash
# references.sh -- writes or checks the golden references cases/<case>.ref/.
#
# usage: tools/references.sh write|check|check-heavy [CASE ...]
#
# The golden references are hdo's own regression tests, written and
# compared by the command every user has for theirs (hdo ref, docs/ref.md):
# each is the folder of
#   $HDO ref write cases/<case>.hdae DIR --digits 40 --verify --every <every>
# (a heavy case: --digits 30, below)
# (trajectory.csv, events.csv, summary.json and ref.json, the options),
# <every> from cases/references.txt, and a fresh result is compared with it
# by `hdo ref compare --digits-agree 35` (35 significant digits, a heavy
# case's 25; the rule is
# in docs/ref.md and docs/decisions.md D-041).  All cases run in
# parallel (one job per case).
#
#   write  (make references): every case is written into a scratch folder
#          (hdo ref write); a case without a stored reference gets it; a
#          stored one is compared with it (hdo ref compare --with) and, when
#          they agree, replaced by it unless they are the same apart from
#          what differs from run to run (summary.json's seconds, timing,
#          hdo_version and command_line, ref.json's hdo_version: then it is
#          left untouched, so git shows only references that really
#          changed); one that disagrees beyond 35 digits is kept and the run
#          fails, unless REF_FORCE=1 (an engine change that is known to move
#          the results).
#   check  (tests/e2e/references.sh): `hdo ref compare` reruns every stored
#          reference with the options of its ref.json (its fresh result in
#          a scratch folder, -o, for the verified digits); nothing is
#          written under cases/; a missing or disagreeing reference fails,
#          and so does a ref.json whose --every is not the one
#          cases/references.txt gives (or whose --digits is not the case's).
#   check-heavy  (make check-heavy, tools/check-heavy.sh): as check, for
#          the heavy cases only.
#
# The heavy cases (tests/corpus/heavy.txt: "name digits") have their
# references at their own digits (30: a 40-digit --verify run of theirs
# takes from minutes to hours), compared to that minus 5; write mode
# writes them with the others, check mode lists them as SKIP (make
# check-heavy reruns them).  Other cases listed in tests/corpus/pending.txt
# are not run: they are printed as SKIP with the reason.  The last line is
# "references: N passed, N failed, N skipped" (the e2e runner adds the
# counts); exit 0 when nothing failed.
#
# environment: HDO (default build/hdo), JOBS (default nproc), REF_TIMEOUT
#              seconds per case (default 600: car_axis, the slowest, takes
#              10-40 s), HEAVY_TIMEOUT seconds per heavy case (default
#              3600), HEAVY_LIST (default tests/corpus/heavy.txt; the
#              test references_heavy.sh gives its own), REF_FORCE=1 (write
#              only)
set -u
cd "$(dirname "$0")/.." || exit 2
mode=${1:-}
shift || true
if [[ $mode != write && $mode != check && $mode != check-heavy ]]; then
    echo "usage: tools/references.sh write|check|check-heavy [CASE ...]" >&2
    exit 2
fi
HDO=${HDO:-build/hdo}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
REF_TIMEOUT=${REF_TIMEOUT:-600}
HEAVY_TIMEOUT=${HEAVY_TIMEOUT:-3600}
HEAVY_LIST=${HEAVY_LIST:-tests/corpus/heavy.txt}
if [[ ! -x $HDO ]]; then
    echo "references: $HDO is missing (run make)" >&2
    exit 2
fi

declare -A every
while read -r name dt _; do
    [[ -z $name || $name == \#* ]] && continue
    every[$name]=$dt
done <cases/references.txt
# the heavy cases and their digits (tests/corpus/heavy.txt)
declare -A heavy
while read -r name d _; do
    [[ -z $name || $name == \#* ]] && continue
    heavy[$name]=$d
done <"$HEAVY_LIST"

if (($# > 0)); then names=("$@"); else
    names=()
    for f in cases/*.hdae; do
        name=$(basename "$f" .hdae)
        # check-heavy: the heavy cases only (check: every case, the
        # heavy ones listed as skipped)
        [[ $mode == check-heavy && -z ${heavy[$name]:-} ]] && continue
        names+=("$name")
    done
fi

# The digits of a case's reference (40, a heavy case's its own) and the
# significant digits a fresh run must agree on (5 fewer).
digits_of() { echo "${heavy[$1]:-40}"; }

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
    if [[ -n ${heavy[$name]:-} ]]; then
        if [[ $mode == check ]]; then
            echo "SKIP $name: heavy (tests/corpus/heavy.txt): its reference at ${heavy[$name]} digits is checked by make check-heavy"
            skipped=$((skipped + 1))
            continue
        fi
    elif [[ $mode == check-heavy ]]; then
        echo "FAIL $name: not a heavy case (tests/corpus/heavy.txt): make check runs its reference"
        failed=$((failed + 1))
        continue
    else
        reason=$(grep -E "^$name:" tests/corpus/pending.txt 2>/dev/null | cut -d: -f2-)
        if [[ -n $reason ]]; then
            echo "SKIP $name: pending (tests/corpus/pending.txt):$reason"
            skipped=$((skipped + 1))
            continue
        fi
    fi
    if [[ -z ${every[$name]:-} ]]; then
        echo "FAIL $name: no sampling step in cases/references.txt"
        failed=$((failed + 1))
        continue
    fi
    if [[ $mode != write && ! -d cases/$name.ref ]]; then
        echo "FAIL $name: no stored reference cases/$name.ref (run make references)"
        failed=$((failed + 1))
        continue
    fi
    # the stored options must be those references.txt and heavy.txt give
    # (make references writes them so; a hand edit of one would go
    # unnoticed)
    recorded=$(grep -oE '"every": *"[^"]*"' "cases/$name.ref/ref.json" 2>/dev/null |
        cut -d'"' -f4)
    if [[ $mode != write && $recorded != "${every[$name]}" ]]; then
        echo "FAIL $name: cases/$name.ref/ref.json records --every '${recorded}', cases/references.txt gives ${every[$name]} (run make references)"
        failed=$((failed + 1))
        continue
    fi
    recorded=$(grep -oE '"digits": *[0-9]+' "cases/$name.ref/ref.json" 2>/dev/null |
        grep -oE '[0-9]+$')
    if [[ $mode != write && $recorded != "$(digits_of "$name")" ]]; then
        echo "FAIL $name: cases/$name.ref/ref.json records --digits '${recorded}', the rule gives $(digits_of "$name") (tests/corpus/heavy.txt; run make references)"
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

# One job: write mode writes a fresh reference into $tmp/<case>; check
# mode reruns the stored one (its fresh result kept in $tmp/<case>).  A
# heavy case gets its own digits and HEAVY_TIMEOUT.
run_case() {
    local name=$1 dt=$2 digits=$3 limit=$4 start rc
    start=$(date +%s.%N)
    if [[ $mode == write ]]; then
        timeout "$limit" "$HDO" ref write "cases/$name.hdae" "$tmp/$name" \
            --digits "$digits" --verify --every "$dt" >"$tmp/$name.log" 2>&1
    else
        timeout "$limit" "$HDO" ref compare "cases/$name.hdae" \
            "cases/$name.ref" --digits-agree $((digits - 5)) -o "$tmp/$name" \
            >"$tmp/$name.log" 2>"$tmp/$name.err"
    fi
    rc=$?
    echo "$rc $(echo "$(date +%s.%N) - $start" | bc)" >"$tmp/$name.status"
}
limit_of() { if [[ -n ${heavy[$1]:-} ]]; then echo "$HEAVY_TIMEOUT"; else echo "$REF_TIMEOUT"; fi; }
export -f run_case
export HDO mode tmp
t_start=$(date +%s.%N)
for name in $order; do
    echo "$name ${every[$name]} $(digits_of "$name") $(limit_of "$name")"
done | xargs -r -P "$JOBS" -L 1 bash -c 'run_case "$0" "$1" "$2" "$3"'
t_all=$(echo "$(date +%s.%N) - $t_start" | bc)

# What differs from run to run and is no change of the reference: the
# times, hdo's version and the command line.
same_reference() {
    local a=$1 b=$2
    cmp -s "$a/trajectory.csv" "$b/trajectory.csv" &&
        cmp -s "$a/events.csv" "$b/events.csv" &&
        cmp -s <(grep -vE '"(seconds|timing|hdo_version|command_line)"' "$a/summary.json") \
            <(grep -vE '"(seconds|timing|hdo_version|command_line)"' "$b/summary.json") &&
        cmp -s <(grep -v '"hdo_version"' "$a/ref.json" 2>/dev/null) \
            <(grep -v '"hdo_version"' "$b/ref.json")
}

for name in "${jobs[@]}"; do
    ref=cases/$name.ref
    NEED=$(($(digits_of "$name") - 5))
    read -r rc secs <"$tmp/$name.status" 2>/dev/null || { rc=-1; secs=0; }
    secs=$(printf '%.1f' "$secs")
    if ((rc == 124)); then
        limit=REF_TIMEOUT
        [[ -n ${heavy[$name]:-} ]] && limit=HEAVY_TIMEOUT
        echo "FAIL $name: hdo ref ${mode%-heavy} gave no result within $(limit_of "$name") s ($limit)"
        failed=$((failed + 1))
        continue
    elif [[ $mode != write ]]; then
        # the verdict of hdo ref compare: its FAIL lines and its last line
        if ((rc == 0 || rc == 1)); then
            sed "\$s/\$/ [$secs s]/" "$tmp/$name.log"
        else
            echo "FAIL $name: hdo ref compare exited $rc after $secs s: $(grep -v '^==' "$tmp/$name.err" | tail -n 1)"
        fi
        vd=$(grep -oE '"verified_digits": *[0-9]+' "$tmp/$name/summary.json" 2>/dev/null | grep -oE '[0-9]+$')
        if ((rc == 0 && ${vd:-0} < NEED)); then
            echo "warning: $name: hdo's own --verify gives verified_digits ${vd:-?} < $NEED"
        fi
        if ((rc == 0)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
        continue
    elif ((rc != 0)); then
        echo "FAIL $name: hdo ref write exited $rc after $secs s: $(grep -v '^==' "$tmp/$name.log" | tail -n 1)"
        failed=$((failed + 1))
        continue
    fi
    vd=$(grep -oE '"verified_digits": *[0-9]+' "$tmp/$name/summary.json" | grep -oE '[0-9]+$')
    warn=""
    if ((${vd:-0} < NEED)); then
        warn=" [warning: hdo's own --verify gives verified_digits ${vd:-?} < $NEED]"
    fi
    if [[ ! -d $ref ]]; then
        cp -r "$tmp/$name" "$ref"
        echo "NEW  $name: $ref written ($secs s)$warn"
        passed=$((passed + 1))
        continue
    fi
    verdict=$("$HDO" ref compare "cases/$name.hdae" "$ref" --with "$tmp/$name" \
        --digits-agree "$NEED" 2>&1)
    crc=$?
    if ((crc != 0)) && [[ ${REF_FORCE:-0} != 1 ]]; then
        printf '%s\n' "$verdict"
        echo "FAIL $name: stored $ref kept; REF_FORCE=1 make references replaces it"
        failed=$((failed + 1))
        continue
    fi
    last=$(tail -n 1 <<<"$verdict")
    if same_reference "$ref" "$tmp/$name"; then
        echo "SAME $name: ${last#PASS "$name": } [$secs s]$warn"
    else
        rm -rf "$ref"
        cp -r "$tmp/$name" "$ref"
        if ((crc == 0)); then
            echo "UPD  $name: ${last#PASS "$name": } [$secs s]$warn"
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
    [[ -n ${heavy[$name]:-} ]] && continue # make check-heavy checks it
    if [[ ! -f cases/$name.hdae ]] || grep -qE "^$name:" tests/corpus/pending.txt 2>/dev/null; then
        echo "note: $ref is not checked (its case is missing or pending)"
    fi
done
echo "references: wall time $(printf '%.1f' "$t_all") s for ${#jobs[@]} cases, $JOBS jobs"
echo "references: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
