#!/usr/bin/env bash
# run_parallel_sweep.sh -- the distribution recipes for real: a GNU parallel
# sweep of the bouncing ball's restitution e = 0.5, 0.6, 0.7, 0.8, 0.9
# (tools/parallel-runs.sh, 5 jobs, 30 digits, until t = 10: the Zeno
# point of e = 0.9 is 8.58), the same sweep points in the
# --sshlogin forms (shared filesystem with this machine as ':', and
# --transfer to two "machines" reached through an ssh stand-in that runs
# the command in another folder here, so the model files and outputs
# really travel by rsync), and the Slurm array script run by hand with
# SLURM_ARRAY_TASK_ID set (no sbatch here).
#
# Checks: every job folder is complete (model.hdae, the case unchanged,
# summary.json with "overrides": {"e": VALUE} from -p, trajectory.csv, events.csv, a summary.json that parses with the timing
# record, hdo.log), GNU parallel's job log has every job with exit 0, and
# the Zeno time of each ball agrees with the closed form t1 (1 + e)/(1 - e),
# t1 = sqrt(2 h0/g) (h0 = 1, g = 9.81; mpmath at 50 digits) to 25 digits;
# the other forms' events.csv are identical to the local sweep's; a
# --transfer remote that runs nothing makes parallel-runs.sh fail and name
# the job whose outputs did not come back.
set -u
cd "$(dirname "$0")/../.."
HDO=${HDO:-build/hdo}
PY=${HDO_PYTHON:-/usr/bin/python3}
case $HDO in /*) ;; *) HDO=$PWD/$HDO ;; esac
if ! command -v parallel >/dev/null; then
    echo "SKIP parallel_sweep: GNU parallel is not installed (make deps)"
    exit 0
fi
# Scratch under build/, not /tmp: the ssh stand-in below is a script that
# must be executable, and CI machines may mount /tmp noexec.
mkdir -p build
tmp=$(mktemp -d "$PWD/build/parallel-sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# what a failure needs to be understood from a CI log: the tool's log, GNU
# parallel's job log, and each job's hdo.log
explain() { # LOG ROOT
    echo "--- $1:"
    tail -n 30 "$1"
    if [[ -f $2/joblog.tsv ]]; then
        echo "--- $2/joblog.tsv:"
        cat "$2/joblog.tsv"
    fi
    local l
    for l in "$2"/*/hdo.log; do
        [[ -f $l ]] && { echo "--- $l:"; tail -n 5 "$l"; }
    done
}
values=(0.5 0.6 0.7 0.8 0.9)

# 1. the local sweep
if ! tools/parallel-runs.sh -o "$tmp/local" -a '-d 30 --until 10' --hdo "$HDO" \
    --sweep e cases/bouncing_ball.hdae "${values[@]}" >"$tmp/local.log" 2>&1; then
    echo "FAIL parallel_sweep: parallel-runs.sh failed"
    explain "$tmp/local.log" "$tmp/local"
    exit 1
