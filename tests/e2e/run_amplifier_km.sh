#!/usr/bin/env bash
# run_amplifier_km.sh -- the Test Set transistor amplifier in its published
# form M y' = f(t, y) runs through the Kunkel-Mehrmann fallback.
#
# Issue #18: Pryce's structural analysis sees a transversal (index 0) in
# the eight equations, whose terms C(y1' - y2') make the Jacobian by the
# derivatives singular: "mode amp is singular".  hdo now falls back to the
# Kunkel-Mehrmann reduction (decisions.md D-070), says so on stderr, in
# summary.json ("analysis": "km-fallback") and in hdo analyze.
# The model is the Test Set's transamp.f as published (Ub = 6, UF = 0.026,
# alpha = 0.99, beta = 1e-6, R0 = 1000, R1..R9 = 9000, Ck = k 1e-6; rows
# of M: (-C1, C1), (C1, -C1), -C2, (-C3, C3), (C3, -C3), -C4, (-C5, C5),
# (C5, -C5); y(0) = (0, 3, 3, 6, 3, 3, 6, 0), t in [0, 0.2]).
# Independent check: the Test Set's published y(0.2) (PSIDE at rtol =
# atol = 1e-14), relative error <= 1e-12 in every component, at 20 and 30
# digits; at 30 digits --verify confirms all 30 digits.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
. tests/e2e/amplifier_common.bash

{
    echo 'model amplifier'
    amplifier_params
    cat <<'MODEL'
var y1 = 0, y2 = 3, y3 = 3, y4 = 6, y5 = 3, y6 = 3, y7 = 6, y8 = 0
mode amp
  -C1*der(y1) + C1*der(y2) = -(0.1*sin(200*pi*t))/R0 + y1/R0
  C1*der(y1) - C1*der(y2) = -Ub/R + y2*(2/R) - (alpha - 1)*beta*(exp((y2 - y3)/UF) - 1)
  -C2*der(y3) = -beta*(exp((y2 - y3)/UF) - 1) + y3/R
  -C3*der(y4) + C3*der(y5) = -Ub/R + y4/R + alpha*beta*(exp((y2 - y3)/UF) - 1)
  C3*der(y4) - C3*der(y5) = -Ub/R + y5*(2/R) - (alpha - 1)*beta*(exp((y5 - y6)/UF) - 1)
  -C4*der(y6) = -beta*(exp((y5 - y6)/UF) - 1) + y6/R
  -C5*der(y7) + C5*der(y8) = -Ub/R + y7/R + alpha*beta*(exp((y5 - y6)/UF) - 1)
  C5*der(y7) - C5*der(y8) = y8/R
end
start amp at 0
until 0.2
MODEL
} >"$tmp/amp.hdae"

# hdo analyze says which analysis it used
if ! "$HDO" analyze "$tmp/amp.hdae" --json >"$tmp/an.json" 2>"$tmp/an.err"; then
    echo "FAIL amplifier_km: hdo analyze failed: $(tail -n 1 "$tmp/an.err")"
    exit 1
fi
an=$("$PY" -c '
import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
ok = (m.get("analysis") == "km-fallback" and m.get("d") == 5 and
      m.get("a") == 3 and len(m.get("derivative_array_constraints", [])) == 3)
print("ok" if ok else "analysis %s d %s a %s" % (m.get("analysis"), m.get("d"), m.get("a")))
' "$tmp/an.json")
if [[ $an != ok ]]; then
    echo "FAIL amplifier_km: hdo analyze --json: $an"
    exit 1
fi

figures=""
for D in 20 30; do
    out="$tmp/out$D"
    flags=()
    [[ $D == 30 ]] && flags=(--verify)
    if ! "$HDO" run "$tmp/amp.hdae" -d "$D" "${flags[@]}" -o "$out" >"$tmp/log" 2>"$tmp/err"; then
        echo "FAIL amplifier_km: hdo run -d $D ${flags[*]} failed: $(tail -n 1 "$tmp/err")"
        exit 1
    fi
    if ! grep -q "note: mode amp: .*Kunkel-Mehrmann" "$tmp/err"; then
        echo "FAIL amplifier_km: no note of the fallback on stderr at D=$D"
        exit 1
    fi
    res=$(amplifier_check "$out" "$D" 30 published)
    if [[ $? -ne 0 ]]; then
        echo "FAIL amplifier_km: D=$D: ${res:-checker crashed}"
        exit 1
    fi
    figures="$figures; $res"
done
echo "PASS amplifier_km (Test Set y(0.2) through the Kunkel-Mehrmann fallback${figures})"
