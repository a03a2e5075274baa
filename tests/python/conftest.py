"""conftest.py -- what the tests of tests/python share: the repository's
top folder and the hdo command of this build (HDO, as tests/e2e/run.sh
exports it), for the tests that compare the module with the command."""

import os
import subprocess

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture(scope="session")
def top():
    return TOP


@pytest.fixture(scope="session")
def hdo_command():
    """A function running `hdo ARGS...` in a folder: (exit code, stdout,
    stderr). The command is the independent path the module is compared
    with: the same library, reached through its own files and parser."""
    exe = os.path.join(TOP, os.environ.get("HDO", "build/hdo"))
    if not os.access(exe, os.X_OK):
        pytest.fail("the hdo command %s is not built (make)" % exe)

    def run(args, cwd):
        p = subprocess.run([exe] + list(args), cwd=cwd, capture_output=True,
                           text=True, timeout=600)
        return p.returncode, p.stdout, p.stderr
    return run
