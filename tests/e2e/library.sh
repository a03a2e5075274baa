#!/usr/bin/env bash
# library.sh -- make install into a scratch DESTDIR, then libhdo as another
# program uses it: the example share/doc/hdo/examples/run_case.c built with
# `pkg-config --cflags --libs hdo` against libhdo.so and statically against
# libhdo.a, a C++ program including <hdo/hdo.h> built with g++, the
# symbols libhdo.so exports, and make uninstall.
#
# Independent checks: the example's events and final state on the bouncing
# ball (h0 = 1, g = 9.81, e = 0.7) against the closed form evaluated by
# mpmath -- first impact at t1 = sqrt(2 h0 / g), impact k + 1 at
# t1 (1 + 2 e + ... + 2 e^k), the Zeno point t1 (1 + e) / (1 - e), and at
# rest h = v = 0, f = g -- to D - 5 significant digits; and against
# `hdo run` of the same model (a second path through the same engine:
# the event lines and the last trajectory row must be the same text).
# The exported symbols must all be hdo_ names declared in an installed
# header, with no internal one among them.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fail() {
    echo "FAIL library: $*"
    exit 1
}
D=30
root=$tmp/root
prefix=/usr/local
# a make of its own (not the caller's jobserver), same SAN setting
if ! env -u MAKEFLAGS -u MFLAGS make --no-print-directory -s install \
    DESTDIR="$root" PREFIX=$prefix SAN="${SAN:-}" >"$tmp/install.log" 2>&1; then
    fail "make install failed: $(tail -n 3 "$tmp/install.log")"
fi
P=$root$prefix
major=$(sed -n 's/^#define HDO_VERSION_MAJOR \([0-9]*\)$/\1/p' ref/version.h)
minor=$(sed -n 's/^#define HDO_VERSION_MINOR \([0-9]*\)$/\1/p' ref/version.h)
patch=$(sed -n 's/^#define HDO_VERSION_PATCH \([0-9]*\)$/\1/p' ref/version.h)
version=$major.$minor.$patch
for f in bin/hdo lib/libhdo.a lib/libhdo.so.$version include/hdo/hdo.h \
    include/hdo/version.h include/hdo/hybrid.h lib/pkgconfig/hdo.pc \
    share/man/man1/hdo.1 share/doc/hdo/examples/run_case.c; do
    [[ -f $P/$f ]] || fail "make install did not install $f"
done
[[ $(readlink "$P/lib/libhdo.so") == libhdo.so.$major &&
    $(readlink "$P/lib/libhdo.so.$major") == libhdo.so.$version ]] ||
    fail "links: libhdo.so -> $(readlink "$P/lib/libhdo.so"), libhdo.so.$major -> $(readlink "$P/lib/libhdo.so.$major")"
