#!/usr/bin/env bash
# readme_tutorial.sh -- the README's tutorial as a new user runs it: a
# clean copy of this checkout (its tracked and new files, no build/), built
# and installed as the Quick start says for one user (make install
# PREFIX=$HOME/.local, HOME a scratch folder), then in an empty folder of
# the user's the files and commands of "Check your solver in five
# minutes", taken from README.md itself: ball.hdae, ball.py, `python3
# ball.py`, the `$ hdo check ...` line run with `hdo` from the PATH, whose
# output must be the one the README shows; the same line with build/hdo
# in the checkout; and the Python block of "From Python: import hdo",
# run by python3 with the installed module, printing what its comments say;
# and the `$ hdo ref ...` block of "Regression tests of your own models"
# (write, compare passing, a changed parameter failing with exit 1),
# every output as shown.
#
# How the shown output is compared: line by line, word by word, exactly,
# except where the README cannot know the figure -- the seconds of the
# reference run; the time and file line where the largest error lies;
# error figures below 1e-9 (the candidate's rounding, which depends on the
# BLAS under SciPy), which must stay below 1e-9; other numbers to a
# relative 1e-12 (hdo's own are identical; SciPy's event times may differ
# in their last bits); the `...` of the summary line, which leaves fields out.
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fail() {
    echo "FAIL readme_tutorial: $*"
    exit 1
}
src=$tmp/src
export HOME=$tmp/home
mkdir -p "$src" "$HOME" "$tmp/user"
# the checkout as a clone would have it (git's tracked files, plus the
# new files not ignored), without build/ and out/
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard |
        xargs -0 -I{} sh -c '[ -e "{}" ] && printf "%s\0" "{}"' |
        tar --null -T - -cf - | tar -xf - -C "$src" || fail "copying the checkout"
else
    tar --exclude=./build --exclude=./out -cf - . | tar -xf - -C "$src" || fail "copying the checkout"
fi
start=$(date +%s)
# a make of its own, not the caller's (its jobserver, SAN=1, LSan options)
if ! (cd "$src" && env -u MAKEFLAGS -u MFLAGS -u SAN -u LSAN_OPTIONS -u UBSAN_OPTIONS \
    -u HDO_E2E_QUICK MAKEFLAGS=-j2 make install PREFIX="$HOME/.local") >"$tmp/make.log" 2>&1; then
    fail "make install PREFIX=\$HOME/.local in a clean copy: $(tail -n 5 "$tmp/make.log")"
fi
build_secs=$(($(date +%s) - start))
export PATH=$HOME/.local/bin:$PATH
[[ $(command -v hdo) == "$HOME/.local/bin/hdo" ]] || fail "hdo on the PATH is '$(command -v hdo)'"
[[ -f $HOME/.local/share/doc/hdo/LICENSE && -f $HOME/.local/share/man/man1/hdo.1 ]] ||
    fail "no LICENSE or manual page installed"
grep -q "$HOME/.local/share/doc/hdo" "$HOME/.local/share/man/man1/hdo.1" ||
    fail "the installed manual page does not point at $HOME/.local/share/doc/hdo"

# the README's blocks, into the user's folder
"$PY" - README.md "$tmp/user" <<'PYEOF' || fail "extracting the tutorial from README.md"
import re, sys
text = open(sys.argv[1]).read()
out = sys.argv[2]
blocks = [(m.start(), m.group(1), m.group(2))
          for m in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.S | re.M)]
def after(marker, lang=None):
    pos = text.index(marker)
    return next(b for p, l, b in blocks if p > pos and (lang is None or l == lang))
files = {
    "ball.hdae": after("A small model, `ball.hdae`"),
    "ball.py": after("A candidate from SciPy, `ball.py`", "python"),
    "check.txt": after("Then `python3 ball.py`"),
    "hdo_ball.py": after("## From Python: `import hdo`", "python"),
    "ref.txt": after("## Regression tests of your own models"),
}
for name, body in files.items():
    open("%s/%s" % (out, name), "w").write(body)
PYEOF
cd "$tmp/user" || exit 2
"$PY" ball.py >"$tmp/ballpy.log" 2>&1 || fail "python3 ball.py: $(tail -n 3 "$tmp/ballpy.log")"
[[ -s ball.csv ]] || fail "python3 ball.py wrote no ball.csv"
cmd=$(head -n 1 check.txt)
[[ $cmd == '$ hdo check '* ]] || fail "the README's command line is '$cmd'"
tail -n +2 check.txt >expected.txt
bash -c "${cmd#\$ }" >got.txt 2>"$tmp/check.err"
rc=$?
((rc == 0)) || fail "'${cmd#\$ }' exit $rc: $(head -n 3 "$tmp/check.err")"
bash -c "$src/build/${cmd#\$ }" >got_build.txt 2>&1 || fail "the same with $src/build/hdo failed"

compare='
import re, sys
exp = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
def num(w):
    try:
        return float(w.strip(",;()"))
    except ValueError:
        return None
