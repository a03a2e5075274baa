#!/usr/bin/env bash
# check_ball.sh -- end-to-end tests of `hdo check` on the bouncing ball, with
# candidates written from the closed form (h = 1 - g t^2/2, then parabolic
# arcs), never from hdo's own output.
set -u
HDO=${HDO:-build/hdo}
PY=${HDO_PYTHON:-/usr/bin/python3}
dir=$(mktemp -d /tmp/hdo-check-e2e-XXXXXX)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$dir"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

cat >"$dir/ball.hdae" <<'M'
model ball
param g = 9.81
param e = 0.8
var h = 1
var v = 0
mode fly
  der(h) = v
  der(v) = -g
  when h < 0 goto fly with v = -e*v
end
start fly at 0
until 2.8
M
printf 'time_abs = 1e-6\nvalue_abs = 1e-8\nvalue_rel = 1e-6\nmodes = exact\n' >"$dir/tight.tol"
printf 'time_abs = 1e-3  # loose in time\nvalue_abs = 1e-8\nvalue_rel = 1e-6\n' >"$dir/loose.tol"

# gen.py KIND OUT: a candidate from the closed form.
cat >"$dir/gen.py" <<'P'
import math, sys
g, e, kind, out = 9.81, 0.8, sys.argv[1], sys.argv[2]
T = 2.8
tk, uk = [0.0, math.sqrt(2 / g)], [0.0, e * math.sqrt(2 * g)]
while len(tk) < 8:
    tk.append(tk[-1] + 2 * uk[-1] / g)
    uk.append(e * uk[-1])
def arc(k, t):
    s = t - tk[k]
    if k == 0:
        return 1 - g * t * t / 2, -g * t
    return uk[k] * s - g * s * s / 2, uk[k] - g * s
delay = {"late_beyond": 3e-3, "shift_within": 4e-4, "early_within": -4e-4}.get(kind, 0.0)
step = 0.01
rows = []
times = [i * step for i in range(int(T / step) + 1)]
if kind == "other_grid":
    times = [i * 0.0137 + 0.004 * (1 + math.sin(i)) for i in range(205)]
    times = [t for t in times if t <= T]
k = 1
for t in times:
    while kind != "missed" and k < len(tk) and tk[k] + delay <= t:
        te = tk[k] + delay
        if te <= T:
            rows.append((te, arc(k - 1, te - (delay if k > 1 else 0))))
            rows.append((te, arc(k, tk[k])))
        k += 1
    if rows and t == rows[-1][0]:
        continue
    rows.append((t, arc(k - 1, t - (delay if k > 1 else 0))))
if kind == "bump":
    apex = tk[1] + uk[1] / g
    i = min(range(len(rows)), key=lambda i: abs(rows[i][0] - apex))
    t, (h, v) = rows[i]
    rows[i] = (t, (h + 1e-5, v))
with open(out, "w") as f:
    f.write("time,mode,h,v\n" if kind != "nomode" else "time,h,v\n")
    for t, (h, v) in rows:
        if kind == "nomode":
            f.write("%.17g,%.17g,%.17g\n" % (t, h, v))
        else:
            f.write("%.17g,fly,%.17g,%.17g\n" % (t, h, v))
P

# expect NAME EXIT PATTERN -- ARGS: runs hdo check, checks the exit code and
# that stdout+stderr match the extended regular expression PATTERN.
expect() {
    local name=$1 want=$2 pat=$3
    shift 4
    local out rc
    out=$("$HDO" check "$@" 2>&1)
    rc=$?
    if [[ $rc -ne $want ]]; then
        bad "$name: exit $rc, expected $want"
        printf '%s\n' "$out" | head -n 30 | sed 's/^/    /'
    elif ! grep -qE -- "$pat" <<<"$out"; then
        bad "$name: output does not match /$pat/"
        printf '%s\n' "$out" | head -n 30 | sed 's/^/    /'
    else
        ok
    fi
}

m="$dir/ball.hdae"
for k in exact nomode other_grid bump late_beyond shift_within early_within missed; do
    "$PY" "$dir/gen.py" "$k" "$dir/$k.csv"
