#!/usr/bin/env bash
# run_verify.sh -- hdo run --verify: a reference that cannot be confirmed to D digits is exit 1 naming the first place the runs disagree; a failed verification run says that it was the run at D + 10 digits.
#
# The Lorenz system (s = 10, r = 28, b = 8/3) is chaotic: its largest
# Lyapunov exponent is about 0.906, so a difference of 10^-35 (the
# tolerance at 30 digits) grows to about 10^(-35 + 0.906 t / ln 10) and
# the runs at 30 and 40 digits cannot agree to 30 digits at t = 60
# (fewer than 30 digits there: the estimate gives 11, hdo's local errors
# are well below its tolerance and it finds 18).  Over [0, 1] they agree
# to 30.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fails=()
fail() { fails+=("$1"); }

cat >"$tmp/lorenz.hdae" <<'MODEL'
model lorenz
param s = 10
param r = 28
param b = 8/3
var x = 1, y = 1, z = 1
mode a
  der(x) = s*(y - x)
  der(y) = x*(r - z) - y
  der(z) = x*y - b*z
end
start a
until 60
MODEL

# 1. short: confirmed to 30 digits, exit 0
"$HDO" run "$tmp/lorenz.hdae" --until 1 --verify -o "$tmp/short" >"$tmp/out" 2>"$tmp/err"
rc=$?
vd=$("$PY" -c "import json; print(json.load(open('$tmp/short/summary.json')).get('verified_digits'))" 2>/dev/null)
[[ $rc -eq 0 && $vd == 30 ]] || fail "until 1: exit $rc, verified_digits $vd: $(head -c 200 "$tmp/err")"

# 2. long: fewer digits confirmed than asked, exit 1, the message names
#    the place (the row where the runs agree to the fewest digits) and both values;
#    the files are written and say verified_digits honestly
"$HDO" run "$tmp/lorenz.hdae" --verify -o "$tmp/long" >"$tmp/out" 2>"$tmp/err"
rc=$?
vd=$("$PY" -c "import json; print(json.load(open('$tmp/long/summary.json')).get('verified_digits'))" 2>/dev/null)
want="^hdo run: --verify: the runs at 30 and 40 digits agree to only $vd digits; fewest digits: the row at t = [0-9.e+]+, [xyz]: [-0-9.e+]+ against [-0-9.e+]+ \\($vd digits\\)\$"
if [[ $rc -ne 1 ]] || ! grep -qE "$want" "$tmp/err"; then
    fail "until 60: exit $rc, verified_digits $vd, stderr: $(head -c 300 "$tmp/err")"
elif ((vd >= 30 || vd < 1)); then
    fail "until 60: verified_digits $vd, expected fewer than 30"
fi

# 3. the verification run fails where the first did not: with --max-steps
#    at the step count of the run at 30 digits, which the run at 40
#    digits needs more of; the message says it was the verification run
"$HDO" run "$tmp/lorenz.hdae" --until 5 -o "$tmp/s30" >/dev/null 2>&1
"$HDO" run "$tmp/lorenz.hdae" --until 5 -d 40 -o "$tmp/s40" >/dev/null 2>&1
steps() { "$PY" -c "import json; print(json.load(open('$1/summary.json'))['steps'])"; }
s30=$(steps "$tmp/s30")
s40=$(steps "$tmp/s40")
if ((s40 <= s30)); then
    fail "the run at 40 digits takes $s40 steps, not more than the $s30 at 30: no test of a failed verification run"
else
    "$HDO" run "$tmp/lorenz.hdae" --until 5 --verify --max-steps "$s30" -o "$tmp/vf" >/dev/null 2>"$tmp/err"
    rc=$?
    if [[ $rc -ne 2 ]] || ! grep -q "error: the verification run at 40 digits (--verify) failed: more than $s30 steps (--max-steps)" "$tmp/err"; then
        fail "failed verification run: exit $rc, $(head -c 300 "$tmp/err")"
    fi
    [[ -e $tmp/vf/trajectory.csv ]] && fail "failed verification run: trajectory.csv written"
fi

if ((${#fails[@]})); then
    printf 'FAIL run_verify: %s\n' "${fails[@]}"
    exit 1
fi
echo "PASS run_verify: Lorenz over [0, 1] verified to 30 digits (exit 0), over [0, 60] to $vd (exit 1, place named), a failed verification run at 40 digits named ($s30 vs $s40 steps)"
