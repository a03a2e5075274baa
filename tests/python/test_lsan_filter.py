"""test_lsan_filter.py -- the classifier of tests/e2e/python.sh tells hdo's
leaks from the interpreter's: on records of real reports (a leak planted
in the module by not clearing a run's result, and the interpreter's own
at exit), both ways."""

import lsan_filter

PLANTED = """\
Direct leak of 245760 byte(s) in 3 object(s) allocated from:
    #0 0x7f1b7f2b78d5 in __interceptor_realloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:85
    #1 0x7f1b7c81f4e1 in hdo_result_add_row ref/hybrid/result.c:149
    #2 0x7f1b7c8271eb in hdo_run_add_row ref/hybrid/sample.c:105
    #3 0x7f1b7c8225f1 in run_start ref/hybrid/run.c:282
    #4 0x7f1b7c7dd4cb in hdo_py_run tools/python/ext/run.c:402
    #5 0x547b95  (/usr/bin/python3.11+0x547b95)
"""

MPFR = """\
Indirect leak of 64 byte(s) in 1 object(s) allocated from:
    #0 0x7f911c0b89cf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
    #1 0x7f911b0a1234  (/lib/x86_64-linux-gnu/libmpfr.so.6+0x1234)
"""

PYTHON = """\
Direct leak of 25944 byte(s) in 141 object(s) allocated from:
    #0 0x7f911c0b89cf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
    #1 0x53a557 in _PyCode_New (/usr/bin/python3.11+0x53a557)

Direct leak of 48111 byte(s) in 738 object(s) allocated from:
    #0 0x7f911c0b78d5 in __interceptor_realloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:85
    #1 0x561864  (/usr/bin/python3.11+0x561864)
"""


def test_hdo_leaks_are_found_behind_the_interpreter_frame():
    records = lsan_filter.leaks("==1==ERROR: LeakSanitizer\n\n" + PLANTED + "\n" + PYTHON + "\n" + MPFR)
    assert len(records) == 4
    assert [lsan_filter.is_hdo(r) for r in records] == [True, False, False, True]


def test_main_fails_on_a_leak_of_hdo(tmp_path, capsys):
    clean, dirty = tmp_path / "lsan.1", tmp_path / "lsan.2"
    clean.write_text(PYTHON)
    dirty.write_text(PYTHON + "\n" + PLANTED)
    assert lsan_filter.main([str(clean)]) == 0
    assert "0 leaks of hdo, 2 of the Python interpreter" in capsys.readouterr().out
    assert lsan_filter.main([str(clean), str(dirty)]) == 1
    assert "1 leaks of hdo, 4 of the Python interpreter" in capsys.readouterr().out
