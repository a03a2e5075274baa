#!/usr/bin/env bash
# run_relay_sliding.sh -- Filippov sliding of the scalar relay x' = -sgn(x) + a sin t.
#
# Two modes (pos: x' = -1 + a sin t while x >= 0; neg: x' = 1 + a sin t
# while x <= 0), a = 3/2, x(0) = 1/5, t in [0, 10], `chattering filippov`.
# On x = 0 both fields point at the surface while |a sin t| < 1, so the run
# slides there with alpha = (1 + a sin t)/2 (the weight of pos, the first
# mode in file order) and leaves where alpha reaches 1 (a sin t = 1, into
# pos) or 0 (a sin t = -1, into neg).
# Independent check (mpmath, 50 digits): every arc in closed form,
#   x = x0 -+ (t - t0) + a (cos t0 - cos t),
# its first zero by scanning + bisection + findroot; the sliding exits at
# asin(1/a) + 2k pi and pi + asin(1/a) + 2k pi.  Expected: sliding-start at
# 0.24467..., sliding-end at 0.72972... (asin(2/3), into pos), 3.32311...,
# 3.87132... (into neg), 6.4647..., 7.0129..., 9.6063...; kinds, modes and
# times compared, x = 0 on the sliding arcs; pass at >= D - 3 digits, D = 30.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/relay.hdae" <<'MODEL'
model relay
param a = 3/2
var x = 1/5
mode pos
  der(x) = -1 + a*sin(t)
  when x < 0 goto neg
end
mode neg
  der(x) = 1 + a*sin(t)
  when x > 0 goto pos
end
chattering filippov
start pos at 0
until 10
MODEL

D=30
if ! "$HDO" run "$tmp/relay.hdae" -d "$D" -o "$tmp/out" >"$tmp/log" 2>&1; then
    echo "FAIL relay_sliding: hdo run failed: $(tail -n 1 "$tmp/log")"
    exit 1
fi
res=$("$PY" - "$tmp/out" "$D" <<'PYEOF'
import csv, sys
sys.path.insert(0, "tests/corpus")
import hdocheck as H
from mpmath import mp, mpf, sin, cos, asin, pi, findroot, fabs, log10
out, D = sys.argv[1], int(sys.argv[2])
mp.dps = 50
A, X0, TEND = mpf(3) / 2, mpf(1) / 5, mpf(10)
SL = "sliding(pos,neg)"

def xarc(s, t0, x0, u):
    return x0 + s * (u - t0) + A * (cos(t0) - cos(u))

def simulate():
    t, x, mode, evs = mpf(0), X0, "pos", []
    while True:
        if mode != SL:
            s = -1 if mode == "pos" else 1
            g = lambda u: -s * xarc(s, t, x, u)      # feasible while >= 0
            u, h, te = t, mpf("0.001"), None
            while u < TEND:
                un = min(u + h, TEND)
                if g(un) < 0:
                    te = H.refine_root(g, u, un)
                    break
                u = un
            if te is None:
                return evs
            other = "neg" if mode == "pos" else "pos"
            nxt = SL if fabs(A * sin(te)) < 1 else other
            evs.append((te, mode, nxt, "sliding-start" if nxt == SL else "switch"))
            t, x, mode = te, mpf(0), nxt
        else:
            c = []
            for k in range(0, 4):
                c += [(2 * k * pi + asin(1 / A), "pos"), (2 * k * pi + pi - asin(1 / A), "pos"),
                      (2 * k * pi - asin(1 / A), "neg"), (2 * k * pi + pi + asin(1 / A), "neg")]
            # alpha = (1 + A sin t)/2 leaves [0, 1]: A sin t rises through 1 or falls through -1
            c = sorted(e for e in c if e[0] > t and ((e[1] == "pos") == (cos(e[0]) > 0)))
            te, to = c[0]
            if te > TEND:
                return evs
            evs.append((te, SL, to, "sliding-end"))
            t, x, mode = te, mpf(0), to

exp = simulate()
ev = list(csv.DictReader(open(out + "/events.csv")))
if len(ev) != len(exp) or len(exp) != 7:
    print("%d events, expected %d: %s" % (len(ev), len(exp), [(r["time"][:10], r["kind"]) for r in ev]))
    sys.exit(1)
worst = D + 10
for r, (te, fr, to, kind) in zip(ev, exp):
    if (r["from"], r["to"], r["kind"]) != (fr, to, kind):
        print("event at %s is %s -> %s %s, expected %s -> %s %s" % (r["time"], r["from"], r["to"], r["kind"], fr, to, kind))
        sys.exit(1)
    d = fabs(mpf(r["time"]) - te)
    worst = min(worst, D + 10 if d == 0 else int(-log10(d / max(1, fabs(te)))))
# x = 0 while sliding
for row in csv.DictReader(open(out + "/trajectory.csv")):
    if row["mode"] == SL:
        d = fabs(mpf(row["x"]))
        worst = min(worst, D + 10 if d == 0 else int(-log10(d)))
print("%d %s %s" % (worst, mp.nstr(exp[0][0], 12), mp.nstr(exp[1][0], 12)))
sys.exit(0 if worst >= D - 3 else 2)
PYEOF
)
rc=$?
if [[ $rc -ne 0 ]]; then
    echo "FAIL relay_sliding: ${res:-checker crashed}"
    exit 1
fi
read -r dig t1 t2 <<<"$res"
echo "PASS relay_sliding: sliding from $t1 to $t2 (and 5 more events) to $dig digits"
