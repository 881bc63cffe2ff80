"""The ninth corpus, everyday NumPy from notebooks and small scripts
(``everyday_corpus9.py``, issue #19): every program gives eager's results on the eager
and numpy backends (values, dtypes, printed output, the arguments afterwards,
warnings) and breaks exactly as often as recorded here (docs/realworld.md, "A ninth
corpus").

Measured at HEAD before this corpus's fixes: 33 of 41 without a break, 10 breaks
(``p.deriv()`` of a poly1d, twice; ``not`` of an array's ``any()``; ``round()`` of
``float(col.mean())``; and the six below). The breaks left are branches on data
(``if not valid[0]``, ``if acc > best_acc`` in a loop, ``if np.isnan(v): continue``),
``.tolist()`` of arrays made into a dict, and ``and`` of two count comparisons (a jump
on a value only the graph knows).
"""

from __future__ import annotations

import pytest
from everyday_corpus9 import PROGRAMS
from rw_check import check_program

BACKENDS = ("eager", "numpy")

EXPECTED_BREAKS: dict[str, int] = {
    "forward_fill": 1,      # `if not valid[0]:` a branch on data
    # (column_report, round(float(col.mean()), 3), broke here until round() of a float
    # the graph computes was rounded by the graph: test_round_of_graph_numbers.py)
    "value_counts": 2,      # dict(zip(a.tolist(), b.tolist())): lists of array data
    "best_threshold": 1,    # `if acc > best_acc:` in a loop: a branch on data
    # (split_by_sign, `len(pos) > 0 and len(neg) > 0`, broke until `and` of two
    # comparisons of counts was the graph's `&`: translator/size_and_or.py)
    "running_stats": 1,     # `if np.isnan(v): continue`: a branch on data
}


def test_corpus_is_broad():
    assert len(PROGRAMS) >= 30
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)
    assert set(EXPECTED_BREAKS) <= {name for name, _, _ in PROGRAMS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_everyday_program(name, fn, args, backend):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check_program(fn, [args], backends=(backend,), breaks=breaks,
                  **({"graphs": 1} if not breaks else {}))
