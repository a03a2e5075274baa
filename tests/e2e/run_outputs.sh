#!/usr/bin/env bash
# run_outputs.sh -- hdo run's output folder (cli.md, "Output files and safety"): non-regular files never replaced, concurrent runs leave one consistent set, interrupted and failed runs alike, -o "" and -o FILE, standard output to a full or closed stream.
#
# Each check provokes the situation on purpose and looks at the folder
# afterwards; the consistency of concurrent results is judged from the
# files themselves (the summary's model, digits and event count against
# the trajectory's header and cell width and the rows of events.csv).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fails=()
fail() { fails+=("$1"); }

# the sawtooth: x' = 1, reset at x = 1/4, events at t = k/4 (closed form)
saw() { # NAME UNTIL
    cat >"$tmp/$1.hdae" <<MODEL
model $1
var x = 0
mode m
  der(x) = 1
  when x > 1/4 goto m with x = 0
end
start m
until $2
MODEL
}
saw saw 0.9
cat >"$tmp/decay.hdae" <<'MODEL'
model decay
var u = 1, w = 2
mode a
  der(u) = -u
  der(w) = -2*w
end
start a
until 1
MODEL
# a run that computes for a long time (about 10 s at 2000 digits)
cat >"$tmp/slow.hdae" <<'MODEL'
model slow
var x = 1
mode a
  der(x) = -x
end
start a
until 1
MODEL

# 1. a FIFO, a symlink and a folder in place of an output are refused
#    before computing (exit 2) and left as they are
d="$tmp/nonreg"
mkdir -p "$d"
mkfifo "$d/trajectory.csv"
"$HDO" run "$tmp/saw.hdae" -o "$d" >/dev/null 2>"$tmp/err"
rc=$?
if [[ $rc -ne 2 || ! -p $d/trajectory.csv ]] || ! grep -q "is a FIFO" "$tmp/err"; then
    fail "FIFO: exit $rc, $(head -c 200 "$tmp/err")"
fi
rm -f "$d/trajectory.csv"
echo "target" >"$tmp/target"
ln -s "$tmp/target" "$d/events.csv"
"$HDO" run "$tmp/saw.hdae" -o "$d" >/dev/null 2>"$tmp/err"
rc=$?
if [[ $rc -ne 2 || ! -L $d/events.csv || $(cat "$tmp/target") != target ]] ||
    ! grep -q "is a symbolic link" "$tmp/err"; then
    fail "symlink: exit $rc, $(head -c 200 "$tmp/err")"
fi
rm -f "$d/events.csv"
ln -s /dev/null "$d/summary.json"
"$HDO" run "$tmp/saw.hdae" -o "$d" >/dev/null 2>"$tmp/err"
rc=$?
if [[ $rc -ne 2 || ! -L $d/summary.json || ! -c /dev/null ]]; then
    fail "symlink to /dev/null: exit $rc"
fi
rm -f "$d/summary.json"
if [[ $(id -u) == 0 ]]; then # a real device node, where mknod is allowed
    if mknod "$d/trajectory.csv" c 1 3 2>/dev/null; then
        "$HDO" run "$tmp/saw.hdae" -o "$d" >/dev/null 2>"$tmp/err"
        rc=$?
        if [[ $rc -ne 2 || ! -c $d/trajectory.csv ]] ||
            ! grep -q "is a character device" "$tmp/err"; then
            fail "device node: exit $rc, $(head -c 200 "$tmp/err")"
        fi
        rm -f "$d/trajectory.csv"
    fi
fi
if compgen -G "$d/.tmp-*" >/dev/null || [[ -e $d/trajectory.csv ]]; then
    fail "non-regular: files left in $d: $(ls -A "$d")"
fi

# 2. -o "" is refused (it read past the end of the string), -o FILE where
#    FILE is a regular file is refused before computing (the slow model
#    would take seconds)
"$HDO" run "$tmp/saw.hdae" -o "" >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "empty" "$tmp/err" || fail "-o '': exit $rc, $(head -c 200 "$tmp/err")"
echo "keep" >"$tmp/afile"
start=$(date +%s.%N)
"$HDO" run "$tmp/slow.hdae" -d 2000 -o "$tmp/afile" >/dev/null 2>"$tmp/err"
rc=$?
secs=$("$PY" -c "import time; print(f'{time.time() - $start:.2f}')")
quick=$("$PY" -c "print(1 if $secs < 2 else 0)")
if [[ $rc -ne 2 || $(cat "$tmp/afile") != keep || $quick != 1 ]] ||
    ! grep -q "not a folder" "$tmp/err"; then
    fail "-o FILE: exit $rc after $secs s, $(head -c 200 "$tmp/err")"
fi

