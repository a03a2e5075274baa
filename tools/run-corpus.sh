#!/usr/bin/env bash
# run-corpus.sh -- the main job: computes every case of the corpus at 30 digits
# with --verify, in parallel, and prints one table (issue #6).
#
# usage: tools/run-corpus.sh HDO CASE.hdae ...
#
# Each case is one job (xargs -P JOBS, longest first by the stored reference's
# wall time): `HDO run CASE --digits 30 --verify -o out/<case>`, its messages
# in out/<case>.log; out/<case>/ is removed first, so a failed run never shows
# an earlier result.  The table has one row per case:
#
#   case      the model's file name
#   events    events.csv rows (summary.json "events")
#   sliding   sliding arcs: events of kind sliding-start
#   zeno      the time of the first `zeno` event, or '-'
#   steps     integration steps (summary.json)
#   method    which integration method ran, in order: `taylor`, or the
#             methods of summary.json's method_arcs joined by `>` (e.g.
#             `taylor>implicit` for an arc that --method auto switched)
#   verified  verified_digits (summary.json, --verify)
#   seconds   wall time of the job (both runs of --verify)
#   modes used  the modes of summary.json: the model's modes used, then
#             the sliding modes entered (`sliding(A,B)`)
#
# A case that fails or times out is a row marked FAILED (and "[pending]" when
# tests/corpus/pending.txt lists it), never hidden, followed by an indented
# line with hdo's error message.  While the cases run, a line per case
# says it is done ("[3/26] pendulum: 30 verified digits, 1.2 s").  The
# last lines give the counts and the total wall time, then hdo's result in
# one line: the cases computed and how many were verified to all 30
# digits.  Exit 0 (the table is the result; make run goes on to the
# cross-check, which judges the other solvers).
#
# environment: JOBS (default nproc), RUN_TIMEOUT seconds per case (default
# 300; 0 = none: bowed_string does not finish within 15 min yet), OUT (out)
set -u
hdo=$1
shift
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
OUT=${OUT:-out}
PY=/usr/bin/python3
mkdir -p "$OUT"

names=()
for model in "$@"; do names+=("$(basename "$model" .hdae)"); done
order=$(for model in "$@"; do
    name=$(basename "$model" .hdae)
    s=$(grep -oE '"seconds": *[0-9.eE+-]+' "cases/$name.ref/summary.json" 2>/dev/null |
        grep -oE '[0-9.eE+-]+$')
    echo "${s:-1000} $model"
done | sort -rg | cut -d' ' -f2)

