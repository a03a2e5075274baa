#!/usr/bin/env bash
# run_zero_scale.sh -- the zero rule at an arc's start (decisions.md D-112,
# D-124) for a guard that reads an algebraic unknown: a value of 1e-30
# has D significant digits as a value of 1 does, at 16, 30 and 60 digits.
#
# Part 1: x' = 1 from 0 with the algebraic z = S - x + k x^2 and the guard
#   z < 0: the root (1 - sqrt(1 - 4 S k)) / (2 k) from mpmath, for S =
#   1e-30 (k = 0, 1e20, -1e25, 1e28) and S = 1 (k times 1e-30: the same
#   guard in units of 1e-30), until 2, to D - 1 digits of itself; the
#   implicit method at 16 and 30 digits for k = 1e28.  Before D-124 z's
#   value 1e-30 at t = 0 was a zero by D-016's rule (below tol times z's
#   size over the step) and the event at t = 0 at 16 digits for every k
#   and at 30 for k != 0.
# Part 2: a pendulum on a rope (index 3, L = 1, g = 9.8) at the
#   horizontal (1, 0) moving up at v0: the rod force lambda = v^2 - g y
#   starts at v0^2 and the rope goes slack (lambda < 0) at sin(theta) =
#   v0^2 / (3 g), at the time int_0^theta du / sqrt(v0^2 - 2 g sin u)
#   (mpmath's quad), to D - 1 digits of itself, for v0 = 1, 1e-20,
#   1e-60.  Before D-124: at t = 0 (v0 = 1e-20 at 16 and 30 digits,
#   1e-60 at 60), or no event at all (v0 = 1e-60 at 16 and 30).
# Part 3 (what D-016's rule already did right, kept): a zero variant
#   (sign(y) with y = 0 until T) scaled in time, T = 1 and 1e-20, x at 2 T
#   = 3 T to D - 1 digits; three_balls scaled in time by 1e-30 (its Zeno
#   cascade at t = 0, hdo_zeno_guard_leaves): 10 impacts and the Zeno
#   event at 0, each ball at 1/3 to D - 1 digits.
set -u
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/event_time.bash"

fails=0
passes=0
report() { # status name message
    if [[ $1 -eq 0 ]]; then
        passes=$((passes + 1))
        echo "PASS $2: $3"
    else
        fails=$((fails + 1))
        echo "FAIL $2: $3 ($(tail -n 1 "$tmp/log" | head -c 300))"
    fi
}

# Part 1
for S in 1e-30 1; do
    for k in 0 1e20 -1e25 1e28; do
        ks=$("$PY" -c "from fractions import Fraction as F; print(float(F('$k') * F('1e-30') / F('$S')))")
        printf 'model tinyz\nvar x = 0, z\nmode a\n  der(x) = 1\n  z = %s - x + (%s)*x^2\n  when z < 0 goto b\nend\nmode b\n  der(x) = 1\n  z = %s - x + (%s)*x^2\nend\nstart a at 0\nuntil 2\n' \
            "$S" "$ks" "$S" "$ks" >"$tmp/tz.hdae"
        ref="(mpf('$S') if mpf('$ks') == 0 else (1 - sqrt(1 - 4 * mpf('$ks') * mpf('$S'))) / (2 * mpf('$ks')))"
        methods=taylor
        [[ $k == 1e28 ]] && methods="taylor implicit"
        for method in $methods; do
            for D in 16 30 60; do
                [[ $method == implicit && $D == 60 ]] && continue
                out="$tmp/tz_${S}_${k}_${method}_$D"
                "$HDO" run "$tmp/tz.hdae" -d "$D" --method "$method" -o "$out" >"$tmp/log" 2>&1
                res=$(one_event_time "$out" "$D" $? "$ref")
                report $? "algebraic_guard_S${S}_k${k}_${method}_d$D" "$res"
            done
        done
    done
done

# Part 2
for v0 in 1 1e-20 1e-60; do
    cat >"$tmp/rope.hdae" <<EOF
