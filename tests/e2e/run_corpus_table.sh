#!/usr/bin/env bash
# run_corpus_table.sh -- what `make run` prints first is hdo's own result
# (tools/run-corpus.sh): a heading that says so, a progress line per case
# while the cases run, the table, and one line with the cases computed
# and verified; a case that fails is counted as not computed.  On two
# cases: the bouncing ball (which --verify confirms to all 30 digits)
# and a model whose run stops at t = 1 (log of 0).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fail() {
    echo "FAIL run_corpus_table: $*"
    exit 1
}
printf 'model logzero\nvar x = 1, y = 0\nmode m\n  der(x) = -1\n  der(y) = log(x)\nend\nstart m\nuntil 2\n' \
    >"$tmp/logzero.hdae"
out=$(OUT="$tmp/out" JOBS=2 tools/run-corpus.sh "$HDO" cases/bouncing_ball.hdae "$tmp/logzero.hdae" 2>&1)
rc=$?
((rc == 0)) || fail "exit $rc: $(tail -n 3 <<<"$out")"
[[ $(head -n 1 <<<"$out") == "== hdo's own results: the corpus at 30 digits"* ]] ||
    fail "the first line is '$(head -n 1 <<<"$out")'"
prog=$(grep -E '^  \[[12]/2\] ' <<<"$out")
grep -qE '^  \[[12]/2\] bouncing_ball: 30 verified digits, [0-9.]+ s$' <<<"$prog" ||
    fail "no progress line for bouncing_ball: $prog"
grep -qE '^  \[[12]/2\] logzero: FAILED \(exit 2\), [0-9.]+ s$' <<<"$prog" ||
    fail "no progress line for logzero: $prog"
[[ $(grep -cE '^  \[1/2\]' <<<"$prog") == 1 && $(grep -cE '^  \[2/2\]' <<<"$prog") == 1 ]] ||
    fail "progress counts: $prog"
last=$(tail -n 1 <<<"$out")
[[ $last == "hdo: 1 of 2 cases computed at 30 digits, 1 verified to all 30 digits; not computed: 1 (FAILED rows above)" ]] ||
    fail "last line '$last'"
grep -q 'domain error evaluating log(x)' <<<"$out" || fail "the failed case's message is not shown"
echo "PASS run_corpus_table: heading, a progress line per case, hdo's result line last"
