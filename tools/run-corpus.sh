#!/usr/bin/env bash
# run-corpus.sh -- the main job: computes every case of the corpus and prints
# a table (case, modes used, events, steps, verified digits, wall time).
# Cases the engine cannot run yet are listed with their error, not hidden.
set -u
hdo=$1
shift
printf '%-24s %-8s %7s %8s %9s %9s  %s\n' case status events steps verified seconds note
ok=0
bad=0
for model in "$@"; do
    name=$(basename "$model" .hdae)
    out="out/$name"
    start=$(date +%s.%N)
    err=$("$hdo" run "$model" --digits 30 --verify -o "$out" 2>&1 >/dev/null)
    rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    if ((rc == 0)) && [[ -f $out/summary.json ]]; then
        read -r events steps verified < <(/usr/bin/python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(s.get("events", "?"), s.get("steps", "?"), s.get("verified_digits", "?"))
PY
)
        printf '%-24s %-8s %7s %8s %9s %9.2f\n' "$name" ok "$events" "$steps" "$verified" "$secs"
        ok=$((ok + 1))
    else
        printf '%-24s %-8s %7s %8s %9s %9.2f  %s\n' "$name" "exit$rc" - - - "$secs" "$(head -n 1 <<<"$err")"
        bad=$((bad + 1))
    fi
done
echo "corpus: $ok cases computed, $bad not computed"
