#!/usr/bin/env bash
# references_heavy.sh -- the heavy cases' golden references (tests/corpus/
# heavy.txt, docs/decisions.md D-099) are left out of make check and held
# to their own digits, without running a heavy case (about 1 s):
#   - every heavy case is in tests/corpus/pending.txt (so make check's
#     corpus tests leave it out), has a sampling step in
#     cases/references.txt and an independent check
#     tests/corpus/check_<case>.py, and a stored reference of one records
#     the digits heavy.txt gives, --verify and that step;
#   - tools/references.sh check lists a heavy case as SKIP naming make
#     check-heavy, and check-heavy refuses a case that is not heavy;
#   - with a list of its own (HEAVY_LIST) naming pendulum at 30 digits,
#     check-heavy fails on pendulum's 40-digit reference naming both digit
#     counts, and at 40 digits runs it and passes: the heavy path reruns
#     the reference with the digits the list gives.
set -u
source "$(dirname "$0")/common.bash"
export HDO
passed=0
failed=0
ok() { echo "PASS references_heavy: $1"; passed=$((passed + 1)); }
bad() { echo "FAIL references_heavy: $1"; failed=$((failed + 1)); }

n=0
while read -r name digits _; do
    [[ -z $name || $name == \#* ]] && continue
    n=$((n + 1))
    grep -qE "^$name:" tests/corpus/pending.txt ||
        bad "$name is in heavy.txt but not in pending.txt (make check would run it)"
    every=$(awk -v c="$name" '$1 == c { print $2 }' cases/references.txt)
    [[ -n $every ]] || bad "$name has no sampling step in cases/references.txt"
    [[ -f tests/corpus/check_$name.py ]] || bad "$name has no tests/corpus/check_$name.py"
    [[ $digits =~ ^[0-9]+$ ]] || bad "$name: digits '$digits' in heavy.txt is not a number"
    if [[ -f cases/$name.ref/ref.json ]]; then
        j=cases/$name.ref/ref.json
        if ! grep -qE "\"digits\": *$digits," "$j" || ! grep -qE '"verify": *true' "$j" ||
            ! grep -qE "\"every\": *\"$every\"" "$j"; then
            bad "$j does not record --digits $digits --verify --every $every"
        fi
    fi
done <tests/corpus/heavy.txt
((failed == 0 && n > 0)) && ok "$n heavy cases, each pending, with a step, a check and (where stored) a reference at its digits"

out=$(tools/references.sh check medakzo 2>&1)
rc=$?
if ((rc == 0)) && grep -qF "SKIP medakzo: heavy (tests/corpus/heavy.txt): its reference at 30 digits is checked by make check-heavy" <<<"$out" &&
    grep -qF "references: 0 passed, 0 failed, 1 skipped" <<<"$out"; then
    ok "check lists medakzo as skipped, for make check-heavy"
else
    bad "check medakzo: exit $rc: $out"
fi

out=$(tools/references.sh check-heavy pendulum 2>&1)
rc=$?
if ((rc == 1)) && grep -qF "FAIL pendulum: not a heavy case" <<<"$out"; then
    ok "check-heavy refuses pendulum, not a heavy case"
else
    bad "check-heavy pendulum: exit $rc: $out"
fi

echo "pendulum 30" >"$tmp/heavy30.txt"
out=$(HEAVY_LIST=$tmp/heavy30.txt tools/references.sh check-heavy pendulum 2>&1)
rc=$?
if ((rc == 1)) && grep -qF "FAIL pendulum: cases/pendulum.ref/ref.json records --digits '40', the rule gives 30" <<<"$out"; then
    ok "a reference at other digits than its list's fails, naming both"
else
    bad "check-heavy pendulum listed at 30 digits: exit $rc: $out"
fi

echo "pendulum 40" >"$tmp/heavy40.txt"
out=$(HEAVY_LIST=$tmp/heavy40.txt tools/references.sh check-heavy pendulum 2>&1)
rc=$?
if ((rc == 0)) && grep -qE "^PASS pendulum: agree to (3[5-9]|40) digits" <<<"$out" &&
    grep -qF "references: 1 passed, 0 failed, 0 skipped" <<<"$out"; then
    ok "check-heavy reruns a listed case's reference and passes"
else
    bad "check-heavy pendulum listed at 40 digits: exit $rc: $out"
fi
echo "references_heavy: $passed passed, $failed failed"
((failed == 0))
