#!/usr/bin/env bash
# kinds_adapters.sh -- the SciPy adapter's map of builtin functions
# (tools/scipy/hdo_scipy.py, FUNCS) names exactly the functions of hdo's
# table of expression kinds (ref/expr.h, the CALL rows), so that adding a
# builtin to hdo without teaching the adapter fails here.
#
# hdo's side comes from hdo itself: the message on an unknown function
# lists the table's functions.  Each of them must also parse as a call
# of one argument (param p = NAME(1/2)), and a name that is no function
# must not.  The adapter's side is read from its source (ast, no import,
# so no SciPy is needed).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fail() { echo "FAIL kinds_adapters: $*"; exit 1; }
model() { # model FILE EXPR: a one-variable model with param p = EXPR
    printf 'model k\nparam p = %s\nvar x = 0\nmode m\n  der(x) = p\nend\nstart m at 0\nuntil 1\n' "$2" >"$1"
}

model "$tmp/unknown.hdae" "nosuchfunction(1)"
"$HDO" analyze "$tmp/unknown.hdae" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "unknown function: exit $rc, expected 2"
hdo_list=$(sed -n "s/.*unknown function 'nosuchfunction' (the functions are \(.*\), and sum(.*/\1/p" "$tmp/out")
[ -n "$hdo_list" ] || fail "no function list in: $(head -n 1 "$tmp/out")"

n=0
for f in $hdo_list; do
    model "$tmp/f.hdae" "$f(1/2)"
    "$HDO" analyze "$tmp/f.hdae" >"$tmp/fo" 2>&1 ||
        fail "$f(1/2) refused: $(head -n 1 "$tmp/fo")"
    model "$tmp/f2.hdae" "$f(1/2, 1/3)"
    "$HDO" analyze "$tmp/f2.hdae" >"$tmp/fo" 2>&1
    rc=$?
    [ "$rc" -eq 2 ] && grep -q "'$f' takes 1 argument, found 2" "$tmp/fo" ||
        fail "$f with two arguments: exit $rc, $(head -n 1 "$tmp/fo")"
    n=$((n + 1))
done

py_list=$("$PY" - <<'PY'
import ast
src = open("tools/scipy/hdo_scipy.py").read()
for node in ast.parse(src).body:
    if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "FUNCS" for t in node.targets):
        print(" ".join(sorted(ast.literal_eval(node.value))))
PY
)
hdo_sorted=$(printf '%s\n' $hdo_list | sort | tr '\n' ' ' | sed 's/ $//')
[ "$py_list" = "$hdo_sorted" ] ||
    fail "hdo_scipy.py FUNCS ($py_list) differs from hdo's table ($hdo_sorted)"
echo "PASS kinds_adapters: hdo's $n builtin functions each parse with one argument and refuse two; hdo_scipy.py maps exactly these"
