"""Issue #16's fourth corpus (``stateful_corpus4.py`` and ``stateful_corpus4_windows.py``):
each program, compiled on the eager and numpy backends, gives plain Python's results,
state after each call and printed output, and recompiles at most its target over the
calls after the first (a ``known`` cause is held to its count and reported as an
expected failure until it is fixed). Every recompile names its reason.
"""

import re
import warnings

import pytest
import stateful_corpus4
import stateful_corpus4_windows
from rw_check import BACKENDS
from test_stateful_programs import _measured, check_stateful_program

PROGRAMS = stateful_corpus4.PROGRAMS + stateful_corpus4_windows.PROGRAMS


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_stateful_program(prog, backend):
    check_stateful_program(prog, backend)


def test_corpus_size():
    """30 programs or more, each called 12 times or more (``CALLS``)."""
    assert len(PROGRAMS) >= 30
    assert len({p.name for p in PROGRAMS}) == len(PROGRAMS)
    assert stateful_corpus4.CALLS >= 12


_WHY = re.compile(r"entry \d+: .*(expected .* got |no longer holds)")


@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_each_recompile_says_why(prog):
    """Every recompile names, for each entry, the guard that failed: what it expected
    and got, or the decision that no longer holds (on the eager backend)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, report = _measured(prog, "eager")
    for r in report.recompiles:
        assert r.reasons and all(_WHY.search(why) for why in r.reasons), str(r)
