"""An op inside ``try`` after a loop node reaches the program's ``except`` (issue #19,
``dynamo/raising.py``: ``rerun_on_raise``, ``on_raise``).

The handler sees an error the graph raises while it runs only through a rerun of the
frame's original code. A loop node made the graph one that is never rerun, so
``u[j]`` out of bounds inside ``try: ... except IndexError:`` after a time-stepping
loop raised out of the compiled function past the handler (a wrong result: eager
returns the handler's value). Now a loop node whose body draws nothing may be rerun
in a graph with an op inside ``try``, and a graph with such an op that still cannot be
rerun runs eagerly instead. Both backends, an index in bounds and one out of bounds.

Example::

    for _ in range(50): u[1:-1] = ...    # a loop node
    try:
        v = u[j]                          # IndexError for j >= len(u): the handler runs
    except IndexError:
        v = -1.0
"""

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo


def stepped_then_read(u0, idx):
    u = u0.copy()
    for _ in range(50):
        u[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
    j = idx.max() + 10
    try:
        v = u[j]
    except IndexError:
        v = -1.0
    return u, v


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_the_handler_sees_the_error_of_an_op_after_a_loop_node(backend):
    u0 = np.linspace(0.0, 1.0, 12)
    compiled = dynamo.compile(stepped_then_read, backend=backend)
    for idx in (np.array([0, 1]), np.array([0, 5]), np.array([1, 0]), np.array([3, 9])):
        same_outcome(outcome(stepped_then_read, (u0, idx)), outcome(compiled, (u0, idx)),
                     f"idx={idx}")
    report = dynamo.explain(stepped_then_read, backend=backend)(u0, np.array([0, 1]))
    assert (report.graph_count, report.graph_break_count) == (1, 0), report.break_reasons
    assert any(n.target == "fori_loop" for g in report.graphs for n in g.call_nodes())
