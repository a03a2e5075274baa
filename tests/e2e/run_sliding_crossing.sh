#!/usr/bin/env bash
# run_sliding_crossing.sh -- a relay that slides while another relation
# changes sign, and a relay at rest (issue 23, item 7: both were refused).
#
# Each model runs at D = 30 digits with --verify, under the default method
# and under --method implicit; every trajectory row and every event time
# is compared with the closed form below (mpmath, 50 digits), pass at
# >= D - 2 digits (relative to max(1, |value|)), and the run must exit 0
# with 30 verified digits.  x = 1/2 - t up to t = 1/2, then x = 0
# (sliding(m,m), the relay -sign(x)):
#   timeif  der(z) = if t < 1.5 then 1 else 2: z = t, then 3/2 + 2 (t - 3/2);
#           a crossing at 3/2 while sliding; z(2) = 5/2
#   minsat  der(z) = min(t, 1.5): z = t^2/2, then 9/8 + 3/2 (t - 3/2);
#           z(2) = 15/8
#   abssin  der(z) = abs(sin(3 t)): z = (1 - cos 3t)/3 up to pi/3, then
#           2/3 + (1 + cos 3t)/3; a crossing at pi/3; z(2) = 1 + cos(6)/3
#   rest    der(x) = v, der(v) = -sign(x) from x = v = 0: |x| + v^2/2 = 0
#           is conserved, so x = v = 0 (no event)
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

D=30
fails=0

model() { # name body
    printf 'model %s\n%s\nstart m at 0\nuntil 2\n' "$1" "$2" >"$tmp/$1.hdae"
}
model timeif 'var x = 0.5, z = 0
mode m
  der(x) = -sign(x)
  der(z) = if t < 1.5 then 1 else 2
end'
model minsat 'var x = 0.5, z = 0
mode m
  der(x) = -sign(x)
  der(z) = min(t, 1.5)
end'
model abssin 'var x = 0.5, z = 0
mode m
  der(x) = -sign(x)
  der(z) = abs(sin(3*t))
end'
model rest 'var x = 0, v = 0
mode m
  der(x) = v
  der(v) = -sign(x)
end'

for method in auto implicit; do
    for name in timeif minsat abssin rest; do
        od="$tmp/$name.$method" label="sliding_crossing_${method}_$name"
        if ! "$HDO" run "$tmp/$name.hdae" -d "$D" --verify --method "$method" \
            --every 0.125 -o "$od" >"$tmp/$name.log" 2>&1; then
            echo "FAIL $label: hdo run failed: $(tail -n 1 "$tmp/$name.log")"
            fails=$((fails + 1))
            continue
        fi
        res=$("$PY" - "$od" "$name" "$D" <<'PYEOF'
import csv, json, sys
from mpmath import mp, mpf, cos, pi, fabs, log10
out, name, D = sys.argv[1], sys.argv[2], int(sys.argv[3])
mp.dps = 50
h = mpf(3) / 2

def z(t):
    if name == "timeif":
        return t if t <= h else h + 2 * (t - h)
    if name == "minsat":
        return t * t / 2 if t <= h else mpf(9) / 8 + h * (t - h)
    if t <= pi / 3:
        return (1 - cos(3 * t)) / 3
    return mpf(2) / 3 + (1 + cos(3 * t)) / 3

cross = {"timeif": h, "minsat": h, "abssin": pi / 3}
rows = list(csv.DictReader(open(out + "/trajectory.csv")))
ev = list(csv.DictReader(open(out + "/events.csv")))
worst = D + 10

def dig(got, ref):
    d = fabs(mpf(got) - ref) / max(1, fabs(ref))
    return D + 10 if d == 0 else int(-log10(d))

if name == "rest":
    want_ev = []
else:
    want_ev = [(mpf(1) / 2, "sliding-start"), (cross[name], "crossing")]
if [e["kind"] for e in ev] != [k for _, k in want_ev]:
    print("events %s, want %s" % ([(e["time"][:10], e["kind"]) for e in ev],
                                  [k for _, k in want_ev]))
    sys.exit(0)
for e, (t, _) in zip(ev, want_ev):
    worst = min(worst, dig(e["time"], t))
for r in rows:
    t = mpf(r["time"])
    if name == "rest":
        worst = min(worst, dig(r["x"], 0), dig(r["v"], 0))
    else:
        worst = min(worst, dig(r["x"], max(mpf(1) / 2 - t, 0)),
                    dig(r["z"], z(t)))
vd = json.load(open(out + "/summary.json"))["verified_digits"]
print("%d %d %d" % (worst, len(rows), vd))
PYEOF
)
        read -r worst nrows vd <<<"$res"
        if [[ $worst =~ ^[0-9]+$ ]] && ((worst >= D - 2 && vd >= D)); then
            echo "PASS $label: $nrows rows and the events to $worst digits ($vd verified)"
        else
            echo "FAIL $label: $res"
            fails=$((fails + 1))
        fi
    done
done
exit $((fails > 0))
