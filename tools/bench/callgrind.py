"""callgrind.py -- instruction counts of one hdo command under valgrind's
callgrind, per function and per call edge (tools/bench/cost.py).

On a shared machine wall time measures the neighbours; the number of
instructions executed does not.  run() runs a command under callgrind
(names and positions uncompressed) and reads the profile: the total, the
instructions of each call from one function to another (inclusive: the
callee and everything it calls), and the functions' own instructions.
Functions are keyed by name alone: an inlined function's cost is split by
callgrind over several source files, which is of no interest here.
"""
import collections
import os
import subprocess
import tempfile


class Profile:
    """total: every instruction of the process; calls[caller][callee]:
    instructions of the calls (inclusive); own[fn]: self cost."""

    def __init__(self):
        self.total = 0
        self.calls = collections.defaultdict(collections.Counter)
        self.own = collections.Counter()

    def into(self, callee, callers=None):
        """Instructions spent in calls to callee (from callers, or from
        anywhere): the callee's inclusive cost when it does not recurse."""
        return sum(c[callee] for name, c in self.calls.items()
                   if callers is None or name in callers)

    def called_from(self, callers, pred):
        """Instructions of the calls from callers to functions whose name
        satisfies pred."""
        return sum(n for name in callers
                   for callee, n in self.calls.get(name, {}).items()
                   if pred(callee))


def parse(path):
    p = Profile()
    fn = cfn = None
    after_calls = False
    names = {}

    def name_of(value):
        # "(id) name" defines an id, "(id)" refers to it (when compressed)
        if value.startswith("("):
            key, _, rest = value.partition(")")
            rest = rest.strip()
            if rest:
                names[key] = rest
            return names.get(key, value)
        return value

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line or line[0] == "\n":
                continue
            c0 = line[0]
            if c0.isdigit() or c0 in "+-*":
                cost = int(line.split()[-1]) if len(line.split()) > 1 else 0
                if after_calls:
                    p.calls[fn][cfn] += cost
                    after_calls = False
                else:
                    p.own[fn] += cost
            elif line.startswith("fn="):
                fn = name_of(line[3:].strip())
            elif line.startswith("cfn="):
                cfn = name_of(line[4:].strip())
            elif line.startswith("calls="):
                after_calls = True
            elif line.startswith("summary:") or line.startswith("totals:"):
                p.total = int(line.split()[-1])
    return p


def run(argv, cwd=None, toggle=None, options=()):
    """Runs argv under callgrind; returns (Profile, exit status of argv).
    toggle: collect only inside this function (--toggle-collect);
    options: more callgrind options (--separate-callersN=FN names FN's
    contexts "FN'caller'caller's caller..." in the profile)."""
    fd, out = tempfile.mkstemp(prefix="hdo-cg-")
    os.close(fd)
    cmd = ["valgrind", "--tool=callgrind", "--compress-strings=no",
           "--compress-pos=no", "--callgrind-out-file=" + out]
    if toggle:
        cmd += ["--toggle-collect=" + toggle]
    cmd += list(options)
    try:
        r = subprocess.run(cmd + list(argv), cwd=cwd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, check=False)
        prof = parse(out)
    finally:
        if os.path.exists(out):
            os.remove(out)
    return prof, r.returncode
