#!/usr/bin/env bash
# crosscheck_table.sh -- tools/crosscheck.sh takes its figures from the
# `summary:` line of hdo check (decisions.md D-037): on a harmonic oscillator
# switching mode at x = 0 (events at pi/2 + k pi), SciPy at 1e-10 passes a
# tight tolerance file and at 1e-3 fails it, and every table figure is the
# one on the summary line of that run's report; the table says that its
# verdicts are the other solvers', with a progress line per run.  SciPy only: the scratch
# tree gets a stand-in hdo-ida (never run), so that the table does not
# depend on IDA's figures.
set -u
HDO=${HDO:-build/hdo}
PY=${HDO_PYTHON:-/usr/bin/python3}
dir=$(mktemp -d /tmp/hdo-crosscheck-e2e-XXXXXX)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

if ! "$PY" -c 'import scipy' 2>/dev/null; then
    echo "crosscheck_table: SKIP (no scipy for $PY)"
    exit 0
fi
mkdir -p "$dir/build"
ln -s "$(cd "$(dirname "$HDO")" && pwd)/$(basename "$HDO")" "$dir/build/hdo"
printf '#!/bin/sh\nexit 2\n' >"$dir/build/hdo-ida"
chmod +x "$dir/build/hdo-ida"
cat >"$dir/osc.hdae" <<'M'
model osc
var x = 1
var v = 0
mode right
  der(x) = v
  der(v) = -x
  when x < 0 goto left
end
mode left
  der(x) = v
  der(v) = -x
  when x > 0 goto right
end
start right at 0
until 6
M
printf 'time_abs = 1e-8\nvalue_abs = 1e-9\nvalue_rel = 1e-9\nmodes = exact\n' >"$dir/osc.tol"

table=$(BUILD="$dir/build" OUT="$dir/out" SOLVERS=scipy TOLS="1e-10 1e-3" JOBS=1 \
    tools/crosscheck.sh "$dir/osc.hdae" 2>&1)
rc=$?
if [[ $rc -ne 0 ]]; then
    bad "crosscheck.sh exit $rc"
    printf '%s\n' "$table" | sed 's/^/    /'
fi

# row TOL: the table's row for scipy at TOL, as "verdict value_err event_err miss/ext".
row() { awk -v t="$1" '$1 == "osc" && $2 == "scipy" && $3 == t { print $4, $5, $6, $7 }' <<<"$table"; }
# from_summary TOL: the same four figures from that run's summary line.
from_summary() {
    "$PY" - "$dir/out/osc/scipy-$1/check.txt" <<'P'
import re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("summary: ")][-1]
d = dict(re.findall(r"(\w+)=(\S+)", line))
print(d["verdict"], "%.2e" % float(d["value_err"]), "%.2e" % float(d["event_time_err"]),
      d["events_missing"] + "/" + d["events_extra"])
P
}
for tol in 1e-10 1e-3; do
    r=$(row "$tol")
    s=$(from_summary "$tol" 2>&1)
    if [[ -n $r && $r == "$s" ]]; then ok
    else bad "row $tol: table '$r', summary line '$s'"; fi
done
[[ $(row 1e-10) == "PASS "* ]] && ok || bad "scipy 1e-10 should pass: $(row 1e-10)"
[[ $(row 1e-3) == "FAIL "* ]] && ok || bad "scipy 1e-3 should fail: $(row 1e-3)"
grep -qE "^crosscheck, the other solvers' verdicts: 1 FAIL, 1 PASS$" <<<"$table" && ok || bad "tally: $(tail -n 1 <<<"$table")"
# labelled as the other solvers' verdicts, with a progress line per run
grep -q "^== the other solvers' results, judged by hdo check" <<<"$table" && ok ||
    bad "no heading naming the other solvers"
[[ $(grep -cE '^  \[[12]/2\] osc scipy 1e-(10|3): (PASS|FAIL)$' <<<"$table") == 2 ]] && ok ||
    bad "progress lines: $(grep -F '/2]' <<<"$table")"
echo "table: $passed passed, $failed failed"
((failed == 0))
