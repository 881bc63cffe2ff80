"""A graph that raises: the program's own ``try/except/finally`` sees the exception,
and every Python effect made before it is there, as in plain Python."""

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
    compiled = dynamo.compile(effects_before_a_raise)
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
