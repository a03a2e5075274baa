#!/usr/bin/env bash
# hdo-job.sh -- one independent `hdo run` job: the unit of work that
# tools/parallel-runs.sh (GNU parallel) and tools/slurm/hdo-array.sbatch
# (a Slurm job array) distribute.  There is no distribution layer of
# hdo's own: a job is a job-list line, run by this script.
#
#   tools/hdo-job.sh [-o ROOT] [--hdo PATH] [-a 'HDO RUN ARGS'] [-n] LINE
#
# LINE is one line of a job list (it may also come as several words):
#
#   MODEL.hdae [NAME=VALUE ...]
#
# Without NAME=VALUE pairs the case runs as it is, into ROOT/<base>, where
# <base> is the file name without .hdae.  With them the job is a sweep
# point: hdo runs the case with `-p NAME=VALUE` for each pair (VALUE an
# exact decimal such as 0.7; hdo also takes 7/10, but a folder name cannot
# hold the slash; a NAME that is no parameter of the model is hdo's error,
# exit 2), into ROOT/<base>_NAME=VALUE..., which also receives a copy of
# the case (model.hdae, unchanged) and the -p options (hdo.args); hdo's
# summary.json lists them under "overrides" (and every value under "parameters").  Either way the folder
# receives hdo's trajectory.csv, events.csv and summary.json, and hdo.log
# (hdo's output and messages).  The exit status is hdo's (2 for a failed
# run, which leaves hdo.log only), or 64 for a bad job line.
#
# -a gives extra `hdo run` arguments as one word (e.g. -a '-d 40 --verify';
# default $HDO_RUN_ARGS); -o an output root (default out/jobs); --hdo the
# binary (default $HDO, else build/hdo).  -n only prepares the folder:
# it copies the case to ROOT/<folder>/model.hdae and writes the -p options
# to ROOT/<folder>/hdo.args (empty when there are no pairs), prints the
# model's path and does not run hdo (for tools/parallel-runs.sh
# --transfer, which sends both files and runs hdo remotely).  Blank lines and lines starting
# with # are no-ops (exit 0).
set -u
root=out/jobs
hdo=${HDO:-build/hdo}
read -r -a extra <<<"${HDO_RUN_ARGS:-}"
words=()
prepare=0
while (($#)); do
    case $1 in
    -o) root=$2; shift 2 ;;
    --hdo) hdo=$2; shift 2 ;;
    -a) read -r -a extra <<<"$2"; shift 2 ;;
    -n) prepare=1; shift ;;
    *) read -r -a w <<<"$1"; words+=("${w[@]}"); shift ;;
    esac
done
if ((${#words[@]} == 0)) || [[ ${words[0]} == \#* ]]; then
    exit 0
fi
model=${words[0]}
if [[ ! -f $model ]]; then
    echo "hdo-job: no model file '$model'" >&2
    exit 64
fi
base=$(basename "$model" .hdae)
dir=$root/$base
pargs=()
for kv in "${words[@]:1}"; do
    if [[ ! $kv =~ ^[A-Za-z_][A-Za-z0-9_.]*=[^[:space:]/]+$ ]]; then
        echo "hdo-job: '$kv' is not NAME=VALUE (no spaces or slashes)" >&2
        exit 64
    fi
    dir+="_$kv"
    pargs+=(-p "$kv")
done
mkdir -p "$dir" || exit 64
if ((${#words[@]} > 1 || prepare)); then
    # the case itself, for the record (and to send with --transfer); the
    # sweep values go to hdo as -p options, the file is not rewritten
    if ! [[ $model -ef $dir/model.hdae ]]; then
        cp "$model" "$dir/model.hdae" || exit 64
    fi
    echo "${pargs[*]}" >"$dir/hdo.args" || exit 64
    model=$dir/model.hdae
fi
if ((prepare)); then
    echo "$model"
    exit 0
fi
"$hdo" run "$model" -o "$dir" "${extra[@]}" "${pargs[@]}" >"$dir/hdo.log" 2>&1
rc=$?
echo "$(tail -n 1 "$dir/hdo.log")"
echo "exit status $rc" >>"$dir/hdo.log"
exit $rc
