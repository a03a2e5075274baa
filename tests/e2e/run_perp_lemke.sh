#!/usr/bin/env bash
# run_perp_lemke.sh -- a block of seven conditions, beyond the six whose
# active sets are all tried: its active set at every decision comes from
# Lemke's method on the problem at the point (exact, D = r I a P-matrix)
# and the Taylor test on the conditions left degenerate
# (ref/hybrid/complementarity.c).  A seven-phase rectifier: sources
# V sin(w t - 2 pi k/7), each through r and an ideal diode into C || R.
# Two checks, at 30 digits:
#  1. the closed form: with the conducting set S fixed, C vC' = sum_{k in S}
#     (s_k - vC)/r - vC/R is linear with sinusoidal forcing, solved exactly
#     (mpmath, 50 digits); S changes where some s_k - vC crosses 0 (a sign
#     scan on each arc, refined by findroot); every row of hdo's
#     trajectory (vC and each i[k] = max(0, (s_k - vC)/r)) and every event
#     time is compared;
#  2. the same circuit with the diodes as max(0, .) in one equation (hdo's
#     piecewise relations, a different code path): every cell agrees.
# Pass at >= 27 digits (relative to V and V/r).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

cat >"$tmp/seven.hdae" <<'M'
model seven_phase
param V = 10
param w = 2*pi*50
param r = 1
param R = 100
param C = 1/1000
var vC = 0, i[1..7]
mode m
  C*der(vC) = sum(k in 1..7, i[k]) - vC/R
  for k in 1..7
    0 <= i[k] perp r*i[k] + vC - V*sin(w*t - 2*pi*k/7) >= 0
  end
end
start m
until 0.02
M
cat >"$tmp/seven_max.hdae" <<'M'
model seven_max
param V = 10
param w = 2*pi*50
param r = 1
param R = 100
param C = 1/1000
var vC = 0
mode m
  C*der(vC) = sum(k in 1..7, max(0, (V*sin(w*t - 2*pi*k/7) - vC)/r)) - vC/R
end
start m
until 0.02
M
for m in seven seven_max; do
    if ! "$HDO" run "$tmp/$m.hdae" --digits 30 --every 0.00097 -o "$tmp/$m" >"$tmp/$m.log" 2>&1; then
        echo "FAIL run_perp_lemke: hdo run $m: $(tail -n 1 "$tmp/$m.log")"
        exit 1
    fi
done
"$PY" - "$tmp" <<'PY'
import csv, sys
from mpmath import mp, mpf, pi, sin, cos, exp, findroot, log10, fabs
mp.dps = 50
d = sys.argv[1]
V, r, R, C = mpf(10), mpf(1), mpf(100), mpf(1) / 1000
w = 2 * pi * 50
ph = [2 * pi * k / 7 for k in range(1, 8)]
TEND = mpf(2) / 100
s = lambda k, t: V * sin(w * t - ph[k])

def arc(S, t0, v0):
    """vC on the arc with conducting set S from (t0, v0): vC' + a vC = f."""
    a = (len(S) / r + 1 / R) / C
    def part(t):  # the particular solution of each sinusoid
        return sum(V / (r * C) / (a * a + w * w) * (a * sin(w * t - ph[k]) - w * cos(w * t - ph[k])) for k in S)
    c0 = v0 - part(t0)
    return lambda t: c0 * exp(-a * (t - t0)) + part(t)

def conducting(t, v):
    return tuple(k for k in range(7) if s(k, t) - v > 0)

