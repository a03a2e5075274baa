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
# point: a copy of the model with each `param NAME = ...` line replaced by
# `param NAME = VALUE` (VALUE is model-language text, e.g. 0.7 or 7/10;
# an unknown NAME is an error) goes to ROOT/<base>_NAME=VALUE.../model.hdae
# and runs from there.  Either way the folder receives hdo's
# trajectory.csv, events.csv and summary.json, and hdo.log (hdo's output
# and messages).  The exit status is hdo's (2 for a failed run, which
# leaves hdo.log only), or 64 for a bad job line.
#
# -a gives extra `hdo run` arguments as one word (e.g. -a '-d 40 --verify';
# default $HDO_RUN_ARGS); -o an output root (default out/jobs); --hdo the
# binary (default $HDO, else build/hdo).  -n only prepares the folder:
# it writes the job's model to ROOT/<folder>/model.hdae (the case itself
# when there are no pairs), prints that path and does not run hdo (for
# tools/parallel-runs.sh --transfer, which runs hdo remotely).  Blank lines and lines starting
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
for kv in "${words[@]:1}"; do
    if [[ ! $kv =~ ^[A-Za-z_][A-Za-z0-9_]*=[^[:space:]/]+$ ]]; then
        echo "hdo-job: '$kv' is not NAME=VALUE (no spaces or slashes)" >&2
        exit 64
    fi
    dir+="_$kv"
done
mkdir -p "$dir" || exit 64
if ((${#words[@]} > 1)); then
    cp "$model" "$dir/model.hdae.tmp"
    for kv in "${words[@]:1}"; do
        name=${kv%%=*}
        value=${kv#*=}
        if ! grep -qE "^[[:space:]]*param[[:space:]]+$name[[:space:]]*=" "$dir/model.hdae.tmp"; then
            echo "hdo-job: $model has no 'param $name = ...' line" >&2
            rm -f "$dir/model.hdae.tmp"
            exit 64
        fi
        sed -i -E "s|^([[:space:]]*param[[:space:]]+$name[[:space:]]*=).*|\\1 $value  # sweep point|" \
            "$dir/model.hdae.tmp"
    done
    mv "$dir/model.hdae.tmp" "$dir/model.hdae"
    model=$dir/model.hdae
elif ((prepare)); then
    cp "$model" "$dir/model.hdae" || exit 64
    model=$dir/model.hdae
fi
if ((prepare)); then
    echo "$model"
    exit 0
fi
"$hdo" run "$model" -o "$dir" "${extra[@]}" >"$dir/hdo.log" 2>&1
rc=$?
echo "$(tail -n 1 "$dir/hdo.log")"
echo "exit status $rc" >>"$dir/hdo.log"
exit $rc