fi
res=$("$PY" - "$tmp/local" "${values[@]}" <<'PYEOF'
import csv, json, os, sys
from mpmath import mp, mpf, sqrt, log10, fabs
root, values = sys.argv[1], sys.argv[2:]
mp.dps = 50
g, h0 = mpf('9.81'), mpf(1)
t1 = sqrt(2 * h0 / g)
log = list(csv.DictReader(open(os.path.join(root, 'joblog.tsv')), delimiter='\t'))
if len(log) != len(values) or any(r['Exitval'] != '0' for r in log):
    print('job log: %d jobs, exit values %s' % (len(log), [r['Exitval'] for r in log]))
    sys.exit(1)
worst = None
for v in values:
    d = os.path.join(root, 'bouncing_ball_e=' + v)
    for f in ('model.hdae', 'trajectory.csv', 'events.csv', 'summary.json', 'hdo.log'):
        if not os.path.isfile(os.path.join(d, f)) or os.path.getsize(os.path.join(d, f)) == 0:
            print('%s: no %s' % (d, f)); sys.exit(1)
    # the sweep value reaches hdo as -p e=VALUE (the case file is copied
    # unchanged) and summary.json records it
    if open(os.path.join(d, 'model.hdae')).read() != open('cases/bouncing_ball.hdae').read():
        print('%s/model.hdae is not the case' % d); sys.exit(1)
    s = json.load(open(os.path.join(d, 'summary.json')))
    if s.get('overrides') != {'e': v}:
        print('%s/summary.json: overrides %s, expected e = %s' % (d, s.get('overrides'), v)); sys.exit(1)
    if s['digits'] != 30 or 'total_s' not in s.get('timing', {}):
        print('%s/summary.json: digits %s, timing %s' % (d, s['digits'], s.get('timing'))); sys.exit(1)
    z = [r for r in csv.DictReader(open(os.path.join(d, 'events.csv'))) if r['kind'] == 'zeno']
    if len(z) != 1:
        print('e = %s: %d zeno events' % (v, len(z))); sys.exit(1)
    e = mpf(v)
    tz = t1 * (1 + e) / (1 - e)
    err = fabs(mpf(z[0]['time']) - tz) / tz
    dig = 50 if err == 0 else int(-log10(err))
    if dig < 25:
        print('e = %s: zeno at %s, closed form %s: %d digits' % (v, z[0]['time'], mp.nstr(tz, 30), dig))
        sys.exit(1)
    worst = dig if worst is None else min(worst, dig)
print(worst)
PYEOF
)
if [[ $? -ne 0 ]]; then
    echo "FAIL parallel_sweep: ${res:-checker crashed}"
    exit 1
fi
figures="${#values[@]} jobs, zeno times to >= $res digits"

same_events() { # ROOT: every folder's events.csv as the local sweep's
    local d
    for v in "$@"; do
        d=bouncing_ball_e=$v
        cmp -s "$root/$d/events.csv" "$tmp/local/$d/events.csv" &&
            [[ -s $root/$d/summary.json && -s $root/$d/trajectory.csv ]] || {
            echo "$root/$d differs from the local sweep or is incomplete"
            return 1
        }
    done
}

# 2. --sshlogin with this machine (':'), shared filesystem
root=$tmp/ssh_shared
if ! tools/parallel-runs.sh -S 2/: -o "$root" -a '-d 30 --until 10' --hdo "$HDO" \
    --sweep e cases/bouncing_ball.hdae 0.5 0.9 >"$tmp/shared.log" 2>&1 ||
    ! msg=$(same_events 0.5 0.9); then
    echo "FAIL parallel_sweep: -S 2/: ${msg:-parallel-runs.sh failed}"
    explain "$tmp/shared.log" "$root"
    exit 1
fi
figures+="; -S : ok"

# 3. --transfer to two machines through an ssh stand-in (needs rsync)
if command -v rsync >/dev/null; then
    mkdir -p "$tmp/remote"
    cat >"$tmp/fakessh" <<EOF
