#!/usr/bin/env bash
# ref_command.sh -- `hdo ref write` and `hdo ref compare` on a user's own
# model, outside the repository, as a user's CI runs them.
#
# A bouncing ball in a scratch folder gets a golden reference (hdo ref
# write, run from that folder with hdo's absolute path); then:
#   - unchanged, from the folder and from another one: exit 0, PASS at all
#     30 digits;
#   - a changed parameter, a changed event (guard), a changed end time and
#     a reference written with another --every (--with): exit 1, and the
#     first line names the difference (parameter e, the first event's
#     time, t_end, option --every);
#   - -p recorded in ref.json and rerun; --verify recorded and rerun;
#   - --junit: a failure per part that differs, an <error> on exit 2;
#   - -o keeps the fresh result (ref.json naming this hdo), which then
#     compares as equal; a reference of another hdo version is named so;
#   - bad input exits 2 and names file:line:col where there is one: a
#     malformed ref.json, a model error (x' for der(x)), a missing file, a
#     run option given to compare, no such subcommand.
# Prints "ref_command: N passed, N failed".
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
hdo=$(cd "$(dirname "$HDO")" && pwd)/$(basename "$HDO")
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL ref_command: $*"
}

# expect NAME RC PATTERN-OF-FIRST-LINE -- ARGS: runs hdo ARGS in $user
# (stdout and stderr), wants exit RC and the first line to match.
expect() {
    local name=$1 want=$2 pat=$3
    shift 4
    local out rc
    out=$(cd "$user" && "$hdo" "$@" 2>&1)
    rc=$?
    if [[ $rc != "$want" ]]; then
        bad "$name: exit $rc, want $want"
        printf '%s\n' "$out" | head -n 8 | sed 's/^/    /'
    elif ! head -n 1 <<<"$out" | grep -qE -- "$pat"; then
        bad "$name: first line does not match /$pat/"
        printf '%s\n' "$out" | head -n 8 | sed 's/^/    /'
    else
        ok
    fi
}

user=$tmp/project
mkdir -p "$user/elsewhere"
cat >"$user/ball.hdae" <<'M'
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
until 2
M
cp "$user/ball.hdae" "$user/ball.orig"

expect write 0 '^ball: [0-9]+ steps, 3 events, .* -> golden$' -- \
    ref write ball.hdae golden --every 0.1
for f in trajectory.csv events.csv summary.json ref.json; do
    [[ -f $user/golden/$f ]] && ok || bad "write: no golden/$f"
done
grep -q '"every": "0.1",' "$user/golden/ref.json" && ok || bad "write: ref.json lacks every"

expect unchanged 0 '^PASS ball: agree to 30 digits \(27 trajectory rows, 3 events, bit-identical\)' -- \
    ref compare ball.hdae golden
out=$(cd "$user/elsewhere" && "$hdo" ref compare ../ball.hdae ../golden 2>&1)
[[ $? == 0 && $out == "PASS ball: agree to 30 digits"* ]] && ok ||
    bad "from another folder: $out"

# a changed parameter: named first
sed 's/^param e = 0.8/param e = 0.75/' "$user/ball.orig" >"$user/ball.hdae"
expect changed-parameter 1 '^FAIL ball: summary.json: parameter e: stored 8\.0+e-01, fresh 7\.50+e-01: 1\.2 digits \(need 25\)$' -- \
    ref compare ball.hdae golden
# a changed event (the guard): the first event's time
sed 's/when h < 0 goto/when h < 0.01 goto/' "$user/ball.orig" >"$user/ball.hdae"
expect changed-event 1 '^FAIL ball: events.csv: line 2 column time: stored 4\.515236409857309[0-9]*e-01, fresh 4\.4' -- \
    ref compare ball.hdae golden
out=$(cd "$user" && "$hdo" ref compare ball.hdae golden 2>&1)
grep -q '^FAIL ball: events.csv: line 2 column guard: stored h < 0, fresh h < 0.01$' <<<"$out" && ok ||
    bad "changed-event: the guard is not named: $out"
tail -n 1 <<<"$out" | grep -qE '^FAIL ball: [0-9]+ difference\(s\) beyond 25 digits' && ok ||
    bad "changed-event: last line: $(tail -n 1 <<<"$out")"
# a changed option: the end time (the model's until), and --every
sed 's/^until 2/until 2.5/' "$user/ball.orig" >"$user/ball.hdae"
expect changed-until 1 '^FAIL ball: summary.json: key t_end: stored 2\.0+e\+00, fresh 2\.50+e\+00' -- \
    ref compare ball.hdae golden
cp "$user/ball.orig" "$user/ball.hdae"
expect write-other-every 0 ' -> other$' -- ref write ball.hdae other --every 0.05
expect changed-every 1 '^FAIL ball: ref.json: option --every: stored 0.1, fresh 0.05$' -- \
    ref compare ball.hdae golden --with other

# -p and --verify recorded, and rerun with them
expect write-p-verify 0 ' 2 events, .*, 30 verified digits -> pv$' -- \
    ref write ball.hdae pv -p e=7/10 --verify --until 1.5
expect compare-p-verify 0 '^PASS ball: agree to 30 digits' -- ref compare ball.hdae pv
grep -q '"params": {"e": "7/10"}' "$user/pv/ref.json" && ok || bad "pv: params not recorded"
grep -q '"verified_digits": 30' "$user/pv/summary.json" && ok || bad "pv: not verified"
sed -i 's|"e": "7/10"|"e": "3/4"|' "$user/pv/ref.json"
expect edited-param 1 '^FAIL ball: summary.json: parameter e: stored 7\.0+e-01, fresh 7\.50+e-01' -- \
    ref compare ball.hdae pv

