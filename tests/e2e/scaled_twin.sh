#!/usr/bin/env bash
# scaled_twin.sh -- D significant digits at every scale, as a property of
# the whole corpus (issue 23, in the manner of FLINT's generic tests).
#
# Each case's scaled twin (every variable multiplied by S = 10^-40 and by
# 10^40 through a substitution, tools/scaled_twin.py; time and parameters
# unchanged) must give the same events (modes, kinds) at the same times to
# D - 2 digits, and every value S times the original's to D - 2
# significant digits, relative to the value's size over its neighbouring
# rows of the same arc (a value passing through zero is compared against
# its arc); a value within 10^-(D+3) of the largest magnitude of any
# variable in both is zero to both runs (the test's own rule: noise that
# small has no digits to compare) and not compared.  Run at 20, 30 and 60
# digits under --method taylor, and at 20 and 30 under --method implicit
# on the cases the implicit method integrates with switching functions
# (those of corpus_implicit.sh) and the stiff ones.  Cases slower than a
# few seconds at 30 digits (bowed_string, car_axis, transistor_amplifier)
# run at 20 digits only, robertson and vanderpol (stiff) under the
# implicit method only; under the sanitizers
# (HDO_E2E_QUICK=1, set by make check SAN=1) only the 20-digit Taylor pass
# runs.  Cases listed in tests/corpus/pending.txt are skipped (said so).
# Prints one line per case and method, then the counts.
set -u
. "$(dirname "$0")/common.bash"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

slow="bowed_string car_axis transistor_amplifier"
implicit="bouncing_ball filippov_spiral water_tanks km_chattering
    boost_converter_ccm evaporator stick_slip stick_slip_belt_static
    stick_slip_hysteresis stick_slip_stick vanderpol robertson"

# Complementarity cases whose conditions' left sides take part in the
# algebraic system are not twinned: the twin divides every variable by S
# in every equation, but a condition's own equation A = 0 (an active set's)
# cannot be divided (A must stay a variable), so the twin's rows differ in
# scale by 1/S = 10^40, beyond the relative pivot test of the consistent
# initialisation.  The models themselves run at every scale:
# tests/e2e/run_perp_scale.sh scales their sources instead.
twinless="rectifier_diode diode_bridge boost_converter_ideal"
# water_tube (18 laminar/turbulent relations, index 2): its twin at 1e40
# ran over 165 s CPU at 20 digits against 7 s for the case itself and was
# stopped, all of it (perf) in the Kunkel-Mehrmann report of the start
# mode (hdo_km_analyze -> hdo_svd_sweeps: the one-sided Jacobi SVD of the
# derivative array at that scale); not twinned until that is fixed
# (issue #28, open).
twinless="$twinless water_tube"

