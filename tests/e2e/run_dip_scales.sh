#!/usr/bin/env bash
# run_dip_scales.sh -- two crossings close to the start at every scale:
# y' = 1 from 0, mode p while S = a - y + k y^2 >= 0, mode n while it is
# negative, with a = 10^-e and k = 10^(e-2): S dips below zero between
# 1.0102 a and 98.99 a, 24 a deep, while over a step of 1 it is 10^(e-2)
# large.  At 16 digits the build before D-130/D-131 put the second
# crossing at the first (S'(0) = 0.98 taken for a zero against S's size
# over the step) and, from e = 60, missed the dip (the guard's floor drawn
# as a line over the step hid it).  Every crossing is a root of S (the
# quadratic formula in mpmath) to D - 1 digits, there is no other, and
# x(2) is the time spent in p; with Taylor and with --method implicit
# (Radau IIA refused the run at the first crossing, "not unique": the
# side decision took S'(0) for a zero as the step did, D-130), and with
# S read through an algebraic variable (Taylor).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
fails=0
passes=0
cat >"$tmp/dip.hdae" <<'EOF'
model dip
param k = 0
param a = 1e-30
var y = 0, x = 0
mode p
  der(y) = 1
  der(x) = 1
  when a - y + k*y^2 < 0 goto n
end
mode n
  der(y) = 1
  der(x) = 0
  when a - y + k*y^2 > 0 goto p
end
start p
until 2
EOF
# the same guard read through an algebraic variable z = S (D-130's slope
# through z's equation)
sed -e 's/^var y = 0, x = 0$/var y = 0, x = 0, z/' \
    -e 's/^  when a - y + k\*y^2 \([<>]\) 0/  z = a - y + k*y^2\n  when z \1 0/' \
    "$tmp/dip.hdae" >"$tmp/dipz.hdae"
if [ "$(grep -c '^  z = a - y' "$tmp/dipz.hdae")" != 2 ]; then
    echo "FAIL dip_scales: the model through z was not made"
    exit 1
fi
# check MODEL METHOD A K D [MAXSTEPS]: the run, both crossings and x(2)
check() {
        model=$1 method=$2 a=$3 k=$4 D=$5 maxsteps=${6:-50000}
        out="$tmp/d-$model-$method-$a-$k-$D"
        what="$model a = $a, k = $k, $D digits, $method"
        if ! "$HDO" run "$tmp/$model.hdae" -d "$D" -p a="$a" -p k="$k" \
            --method "$method" --max-steps "$maxsteps" -o "$out" >/dev/null \
            2>"$tmp/err"; then
            echo "FAIL dip_scales $what: $(head -n 1 "$tmp/err")"
            fails=$((fails + 1))
            return
        fi
        if msg=$("$PY" - "$out" "$a" "$k" "$D" 2>&1 <<'PY'
import csv, sys
from mpmath import mp, mpf, sqrt, fabs
mp.dps = 150
d, a, k, D = sys.argv[1], mpf(sys.argv[2]), mpf(sys.argv[3]), int(sys.argv[4])
tol = mpf(10) ** (1 - D)
disc = sqrt(1 - 4 * a * k)
# the smaller root without the cancellation of 1 - disc (k = 1, a = 1e-100)
roots = [2 * a / (1 + disc), (1 + disc) / (2 * k)]
ev = list(csv.DictReader(open(d + "/events.csv")))
assert len(ev) == 2, "%d events (%s), not 2" % (
    len(ev), ", ".join(e["time"] for e in ev))
for e, r in zip(ev, roots):
    assert fabs(mpf(e["time"]) - r) <= tol * r, "crossing at %s, not %s" % (
        e["time"], mp.nstr(r, 20))
x2 = roots[0] + 2 - roots[1]
last = list(csv.DictReader(open(d + "/trajectory.csv")))[-1]
assert fabs(mpf(last["x"]) - x2) <= tol * x2, "x(2) = %s, not %s" % (
    last["x"], mp.nstr(x2, D + 2))
PY
        ); then
            passes=$((passes + 1))
        else
            echo "FAIL dip_scales $what: $(echo "$msg" | tail -n 1)"
            fails=$((fails + 1))
        fi
}
for form in dip:taylor dip:implicit dipz:taylor; do
  for e in 30 40 60 100; do
    for D in 16 30 60; do
        check "${form%%:*}" "${form#*:}" "1e-$e" "1e$((e - 2))" "$D"
    done
  done
done
# k = 1: the second crossing near y = 1, where z = a - y + y^2 cancels (z
# of size a beside y = 1) and a - y rounds to -y at t = 1 below 10^-D.
# Radau IIA (--method implicit) through z stalled or was refused after the
# first crossing: its start value of z at the run's precision lost z's
# own digits, and a mode entered again at t = 1 kept its step proposal
# from t = a, below t's resolution (decisions.md D-135); the build before
# failed all six through z at 16 and 30 digits.  At 60 digits the guard
# through z at a = 1e-60 and 1e-100 is still refused (left, D-135); the
# guard written out runs at every D.  Through z at most 5,000 steps
# (300 to 2,000 taken): the guard z was held to its own size, below the
# noise Radau's Newton iteration leaves in z under its rounding floor,
# and a = 1e-60 at 30 digits crawled in steps of 1e-38 after t = 1
# (30,061 steps, 27,848 to 61,797 as the predictor's bits moved); the
# guards' floors now take the stepper's rounding floor (decisions.md
# D-139).
for e in 30 60 100; do
    for D in 16 30 60; do
        check dip implicit "1e-$e" 1 "$D"
    done
    for D in 16 30; do
        check dipz implicit "1e-$e" 1 "$D" 5000
    done
done
echo "dip_scales: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