arcs, events = [], []
t, v = mpf(0), mpf(0)
# at t = 0, vC = 0: the phases whose source is positive (none is exactly 0)
S = conducting(t, v)
while t < TEND:
    f = arc(S, t, v)
    n = 400
    hit = None
    prev = [s(k, t) - f(t) for k in range(7)]
    for j in range(1, n + 1):
        tj = t + (TEND - t) * j / n
        cur = [s(k, tj) - f(tj) for k in range(7)]
        for k in range(7):
            if (prev[k] > 0) != (cur[k] > 0) and not (j == 1 and fabs(prev[k]) < mpf(10) ** -40):
                tk = findroot(lambda x: s(k, x) - f(x), (t + (TEND - t) * (j - 1) / n, tj), solver="anderson")
                hit = tk if hit is None or tk < hit else hit
        if hit is not None:
            break
        prev = cur
    if hit is None:
        arcs.append((t, TEND, S, f))
        break
    arcs.append((t, hit, S, f))
    events.append(hit)
    v = f(hit)
    t = hit
    # the set after: a phase away from vC by its sign; the crossing
    # phase conducts after when its source rises past the vC of the arc
    # without it
    on = []
    for k in range(7):
        g0 = s(k, t) - v
        if fabs(g0) > mpf(10) ** -35:
            if g0 > 0:
                on.append(k)
            continue
        # crossing phase: conducts after if its source rises past vC
        # (d/dt (s_k - vC) with k off: s_k' - vC'(without k))
        Soff = tuple(x for x in arcs[-1][2] if x != k)
        fo = arc(Soff, t, v)
        h = mpf(10) ** -20
        if (s(k, t + h) - fo(t + h)) > 0:
            on.append(k)
    S = tuple(on)

def rows(name):
    with open("%s/%s/trajectory.csv" % (d, name)) as fh:
        rd = csv.reader(fh)
        head = next(rd)
        return head, [r for r in rd if r]

def dig(x, y, sc):
    e = fabs(mpf(x) - y) / sc
    return mpf(50) if e == 0 else -log10(e)

head, rs = rows("seven")
col = {h: i for i, h in enumerate(head)}
worst, where = mpf(50), "-"
evs = [mpf(r["time"]) for r in csv.DictReader(open(d + "/seven/events.csv"))]
if len(evs) != len(events):
    print("FAIL run_perp_lemke: %d events, closed form %d" % (len(evs), len(events)))
    sys.exit(1)
for a, b in zip(evs, events):
    x = dig(a, b, mpf(1) / 50)
    if x < worst:
        worst, where = x, "event at %s" % mp.nstr(b, 12)
for i, row in enumerate(rs):
    t = mpf(row[0])
    right = i > 0 and rs[i - 1][0] == row[0]
    arc_ = None
    for (a, b, S, f) in arcs:
        if (a <= t < b) if right else (a < t <= b) or (t == 0 and a == 0):
            arc_ = (S, f)
            break
    if arc_ is None:
        arc_ = (arcs[-1][2], arcs[-1][3])
    S, f = arc_
    vc = f(t)
    x = dig(row[col["vC"]], vc, V)
    if x < worst:
        worst, where = x, "vC at %s" % row[0][:12]
    for k in range(7):
        ik = max(mpf(0), (s(k, t) - vc) / r) if k in S else mpf(0)
        x = dig(row[col["i[%d]" % (k + 1)]], ik, V / r)
        if x < worst:
            worst, where = x, "i[%d] at %s" % (k + 1, row[0][:12])
h2, rs2 = rows("seven_max")
if len(rs2) != len(rs):
    print("FAIL run_perp_lemke: %d rows, the max() form %d" % (len(rs), len(rs2)))
    sys.exit(1)
for row, r2 in zip(rs, rs2):
    x = dig(row[col["vC"]], mpf(r2[2]), V)
    if x < worst:
        worst, where = x, "vC against max() at %s" % row[0][:12]
    x = dig(row[0], mpf(r2[0]), mpf(1) / 50)
    if x < worst:
        worst, where = x, "row time against max() at %s" % row[0][:12]
if worst >= 27:
    print("PASS run_perp_lemke: %.1f digits (need 27); %d events" % (worst, len(events)))
    sys.exit(0)
print("FAIL run_perp_lemke: %.1f digits (need 27), worst at %s" % (worst, where))
sys.exit(1)
PY
