#!/usr/bin/env bash
# crosscheck.sh -- runs real solvers (SUNDIALS IDA through tools/ida/hdo-ida,
# SciPy solve_ivp through tools/scipy/hdo_scipy.py) over the corpus at two
# tolerances, checks every result with `hdo check`, and prints one table
# row per (case, solver, tolerance).  The table is honest: a failure, a
# timeout, a solver error or a run stopped at the event cap stays what it is.
# Its verdicts are the other solvers' (hdo's reference is the judge, and
# hdo's own results are tools/run-corpus.sh's): the heading, the progress
# lines while the runs go ("[5/104] pendulum scipy 1e-10: PASS") and the
# last line ("crosscheck, the other solvers' verdicts: 25 FAIL, ...") say so.
#
# usage: tools/crosscheck.sh [CASE.hdae ...]      (default: cases/*.hdae)
# environment:
#   BUILD        build directory (default build): $BUILD/hdo, $BUILD/hdo-ida
#   TOLS         tolerances, rtol = atol (default "1e-6 1e-10")
#   SOLVERS      (default: "ida scipy", those available here: hdo-ida is
#                built with SUNDIALS, scipy needs python3-scipy)
#   TIMEOUT      seconds per solver run (default 60)
#   CHECK_TIMEOUT  seconds per hdo check (default 120)
#   JOBS         parallel runs (default 2)
#   OUT          where candidates and reports go (default out/crosscheck)
#   SCIPY_METHOD DOP853 (default) or Radau
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
TOLS=${TOLS:-"1e-6 1e-10"}
PY=/usr/bin/python3
if [[ -z ${SOLVERS:-} ]]; then
    SOLVERS=""
    [[ -x ${BUILD:-build}/hdo-ida ]] && SOLVERS="ida"
    "$PY" -c 'import scipy' 2>/dev/null && SOLVERS="$SOLVERS scipy"
    if [[ -z $SOLVERS ]]; then
        echo "crosscheck: no other solver here (hdo-ida needs libsundials-dev, SciPy python3-scipy): nothing to cross-check"
        exit 0
    fi
fi
TIMEOUT=${TIMEOUT:-60}
CHECK_TIMEOUT=${CHECK_TIMEOUT:-120}
JOBS=${JOBS:-2}
OUT=${OUT:-out/crosscheck}
SCIPY_METHOD=${SCIPY_METHOD:-DOP853}
export BUILD TIMEOUT CHECK_TIMEOUT OUT SCIPY_METHOD PY

