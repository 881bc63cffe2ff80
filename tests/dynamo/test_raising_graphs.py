"""A graph that raises: the program's own ``try/except/finally`` sees the exception,
and every Python effect made before it is there, as in plain Python."""

import warnings

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]


def outcome(fn, *args):
    """(result or exception type and message, the arguments afterwards)."""
    try:
        result = fn(*args)
    except Exception as e:  # noqa: BLE001
        result = (type(e).__name__, str(e))
    return repr(result), repr(args)


def agree(fn, make_args, backend, calls=3):
    compiled = dynamo.compile(fn, backend=backend)
    for k in range(calls):
        assert outcome(compiled, *make_args(k)) == outcome(fn, *make_args(k)), k


def index_in_try(x, idx):
    try:
        return x[idx] * 2
    except IndexError:
        return -1.0


def divide_under_raise(x):
    with np.errstate(divide="raise"):
        try:
            return 1 / x
        except FloatingPointError as e:
            return f"caught: {e}"


def effects_before_a_raise(x, log):
    log.append("before")
    y = np.linalg.inv(x)
    log.append("after")
    return y


def cholesky_in_try(x, log):
    try:
        log.append("try")
        return np.linalg.cholesky(x)
    except np.linalg.LinAlgError as e:
        log.append(str(e))
        return None
    finally:
        log.append("finally")


def write_then_raise_in_try(x, idx):
    x[0] = 5.0
    try:
        return x[idx] * 2
    except IndexError:
        return x.sum()


def raise_then_write(x, idx, log):
    try:
        y = x[idx] + 1
    except IndexError:
        log.append("missed")
        y = x[0]
    x += 1
    return y


class Box:
    def __init__(self):
        self.n = 0

    def __repr__(self):
        return f"Box(n={self.n})"


def attribute_then_raise(x, box):
    box.n += 1
    return np.linalg.inv(x).sum()


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_index_error_reaches_the_programs_handler(backend):
    agree(index_in_try, lambda k: (np.arange(3.0), [1, 7, -9][k]), backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_floating_point_error_under_errstate_reaches_the_handler(backend):
    agree(divide_under_raise, lambda k: (np.array([1.0, 0.0 if k != 1 else 2.0]),), backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_effects_before_the_raising_op_are_kept(backend):
    singular = np.zeros((2, 2))
    agree(effects_before_a_raise, lambda k: (singular if k != 1 else np.eye(2), []), backend)
    agree(attribute_then_raise, lambda k: (singular if k != 1 else np.eye(2), Box()), backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_except_and_finally_around_a_linalg_error(backend):
    bad = np.array([[1.0, 2.0], [2.0, 1.0]])
    agree(cholesky_in_try, lambda k: (bad if k != 1 else np.eye(2), []), backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_writes_into_inputs_around_a_try_keep_their_order(backend):
    agree(write_then_raise_in_try, lambda k: (np.arange(3.0), [1, 7, 2][k]), backend)
    agree(raise_then_write, lambda k: (np.arange(3.0), [1, 7, 2][k], []), backend)


def test_the_rerun_is_the_programs_own_code_not_a_second_graph(traces):
    compiled = dynamo.compile(effects_before_a_raise, backend="eager")
    log = []
    with pytest.raises(np.linalg.LinAlgError):
        compiled(np.zeros((2, 2)), log)
    assert log == ["before"]
    assert compiled(np.eye(2), []) is not None      # the cached entry still serves
    assert traces == ["effects_before_a_raise"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_programs_exception_is_not_chained_to_dynamos(backend):
    compiled = dynamo.compile(effects_before_a_raise, backend=backend)
    for _ in range(2):   # the first call (a miss) and a cached one
        with pytest.raises(np.linalg.LinAlgError) as info:
            compiled(np.zeros((2, 2)), [])
        assert info.value.__context__ is None and info.value.__cause__ is None


def warn_then_raise(x):
    y = x / 0.0                           # RuntimeWarnings: divide, invalid
    return np.linalg.inv(np.ones((2, 2))) + y[0]


def warn_in_errstate_then_raise(x):
    with np.errstate(divide="warn"):
        y = x / 0.0
    with np.errstate(invalid="raise"):
        return np.sqrt(-np.abs(y) - 1)


def append_write_then_raise(x, log):
    log.append("before")
    x += 1                                # a write into an input: no rerun
    return np.linalg.inv(np.ones((2, 2))) * x[0]


def warnings_of(fn, *args):
    """(outcome, the warnings' category and text in order) of one call."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = outcome(fn, *args)
    return result, [(w.category.__name__, str(w.message)) for w in seen]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [warn_then_raise, warn_in_errstate_then_raise])
def test_warnings_before_the_raising_op_are_reported_once(backend, fn):
    compiled = dynamo.compile(fn, backend=backend)
    for _ in range(2):
        want = warnings_of(fn, np.arange(3.0))
        assert len(want[1]) == 2
        assert warnings_of(compiled, np.arange(3.0)) == want


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_effects_before_a_raise_in_a_graph_that_writes_an_input(backend):
    agree(append_write_then_raise, lambda k: (np.arange(3.0), []), backend)


def test_a_graph_that_cannot_be_rerun_and_would_lose_effects_runs_eagerly():
    compiled = dynamo.compile(append_write_then_raise, backend="eager")
    log, x = [], np.arange(3.0)
    with pytest.raises(np.linalg.LinAlgError):
        compiled(x, log)
    assert log == ["before"] and x.tolist() == [1.0, 2.0, 3.0]
    report = dynamo.explain(append_write_then_raise, backend="eager")(np.arange(3.0), [])
    assert any("cannot be rerun" in why for _, why in report.skipped), report.skipped