model rope
param g = 9.8
var x = 1, y = 0, vx = 0, vy = $v0
var lambda
mode taut
  der(x) = vx
  der(y) = vy
  der(vx) = -x*lambda
  der(vy) = -y*lambda - g
  x^2 + y^2 = 1
  when lambda < 0 goto slack
end
mode slack
  der(x) = vx
  der(y) = vy
  der(vx) = 0
  der(vy) = -g
end
start taut at 0
until 1
EOF
    ref="quad(lambda u: 1 / sqrt(mpf('$v0')**2 - 2 * mpf('9.8') * sin(u)), [0, asin(mpf('$v0')**2 / (3 * mpf('9.8')))])"
    for D in 16 30 60; do
        out="$tmp/rope_${v0}_$D"
        "$HDO" run "$tmp/rope.hdae" -d "$D" -o "$out" >"$tmp/log" 2>&1
        res=$(one_event_time "$out" "$D" $? "$ref")
        report $? "rope_force_v0${v0}_d$D" "$res"
    done
done

# Part 3: a zero variant scaled in time
for T in 1 1e-20; do
    printf 'model zv\nparam T = %s\nvar y = 0, x = 0\nmode a\n  der(y) = if t < T then 0 else 1e-30*T\n  der(x) = sign(y) + 1\nend\nstart a at 0\nuntil 2*T\n' \
        "$T" >"$tmp/zv.hdae"
    for D in 16 30 60; do
        out="$tmp/zv_${T}_$D"
        "$HDO" run "$tmp/zv.hdae" -d "$D" --every "$T" -o "$out" >"$tmp/log" 2>&1
        res=$("$PY" - "$out" "$D" $? "$T" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, fabs, log10
out, D, rc, T = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
mp.dps = 2 * D + 40
try:
    rows = list(csv.DictReader(open(out + "/trajectory.csv")))
except OSError as e:
    print("no result (exit %d): %s" % (rc, e)); sys.exit(1)
x = mpf(rows[-1]["x"])
d = fabs(x - 3 * mpf(T))
dig = 3 * D if d == 0 else float(-log10(d / (3 * mpf(T))))
print("x(2T) = %s, %.1f digits (need %d)" % (rows[-1]["x"][:16], dig, D - 1))
sys.exit(0 if rc == 0 and dig >= D - 1 else 1)
PYEOF
)
        report $? "zero_variant_T${T}_d$D" "$res"
    done
done

# Part 3: three_balls' Zeno cascade at t = 0, in time units of 1e-30
sed 's/^until 1$/until 1e-30/' cases/three_balls.hdae >"$tmp/tb.hdae"
for D in 16 30 60; do
    out="$tmp/tb_$D"
    "$HDO" run "$tmp/tb.hdae" -d "$D" -o "$out" >"$tmp/log" 2>&1
    res=$("$PY" - "$out" "$D" $? <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, fabs, log10
out, D, rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mp.dps = 2 * D + 40
try:
    ev = list(csv.DictReader(open(out + "/events.csv")))
    rows = list(csv.DictReader(open(out + "/trajectory.csv")))
except OSError as e:
    print("no result (exit %d): %s" % (rc, e)); sys.exit(1)
kinds = [e["kind"] for e in ev]
if rc != 0 or kinds != ["switch"] * 10 + ["zeno"] or any(mpf(e["time"]) != 0 for e in ev):
    print("exit %d, events %s" % (rc, kinds)); sys.exit(1)
third = mpf(1) / 3
dig = min(3 * D if mpf(rows[-1][v]) == third
          else float(-log10(fabs(mpf(rows[-1][v]) - third) / third))
          for v in ("v1", "v2", "v3"))
print("10 impacts and zeno at t = 0, v = 1/3 to %.1f digits (need %d)" % (dig, D - 1))
sys.exit(0 if dig >= D - 1 else 1)
PYEOF
)
    report $? "three_balls_time_1e-30_d$D" "$res"
done

echo "zero_scale: $passes passed, $fails failed"
exit $((fails > 0))
