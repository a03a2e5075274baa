#!/usr/bin/env bash
# fuzz.sh -- builds the libFuzzer harnesses of tests/fuzz/ with clang and
# runs each for FUZZ_SECONDS on a scratch copy of its seed corpus.
#
#   tools/fuzz.sh               build, then run every harness
#   tools/fuzz.sh build         build only
#   tools/fuzz.sh run [NAME..]  run (after building) the named harnesses
#                               (model, csv); default all
#   tools/fuzz.sh seeds NAME    only fill the scratch corpus of NAME
#
# Environment:
#   FUZZ_SECONDS=60        seconds per harness
#   FUZZ_BUILD=build/fuzz  binaries, objects, corpus/, crashes/, logs/
#   FUZZ_CC=clang          a clang with libFuzzer (Debian: clang and
#                          libclang-rt-14-dev)
#   FUZZ_KEEP_GOING=1      fork mode: keep fuzzing after a crash, timeout
#                          or out-of-memory, collecting every crasher
#   FUZZ_FLAGS=...         more libFuzzer flags (-jobs=, -seed=, ...)
#
# Crashers (crash-*, leak-*, timeout-*, oom-*, slow-unit-*) land in
# $FUZZ_BUILD/crashes/NAME-*; the log of each run in $FUZZ_BUILD/logs/.
# Exits 1 if any harness found something, 2 if the build fails.
set -u
cd "$(dirname "$0")/.." || exit 2

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_BUILD=${FUZZ_BUILD:-build/fuzz}
FUZZ_CC=${FUZZ_CC:-clang}
FUZZ_KEEP_GOING=${FUZZ_KEEP_GOING:-0}
FUZZ_FLAGS=${FUZZ_FLAGS:-}
PY=/usr/bin/python3

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-g -O1 -std=c11 -D_GNU_SOURCE -DHDO_FUZZ -fno-omit-frame-pointer \
 -Iref -I/usr/include/flint"
LIBS="-lcalcium -lflint-arb -lflint -lmpfr -lgmp -lm"

# Per harness: the source, the dictionary, the largest input.
harnesses() {
    local h
    for h in model csv; do
        [ -f "tests/fuzz/fuzz_$h.c" ] && echo "$h"
    done
}
dict_of() {
    case $1 in
        model) echo tests/fuzz/hdae.dict ;;
        csv) echo tests/fuzz/csv.dict ;;
    esac
}
max_len_of() {
    case $1 in
        model) echo 8192 ;;
        *) echo 4096 ;;
    esac
}

