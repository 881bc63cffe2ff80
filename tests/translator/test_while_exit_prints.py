"""A ``print`` in a loop's exit (``if err < tol: print("converged"); break``), with
``dynamo.config.defer_prints`` on (issue #19, task t5;
dynamo/translator/exit_prints.py): the loop is one ``while_loop`` node and the glue
prints on the way the last test chose, once, in program order.

Each print program of tests/translator/corpus_while_exits.py is compared with Python
(``harness.check``: result, arguments after the call, and the printed text, twice)
on both CPU backends, with the exit taken on the first trip, on a middle one, never
(the counter or the range runs out) and on NaN data; and its breaks. With
``defer_prints`` off (the default) a print is a break, as before.
"""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest
from corpus_while_exits import (
    fixed_point_print_return,
    newton_print_both_ways,
    newton_print_counter,
    newton_print_exit,
)
from harness import check

import dynamo

BACKENDS = ("eager", "numpy")
_A = np.linspace(0.5, 9.0, 7)
_X = np.linspace(0.0, 1.0, 5)


@pytest.fixture(autouse=True)
def defer_prints():
    dynamo.config.defer_prints = True
    try:
        yield
    finally:
        dynamo.config.defer_prints = False


# (fn, args, breaks): the exit on the first trip (a huge tolerance), a middle one,
# never (a tolerance of -1 or 0), NaN data (never), maxit 0 and 1
CASES = [
    (newton_print_exit, (_A, 1e30), 0),
    (newton_print_exit, (_A, 1e-10), 0),
    (newton_print_exit, (_A, -1.0), 0),
    (newton_print_exit, (np.array([4.0, np.nan]), 1e-8), 0),
    (newton_print_exit, (_A, 1e-10, 1), 0),
    (fixed_point_print_return, (_X, 1e30), 0),
    (fixed_point_print_return, (_X, 1e-3), 0),
    (fixed_point_print_return, (_X, 0.0), 0),
    (newton_print_both_ways, (_A, 1e30), 0),
    (newton_print_both_ways, (_A, 1e-10), 0),
    (newton_print_both_ways, (_A, -1.0), 0),
    (newton_print_both_ways, (_A, 1e-10, 0), 0),
    (newton_print_both_ways, (np.array([4.0, np.nan]), 1e-8, 5), 0),
    # (the counter's text: an int the data decides, which the glue does not format)
    (newton_print_counter, (_A, 1e-10), 1),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args,breaks", CASES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
def test_prints_as_python(fn, args, breaks, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend, breaks=breaks)


def test_printed_once_per_call_on_the_taken_way():
    """The text itself: the exit's line where the loop converged, none where it did
    not, and the line after the loop on both, each once per call."""
    compiled = dynamo.compile(newton_print_both_ways)
    for tol, want in ((1e30, "converged, err 4.0\ndone\n"), (-1.0, "done\n")):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            compiled(_A, tol)
            compiled(_A, tol)
        assert out.getvalue() == want * 2


def test_off_by_default_the_print_breaks():
    dynamo.config.defer_prints = False
    with contextlib.redirect_stdout(io.StringIO()):
        e = dynamo.explain(newton_print_exit)(_A, 1e-10)
    assert e.graph_break_count == 1
