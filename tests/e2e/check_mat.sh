#!/usr/bin/env bash
# check_mat.sh -- `hdo check` reads MAT v4 result files (dsres, as
# OpenModelica and Dymola write them), chosen by content, by hdo's own
# reader (ref/compare/mat.c):
# binNormal and binTrans, double and single data, aliases with a negative
# sign, parameters in data_1, repeated time rows at events.  The files are
# written by tools/write_dsres.py (Python struct, independent of hdo) from
# the closed forms x = e^-t, y = 1 - e^-t and the sawtooth
# x = t, reset to 0 at t = 0.5.
set -u
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/check_common.bash"
write_xy_model "$tmp/xy.hdae"
cat >"$tmp/saw.hdae" <<'M'
model saw
var x = 0
mode m
  der(x) = 1
  when x > 0.5 goto m with x = 0
end
start m at 0
until 1
M
"$PY" - "$tmp" tools <<'P'
import math, struct, sys
sys.path.insert(0, sys.argv[2])
from write_dsres import write_dsres
d = sys.argv[1]
ts = [i / 20 for i in range(21)]
X = [math.exp(-t) for t in ts]
Y = [1 - x for x in X]
cols = [("data_2", X), ("data_2", Y), ("alias", "x", -1), ("data_1", 2.5)]
names = ["x", "y", "der(x)", "k"]
for trans in (False, True):
    for single in (False, True):
        write_dsres(f"{d}/xy-{int(trans)}{int(single)}.mat", names, ts, cols,
                    trans=trans, single=single)
write_dsres(f"{d}/xy-alias.mat", ["mx", "x", "y"], ts,
            [("data_2", [-x for x in X]), ("alias", "mx", -1), ("data_2", Y)],
            trans=False)
bad = list(X)
bad[10] += 1e-3
write_dsres(f"{d}/xy-bad.mat", names, ts, [("data_2", bad)] + cols[1:], trans=True)
# the sawtooth, both limits at t = 0.5 (OpenModelica writes events so)
st, sx = [], []
for t in ts:
    if t == 0.5:
        st += [t, t]
        sx += [0.5, 0.0]
    else:
        st.append(t)
        sx.append(t if t < 0.5 else t - 0.5)
write_dsres(f"{d}/saw.mat", ["x"], st, [("data_2", sx)], trans=True)
sx2 = [x if abs(t - 0.5) > 1e-12 else 0.5 for t, x in zip(st, sx)]
write_dsres(f"{d}/saw-noevent.mat", ["x"], st, [("data_2", sx2)], trans=True)
# big-endian files (M = 1), as a big-endian machine writes them
for trans in (False, True):
    write_dsres(f"{d}/xy-big{int(trans)}.mat", names, ts, cols, trans=trans,
                single=trans, big=True)
# malformed: cut inside data_2; data_2 complex; a VAX number format;
# no data_2 at all
good = open(f"{d}/xy-10.mat", "rb").read()
open(f"{d}/cut.mat", "wb").write(good[:-13])
i = good.index(b"data_2\0") - 20
hdr = list(struct.unpack("<5i", good[i:i + 20]))
hdr[3] = 1  # imaginary part
open(f"{d}/complex.mat", "wb").write(good[:i] + struct.pack("<5i", *hdr) +
                                     good[i + 20:] + good[i + 27:])
vax = bytearray(good)
vax[0:4] = struct.pack("<i", 2051)  # M = 2: VAX D-float
open(f"{d}/vax.mat", "wb").write(bytes(vax))
open(f"{d}/nodata2.mat", "wb").write(good[:i])
P
for v in 00 01 10 11; do
    expect "dsres-$v" 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/xy-$v.mat" --value-rel 1e-6 --value-abs 1e-7
    expect "dsres-$v-columns" 0 'not compared \(not variables of the model\): der\(x\) k$' -- "$tmp/xy.hdae" "$tmp/xy-$v.mat" --value-rel 1e-6 --value-abs 1e-7
done
# doubles hold the closed form to 1e-15; singles (times too) do not
expect dsres-double-tight 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/xy-10.mat" --value-rel 1e-14 --value-abs 0 --time-abs 1e-14
expect dsres-single-tight-fails 1 'vars_failed=2/2' -- "$tmp/xy.hdae" "$tmp/xy-11.mat" --value-rel 1e-14 --value-abs 0 --time-abs 1e-14
# x stored only as the negated alias of mx = -e^-t (dataInfo column -2)
expect dsres-alias-sign 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/xy-alias.mat" --value-rel 1e-14 --value-abs 0 --time-abs 1e-14
expect dsres-bad 1 'first failure: t = 0.5 .*variable x' -- "$tmp/xy.hdae" "$tmp/xy-bad.mat"
expect dsres-events 0 'events_ref=1 events_cand=1 events_missing=0' -- "$tmp/saw.hdae" "$tmp/saw.mat"
# two identical rows at 0.5 are no event: judged on the values (right)
expect dsres-identical-rows 0 'events_given=no' -- "$tmp/saw.hdae" "$tmp/saw-noevent.mat"
for v in 0 1; do
    expect "dsres-big-endian-$v" 0 'vars_failed=0/2' -- "$tmp/xy.hdae" "$tmp/xy-big$v.mat" --value-rel 1e-6 --value-abs 1e-7
done
expect dsres-cut 2 'cut.mat: error: not a MAT v4 file: matrix 6 \(3 x 21\) runs past the end of the file' -- "$tmp/xy.hdae" "$tmp/cut.mat"
expect dsres-complex 2 "complex.mat: error: the matrix 'data_2' is complex, not a dsres matrix" -- "$tmp/xy.hdae" "$tmp/complex.mat"
expect dsres-vax 2 'vax.mat: error: not a MAT v4 file of IEEE numbers: matrix 1 has number format 2 \(VAX or Cray\)' -- "$tmp/xy.hdae" "$tmp/vax.mat"
expect dsres-no-data2 2 "nodata2.mat: error: not a dsres result file: no matrix 'data_2'" -- "$tmp/xy.hdae" "$tmp/nodata2.mat"
printf 'not a mat file' >"$tmp/short.mat"
expect dsres-not-mat 2 'short.mat:1:1: error' -- "$tmp/xy.hdae" "$tmp/short.mat"
echo "check_mat: $passed passed, $failed failed"
((failed == 0))