# 3. concurrent runs into one folder: 8 runs of 2 models at 30-33 digits
#    (similar durations, so that they finish together), all at once, in 6
#    rounds; the folder must hold the three files of one of them, and no
#    temporary.  Without the lock, about one round in three left a mix
#    (the old binary failed this check in 2 of 3 tries).
check_set() {
    "$PY" - "$1" <<'EOF'
import csv, json, sys
d = sys.argv[1]
s = json.load(open(f"{d}/summary.json"))
rows = list(csv.reader(open(f"{d}/trajectory.csv")))
evs = list(csv.reader(open(f"{d}/events.csv")))
want = {"saw": ["time", "mode", "x"], "decay": ["time", "mode", "u", "w"]}[s["model"]]
assert rows[0] == want, f"summary says {s['model']}, trajectory header {rows[0]}"
D = s["digits"]
for r in rows[1:]:
    for c in [r[0]] + r[2:]:
        m = c.lstrip("-").split("e")[0]
        assert len(m.replace(".", "")) == D, f"{c} has not {D} digits (summary: {D})"
assert len(evs) - 1 == s["events"], f"{len(evs) - 1} events in events.csv, summary {s['events']}"
assert abs(float(rows[-1][0]) - float(s["t_end"])) < 1e-12, "t_end differs"
print(f"{s['model']} at {D} digits")
EOF
}
for round in 1 2 3 4 5 6; do
    d="$tmp/shared$round"
    pids=()
    i=0
    for spec in "saw 30" "decay 30" "saw 31" "decay 31" "saw 32" "decay 32" "saw 33" "decay 33"; do
        set -- $spec
        "$HDO" run "$tmp/$1.hdae" -d "$2" -o "$d" >"$tmp/c$i.out" 2>&1 &
        pids+=($!)
        i=$((i + 1))
    done
    crc=0
    for p in "${pids[@]}"; do wait "$p" || crc=1; done
    ((crc == 0)) || fail "concurrent: a run failed: $(cat "$tmp"/c*.out | grep -v ' -> ' | head -c 300)"
    if ! msg=$(check_set "$d" 2>&1); then
        fail "concurrent round $round: inconsistent set: $(tail -n 1 <<<"$msg")"
    fi
    if compgen -G "$d/.tmp-*" >/dev/null; then fail "concurrent: temporaries left: $(ls -A "$d")"; fi
done

# 4. an interrupted run and a failed run treat an earlier complete result
#    alike: it is removed when the run starts computing; temporaries are
#    removed on SIGINT/SIGTERM, also while the files are being written
d="$tmp/intr"
"$HDO" run "$tmp/saw.hdae" -o "$d" >/dev/null 2>&1 || fail "interrupt: first run failed"
# (a background job of a script starts with SIGINT ignored, which hdo
# respects like any program: the wrapper restores the default first)
dfl() { exec "$PY" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"; }
for sig in INT TERM; do
    dfl "$HDO" run "$tmp/slow.hdae" -d 2000 -o "$d" >/dev/null 2>&1 &
    p=$!
    sleep 1
    kill -s "$sig" "$p"
    wait "$p"
    rc=$?
    left=$(ls -A "$d")
    if [[ -n $left ]]; then fail "SIG$sig during computing: left $left"; fi
    [[ $rc -ne 0 ]] || fail "SIG$sig during computing: exit 0"
done
# while writing: a million rows take seconds to write; the signal is sent
# as soon as the temporary trajectory appears
"$HDO" run "$tmp/slow.hdae" -d 30 --every 0.000001 -o "$d" >/dev/null 2>&1 &
p=$!
seen=0
for _ in $(seq 1 600); do
    if compgen -G "$d/.tmp-*-trajectory.csv" >/dev/null; then seen=1; break; fi
    sleep 0.05
done
kill -s TERM "$p" 2>/dev/null
wait "$p"
rc=$?
if ((seen == 0)); then
    fail "SIGTERM while writing: no temporary trajectory seen (exit $rc)"
elif [[ -n $(ls -A "$d") || $rc -eq 0 ]]; then
    fail "SIGTERM while writing: exit $rc, left $(ls -A "$d")"
fi
# a failed run (too many events) after a complete one: nothing is left
"$HDO" run "$tmp/saw.hdae" -o "$d" >/dev/null 2>&1 || fail "failed run: first run failed"
"$HDO" run "$tmp/saw.hdae" -o "$d" --max-events 2 >/dev/null 2>&1
rc=$?
[[ $rc -eq 2 && -z $(ls -A "$d") ]] || fail "failed run: exit $rc, left $(ls -A "$d")"

# 5. the standard output to a full or a closed stream is exit 2, never 0
"$HDO" run "$tmp/saw.hdae" -o "$tmp/full" >/dev/full 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "standard output" "$tmp/err" || fail "run >/dev/full: exit $rc"
"$HDO" run "$tmp/saw.hdae" -o "$tmp/closed" >&- 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "standard output" "$tmp/err" || fail "run >&-: exit $rc"
# the closed stdout must not have been reused for an output file
head -n 1 "$tmp/closed/trajectory.csv" | grep -q '^time,mode,x$' || fail "run >&-: trajectory.csv damaged"
"$HDO" analyze --json "$tmp/decay.hdae" >/dev/full 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] || fail "analyze --json >/dev/full: exit $rc"
"$HDO" analyze "$tmp/decay.hdae" >&- 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] || fail "analyze >&-: exit $rc"

if ((${#fails[@]})); then
    printf 'FAIL run_outputs: %s\n' "${fails[@]}"
    exit 1
fi
echo "PASS run_outputs: FIFO/symlink/device refused, -o '' and -o FILE refused, 6 rounds of 8 concurrent runs each left one set (last: $msg), SIGINT/SIGTERM leave nothing, >/dev/full and >&- exit 2"
