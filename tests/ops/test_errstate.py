"""``with np.errstate(...)`` in compiled functions: two graph ops around the block.

Compared with eager on every backend that runs on the CPU: values, printed output,
raised exceptions, the warnings raised (``warnings.catch_warnings`` records them), and
the caller's own error settings afterwards, including after the graph raised inside
the block.
"""

import contextlib
import warnings

import numpy as np
import pytest
from dynamo.backends.cupy_backend.backend import reference_backend
from dynamo.backends.passes import without_errstate
from harness import check

import dynamo
from dynamo.ops.errstate import has_errstate

X = np.array([1.0, 0.0, 2.0, 0.0])
Y = np.array([2.0, 0.0, 0.0, 1.0])
BIG = np.abs(np.random.default_rng(0).standard_normal((600, 400))) + 0.5
BIG[7, 3] = 0.0
BLOCKED = {"min_blocked_elements": 0, "min_threaded_elements": 0, "threads": 2}
BACKENDS = [("eager", None), ("numpy", None), ("numpy", BLOCKED)]
IDS = ["eager", "numpy", "numpy-blocked"]


def log_ratio(num, den):
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = num / den
        out = np.log(ratio)
    return np.nan_to_num(out, nan=0.0, posinf=50.0, neginf=-50.0)


def warns_after_the_block(x, y):
    with np.errstate(divide="ignore"):
        a = np.log(x)
    return a, np.log(y)                 # outside the block: warns as eager does


def raises_inside(x, y):
    with np.errstate(divide="raise"):
        return np.log(x) + 1


def nested(x, y):
    with np.errstate(all="ignore"):
        a = x / y
        with np.errstate(divide="raise", invalid="ignore"):
            b = a * 2
        c = np.log(a)
    return b, c


def as_target(x, y):
    with np.errstate(invalid="ignore") as e:
        a = np.sqrt(x - 1)
    return a, e


def loop_inside(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(3):
            x = x / y
    return x


def safe_log(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(a / b)


def inlined_helper(x, y):
    return safe_log(x, y) * 2 + safe_log(y, x)     # the add outside warns


PROGRAMS = [log_ratio, warns_after_the_block, raises_inside, nested, as_target, loop_inside,
            inlined_helper]


def run_recording(fn, *args):
    """(result or exception, warnings as (category, text), the error settings after)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            out = fn(*args)
        except Exception as e:  # noqa: BLE001 (compared)
            out = e
    return out, [(w.category, str(w.message)) for w in seen], np.geterr()


def same_outcome(got, want, blocked=False):
    (g, gw, gerr), (w, ww, werr) = got, want
    if isinstance(w, Exception):
        assert type(g) is type(w) and str(g) == str(w)
    else:
        for a, b in zip(g if isinstance(g, tuple) else (g,), w if isinstance(w, tuple) else (w,)):
            np.testing.assert_array_equal(a, b)
    if blocked:   # one warning per block that meets the condition (docs/numpy_backend.md)
        gw, ww = sorted(set(gw), key=str), sorted(set(ww), key=str)
    assert gw == ww and gerr == werr


@pytest.mark.parametrize("backend, options", BACKENDS, ids=IDS)
@pytest.mark.parametrize("fn", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
@pytest.mark.parametrize("args", [(X, Y), (BIG, BIG[::-1].copy())], ids=["small", "big"])
def test_errstate_blocks_equal_eager(fn, backend, options, args):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend, options=options, fullgraph=True)
    want = run_recording(fn, *args)
    for _ in range(2):                  # the trace, then a cache hit
        same_outcome(run_recording(compiled, *args), want, blocked=backend == "numpy")


@pytest.mark.parametrize("backend, options", BACKENDS, ids=IDS)
def test_a_graph_that_raises_inside_the_block_restores_the_callers_settings(backend,
                                                                          options):
    compiled = dynamo.compile(raises_inside, backend=backend, options=options)
    for outer in ("warn", "ignore", "raise"):
        with np.errstate(divide=outer, over="ignore"):
            before = np.geterr()
            with pytest.raises(FloatingPointError):
                compiled(BIG, BIG)
            assert np.geterr() == before
    assert np.geterr()["divide"] == "warn"


def test_the_graph_holds_the_two_ops():
    report = dynamo.explain(log_ratio, backend="eager")(X, Y)
    assert (report.graph_count, report.graph_break_count) == (1, 0)
    src = str(report.graphs[0])
    assert "ops.errstate_enter(divide='ignore', invalid='ignore')" in src
    assert src.index("errstate_enter") < src.index("ops.divide") < src.index("ops.log") \
        < src.index("errstate_exit") < src.index("nan_to_num")


def break_inside(x, y):
    with np.errstate(divide="ignore"):
        a = np.log(x)
        print("inside", a.shape)
    return a * 2


def callback_mode(x, y):
    with np.errstate(divide="call", call=print):
        return x / y


def other_manager(x, y):
    with contextlib.suppress(KeyError):
        return np.log(x + 1)


@pytest.mark.parametrize("fn, reason", [
    (break_inside, "call to print()"),
    (callback_mode, "np.errstate() with other arguments than constant modes"),
    (other_manager, "creating an instance of suppress"),
])
def test_what_still_runs_eagerly(fn, reason):
    check(fn, X, Y)
    report = dynamo.explain(fn, backend="eager")(X, Y)
    assert report.graph_break_count >= 1
    assert str(report.break_reasons[0].reason).startswith(reason)
    with pytest.raises(dynamo.Unsupported):
        dynamo.compile(fn, fullgraph=True, backend="eager")(X, Y)


def test_an_errstate_made_but_not_entered_is_returned_as_one():
    def make(x):
        return x + 1, np.errstate(over="ignore")

    y, state = dynamo.compile(make, fullgraph=True, backend="eager")(X)
    assert type(state) is np.errstate
    with state:
        assert np.geterr()["over"] == "ignore"
    np.testing.assert_array_equal(y, X + 1)


def test_cupy_graphs_drop_the_two_ops():
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return reference_backend(graph, example_inputs)

    check(log_ratio, X, Y, backend=capture)
    (graph,) = graphs
    assert has_errstate(graph) and not has_errstate(without_errstate(graph))
    assert len(without_errstate(graph)) == len(graph) - 2


def bad_mode(x, y):
    with np.errstate(divide="loudly"):
        return x / y


def positional(x, y):
    with np.errstate("ignore"):
        return x / y


@pytest.mark.parametrize("fn", [bad_mode, positional], ids=["bad mode", "positional"])
def test_bad_errstate_arguments_raise_eagers_error(fn):
    check(fn, X, Y)        # NumPy's own ValueError / TypeError, from the eager with
