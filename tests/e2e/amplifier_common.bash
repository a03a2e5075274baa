# amplifier_common.bash -- the Test Set transistor amplifier's parameters and
# its y(0.2) check, shared by run_amplifier_km.sh (the published form) and
# run_amplifier_index1.sh (the hand-written index-1 form); sourced after
# common.bash, which sets PY.

# amplifier_params: prints the model's parameter lines (transamp.f: Ub = 6,
# UF = 0.026, alpha = 0.99, beta = 1e-6, R0 = 1000, R1..R9 = 9000,
# Ck = k 1e-6).
amplifier_params() {
    cat <<'PARAMS'
param Ub = 6
param UF = 0.026
param alpha = 0.99
param beta = 1e-6
param R0 = 1000
param R = 9000
param C1 = 1e-6
param C2 = 2e-6
param C3 = 3e-6
param C4 = 4e-6
param C5 = 5e-6
PARAMS
}

# amplifier_check OUT D VERIFY_D FORM: compares the last row of
# OUT/trajectory.csv with the Test Set's published y(0.2) (relative error
# <= 1e-12 in every component), wants verified_digits >= D when D is
# VERIFY_D, and prints the figures.  FORM "published" reads y1..y8 and wants
# summary.json's one mode analysed by the Kunkel-Mehrmann fallback; FORM
# "index1" rebuilds y from u1 = y1 - y2, y3, u2 = y4 - y5, y6, u3 = y7 - y8
# and y2, y5, y8.
amplifier_check() {
    "$PY" - "$@" <<'PYEOF'
import csv, json, sys
from mpmath import mp, mpf
out, D, verify_d, form = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
mp.dps = 60
# Test Set transamp.f, subroutine solut: y(0.2)
ref = ['-0.5562145012262709e-2', '0.3006522471903042e+1',
       '0.2849958788608128e+1', '0.2926422536206241e+1',
       '0.2704617865010554e+1', '0.2761837778393145e+1',
       '0.4770927631616772e+1', '0.1236995868091548e+1']
r = list(csv.DictReader(open(out + '/trajectory.csv')))[-1]
if abs(mpf(r['time']) - mpf('0.2')) > mpf(10) ** -D:
    print('last row at t = %s, not 0.2' % r['time']); sys.exit(1)
if form == 'published':
    y = [mpf(r['y%d' % k]) for k in range(1, 9)]
else:
    v = lambda k: mpf(r[k])
    y = [v('u1') + v('y2'), v('y2'), v('y3'), v('u2') + v('y5'), v('y5'),
         v('y6'), v('u3') + v('y8'), v('y8')]
worst = max(abs(a - mpf(b)) / abs(mpf(b)) for a, b in zip(y, ref))
s = json.load(open(out + '/summary.json'))
if form == 'published' and [m.get('analysis') for m in s['modes']] != ['km-fallback']:
    print('summary.json modes %s' % s['modes']); sys.exit(1)
ver = s.get('verified_digits')
if D == verify_d and (ver is None or ver < D):
    print('verified_digits %s < %d' % (ver, D)); sys.exit(1)
print('D=%d rel.err %s%s' % (D, mp.nstr(worst, 2),
                             '' if ver is None else ' verified %d' % ver))
sys.exit(0 if worst <= mpf('1e-12') else 1)
PYEOF
}