done

expect closed-form 0 '^PASS' -- "$m" "$dir/exact.csv" -t "$dir/tight.tol"
expect no-mode-column 0 '^PASS' -- "$m" "$dir/nomode.csv" -t "$dir/tight.tol"
expect other-time-points 0 '^PASS' -- "$m" "$dir/other_grid.csv" -t "$dir/tight.tol"
expect bump-mid-arc 1 'first failure: t = [^,]*, variable h' -- "$m" "$dir/bump.csv" -t "$dir/tight.tol"
expect late-beyond-time-abs 1 'late' -- "$m" "$dir/late_beyond.csv" -t "$dir/loose.tol"
expect late-within-time-abs 0 '^PASS' -- "$m" "$dir/shift_within.csv" -t "$dir/loose.tol"
expect early-within-time-abs 0 '^PASS' -- "$m" "$dir/early_within.csv" -t "$dir/loose.tol"
expect missed-event 1 'missing' -- "$m" "$dir/missed.csv" -t "$dir/tight.tol"
# the physics that differ, in words: 5 impacts, the last at
# t1 + 2 t1 (e + e^2 + e^3 + e^4) = 2.58416...
expect missed-in-words 1 'the candidate has no event; the reference has 5 more events up to t = 2\.58416' -- "$m" "$dir/missed.csv" -t "$dir/tight.tol"
expect late-is-first-failure 1 'first failure: event fly -> fly' -- "$m" "$dir/late_beyond.csv" -t "$dir/loose.tol"

# The candidate's own event list, given separately.
"$PY" - "$dir" <<'P'
import math, sys
g = 9.81
t1 = math.sqrt(2 / g)
with open(sys.argv[1] + "/ev.csv", "w") as f:
    f.write("time,from,to\n%.17g,fly,fly\n" % t1)
with open(sys.argv[1] + "/ev-wrong.csv", "w") as f:
    f.write("time,from,to\n%.17g,fly,fly\n%.17g,fly,fly\n" % (t1, t1 + 0.1))
P
head -n 60 "$dir/exact.csv" >"$dir/short.csv"   # one bounce, t <= 0.58
expect events-file 0 '^PASS' -- "$m" "$dir/short.csv" -t "$dir/tight.tol" --events "$dir/ev.csv"
expect events-file-extra 1 'extra' -- "$m" "$dir/short.csv" -t "$dir/tight.tol" --events "$dir/ev-wrong.csv"

# The machine-readable last line (docs/decisions.md, "hdo check summary
# line"): present, last, and its figures those of the candidate.
# summary_field NAME OUT: the value of NAME= on the last line of OUT.
summary_field() { tail -n 1 <<<"$2" | grep -oE "(^| )$1=[^ ]*" | sed 's/^ //; s/^[^=]*=//'; }
# expect_summary NAME AWK-CONDITION -- ARGS: runs hdo check; the last line of
# stdout must start with "summary: " and the awk condition, over the
# fields as variables (verdict, value_err, ...), must hold.
expect_summary() {
    local name=$1 cond=$2 out last vars
    shift 3
    out=$("$HDO" check "$@" 2>/dev/null)
    last=$(tail -n 1 <<<"$out")
    if [[ $last != "summary: verdict="* ]]; then
        bad "$name: the last line is not the summary: $last"
        return
    fi
    vars=$(sed 's/^summary: //' <<<"$last" | tr ' ' '\n' | grep -E '^[a-z_]+=' |
        sed -E 's/^([a-z_]+)=(.*)$/-v \1=\2/' | tr '\n' ' ')
    # shellcheck disable=SC2086
    if awk $vars "BEGIN { exit !($cond) }"; then ok
    else bad "$name: '$cond' does not hold for: $last"; fi
}
expect_summary summary-pass 'verdict == "PASS" && value_err + 0 < 1e-9 && events_ref == 5 && events_cand == 5 && events_missing == 0 && events_extra == 0 && events_wrong == 0 && event_time_err + 0 < 1e-9 && vars_failed == "0/2"' \
    -- "$m" "$dir/exact.csv" -t "$dir/tight.tol"
