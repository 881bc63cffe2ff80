"""Symbolic sizes that clamp: an entry serves only the sizes its fitted shapes hold for.

``x[-5:]`` has ``min(n, 5)`` elements; fitted at ``n = 11`` it reads ``5``, which is
wrong for ``n < 5``. Each test calls a function with sizes 10 and 11 (automatic dynamic
makes the size symbolic on the second call), then with small sizes around the clamps and
large ones, and compares every result (values, shapes, dtypes, exceptions) with plain
NumPy, on the eager and the numpy backend (see ``dynamo/symbolic/ranges.py``).
"""

import numpy as np
import pytest
from harness import same
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo

BACKENDS = ["eager", "numpy"]
SIZES = (10, 11, 0, 1, 2, 3, 4, 5, 6, 12, 100)
KERNEL = np.array([1.0, -2.0, 3.0, 0.5])


@pytest.fixture(autouse=True)
def _room_for_entries(monkeypatch):
    """Every size must run compiled: small sizes get their own entries."""
    monkeypatch.setattr(dynamo.config, "cache_size_limit", 64)


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001
        return e


def agree(fn, compiled, *args) -> None:
    """Compiled and plain: the same result, or the same exception type."""
    expected, got = outcome(fn, *args), outcome(compiled, *args)
    label = f"sizes {[np.shape(a) if isinstance(a, np.ndarray) else a for a in args]}"
    if isinstance(expected, Exception):
        assert type(got) is type(expected), f"{label}: plain raised {expected!r}, " \
                                            f"compiled gave {got!r}"
    else:
        assert not isinstance(got, Exception), f"{label}: compiled raised {got!r}"
        same(expected, got, path=label)


def data(n: int) -> np.ndarray:
    return np.arange(1.0, n + 1.0)


def sweep(fn, backend, sizes=SIZES):
    compiled = dynamo.compile(fn, backend=backend)
    for n in sizes:
        agree(fn, compiled, data(n))
    return compiled


# --------------------------------------------------------------------------- one size

def neg_start(x):
    w = x[-5:]
    return w, w.shape[0], np.full(w.shape[0], 7.0)


def shape_of(fn):
    """``fn``'s result with its shape: a fitted size is returned as a Python int."""
    def with_shape(x):
        a = fn(x)
        return a, a.shape
    with_shape.__name__ = fn.__name__
    return with_shape


