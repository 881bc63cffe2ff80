"""A user's backend function (``dynamo.compile(f, backend=my_backend)``) that does not
set ``dynamic_shapes = True`` gets static shapes, but a changing Python float is still a
graph input it receives among ``example_inputs`` (issue #16): a float computed before a
graph break does not make its resume function compile again on every call. A changing
int used only in arithmetic is an input too (``tests/symbolic/test_static_backend_ints.py``);
one used as a size stays pinned for such a backend, and each recompile it causes, and
the cache-limit warning, say how to opt in.

Example::

    >>> def mine(graph, example_inputs): return eager(graph, example_inputs)
    >>> f = dynamo.compile(step, backend=mine)     # 10 calls with new floats: 2 compiles
"""

import logging

import numpy as np
from dynamo.backends.eager import eager
from harness import outcome, same_outcome

import dynamo

SEEN: list = []


def mine(graph, example_inputs):
    """A user backend of static shapes: records what it is handed, runs the graph."""
    SEEN.append([type(a).__name__ for a in example_inputs])
    return eager(graph, example_inputs)


def scaled_after_break(x, k):
    """A float computed from a changing argument, then a graph break, then used."""
    s = k * 0.5 + 1.0
    print("", end="")        # a graph break: ``s`` reaches the resume function
    return x * s, s


def _count(fn, calls):
    """Compile count of ``fn`` with ``mine`` over ``calls``; results equal eager's."""
    SEEN.clear()
    dynamo.reset()
    with dynamo.explain(fn, backend=mine) as compiled:
        for args in calls:
            same_outcome(outcome(fn, args), outcome(compiled, args), f"{args[1:]}")
    return compiled.report.compile_count


def test_a_changing_float_is_an_input_of_a_user_backend():
    calls = [(np.linspace(0, 1, 4), 0.25 + i) for i in range(10)]
    # the frame and its resume function each compile twice (the first call's value is
    # a constant; a second value makes it an input), not once per call
    assert _count(scaled_after_break, calls) <= 4
    assert ["ndarray", "float"] in SEEN   # handed over as an ordinary input


def counter_after_break(x, t):
    s = 0.9 ** t
    print("", end="")
    return x * s


def sized_after_break(x, n):
    s = np.ones(n).sum()     # ``n`` a size: pinned for a backend of static shapes
    print("", end="")
    return x * s


def test_a_changing_int_used_as_a_size_stays_pinned_and_the_cache_warning_says_why(
        caplog):
    caplog.set_level(logging.DEBUG, logger="dynamo.recompiles")
    dynamo.reset()
    compiled = dynamo.compile(sized_after_break, backend=mine)
    for i in range(dynamo.config.cache_size_limit + 2):
        assert (compiled(np.ones(3), i) == sized_after_break(np.ones(3), i)).all()
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "dynamo.recompiles")
    assert "The backend 'mine' takes static shapes only" in text
    assert "mine.dynamic_shapes = True" in text
    # each recompile says so too, and the cache-limit warning
    said = [r.getMessage() for r in caplog.records if "mine.dynamic_shapes" in r.getMessage()]
    assert any("recompiling" in m for m in said)
    assert any("cache_size_limit" in m for m in said)


def test_a_float_recompile_of_a_named_backend_adds_no_note(caplog):
    caplog.set_level(logging.DEBUG, logger="dynamo.recompiles")
    dynamo.reset()
    compiled = dynamo.compile(counter_after_break, backend="eager")
    for i in range(4):
        compiled(np.ones(3), i)
    assert not any("static shapes only" in r.getMessage() for r in caplog.records)