expect_summary summary-bump 'verdict == "FAIL" && value_err + 0 > 0.9e-5 && value_err + 0 < 1.1e-5 && value_where ~ /^h@0\.8/ && value_ratio + 0 > 1 && vars_failed == "1/2" && events_missing == 0' \
    -- "$m" "$dir/bump.csv" -t "$dir/tight.tol"
expect_summary summary-missed 'verdict == "FAIL" && events_missing == 5 && events_cand == 0 && events_extra == 0' \
    -- "$m" "$dir/missed.csv" -t "$dir/tight.tol"
expect_summary summary-late 'verdict == "FAIL" && events_wrong >= 1 && event_time_err + 0 > 2.9e-3 && event_time_err + 0 < 3.1e-3' \
    -- "$m" "$dir/late_beyond.csv" -t "$dir/loose.tol"
expect_summary summary-within 'verdict == "PASS" && event_time_err + 0 > 3.9e-4 && event_time_err + 0 < 4.1e-4 && value_ratio + 0 <= 1' \
    -- "$m" "$dir/shift_within.csv" -t "$dir/loose.tol"
out=$("$HDO" check "$m" "$dir/short.csv" -t "$dir/tight.tol" --events "$dir/ev-wrong.csv" 2>/dev/null)
if [[ $(summary_field events_extra "$out") == 1 && $(summary_field verdict "$out") == FAIL ]]; then ok
else bad "summary-extra: $(tail -n 1 <<<"$out")"; fi

# Bad input: exit 2 with the place.
printf 'time,h,v\n0,1,0\n0.1,0.95,abc\n' >"$dir/nonnum.csv"
expect non-number 2 'nonnum.csv:3:10: error' -- "$m" "$dir/nonnum.csv" -t "$dir/tight.tol"
printf 'time,h,v\n0,1,0\n0.2,0.8,-1.9\n0.1,0.95,-0.98\n' >"$dir/back.csv"
expect time-backwards 2 'back.csv:4:1: error: time goes backwards' -- "$m" "$dir/back.csv" -t "$dir/tight.tol"
printf 'time,h,w\n0,1,0\n' >"$dir/unknown.csv"
# a column that is not a variable of the model is listed, not compared (#15)
expect unknown-column 0 "not compared \\(not variables of the model\\): w$" -- "$m" "$dir/unknown.csv" -t "$dir/tight.tol"
printf 'time,h,v\n0,1,0\n0.1,0.95\n' >"$dir/short-row.csv"
expect missing-cell 2 'short-row.csv:3:[0-9]+: error: expected 3 cells' -- "$m" "$dir/short-row.csv" -t "$dir/tight.tol"
printf 'h,time\n1,0\n' >"$dir/notime.csv"
expect no-time-column 2 "notime.csv:1:1: error" -- "$m" "$dir/notime.csv" -t "$dir/tight.tol"
printf 'time,mode,h\n0,flying,1\n' >"$dir/badmode.csv"
expect unknown-mode 2 "badmode.csv:2:3: error: 'flying' is not a mode" -- "$m" "$dir/badmode.csv" -t "$dir/tight.tol"
printf 'time_abs = 1e-6\ntolerance = 3\n' >"$dir/bad.tol"
expect bad-tolerance-key 2 'bad.tol:2:1: error: unknown key' -- "$m" "$dir/exact.csv" -t "$dir/bad.tol"
printf 'variables = h x\n' >"$dir/badvar.tol"
expect tolerance-unknown-variable 2 "badvar.tol:1:15: error: 'x'" -- "$m" "$dir/exact.csv" -t "$dir/badvar.tol"
# without a tolerance file: the documented defaults, said so (#15)
expect default-tolerances 0 'time_abs 1e-06 \(default\), value_abs 1e-08 \(default\), value_rel 1e-06 \(default\)' -- "$m" "$dir/exact.csv"
expect bad-option 2 'unknown option' -- "$m" "$dir/exact.csv" --frobnicate
# The tolerance file by the model file's name before the model line's
# (#27): a copy cases/ball_mine.hdae keeps `model ball`; its own
# tolerances/ball_mine.tol is read (time_abs 1e-3 lets the events 4e-4 late
# pass), then tolerances/ball.tol (1e-6: it fails), then none, with the
# places tried on stderr; -t still wins.
mkdir -p "$dir/tree/cases" "$dir/tree/tolerances"
cp "$m" "$dir/tree/cases/ball_mine.hdae"
mine=$dir/tree/cases/ball_mine.hdae
cp "$dir/loose.tol" "$dir/tree/tolerances/ball_mine.tol"
cp "$dir/tight.tol" "$dir/tree/tolerances/ball.tol"
expect tol-by-file-name 0 "^tolerances \\($dir/tree/cases/../tolerances/ball_mine.tol, found by the model file's name ball_mine.hdae\\): time_abs 0.001 \\(line 1\\)" -- "$mine" "$dir/shift_within.csv"
rm "$dir/tree/tolerances/ball_mine.tol"
expect tol-by-model-name 1 "^tolerances \\($dir/tree/cases/../tolerances/ball.tol, found by the model name ball\\): time_abs 1e-06 \\(line 1\\)" -- "$mine" "$dir/shift_within.csv"
rm "$dir/tree/tolerances/ball.tol"
expect tol-none-looked 0 "^hdo check: note: no tolerance file \\(looked for tolerances/ball_mine.tol, $dir/tree/cases/../tolerances/ball_mine.tol, tolerances/ball.tol, $dir/tree/cases/../tolerances/ball.tol\\)" -- "$mine" "$dir/exact.csv"
expect tol-given 0 "^tolerances \\($dir/tight.tol\\): " -- "$mine" "$dir/exact.csv" -t "$dir/tight.tol"
out=$("$HDO" check "$m" "$dir/exact.csv" --time-abs 1e-6 --value-abs 1e-8 --value-rel 1e-6 2>&1 >/dev/null)
if [[ -z $out ]]; then ok; else bad "tol-none-all-given: a note although every tolerance is given: $out"; fi