# JUnit: the parts that differ fail; exit 2 is an <error>
sed 's/^param e = 0.8/param e = 0.75/' "$user/ball.orig" >"$user/ball.hdae"
expect junit-differ 1 '^FAIL' -- ref compare ball.hdae golden --junit "$user/j.xml"
if "$PY" - "$user/j.xml" <<'P'; then ok; else bad "junit-differ: not the expected XML"; fi
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
cases = d.getElementsByTagName("testcase")
names = [c.getAttribute("name") for c in cases]
fails = [c.getAttribute("name") for c in cases if c.getElementsByTagName("failure")]
assert names == ["options", "events", "trajectory", "summary"], names
assert fails == ["options", "events", "trajectory"], fails
m = cases[0].getElementsByTagName("failure")[0].getAttribute("message")
assert "the first: summary.json: parameter e" in m, m
assert d.getElementsByTagName("testsuite")[0].getAttribute("name") == "hdo ref compare ball"
P
cp "$user/ball.orig" "$user/ball.hdae"
expect junit-error 2 'nowhere/trajectory.csv: cannot open' -- ref compare ball.hdae nowhere --junit "$user/j.xml"
grep -q '<error message="hdo ref compare: error: nowhere/trajectory.csv: cannot open' "$user/j.xml" && ok ||
    bad "junit-error: no <error>: $(cat "$user/j.xml")"

# -o keeps the fresh result, a golden reference of its own
sed 's/^param e = 0.8/param e = 0.75/' "$user/ball.orig" >"$user/ball.hdae"
expect out-differs 1 '^FAIL' -- ref compare ball.hdae golden -o fresh
[[ -f $user/fresh/ref.json ]] && ok || bad "-o: no fresh/ref.json"
expect out-accepted 0 '^PASS ball' -- ref compare ball.hdae fresh
version=$("$hdo" --version | cut -d' ' -f2)
grep -qF "\"hdo_version\": \"$version\"," "$user/fresh/ref.json" && ok ||
    bad "-o: fresh/ref.json does not name hdo $version"
# a reference of another hdo: the verdict line says so
sed -i "s/\"hdo_version\": \"$version\"/\"hdo_version\": \"0.0.9\"/" "$user/fresh/ref.json"
expect other-version 0 "^PASS ball: agree to 30 digits .*; written by hdo 0\.0\.9, compared by hdo $version\$" -- \
    ref compare ball.hdae fresh
cp "$user/ball.orig" "$user/ball.hdae"

# bad input: exit 2, file:line:col where there is one
cp -r "$user/golden" "$user/broken"
sed -i 's/"digits": 30,/"digits": 30/' "$user/broken/ref.json"
expect bad-json 2 '^broken/ref.json:6:3: error: expected .,. or .\}., found .".$' -- \
    ref compare ball.hdae broken
cp "$user/golden/ref.json" "$user/broken/ref.json"
sed -i 's/"method": "auto"/"method": "fast"/' "$user/broken/ref.json"
expect bad-method 2 '^broken/ref.json:9:13: error: method: expected "auto", "taylor" or "implicit"$' -- \
    ref compare ball.hdae broken
sed "s/  der(h) = v/  h' = v/" "$user/ball.orig" >"$user/ball.hdae"
expect model-error 2 "^ball.hdae:7:4: error: unexpected character ''' after 'h': did you mean der\(h\)\?" -- \
    ref compare ball.hdae golden
expect model-error-write 2 "^ball.hdae:7:4: error: " -- ref write ball.hdae w2
[[ ! -e $user/w2/ref.json ]] && ok || bad "model-error-write: w2/ref.json written"
cp "$user/ball.orig" "$user/ball.hdae"
rm "$user/broken/trajectory.csv"
expect missing-file 2 '^hdo ref compare: error: broken/trajectory.csv: cannot open: No such file or directory$' -- \
    ref compare ball.hdae broken
expect run-option 2 '^hdo ref compare: --digits: the run options are those recorded in golden/ref.json' -- \
    ref compare ball.hdae golden -d 20
expect param-option 2 '^hdo ref compare: --param: the run options are those' -- \
    ref compare ball.hdae golden -p e=1
expect with-and-out 2 '^hdo ref compare: --with and --out exclude each other' -- \
    ref compare ball.hdae golden --with other -o x
expect too-many-digits 2 '^hdo ref compare: --digits-agree 31: golden holds 30 digits \(ref.json\), at most 30 can agree$' -- \
    ref compare ball.hdae golden --digits-agree 31
expect all-digits 0 '^PASS ball: agree to 30 digits' -- ref compare ball.hdae golden --digits-agree 30
expect no-dir 2 '^hdo ref compare: expected MODEL and DIR$' -- ref compare ball.hdae
expect no-subcommand 2 '^hdo ref: unknown command .bogus. \(write or compare\)$' -- ref bogus
expect bad-every 2 '^hdo ref write: error: --every: expected a positive decimal number' -- \
    ref write ball.hdae w3 --every -1
mkfifo "$user/fifo-dir-ref" 2>/dev/null && {
    mkdir -p "$user/w4" && mkfifo "$user/w4/ref.json"
    expect fifo 2 'w4/ref.json is a FIFO: hdo replaces only regular files' -- ref write ball.hdae w4
}
expect help 0 '^usage: hdo ref write MODEL DIR' -- ref write --help

echo "ref_command: $passed passed, $failed failed"
((failed == 0))
