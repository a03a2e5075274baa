#!/usr/bin/env bash
# run_km_energy_first_integral.sh -- km_energy's guard H < H0 is a first
# integral of its mode (KM 2017 case 4(a), issue #5): no events at 30, 40,
# 50, 60 and 80 digits (50 and 60 used to report a noise switch near
# t = 0.5), and `--verify` at 40 digits reports 40 verified digits.
#
# Independent check (the summary and events files of hdo itself are only
# read): events.csv has no event row, summary.json says "events": 0, and
# "verified_digits": 40 for the --verify run.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

for D in 30 40 50 60 80; do
    out="$tmp/out$D"
    if ! "$HDO" run cases/km_energy.hdae --digits "$D" -o "$out" >"$tmp/log" 2>&1; then
        echo "FAIL km_energy_first_integral: hdo run --digits $D failed: $(tail -n 1 "$tmp/log")"
        exit 1
    fi
    n=$(($(wc -l <"$out/events.csv") - 1))
    if [[ $n -ne 0 ]]; then
        echo "FAIL km_energy_first_integral: $n event(s) at $D digits: $(sed -n 2p "$out/events.csv")"
        exit 1
    fi
done
out="$tmp/verify"
if ! "$HDO" run cases/km_energy.hdae --digits 40 --verify -o "$out" >"$tmp/log" 2>&1; then
    echo "FAIL km_energy_first_integral: hdo run --verify failed: $(tail -n 1 "$tmp/log")"
    exit 1
fi
v=$("$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["events"], d["verified_digits"])' "$out/summary.json")
if [[ $v != "0 40" ]]; then
    echo "FAIL km_energy_first_integral: --verify at 40 digits: events, verified digits = $v (want 0 40)"
    exit 1
fi
echo "PASS km_energy_first_integral: no events at 30, 40, 50, 60, 80 digits; --verify at 40 digits: 40 verified digits"
