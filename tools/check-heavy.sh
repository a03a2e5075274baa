#!/usr/bin/env bash
# check-heavy.sh -- make check-heavy: the heavy corpus cases, which make
# check leaves out (tests/corpus/heavy.txt, docs/decisions.md D-099).
#
# usage: tools/check-heavy.sh [CASE ...]      (default: every heavy case)
#
# For each case, one at a time (each takes minutes and hundreds of MB):
#   1. its independent check, tests/corpus/check_<case>.py (the published
#      values, or a program of its own: nothing there comes from hdo);
#   2. its golden reference cases/<case>.ref/ (written by make references
#      at the digits heavy.txt gives, with --verify), rerun by `hdo ref
#      compare` to that minus 5 digits: tools/references.sh check-heavy.
# A case without a stored reference fails (make references writes it).
# Prints one line per check, then "check-heavy: N passed, N failed";
# exit 0 when nothing failed.
#
# environment: HDO (default build/hdo), HEAVY_TIMEOUT seconds per run
#              (default 3600), HEAVY_LIST (default tests/corpus/heavy.txt)
set -u
cd "$(dirname "$0")/.." || exit 2
export HDO=${HDO:-build/hdo}
export HEAVY_TIMEOUT=${HEAVY_TIMEOUT:-3600}
export HEAVY_LIST=${HEAVY_LIST:-tests/corpus/heavy.txt}
PY=/usr/bin/python3
if [[ ! -x $HDO ]]; then
    echo "check-heavy: $HDO is missing (run make)" >&2
    exit 2
fi
if (($# > 0)); then names=("$@"); else
    names=()
    while read -r name _; do
        [[ -z $name || $name == \#* ]] && continue
        names+=("$name")
    done <"$HEAVY_LIST"
fi

passed=0
failed=0
for name in "${names[@]}"; do
    t=tests/corpus/check_$name.py
    if [[ ! -f $t ]]; then
        echo "FAIL $name: no independent check $t"
        failed=$((failed + 1))
    else
        start=$(date +%s)
        out=$(timeout "$HEAVY_TIMEOUT" "$PY" "$t" 2>&1)
        rc=$?
        secs=$(($(date +%s) - start))
        ((rc == 124)) && out="FAIL $name: $t gave no verdict within $HEAVY_TIMEOUT s (HEAVY_TIMEOUT)"
        printf '%s [%d s]\n' "$(tail -n 1 <<<"$out")" "$secs"
        if ((rc == 0)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    fi
    out=$(JOBS=1 tools/references.sh check-heavy "$name" 2>&1)
    rc=$?
    grep -vE '^references: ' <<<"$out"
    if ((rc == 0)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "check-heavy: $passed passed, $failed failed"
((failed == 0))