if (($# > 0)); then cases=("$@"); else cases=(cases/*.hdae); fi
if [[ ! -e ${cases[0]} ]]; then
    echo "crosscheck: no cases (cases/*.hdae is empty)"
    exit 0
fi
if [[ " $SOLVERS " == *" ida "* && ! -x $BUILD/hdo-ida ]]; then
    echo "crosscheck: $BUILD/hdo-ida is missing: run 'make $BUILD/hdo-ida'" >&2
    exit 2
fi
mkdir -p "$OUT"

# One run: solver on case at tolerance, then hdo check; writes
# $dir/result (one tab-separated line) for the table.
run_one() {
    local model=$1 solver=$2 tol=$3
    local name dir cand ev rc crc
    name=$(basename "$model" .hdae)
    dir=$OUT/$name/$solver-$tol
    rm -rf "$dir"
    mkdir -p "$dir"
    cand=$dir/candidate.csv
    ev=$dir/events.csv
    local start end
    start=$(date +%s.%N)
    if [[ $solver == ida ]]; then
        timeout "$TIMEOUT" "$BUILD/hdo-ida" "$model" --rtol "$tol" --atol "$tol" \
            --out "$cand" --events "$ev" >"$dir/solver.out" 2>"$dir/solver.log"
    else
        timeout "$TIMEOUT" "$PY" tools/scipy/hdo_scipy.py "$model" \
            --method "$SCIPY_METHOD" --rtol "$tol" --atol "$tol" \
            --out "$cand" --events "$ev" >"$dir/solver.out" 2>"$dir/solver.log"
    fi
    rc=$?
    end=$(date +%s.%N)
    echo "$rc" >"$dir/solver.rc"
    echo "$start $end" | awk '{printf "%.1f\n", $2 - $1}' >"$dir/solver.seconds"
    crc=-
    if [[ ($rc == 0 || $rc == 3) && -f $cand ]]; then
        if [[ -x $BUILD/hdo ]]; then
            # A tolerance file beside the model (for cases outside the
            # corpus) wins; otherwise hdo check finds tolerances/<case>.tol.
            local tolopt=()
            [[ -f ${model%.hdae}.tol ]] && tolopt=(-t "${model%.hdae}.tol")
            timeout "$CHECK_TIMEOUT" "$BUILD/hdo" check "$model" "$cand" \
                --events "$ev" "${tolopt[@]}" >"$dir/check.txt" 2>"$dir/check.log"
            crc=$?
        else
            crc=none
        fi
    fi
    echo "$crc" >"$dir/check.rc"
    # progress: this run is done, and the count of runs done so far (under
    # a lock, so that two runs ending together count 1 and 2)
    local n verdict
    n=$({
        flock 9
        touch "$OUT/.done/$name-$solver-$tol"
        find "$OUT/.done" -type f ! -name .lock | wc -l
    } 9>"$OUT/.done/.lock")
    case $rc/$crc in
    124/*) verdict="TIMEOUT (the solver)" ;;
    [03]/0) verdict=PASS ;;
    [03]/1) verdict=FAIL ;;
    [03]/124) verdict="hdo check timed out" ;;
    [03]/*) verdict="hdo check exit $crc" ;;
    4/*) verdict="N/A (the solver does not take this model)" ;;
    *) verdict="solver error (exit $rc)" ;;
    esac
    printf '  [%d/%d] %s %s %s: %s\n' "$n" "$NRUNS" "$name" "$solver" "$tol" "$verdict"
}
export -f run_one

nsolvers=$(wc -w <<<"$SOLVERS")
ntols=$(wc -w <<<"$TOLS")
NRUNS=$((${#cases[@]} * nsolvers * ntols))
export NRUNS
rm -rf "$OUT/.done"
mkdir -p "$OUT/.done"
echo
echo "== the other solvers' results, judged by hdo check against hdo's reference (these verdicts are theirs; hdo's own are above)"
echo "crosscheck: ${#cases[@]} cases x $(tr -s ' ' <<<"$SOLVERS" | sed 's/^ //') x tolerances $TOLS: $NRUNS runs, $JOBS jobs (in $OUT)"
for model in "${cases[@]}"; do
    for solver in $SOLVERS; do
        for tol in $TOLS; do
            printf '%s\0%s\0%s\0' "$model" "$solver" "$tol"
        done
    done
done | xargs -0 -n 3 -P "$JOBS" bash -c 'run_one "$@"' _

# The table, from the files each run left behind.
"$PY" - "$OUT" "$TOLS" "$SOLVERS" "${cases[@]}" <<'PY'
import os, re, sys

out, tols, solvers, cases = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4:]

def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default

def summary(log):
    m = re.search(r"summary: (.*)", log)
    d = {}
    if m:
        for kv in re.finditer(r"(\w+)=('[^']*'|\"[^\"]*\"|\S+)", m.group(1)):
            d[kv.group(1)] = kv.group(2).strip("'\"")
    return d

def first_error(log):
    for line in log.splitlines():
        if "error" in line or "not applicable" in line or "stopped" in line:
            return line.strip()
    lines = [l for l in log.splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""

def parse_check(text):
    """Largest value error, largest event-time difference, missed and
    extra events, from the last line of hdo check's report
    (`summary: verdict=... value_err=...`, docs/decisions.md D-037).  The value
    error is the tube error: the distance of a candidate value from the
    range the reference takes over [t - time_abs, t + time_abs], the
    measure the verdict rests on (|candidate - reference(t)| would count
    the jump at every event)."""
    lines = [l for l in text.splitlines() if l.startswith("summary: ")]
    if not lines:
        return None, None, "?", "?"
    d = summary(lines[-1])
    num = lambda k: float(d[k]) if k in d and d[k] != "-" else None
    paired = d.get("events_ref", "0") != "0" and d.get("events_cand", "0") != "0"
    return (num("value_err"), num("event_time_err") if paired else None,
            d.get("events_missing", "?"), d.get("events_extra", "?"))

fmt = "{:<24} {:<6} {:<6} {:<9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6}  {}"
print(fmt.format("case", "solver", "tol", "verdict", "value_err", "event_err",
                 "miss/ext", "drift", "events", "secs", "note"))
counts = {}
for model in cases:
    name = os.path.basename(model)[:-5]
    for solver in solvers:
        for tol in tols:
            d = os.path.join(out, name, f"{solver}-{tol}")
            rc = read(os.path.join(d, "solver.rc"), "?").strip()
            crc = read(os.path.join(d, "check.rc"), "-").strip()
            log = read(os.path.join(d, "solver.log"))
            secs = read(os.path.join(d, "solver.seconds"), "-").strip()
            s = summary(log)
            verr = eerr = None
            miss = "-"
            note = ""
            if rc == "124":
                verdict, note = "TIMEOUT", f"no result within the time limit"
            elif rc == "4":
                verdict, note = "N/A", s.get("reason", first_error(log))
            elif rc not in ("0", "3"):
                verdict, note = "SOLVER-ERR", first_error(log)
            else:
                check = read(os.path.join(d, "check.txt"))
                if crc == "none":
                    verdict, note = "UNCHECKED", "build/hdo is missing"
                elif crc == "124":
                    verdict, note = "CHECK-TO", "hdo check timed out"
                elif crc == "2":
                    verdict = "CHECK-ERR"
                    note = first_error(read(os.path.join(d, "check.log")))
                elif crc in ("0", "1"):
                    verdict = "PASS" if crc == "0" else "FAIL"
                    verr, eerr, mi, ex = parse_check(check)
                    miss = f"{mi}/{ex}"
                    m = re.search(r"^first failure: (.*)$", check, re.M)
                    if m:
                        note = m.group(1)[:110]
                else:
                    verdict, note = "CHECK-ERR", f"hdo check exit {crc}"
                if rc == "3":
                    # A run stopped at the event cap did not reach the end:
                    # it stays a failure, whatever the check of its part.
                    note = (f"stopped at t = {s.get('t_reached', '?')} "
                            f"(check of that part: {verdict}); " + note)
                    verdict = "STOPPED"
            counts[verdict] = counts.get(verdict, 0) + 1
            f = lambda x: "-" if x is None else f"{x:.2e}"
            drift = s.get("drift", "-")
            print(fmt.format(name[:24], solver, tol, verdict, f(verr), f(eerr),
                             miss, drift, s.get("events", "-"), secs,
                             note).rstrip())
print("crosscheck, the other solvers' verdicts: "
      + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
PY
