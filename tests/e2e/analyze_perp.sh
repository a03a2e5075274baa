#!/usr/bin/env bash
# analyze_perp.sh -- hdo analyze on complementarity blocks (docs/cli.md):
# the matrix D = dB/dA, its P-matrix test with a two-solution witness, the
# transfer matrix G(s) for large s, the relative degrees, the active set
# of each mode, in text and JSON.  Expected values worked out by hand:
#   rectifier  cases/rectifier_diode.hdae: D = [0] (not P: minor {1} = 0),
#              relative degree 1, G(s) = 1000/s + ...: P for large s
#   negative   0 <= l perp x - l + 1 >= 0 with der(x) = -x + l: D = [-1],
#              minor {1} = -1; G(s) = -1 + O(1/s): not P, minor {1}
#              leading with -1 at order 0
#   spd        two conditions with D = [[2, 1], [1, 2]] (index 1): P, and
#              G(s) P
#   relay      Ex. 5.3 (l1 - l2 = x1): no linear form, not tested
# Every witness (q, z1, z2) in the JSON is checked independently: both z
# solve LCP(q, D) in exact fractions and differ.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL analyze_perp: $*"; }

cat >"$tmp/negative.hdae" <<'M'
model negative
var x = 0, l
mode m
  der(x) = -x + l
  0 <= l perp x - l + 1 >= 0
end
start m
M
cat >"$tmp/spd.hdae" <<'M'
model spd
var x = 1, y = -1, a, b
mode m
  der(x) = -x + a
  der(y) = -y + b
  0 <= a perp 2*a + b + x >= 0
  0 <= b perp a + 2*b + y >= 0
end
start m
M
cat >"$tmp/relay.hdae" <<'M'
model relay
var x1 = 0, x2 = 0, x3 = 0, u, l1, l2
mode m
  der(x1) = x2
  der(x2) = x3
  der(x3) = u
  x1 = l1 - l2
  0 <= l1 perp 1 + u >= 0
  0 <= l2 perp 1 - u >= 0
end
start m
M

expect_text() { # name file regex
    if "$HDO" analyze "$2" >"$tmp/out" 2>&1 && grep -Eq -- "$3" "$tmp/out"; then
        ok
    else
        bad "$1: no line matching '$3' in: $(grep -A4 complementarity "$tmp/out" | head -8)"
    fi
}
expect_text rectifier-D cases/rectifier_diode.hdae '^  matrix D = dB/dA \(exact\): \[0\]$'
expect_text rectifier-notP cases/rectifier_diode.hdae '^  P-matrix: no: the principal minor of rows \{1\} is 0; at q = '
expect_text rectifier-G cases/rectifier_diode.hdae '^  transfer matrix G\(s\) = D \+ C \(sI - A\)\^-1 B: a P-matrix for all large s'
expect_text rectifier-degree cases/rectifier_diode.hdae 'perp -ud >= 0 \(line [0-9]+\): relative degree 1$'
expect_text rectifier-sets cases/rectifier_diode.hdae '^  active set: -ud = 0$'
expect_text negative-G "$tmp/negative.hdae" 'not a P-matrix for large s: its principal minor of rows \{1\} is -1 s\^-0'
expect_text spd-P "$tmp/spd.hdae" '^  P-matrix: yes'
expect_text spd-D "$tmp/spd.hdae" '^  matrix D = dB/dA \(exact\): \[2, 1; 1, 2\]$'
expect_text relay-untested "$tmp/relay.hdae" '^  not tested \(no linear complementarity form: the left sides are not free'

for f in cases/rectifier_diode.hdae cases/diode_bridge.hdae "$tmp/negative.hdae" "$tmp/spd.hdae" "$tmp/relay.hdae"; do
    if ! "$HDO" analyze --json "$f" >"$tmp/j.json" 2>"$tmp/err"; then
        bad "$f: analyze --json failed: $(head -n 1 "$tmp/err")"
        continue
    fi
    if msg=$("$PY" - "$tmp/j.json" <<'PY' 2>&1
import json, sys
from fractions import Fraction as F
d = json.load(open(sys.argv[1]))
blocks = d["complementarity"]
assert blocks, "no block"
for b in blocks:
    for m in d["modes"]:
        assert "active_set" in m, "a mode without its active set"
    if b["p_matrix"] is None:
        assert b["why_untested"]
        continue
    D = [[F(x) for x in row] for row in b["matrix"]]
    n = len(D)
    def solves(q, z):
        w = [q[i] + sum(D[i][j] * z[j] for j in range(n)) for i in range(n)]
        return all(x >= 0 for x in z) and all(x >= 0 for x in w) and all(z[i] * w[i] == 0 for i in range(n))
    if b["p_matrix"] is False:
        wt = b["witness"]
        q, z1, z2 = ([F(x) for x in wt[k]] for k in ("q", "z1", "z2"))
        assert solves(q, z1) and solves(q, z2) and z1 != z2, "bad witness %s" % wt
        # the minor reported is <= 0 and its rows' determinant
        rows = [r - 1 for r in b["minor_rows"]]
        assert F(b["minor"]) <= 0
        if len(rows) == 1:
            assert D[rows[0]][rows[0]] == F(b["minor"])
    assert isinstance(b["transfer_p_matrix"], bool)
print("ok")
PY
    ); then
        ok
    else
        bad "$f: $msg"
    fi
done
echo "analyze: $passed passed, $failed failed"
((failed == 0))
