#!/usr/bin/env python3
"""scaled_twin.py -- a model's scaled twin: every variable multiplied by S.

usage: tools/scaled_twin.py MODEL.hdae S > TWIN.hdae

The twin states the same physics for x~ = S x, written by substitution:
each occurrence of a variable x in an equation, a guard, a reset's
right-hand side or a complementarity condition's B becomes (x/S) (the
condition's A stays: S A >= 0 is A >= 0), der(x) becomes (der(x)/S), and every start
value, nominal value and reset value is multiplied by S.  Time and the
parameters are unchanged, so the twin's events are the original's and its
values are S times the original's: what tests/e2e/scaled_twin.sh checks
(issue 23: D significant digits at every scale).  S is written as given
(an exact decimal such as 1e-40).  Comments are dropped.
"""
import re
import sys

TOKEN = re.compile(
    r"\s+|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
    r"|\d+(?:\.(?!\.)\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\.\.|<=|>=|.")


def tokens(line):
    return [t for t in TOKEN.findall(line) if not t.isspace() and not t.startswith("#")]


def declared(lines):
    """The variable names of the model (arrays by their base name)."""
    names = set()
    for line in lines:
        toks = tokens(line)
        if not toks or toks[0] != "var":
            continue
        depth, expect = 0, True
        for t in toks[1:]:
            if expect and depth == 0 and re.match(r"[A-Za-z_]", t):
                names.add(t)
                expect = False
            if t in "([":
                depth += 1
            elif t in ")]":
                depth -= 1
            elif t == "," and depth == 0:
                expect = True
    return names


def bracket_end(toks, i):
    """Index after the group opened at toks[i] ('(' or '[')."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] in "([":
            depth += 1
        elif toks[j] in ")]":
            depth -= 1
            if depth == 0:
                return j + 1
    raise SystemExit("unbalanced brackets: " + " ".join(toks))


def subst(toks, names, S):
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t == "der" and i + 1 < len(toks) and toks[i + 1] == "(":
            j = bracket_end(toks, i + 1)
            out.append("(" + " ".join(toks[i:j]) + "/" + S + ")")
            i = j
        elif t in names:
            j = i + 1
            if j < len(toks) and toks[j] == "[":
                j = bracket_end(toks, j)
            out.append("(" + " ".join(toks[i:j]) + "/" + S + ")")
            i = j
        else:
            out.append(t)
            i += 1
    return out


def split_top(toks, sep=","):
    parts, cur, depth = [], [], 0
    for t in toks:
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def scale_value(toks, names, S):
    return [S, "*", "("] + subst(toks, names, S) + [")"]


def twin_line(line, names, S):
    toks = tokens(line)
    if not toks:
        return ""
    head = toks[0]
    if head == "var":
        decls = []
        for d in split_top(toks[1:]):
            out, k = [], 0
            while k < len(d) and d[k] not in ("=", "nominal"):
                out.append(d[k])
                k += 1
            while k < len(d):
                kw = d[k]
                k += 1
                start = k
                while k < len(d) and d[k] != "nominal":
                    k += 1
                out += [kw] + scale_value(d[start:k], names, S)
            decls.append(" ".join(out))
        return "var " + ", ".join(decls)
    if head in ("when", "zeno"):
        if "with" in toks:
            w = toks.index("with")
            pre, assigns = toks[:w], split_top(toks[w + 1:])
        else:
            pre, assigns = toks, []
        out = subst(pre, names, S)
        if assigns:
            parts = []
            for a in assigns:
                e = a.index("=")
                parts.append(" ".join(a[:e] + ["="] + scale_value(a[e + 1:], names, S)))
            out += ["with", ", ".join(parts)]
        return " ".join(out)
    if head in ("model", "param", "mode", "end", "start", "until", "chattering", "for"):
        return " ".join(toks)
    if "perp" in toks and "perp" not in names:
        # 0 <= A perp B >= 0: A stays the twin's variable (S A >= 0 is
        # A >= 0), B is written in the twin's variables
        p = toks.index("perp")
        return " ".join(toks[:p + 1] + subst(toks[p + 1:], names, S))
    return " ".join(subst(toks, names, S))


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    lines = open(sys.argv[1]).read().split("\n")
    names = declared(lines)
    for line in lines:
        print(twin_line(line, names, sys.argv[2]))


if __name__ == "__main__":
    main()
