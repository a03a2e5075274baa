#!/usr/bin/env bash
# run.sh -- runs every end-to-end test and prints "N passed, N failed".
#
# An end-to-end test is an executable tests/e2e/*.sh, tests/hostile/run.sh
# style suite, or tests/corpus/check_*.py.  Each exits 0 on pass and prints
# one line (PASS/FAIL with its figures); a suite may print its own
# "N passed, N failed" line, whose counts are added.  A test that exits 0
# after a line starting "SKIP" (a tool it needs is missing) is counted as
# skipped.
#
# The tests run HDO_E2E_JOBS at a time (default: the machine's cores;
# each test keeps its own scratch directory), and their outputs are
# printed whole, in the list's order, as soon as every test before them
# has ended: the log reads as a sequential run's would.
set -u
cd "$(dirname "$0")/../.."
export HDO="${HDO:-build/hdo}"
export HDO_PYTHON="${HDO_PYTHON:-/usr/bin/python3}"
jobs_max="${HDO_E2E_JOBS:-$(nproc 2>/dev/null || echo 1)}"
((jobs_max >= 1)) || jobs_max=1
passed=0
failed=0
skipped=0
failures=()
names=()
commands=()
outdir=$(mktemp -d)
trap 'rm -rf "$outdir"' EXIT

# A test's output and exit code into its scratch files ($outdir/N.out,
# $outdir/N.rc, the latter written last: its presence means "ended").
start_one() {
    local i=$1
    shift
    ("$@" >"$outdir/$i.out" 2>&1
     echo $? >"$outdir/$i.tmp" && mv "$outdir/$i.tmp" "$outdir/$i.rc") &
}

# One ended test's lines and counts, as the sequential runner printed them.
report_one() {
    local name=$1 out=$2 rc=$3
    local summary
    summary=$(printf '%s\n' "$out" | grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    printf '%s\n' "$out" | grep -vE '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' | sed "s|^|  [$name] |"
    if [[ -n $summary ]]; then
        local p f
        p=$(grep -oE '[0-9]+ passed' <<<"$summary" | grep -oE '[0-9]+')
        f=$(grep -oE '[0-9]+ failed' <<<"$summary" | grep -oE '[0-9]+')
        passed=$((passed + p))
        failed=$((failed + f))
        if ((rc != 0 && f == 0)); then failed=$((failed + 1)); failures+=("$name (exit $rc)"); fi
        ((f > 0)) && failures+=("$name")
    elif ((rc == 0)) && grep -qE '^([A-Za-z_]+: )?SKIP' <<<"$out"; then
        # a test that could not run here (a tool missing) is not a pass
        skipped=$((skipped + 1))
    elif ((rc == 0)); then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures+=("$name")
    fi
}

add() {
    names+=("$1")
    shift
    commands+=("$(printf '%q ' "$@")")
}

for t in tests/e2e/*.sh; do
    [[ $(basename "$t") == run.sh ]] && continue
    add "$(basename "$t" .sh)" bash "$t"
done
for suite in tests/*/run.sh; do
    [[ $suite == tests/e2e/run.sh ]] && continue
    add "$(basename "$(dirname "$suite")")" bash "$suite"
done
# A corpus check whose case needs a part of the engine that is not built
# yet is listed in tests/corpus/pending.txt ("name: reason") and reported
# as skipped, with the reason: never counted as passed.
for t in tests/corpus/check_*.py; do
    [[ -e $t ]] || continue
    name=$(basename "$t" .py)
    name=${name#check_}
    reason=$(grep -E "^$name:" tests/corpus/pending.txt 2>/dev/null | cut -d: -f2-)
    if [[ -n $reason ]]; then
        printf '  [corpus] SKIP %s:%s\n' "$name" "$reason" >"$outdir/${#names[@]}.skip"
        names+=("corpus")
        commands+=("")
        continue
    fi
    add "check_$name" "$HDO_PYTHON" "$t"
done

# Print every ended test from the next one to report on, in order.
next=0
flush() {
    while ((next < ${#names[@]})); do
        if [[ -e $outdir/$next.skip ]]; then
            cat "$outdir/$next.skip"
            skipped=$((skipped + 1))
        elif [[ -e $outdir/$next.rc ]]; then
            report_one "${names[next]}" "$(cat "$outdir/$next.out")" "$(cat "$outdir/$next.rc")"
        else
            return
        fi
        next=$((next + 1))
    done
}

running=0
for i in "${!names[@]}"; do
    [[ -z ${commands[i]} ]] && continue
    while ((running >= jobs_max)); do
        wait -n
        running=$((running - 1))
        flush
    done
    eval "start_one $i ${commands[i]}"
    running=$((running + 1))
done
wait
flush

if ((${#failures[@]})); then
    echo "failed: ${failures[*]}"
fi
echo "e2e: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
