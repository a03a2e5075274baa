#!/usr/bin/env bash
# make_deps.sh -- `make deps` (the first step of make check and make run)
# as a user who cannot install packages (not root, and sudo asks for a
# password): a missing package of OPTIONAL_PACKAGES is named with the
# apt-get line and make goes on (exit 0: the tests that need it skip);
# a missing package hdo needs stops it (make's exit 2) with the line to run.
# The missing package is made up (hdo-test-absent), so nothing is ever
# installed; as root the make runs as the user nobody (setpriv), else as
# the user running the test, with a sudo that refuses.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fail() {
    echo "FAIL make_deps: $*"
    exit 1
}
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "sudo: a password is required" >&2\nexit 1\n' >"$tmp/bin/sudo"
chmod 755 "$tmp" "$tmp/bin" "$tmp/bin/sudo"
as_user=()
if [[ $(id -u) == 0 ]]; then
    if ! setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
        echo "make_deps: SKIP (root, and setpriv cannot run make as the user nobody)"
        exit 0
    fi
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
deps() { # the packages of DEBIAN_PACKAGES, of them OPTIONAL_PACKAGES
    "${as_user[@]}" env PATH="$tmp/bin:$PATH" make --no-print-directory -s deps \
        DEBIAN_PACKAGES="$1" OPTIONAL_PACKAGES="$2" 2>&1
}

out=$(deps "bash hdo-test-absent" "hdo-test-absent")
rc=$?
((rc == 0)) || fail "an optional package missing: exit $rc: $out"
grep -q "^not installed (not root, and sudo asks for a password): hdo-test-absent$" <<<"$out" &&
    grep -q "^the tests that need them are skipped, each with the reason;$" <<<"$out" &&
    grep -q "^to run them too: sudo apt-get install -y hdo-test-absent$" <<<"$out" ||
    fail "an optional package missing: $out"

out=$(deps "bash hdo-test-absent" "")
rc=$?
((rc == 2)) || fail "a needed package missing: exit $rc: $out"
[[ $out == *"hdo needs: hdo-test-absent"*"run: sudo apt-get install -y hdo-test-absent"* ]] ||
    fail "a needed package missing: $out"

out=$(deps "bash" "")
rc=$?
((rc == 0)) && [[ -z $out ]] || fail "nothing missing: exit $rc: $out"
echo "PASS make_deps: as a user, an optional package missing goes on with its apt-get line, a needed one stops"