build() {
    local objdir=$FUZZ_BUILD/obj src obj h rc=0
    if ! command -v "$FUZZ_CC" >/dev/null; then
        echo "fuzz: $FUZZ_CC not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
        return 2
    fi
    mkdir -p "$objdir" "$FUZZ_BUILD/crashes" "$FUZZ_BUILD/logs"
    # The library with the sanitizers and the fuzzer's coverage
    # instrumentation, but without libFuzzer's main.  Rebuilt only where
    # the source (or a header) is newer than the object.
    local newest_h objs=()
    newest_h=$(ls -t ref/*.h ref/*/*.h ref/*/*/*.h 2>/dev/null | head -n 1)
    for src in ref/*/*.c ref/*/*/*.c; do
        obj=$objdir/${src//\//_}.o
        if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_h" -nt "$obj" ]; then
            echo "  CC $src"
            # A file that does not compile (the tree is shared and may be
            # mid-edit) is left out of the archive; the link says whether
            # a harness needed it.
            # shellcheck disable=SC2086
            $FUZZ_CC $CFLAGS $SAN -fsanitize=fuzzer-no-link -c -o "$obj" "$src" \
                || { rm -f "$obj"; echo "fuzz: warning: $src left out" >&2; }
        fi
        [ -f "$obj" ] && objs+=("$obj")
    done
    # An archive of the current sources' objects (not those of files
    # since removed), so that each harness links only what it needs.
    rm -f "$FUZZ_BUILD/libhdo-fuzz.a"
    ar rcs "$FUZZ_BUILD/libhdo-fuzz.a" "${objs[@]}" || return 2
    for h in $(harnesses); do
        echo "  LD $FUZZ_BUILD/fuzz_$h"
        # shellcheck disable=SC2086
        $FUZZ_CC $CFLAGS $SAN -fsanitize=fuzzer -o "$FUZZ_BUILD/fuzz_$h" \
            "tests/fuzz/fuzz_$h.c" "$FUZZ_BUILD/libhdo-fuzz.a" $LIBS || rc=2
    done
    return $rc
}

# Copies the seeds of harness $1 into its scratch corpus (which keeps
# what earlier runs found).
seeds() {
    local h=$1 dir=$FUZZ_BUILD/corpus/$1 f
    mkdir -p "$dir"
    case $h in
        model)
            for f in cases/*.hdae tests/hostile/*.hdae \
                     tests/regress/hostile/*.hdae tests/fuzz/seeds/model/*; do
                [ -f "$f" ] && cp "$f" "$dir/seed-$(basename "$f")"
            done
            # The example of the contract, model-format.md.
            for f in /work/shared/design/model-format.md docs/model-format.md; do
                [ -f "$f" ] || continue
                $PY - "$f" "$dir/seed-model-format-example.hdae" <<'EOF'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
start = text.find("```\n", text.find("## Example"))
end = text.find("```", start + 4)
if start >= 0 and end > start:
    open(sys.argv[2], "w").write(text[start + 4:end])
EOF
                break
            done
            ;;
        csv)
            for f in tests/fuzz/seeds/csv/* tolerances/*.tol \
                     tests/regress/csv/* cases/*.csv; do
                [ -f "$f" ] && cp "$f" "$dir/seed-$(basename "$f")"
            done
            ;;
    esac
    echo "  corpus $dir: $(ls "$dir" | wc -l) files"
}

run_one() {
    local h=$1 bin=$FUZZ_BUILD/fuzz_$1 dict log extra=()
    log=$FUZZ_BUILD/logs/$h.log
    dict=$(dict_of "$h")
    [ -f "$dict" ] && extra+=("-dict=$dict")
    if [ "$FUZZ_KEEP_GOING" = 1 ]; then
        extra+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    fi
    seeds "$h"
    echo "fuzz $h: $FUZZ_SECONDS s, log $log"
    # shellcheck disable=SC2086
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
        "$bin" -max_total_time="$FUZZ_SECONDS" -timeout=25 -rss_limit_mb=4096 \
        -max_len="$(max_len_of "$h")" -print_final_stats=1 \
        -artifact_prefix="$FUZZ_BUILD/crashes/$h-" "${extra[@]}" $FUZZ_FLAGS \
        "$FUZZ_BUILD/corpus/$h" >"$log" 2>&1
    local rc=$?
    grep -E '^#[0-9]+ +(DONE|INITED)|^stat::number_of_executed_units|cov: ' "$log" | tail -n 2
    if [ $rc -ne 0 ] || ls "$FUZZ_BUILD/crashes/$h-"* >/dev/null 2>&1; then
        echo "fuzz $h: FINDINGS (exit $rc): $(ls "$FUZZ_BUILD/crashes/$h-"* 2>/dev/null | tr '\n' ' ')"
        return 1
    fi
    echo "fuzz $h: nothing found"
    return 0
}

cmd=${1:-all}
[ $# -gt 0 ] && shift
case $cmd in
    build) build ;;
    seeds) for h in "${@:-$(harnesses)}"; do seeds "$h"; done ;;
    run | all)
        build || exit 2
        status=0
        names=("$@")
        [ ${#names[@]} -eq 0 ] && mapfile -t names < <(harnesses)
        for h in "${names[@]}"; do
            run_one "$h" || status=1
        done
        exit $status
        ;;
    *) sed -n '2,25p' "$0"; exit 2 ;;
esac