# Each keeps the size symbolic at n = 11 (one concern per function: an op that pins the
# size, like ``x[::2]``, would make the whole entry static and hide the others).
ONE_SIZE = {
    "neg_start": neg_start,
    "neg_stop_len": lambda x: (len(x[:-3]), np.zeros(len(x[:-3]) + 1)),
    "zeros_of_slice_shape": lambda x: (np.zeros(x[3:].shape), x[3:].shape),
    "slice_shape": lambda x: x[3:].shape,
    "arange_minus": shape_of(lambda x: np.arange(len(x) - 5)),
    "arange_reversed": shape_of(lambda x: np.arange(5 - len(x))),
    "arange_start": shape_of(lambda x: np.arange(3, len(x))),
    "arange_step": shape_of(lambda x: np.arange(len(x) - 5, len(x) + 2, 2)),
    "arange_down": shape_of(lambda x: np.arange(len(x), 0, -3)),
    "diff3": lambda x: (np.diff(x, n=3), len(np.diff(x, n=3))),
    "diff7": shape_of(lambda x: np.diff(x, n=7)),
    "convolve_valid": shape_of(lambda x: np.convolve(x, KERNEL, "valid")),
    "convolve_same": shape_of(lambda x: np.convolve(x, KERNEL, "same")),
    "convolve_full": shape_of(lambda x: np.convolve(x, KERNEL, "full")),
    "convolve_kernel_first": shape_of(lambda x: np.convolve(KERNEL, x, "valid")),
    "correlate": shape_of(lambda x: np.correlate(x, KERNEL)),
    "linspace_minus": shape_of(lambda x: np.linspace(0.0, 1.0, len(x) - 3)),
    "reshape_minus_one": lambda x: (x[3:].reshape(-1, 1).shape, x[:-2].reshape(-1)),
    "split_at": lambda x: [p.shape for p in np.split(x, [3, 5])],
    "array_split": lambda x: [len(p) for p in np.array_split(x, 3)],
    "repeat": shape_of(lambda x: np.repeat(x[-3:], 2)),
    "pad": shape_of(lambda x: np.pad(x[:-6], 2)),
    "tile": shape_of(lambda x: np.tile(x[:-4], 2)),
    "tile_2d": shape_of(lambda x: np.tile(x[5:], (2, 1))),
    "broadcast_last": shape_of(lambda x: x[-1:] + x),
    "broadcast_first_last": shape_of(lambda x: x[:1] * x[-3:]),
    "broadcast_outer": shape_of(lambda x: x[-3:, None] + x[:3]),
    "rows_minus_two": shape_of(lambda x: np.ones((x.shape[0] - 2, 3))),
    "zeros_minus_four": shape_of(lambda x: np.zeros(x.shape[0] - 4)),
    "half": shape_of(lambda x: x[len(x) // 2:]),
    "step_2": shape_of(lambda x: x[::2]),
    "step_3": shape_of(lambda x: x[1::3]),
    "start_reversed": shape_of(lambda x: x[5::-1]),
    "negative_step": shape_of(lambda x: x[-2::-2]),
    "upper_clamp": lambda x: x[:100].shape[0],
    "long_step": lambda x: x[3::50].shape,
    "empty_long_step": lambda x: x[:50:60].shape,
    "index_7": lambda x: x[7],
    "index_minus_7": lambda x: x[-7],
    "index_list": shape_of(lambda x: x[[0, 6]]),
    "slice_of_slice": lambda x: x[2:][-5:].shape,
    "both_ends": shape_of(lambda x: x[5:-3]),
    "negative_both": shape_of(lambda x: x[-8:-2]),
    "constant_window": lambda x: x[2:9].shape,
    "sum_of_slice": lambda x: (x[:-3].sum(), x[:-3].size),
    "stack": shape_of(lambda x: np.stack([x[:-1], x[1:]])),
    "cumsum": shape_of(lambda x: np.cumsum(x[-6:])),
    "eye": shape_of(lambda x: np.eye(len(x) - 4)),
    "tri": shape_of(lambda x: np.tri(len(x) - 6)),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", list(ONE_SIZE))
def test_clamped_sizes_match_numpy(name, backend):
    fn = ONE_SIZE[name]
    sweep(fn, backend)
    sweep(fn, backend, (12, 11, 7, 8, 9, 13, 250, 2, 60))   # other orders, other hints


@pytest.mark.parametrize("backend", BACKENDS)
def test_clamp_guards_the_range_and_stays_symbolic(backend, traces):
    """``x[-5:]`` fitted as 5: the symbolic entry is guarded ``x.shape[0] >= 5``, and
    every size from 5 up reuses it. Below, 0 and 1 get their own entries, and at 2 the
    size is ``n`` up to 5 (fitted with the smaller moves, ``fit._NEAR_DELTAS``): one
    entry guarded ``2 <= x.shape[0] <= 5`` serves 2, 3 and 4."""
    compiled = sweep(neg_start, backend)
    assert len(traces) == 5          # 10 static, 11 symbolic (>= 5), then 0, 1, 2 (<= 5)
    for n in (5, 7, 13, 64, 1000):
        agree(neg_start, compiled, data(n))
    assert len(traces) == 5
    report = dynamo.explain(neg_start, dynamic=True, backend=backend)(data(11))
    assert "x.shape[0] >= 5" in str(report)


def test_upper_clamp_guards_from_above(traces):
    """``x[:100]`` fitted at 11 as ``n``: the entry holds up to 100 only."""
    fn = lambda x: x[:100].shape[0]  # noqa: E731
    report = dynamo.explain(fn, dynamic=True, backend="eager")(data(11))
    assert "x.shape[0] <= 100" in str(report)
    compiled = sweep(fn, "eager", (10, 11, 50, 99, 100, 101, 300, 1000))
    assert compiled(data(2000)) == 100


# --------------------------------------------------------------------------- two sizes

def prefix_of_other(x, y):
    return x[:len(y)], x[:len(y)].shape[0], x[len(y):].shape, x[-len(y):].shape


def convolve_two(x, y):
    return np.convolve(x, y, "valid").shape, np.convolve(x, y, "same").shape


def difference_of_lengths(x, y):
    a = np.arange(len(x) - len(y))
    return a, a.shape, np.zeros(max(len(x) - len(y), 0))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [prefix_of_other, convolve_two, difference_of_lengths],
                         ids=lambda f: f.__name__)
def test_sizes_in_a_relation(fn, backend):
    """A fitted size that holds only while one size stays below another (``x[:len(y)]``
    is ``len(y)`` while ``len(y) <= len(x)``) must not serve the other side."""
    compiled = dynamo.compile(fn, backend=backend)
    for a, b in [(100, 10), (101, 11), (5, 10), (10, 5), (10, 10), (3, 40), (40, 3),
                 (2, 2), (0, 7), (7, 1), (60, 59), (59, 60)]:
        agree(fn, compiled, data(a), data(b))


@pytest.mark.parametrize("backend", BACKENDS)
def test_int_argument_bounds(backend):
    def fn(x, k):
        a, b = np.arange(k, len(x)), x[k:k + 3]
        return x[:k].shape, x[-k:], x[-k:].shape, a, a.shape, b.shape, np.zeros(k - 3)

    compiled = dynamo.compile(fn, backend=backend)
    for n, k in [(20, 4), (20, 5), (20, 2), (20, 19), (20, 25), (6, 30), (30, 6), (3, 3)]:
        agree(fn, compiled, data(n), k)


# --------------------------------------------------------------------------- drawn slices

# a slice bound: none, a constant, or relative to the length (``len(x) - 3``)
bound = st.one_of(st.none(), st.integers(-14, 14),
                  st.tuples(st.just("len"), st.integers(-14, 14)))


def resolve(b, n):
    return n + b[1] if isinstance(b, tuple) else b


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=30, deadline=None)
@given(start=bound, stop=bound, step=st.one_of(st.none(), st.integers(-4, 4).filter(bool)),
       sizes=st.lists(st.integers(0, 40), min_size=1, max_size=8))
def test_drawn_slices(backend, start, stop, step, sizes):
    def fn(x):
        w = x[resolve(start, len(x)):resolve(stop, len(x)):step]
        return w, len(w), np.zeros(w.shape[0] + 1), w[1:-1].shape

    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for n in (10, 11, *sizes):
        agree(fn, compiled, data(n))
