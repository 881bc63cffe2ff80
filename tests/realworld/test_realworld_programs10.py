"""The tenth benchmark corpus (``scripts/realworld_programs10.py`` and
``realworld_programs10_sim.py``, issues #15/#19): every program, on its small inputs,
gives eager's results on the eager and numpy backends (values, dtypes, shapes, the
arguments afterwards, printed output, warnings), called twice (the second call hits
the cache), and breaks exactly as often as recorded here (eager backend, small sizes).

The corpus was written before any of it ran under dynamo: signal processing, image
processing, statistics, finance, numerical methods, ML training and simulations; its
benchmark sizes are timed by ``scripts/bench_realworld.py --corpus 10``
(docs/benchmarks.md, "A tenth corpus"), its breaks and compiles counted by
``scripts/corpus_breaks_compiles.py --corpus 10`` (docs/realworld.md).
"""

from __future__ import annotations

import pytest
from rw_check import check_corpus_is_new, check_program
from script_modules import load_script

_corpus = load_script("realworld_programs10")
PROGRAMS = _corpus.programs(small=True)

EXPECTED_BREAKS: dict[str, int] = {
    # loop exit tests on data (a tolerance reached: `if ...: break` / `return`): a
    # nested `while` in the code after the test; `lam = 0.0` before the loop, an
    # np.float64 after its first trip, returned after the loop (IRLS's `beta = new;
    # break` and CG's `return x, it` are while_loop nodes since translator/loop_returns.py)
    "Newton with backtracking line search": 1,
    "power iteration to a tolerance": 1,
    # ifs on data whose ways do different things (a counter, an early stop, a Python
    # float or an np.float64 by the data: `min(5.0, max(0.2, ...))`)
    "permutation test of means": 1,
    "adaptive RK45 (Dormand-Prince) on Van der Pol": 1,
    "logistic regression with early stopping": 1,
    "Ising single-spin Metropolis": 1,
    # sizes the data decides used as Python values (`len(members) == 0`, a loop over
    # the pairs found close; `range(ytr.max() + 1)`)
    "k-means with empty-cluster reseeding": 1,
    "particle collisions in a box": 1,
    "k-nearest-neighbour vote": 1,
}


@pytest.mark.parametrize("name,fn,args,kwargs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, args, kwargs):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check_program(fn, [args], kwargs=kwargs, breaks=breaks,
                  **({"graphs": 1} if not breaks else {}))


def test_corpus_is_broad_and_new():
    """45 programs, new (``rw_check.check_corpus_is_new``)."""
    assert set(EXPECTED_BREAKS) <= {p[0] for p in PROGRAMS}
    check_corpus_is_new(_corpus, ('realworld_programs', 'realworld_programs2',
                                  'realworld_programs3', 'realworld_programs4',
                                  'realworld_programs5', 'realworld_programs6',
                                  'realworld_programs7', 'realworld_programs8',
                                  'realworld_programs9'), range(45, 46))
