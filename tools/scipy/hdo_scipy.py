#!/usr/bin/python3
"""hdo_scipy.py -- runs the ODE-mode cases of the corpus with SciPy's
solve_ivp, the way a careful SciPy user would, and writes a candidate for
`hdo check` (the same CSV and events file as tools/ida/hdo-ida).

A second solver family next to SUNDIALS IDA, and independent of libhdo: the
.hdae file is read by a small parser of its own (the grammar of
docs/model-format.md, version 2 included: dotted names, arrays, `for` and
`sum` are expanded into scalar variables u[1], u[2], ... as hdo does, and
-p NAME=VALUE overrides a parameter), expressions become Python code over
math.*, and
each mode must be an ODE: every equation holds exactly one der(x), affinely
(der(x) = f, or m*der(v) = f), and every variable of the mode is
differentiated.  A case that can reach a mode with an algebraic variable
through a `when` is "not applicable" (exit 4, with the reason), and so is
a model with a piecewise expression (if, abs, sign, min, max: hdo runs
each sign pattern of their relations as a mode, which this adapter does
not do), and so is one with a complementarity condition (0 <= A perp B >=
0: hdo chooses its active set at every event).  `zeno goto`
is not used: solve_ivp has no accumulation detection, and
--max-events-per-unit stops a run whose events pile up.

Events: one event function per `when` (S = a - b for `a < b`), direction -1,
terminal; `chattering hysteresis d` shifts every S by +d.  At an event the
`with` right-hand sides are evaluated on the left limit, the other
variables are kept, and the integration restarts in the target mode.  Right
after a restart a switching function that is already <= 0 and decreasing
along the flow is taken at once (bounded cascade).

Exit codes: 0 done, 2 bad input or solver failure, 3 stopped at the event
cap or by a cycle of instantaneous transitions (output complete up to that
time), 4 not applicable.
"""
import argparse
import math
import os
import re
import sys

import numpy as np
from scipy.integrate import solve_ivp

PROG = "hdo_scipy"
# hdo's builtin functions (the CALL rows of the kind table, ref/expr.h)
# and the Python each becomes; tests/e2e/kinds_adapters.sh checks that the
# names are exactly those hdo knows.
FUNCS = {"sin": "math.sin", "cos": "math.cos", "tan": "math.tan",
         "asin": "math.asin", "acos": "math.acos", "atan": "math.atan",
         "exp": "math.exp", "log": "math.log", "sqrt": "math.sqrt",
         "sinh": "math.sinh", "cosh": "math.cosh", "tanh": "math.tanh"}
KEYWORDS = {"model", "param", "var", "mode", "end", "when", "goto", "with",
            "zeno", "start", "at", "until", "chattering", "filippov",
            "hysteresis", "stop", "der", "t", "pi"}
MAX_CASCADE = 16
# version 2 piecewise expressions: refused (not applicable, exit 4)
PIECEWISE = {"if", "abs", "sign", "min", "max"}


class ModelError(Exception):
    pass


class NotApplicable(Exception):
    pass


# ---- lexer and parser of the .hdae subset ------------------------------

TOKEN = re.compile(r"""
    (?P<num>(?:\d+(?:\.(?!\.)\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)
  | (?P<op>\.\.|[-+*/^(),=<>\[\]])
  | (?P<ws>[ \t\r]+)
""", re.VERBOSE)
# a name after expansion: dotted (ball.h), or an array element (u[3])
NAME = re.compile(r"[A-Za-z_][\w.]*(?:\[-?\d+\])?")


def split_statements(text):
    """Yields (line number, list of tokens) per statement."""
    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.split("#", 1)[0]
        for part in line.split(";"):
            toks, pos = [], 0
            while pos < len(part):
                m = TOKEN.match(part, pos)
                if not m:
                    raise ModelError(f"{lineno}: unexpected character "
                                     f"{part[pos]!r}")
                pos = m.end()
                if m.lastgroup != "ws":
                    toks.append(m.group())
            if toks:
                yield lineno, toks


