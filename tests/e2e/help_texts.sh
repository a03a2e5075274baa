#!/usr/bin/env bash
# help_texts.sh -- every command's --help agrees with its reference page
# (docs/cli.md; docs/ref.md for hdo ref) and the manual page docs/hdo.1
# about its options.
#
# For each command (ref write and ref compare: their ### sections):
# `hdo CMD --help` exits 0 with its usage on stdout; every long option
# the usage names is in the command's section of cli.md and of the
# manual page (.SS CMD), and every option of the
# command's table in cli.md (rows "| `-d, --digits D` | ...") is in the
# usage.  `hdo --help` lists every command, and each has a synopsis in
# the manual page.  One claim is checked in words, because it once went
# stale: `--method implicit` runs modes with `when` clauses too
# (cli.md), so the usage must not say "without `when`".
set -u
. "$(dirname "$0")/common.bash" # cd to the top, HDO, PY, scratch $tmp

fails=0
bad() {
    echo "FAIL help_texts: $*"
    fails=$((fails + 1))
}

# CMD (as typed after hdo) : section heading : manual section : page
commands=("run:## hdo run :run:docs/cli.md"
    "analyze:## hdo analyze :analyze:docs/cli.md"
    "check:## hdo check :check:docs/cli.md"
    "ref write:### hdo ref write :ref:docs/ref.md"
    "ref compare:### hdo ref compare :ref:docs/ref.md")

for entry in "${commands[@]}"; do
    IFS=: read -r cmd heading man doc <<<"$entry"
    # shellcheck disable=SC2086
    if ! "$HDO" $cmd --help >"$tmp/help" 2>"$tmp/err"; then
        bad "hdo $cmd --help exits non-zero: $(head -n 2 "$tmp/err")"
        continue
    fi
    [[ -s $tmp/err ]] && bad "hdo $cmd --help writes on stderr"
    grep -q "^usage: hdo $cmd " "$tmp/help" || bad "hdo $cmd --help: no usage line"
    out=$("$PY" - "$tmp/help" "$heading" "$man" "$doc" <<'PYEOF'
import re, sys
help_text = open(sys.argv[1]).read()
heading, man, doc = sys.argv[2], sys.argv[3], sys.argv[4]
cli = open(doc).read()
start = cli.find("\n" + heading)
if start < 0:
    print("%s has no section '%s'" % (doc, heading.strip()))
    sys.exit()
# a section ends at the next heading of its level or above
ends = [cli.find(h, start + 1) for h in ("\n## ", "\n### ")[: heading.count("#") - 1]]
ends = [e for e in ends if e > 0]
section = cli[start : min(ends) if ends else len(cli)]
page = open("docs/hdo.1").read().replace("\\-", "-")
m = re.search(r"^\.SS %s\n(.*?)(?=^\.S[SH] )" % re.escape(man), page, re.S | re.M)
if not m:
    print("docs/hdo.1 has no section '.SS %s'" % man)
    sys.exit()
mansec = m.group(1)
opts = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", help_text)) - {"--help"}
for o in sorted(opts):
    if not re.search(r"(?<![\w-])%s(?![\w-])" % o, section):
        print("--help names %s, %s (%s) does not" % (o, doc, heading.strip()))
    if not re.search(r"(?<![\w-])%s(?![\w-])" % o, mansec):
        print("--help names %s, docs/hdo.1 (.SS %s) does not" % (o, man))
table = [l for l in section.splitlines() if l.startswith("| `-")]
if not table:
    print("%s (%s) has no option table" % (doc, heading.strip()))
for row in table:
    for o in re.findall(r"(?<![\w-])--[a-z][a-z-]*", row.split("|")[1]):
        if o not in opts:
            print("%s (%s) lists %s, --help does not" % (doc, heading.strip(), o))
PYEOF
)
    [[ -n $out ]] && while IFS= read -r line; do bad "hdo $cmd: $line"; done <<<"$out"
done

"$HDO" run --help | tr -s '\n ' ' ' | sed 's/with or without//g' |
    grep -q 'without `when`' &&
    bad "hdo run --help says implicit is without \`when\` clauses (cli.md: with or without)"
"$HDO" run --help | tr '\n' ' ' | grep -q 'with or *without `when` *clauses' ||
    bad "hdo run --help does not say implicit takes modes with or without \`when\` clauses"

# the command list of hdo --help, and a synopsis per command in hdo.1
"$HDO" --help >"$tmp/top" || bad "hdo --help exits non-zero"
for c in run analyze check ref; do
    grep -qE "^  $c( |$)" "$tmp/top" || bad "hdo --help does not list '$c'"
done
for c in run analyze check "ref write" "ref compare"; do
    grep -qE "^\.B hdo $c\$" docs/hdo.1 || bad "docs/hdo.1 has no synopsis of hdo $c"
done
# hdo ref --help names its two commands
"$HDO" ref --help | grep -q '^usage: hdo ref write MODEL DIR' &&
    "$HDO" ref --help | grep -q '^       hdo ref compare MODEL DIR' ||
    bad "hdo ref --help does not give both usages"

if ((fails)); then
    exit 1
fi
echo "PASS help_texts: run, analyze, check, ref write and ref compare --help name exactly the options of their tables in docs/cli.md and docs/ref.md, all in the manual page; implicit with \`when\` clauses"
