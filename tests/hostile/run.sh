#!/usr/bin/env bash
# run.sh -- the hostile-input corpus: every NAME.hdae here, and a few
# generated at run time (deep nesting, 10 MB expressions, 100000 modes,
# a missing file), must make `hdo analyze` exit with 2 and print, as the
# first line on stderr, exactly the line in NAME.expect (also /dev/zero
# and a file over the 64 MiB cap).  The numerical
# failures in run/ (domain errors, singular modes, inconsistent starts,
# chattering, Zeno, a collapsing step, too much work) are run with
# `hdo run` and matched against a regular expression (see below).
#
#   HDO=build/hdo tests/hostile/run.sh
#
# The .expect lines were written by hand from the contract
# (model-format.md) and the positions counted by hand, not copied from
# the program's output.  Prints "N passed, N failed" last; exits 1 on any
# failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
HDO=${HDO:-build/hdo}
case $HDO in /*) ;; *) HDO=$(pwd)/$HDO ;; esac
PY=/usr/bin/python3
TIME_LIMIT=${TIME_LIMIT:-60}   # seconds per case: a hang is a failure

passed=0
failed=0

# check DIR NAME EXPECTED-LINE [OPTIONS]: runs hdo analyze NAME inside DIR.
check() {
    local dir=$1 name=$2 want=$3 opts=${4:-} got rc err
    err=$(mktemp)
    # shellcheck disable=SC2086
    (cd "$dir" && timeout "$TIME_LIMIT" "$HDO" analyze "$name" $opts \
        >/dev/null 2>"$err")
    rc=$?
    got=$(head -n 1 "$err")
    rm -f "$err"
    if [ "$rc" -eq 2 ] && [ "$got" = "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name (exit $rc)"
        echo "  want: $want"
        echo "  got:  $got"
    fi
}

for f in "$here"/*.hdae; do
    name=$(basename "$f")
    exp="$here/${name%.hdae}.expect"
    if [ ! -f "$exp" ]; then
        failed=$((failed + 1))
        echo "FAIL $name: no ${name%.hdae}.expect"
        continue
    fi
    # a line "# options: ..." adds command-line options (-p)
    check "$here" "$name" "$(head -n 1 "$exp")" \
        "$(sed -n 's/^# options: //p' "$f")"
done

# Generated cases, in a scratch directory that is removed at the end.
gen=$(mktemp -d /tmp/hdo-hostile.XXXXXX)
trap 'rm -rf "$gen"' EXIT

$PY - "$gen" <<'EOF'
import sys
d = sys.argv[1]
tail = "\nvar x\nmode q\n  der(x) = 1\nend\nstart q\n"
def w(name, text):
    with open(f"{d}/{name}", "w") as f:
        f.write(text)
# 1001 nested parentheses: the 1001st '(' is at column 11 + 1000.
w("deep-parens.hdae", "model m\nparam a = " + "(" * 1001 + "1" + ")" * 1001 + tail)
# a million unclosed parentheses fail at the same place, at once
w("paren-flood.hdae", "model m\nparam a = " + "(" * 1000000 + tail)
# 1001 unary minus signs
w("deep-minus.hdae", "model m\nparam a = " + "-" * 1001 + "1" + tail)
# x^x^...: the 1001st '^' is at column 6 + 2*1001
w("deep-power.hdae", "model m\nvar x\nmode a\n  x = " + "x^" * 1001 + "x\nend\nstart a\n")
# 10 MB constant sum, folded as read; then no start: the error is at the end
w("huge-constant-sum.hdae", "model m\nparam p = 1" + "+1" * 5000000
  + "\nvar x\nmode q\n  der(x) = p\nend\n")
# 10 MB sum of variables: refused at the 10000th '+', column 12 + 4*10000 - 2
w("huge-variable-sum.hdae", "model m\nvar x\nmode a\n  der(x) = x"
  + "".join(" + t" if i % 2 else " + x" for i in range(1, 2500000))
  + "\nend\nstart a\n")
# 100000 modes in a ring, then a start of a mode that does not exist:
# line 2 + 4*100000 + 1
with open(f"{d}/modes-100k.hdae", "w") as f:
    f.write("model ring\nvar x = 0\n")
    n = 100000
    for i in range(n):
        f.write(f"mode m{i}\n  der(x) = {i + 1}\n  when x > {i + 1} goto m{(i + 1) % n} with x = 0\nend\n")
    f.write("start m100000\n")
EOF

deep="expression nested too deeply (more than 1000 levels of parentheses, signs and powers)"
check "$gen" deep-parens.hdae "deep-parens.hdae:2:1011: error: $deep"
check "$gen" paren-flood.hdae "paren-flood.hdae:2:1011: error: $deep"
check "$gen" deep-minus.hdae "deep-minus.hdae:2:1011: error: $deep"
check "$gen" deep-power.hdae "deep-power.hdae:4:2008: error: $deep"
check "$gen" huge-constant-sum.hdae \
    "huge-constant-sum.hdae:7:1: error: missing 'start MODE [at T0]': the model must name its initial mode"
check "$gen" huge-variable-sum.hdae \
    "huge-variable-sum.hdae:4:40010: error: expression too deep (more than 10000 nested operations; split long sums with parentheses)"
check "$gen" modes-100k.hdae \
    "modes-100k.hdae:400003:7: error: unknown mode 'm100000' after 'start'"
check "$gen" no-such-file.hdae \
    "no-such-file.hdae: error: cannot open: No such file or directory"
# /dev/zero and a file over the 64 MiB cap stop at once (they ate 8-16 GB)
check /dev zero "zero:1:1: error: NUL byte in the model file (is it a binary file?)"
$PY -c "
import sys
with open(sys.argv[1], 'w') as f:
    line = '# ' + 'x' * 61 + '\\n'
    f.write(line * (65 * 2**20 // 64 + 1))
" "$gen/over-64-mib.hdae"
check "$gen" over-64-mib.hdae \
    "over-64-mib.hdae: error: model file larger than 64 MiB, the most hdo reads"
rm -f "$gen/over-64-mib.hdae"

# Run-time failures (run/NAME.hdae): `hdo run --digits 30` must exit 2,
# its first stderr line must match the extended regular expression in
# run/NAME.expect, and the output folder must hold no trajectory.csv
# (nothing passed off as complete).  A line "# options: ..." in the model
# adds command-line options.
for f in "$here"/run/*.hdae; do
    name=$(basename "$f" .hdae)
    want=$(head -n 1 "$here/run/$name.expect" 2>/dev/null)
    opts=$(sed -n 's/^# options: //p' "$f")
    out="$gen/out-$name"
    err=$(mktemp)
    # shellcheck disable=SC2086
    (cd "$here/run" && timeout "$TIME_LIMIT" "$HDO" run "$name.hdae" \
        --digits 30 $opts -o "$out" >/dev/null 2>"$err")
    rc=$?
    got=$(head -n 1 "$err")
    rm -f "$err"
    if [ -z "$want" ]; then
        failed=$((failed + 1))
        echo "FAIL run/$name: no run/$name.expect"
    elif [ "$rc" -eq 2 ] && grep -Eq -- "$want" <<<"$got" &&
        [ ! -e "$out/trajectory.csv" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL run/$name (exit $rc$([ -e "$out/trajectory.csv" ] &&
            echo ', trajectory.csv left behind'))"
        echo "  want: $want"
        echo "  got:  $got"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
