#!/usr/bin/env bash
# check_real_files.sh -- hdo check on the shapes of real tools' files that
# tools/outside_real.py found (issue 26): OMSimulator's files, every row
# written twice and one event at the stop time only, are judged on their
# values (the events are not "given"), while a file with an interior event
# still has to give them all; Dymola's co-simulation double rows with
# single-precision times; and, with several candidates, the "no tolerance
# file" note once.  Candidates come from closed forms: the Test FMU
# Stair's counter 1 + floor(t), x = e^-t (never from hdo).
set -u
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/check_common.bash"
S=tests/outside/models/Stair.hdae
write_xy_model "$tmp/xy.hdae"
"$PY" - "$tmp" <<'P'
import math, struct, sys
d = sys.argv[1]
def c(t):
    return 1 + math.floor(t)
with open(f"{d}/oms.csv", "w") as f:     # every row twice, the stop-time event
    f.write("time,counter\n0.0,1\n")
    for k in range(1, 21):
        t = k / 2
        v = c(t) if t < 10 else 10
        f.write(f"{t!r},{v}\n{t!r},{v}\n")
    f.write("10.0,11\n")
with open(f"{d}/inner.csv", "w") as f:   # the event at 3 given, the others not
    f.write("time,counter\n0.0,1\n")
    for k in range(1, 21):
        t = k / 2
        if t == 3:
            f.write("3.0,3\n3.0,4\n")
        else:
            f.write(f"{t!r},{c(t) if t < 10 else 10}\n")
def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]
with open(f"{d}/dymola.csv", "w") as f:  # two rows per output time, float times
    f.write('"time","x","y"\n0,1,0\n')
    prev = (1.0, 0.0)
    for k in range(1, 11):
        t = f32(k / 10)
        new = (math.exp(-t), 1 - math.exp(-t))
        f.write(f"{t!r},{prev[0]!r},{prev[1]!r}\n{t!r},{new[0]!r},{new[1]!r}\n")
        prev = new
P
tol=(--time-abs 1e-6 --value-abs 1e-6 --value-rel 1e-6)
expect oms-end-event 0 'verdict=PASS .*events_given=no' -- "$S" "$tmp/oms.csv" "${tol[@]}"
expect inner-event 1 'verdict=FAIL .*events_missing=8 .*events_given=yes' -- "$S" "$tmp/inner.csv" "${tol[@]}"
expect dymola-float 0 '^rows: read as co-simulation output \(two rows at each of the 10 output times' -- "$tmp/xy.hdae" "$tmp/dymola.csv" --value-abs 1e-12 --value-rel 1e-12
# several candidates: the note once, and none when the options give every tolerance
cp "$tmp/dymola.csv" "$tmp/dymola2.csv"
H=$HDO
[[ $H == /* ]] || H=$PWD/$H
n=$(cd "$tmp" && "$H" check xy.hdae dymola.csv dymola2.csv 2>&1 >/dev/null | grep -c "note: no tolerance file")
((n == 1)) && ok || bad "many: $n notes"
n=$(cd "$tmp" && "$H" check xy.hdae dymola.csv dymola2.csv --time-abs 1e-6 --value-abs 1e-9 --value-rel 1e-9 2>&1 >/dev/null | grep -c "note: no tolerance file")
((n == 0)) && ok || bad "many with options: $n notes"
echo "check_real_files: $passed passed, $failed failed"
((failed == 0))
