# check_common.bash -- counters and `expect` for the hdo check e2e scripts
# (check_dialects.sh, check_mat.sh, check_trust.sh); sourced after
# common.bash, which sets HDO and tmp.
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

# expect NAME EXIT PATTERN -- ARGS: runs hdo check ARGS and wants the exit
# code EXIT and an output line matching the extended regex PATTERN.
expect() {
    local name=$1 want=$2 pat=$3 out rc
    shift 4
    out=$("$HDO" check "$@" 2>&1)
    rc=$?
    if [[ $rc -ne $want ]]; then
        bad "$name: exit $rc, expected $want"
        printf '%s\n' "$out" | head -n 30 | sed 's/^/    /'
    elif ! grep -qE -- "$pat" <<<"$out"; then
        bad "$name: output does not match /$pat/"
        printf '%s\n' "$out" | head -n 30 | sed 's/^/    /'
    else
        ok
    fi
}

# write_xy_model FILE: x' = -x, y' = x from (1, 0) on [0, 1], whose closed
# form x = e^-t, y = 1 - e^-t the candidates of the check tests are
# written from.
write_xy_model() {
    cat >"$1" <<'M'
model xy
var x = 1
var y = 0
mode m
  der(x) = -x
  der(y) = x
end
start m at 0
until 1
M
}