jobs=()
for f in ${TWIN_CASES:-cases/*.hdae}; do
    c=$(basename "$f" .hdae)
    [[ " $twinless " == *" $c "* ]] && continue
    # a heavy case of tests/corpus/pending.txt (the Test Set's large stiff
    # problems, minutes a run) is left to make run, and said so
    if [[ -z ${TWIN_CASES:-} ]] && grep -qE "^$c:" tests/corpus/pending.txt; then
        echo "SKIP twin_$c: pending (tests/corpus/pending.txt)"
        continue
    fi
    digits="20 30 60"
    [[ " $slow " == *" $c "* ]] && digits="20"
    [[ ${HDO_E2E_QUICK:-0} == 1 ]] && digits="20"
    # the stiff cases run under the implicit method only (robertson does
    # not reach its end under the Taylor method; vanderpol takes 54 s at
    # 60 digits)
    [[ $c != robertson && $c != vanderpol ]] &&
        for D in $digits; do jobs+=("$c taylor $D"); done
    if [[ ${HDO_E2E_QUICK:-0} != 1 && " $(echo $implicit) " == *" $c "* ]]; then
        for D in 20 30; do jobs+=("$c implicit $D"); done
    fi
done

one() { # case method digits
    local c=$1 m=$2 D=$3 dir="$tmp/$1_$2_$3"
    # the golden references' sampling step, chosen off the cases' event
    # times (a grid time on a PWM edge is merged with the event's rows or
    # not depending on rounding: cases/references.txt)
    local every
    every=$(awk -v c="$c" '$1 == c { print $2 }' cases/references.txt)
    mkdir -p "$dir"
    for s in 1 1e-40 1e40; do
        if [[ $s == 1 ]]; then
            cp "cases/$c.hdae" "$dir/m_$s.hdae"
        else
            "$PY" tools/scaled_twin.py "cases/$c.hdae" "$s" >"$dir/m_$s.hdae"
        fi
        if ! "$HDO" run "$dir/m_$s.hdae" -d "$D" --method "$m" --every "$every" \
            -o "$dir/out_$s" \
            >"$dir/log_$s" 2>&1; then
            echo "FAIL twin_${c}_${m}_$D: the run at S = $s failed: $(tail -n 1 "$dir/log_$s" | head -c 300)"
            return
        fi
    done
    "$PY" - "$dir" "$D" "$c" "$m" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, fabs, log10
d, D, case, meth = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
mp.dps = 2 * D + 100
need = D - 2
def load(s):
    rows = list(csv.reader(open("%s/out_%s/trajectory.csv" % (d, s))))
    ev = list(csv.DictReader(open("%s/out_%s/events.csv" % (d, s))))
    return rows[0], rows[1:], ev
def digits(a, b, scale):
    diff = fabs(a - b)
    if diff == 0:
        return 2 * D
    if scale == 0:
        return 0
    return float(-log10(diff / scale))
head, base, bev = load("1")
worst, where = 2 * D, ""
for s in ("1e-40", "1e40"):
    S = mpf(s)
    h2, rows, ev = load(s)
    if h2 != head or len(ev) != len(bev):
        print("FAIL twin_%s_%s_%d: S = %s: %d events against %d"
              % (case, meth, D, s, len(ev), len(bev)))
        sys.exit(0)
    for k, (e1, e2) in enumerate(zip(bev, ev)):
        if (e1["from"], e1["to"], e1["kind"]) != (e2["from"], e2["to"], e2["kind"]):
            print("FAIL twin_%s_%s_%d: S = %s: event %d %s -> %s (%s) against %s -> %s (%s)"
                  % (case, meth, D, s, k + 1, e2["from"], e2["to"], e2["kind"],
                     e1["from"], e1["to"], e1["kind"]))
            sys.exit(0)
        t1, t2 = mpf(e1["time"]), mpf(e2["time"])
        g = digits(t1, t2, max(mpf(1), fabs(t1)))
        if g < worst:
            worst, where = g, "S = %s, event %d's time" % (s, k + 1)
    # rows grouped by their time: groups of the same size are paired in
    # order; a group of another size, or in one run only, must lie within
    # the time tolerance of an event (a grid time that falls on an event,
    # or on a Zeno point, is merged with its rows or not by rounding)
    evt = [mpf(e["time"]) for e in bev + ev]
    def near_event(ts):
        t = mpf(ts)
        return any(fabs(t - te) <= mpf(10) ** -need * max(mpf(1), fabs(t))
                   for te in evt)
    def groups(rs):
        gr = {}
        for i, r in enumerate(rs):
            gr.setdefault(r[0], []).append(i)
        return gr
    g1, g2 = groups(base), groups(rows)
    pairs = []
    for ts in sorted(set(g1) | set(g2), key=lambda x: mpf(x)):
        a, b = g1.get(ts, []), g2.get(ts, [])
        if len(a) == len(b):
            pairs += list(zip(a, b))
        elif not near_event(ts):
            print("FAIL twin_%s_%s_%d: S = %s: %d rows at t = %s against %d"
                  % (case, meth, D, s, len(b), ts, len(a)))
            sys.exit(0)
    ncol = len(head)
    vals = [[None if r[j] == "" else mpf(r[j]) for j in range(2, ncol)] for r in base]
    allbig = max((fabs(x) for v in vals for x in v if x is not None),
                 default=mpf(0))
    for i, i2 in pairs:
        r1, r2 = base[i], rows[i2]
        if r1[1] != r2[1]:
            if near_event(r1[0]):
                continue
            print("FAIL twin_%s_%s_%d: S = %s: row %d in mode %s against %s"
                  % (case, meth, D, s, i + 2, r2[1], r1[1]))
            sys.exit(0)
        for j in range(ncol - 2):
            a = vals[i][j]
            if a is None or r2[j + 2] == "":
                continue
            b = mpf(r2[j + 2]) / S
            # the size over the neighbouring rows of the same arc
            scale = fabs(a)
            for n in range(max(0, i - 2), min(len(base), i + 3)):
                if base[n][1] == r1[1] and vals[n][j] is not None:
                    scale = max(scale, fabs(vals[n][j]))
            zero = allbig * mpf(10) ** -(D + 3)
            if fabs(a) <= zero and fabs(b) <= zero:
                continue
            g = digits(a, b, scale)
            if g < worst:
                worst, where = g, "S = %s, row %d, %s" % (s, i + 2, head[j + 2])
status = "PASS" if worst >= need else "FAIL"
print("%s twin_%s_%s_%d: %d rows, %d events; fewest digits %.1f (need %d)%s"
      % (status, case, meth, D, len(base), len(bev), min(worst, D), need,
         "" if status == "PASS" else ": " + where))
PYEOF
}
export -f one
export HDO PY tmp
printf '%s\n' "${jobs[@]}" | xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _ >"$tmp/results"
sort "$tmp/results"
p=$(grep -c '^PASS' "$tmp/results")
f=$(grep -c '^FAIL' "$tmp/results")
echo "scaled_twin: $p passed, $f failed"
exit $((f > 0))
