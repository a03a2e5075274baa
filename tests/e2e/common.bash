# common.bash -- the start the e2e scripts share, sourced right after their
# `set -u` (never run by itself: tests/e2e/run.sh runs only *.sh): work
# from the top of the checkout, hdo and Python from HDO and HDO_PYTHON
# (run.sh exports both), and a scratch folder $tmp removed on exit.
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
HDO=${HDO:-build/hdo}
PY=${HDO_PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
