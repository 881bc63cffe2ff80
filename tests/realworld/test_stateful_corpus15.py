"""Issue #16's fifteenth corpus (``stateful_corpus15.py`` and ``stateful_corpus15_more.py``,
42 programs written before they were run): optimizers and schedules kept as objects,
online estimators, block-streaming signal state, Python idioms that keep state
(mutable defaults, function attributes, ``cached_property``, ``NamedTuple`` states,
``SimpleNamespace``, 0-d arrays, ``itertools.cycle``, frozen dataclasses), stochastic
simulations holding a random generator, and trackers and agents. Each program, compiled
on the eager and numpy backends, gives plain Python's results and state after each of
its 20 calls of one shape, recompiles at most its target (a ``known`` cause is held to
its count and reported as an expected failure), and every recompile names the guard
that failed.
"""

import pytest
import stateful_corpus15
from rw_check import BACKENDS
from stateful_corpus15_data import CALLS
from test_stateful_programs import check_stateful_program, corpus_tests

PROGRAMS = stateful_corpus15.PROGRAMS

_, _, test_each_recompile_says_why = corpus_tests(PROGRAMS, CALLS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_stateful_program(prog, backend):
    check_stateful_program(prog, backend)


def test_corpus_has_42_programs_of_20_calls():
    assert len(PROGRAMS) == 42 and len({p.name for p in PROGRAMS}) == 42
    assert CALLS == 20