class Expr:
    """Recursive descent over a token list, giving Python source text.
    names(name) maps a name to its Python text; der(name) likewise."""

    def __init__(self, toks, lineno, name_fn, der_fn):
        self.toks, self.i, self.lineno = toks, 0, lineno
        self.name_fn, self.der_fn = name_fn, der_fn

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise ModelError(f"{self.lineno}: expected {want or 'more'}, "
                             f"found {tok!r}")
        self.i += 1
        return tok

    def expr(self):
        s = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            s = f"({s} {op} {self.term()})"
        return s

    def term(self):
        s = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()
            s = f"({s} {op} {self.unary()})"
        return s

    def unary(self):
        if self.peek() == "-":
            self.take()
            return f"(-{self.unary()})"
        if self.peek() == "+":
            self.take()
            return self.unary()
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek() == "^":
            self.take()
            return f"({base} ** {self.unary()})"  # right-associative
        return base

    def atom(self):
        tok = self.take()
        if tok == "(":
            s = self.expr()
            self.take(")")
            return s
        if tok[0].isdigit() or tok[0] == ".":
            return repr(float(tok))
        if tok == "der":
            self.take("(")
            name = self.take()
            self.take(")")
            return self.der_fn(name)
        if tok in FUNCS:
            self.take("(")
            s = self.expr()
            self.take(")")
            return f"{FUNCS[tok]}({s})"
        if tok == "if" or (tok in PIECEWISE and self.peek() == "("):
            raise NotApplicable(
                f"line {self.lineno}: the piecewise expression '{tok}' "
                "(if, abs, sign, min, max) is not supported: its relations "
                "switch like guards, and this adapter has no sign patterns")
        if tok == "pi":
            return "math.pi"
        if tok == "t":
            return "t"
        if NAME.fullmatch(tok):
            return self.name_fn(tok)
        raise ModelError(f"{self.lineno}: unexpected {tok!r}")


class Model:
    pass


# ---- version 2: arrays, for and sum, expanded into version-1 tokens ----
#
# As in hdo's parser (docs/model-format.md, "Arrays"): `var u[A..B]` and
# `var u[i in A..B] = f(i)` declare the elements u[A]..u[B] (one token
# each here, "u[3]"), `u[expr]` is an element with a constant integer
# index, `for i in A..B ... end` inside a mode repeats its equations and
# `sum(i in A..B, expr)` is the sum of the terms; ranges must not be
# empty.  Parameters are evaluated first (in file order, -p applied), so
# that bounds and indices may use them.


def _num_toks(k):
    return [str(k)] if k >= 0 else ["(", "-", str(-k), ")"]


