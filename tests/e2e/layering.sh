#!/usr/bin/env bash
# layering.sh -- tools/check-layering on two small fake trees, so that the
# checker is tested on both sides (tests/layering/):
#
#   good/  three modules whose files only include and call downwards, one
#          circle of two files that its allow-list names (a state machine),
#          and the traps a reader of tokens falls into: a static function,
#          a local variable and a struct member named like a global
#          function of the module above, a call made by a macro and one
#          made by a static inline function of a header.  Expected: exit
#          0; without the allow-list, exit 1 naming that one circle.
#   bad/   a circle of two files, a circle through the parser's renaming
#          macros (#define walk(...) mid_p_walk(__VA_ARGS__)), a call up
#          the order and one hidden in a macro, an include of another
#          module's private header and a call of a function that only that
#          header declares, and a file of no module.  Expected: exit 1,
#          each of them named.
#
# Then the refusals (exit 2): a module listed twice in the order, and an
# allowed circle that spans two modules.  Nothing is built or run but the
# checker; the real tree is not checked here (make layering does that).
set -u
. "$(dirname "$0")/common.bash" # cd to the top, PY, scratch $tmp

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL layering: $*"
}

# layer NAME WANT_EXIT TREE [ARGS...]: runs the checker on tests/layering/TREE
# with its order file (and allow-list unless ARGS name one); sets $out.
layer() {
    local name=$1 want=$2 tree=tests/layering/$3 rc
    shift 3
    out=$("$PY" tools/check-layering --root "$tree" --order "$tree/order.txt" "$@" 2>&1)
    rc=$?
    if [[ $rc -ne $want ]]; then
        bad "$name: exit $rc, expected $want"
        printf '%s\n' "$out" | head -n 30 | sed 's/^/    /'
        return 1
    fi
    ok
}

# has NAME LINE: the last output holds LINE (a fixed string).
has() {
    if grep -qF -- "$2" <<<"$out"; then
        ok
    else
        bad "$1: no line '$2' in"
        printf '%s\n' "$out" | head -n 30 | sed 's/^/    /'
    fi
}

# lacks NAME TEXT: the last output does not hold TEXT.
lacks() {
    if grep -qF -- "$2" <<<"$out"; then
        bad "$1: '$2' should not be reported"
        printf '%s\n' "$out" | head -n 30 | sed 's/^/    /'
    else
        ok
    fi
}

good_allow=(--allow tests/layering/good/allow.txt)

# the clean tree passes
layer good 0 good "${good_allow[@]}" &&
    has good-summary "0 circles, 0 upward, 0 private, 0 unplaced -- ok"

# its arrows, as --graph prints them: include folders, macros, inline
# functions; namesakes drawn as nothing
layer good-graph 0 good "${good_allow[@]}" --graph
has graph-include-dir "include	app/main.c	ref/top.h"
has graph-macro "call	ref/top/enter.c	ref/base/fail.c	base_fail (via BASE_CHECK)"
has graph-inline "call	ref/top/step.c	ref/base/add.c	base_add (via base_twice)"
lacks graph-namesakes "ref/base/add.c	ref/top/"

# without its allow-list, the state machine's circle is reported, and only it
layer good-unallowed 1 good --allow /dev/null &&
    has unallowed-circle "circle 1: 2 files (top): ref/top/enter.c ref/top/leave.c"
lacks unallowed-only-one "circle 2"

# an allowed circle that is none is a note, not a failure
{ cat tests/layering/good/allow.txt; echo "circle ref/top/step.c ref/top/enter.c"; } >"$tmp/stale.txt"
layer allow-stale 0 good --allow "$tmp/stale.txt" &&
    has allow-stale-note "stale.txt:4: this allowed circle is no circle today"

# the faulty tree: every fault named
layer bad 1 bad --allow /dev/null
has bad-circle "circle 1: 2 files (base): ref/base/x.c ref/base/y.c"
has bad-circle-edge "ref/base/x.c -> ref/base/y.c: base_y"
has bad-renamed "circle 2: 2 files (mid): ref/mid/turn.c ref/mid/walk.c"
has bad-upward "base -> top (top is above base):"
has bad-upward-call "ref/base/up.c -> ref/top/run.c: top_hook (via BASE_HOOK), top_run"
has bad-private "ref/top/run.c:3 includes ref/base/internal.h, private to base"
has bad-internal "ref/top/run.c -> ref/base/x.c: base_secret (declared in no public header of base)"
has bad-unplaced "unplaced: ref/stray/stray.c is in no module"
has bad-summary "2 circles, 1 upward, 2 private, 1 unplaced -- FAIL"

# one header, the public face of two layers (ref/check.h of check/formats,
# check/judge and check/report): a call from the upper layer's caller to
# a function it declares is public when the order names the header on
# both lines, and internal when only the lower line names it
fc=$tmp/faces
mkdir -p "$fc/ref/low" "$fc/ref/high" "$fc/app"
printf 'int low_f(void);\nint high_f(void);\n' >"$fc/ref/low.h"
printf '#include "low.h"\nint low_f(void) { return 1; }\n' >"$fc/ref/low/a.c"
printf '#include "low.h"\nint high_f(void) { return low_f(); }\n' >"$fc/ref/high/b.c"
printf '#include "low.h"\nint main(void) { return high_f(); }\n' >"$fc/app/main.c"
printf 'low ref/low.h ref/low/\nhigh ref/low.h ref/high/\napp app/\n' >"$fc/order.txt"
out=$("$PY" tools/check-layering --root "$fc" --order "$fc/order.txt" --allow /dev/null 2>&1)
[[ $? -eq 0 ]] && ok || bad "faces: exit not 0: $out"
printf 'low ref/low.h ref/low/\nhigh ref/high/\napp app/\n' >"$fc/order1.txt"
out=$("$PY" tools/check-layering --root "$fc" --order "$fc/order1.txt" --allow /dev/null 2>&1)
grep -q "app/main.c -> ref/high/b.c: high_f (declared in no public header of high)" <<<"$out" && ok ||
    bad "faces-one-line: $out"

# refusals
cp tests/layering/good/order.txt "$tmp/twice.txt"
echo "base ref/base2/" >>"$tmp/twice.txt"
layer order-twice 2 good --order "$tmp/twice.txt" && has order-twice-msg "module base listed twice"
echo "circle ref/top/enter.c ref/base/add.c" >"$tmp/wide.txt"
layer allow-two-modules 2 good --allow "$tmp/wide.txt" &&
    has allow-two-modules-msg "an allowed circle lies inside one module"

echo "layering: $passed passed, $failed failed"
((failed == 0))
