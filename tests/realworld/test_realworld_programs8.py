"""The eighth benchmark corpus (``scripts/realworld_programs8.py``, issue #15): every
program, on its small inputs, gives eager's results on the eager and numpy backends
(values, dtypes, shapes, the arguments afterwards, printed output, warnings), called
twice (the second call hits the cache).

The corpus was written before any of it ran under dynamo (explicit time steppers,
iterative solvers, small-matrix loops, training steps, per-sample filters and FFTs,
simulations with a seeded Generator); its benchmark sizes are timed by
``scripts/bench_realworld.py --corpus 8`` (docs/benchmarks.md, "An eighth corpus").
"""

from __future__ import annotations

import pytest
from rw_check import check_corpus_is_new, check_program
from script_modules import load_script

_corpus = load_script("realworld_programs8")
PROGRAMS = _corpus.programs(small=True)


@pytest.mark.parametrize("name,fn,args,kwargs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, args, kwargs):
    check_program(fn, [args], kwargs=kwargs)


def test_corpus_is_broad_and_new():
    """30 or more programs, new (``rw_check.check_corpus_is_new``)."""
    check_corpus_is_new(_corpus, ('realworld_programs', 'realworld_programs2', 'realworld_programs3',
                                  'realworld_programs4', 'realworld_programs5',
                                  'realworld_programs6', 'realworld_programs7'),
                        range(30, 1000))