soname=$(readelf -d "$P/lib/libhdo.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ $soname == libhdo.so.$major ]] || fail "soname '$soname', expected libhdo.so.$major"
# every installed header compiles alone, as C and as C++: their "name.h"
# includes find each other in include/hdo/
for h in "$P"/include/hdo/*.h; do
    echo "#include <hdo/$(basename "$h")>" >"$tmp/one.c"
    cc -std=c99 -Wall -Werror -fsyntax-only -I"$P/include" "$tmp/one.c" 2>"$tmp/cc.log" ||
        fail "<hdo/$(basename "$h")> alone: $(head -n 3 "$tmp/cc.log")"
    cp "$tmp/one.c" "$tmp/one.cc"
    g++ -std=c++11 -Wall -Werror -pedantic -fsyntax-only -I"$P/include" "$tmp/one.cc" 2>"$tmp/cc.log" ||
        fail "<hdo/$(basename "$h")> alone in C++: $(head -n 3 "$tmp/cc.log")"
done

export PKG_CONFIG_PATH=$P/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
[[ $(pkg-config --modversion hdo) == "$version" ]] || fail "pkg-config --modversion: $(pkg-config --modversion hdo)"
san=()
[[ ${SAN:-} == 1 ]] && san=(-fsanitize=address,undefined -fno-omit-frame-pointer)
ex=$P/share/doc/hdo/examples/run_case.c
# shellcheck disable=SC2046 # pkg-config's words are meant to split
cc -std=c11 -Wall -Wextra -Werror "${san[@]}" -o "$tmp/run_shared" "$ex" \
    $(pkg-config --cflags --libs hdo) 2>"$tmp/cc.log" ||
    fail "example against libhdo.so: $(head -n 5 "$tmp/cc.log")"
readelf -d "$tmp/run_shared" | grep -q "NEEDED.*\[libhdo.so.$major\]" ||
    fail "the shared example does not need libhdo.so.$major"
# static: the archive itself, then the other libraries of --static (not
# -lhdo again: without --as-needed, gcc's default here except under
# -fsanitize, it would add libhdo.so to the program's needs)
deps=()
for l in $(pkg-config --static --libs-only-l hdo); do
    [[ $l == -lhdo ]] || deps+=("$l")
done
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror "${san[@]}" -o "$tmp/run_static" "$ex" \
    $(pkg-config --cflags hdo) "$P/lib/libhdo.a" "${deps[@]}" 2>"$tmp/cc.log" ||
    fail "example against libhdo.a: $(head -n 5 "$tmp/cc.log")"
readelf -d "$tmp/run_static" | grep -q 'NEEDED.*libhdo' &&
    fail "the static example still needs libhdo.so"
export LD_LIBRARY_PATH=$P/lib
ldd "$tmp/run_shared" | grep -q "libhdo.so.$major => $P/lib/" ||
    fail "the shared example does not load the installed libhdo: $(ldd "$tmp/run_shared" | grep hdo)"

model=cases/bouncing_ball.hdae
"$tmp/run_shared" $model $D >"$tmp/shared.txt" 2>"$tmp/err" || fail "run_case (shared): $(tail -n 1 "$tmp/err")"
"$tmp/run_static" $model $D >"$tmp/static.txt" 2>"$tmp/err" || fail "run_case (static): $(tail -n 1 "$tmp/err")"
cmp -s "$tmp/shared.txt" "$tmp/static.txt" || fail "the shared and static examples print different results"
[[ $(head -n 1 "$tmp/shared.txt") == "hdo $version" ]] || fail "example prints '$(head -n 1 "$tmp/shared.txt")'"
[[ $("$P/bin/hdo" --version) == "hdo $version" ]] || fail "hdo --version prints '$("$P/bin/hdo" --version)'"
"$P/bin/hdo" run $model -d $D -o "$tmp/out" >"$tmp/log" 2>&1 || fail "hdo run: $(tail -n 1 "$tmp/log")"
# a model error reaches the caller as file:line:col and exit 2
printf 'model bad\nvar x = 1\nmode m\n  der(x) = +\nend\n' >"$tmp/bad.hdae"
"$tmp/run_shared" "$tmp/bad.hdae" >/dev/null 2>"$tmp/err"
rc=$?
((rc == 2)) && grep -qE "bad.hdae:4:[0-9]+: error: " "$tmp/err" ||
    fail "a bad model: exit $rc, '$(head -n 1 "$tmp/err")'"

res=$("$PY" - "$tmp/shared.txt" "$tmp/out" $D <<'PYEOF'
import csv, sys
from mpmath import mp, mpf, sqrt, log10, fabs
txt, out, D = sys.argv[1], sys.argv[2], int(sys.argv[3])
mp.dps = D + 20
lines = open(txt).read().splitlines()[1:]
events = [l for l in lines if l.startswith("event ")]
final = [l for l in lines if not l.startswith("event ")]
bad = []
# the same run through `hdo run`: events.csv and the last trajectory row
ev = list(csv.reader(open(out + "/events.csv")))[1:]
mine = ["event %s t=%s %s -> %s %s [%s]" % tuple(r) for r in ev]
if mine != events:
    bad.append("events differ from hdo run's events.csv (%d against %d lines)"
               % (len(events), len(mine)))
tr = list(csv.reader(open(out + "/trajectory.csv")))
head, last = tr[0], tr[-1]
want = ["final t=%s mode=%s" % (last[0], last[1])] + \
       ["%s=%s" % (head[j], last[j] if last[j] != "" else "-")
        for j in range(2, len(head))]
if want != final:
    bad.append("final state differs from hdo run's last row: %s / %s"
               % (final, want))
# the closed form
g, e = mpf("9.81"), mpf("0.7")
t1 = sqrt(2 / g)
tz = t1 * (1 + e) / (1 - e)
def dig(x, y, scale=1):
    d = fabs(mpf(x) - y)
    return mpf(D + 10) if d == 0 else -log10(d / scale)
times = [l.split()[2][2:] for l in events]
worst = mpf(D + 10)
t = t1
for k, s in enumerate(times[:-2]):       # impacts before the last two
    worst = min(worst, dig(s, t))
    t += 2 * e ** (k + 1) * t1
zeno = [l for l in events if " zeno " in l]
if len(zeno) != 1 or not events[-1].endswith("fly -> rest zeno [zeno]"):
    bad.append("no single zeno event fly -> rest at the end")
else:
    worst = min(worst, dig(times[-1], tz))
vals = dict(l.split("=", 1) for l in final[1:])
worst = min(worst, dig(vals["f"], g, g))
for v in ("h", "v"):
    if fabs(mpf(vals[v])) > mpf(10) ** -(D - 5):
        bad.append("%s = %s at rest" % (v, vals[v]))
if not final[0].startswith("final t=3.0") or "mode=rest" not in final[0]:
    bad.append("final line %s" % final[0])
if worst < D - 5:
    bad.append("only %.1f digits against the closed form" % worst)
if len(times) < 100:
    bad.append("only %d events" % len(times))
print("; ".join(bad) if bad else "ok %d events, first impact %s, %.1f digits"
      % (len(times), times[0][:12], worst))
PYEOF
)
[[ $res == ok* ]] || fail "$res"

# C++: the umbrella header with g++, linked with libhdo.so
cat >"$tmp/use.cc" <<'CXX'
#include <hdo/hdo.h>
#include <cstdio>
#include <cstring>
int main(int argc, char **argv)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_run_options opt;
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_model_init(model);
    int st = argc == 2 ? hdo_model_parse_file(model, argv[1], &err) : 2;
    if (st == 0) {
        hdo_run_options_init(&opt);
        hdo_result_init(res);
        st = hdo_run(res, model, &opt, &err);
        if (st == 0)
            std::printf("%s %ld\n", hdo_version(), (long)res->nevents);
        hdo_result_clear(res);
    }
    hdo_model_clear(model);
    mpfr_free_cache();
    flint_cleanup_master();
    return st == 0 && std::strcmp(hdo_version(), HDO_VERSION_STRING) == 0 ? 0 : 2;
}
CXX
# shellcheck disable=SC2046
g++ -std=c++11 -Wall -Wextra -pedantic -Werror "${san[@]}" -o "$tmp/use" "$tmp/use.cc" \
    $(pkg-config --cflags --libs hdo) 2>"$tmp/cc.log" || fail "g++ with <hdo/hdo.h>: $(head -n 5 "$tmp/cc.log")"
nev=$(grep -c '^event ' "$tmp/shared.txt")
[[ $("$tmp/use" $model) == "$version $nev" ]] || fail "the C++ program prints '$("$tmp/use" $model)', expected '$version $nev'"

# exported symbols: hdo_ names declared in an installed header, nothing else
nm -D --defined-only "$P/lib/libhdo.so.$version" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/exported"
cat "$P"/include/hdo/*.h | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u >"$tmp/declared"
nexp=$(wc -l <"$tmp/exported")
stray=$(grep -v '^hdo_' "$tmp/exported" | tr '\n' ' ')
undeclared=$(comm -23 "$tmp/exported" "$tmp/declared" | tr '\n' ' ')
[[ -z $stray && -z $undeclared ]] || fail "exported without hdo_ prefix: '$stray'; in no header: '$undeclared'"
for s in hdo_run hdo_model_parse_file hdo_version hdo_write_summary; do
    grep -qx $s "$tmp/exported" || fail "$s is not exported"
done
internal=$(nm -g --defined-only "$P/lib/libhdo.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u | comm -23 - "$tmp/exported" | wc -l)
((internal > 0)) || fail "libhdo.a has no symbol that libhdo.so hides (the version script hides nothing?)"

manok="man page not checked (no man here)"
if command -v man >/dev/null; then
    w=$(MANWIDTH=80 man --warnings -l "$P/share/man/man1/hdo.1" 2>&1 >/dev/null)
    [[ -z $w ]] || fail "man page warnings: $w"
    manok="man page renders without warnings"
fi

env -u MAKEFLAGS -u MFLAGS make --no-print-directory -s uninstall DESTDIR="$root" PREFIX=$prefix \
    SAN="${SAN:-}" >"$tmp/uninstall.log" 2>&1 || fail "make uninstall: $(tail -n 2 "$tmp/uninstall.log")"
left=$(find "$root" ! -type d | head -n 3)
[[ -z $left ]] || fail "make uninstall left $left"

echo "PASS library: installed $version (soname libhdo.so.$major), example shared = static = hdo run, $res; g++ <hdo/hdo.h>; $nexp symbols exported, $internal hidden; $manok; uninstalled"
