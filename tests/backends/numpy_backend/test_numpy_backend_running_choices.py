"""The numpy backend's code for a loop node that carries a running choice (issue #19,
task p63/t2: ``translator/running_choices.py``): the flag "ever set" is chosen as
``branch_select(f, f, flag)``, the trip's flag itself as a value.

``carried_choices.flag_into_if`` wrote the flag's comparison into the ``if`` and
dropped its name, though a choice still read the name as its value: the body raised
``NameError`` on the first trip that took the ``if``, and every call reran the frame's
original code (right results, 0.76x plain instead of the node's speed). Now the flag
keeps its name where a choice reads it as a value.
"""

from __future__ import annotations

import ast
import builtins
import logging

import numpy as np

import dynamo


def closest(x, C):
    best = np.inf
    idx = -1
    for k in range(C.shape[0]):
        d = np.sum((x - C[k]) ** 2)
        if d < best:
            best = d
            idx = k
    return idx, best


def _unbound_reads(src: str) -> set[str]:
    """Names the ``*_taking`` function reads that it never binds (the backend's own
    helpers and constants start with ``_``)."""
    fn = next(n for n in ast.walk(ast.parse(src))
              if isinstance(n, ast.FunctionDef) and n.name.endswith("_taking"))
    bound = {a.arg for a in fn.args.args}
    reads = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Name):
            (bound.add if isinstance(n.ctx, (ast.Store, ast.Del)) else reads.add)(n.id)
    return {r for r in reads - bound if not r.startswith("_") and not hasattr(builtins, r)}


def test_the_flag_read_as_a_value_keeps_its_name(caplog):
    rng = np.random.default_rng(0)
    x, C = rng.random(3), rng.random((20, 3))
    dynamo.reset()
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        got = dynamo.compile(closest, backend="numpy")(x, C)
    src = "\n".join(r.getMessage() for r in caplog.records if "_taking(" in r.getMessage())
    src = src[src.index("def "):]
    assert "for trip in range(" in src, src
    assert not _unbound_reads(src), (_unbound_reads(src), src)
    want = closest(x, C)
    assert got == want and type(got[1]) is type(want[1])