#!/bin/bash
# ssh stand-in: drops the options and the host, runs the command in
# $tmp/remote (the "remote home"), as ssh would in the home folder
while [[ \${1:-} == -* ]]; do case \$1 in -l|-p|-o) shift 2;; *) shift;; esac; done
shift
[[ \${1:-} == -- ]] && shift
cd "$tmp/remote" || exit 255
# sshd gives the command a login environment with SHELL set; GNU parallel's
# remote wrapper runs the job with \$SHELL, and CI may run us without it
export SHELL=/bin/bash
exec bash -c "\$*"
EOF
    chmod +x "$tmp/fakessh"
    root=ssh_transfer # relative: it is recreated under the remote workdir
    if ! (cd "$tmp" && "$OLDPWD/tools/parallel-runs.sh" --transfer \
        --ssh "bash $tmp/fakessh" -S 1/nodeA,1/nodeB -o "$root" -a '-d 30 --until 10' \
        --hdo "$HDO" --sweep e "$OLDPWD/cases/bouncing_ball.hdae" 0.6 0.8) \
        >"$tmp/transfer.log" 2>&1; then
        echo "FAIL parallel_sweep: --transfer: parallel-runs.sh failed"
        explain "$tmp/transfer.log" "$tmp/ssh_transfer"
        exit 1
    fi
    root=$tmp/ssh_transfer
    if ! msg=$(same_events 0.6 0.8); then
        echo "FAIL parallel_sweep: --transfer: $msg"
        explain "$tmp/transfer.log" "$root"
        exit 1
    fi
    if [[ -n $(find "$tmp/remote" -name '*.csv') ]]; then
        echo "FAIL parallel_sweep: --transfer left files on the remote side"
        exit 1
    fi
    hosts=$(awk -F'\t' 'NR > 1 { print $2 }' "$root/joblog.tsv" | sort -u | tr '\n' ' ')
    figures+="; --transfer ok (hosts ${hosts% })"
    # a remote whose shell runs nothing (GNU parallel's wrapper without
    # SHELL): every job ends with status 0 and brings nothing back, which
    # parallel-runs.sh must report as failed, not as a finished sweep
    sed 's/^export SHELL=.*/unset SHELL/' "$tmp/fakessh" >"$tmp/deadssh"
    if (cd "$tmp" && "$OLDPWD/tools/parallel-runs.sh" --transfer \
        --ssh "bash $tmp/deadssh" -S 1/nodeA -o lost -a '-d 30 --until 10' \
        --hdo "$HDO" --sweep e "$OLDPWD/cases/bouncing_ball.hdae" 0.6) \
        >"$tmp/lost.log" 2>&1; then
        echo "FAIL parallel_sweep: --transfer with a remote that runs nothing exits 0"
        explain "$tmp/lost.log" "$tmp/lost"
        exit 1
    fi
    if ! grep -q "no summary.json came back for lost/bouncing_ball_e=0.6" "$tmp/lost.log"; then
        echo "FAIL parallel_sweep: --transfer with a remote that runs nothing: no message"
        explain "$tmp/lost.log" "$tmp/lost"
        exit 1
    fi
    figures+=", lost outputs reported"
else
    figures+="; --transfer skipped (no rsync)"
fi

# 4. the Slurm array script, by hand
sb=tools/slurm/hdo-array.sbatch
if ! bash -n "$sb"; then
    echo "FAIL parallel_sweep: $sb: bash -n"
    exit 1
fi
list=$tmp/local/jobs.txt
if ! "$sb" "$list" "$tmp/slurm" | grep -q -- "--array=1-${#values[@]} "; then
    echo "FAIL parallel_sweep: $sb without an index does not print --array=1-${#values[@]}"
    exit 1
fi
root=$tmp/slurm
for id in 1 ${#values[@]}; do
    if ! SLURM_ARRAY_TASK_ID=$id HDO=$HDO HDO_RUN_ARGS='-d 30 --until 10' "$sb" "$list" \
        "$root" >"$tmp/slurm$id.log" 2>&1; then
        echo "FAIL parallel_sweep: $sb task $id"
        explain "$tmp/slurm$id.log" "$root"
        exit 1
    fi
done
if ! msg=$(same_events "${values[0]}" "${values[-1]}"); then
    echo "FAIL parallel_sweep: slurm: $msg"
    exit 1
fi
if SLURM_ARRAY_TASK_ID=$((${#values[@]} + 1)) "$sb" "$list" "$root" >/dev/null 2>&1; then
    echo "FAIL parallel_sweep: $sb accepts an index past the list"
    exit 1
fi
figures+="; slurm tasks 1 and ${#values[@]} by hand ok"
echo "PASS parallel_sweep: $figures"
