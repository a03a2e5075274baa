#!/bin/bash
# build.sh -- build heyoka_bench.cpp against a heyoka installed at PREFIX
# (built with HEYOKA_WITH_MPPP=ON and an mp++ with MPFR; see README.md).
#
#   tools/bench/heyoka/build.sh PREFIX OUT
#
# OUT is the binary to write; its CMake build folder is OUT.build.  The
# binary finds libheyoka and libmp++ by its RPATH (CMake's build RPATH).
set -euo pipefail
prefix=${1:?usage: build.sh PREFIX OUT}
out=${2:?usage: build.sh PREFIX OUT}
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$prefix" ] || { echo "build.sh: no folder $prefix" >&2; exit 2; }
prefix=$(cd "$prefix" && pwd)
bdir="$out.build"
mkdir -p "$bdir"
cmake -S "$here" -B "$bdir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >"$bdir/cmake.log" 2>&1 || {
    tail -20 "$bdir/cmake.log" >&2
    echo "build.sh: cmake could not configure against $prefix" \
        "(log: $bdir/cmake.log)" >&2
    exit 1
}
cmake --build "$bdir" -j2 >"$bdir/build.log" 2>&1 || {
    grep -E "error" "$bdir/build.log" | head -20 >&2
    echo "build.sh: the build failed (log: $bdir/build.log)" >&2
    exit 1
}
cp "$bdir/heyoka-bench" "$out"