def _close(toks, i, open_tok, close_tok, ln):
    """Index of the token closing toks[i] == open_tok."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == open_tok:
            depth += 1
        elif toks[j] == close_tok:
            depth -= 1
            if depth == 0:
                return j
    raise ModelError(f"{ln}: unclosed {open_tok!r}")


class Expander:
    def __init__(self, overrides):
        self.params, self.arrays, self.overrides = {}, {}, overrides

    def value(self, toks, ln, env):
        """The float value of constant tokens (params, loop variables)."""
        toks = self.expand(toks, ln, env)

        def name(n):
            if n in self.params:
                return repr(self.params[n])
            raise ModelError(f"{ln}: {n} is not a parameter")
        e = Expr(toks, ln, name, lambda n: (_ for _ in ()).throw(
            ModelError(f"{ln}: der in a constant")))
        s = e.expr()
        if e.peek() is not None:
            raise ModelError(f"{ln}: unexpected {e.peek()!r}")
        return float(eval(s, {"math": math}))

    def integer(self, toks, ln, env):
        v = self.value(toks, ln, env)
        if not float(v).is_integer():
            raise ModelError(f"{ln}: {' '.join(toks)} is not an integer")
        return int(v)

    def range(self, toks, ln, env):
        """A..B -> (A, B), refusing an empty range."""
        if ".." not in toks:
            raise ModelError(f"{ln}: expected A..B")
        k = toks.index("..")
        lo = self.integer(toks[:k], ln, env)
        hi = self.integer(toks[k + 1:], ln, env)
        if hi < lo:
            raise ModelError(f"{ln}: empty range {lo}..{hi}")
        return lo, hi

    def expand(self, toks, ln, env):
        """Tokens with loop variables replaced, elements as one token and
        sums written out."""
        out, i = [], 0
        while i < len(toks):
            tok = toks[i]
            if tok in env:
                out += _num_toks(env[tok])
                i += 1
            elif (tok == "sum" and toks[i + 1:i + 2] == ["("] and
                  toks[i + 3:i + 4] == ["in"]):
                j = _close(toks, i + 1, "(", ")", ln)
                inner = toks[i + 2:j]
                c = split_at(inner, (",",))
                if c is None:
                    raise ModelError(f"{ln}: expected sum(i in A..B, expr)")
                head, _, body = c
                lo, hi = self.range(head[2:], ln, env)
                terms = []
                for k in range(lo, hi + 1):
                    terms += (["+"] if terms else []) + ["("] + self.expand(
                        body, ln, {**env, head[0]: k}) + [")"]
                out += ["("] + terms + [")"]
                i = j + 1
            elif tok in self.arrays and toks[i + 1:i + 2] == ["["]:
                j = _close(toks, i + 1, "[", "]", ln)
                k = self.integer(toks[i + 2:j], ln, env)
                lo, hi = self.arrays[tok]
                if not lo <= k <= hi:
                    raise ModelError(f"{ln}: index {k} out of range: {tok} "
                                     f"is declared as {tok}[{lo}..{hi}]")
                out.append(f"{tok}[{k}]")
                i = j + 1
            else:
                out.append(tok)
                i += 1
        return out

    def var_decl(self, toks, ln):
        """var a = 1, u[i in 1..N] = f(i), w[1..N] -> scalar groups."""
        out = []
        for grp in split_commas(toks[1:]):
            if len(grp) > 1 and grp[1] == "[":
                j = _close(grp, 1, "[", "]", ln)
                spec, rest = grp[2:j], grp[j + 1:]
                ivar = None
                if len(spec) > 2 and spec[1] == "in":
                    ivar, spec = spec[0], spec[2:]
                lo, hi = self.arrays[grp[0]]
                for k in range(lo, hi + 1):
                    env = {ivar: k} if ivar else {}
                    el = [f"{grp[0]}[{k}]"]
                    if rest:
                        el += [rest[0]] + self.expand(rest[1:], ln, env)
                    out.append(el)
            else:
                out.append(self.expand(grp, ln, {}))
        toks_out = ["var"]
        for g in out:
            toks_out += ([","] if len(toks_out) > 1 else []) + g
        return toks_out

    def run(self, stmts):
        """The statements with every version-2 construct expanded."""
        for ln, toks in stmts:  # parameters first, in file order
            if toks[0] == "param":
                if len(toks) < 4 or toks[2] != "=":
                    raise ModelError(f"{ln}: expected param NAME = expr")
                if toks[1] in self.overrides:
                    self.params[toks[1]] = self.overrides.pop(toks[1])
                else:
                    self.params[toks[1]] = self.value(toks[3:], ln, {})
        if self.overrides:
            raise ModelError(f" error: -p {', '.join(self.overrides)}: no "
                             "such parameter")
        for ln, toks in stmts:  # array bounds
            if toks[0] == "var":
                for grp in split_commas(toks[1:]):
                    if len(grp) > 1 and grp[1] == "[":
                        j = _close(grp, 1, "[", "]", ln)
                        spec = grp[2:j]
                        if len(spec) > 2 and spec[1] == "in":
                            spec = spec[2:]
                        self.arrays[grp[0]] = self.range(spec, ln, {})
        out, i = [], 0
        while i < len(stmts):
            ln, toks = stmts[i]
            if toks[0] == "param":
                out.append((ln, toks[:3] + _num_toks(0)))  # value known
            elif toks[0] == "var":
                out.append((ln, self.var_decl(toks, ln)))
            elif toks[0] == "for":
                i = self.unroll(stmts, i, {}, out)
                continue
            else:
                out.append((ln, self.expand(toks, ln, {})))
            i += 1
        return out

    def unroll(self, stmts, i, env, out):
        """Expands the for loop at stmts[i] into out; returns the index
        after its end."""
        ln, toks = stmts[i]
        if len(toks) < 5 or toks[2] != "in":
            raise ModelError(f"{ln}: expected for i in A..B")
        lo, hi = self.range(toks[3:], ln, env)
        j, depth = i + 1, 1  # the matching end
        while j < len(stmts) and depth:
            depth += stmts[j][1][0] == "for"
            depth -= stmts[j][1][0] == "end"
            j += 1
        if depth:
            raise ModelError(f"{ln}: for without end")
        for k in range(lo, hi + 1):
            e = {**env, toks[1]: k}
            b = i + 1
            while b < j - 1:
                if stmts[b][1][0] == "for":
                    b = self.unroll(stmts, b, e, out)
                else:
                    out.append((stmts[b][0], self.expand(stmts[b][1],
                                                         stmts[b][0], e)))
                    b += 1
        return j


def parse_model(path, overrides=None):
    text = open(path).read()
    exp = Expander(dict(overrides or {}))
    stmts = exp.run(list(split_statements(text)))
    m = Model()
    m.name, m.params, m.vars, m.start_vals = None, {}, [], {}
    m.modes, m.mode_order = {}, []
    m.start_mode, m.t0, m.until, m.hysteresis = None, 0.0, None, 0.0
    # first sweep: variable and mode names (a mode may use later names)
    for ln, toks in stmts:
        if toks[0] == "var":
            for grp in split_commas(toks[1:]):
                m.vars.append(grp[0])
    var_index = {v: i for i, v in enumerate(m.vars)}

    def const_expr(toks, ln):
        def name(n):
            if n in m.params:
                return repr(m.params[n])
            raise ModelError(f"{ln}: {n} is not a parameter")
        e = Expr(toks, ln, name, lambda n: (_ for _ in ()).throw(
            ModelError(f"{ln}: der in a constant")))
        s = e.expr()
        if e.peek() is not None:
            raise ModelError(f"{ln}: unexpected {e.peek()!r}")
        return float(eval(s, {"math": math}))

    # params were evaluated in order by the expander (with -p)
    m.params = exp.params
    cur = None
    for ln, toks in stmts:
        kw = toks[0]
        if cur is not None:
            if kw == "end":
                cur = None
            elif kw == "when":
                cur["whens"].append((ln, toks))
            elif kw == "zeno":
                cur["zeno"] = True
            elif "perp" in toks and "perp" not in var_index:
                # a complementarity condition: hdo chooses its active set
                # at every event from all of them
                raise NotApplicable(
                    f"line {ln}: the complementarity condition "
                    f"'{perp_text(toks)}' (0 <= A perp B >= 0) is not "
                    "supported: hdo chooses its active set at every event "
                    "from all of them, which this adapter does not do")
            else:
                cur["eqs"].append((ln, toks))
            continue
        if kw == "model":
            m.name = toks[1]
        elif kw == "param":
            pass
        elif kw == "var":
            for grp in split_commas(toks[1:]):
                if len(grp) > 1:
                    if grp[1] != "=":
                        raise ModelError(f"{ln}: expected = after {grp[0]}")
                    m.start_vals[grp[0]] = const_expr(grp[2:], ln)
        elif kw == "mode":
            cur = {"name": toks[1], "eqs": [], "whens": [], "zeno": False,
                   "line": ln}
            m.modes[toks[1]] = cur
            m.mode_order.append(toks[1])
        elif kw == "start":
            m.start_mode = toks[1]
            if len(toks) > 2:
                if toks[2] != "at":
                    raise ModelError(f"{ln}: expected at")
                m.t0 = const_expr(toks[3:], ln)
        elif kw == "until":
            m.until = const_expr(toks[1:], ln)
        elif kw == "chattering":
            if len(toks) > 1 and toks[1] == "hysteresis":
                m.hysteresis = const_expr(toks[2:], ln)
        else:
            raise ModelError(f"{ln}: unexpected {kw!r}")
    if m.start_mode not in m.modes:
        raise ModelError(f"start mode {m.start_mode!r} is not a mode")
    m.var_index = var_index
    return m


def perp_text(toks):
    """A condition's tokens as written: '<' '=' are one '<='."""
    return " ".join(toks).replace("< =", "<=").replace("> =", ">=")


