#!/usr/bin/env bash
# python.sh -- the Python module hdo (tools/python, docs/python.md) under
# pytest: tests/python with the module of this build ($BUILD/python, BUILD
# being the folder of HDO), printing "python: N passed, N failed".
#
# Skipped (a SKIP line, never a pass) only when what the module or its
# tests need is not installed: Python's headers (python3-dev, without which
# `make` does not build it), pytest, numpy, or SciPy and mpmath (the
# tests' candidates and closed forms); `make check` installs them all.
# Without matplotlib only tests/python/test_plot.py is skipped.
# Under SAN=1 the module is built with AddressSanitizer and UBSan while
# Debian's python3 is not: the sanitizer runtimes are preloaded, Python
# allocates with malloc (PYTHONMALLOC=malloc, so ASan sees every block),
# and LeakSanitizer's report is sorted by tests/python/lsan_filter.py:
# a leak with a frame of hdo's fails the test, the interpreter's own
# leaks at exit are counted and ignored (a suppression file cannot tell
# them apart: lsan_filter.py says why).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

build=$(dirname "$HDO")
include=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
if [[ ! -f $include/Python.h ]]; then
    echo "python: SKIP (no Python.h for $PY: install python3-dev, then make)"
    exit 0
fi
for m in pytest:python3-pytest numpy:python3-numpy scipy:python3-scipy mpmath:python3-mpmath; do
    if ! "$PY" -c "import ${m%%:*}" 2>/dev/null; then
        echo "python: SKIP (no ${m%%:*} for $PY: install ${m#*:})"
        exit 0
    fi
done
if ! compgen -G "$build/python/hdo/_hdo*.so" >/dev/null; then
    echo "python: FAIL: the module is not built ($build/python/hdo/_hdo*.so; make python)"
    exit 1
fi
env=(PYTHONPATH="$build/python" PYTHONDONTWRITEBYTECODE=1 MPLBACKEND=Agg)
if [[ ${SAN:-} == 1 ]]; then
    env+=(LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
        PYTHONMALLOC=malloc
        ASAN_OPTIONS=detect_leaks=1
        LSAN_OPTIONS="exitcode=0:log_path=$tmp/lsan")
fi
start=$(date +%s.%N)
env "${env[@]}" "$PY" -m pytest -q -p no:cacheprovider tests/python >"$tmp/out" 2>&1
rc=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
# pytest's last line: "N passed, M failed, K skipped in S s" (any order)
last=$(grep -E '^(=+ )?[0-9]+ (passed|failed)' "$tmp/out" | tail -n 1)
n_pass=$(grep -oE '[0-9]+ passed' <<<"$last" | grep -oE '[0-9]+')
n_fail=$(grep -oE '[0-9]+ (failed|errors?)' <<<"$last" | awk '{ n += $1 } END { print n + 0 }')
n_skip=$(grep -oE '[0-9]+ skipped' <<<"$last" | grep -oE '[0-9]+')
if ((rc != 0)); then
    # the failures, a sanitizer's report, or a crash: what it said
    grep -E '^(FAILED|ERROR)|^E  |^==[0-9]+==|SUMMARY|Sanitizer' "$tmp/out" | head -n 40
    [[ -n $last ]] || tail -n 20 "$tmp/out"
fi
((${n_skip:-0} > 0)) && grep -E '^SKIPPED' "$tmp/out"
echo "python: $secs s (${last:-no pytest summary, exit $rc})"
if [[ ${SAN:-} == 1 ]]; then
    # the leaks at the interpreter's exit: hdo's fail (lsan_filter.py)
    logs=("$tmp"/lsan.*)
    if [[ -e ${logs[0]} ]]; then
        "$PY" tests/python/lsan_filter.py "${logs[@]}" || { rc=1; n_fail=$((n_fail + 1)); }
    else
        echo "lsan: no leak at all"
    fi
fi
# a crash or a sanitizer's stop without a failed test is a failure too
((rc != 0 && n_fail == 0)) && n_fail=1
echo "python: ${n_pass:-0} passed, $n_fail failed"
exit $rc
