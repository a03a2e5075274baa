# event_time.bash -- one_event_time OUT D RC REF: the run in OUT (exit
# status RC) has exactly one event, whose time agrees with REF (an mpmath
# expression of mpf, sqrt, quad, asin, sin, evaluated at 2 D + 60 digits)
# to D - 1 significant digits of itself.  Prints what it found; status 0
# when it agrees.  Sourced by run_tiny_event.sh and run_zero_scale.sh
# after common.bash (PY).
one_event_time() {
    "$PY" - "$@" <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, sqrt, fabs, log10, quad, asin, sin
out, D, rc, ref = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
mp.dps = 2 * D + 60
r = eval(ref)
try:
    ev = list(csv.DictReader(open(out + "/events.csv")))
except OSError as e:
    print("no result (exit %d): %s" % (rc, e)); sys.exit(1)
if rc != 0 or len(ev) != 1:
    print("exit %d, %d events" % (rc, len(ev))); sys.exit(1)
d = fabs(mpf(ev[0]["time"]) - r)
dig = 3 * D if d == 0 else float(-log10(d / r))
print("event at %s, %.1f digits of itself (need %d)"
      % (ev[0]["time"][:16], dig, D - 1))
sys.exit(0 if dig >= D - 1 else 1)
PYEOF
}
