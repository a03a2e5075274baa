#!/usr/bin/env bash
# check_many.sh -- `hdo check MODEL CANDIDATE...` (issue 26): several
# candidates, files or folders of .csv and .mat files, against one
# reference run; one line each, an aggregate summary, JUnit with one test
# case per candidate named after its file, the HTML report.  Candidates
# come from the closed form x = e^-t, y = 1 - e^-t (never from hdo); each
# candidate's verdict and summary line are the same as a check of it alone.
set -u
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/check_common.bash"
write_xy_model "$tmp/xy.hdae"
mkdir -p "$tmp/dir" "$tmp/empty"
"$PY" - "$tmp" <<'P'
import math, sys
d = sys.argv[1]
def write(name, ts, bump=0.0):
    with open(name, "w") as f:
        f.write("time,x,y\n")
        for t in ts:
            x = math.exp(-t) + (bump if abs(t - 0.5) < 1e-12 else 0)
            f.write("%r,%r,%r\n" % (t, x, 1 - math.exp(-t)))
write(f"{d}/dir/a.csv", [k / 10 for k in range(11)])
write(f"{d}/dir/b.csv", [k / 8 for k in range(9)])            # another grid
write(f"{d}/dir/c.csv", [k / 10 for k in range(11)], 1e-4)   # off at 0.5
open(f"{d}/dir/notes.txt", "w").write("not a candidate\n")
write(f"{d}/solo.csv", [k / 7 for k in range(8)])
with open(f"{d}/nohead.csv", "w") as f:
    f.write("0,1,0\n0.5,0.6065306597126334,0.3934693402873666\n")
P
M=$tmp/xy.hdae
tol=(--value-abs 1e-12 --value-rel 1e-12)
# a folder (in name order, .csv and .mat only) and a file
expect many-lines 1 '^PASS  .*/dir/a.csv: 2 variables, 11 rows' -- "$M" "$tmp/dir" "$tmp/solo.csv" "${tol[@]}"
expect many-fail-line 1 '^FAIL  .*/dir/c.csv: t = 0.5 .*variable x' -- "$M" "$tmp/dir" "$tmp/solo.csv" "${tol[@]}"
expect many-summary 1 '^summary: verdict=FAIL candidates=4 passed=3 failed=1 errors=0 reference_runs=1 ' -- "$M" "$tmp/dir" "$tmp/solo.csv" "${tol[@]}"
out=$("$HDO" check "$M" "$tmp/dir" "$tmp/solo.csv" "${tol[@]}" 2>&1)
order=$(grep -E '^(PASS|FAIL|ERROR) ' <<<"$out" | grep -oE '(dir/[abc]|solo)\.csv:' | tr -d ':' | tr '\n' ' ')
[[ $order == "dir/a.csv dir/b.csv dir/c.csv solo.csv " ]] && ok || bad "many-order: $order"
grep -q notes.txt <<<"$out" && bad "many-notes: a .txt file was taken" || ok
# all pass: exit 0; a candidate that cannot be read: exit 2, the others judged
expect many-pass 0 'summary: verdict=PASS candidates=3 passed=3' -- "$M" "$tmp/dir/a.csv" "$tmp/dir/b.csv" "$tmp/solo.csv" "${tol[@]}"
expect many-error 2 '^ERROR .*nohead.csv: .*nohead.csv:1:1: error: the file has no header line' -- "$M" "$tmp/solo.csv" "$tmp/nohead.csv" "${tol[@]}"
expect many-error-summary 2 'candidates=2 passed=1 failed=0 errors=1' -- "$M" "$tmp/solo.csv" "$tmp/nohead.csv" "${tol[@]}"
expect empty-folder 2 'empty: error: the folder holds no .csv or .mat file to check' -- "$M" "$tmp/empty"
# one file: the full report, as before
expect one-file 0 '^model xy, candidate .*solo.csv: 8 rows' -- "$M" "$tmp/solo.csv" "${tol[@]}"
# each candidate's summary line in the report is its check alone's
"$HDO" check "$M" "$tmp/dir" "$tmp/solo.csv" "${tol[@]}" --report "$tmp/r.html" --junit "$tmp/j.xml" >/dev/null 2>&1
for c in dir/a.csv dir/b.csv dir/c.csv solo.csv; do
    alone=$("$HDO" check "$M" "$tmp/$c" "${tol[@]}" 2>&1 | tail -n 1)
    if grep -qF -- "$alone" "$tmp/r.html"; then ok; else bad "same-as-alone $c: $alone"; fi
done
# JUnit: one suite, one test case per candidate named after its file
n=$(grep -c '<testcase classname="hdo.check.xy" name="[^"]*/\(dir/[abc]\|solo\).csv"' "$tmp/j.xml")
[[ $n == 4 ]] && ok || bad "junit-cases: $n"
grep -q '<testsuite name="hdo check xy" tests="4" failures="1" errors="0"' "$tmp/j.xml" && ok || bad "junit-suite"
grep -q '<failure message="t = 0.5 ' "$tmp/j.xml" && ok || bad "junit-failure"
"$HDO" check "$M" "$tmp/solo.csv" "$tmp/nohead.csv" --junit "$tmp/j2.xml" >/dev/null 2>&1
grep -q '<error message="[^"]*nohead.csv:1:1: error: the file has no header line' "$tmp/j2.xml" && ok || bad "junit-error"
# the HTML report: self-contained, the table, each candidate, the plots
grep -q '<table>' "$tmp/r.html" && ok || bad "html-table"
grep -qE '<script|src="http|href="http|<link ' "$tmp/r.html" && bad "html-outside" || ok
n=$(grep -c '<section id=' "$tmp/r.html")
[[ $n == 4 ]] && ok || bad "html-sections: $n"
if command -v gnuplot >/dev/null; then
    n=$(grep -c '<svg' "$tmp/r.html")
    ((n >= 8)) && ok || bad "html-svg: $n plots"
fi
grep -q 'First failure:</b> t = 0.5 ' "$tmp/r.html" && ok || bad "html-first-failure"
# one candidate: the page too, and on exit 2 the page says why
"$HDO" check "$M" "$tmp/solo.csv" "${tol[@]}" --report "$tmp/one.html" >/dev/null 2>&1
grep -q '<span class="PASS">PASS</span>: 1 candidate, 1 passed' "$tmp/one.html" && ok || bad "html-one"
"$HDO" check "$M" "$tmp/nohead.csv" --report "$tmp/err.html" >/dev/null 2>&1
grep -q 'class="ERROR">ERROR</td><td colspan="8"></td><td>[^<]*nohead.csv:1:1: error: the file has no header line' "$tmp/err.html" && ok || bad "html-error"
# --plot with several candidates: one picture set per candidate
if command -v gnuplot >/dev/null; then
    "$HDO" check "$M" "$tmp/dir/a.csv" "$tmp/solo.csv" "${tol[@]}" --plot "$tmp/p.png" >/dev/null 2>&1
    [[ -s $tmp/p-a.csv-x.png && -s $tmp/p-solo.csv-y.png ]] && ok || bad "plot-many: $(ls "$tmp" | grep '^p-')"
fi
# --progress changes nothing on stdout
a=$("$HDO" check "$M" "$tmp/solo.csv" "${tol[@]}" | sed 's/[0-9.]* s$//')
b=$("$HDO" check "$M" "$tmp/solo.csv" "${tol[@]}" --progress 2>/dev/null | sed 's/[0-9.]* s$//')
[[ $a == "$b" ]] && ok || bad "progress-stdout"
echo "check_many: $passed passed, $failed failed"
((failed == 0))
