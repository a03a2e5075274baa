#!/usr/bin/env bash
# corpus-identical.sh -- runs of the corpus by two builds, compared byte for byte.
#
# usage: tools/corpus-identical.sh run HDO DIR     compute every run into DIR
#        tools/corpus-identical.sh compare A B     compare two such folders
#        tools/corpus-identical.sh list            print the runs, one a line
#
# A change that only moves code (issue 24) must leave every number hdo
# writes as it was, to the last bit.  `run` computes, with the binary HDO,
#
#   - every cases/*.hdae at 30 digits with --verify (what `make run` does);
#   - a few cases at 16 and at 60 digits with --verify (other precisions,
#     so other Taylor orders, tolerances and working precisions);
#   - the cases of tests/e2e/corpus_implicit.sh at 30 digits with --verify
#     and --method implicit (the Radau IIA stepper on arcs with guards);
#   - the golden references' runs: every case of cases/references.txt that
#     tests/corpus/pending.txt does not hold, at 40 digits with --verify and
#     its --every (what tools/references.sh writes into cases/<case>.ref/);
#
# each into DIR/<run>/ (trajectory.csv, events.csv, summary.json as hdo
# writes them, and rc, stdout, stderr of the command), JOBS at a time
# (default 2), each run stopped after TIMEOUT seconds (default 900);
# ONLY, an extended regex, keeps the runs whose whole name matches it
# (ONLY='pendulum-d30|beam-.*': the runs a change can reach).
# `compare` then holds A and B against each other: the exit status, the
# list of files, trajectory.csv and events.csv byte for byte, summary.json
# byte for byte without its "seconds", "timing", "hdo_version" and
# "command_line" lines (the wall clock, and what names the binary and the
# output folder), stderr byte for byte, and stdout without its seconds
# and its output folder.  It prints one line per run that differs, with the first
# difference, and last "corpus-identical: N runs, N identical, N differ";
# exit 0 when every run of A is in B and identical.  A run that timed out
# (rc 124) in either folder differs: its output depends on the clock.
#
# The runs are independent processes; the whole set takes about ten
# minutes of CPU on this machine (the 40-digit references and the bowed
# string dominate).  Use it as
#   tools/corpus-identical.sh run build/hdo-before out/identical/before
#   ... the change, make ...
#   tools/corpus-identical.sh run build/hdo out/identical/after
#   tools/corpus-identical.sh compare out/identical/before out/identical/after
set -u
cd "$(dirname "$0")/.." || exit 2

# The cases run at 16 and 60 digits besides 30: one of each kind of
# transition (impacts with a Zeno limit, a DAE of index 3, Filippov
# sliding, sliding on an intersection, a stiff ODE, hysteresis, a KM
# fallback form).
OTHER_DIGITS_CASES="bouncing_ball pendulum filippov_spiral water_tanks
    stick_slip_belt_static robertson evaporator_hysteresis km_energy"
# tests/e2e/corpus_implicit.sh's cases (kept the same by hand).
IMPLICIT_CASES="bouncing_ball filippov_spiral water_tanks km_chattering
    boost_converter_ccm evaporator stick_slip stick_slip_belt_static
    stick_slip_hysteresis stick_slip_stick"

