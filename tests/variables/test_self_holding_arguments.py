"""A list that holds itself, given to a NumPy call (#17, the walks of random state
program 20392).

``log.append(log)`` and then ``np.array(log)`` (or ``np.asarray``, ``np.stack``): the
list's items were turned into the op's argument (``ListVariable.as_graph_arg``, and its
``as_meta``) one by one, and one of them was the list again: the walk recursed without
end (RecursionError, an internal error the frame fell back from). Now such an argument
is a graph break: the call runs when the program runs, and NumPy raises (or not) its own
exception there, which the program's own ``except`` sees.
"""

import numpy as np
import pytest

import dynamo


def _array_of(x, log):
    log.append(log)
    return x + 1, np.array(log)


def _caught(x, log):
    log.append([1.0, log])
    try:
        r = np.asarray(log).shape
    except ValueError as e:
        r = ("caught", type(e).__name__)
    return x * 2, r


def _made_here(x, log):
    new = [1.0, 2.0]
    new.append(new)
    try:
        return x - 1, np.stack(new)
    except (ValueError, TypeError) as e:
        return x - 1, type(e).__name__


def _outcome(fn, *args):
    try:
        out = fn(*args)
    except Exception as e:  # noqa: BLE001 (plain Python's exception is the one expected)
        return ("raised", type(e).__name__, str(e))
    return tuple(v.tolist() if isinstance(v, np.ndarray) else v for v in out)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", (_array_of, _caught, _made_here), ids=lambda f: f.__name__)
def test_a_list_that_holds_itself_as_an_ops_argument(fn, backend, caplog):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    plain_log, log = [0.5], [0.5]
    with caplog.at_level("WARNING", logger="dynamo.internal"):
        for n in (2, 3):
            assert _outcome(compiled, np.ones(n), log) == _outcome(fn, np.ones(n), plain_log)
            assert len(log) == len(plain_log) and log[-1] is not None
    internal = [r.getMessage() for r in caplog.records if r.name == "dynamo.internal"]
    assert not internal, internal[0]


def test_the_break_says_why():
    dynamo.reset()
    report = dynamo.explain(_caught, backend="eager")(np.ones(2), [0.5])
    assert not report.skipped
    assert "a list that holds itself as an op's argument" in \
        [b.reason for b in report.break_reasons]
