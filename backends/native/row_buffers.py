"""An intermediate that one row loop of the kernel writes and reads row by row becomes
a buffer of one row (issue #15, peak memory).

A row group (``emitter``: nests over the same rows under one outer loop) materializes
a value with several users as a full-size new array (``np.empty``), written and read
in the same row: ``d = c * c + c`` reads ``c`` three times, so ``c`` is stored. Where
the array is named by that one loop only, and always as ``a<k>[i, ...]`` with ``i``
the loop's own index, no row reads what another row wrote: a row's buffer serves.
In a ``prange`` it is made inside the loop's body (each row, on whatever thread, its
own); in a sequential ``range``, once before the loop. The same operations in the
same order on the same values: results are bit for bit as before; memory is a row
per thread, not the whole array (a chain of four such values over 400x400 float64
kept 5 MB between calls as lifted buffers, ``emitter.lift_allocations``).

Only rows of at least ``ROW_MIN`` elements: a new row buffer per row costs an
allocation (tens of ns), small beside a row of that length.

Example::

    a31 = np.empty((400, 400), np.float64)          for i9 in prange(400):
    for i9 in prange(400):                   ->         a31 = np.empty((400,), np.float64)
        for i44 in range(400):                          for i44 in range(400):
            a31[i9, i44] = t52                              a31[i44] = t52
        for i83 in range(400):                          for i83 in range(400):
            t84 = a31[i9, i83]                              t84 = a31[i83]
"""

from __future__ import annotations

import ast
import math
import re

from .emitter import _ALLOC

ROW_MIN = 256
_BODY = "    "
_LOOP = re.compile(r"^    for (\w+) in (p?range)\((\d+)\):$")


def _spans(lines: list) -> list:
    """(start, end) line ranges of the kernel body's top-level statements."""
    spans: list = []
    for k, line in enumerate(lines):
        if line.startswith(_BODY + " ") and spans:
            spans[-1][1] = k + 1
        elif line.strip():
            spans.append([k, k + 1])
    return spans


def _row_loop(lines: list, name: str, alloc: int):
    """(start, end, index) of the one top-level loop that uses ``name`` (every use
    ``name[index, ...]``), or None."""
    word = re.compile(rf"\b{name}\b")
    users = [(s, e) for s, e in _spans(lines)
             if s != alloc and any(word.search(line) for line in lines[s:e])]
    if len(users) != 1:
        return None
    s, e = users[0]
    m = _LOOP.match(lines[s])
    if m is None:
        return None
    index = m.group(1)
    body = "\n".join(lines[s + 1:e])
    uses = re.findall(rf"\b{name}\b(\[{index}, )?", body)
    if not uses or not all(uses):
        return None
    return s, e, index, m.group(2) == "prange"


def contract_rows(lines: list, results: list, row_min: int = ROW_MIN) -> list:
    """``lines`` with each intermediate that qualifies (see the module's text) made a
    row buffer: its uses lose the row index, its allocation one row's shape."""
    lines = list(lines)
    k = 0
    while k < len(lines):
        m = _ALLOC.match(lines[k])
        if m is None or m.group(1) in results:
            k += 1
            continue
        name, shape, dtype = m.group(1), ast.literal_eval(m.group(2)), m.group(3)
        found = _row_loop(lines, name, k) if len(shape) >= 2 and \
            math.prod(shape[1:]) >= row_min else None
        if found is None:
            k += 1
            continue
        s, e, index, parallel = found
        body = [line.replace(f"{name}[{index}, ", f"{name}[") for line in lines[s + 1:e]]
        row = f"{name} = np.empty({tuple(shape[1:])!r}, np.{dtype})"
        if parallel:   # (inside the prange: a row's buffer is its thread's own)
            lines[s + 1:e] = [_BODY * 2 + row] + body
            del lines[k]
        else:          # (before the loop: rows one after another reuse it)
            lines[s + 1:e] = body
            lines[k] = _BODY + row
            k += 1
    return lines