run_case() {
    local model=$1 name start rc
    name=$(basename "$model" .hdae)
    rm -rf "${OUT:?}/$name"
    start=$(date +%s.%N)
    if [[ $RUN_TIMEOUT != 0 ]]; then
        timeout "$RUN_TIMEOUT" "$HDO_BIN" run "$model" --digits 30 --verify \
            -o "$OUT/$name" >"$OUT/$name.log" 2>&1
    else
        "$HDO_BIN" run "$model" --digits 30 --verify -o "$OUT/$name" \
            >"$OUT/$name.log" 2>&1
    fi
    rc=$?
    local secs verified="" n
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    # progress: this case is done, and the count of cases done so far
    # (under a lock: two jobs ending together count 1 and 2, not 2 and 2)
    n=$({
        flock 9
        echo "$rc $secs" >"$STATUS/$name"
        find "$STATUS" -type f ! -name .lock | wc -l
    } 9>"$STATUS/.lock")
    if [[ $rc == 0 ]]; then
        verified=$(grep -oE '"verified_digits": *[0-9]+' "$OUT/$name/summary.json" 2>/dev/null |
            grep -oE '[0-9]+$')
        printf '  [%d/%d] %s: %s verified digits, %.1f s\n' "$n" "$NCASES" "$name" \
            "${verified:-?}" "$secs"
    elif [[ $rc == 124 ]]; then
        printf '  [%d/%d] %s: no result within %s s\n' "$n" "$NCASES" "$name" "$RUN_TIMEOUT"
    else
        printf '  [%d/%d] %s: FAILED (exit %d), %.1f s\n' "$n" "$NCASES" "$name" "$rc" "$secs"
    fi
}
export -f run_case
STATUS=$(mktemp -d)
trap 'rm -rf "$STATUS"' EXIT
NCASES=${#names[@]}
export HDO_BIN=$hdo RUN_TIMEOUT OUT STATUS NCASES
echo "== hdo's own results: the corpus at 30 digits, each run verified by a second run at 40 digits (--verify)"
echo "corpus: ${#names[@]} cases at 30 digits with --verify, $JOBS jobs (logs in $OUT/<case>.log)"
t_start=$(date +%s.%N)
printf '%s\n' "$order" | xargs -r -P "$JOBS" -I{} bash -c 'run_case "$1"' _ {}
t_all=$(echo "$(date +%s.%N) - $t_start" | bc)

"$PY" - "$OUT" "$STATUS" "$RUN_TIMEOUT" "$t_all" "${names[@]}" <<'PYEOF'
import csv, json, os, re, sys
from decimal import Decimal
out, status, limit = sys.argv[1], sys.argv[2], sys.argv[3]
t_all, names = float(sys.argv[4]), sys.argv[5:]
pending = {}
try:
    for line in open("tests/corpus/pending.txt"):
        if ":" in line:
            k, v = line.split(":", 1)
            pending[k.strip()] = v.strip()
except OSError:
    pass
fmt = "%-24s %6s %7s %-17s %7s %-15s %8s %8s  %s"
print(fmt % ("case", "events", "sliding", "zeno", "steps", "method",
             "verified", "seconds", "modes used"))
ok = bad = 0
cpu = 0.0
verified_all, verified_fewer = 0, []
for name in names:
    try:
        rc, secs = open(os.path.join(status, name)).read().split()
        rc, secs = int(rc), float(secs)
    except (OSError, ValueError):
        rc, secs = -1, 0.0
    d = os.path.join(out, name)
    msg = ""
    note = " [pending]" if name in pending else ""
    row = None
    if rc == 0:
        try:
            s = json.load(open(os.path.join(d, "summary.json")))
            ev = list(csv.DictReader(open(os.path.join(d, "events.csv"),
                                          newline="")))
            zeno = [e["time"] for e in ev if e["kind"] == "zeno"]
            modes = [m["name"] for m in s.get("modes", [])]  # sliding ones too
            method = ">".join(a["method"] for a in s.get("method_arcs", [])) \
                or "taylor"
            vd = s.get("verified_digits")
            if vd is not None and vd >= s.get("digits", 30):
                verified_all += 1
            else:
                verified_fewer.append("%s: %s" % (name, vd if vd is not None else "-"))
            row = fmt % (name, s.get("events", "?"),
                         sum(e["kind"] == "sliding-start" for e in ev),
                         format(Decimal(zeno[0]).normalize() + 0, ".15g") if zeno else "-",
                         s.get("steps", "?"), method,
                         s.get("verified_digits", "-"),
                         "%.2f" % secs, " ".join(modes) + note)
        except (OSError, ValueError, KeyError) as e:
            rc, err = -2, "unreadable output"
            msg = str(e)
    if row is None:
        if rc == 124:
            err = "timeout"
            msg = "no result within %s s (RUN_TIMEOUT)" % limit
        elif rc != -2:
            try:
                lines = [l.strip() for l in open(os.path.join(out, name + ".log"))
                         if l.strip() and not l.startswith("==")]
                msg = lines[-1] if lines else "(no message)"
            except OSError:
                msg = "(no log)"
            err = "exit %d" % rc
        # The whole message on a line of its own, without the file name
        # that the row already gives.
        row = fmt % (name, "-", "-", "-", "-", "-", "-", "%.2f" % secs,
                     "FAILED (" + err + ")" + note)
        if msg:
            row += "\n    " + re.sub(r"^cases/[^:]*\.hdae:", "line ", msg)
        bad += 1
    else:
        ok += 1
    cpu += secs
    print(row)
print("corpus: %d cases computed, %d not computed; total wall time %.1f s "
      "(sum of the cases %.1f s)" % (ok, bad, t_all, cpu))
# hdo's result in one line, before the cross-check of the other solvers
line = "hdo: %d of %d cases computed at 30 digits, %d verified to all 30 digits" % (
    ok, len(names), verified_all)
if verified_fewer:
    line += "; fewer in %s" % ", ".join(verified_fewer)
if bad:
    line += "; not computed: %d (FAILED rows above)" % bad
print(line)
PYEOF
