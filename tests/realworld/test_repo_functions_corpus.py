"""The sixth corpus, functions in the style of public repositories
(``repo_functions_corpus.py``, issue #19): every program gives plain NumPy's results on
the eager and numpy backends (values, dtypes, printed output, the arguments afterwards,
warnings), breaks exactly as often as recorded here, and every break has a hint of its
own (not the last-resort default of ``dynamo/hints.py``).

The counts are what the corpus measures now: a change that adds a break fails here, and
one that removes a break must lower its count (docs/realworld.md, "A sixth corpus").
"""

from __future__ import annotations

import pytest
from repo_functions_corpus import PROGRAMS
from rw_check import check_program, explain

from dynamo import hints

BACKENDS = ("eager", "numpy")

# Breaks that remain, each with its cause (docs/realworld.md, "A sixth corpus"). One
# source line counts once per frame that breaks on it: a check in a helper inlined three
# calls deep breaks the caller at each call site and the helper itself, and a callee
# recompiled in a loop counts once per compile.
EXPECTED_BREAKS: dict[str, int] = {
    # (cross_entropy_objective's checks, `assert len(X[X < 0]) == len(X[X > 1]) == 0` on
    # data-dependent sizes, `assert np.array_equal(...)` and `assert np.allclose(...)`,
    # are data_check ops of its graph: tests/breaks/test_size_checks.py,
    # test_data_checks.py; it had 6 breaks)
    # (`if np.linalg.norm(param_grad) > t:`, gradient clipping in sgd_momentum_named_params
    # and sgd_with_exponential_schedule, is both ways and a branch_select: they had 1
    # and 3 breaks, tests/breaks/test_branch_selects.py)
    # `X[labels == j].mean(axis=0) if np.any(labels == j) else centroids[j]` keeps its
    # break: the graph drew random numbers before it (rng.choice), so it cannot be
    # rerun, and the mean of an empty selection warns at Python level
    "kmeans_lloyd": 1,
    # `rng.exponential(scale)` without size=: a Python float
    "gillespie_like_fixed_steps": 1,
    # `vars(self)` (the object's live __dict__; on 3.11 the comprehension's own frame's
    # repeat of the break is not reported, break_entry._reported_by_caller)
    "module_setattr_params": 2,
}


def test_corpus_is_broad():
    assert len(PROGRAMS) >= 50
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)
    assert set(EXPECTED_BREAKS) <= {name for name, _, _ in PROGRAMS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_repo_function(name, fn, args, backend):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check_program(fn, [args], backends=(backend,), breaks=breaks,
                  **({"graphs": 1} if not breaks else {}))


@pytest.mark.parametrize("name,fn,args",
                         [p for p in PROGRAMS if p[0] in EXPECTED_BREAKS],
                         ids=[p[0] for p in PROGRAMS if p[0] in EXPECTED_BREAKS])
def test_every_break_has_a_hint(name, fn, args):
    report = explain(fn, args)
    assert report.break_reasons
    for b in report.break_reasons:
        assert b.hint and b.hint != hints.DEFAULT.hint, f"{name}: no hint for {b.reason!r}"
        assert b.explanation, f"{name}: no explanation for {b.reason!r}"
