"""The tenth corpus, scientific kernels and library-style functions written before any
was run (``heldout_corpus10.py``, issue #19): every program gives eager's results on the
eager and numpy backends (values, dtypes, printed output, the arguments afterwards,
warnings) and breaks exactly as often as recorded here (docs/realworld.md, "A tenth
corpus").

Measured at HEAD before this corpus's fixes (3.11): 38 of 44 without a break, 9
breaks: ``np.zeros_like(0.0)`` of a bias kept in a dict (3; ``test_like_of_constants``),
``int(np.sum(...))`` in arithmetic (``test_int_of_graph_arrays``), ``"x: " + ", ".join``
of f-strings (``test_formatted_concat``), ``one_hot``'s (``int()`` itself, then the
shape made from it; one graph since corpus 11: ``ops/computed_shapes.py``), and the
three below.
"""

from __future__ import annotations

import pytest
from heldout_corpus10 import PROGRAMS
from rw_check import check_program

BACKENDS = ("eager", "numpy")

EXPECTED_BREAKS: dict[str, int] = {
    # (`if np.max(np.abs(x_new - x)) < tol: return x_new, i + 1`, a loop exit that
    # returns, is a while_loop node since translator/loop_returns.py: newton_sqrt)
    # `... if np.any(labels == k) else ...` in a comprehension (before 3.12 a function
    # of its own, whose repeat of the break is not reported: _reported_by_caller)
    "kmeans_step": 1,
}
# Python floats only, no array: the trace computes the root itself, no graph is needed
NO_GRAPH = {"bisection_cubic"}


def test_corpus_is_broad():
    assert len(PROGRAMS) >= 40
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)
    assert set(EXPECTED_BREAKS) <= {name for name, _, _ in PROGRAMS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_heldout_program(name, fn, args, backend):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check_program(fn, [args], backends=(backend,), breaks=breaks,
                  **({"graphs": 0 if name in NO_GRAPH else 1} if not breaks else {}))
