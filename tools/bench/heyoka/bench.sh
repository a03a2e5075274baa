#!/bin/bash
# bench.sh -- the optional heyoka part of `make bench` (issue 28): build
# heyoka_bench against the heyoka installed at HEYOKA_PREFIX, then run
# run.py (hdo beside heyoka at HEYOKA_DIGITS, default 30 60 100 200).
#
#   tools/bench/heyoka/bench.sh HDO BUILD_DIR [HEYOKA_PREFIX]
#
# Without a prefix it says that it is skipped and why, and succeeds:
# heyoka is not a dependency of hdo (README.md says how to build it).
set -euo pipefail
hdo=${1:?usage: bench.sh HDO BUILD_DIR [HEYOKA_PREFIX]}
build=${2:?usage: bench.sh HDO BUILD_DIR [HEYOKA_PREFIX]}
prefix=${3:-}
here=$(dirname "$0")
if [ -z "$prefix" ]; then
    echo "hdo against heyoka: skipped (no HEYOKA_PREFIX; heyoka 7 with" \
        "mp++ is not a dependency: see tools/bench/README.md, then" \
        "make bench HEYOKA_PREFIX=/its/install/prefix)"
    exit 0
fi
read -r -a digits <<< "${HEYOKA_DIGITS:-30 60 100 200}"
"$here/build.sh" "$prefix" "$build/heyoka-bench"
/usr/bin/python3 "$here/run.py" --hdo "$hdo" --bench "$build/heyoka-bench" \
    --digits "${digits[@]}" --work "$build/bench/heyoka" \
    --csv "$build/bench/heyoka.csv"