def split_commas(toks):
    """Splits `a = 1, b, c = f(1, 2)` at top-level commas."""
    out, cur, depth = [], [], 0
    for tok in toks:
        if tok in ("(", "["):
            depth += 1
        elif tok in (")", "]"):
            depth -= 1
        if tok == "," and depth == 0:
            out.append(cur)
            cur = []
        else:
            cur.append(tok)
    if cur:
        out.append(cur)
    return out


def split_at(toks, seps):
    depth = 0
    for i, tok in enumerate(toks):
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
        elif depth == 0 and tok in seps:
            return toks[:i], tok, toks[i + 1:]
    return None


# ---- modes as ODEs ----------------------------------------------------

class Mode:
    pass


def build_mode(m, name):
    """Compiles a mode: f(t, y) over the global variable vector y (length
    nvars), guards S_k(t, y), and the `with` assignments.  Raises
    NotApplicable when the mode is not an ODE."""
    src = m.modes[name]
    md = Mode()
    md.name = name
    seen, ders = set(), []

    def vname(n):
        if n in m.var_index:
            seen.add(n)
            return f"y[{m.var_index[n]}]"
        if n in m.params:
            return repr(m.params[n])
        raise ModelError(f"{n} is neither a variable nor a parameter")

    rhs_src = {}
    for ln, toks in src["eqs"]:
        parts = split_at(toks, ("=",))
        if parts is None:
            raise ModelError(f"{ln}: expected an equation")
        lhs, _, rhs = parts
        eq_ders = []

        def dname(n, eq_ders=eq_ders):
            if n not in m.var_index:
                raise ModelError(f"{ln}: der of a non-variable {n}")
            seen.add(n)
            eq_ders.append(n)
            return "_D"
        el = Expr(lhs, ln, vname, dname)
        ls = el.expr()
        er = Expr(rhs, ln, vname, dname)
        rs = er.expr()
        text = " ".join(toks)
        if len(set(eq_ders)) != 1:
            raise NotApplicable(
                f"mode {name} is a DAE: equation '{text}' (line {ln}) has "
                f"{'no' if not eq_ders else 'more than one'} der()")
        x = eq_ders[0]
        if x in rhs_src:
            raise NotApplicable(f"mode {name}: der({x}) occurs in two "
                                f"equations (line {ln})")
        if lhs == ["der", "(", x, ")"] and "_D" not in rs:
            rhs_src[x] = (rs, None)
        else:
            # affine in der(x): F = a*der(x) + b, der(x) = -b/a
            rhs_src[x] = (f"({ls}) - ({rs})", ln)
        ders.append(x)
    missing = [v for v in seen if v not in rhs_src]
    if missing:
        raise NotApplicable(f"mode {name} is a DAE: variable(s) "
                            f"{', '.join(sorted(missing))} algebraic")
    md.vars = sorted((m.var_index[v] for v in seen))
    # Python source of f(t, y) -> dy (only the mode's variables)
    lines = ["def f(t, y):", "    dy = [0.0] * len(y)"]
    for x, (s, ln) in rhs_src.items():
        i = m.var_index[x]
        if ln is None:
            lines.append(f"    dy[{i}] = {s}")
        else:
            lines.append(f"    _D = 0.0; b = {s}")
            lines.append(f"    _D = 1.0; a = ({s}) - b")
            lines.append(f"    dy[{i}] = -b / a")
    lines.append("    return dy")
    env = {"math": math}
    exec("\n".join(lines), env)
    md.f_full = env["f"]
    idx = np.array(md.vars, dtype=int)
    md.idx = idx
    # guards and assignments
    md.guards, md.targets, md.assigns, md.guard_text = [], [], [], []
    for ln, toks in src["whens"]:
        text = " ".join(toks)
        try:
            g = toks.index("goto")
        except ValueError:
            raise ModelError(f"{ln}: expected goto")
        cond = split_at(toks[1:g], ("<", ">"))
        if cond is None:
            raise ModelError(f"{ln}: expected < or >")
        a, op, b = cond
        sa = Expr(a, ln, vname, lambda n: (_ for _ in ()).throw(
            ModelError(f"{ln}: der in a guard"))).expr()
        sb = Expr(b, ln, vname, lambda n: None).expr()
        s = f"({sa}) - ({sb})" if op == "<" else f"({sb}) - ({sa})"
        target = toks[g + 1]
        if target not in m.modes:
            raise ModelError(f"{ln}: {target} is not a mode")
        assigns = []
        if len(toks) > g + 2:
            if toks[g + 2] != "with":
                raise ModelError(f"{ln}: expected with")
            for grp in split_commas(toks[g + 3:]):
                if len(grp) < 3 or grp[1] != "=":
                    raise ModelError(f"{ln}: expected NAME = expr")
                ex = Expr(grp[2:], ln, vname, lambda n: None).expr()
                assigns.append((m.var_index[grp[0]],
                                eval(f"lambda t, y: {ex}", {"math": math})))
        md.guards.append(eval(f"lambda t, y: {s} + {m.hysteresis!r}",
                              {"math": math}))
        md.targets.append(target)
        md.assigns.append(assigns)
        md.guard_text.append(text)
    return md


