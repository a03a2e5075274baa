#!/usr/bin/env bash
# install_paths.sh -- where `make install` puts things for a package of the
# system (PREFIX=/usr, into a scratch DESTDIR), and what hdo.pc and the
# manual page say about it: the library in Debian's multiarch folder and
# hdo.pc's libdir naming that folder (pkg-config --variable=libdir),
# LIBDIR= choosing another; the documentation (README.md, LICENSE,
# docs/*.md) in share/doc/hdo and the manual page pointing there; the
# Python module in /usr/lib/python3/dist-packages, importable from there;
# CPPFLAGS on every compile command; and make uninstall leaving nothing.
# (tests/e2e/library.sh builds programs against the default prefix.)
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fail() {
    echo "FAIL install_paths: $*"
    exit 1
}
m() { env -u MAKEFLAGS -u MFLAGS make --no-print-directory -s SAN="${SAN:-}" "$@"; }
arch=$(cc -print-multiarch)
[[ -n $arch ]] || fail "cc -print-multiarch prints nothing"
root=$tmp/root
m install DESTDIR="$root" PREFIX=/usr >"$tmp/install.log" 2>&1 ||
    fail "make install PREFIX=/usr: $(tail -n 3 "$tmp/install.log")"
lib=$root/usr/lib/$arch
[[ -f $lib/libhdo.a && -L $lib/libhdo.so && -f $lib/pkgconfig/hdo.pc ]] ||
    fail "no libhdo.a, libhdo.so or hdo.pc in usr/lib/$arch"
[[ ! -e $root/usr/lib/libhdo.so ]] || fail "libhdo.so also in usr/lib"
got=$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --variable=libdir hdo)
[[ $got == "/usr/lib/$arch" ]] || fail "hdo.pc's libdir is '$got', not /usr/lib/$arch"
[[ $(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --variable=includedir hdo) == /usr/include ]] ||
    fail "hdo.pc's includedir"
for f in README.md LICENSE cli.md model-format.md python.md decisions.md examples/run_case.c; do
    [[ -f $root/usr/share/doc/hdo/$f ]] || fail "share/doc/hdo/$f is not installed"
done
cmp -s LICENSE "$root/usr/share/doc/hdo/LICENSE" || fail "the installed LICENSE differs"
grep -q "BSD 3-Clause" LICENSE && grep -q "Copyright (c) [0-9]*, the hdo authors" LICENSE ||
    fail "LICENSE is not BSD-3-Clause of the hdo authors"
man=$root/usr/share/man/man1/hdo.1
grep -q '^\.I /usr/share/doc/hdo/$' "$man" || fail "the manual page does not point at /usr/share/doc/hdo/"
grep -q 'BSD 3-Clause' "$man" || fail "the manual page does not give the license"
py=$root/usr/lib/python3/dist-packages/hdo
mods=$(compgen -G "$py/_hdo*.so" | wc -l)
include=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
if [[ -f $include/Python.h ]]; then
    [[ $mods == 1 && -f $py/__init__.py && -f $py/plot.py ]] || fail "the Python module is not in $py"
    if [[ ${SAN:-} != 1 ]] && "$PY" -c 'import numpy' 2>/dev/null; then
        # the installed module alone, outside the checkout
        out=$(cd "$tmp" && PYTHONPATH=$root/usr/lib/python3/dist-packages "$PY" -c '
import hdo
m = hdo.Model.from_string("model decay\nvar x = 1\nmode m\n  der(x) = -x\nend\nstart m\nuntil 1\n")
print(hdo.__file__, m.run(digits=20).exact("x", strings=True)[-1])' 2>&1) ||
            fail "import hdo from dist-packages: $out"
        # e^-1 to 20 digits (its digits, from mpmath's exp: 0.36787944117144232160)
        [[ $out == "$py/__init__.py 3.6787944117144232160e-01" ]] || fail "the installed module: $out"
    fi
fi
m uninstall DESTDIR="$root" PREFIX=/usr >"$tmp/uninstall.log" 2>&1 || fail "make uninstall: $(tail -n 2 "$tmp/uninstall.log")"
left=$(find "$root" ! -type d | head -n 3)
[[ -z $left ]] || fail "make uninstall left $left"

# LIBDIR= for another folder, named by hdo.pc
m install DESTDIR="$root" PREFIX=/opt/hdo LIBDIR=/opt/hdo/lib64 >"$tmp/install.log" 2>&1 ||
    fail "make install LIBDIR=: $(tail -n 3 "$tmp/install.log")"
got=$(PKG_CONFIG_PATH=$root/opt/hdo/lib64/pkgconfig pkg-config --variable=libdir hdo)
[[ -f $root/opt/hdo/lib64/libhdo.a && $got == /opt/hdo/lib64 ]] || fail "LIBDIR=/opt/hdo/lib64: libdir '$got'"

# CPPFLAGS reach every compile command (dpkg-buildflags' -D_FORTIFY_SOURCE)
obj=$(dirname "$HDO")/obj
n=$(m -n -B CPPFLAGS=-DHDO_CPPFLAGS_PROBE "$obj/ref/version/version.o" \
    "$obj/oracle/main.o" 2>/dev/null | grep -c ' -DHDO_CPPFLAGS_PROBE ')
((n == 2)) || fail "CPPFLAGS is on $n of 2 compile commands"
echo "PASS install_paths: PREFIX=/usr: usr/lib/$arch named by hdo.pc, docs and LICENSE in share/doc/hdo named by the manual page, the module in dist-packages; LIBDIR=; CPPFLAGS; uninstalled"
