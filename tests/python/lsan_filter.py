"""lsan_filter.py -- which leaks of a LeakSanitizer report are hdo's, for
tests/e2e/python.sh under make check SAN=1.

Debian's python3 is not built for LeakSanitizer and does not free its
modules, types, code objects and interned strings at exit: every pytest
run "leaks" some 1,700 blocks that are the interpreter's (and numpy's,
matplotlib's). They cannot be told apart by a suppression file: an LSan
suppression hides a leak when any frame of its stack matches, and every
allocation of the module hdo._hdo has the interpreter's frame at the
bottom of its stack (Python called it), so suppressing the interpreter
would hide hdo's leaks too. Instead a leak is hdo's when a frame of its
stack is in hdo's code or the libraries it calls (HDO_FRAMES): such a
leak fails the test, the others are counted as the interpreter's and
printed as a number.

usage: python3 lsan_filter.py LOG...   (LSan's log_path files)
prints "lsan: N leaks of hdo, M of the Python interpreter (ignored)",
then each of hdo's leaks; exit 1 when there is one.
"""

import re
import sys

#: frames that belong to hdo: the extension module, libhdo's sources
#: (ref/, compiled into the module), and the numerical libraries it
#: allocates through
HDO_FRAMES = re.compile(
    r"_hdo\.cpython|/ref/|\bref/|tools/python/ext/|\bhdo_[a-z_]+|"
    r"libmpfr|libgmp|libflint|libcalcium|libantic")


def leaks(text):
    """The leak records of a report: each "Direct/Indirect leak of ..."
    line with the stack under it."""
    parts = re.split(r"\n(?=(?:Direct|Indirect) leak of )", text)
    return [p.strip() for p in parts
            if p.startswith(("Direct leak of", "Indirect leak of"))]


def is_hdo(record):
    return any(HDO_FRAMES.search(line) for line in record.splitlines()[1:])


def main(paths):
    records = []
    for p in paths:
        with open(p, errors="replace") as f:
            records += leaks(f.read())
    ours = [r for r in records if is_hdo(r)]
    print("lsan: %d leaks of hdo, %d of the Python interpreter (ignored)"
          % (len(ours), len(records) - len(ours)))
    for r in ours:
        print(r)
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