# The runs, one a line: NAME ARGS... (ARGS after `hdo run`, without -o).
list_runs() {
    local f c d dt name
    for f in cases/*.hdae; do
        c=$(basename "$f" .hdae)
        # pending cases (tests/corpus/pending.txt) take minutes to hours
        # at 30 digits: make check-heavy runs the heavy ones (D-099)
        grep -qE "^$c:" tests/corpus/pending.txt 2>/dev/null && continue
        echo "$c-d30 $f -d 30 --verify"
    done
    for d in 16 60; do
        for c in $OTHER_DIGITS_CASES; do
            echo "$c-d$d cases/$c.hdae -d $d --verify"
        done
    done
    for c in $IMPLICIT_CASES; do
        echo "$c-implicit cases/$c.hdae -d 30 --verify --method implicit"
    done
    while read -r name dt _; do
        [[ -z $name || $name == \#* ]] && continue
        grep -qE "^$name:" tests/corpus/pending.txt 2>/dev/null && continue
        echo "$name-ref cases/$name.hdae -d 40 --verify --every $dt"
    done <cases/references.txt
}

# summary.json without the lines that hold the clock or name the binary
# and the folder.
summary_filter() {
    grep -vE '^  "(seconds|timing|hdo_version|command_line)":' "$1"
}

# stdout of the run in folder $1 without its seconds and its folder.
stdout_filter() {
    sed -E -e 's/, [0-9.]+ s(,| ->)/, _ s\1/' -e 's/ -> [^ ]*$/ -> DIR/' "$1/stdout"
}

run_all() {
    local hdo=$1 dir=$2
    local jobs=${JOBS:-2} timeout=${TIMEOUT:-900}
    if [[ ! -x $hdo ]]; then
        echo "corpus-identical: $hdo is not an executable" >&2
        exit 2
    fi
    mkdir -p "$dir" || exit 2
    hdo=$(realpath "$hdo")
    export hdo dir timeout
    list_runs | grep -E "^(${ONLY:-.*}) " | xargs -P "$jobs" -L 1 bash -c '
        name=$1; shift
        out=$dir/$name
        rm -rf "$out"; mkdir -p "$out"
        timeout "$timeout" "$hdo" run "$@" -o "$out" \
            >"$out/stdout" 2>"$out/stderr" </dev/null
        echo $? >"$out/rc"
        echo "$name: rc $(cat "$out/rc")"
    ' _
}

compare_dirs() {
    local a=$1 b=$2 n=0 same=0 differ=0 name why f
    for run in "$a"/*/; do
        name=$(basename "$run")
        n=$((n + 1))
        why=""
        if [[ ! -d $b/$name ]]; then
            why="missing in $b"
        elif [[ $(cat "$a/$name/rc") == 124 || $(cat "$b/$name/rc") == 124 ]]; then
            why="timed out"
        elif ! cmp -s "$a/$name/rc" "$b/$name/rc"; then
            why="exit status $(cat "$a/$name/rc") vs $(cat "$b/$name/rc")"
        elif [[ $(ls "$a/$name") != $(ls "$b/$name") ]]; then
            why="files: $(ls "$a/$name" | tr '\n' ' ')vs $(ls "$b/$name" | tr '\n' ' ')"
        else
            for f in trajectory.csv events.csv stderr; do
                [[ -f $a/$name/$f ]] || continue
                if ! cmp -s "$a/$name/$f" "$b/$name/$f"; then
                    why="$f: $(cmp "$a/$name/$f" "$b/$name/$f" 2>&1 | head -n 1)"
                    break
                fi
            done
            if [[ -z $why && -f $a/$name/summary.json ]] &&
                ! cmp -s <(summary_filter "$a/$name/summary.json") \
                    <(summary_filter "$b/$name/summary.json"); then
                why="summary.json: $(diff <(summary_filter "$a/$name/summary.json") \
                    <(summary_filter "$b/$name/summary.json") | sed -n 2p)"
            fi
            if [[ -z $why ]] &&
                ! cmp -s <(stdout_filter "$a/$name") <(stdout_filter "$b/$name"); then
                why="stdout: $(diff <(stdout_filter "$a/$name") \
                    <(stdout_filter "$b/$name") | sed -n 2p)"
            fi
        fi
        if [[ -z $why ]]; then
            same=$((same + 1))
        else
            differ=$((differ + 1))
            echo "DIFFER $name: $why"
        fi
    done
    echo "corpus-identical: $n runs, $same identical, $differ differ"
    ((n > 0 && differ == 0))
}

case ${1:-} in
run)
    [[ $# == 3 ]] || { echo "usage: $0 run HDO DIR" >&2; exit 2; }
    run_all "$2" "$3"
    ;;
compare)
    [[ $# == 3 ]] || { echo "usage: $0 compare A B" >&2; exit 2; }
    compare_dirs "$2" "$3"
    ;;
list)
    list_runs
    ;;
*)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
