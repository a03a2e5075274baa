#!/usr/bin/env python3
"""write_dsres.py -- a small MAT v4 writer of `dsres` result files, as
OpenModelica and Dymola write them, independent of hdo
(Python's struct only), for the tests of `hdo check`.

    write_dsres(path, names, times, columns, params, trans, single)

names: the variable names after Time; columns: for each name either
("data_2", values per time point), ("alias", i, sign) for a column of an
earlier name (dataInfo's negative column), or ("data_1", value) for a
parameter.  trans: binTrans (else binNormal); single: data in 4-byte
floats (else doubles); big: big-endian (else little-endian)."""
import struct


def _matrix(f, name, rows, ptype, text=False, big=False):
    """One MAT v4 matrix, rows x cols, column-major; ptype P: 0 double,
    1 single, 2 int32, 5 uint8; text: T = 1 (a char matrix); big: in
    big-endian byte order (M = 1)."""
    m = len(rows)
    n = len(rows[0]) if m else 0
    e = ">" if big else "<"
    f.write(struct.pack(e + "5i", (1000 if big else 0) + ptype * 10 +
                        (1 if text else 0), m, n, 0, len(name) + 1))
    f.write(name.encode() + b"\0")
    fmt = e + {0: "d", 1: "f", 2: "i", 5: "B"}[ptype]
    for j in range(n):
        for i in range(m):
            f.write(struct.pack(fmt, rows[i][j]))


def _chars(strings, trans):
    width = max(len(s) for s in strings)
    rows = [[ord(c) for c in s.ljust(width)] for s in strings]
    return [list(r) for r in zip(*rows)] if trans else rows


def write_dsres(path, names, times, columns, params=(), trans=False,
                single=False, big=False):
    allnames = ["Time"] + list(names)
    data2 = [list(times)]  # column 1: the time
    info = [[0, 1, 0, -1]]
    data1 = [[times[0], times[-1]]]  # column 1 of data_1: the time too
    col_of = {}
    for nm, c in zip(names, columns):
        if c[0] == "data_2":
            data2.append(list(c[1]))
            col_of[nm] = len(data2)
            info.append([2, len(data2), 0, -1])
        elif c[0] == "alias":
            info.append([2, c[2] * col_of[c[1]], 0, -1])
        else:
            data1.append([c[1], c[1]])
            info.append([1, len(data1), 0, 0])
    aclass = ["Atrajectory", "1.1", "", "binTrans" if trans else "binNormal"]
    p = 1 if single else 0
    with open(path, "wb") as f:
        _matrix(f, "Aclass", _chars(aclass, False), 5, text=True, big=big)
        _matrix(f, "name", _chars(allnames, trans), 5, text=True, big=big)
        _matrix(f, "description", _chars([n + " (desc)" for n in allnames],
                                         trans), 5, text=True, big=big)
        _matrix(f, "dataInfo", info if not trans else
                [list(r) for r in zip(*info)], 2, big=big)
        # data_k: variables x times in binTrans, times x variables else
        for nm, d in (("data_1", data1), ("data_2", data2)):
            _matrix(f, nm, d if trans else [list(r) for r in zip(*d)], p,
                    big=big)
