#!/usr/bin/env bash
# run_verify_boundary.sh -- hdo run --verify at the boundary of its exit code: a run confirmed to D - 1 digits is exit 1, to D digits exit 0, the digits predicted by exact arithmetic.
#
# A dial: der(y) = sqrt(x) - R with x = 2 constant and R a 41-bit dyadic
# just below sqrt(2).  Each run evaluates sqrt(2) rounded to its
# precision (133 bits at 30 digits, 167 at 40: the bit lengths of 10^40
# and 10^50) and subtracts R exactly, so y(1) = sqrt_p(2) - R up to a
# relative rounding of 2^-133, and the runs differ by
# Delta = |sqrt_133(2) - sqrt_167(2)| = 5.9e-41.  The scale of y is
# |y(1)| of the run at 40 digits, so the agreement is
# floor(-log10(Delta / |sqrt_167(2) - R|)): R is chosen (below, with
# integer arithmetic) to put it at 29.5, 30.5 and 28.5.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fails=()
fail() { fails+=("$1"); }

# R for each target, and the digits expected: "R digits" per line
"$PY" - >"$tmp/dials" <<'PY'
from fractions import Fraction as F
from math import isqrt, floor, log10

def sqrt2(p):  # sqrt(2) rounded to nearest at p bits (ulp 2^(1-p) in [1, 2))
    n = 2 * 4 ** (p - 1)
    m = isqrt(n)
    if (2 * m + 1) ** 2 < 4 * n:
        m += 1
    return F(m, 2 ** (p - 1))

pa, pb = (10**40).bit_length(), (10**50).bit_length()
a, b = sqrt2(pa), sqrt2(pb)
delta = abs(a - b)
for target in (29.5, 30.5, 28.5):
    c = float(delta) * 10**target
    R = F(floor((float(b) - c) * 2**40), 2**40)
    ratio = delta / (b - R)
    digits = floor(-log10(float(ratio)))
    # away from the boundary by far more than the roundings of the runs
    assert abs(-log10(float(ratio)) - digits - 0.5) < 0.2, target
    print(f"{R.numerator}/2^{R.denominator.bit_length() - 1}", min(digits, 30))
PY
[[ $(wc -l <"$tmp/dials") -eq 3 ]] || fail "the dials were not computed"

results=()
while read -r R want; do
    printf 'model dial\nvar x = 2, y = 0\nmode m\n  der(x) = 0\n  der(y) = sqrt(x) - %s\nend\nstart m\nuntil 1\n' "$R" >"$tmp/dial.hdae"
    rm -rf "$tmp/out"
    "$HDO" run "$tmp/dial.hdae" --verify -o "$tmp/out" >"$tmp/o" 2>"$tmp/err"
    rc=$?
    vd=$("$PY" -c "import json; print(json.load(open('$tmp/out/summary.json')).get('verified_digits'))" 2>/dev/null)
    wrc=$((want < 30 ? 1 : 0))
    if [[ $vd != "$want" || $rc -ne $wrc ]]; then
        fail "R = $R: verified_digits $vd (expected $want), exit $rc (expected $wrc): $(head -c 300 "$tmp/err")"
    elif ((want < 30)) && ! grep -q "agree to only $want digits; fewest digits: the row at t = [0-9.e+-]*, y: " "$tmp/err"; then
        fail "R = $R: stderr $(head -c 300 "$tmp/err")"
    fi
    results+=("$want digits exit $rc")
done <"$tmp/dials"

if ((${#fails[@]})); then
    printf 'FAIL run_verify_boundary: %s\n' "${fails[@]}"
    exit 1
fi
echo "PASS run_verify_boundary: sqrt(2) dial at 30 digits: ${results[*]} (exact arithmetic: 29.5, 30.5, 28.5 digits)"