def same_line(e, g):
    if e.startswith("summary: ") and " ... " in e:
        # fields left out: those shown must be in the line, the same
        gd = dict(kv.split("=", 1) for kv in g.split()[1:] if "=" in kv)
        return all(k in gd and same_word(v, gd[k], "")
                   for k, v in (kv.split("=", 1) for kv in e.split()[1:] if "=" in kv))
    ew, gw = e.split(), g.split()
    if len(ew) != len(gw):
        return False
    return all(same_word(a, b, " ".join(ew[max(0, k - 3):k]))
               for k, (a, b) in enumerate(zip(ew, gw)))
def same_word(a, b, before):
    if a == b:
        return True
    x, y = num(a), num(b)
    if "@" in a and "@" in b:              # value_where=v@T: the variable
        return a.split("@")[0] == b.split("@")[0]
    if x is None or y is None:
        return False
    if before.endswith(("at t =", "(line", "allowed")) or before.endswith("events,"):
        return True                        # where the largest error lies, its band; the seconds
    if abs(x) < 1e-9:
        return abs(y) < 1e-9               # an error figure of the candidate
    return abs(x - y) <= 1e-12 * abs(x)
bad = [(k + 1, e, g) for k, (e, g) in enumerate(zip(exp, got)) if not same_line(e, g)]
if len(exp) != len(got):
    bad.append((0, "%d lines" % len(exp), "%d lines" % len(got)))
for k, e, g in bad[:3]:
    print("line %d: README %r, hdo %r" % (k, e, g))
sys.exit(1 if bad else 0)
'
# the seconds: "... 3 events, 0.01 s" -- the word before them is "events,"
diff=$("$PY" -c "$compare" expected.txt got.txt) || fail "the report differs from the README's: $diff"
diff=$("$PY" -c "$compare" expected.txt got_build.txt) || fail "build/hdo's report differs from the README's: $diff"

# the Python block, with the installed module (found by python3 alone)
"$PY" hdo_ball.py >py.txt 2>"$tmp/py.err" || fail "the README's Python block: $(tail -n 3 "$tmp/py.err")"
[[ -s ball-check.png ]] || fail "the Python block wrote no ball-check.png"
"$PY" - hdo_ball.py py.txt <<'PYEOF' || fail "the Python block prints other values than its comments say"
import re, sys
src = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
prints = [l for l in src if l.startswith("print(")]
bad = 0
for line, out in zip(prints, got):
    m = re.search(r"#\s*(.*)$", line)
    want = m.group(1) if m else ""
    # comments that start with a value are the expected output
    if re.match(r"(True|False|[-0-9])", want) and out.strip() != want.strip():
        print("%s printed %r, the comment says %r" % (line.split("#")[0].strip(), out, want))
        bad += 1
sys.exit(1 if bad or len(got) != len(prints) else 0)
PYEOF
# the hdo ref block, last (it changes ball.hdae): each `$ ` line run in
# the user's folder, its stdout as shown (a `...` line stands for any
# lines between the first and the last shown), exit 1 where it shows FAIL
"$PY" - ref.txt "$tmp/ref" <<'PYEOF' || fail "splitting the README's hdo ref block"
import os, sys
out = sys.argv[2]
os.makedirs(out)
cmds = []
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith("$ "):
        cmds.append([line[2:], []])
    else:
        cmds[-1][1].append(line)
for k, (cmd, shown) in enumerate(cmds):
    head = shown.index("...") if "..." in shown else len(shown)
    open("%s/%d.sh" % (out, k), "w").write(cmd + "\n")
    open("%s/%d.exp" % (out, k), "w").write("".join(l + "\n" for l in shown if l != "..."))
    open("%s/%d.cut" % (out, k), "w").write("%d %d %d\n" % (
        head, len(shown) - head - 1 if "..." in shown else 0,
        any(l.startswith("FAIL") for l in shown)))
PYEOF
nref=0
for script in "$tmp"/ref/*.sh; do
    k=$(basename "$script" .sh)
    read -r head tail wantrc <"$tmp/ref/$k.cut"
    bash "$script" >"$tmp/ref/$k.out" 2>"$tmp/ref/$k.err"
    rc=$?
    ((rc == wantrc)) || fail "the README's '$(cat "$script")': exit $rc, want $wantrc: $(head -n 3 "$tmp/ref/$k.err")"
    if ((tail > 0)); then
        { head -n "$head" "$tmp/ref/$k.out"; tail -n "$tail" "$tmp/ref/$k.out"; } >"$tmp/ref/$k.got"
    else
        cp "$tmp/ref/$k.out" "$tmp/ref/$k.got"
    fi
    diff=$("$PY" -c "$compare" "$tmp/ref/$k.exp" "$tmp/ref/$k.got") ||
        fail "the README's '$(cat "$script")' prints other lines than shown: $diff"
    nref=$((nref + 1))
done
((nref >= 4)) || fail "the README's hdo ref block has $nref commands"
[[ -s ball-ref.xml ]] || fail "the README's hdo ref compare --junit wrote no ball-ref.xml"

echo "PASS readme_tutorial: a clean copy built and installed for one user in ${build_secs} s; ball.py, the README's hdo check (installed and build/hdo: its report as shown), its Python block and its hdo ref block (a changed parameter caught)"
