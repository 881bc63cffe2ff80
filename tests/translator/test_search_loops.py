"""Loops over data, third round of issue #19 (tests/translator/corpus_search_loops.py,
25 programs written before they ran): searches whose ``break`` branch assigns locals,
trip counts only the data decides, nested loops over data (tree split searches).

Each program runs eagerly and compiled on both CPU backends over data drawn by
hypothesis (no sample, one sample, many; one class or several), one compiled function
called with all of them in turn: results, dtypes, exceptions and their messages,
arguments after the call, printed output and warnings (category, text, how many) are
Python's. The breaks are counted on one larger input: a loop over data breaks once per
loop nest, never once per trip, and every break carries a hint.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from corpus_search_loops import PROGRAMS
from harness import outcome, same_outcome
from over_data import same_over_data

import dynamo

BACKENDS = ("eager", "numpy")

# breaks measured on 3.11 at 40 samples, 4 classes (3.13/3.14 within one of these):
# a search or a nested loop over data breaks once where the loop needs a value only the
# data decides; the per-trip ones (a break per threshold) must not come back
MAX_BREAKS = {
    # the loop needs np.where's count, and ``x[i - 1] if i > 0`` tests an array element
    "clamp_negatives_where": 2,
}
DEFAULT_MAX_BREAKS = 1



@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, fn, make_args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_equals_python_over_data(name, fn, make_args, backend):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    same_over_data(name, fn, compiled, make_args, max_examples=5)


@pytest.mark.parametrize("name, fn, make_args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_breaks_per_nest_with_hints(name, fn, make_args):
    """A loop over data breaks at most once per loop nest (not once per trip: 40
    samples give 40 trips), and every break says what to change."""
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*make_args(np.random.default_rng(0), 40, 4))
    assert report.graph_break_count <= MAX_BREAKS.get(name, DEFAULT_MAX_BREAKS), str(report)
    for brk in report.break_reasons:
        assert not brk.reason.startswith("iteration over"), brk.reason
        assert brk.hint, brk.reason


# ------------------------------------------------------------ the break's message and hint
def _converged_printed(a, tol, maxit):
    # (written after the corpus ran: the third shape, code other than assignments
    # in the break branch, with a loop variable nothing reads)
    x = np.ones_like(a)
    for _ in range(maxit):
        x = 0.5 * (x + a / x)
        if np.abs(x * x - a).max() < tol:
            print("converged")
            break
    return x


def _status_text(a, tol, maxit):
    # (a text the break branch sets: no value of the graph, still a break; a bool,
    # ``converged_flag``, is the last test's truth since task t5: exit_flags.py)
    x = np.ones_like(a)
    status = "maxit"
    for _ in range(maxit):
        x = 0.5 * (x + a / x)
        if np.abs(x * x - a).max() < tol:
            status = "converged"
            break
    return x, status


@pytest.mark.parametrize("fn, args, says, hint", [
    (dict((n, f) for n, f, _ in PROGRAMS)["first_above_threshold"],
     (np.array([0.1, 0.7, 0.9]), 0.5),
     "the loop variable 'i' is read in the body (an index-reading search",
     "a first-match search needs no loop"),
    (dict((n, f) for n, f, _ in PROGRAMS)["first_level_crossing"],  # an ``and`` chain
     (np.array([0.0, 0.4, 1.2, 0.3]), 1.0),
     "the loop variable 't' is read in the body", "a first-match search needs no loop"),
    (dict((n, f) for n, f, _ in PROGRAMS)["quantile_by_scan"],     # val = s[i]; break
     (np.array([0.5, 1.0, 2.0]), 0.5),
     "the loop variable 'i' is read in the body", "a first-match search needs no loop"),
    (_status_text, (np.array([2.0, 3.0]), 1e-9, 30),
     "the break branch assigns 'status' before it leaves the loop",
     "set the value after the loop from the loop's state"),
    (_converged_printed, (np.array([2.0, 3.0]), 1e-9, 30),
     "the break branch runs code before it leaves the loop",
     "move that code after the loop"),
])
def test_a_search_break_names_its_shape(fn, args, says, hint):
    """A ``for ... break`` whose ``break`` branch runs code first, or whose test is an
    ``and`` chain, is a loop's exit test (not "which branch runs"), names its shape,
    and gets that shape's rewrite as its hint (one break: the loop then runs as
    Python)."""
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    (brk,) = [b for b in report.break_reasons if b.cause == "data_dependent"]
    assert brk.reason == ("truth value of an array (data-dependent control flow: a "
                          "loop's exit test)"), brk.reason
    assert says in brk.explanation, brk.explanation
    assert brk.hint.startswith(hint), brk.hint


def _search_rewritten(a, thr):
    c = a > thr                      # the hint's rewrite of first_above_threshold
    return np.where(c.any(), np.argmax(c), -1)


def _flag_after_loop(a, tol, maxit):
    x = np.ones_like(a)              # the hint's rewrite of converged_flag
    for _ in range(maxit):
        x = 0.5 * (x + a / x)
        if np.abs(x * x - a).max() < tol:
            break
    return x, np.abs(x * x - a).max() < tol


@pytest.mark.parametrize("fn, make_args, sizes", [
    # (the search's rewrite is for an array that is not empty, as its hint says; a
    # threshold of 10 matches nothing)
    (_search_rewritten, lambda rng, n: (rng.standard_normal(n), 0.5 if n % 2 == 0 else 10.0),
     (1, 2, 7, 30)),
    (_flag_after_loop, lambda rng, n: (rng.uniform(0.5, 4.0, max(n, 1)), 1e-9, n % 9),
     (0, 1, 7, 30)),
])
def test_the_hints_rewrites_have_no_break(fn, make_args, sizes):
    """The rewrites the hints give compile with no break and Python's results (no
    match, a match, no trip, many)."""
    for n in sizes:
        args = make_args(np.random.default_rng(n), n)
        dynamo.reset()
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
        assert report.graph_break_count == 0, str(report)
        want = outcome(fn, copy.deepcopy(args))
        got = outcome(dynamo.compile(fn, backend="eager"), copy.deepcopy(args))
        same_outcome(want, got, f"{fn.__name__} n={n}")
