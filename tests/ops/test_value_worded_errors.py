"""NumPy errors whose words name a value, caught by the program's own ``except``
(issue #17, found by ``scripts/loop_program_search.py --generator mixed``, seed 73).

``x[np.array([i - 1])]`` with ``x`` empty raises IndexError for every index, so the
rule knows the class from the shapes; NumPy's message names the index ("index -1 is
out of bounds for axis 0 with size 0"). The translator asked NumPy on zero arrays
(``ops.rules.numpy_error``) and handed the program "index 0 ..." as the exact
message: ``str(e)`` in the handler came out wrong. NumPy is now asked on zeros and on
ones; where the words differ, only the class is sure and reading the message breaks.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo
from dynamo import ops
from dynamo.ops.meta import ArrayMeta
from dynamo.ops.rules import numpy_error


def message_of_picked(a, i):
    try:
        return a[np.array([i - 1])]
    except IndexError as e:
        return str(e)


def sum_of_picked(a, i):
    try:
        return float(a[np.array([i - 1])].sum())
    except IndexError as e:
        return "caught", str(e), e.args


def shapes_error(a, b):
    try:
        return a + b
    except ValueError as e:
        return str(e)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [message_of_picked, sum_of_picked])
def test_the_message_names_the_programs_index(fn, backend):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for a, i in ((np.ones(3), 1), (np.ones(0), 0), (np.ones(0), 3), (np.ones(2), 0)):
        same_outcome(outcome(fn, (a, i)), outcome(compiled, (a, i)), f"{a.shape} {i}")


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_shape_error_is_still_caught_in_the_graph(backend):
    """Its words depend on the shapes alone: still exact, one graph, no break."""
    dynamo.reset()
    a, b = np.ones(3), np.ones(4)
    assert dynamo.compile(shapes_error, backend=backend)(a, b) == shapes_error(a, b)
    assert dynamo.explain(shapes_error, backend=backend)(a, b).graph_break_count == 0


def test_numpy_error_says_whether_its_words_hold_for_every_value():
    getitem, add = ops.get("getitem"), ops.get("add")
    empty, index = ArrayMeta((0,), np.dtype("float64")), ArrayMeta((1,), np.dtype("int64"))
    error, exact = numpy_error(getitem, (empty, index), {}, IndexError())
    assert type(error) is IndexError and not exact
    three, four = ArrayMeta((3,), np.dtype("float64")), ArrayMeta((4,), np.dtype("float64"))
    error, exact = numpy_error(add, (three, four), {}, ValueError())
    assert type(error) is ValueError and exact
