"""The eleventh benchmark corpus (``scripts/realworld_programs11.py`` with
``realworld_programs11_train.py`` and ``realworld_programs11_sci.py``, issues #15/#19):
every program, on its small inputs, gives eager's results on the eager and numpy
backends (values, dtypes, shapes, the arguments afterwards, printed output, warnings),
called twice (the second call hits the cache), and breaks exactly as often as recorded
here (eager backend, small sizes).

The corpus was written before any of it ran under dynamo, in the style of public NumPy
repositories: layer classes with forward and backward passes, losses with gradients,
optimizers as classes, preprocessing, metrics, clustering, decompositions, graph
algorithms on adjacency matrices and scientific kernels; its benchmark sizes are timed
by ``scripts/bench_realworld.py --corpus 11`` (docs/benchmarks.md), its breaks and
compiles counted by ``scripts/corpus_breaks_compiles.py --corpus 11`` (docs/realworld.md).
"""

from __future__ import annotations

import pytest
from rw_check import check_corpus_is_new, check_program
from script_modules import load_script

_corpus = load_script("realworld_programs11")
PROGRAMS = _corpus.programs(small=True)

EXPECTED_BREAKS: dict[str, int] = {
    # a size the data decides used as a Python value (the vocabulary size
    # `int(ids.max()) + 1` as a shape; `len(nb) >= min_samples` of flatnonzero's
    # result), then a graph that writes an attribute and may raise
    "embedding bag trained by np.add.at": 2,
    "DBSCAN by region queries": 2,
    # early exits on data (`if n_pos == 0: return 0.0`; `if not new.any(): break`
    # after writes; `if total <= 0: ... break` in an SSA loop)
    "average precision": 1,
    "BFS levels by matrix products": 1,
    "Gillespie SSA, birth-death": 1,
}


@pytest.mark.parametrize("name,fn,args,kwargs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, args, kwargs):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check_program(fn, [args], kwargs=kwargs, breaks=breaks,
                  **({"graphs": 1} if not breaks else {}))


def test_corpus_is_broad_and_new():
    """50 programs, new (``rw_check.check_corpus_is_new``)."""
    assert set(EXPECTED_BREAKS) <= {p[0] for p in PROGRAMS}
    check_corpus_is_new(_corpus, ('realworld_programs', 'realworld_programs2',
                                  'realworld_programs3', 'realworld_programs4',
                                  'realworld_programs5', 'realworld_programs6',
                                  'realworld_programs7', 'realworld_programs8',
                                  'realworld_programs9', 'realworld_programs10',
                                  'realworld_programs10_sim'), range(50, 51))
