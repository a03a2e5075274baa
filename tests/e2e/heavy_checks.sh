#!/usr/bin/env bash
# heavy_checks.sh -- tools/heavy_checks.py, the table `make run` prints
# for the heavy cases (issue 28): a real check at 16 digits on the water
# tube (4-7 s CPU) gives a PASS row with the run's CPU seconds and steps
# and the target's verdict; an hdo that fails gives FAIL and exit 1; a
# run over its time limit gives TIMEOUT, counted as failed; an unknown
# case is a usage error (exit 2).
set -u
source "$(dirname "$0")/common.bash"
pass=0
fail=0
ok() { echo "ok: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

"$PY" tools/heavy_checks.py --hdo "$HDO" --digits 16 --jobs 1 water_tube \
    >"$tmp/pass.out" 2>&1
rc=$?
row=$(grep -E "^water_tube +16 +PASS" "$tmp/pass.out")
[[ $rc == 0 ]] && ok "a passing check exits 0" || bad "exit $rc on a pass"
# cpu_s a number, steps a number, the target judged, the check's own line
if [[ $row =~ PASS\ +[0-9]+\.[0-9]\ +[0-9]+\ +(met|not\ met)\ +PASS\ water_tube: ]]; then
    ok "the PASS row has CPU seconds, steps, the target and the check's line"
else
    bad "row: ${row:-none}"
fi
grep -q "^heavy checks: 1 passed, 0 failed$" "$tmp/pass.out" &&
    ok "last line counts 1 passed" || bad "$(tail -n 1 "$tmp/pass.out")"

printf '#!/bin/sh\necho "error: broken on purpose" >&2\nexit 2\n' >"$tmp/hdo"
chmod +x "$tmp/hdo"
"$PY" tools/heavy_checks.py --hdo "$tmp/hdo" --digits 16 30 --jobs 2 \
    water_tube >"$tmp/fail.out" 2>&1
rc=$?
[[ $rc == 1 ]] && ok "a failing check exits 1" || bad "exit $rc on a failure"
[[ $(grep -cE "^water_tube +(16|30) +FAIL +- +- +- +FAIL [^ ]*: hdo run -d (16|30) exited 2: error: broken on purpose" \
    "$tmp/fail.out") == 2 ]] && ok "both runs are FAIL rows with the check's line" ||
    bad "$(cat "$tmp/fail.out")"
grep -q "^heavy checks: 0 passed, 2 failed$" "$tmp/fail.out" &&
    ok "last line counts 2 failed" || bad "$(tail -n 1 "$tmp/fail.out")"

printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 30\n' "$tmp/pid" >"$tmp/hdo"
"$PY" tools/heavy_checks.py --hdo "$tmp/hdo" --digits 16 --timeout 1 \
    water_tube >"$tmp/slow.out" 2>&1
rc=$?
if [[ $rc == 1 ]] && grep -qE "^water_tube +16 +TIMEOUT .* not met +no result in 1 s" "$tmp/slow.out"; then
    ok "a run over its limit is a TIMEOUT row, the target not met, exit 1"
else
    bad "exit $rc: $(cat "$tmp/slow.out")"
fi

# the timed-out run's hdo is ended with its check, not left running
# (a zombie, killed but not yet reaped by its new parent, has ended)
state=$( [[ -s $tmp/pid ]] && ps -o stat= -p "$(cat "$tmp/pid")" 2>/dev/null)
if [[ -n $state && $state != Z* ]]; then
    bad "the timed-out hdo (pid $(cat "$tmp/pid")) still runs"
    kill "$(cat "$tmp/pid")"
else
    ok "the timed-out hdo is ended"
fi

"$PY" tools/heavy_checks.py --hdo "$HDO" no_such_case >"$tmp/bad.out" 2>&1
rc=$?
[[ $rc == 2 ]] && grep -q "no tests/corpus/check_no_such_case.py" "$tmp/bad.out" &&
    ok "an unknown case is exit 2, named" || bad "exit $rc: $(cat "$tmp/bad.out")"

echo "heavy_checks: $pass passed, $fail failed"
((fail == 0))
