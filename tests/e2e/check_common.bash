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
