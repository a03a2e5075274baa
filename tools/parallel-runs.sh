#!/usr/bin/env bash
# parallel-runs.sh -- many independent `hdo run` jobs with GNU parallel
# (Debian package `parallel`): a parameter sweep, a list of cases, or a
# job list, on this machine or on several over ssh.  Each job is
# tools/hdo-job.sh on one job line and writes its own output folder.
#
#   tools/parallel-runs.sh [options] --sweep NAME MODEL.hdae VALUE...
#   tools/parallel-runs.sh [options] --list JOBS.txt
#   tools/parallel-runs.sh [options] MODEL.hdae...
#
# A job line is `MODEL.hdae [NAME=VALUE ...]` (tools/hdo-job.sh: hdo runs
# the case with `-p NAME=VALUE`); --sweep makes one line per VALUE
# (`MODEL NAME=VALUE`), written to ROOT/jobs.txt (the same list serves
# tools/slurm/hdo-array.sbatch).
#
# Options:
#   -o ROOT      output root (default out/parallel); job folders
#                ROOT/<model>[_NAME=VALUE...], GNU parallel's job log
#                (one line per job: host, times, exit status) ROOT/joblog.tsv
#   -j N         jobs at once per machine (default: its CPU count)
#   -a 'ARGS'    extra `hdo run` arguments for every job (e.g. '-d 40')
#   --hdo PATH   the hdo binary (default build/hdo; on other machines: the
#                same path, or an installed `hdo` on their PATH)
#   -S LOGINS    GNU parallel's --sshlogin: machines to run on, e.g.
#                ':,4/alice@node1,node2' (':' is this machine, 4/ caps the
#                jobs there).  By default the machines share the
#                filesystem (NFS home, cluster scratch): the jobs run in
#                this directory's path there (--workdir .), hdo and the
#                models at the same paths.
#   --ssh CMD    GNU parallel's --ssh: the command that reaches the machines
#                (default ssh; e.g. 'ssh -p 2222'; rsync uses it too)
#   --transfer   with -S, for machines without a shared filesystem: each
#                job's model file is copied there (--transferfile), the job
#                runs in ~/.parallel/tmp-like scratch (--workdir ...) with
#                its -p options (the job folder's hdo.args, sent too), its
#                outputs come back (--return) and are removed there
#                (--cleanup).  Job folders are prepared here first.  hdo
#                must be installed on the remote PATH (or --hdo a path
#                valid there); ssh must work without a password.
#
# Exit status: 0 when every job succeeded, else GNU parallel's (the number
# of failed jobs, up to 100), after printing the failed job lines.  With
# --transfer, a job whose summary.json did not come back counts as failed.
#
# Example: 5 restitution coefficients of the bouncing ball, 40 digits, up to
# t = 10 (the Zeno point of e = 0.9 is 8.58):
#   tools/parallel-runs.sh -o out/sweep -a '-d 40 --until 10' \
#       --sweep e cases/bouncing_ball.hdae 0.5 0.6 0.7 0.8 0.9
# on two machines sharing the filesystem, 8 jobs each:
#   tools/parallel-runs.sh -S 8/node1,8/node2 -o out/sweep ... (as above)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=out/parallel
jobs=
hdo_args=
hdo=build/hdo
logins=
transfer=0
ssh_cmd=
list=
sweep=
models=()
values=()

usage() {
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit "${1:-2}"
}

while (($#)); do
    case $1 in
    -o) root=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -a) hdo_args=$2; shift 2 ;;
    --hdo) hdo=$2; shift 2 ;;
    -S) logins=$2; shift 2 ;;
    --transfer) transfer=1; shift ;;
    --ssh) ssh_cmd=$2; shift 2 ;;
    --list) list=$2; shift 2 ;;
    --sweep) sweep=$2; shift 2 ;;
    -h | --help) usage 0 ;;
    -*) echo "parallel-runs: unknown option $1" >&2; usage ;;
    *) if [[ -n $sweep && ${#models[@]} == 1 ]]; then values+=("$1");
       else models+=("$1"); fi; shift ;;
    esac
done
command -v parallel >/dev/null || {
    echo "parallel-runs: GNU parallel is not installed (apt-get install parallel)" >&2
    exit 2
}
mkdir -p "$root" || exit 2

# The job list.
jobfile=$root/jobs.txt
if [[ -n $list ]]; then
    [[ -f $list ]] || { echo "parallel-runs: no job list '$list'" >&2; exit 2; }
    [[ $list -ef $jobfile ]] || cp "$list" "$jobfile"
elif [[ -n $sweep ]]; then
    ((${#models[@]} == 1 && ${#values[@]} > 0)) || usage
    for v in "${values[@]}"; do echo "${models[0]} $sweep=$v"; done >"$jobfile"
else
    ((${#models[@]} > 0)) || usage
    printf '%s\n' "${models[@]}" >"$jobfile"
fi

opts=(--will-cite --joblog "$root/joblog.tsv" --line-buffer --tag)
[[ -n $jobs ]] && opts+=(-j "$jobs")
[[ -n $ssh_cmd ]] && opts+=(--ssh "$ssh_cmd")
if [[ -z $logins ]]; then
    parallel "${opts[@]}" -q -a "$jobfile" \
        "$here/hdo-job.sh" -o "$root" --hdo "$hdo" -a "$hdo_args"
elif ((transfer == 0)); then
    # shared filesystem: the same absolute paths everywhere
    parallel "${opts[@]}" -q -S "$logins" --workdir . -a "$jobfile" \
        "$here/hdo-job.sh" -o "$root" --hdo "$hdo" -a "$hdo_args"
else
    # no shared filesystem: make the sweep variants here, send each model
    # file, run, bring the folder's files back.  The remote side runs hdo
    # directly (hdo-job.sh is not needed there).
    if [[ ,$logins, =~ ,([0-9]+/)?:, ]]; then
        echo "parallel-runs: --transfer is for other machines: run this one" \
             "(':') without it" >&2
        exit 2
    fi
    vlist=$root/jobs.transfer.txt
    : >"$vlist"
    while read -r -a w; do
        ((${#w[@]})) && [[ ${w[0]} != \#* ]] || continue
        "$here/hdo-job.sh" -n -o "$root" "${w[*]}" >>"$vlist" || exit 2
    done <"$jobfile"
    parallel "${opts[@]}" -S "$logins" --workdir ... --transferfile {} \
        --transferfile {//}/hdo.args \
        --return {//}/trajectory.csv --return {//}/events.csv \
        --return {//}/summary.json --return {//}/hdo.log --cleanup \
        -a "$vlist" \
        "'$hdo' run {} -o {//} $hdo_args \$(cat {//}/hdo.args) >{//}/hdo.log 2>&1"
fi
rc=$?
if ((rc != 0)); then
    echo "parallel-runs: $rc job(s) failed (exit status in $root/joblog.tsv):" >&2
    awk -F'\t' 'NR > 1 && $7 != 0 { print "  " $9 }' "$root/joblog.tsv" >&2
elif ((transfer)); then
    # A remote job can end with status 0 and still bring nothing back (a
    # remote shell that did not run it, an rsync that failed): a folder
    # without its summary.json is a failed job, not a finished one.
    lost=0
    while read -r model; do
        [[ -s $(dirname "$model")/summary.json ]] && continue
        echo "parallel-runs: no summary.json came back for $model" >&2
        lost=$((lost + 1))
    done <"$vlist"
    rc=$((lost > 100 ? 100 : lost))
fi
exit $rc