# JUnit: valid XML, one test case per variable and one for the events.
expect junit-fail 1 '^FAIL' -- "$m" "$dir/bump.csv" -t "$dir/tight.tol" --junit "$dir/j.xml"
if "$PY" - "$dir/j.xml" <<'P'
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
cases = d.getElementsByTagName("testcase")
names = [c.getAttribute("name") for c in cases]
fails = [c.getAttribute("name") for c in cases if c.getElementsByTagName("failure")]
assert names == ["h", "v", "events"], names
assert fails == ["h"], fails
suite = d.getElementsByTagName("testsuite")[0]
assert suite.getAttribute("tests") == "3" and suite.getAttribute("failures") == "1"
P
then ok; else bad "junit: not the expected XML"; fi

# Plots: one PNG per variable when there are several.
if command -v gnuplot >/dev/null; then
    expect plot 1 '^FAIL' -- "$m" "$dir/bump.csv" -t "$dir/tight.tol" --plot "$dir/p.png"
    for v in h v; do
        if [[ $(head -c 8 "$dir/p-$v.png" 2>/dev/null | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]]; then ok
        else bad "plot: $dir/p-$v.png is not a PNG"; fi
    done
fi
# Without gnuplot on PATH: a clear error before any work, and no file.
mkdir -p "$dir/empty-path"
hdo_abs=$(cd "$(dirname "$HDO")" && pwd)/$(basename "$HDO")
out=$(PATH="$dir/empty-path" "$hdo_abs" check "$m" "$dir/exact.csv" -t "$dir/tight.tol" --plot "$dir/q.png" 2>&1)
rc=$?
if [[ $rc -eq 2 && $out == *gnuplot* && ! -e $dir/q.png ]]; then ok
else bad "plot-without-gnuplot: exit $rc: $out"; fi
echo "check: $passed passed, $failed failed"
((failed == 0))
