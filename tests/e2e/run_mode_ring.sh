#!/usr/bin/env bash
# run_mode_ring.sh -- a ring of 20,000 modes (generated here, not stored)
# runs once around and into its first mode again (issue 16: the per-mode
# state is a table of the modes entered, not nmodes^2 slots, which made
# a ring of 3,000 modes take seconds to start and this one abort).
#
# Independent check (closed form): in every mode der(x) = 1, and
# `when x > 1` resets x to 0 and goes to the next mode, so from x(0) = 0
# the k-th event is at t = k exactly, from m((k-1) mod N) to m(k mod N),
# and at t = N + 1.5 the run is in m1 with x = 0.5.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

N=20000
fail() { echo "FAIL mode_ring: $*"; exit 1; }
"$PY" - "$N" >"$tmp/ring.hdae" <<'PY'
import sys
n = int(sys.argv[1])
print("model ring\nvar x = 0")
for i in range(n):
    print(f"mode m{i}\n  der(x) = 1\n  when x > 1 goto m{(i + 1) % n} with x = 0\nend")
print("start m0 at 0")
PY
until=$((N + 1)).5
"$HDO" run "$tmp/ring.hdae" -d 8 --every 1000 --until "$until" -o "$tmp/out" >"$tmp/log" 2>&1 ||
    fail "hdo run exit $?: $(head -n 1 "$tmp/log")"
"$PY" - "$N" "$tmp/out" <<'PY' || exit 1
import csv, sys
from fractions import Fraction
n, out = int(sys.argv[1]), sys.argv[2]
ev = list(csv.DictReader(open(out + "/events.csv")))
bad = []
if len(ev) != n + 1:
    bad.append(f"{len(ev)} events, expected {n + 1}")
for k, e in enumerate(ev, 1):
    want = (f"m{(k - 1) % n}", f"m{k % n}")
    if Fraction(e["time"]) != k or (e["from"], e["to"]) != want:
        bad.append(f"event {k}: t={e['time']} {e['from']}->{e['to']}, expected t={k} {want[0]}->{want[1]}")
        break
rows = list(csv.DictReader(open(out + "/trajectory.csv")))
last = rows[-1]
if Fraction(last["time"]) != Fraction(2 * n + 3, 2) or last["mode"] != "m1" \
        or Fraction(last["x"]) != Fraction(1, 2):
    bad.append(f"last row {last}, expected t={n + 1}.5 m1 x=0.5")
if bad:
    print("FAIL mode_ring: " + "; ".join(bad))
    sys.exit(1)
print(f"PASS mode_ring: {n} modes, {len(ev)} events at t = k exactly, back in m0 at t = {n}, last row x = 0.5 in m1")
PY
