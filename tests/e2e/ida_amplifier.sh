#!/usr/bin/env bash
# ida_amplifier.sh -- the IDA adapter starts and integrates the Test Set's
# transistor amplifier in its published form M y' = f(t, y) (issue #18).
#
# Pryce's form of cases/transistor_amplifier.hdae is singular in its
# unknowns (M has rank 5 of 8), where IDACalcIC could not fix the part of
# y' in M's null space and IDASolve failed at t = 0 (IDA_ERR_FAIL).  The
# adapter now integrates F(t, y, y') = M y' - f = 0 with a y' of its own
# (tools/ida/icsing.h, docs/decisions.md D-040).  Independent checks:
# 1. y'(0) against its closed form, derived here from F = 0 and the time
#    derivatives of the three sums of the coupled rows (the hidden
#    constraints), in mpmath at 40 digits: with fac = beta/UF,
#    y3' = -y2/(C2 R3), y6' = -y5/(C4 R7), and a = y1' = y2',
#    b = y4' = y5', c = y7' = y8' from
#      a (1/R0 + 2/R + (1-alpha) fac) = 20 pi/R0 + (1-alpha) fac y3'
#      b (3/R + (1-alpha) fac) = -alpha fac (a - y3') + (1-alpha) fac y6'
#      c (2/R) = -alpha fac (b - y6')
#    (a = 51.339276517..., b = -24.970328515..., c = -10.000276402...; a
#    difference quotient of tests/corpus/stiffref.py's Radau IIA over two
#    steps of 1e-8 agrees to 9 digits.  transamp.f's `init` gives only y3',
#    y6' in closed form and the others "determined numerically", 51.338775,
#    -24.9757667, -10.00564453: 1e-5 to 5e-4 off, so not used here.)
#    Bound 1e-12 relative: measured 1.1e-15 (y7', y8'; a Newton solve in
#    double), the bound leaves a factor 1000 for other rounding (libm,
#    compiler), and an error in the method or a y' left to IDACalcIC
#    (y1' = -0.052) is far above it.
#    The differential components y(0) must be the start values exactly.
# 2. y(0.2) at rtol = atol = 1e-10 (the cross-check's tighter tolerance)
#    against the Test Set's published values (PSIDE at 1e-14, 16 digits):
#    measured max |a - b| / (1 + |b|) = 1.7e-9 (y8; largest absolute
#    3.8e-9), bound 2e-8: IDA's global error, which another step sequence
#    (SUNDIALS version, libm's last bits) can change by a small factor,
#    with one decade of room; the published values' own error (1e-14) is
#    far below.  At rtol 1e-6 the same measure is 9.3e-7, so the bound
#    does check the 1e-10 run's accuracy.
# 3. An inconsistent start (y1(0) = 0.5: the first sum of coupled rows,
#    (y1 - Ue)/R0 + y2/R1 + (y2 - Ub)/R2 + ..., is 5e-4 instead of 0) is
#    refused like a failing IDACalcIC: exit 2, the reason on stderr, no
#    output file.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

IDA=$(dirname "$HDO")/hdo-ida
if [[ ! -x $IDA ]]; then
    echo "SKIP ida_amplifier: no $IDA (make $IDA)"
    exit 0
fi
model=cases/transistor_amplifier.hdae
sed 's/^var y1 = 0, /var y1 = 0.5, /' "$model" >"$tmp/bad.hdae"
"$IDA" "$tmp/bad.hdae" --out "$tmp/bad.csv" >/dev/null 2>"$tmp/bad.err"
rc=$?
if [[ $rc -ne 2 || -e $tmp/bad.csv ]] ||
    ! grep -q "error: consistent initial values failed in mode amp at t = 0: the differential components violate" "$tmp/bad.err"; then
    echo "FAIL ida_amplifier: inconsistent start: exit $rc, $(grep -m 1 error "$tmp/bad.err")"
    exit 1
fi
if ! "$IDA" "$model" --rtol 1e-10 --atol 1e-10 --out "$tmp/a.csv" \
    --events "$tmp/a.ev" --ic "$tmp/a.ic" >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL ida_amplifier: hdo-ida failed: $(grep -m 1 error "$tmp/err")"
    exit 1
fi
if ! grep -q "note: mode amp: .* singular .*F(t, y, y') = 0" "$tmp/err"; then
    echo "FAIL ida_amplifier: no note about the direct form on stderr"
    exit 1
fi
"$PY" - "$tmp/a.ic" "$tmp/a.csv" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, pi
mp.dps = 40
ic, traj = sys.argv[1], sys.argv[2]
Ub, UF, alpha, beta = mpf(6), mpf('0.026'), mpf('0.99'), mpf('1e-6')
R0, R, C2, C4 = mpf(1000), mpf(9000), mpf('2e-6'), mpf('4e-6')
y0 = {'y1': 0, 'y2': 3, 'y3': 3, 'y4': 6, 'y5': 3, 'y6': 3, 'y7': 6, 'y8': 0}
fac = beta / UF
y3p, y6p = -y0['y2'] / (C2 * R), -y0['y5'] / (C4 * R)
a = (20 * pi / R0 + (1 - alpha) * fac * y3p) / (1 / R0 + 2 / R + (1 - alpha) * fac)
b = (-alpha * fac * (a - y3p) + (1 - alpha) * fac * y6p) / (3 / R + (1 - alpha) * fac)
c = -alpha * fac * (b - y6p) / (2 / R)
yp0 = {'y1': a, 'y2': a, 'y3': y3p, 'y4': b, 'y5': b, 'y6': y6p, 'y7': c, 'y8': c}
rows = [r for r in csv.DictReader(open(ic)) if float(r['time']) == 0]
if sorted(r['variable'] for r in rows) != sorted(y0) or any(r['order'] != '0' for r in rows):
    print('FAIL ida_amplifier: --ic rows at t = 0: %s' % [(r['variable'], r['order']) for r in rows])
    sys.exit(1)
worst_yp = 0
for r in rows:
    v = r['variable']
    if mpf(r['value']) != y0[v]:
        print('FAIL ida_amplifier: y(0) of %s changed to %s' % (v, r['value']))
        sys.exit(1)
    worst_yp = max(worst_yp, abs(mpf(r['derivative']) - yp0[v]) / abs(yp0[v]))
# Test Set transamp.f, subroutine solut: y(0.2)
pub = ['-0.5562145012262709e-2', '0.3006522471903042e+1', '0.2849958788608128e+1',
       '0.2926422536206241e+1', '0.2704617865010554e+1', '0.2761837778393145e+1',
       '0.4770927631616772e+1', '0.1236995868091548e+1']
last = list(csv.DictReader(open(traj)))[-1]
if abs(mpf(last['time']) - mpf('0.2')) > mpf('1e-15'):
    print('FAIL ida_amplifier: last row at t = %s' % last['time'])
    sys.exit(1)
worst_y = max(abs(mpf(last['y%d' % k]) - mpf(p)) / (1 + abs(mpf(p)))
              for k, p in zip(range(1, 9), pub))
ok = worst_yp <= mpf('1e-12') and worst_y <= mpf('2e-8')
print('%s ida_amplifier: IDA starts the published form (refuses an inconsistent y(0)); y\'(0) within %s relative of the '
      'closed form (bound 1e-12), y(0.2) at rtol 1e-10 within %s of the Test Set (bound 2e-8)'
      % ('PASS' if ok else 'FAIL', mp.nstr(worst_yp, 2), mp.nstr(worst_y, 2)))
sys.exit(0 if ok else 1)
PYEOF
