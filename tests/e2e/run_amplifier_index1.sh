#!/usr/bin/env bash
# run_amplifier_index1.sh -- the Test Set transistor amplifier, rewritten by
# hand in index-1 form, runs at 20, 25 (--verify) and 38 digits.
#
# Issue #18: Newton for the algebraic unknowns (solve_unknowns in
# ref/reduce/consistent.c) stalled at its rounding floor above its step test on
# this model and the run failed at 25 and 38..42 digits.  The model is
# written from the Test Set's equations (transamp.f: M y' = f(t, y),
# Ub = 6, UF = 0.026, alpha = 0.99, beta = 1e-6, R0 = 1000, R1..R9 = 9000,
# Ck = k 1e-6, t in [0, 0.2]): the states are the capacitor voltages
# u1 = y1 - y2, y3, u2 = y4 - y5, y6, u3 = y7 - y8 (rows 1, 3, 4, 6, 7 of
# M y' = f), and the sums of rows 1+2, 4+5, 7+8 are the algebraic
# equations for y2, y5, y8.
# Independent check: the Test Set's published y(0.2) (PSIDE at rtol = atol
# = 1e-14 on a Cray C90), relative error <= 1e-12 in every component; and
# at 25 digits --verify confirms all 25 digits.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
. tests/e2e/amplifier_common.bash

{
    echo 'model amplifier_index1'
    amplifier_params
    cat <<'MODEL'
var u1 = -3, y3 = 3, u2 = 3, y6 = 3, u3 = 6
var y2 = 3, y5 = 3, y8 = 0
mode amp
  der(u1) = -((u1 + y2) - 0.1*sin(200*pi*t))/R0/C1
  der(y3) = -(y3/R - beta*(exp((y2 - y3)/UF) - 1))/C2
  der(u2) = -((u2 + y5 - Ub)/R + alpha*beta*(exp((y2 - y3)/UF) - 1))/C3
  der(y6) = -(y6/R - beta*(exp((y5 - y6)/UF) - 1))/C4
  der(u3) = -((u3 + y8 - Ub)/R + alpha*beta*(exp((y5 - y6)/UF) - 1))/C5
  0 = ((u1 + y2) - 0.1*sin(200*pi*t))/R0 + y2/R + (y2 - Ub)/R + (1 - alpha)*beta*(exp((y2 - y3)/UF) - 1)
  0 = (u2 + y5 - Ub)/R + alpha*beta*(exp((y2 - y3)/UF) - 1) + y5/R + (y5 - Ub)/R + (1 - alpha)*beta*(exp((y5 - y6)/UF) - 1)
  0 = (u3 + y8 - Ub)/R + alpha*beta*(exp((y5 - y6)/UF) - 1) + y8/R
end
start amp at 0
until 0.2
MODEL
} >"$tmp/amp.hdae"

figures=""
for D in 20 25 38; do
    out="$tmp/out$D"
    flags=()
    [[ $D == 25 ]] && flags=(--verify)
    if ! "$HDO" run "$tmp/amp.hdae" -d "$D" "${flags[@]}" -o "$out" >"$tmp/log" 2>&1; then
        echo "FAIL amplifier_index1: hdo run -d $D ${flags[*]} failed: $(tail -n 1 "$tmp/log")"
        exit 1
    fi
    res=$(amplifier_check "$out" "$D" 25 index1)
    if [[ $? -ne 0 ]]; then
        echo "FAIL amplifier_index1: D=$D: ${res:-checker crashed}"
        exit 1
    fi
    figures="$figures; $res"
done
echo "PASS amplifier_index1 (Test Set y(0.2)${figures})"