def reachable_modes(m):
    """Modes reachable from the start through `when` transitions."""
    seen, todo = set(), [m.start_mode]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for ln, toks in m.modes[name]["whens"]:
            if "goto" in toks:
                todo.append(toks[toks.index("goto") + 1])
    return [n for n in m.mode_order if n in seen]


# ---- the driver --------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        prog=PROG, description="Runs an ODE-mode .hdae case with SciPy's "
        "solve_ivp and writes a candidate for hdo check.")
    ap.add_argument("model")
    ap.add_argument("--method", default="DOP853",
                    choices=["DOP853", "Radau", "RK45", "LSODA", "BDF"])
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-8)
    ap.add_argument("--out")
    ap.add_argument("--events")
    ap.add_argument("--every", type=float, default=0.0)
    ap.add_argument("--until", type=float)
    ap.add_argument("--max-events-per-unit", type=float, default=1000)
    ap.add_argument("-p", "--param", action="append", default=[],
                    metavar="NAME=VALUE",
                    help="override a parameter (as hdo run -p)")
    args = ap.parse_args()

    overrides = {}
    for kv in args.param:
        name, eq, val = kv.partition("=")
        try:
            num, _, den = val.partition("/")
            v = float(num) / (float(den) if den else 1.0)
        except ValueError:
            v = None
        if not eq or not name or v is None or not math.isfinite(v):
            print(f"{PROG}: -p {kv}: expected NAME=VALUE with a number",
                  file=sys.stderr)
            return 2
        overrides[name] = v
    try:
        m = parse_model(args.model, overrides)
        modes = {}
        for name in reachable_modes(m):
            modes[name] = build_mode(m, name)
    except ModelError as e:
        print(f"{args.model}:{e}", file=sys.stderr)
        return 2
    except NotApplicable as e:
        print(f"{PROG}: not applicable: {e}", file=sys.stderr)
        print(f"{PROG}: summary: status=n/a reason={str(e)!r}",
              file=sys.stderr)
        return 4
    for name in m.mode_order:
        if m.modes[name]["zeno"]:
            print(f"{PROG}: note: `zeno goto` of mode {name} is not used: "
                  "solve_ivp has no accumulation detection", file=sys.stderr)
    t0 = m.t0
    until = args.until if args.until is not None else m.until
    if until is None:
        print(f"{PROG}: error: no `until`: give --until", file=sys.stderr)
        return 2
    every = args.every or (until - t0) / 1000
    nv = len(m.vars)
    y = np.array([m.start_vals.get(v, 0.0) for v in m.vars], dtype=float)

    rows, events = [], []
    nfev = [0]
    cur = modes[m.start_mode]

    def row(t, md, yv):
        cells = [repr(float(t)), md.name]
        inm = set(md.vars)
        cells += [repr(float(yv[i])) if i in inm else "" for i in range(nv)]
        rows.append(",".join(cells))

    def take(md, k, t, yv):
        """Transition k of md at t from the left limit yv."""
        ynew = yv.copy()
        for i, fn in md.assigns[k]:
            ynew[i] = fn(t, yv)
        events.append(f"{t!r},{md.name},{md.targets[k]}")
        return modes[md.targets[k]], ynew

    def infeasible(md, t, yv):
        dt = 1e-7 * (1 + abs(t))
        dy = np.array(md.f_full(t, yv))
        y1 = yv + dt * dy
        for k, g in enumerate(md.guards):
            s0, s1 = g(t, yv), g(t + dt, y1)
            if (s0 < 0 and s1 <= s0) or (s0 == 0 and s1 < s0):
                return k
        return -1

    def cascade(md, t, yv):
        for _ in range(MAX_CASCADE):
            k = infeasible(md, t, yv)
            if k < 0:
                return md, yv, True
            row(t, md, yv)
            md, yv = take(md, k, t, yv)
        return md, yv, False

    status, stop_t, t, steps = "ok", None, t0, 0
    cur, y, ok = cascade(cur, t, y)
    row(t, cur, y)
    if not ok:
        status, stop_t = "stopped", t
    recent = []
    k_out = 1
    while status == "ok" and t < until:
        md = cur
        idx = md.idx

        def f(tt, z, md=md, idx=idx):
            yy = y_full.copy()
            yy[idx] = z
            nfev[0] += 1
            return np.asarray(md.f_full(tt, yy))[idx]

        evfs = []
        for g in md.guards:
            def ev(tt, z, g=g, idx=idx):
                yy = y_full.copy()
                yy[idx] = z
                return g(tt, yy)
            ev.terminal, ev.direction = True, -1
            evfs.append(ev)
        y_full = y.copy()
        try:
            sol = solve_ivp(f, (t, until), y[idx], method=args.method,
                            rtol=args.rtol, atol=args.atol, events=evfs,
                            dense_output=True)
        except Exception as e:  # a solver failure is the solver's result
            print(f"{PROG}: error: solve_ivp failed in mode {md.name} at t "
                  f"= {t!r}: {e}", file=sys.stderr)
            status = "failed"
            break
        steps += len(sol.t) - 1
        if sol.status < 0:
            print(f"{PROG}: error: solve_ivp failed in mode {md.name}: "
                  f"{sol.message}", file=sys.stderr)
            status = "failed"
            break
        t_end = sol.t[-1]
        # output grid points inside the arc
        while True:
            tg = t0 + k_out * every
            if tg > until - 1e-12 * every:
                tg = until
            if tg > t_end or (sol.status == 1 and tg >= t_end -
                              1e-12 * (1 + abs(t_end))):
                break
            if tg > t + 1e-12 * (1 + abs(t)):
                yy = y_full.copy()
                yy[idx] = sol.sol(tg)
                row(tg, md, yy)
            if tg >= until:
                break
            k_out += 1
        yl = y_full.copy()
        yl[idx] = sol.y[:, -1]
        t = t_end
        if sol.status == 1:
            k = min(j for j in range(len(evfs)) if len(sol.t_events[j]))
            row(t, md, yl)
            cur, y = take(md, k, t, yl)
            recent.append(t)
            recent = [x for x in recent if x > t - 1]
            if len(recent) > args.max_events_per_unit:
                row(t, cur, y)
                status, stop_t = "stopped", t
                print(f"{PROG}: stopped: more than "
                      f"{args.max_events_per_unit:g} events in one unit of "
                      f"time, at t = {t!r} in mode {cur.name} (Zeno or "
                      "chattering: solve_ivp has no sliding or accumulation "
                      "logic)", file=sys.stderr)
                break
            cur, y, ok = cascade(cur, t, y)
            row(t, cur, y)
            if not ok:
                status, stop_t = "stopped", t
                print(f"{PROG}: stopped: more than {MAX_CASCADE} "
                      f"instantaneous transitions at t = {t!r}",
                      file=sys.stderr)
                break
        else:
            y = yl
            if not rows[-1].startswith(repr(float(t)) + ","):
                row(t, md, y)
            break

    if status == "failed":
        print(f"{PROG}: summary: status=failed t_reached={t!r} "
              f"events={len(events)} steps={steps} drift=-", file=sys.stderr)
        return 2
    header = "time,mode," + ",".join(m.vars)
    write(args.out, [header] + rows)
    if args.events:
        write(args.events, ["time,from,to"] + events)
    print(f"{PROG}: summary: status={status} "
          f"t_reached={stop_t if stop_t is not None else t!r} "
          f"events={len(events)} steps={steps} drift=-", file=sys.stderr)
    return 3 if status == "stopped" else 0


def write(path, lines):
    """Writes through a temporary file, so that no half-written output
    is left behind as if it were complete."""
    if path is None:
        sys.stdout.write("\n".join(lines) + "\n")
        return
    tmp = path + ".part"
    with open(tmp, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


if __name__ == "__main__":
    sys.exit(main())
