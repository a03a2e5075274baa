#!/usr/bin/env bash
# run_perp_wall.sh -- the simplest first-order linear complementarity
# system, x' = -S + S lam, 0 <= lam perp x >= 0, x(0) = x0 (relative
# degree 1: D = 0, CB = S > 0, one forward solution; Camlibel, Heemels
# and Schumacher): x = x0 - S t until t* = x0 / S, then x = 0, lam = 1.
# At t* the active set [x = 0] moves x from its located value (x0 times
# the event's error) onto 0, within x's own error: a continuation, not a
# jump (decisions.md D-125).  Checked against that closed form at every
# scale of x and of time (x0 = 1e-30 from t = 0: x's 1e-30 is a value,
# not a zero), and with the multiplier in algebraic relations.  Real
# jumps must still be refused, exit 2: a wall the state has passed when
# the mode is entered, an initial value off the wall, and the same law
# at relative degree 2 (x1' = x2, x2' = -1 + lam, perp x1) without
# restitution, whose contact needs x2 to jump.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
fails=0
passes=0
pass() { passes=$((passes + 1)); }
fail() { echo "FAIL perp_wall $1"; fails=$((fails + 1)); }

cat >"$tmp/wall.hdae" <<'EOF'
model wall
param x0 = 1
param S = 1
var x = x0
var lam
mode m
  der(x) = -S + S*lam
  0 <= lam perp x >= 0
end
start m
until 2
EOF
cat >"$tmp/walg.hdae" <<'EOF'
model walg
param x0 = 1
var x = x0
var lam, mu, y
mode m
  der(x) = -1 + mu
  mu = 2*lam
  y = 3*x
  0 <= lam perp y >= 0
end
start m
until 2
EOF

# check DIR x0 S D TEND [algebraic]: one event at x0/S, the end at TEND,
# the closed form in every row (x relative to x0, lam and the others absolutely: they are
# of size 1), to D - 1 digits
check() {
    "$PY" - "$@" <<'PY'
import csv, sys
from mpmath import mp, mpf, fabs
mp.dps = 80
d, x0, S, D = sys.argv[1], mpf(sys.argv[2]), mpf(sys.argv[3]), int(sys.argv[4])
tend = mpf(sys.argv[5])
alg = len(sys.argv) > 6
ts = x0 / S
tol = mpf(10) ** (1 - D)
ev = list(csv.DictReader(open(d + "/events.csv")))
assert len(ev) == 1, "%d events, not 1" % len(ev)
assert ev[0]["kind"] == "switch", ev[0]["kind"]
assert fabs(mpf(ev[0]["time"]) - ts) <= tol * ts, "event at %s" % ev[0]["time"]
rows = list(csv.DictReader(open(d + "/trajectory.csv")))
assert fabs(mpf(rows[-1]["time"]) - tend) <= tol * tend, "end at %s" % rows[-1]["time"]
for r in rows:
    t = mpf(r["time"])
    if fabs(t - ts) <= tol * ts:
        continue
    after = t > ts
    x = 0 if after else x0 - S * t
    lam = (mpf(1) / 2 if alg else 1) if after else 0
    assert fabs(mpf(r["x"]) - x) <= tol * x0, "x(%s) = %s" % (r["time"], r["x"])
    assert fabs(mpf(r["lam"]) - lam) <= tol, "lam(%s) = %s" % (r["time"], r["lam"])
    if alg:
        assert fabs(mpf(r["mu"]) - 2 * lam) <= tol, "mu(%s)" % r["time"]
        assert fabs(mpf(r["y"]) - 3 * x) <= 3 * tol * x0, "y(%s)" % r["time"]
PY
}

# x0 S [TEND]: the end at 2 x0 / S unless given (x0 = 1e-30 over [0, 2]:
# the event at 1e-30, then x = 0 for the rest)
for sc in "1 1" "1e-30 1e-30" "1 1e20" "1e-30 1" "1e30 1e30" "1e-30 1 2"; do
    set -- $sc
    x0=$1 S=$2
    tend=${3:-$("$PY" -c "from mpmath import mp, mpf; mp.dps = 40; print(mp.nstr(2 * mpf('$x0') / mpf('$S'), 30))")}
    for D in 16 30 60; do
        out="$tmp/w-$x0-$S-$tend-$D"
        if ! "$HDO" run "$tmp/wall.hdae" -d "$D" -p x0="$x0" -p S="$S" --until "$tend" \
            -o "$out" >/dev/null 2>"$tmp/err"; then
            fail "x0 = $x0, S = $S, $D digits: $(head -n 1 "$tmp/err")"
        elif ! msg=$(check "$out" "$x0" "$S" "$D" "$tend" 2>&1); then
            fail "x0 = $x0, S = $S, $D digits: $(echo "$msg" | tail -n 1)"
        else
            pass
        fi
    done
done

for D in 16 30; do
    out="$tmp/walg-$D"
    if ! "$HDO" run "$tmp/walg.hdae" -d "$D" -o "$out" >/dev/null 2>"$tmp/err"; then
        fail "algebraic, $D digits: $(head -n 1 "$tmp/err")"
    elif ! msg=$(check "$out" 1 1 "$D" 2 alg 2>&1); then
        fail "algebraic, $D digits: $(echo "$msg" | tail -n 1)"
    else
        pass
    fi
done

# refused FILE D "PARAMS" PATTERN...: exit 2, each pattern in the message
refused() {
    local f=$1 D=$2 ps=$3 rc
    shift 3
    # shellcheck disable=SC2086
    "$HDO" run "$tmp/$f.hdae" -d "$D" $ps -o "$tmp/r" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 2 ]; then
        fail "$f $ps at $D digits: exit $rc, not 2"
        return
    fi
    for p in "$@"; do
        if ! grep -qF -- "$p" "$tmp/err"; then
            fail "$f $ps at $D digits: no '$p' in: $(head -n 1 "$tmp/err")"
            return
        fi
    done
    pass
}

# a wall at S/2 entered at t = 1 with x = S: x must jump by -S/2
cat >"$tmp/jump.hdae" <<'EOF'
model jump
param S = 1
var x = 0
var lam
mode a
  der(x) = S
  when t > 1 goto b
end
mode b
  der(x) = -S + S*lam
  0 <= lam perp S/2 - x >= 0
end
start a
until 2
EOF
# an initial value off the wall x >= 1
cat >"$tmp/off.hdae" <<'EOF'
model off
var x = 0
var lam
mode m
  der(x) = 1 + lam
  0 <= lam perp x - 1 >= 0
end
start m
until 2
EOF
# relative degree 2 without restitution: x2 = -sqrt(2) at the contact
cat >"$tmp/rd2.hdae" <<'EOF'
model rd2
var x1 = 1, x2 = 0
var lam
mode m
  der(x1) = x2
  der(x2) = -1 + lam
  0 <= lam perp x1 >= 0
end
start m
until 2
EOF
for D in 16 30; do
    for S in 1 1e-30; do
        refused jump "$D" "-p S=$S" \
            "error: no continuation without a jump of the state at t = 1.0" \
            "[S/2 - x = 0] needs a jump of the state"
    done
    refused off "$D" "" \
        "error: no continuation without a jump of the state at t = 0.0" \
        "[x - 1 = 0] needs a jump of the state"
    refused rd2 "$D" "" \
        "error: no continuation without a jump of the state at t = 1.41421356237309" \
        "[x1 = 0] needs a jump of the state"
done

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
