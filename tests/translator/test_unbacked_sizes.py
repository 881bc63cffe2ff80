"""Data-dependent sizes stay in the graph (issue #19): unbacked symbolic sizes.

``x[mask]``, ``np.nonzero``, one-argument ``np.where``, ``np.flatnonzero``,
``np.argwhere``, ``np.unique`` and ``np.bincount`` make a result whose size only the
data decides. Each program below compiles to one graph with no break, and gives
eager's results (values, dtypes, shapes, empty and full selections) on the eager and
numpy backends, over several calls whose counts differ. Programs that need such a
size as a Python value (``if len(idx) > 0``, ``range(len(idx))``, ``int(...)``) still
break there, with a reason that says so (``test_specializing_uses_break``).

See docs/unbacked.md.
"""

from __future__ import annotations

import copy
import re
import warnings

import numpy as np
import pytest
from dynamo.backends.eager import eager
from harness import check, same
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo

BACKENDS = ("eager", "numpy")


def _inputs(seed: int, n: int = 12):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, n)


# ---------------------------------------------------------------- the programs
# Each takes arrays and returns arrays (or numbers); ``CASES`` lists its inputs.

def mask_read(x):
    return x[x > 0]


def mask_read_named(x, m):
    return x[m] * 2.0


def mask_sum(x):
    return x[x > 0].sum()


def mask_mean_len(x):
    y = x[x > 0.5]
    return y.sum() / len(y), len(y)


def mask_rows(a):
    return a[a[:, 0] > 0]


def mask_2d_full(a):
    return a[a > 0]


def mask_columns(a):
    return a[:, a[0] > 0] + 1.0


def mask_chained(x):
    y = x[x > -0.5]
    z = y[y < 0.5]
    return z * z, np.sqrt(np.abs(z)).sum()


def mask_same_mask_twice(x, w):
    m = x > 0
    return x[m] * w[m] + x[m]


def mask_write_scalar(x):
    x = x.copy()
    x[x > 0] = 0.0
    return x


def mask_write_zero_d(x):
    y = x.copy()
    y[y < 0] = x.max()
    return y


def mask_write_values(x):
    y = x.copy()
    m = y > 0
    y[m] = y[m] ** 2
    return y


def mask_write_power(x):
    x = x.copy()
    x[x > 0] = x[x > 0] ** -1.5
    return x


def mask_iadd(x):
    x = x.copy()
    x[x > 0] += 1
    return x


def mask_write_input(x):
    x[x < 0] *= -1.0
    return x.sum()


def nonzero_tuple(x):
    return np.nonzero(x > 0)


def nonzero_index(x):
    idx = np.nonzero(x > 0)[0]
    return x[idx], idx * 2


def nonzero_method(a):
    i, j = (a > 0).nonzero()
    return a[i, j], i + j


def where_one_argument(x):
    (idx,) = np.where(x < 0)
    return idx, x[idx].sum()


def flatnonzero_take(a):
    flat = np.flatnonzero(a > 0)
    return np.take(a, flat), flat.shape


def argwhere_rows(a):
    return np.argwhere(a > 0).sum(axis=0)


def unique_values(x):
    return np.unique(np.round(x * 3))


def unique_counts(x):
    values, counts = np.unique(np.round(x * 2), return_counts=True)
    return values, counts, counts.sum(), values[np.argmax(counts)]


def unique_all_flags(x):
    return np.unique(np.round(x * 2), return_index=True, return_inverse=True,
                     return_counts=True)


def unique_inverse_relabel(labels):
    values, inverse = np.unique(labels, return_inverse=True)
    return inverse, values.shape


def bincount_of_selection(labels):
    return np.bincount(labels[labels >= 0])


def bincount_weights(labels, w):
    keep = labels >= 0
    return np.bincount(labels[keep], weights=w[keep], minlength=3)


def add_at_indices(x):
    idx = np.nonzero(x > 0)[0]
    acc = np.zeros(x.shape[0])
    np.add.at(acc, idx, x[idx])
    np.add.at(acc, idx % 3, 1.0)
    return acc


def reductions_of_selection(x):
    y = x[np.abs(x) > 0.25]
    return y.min(initial=0.0), y.max(initial=0.0), y.mean(), y.std(), np.cumsum(y), \
        np.sort(y)


def len_as_graph_value(x):
    idx = np.flatnonzero(x > 0)
    return x.sum() / (len(idx) + 1), np.arange(len(idx)) * 1.0


def zeros_of_count(x):
    y = x[x > 0]
    return np.zeros(len(y)) + y, np.ones_like(y)


def concat_selection(x):
    y = x[x > 0]
    return np.concatenate([y, x]), np.stack([y, y * 2])


def nbody_cutoff(pos, mass):
    diff = pos[:, None, :] - pos[None, :, :]
    dist2 = (diff ** 2).sum(-1) + np.eye(pos.shape[0])
    i, j = np.nonzero(dist2 < 0.5)
    inv = dist2[i, j] ** -1.5
    force = np.zeros_like(pos)
    np.add.at(force, i, diff[i, j] * (mass[j] * inv)[:, None])
    return force, len(i)


def nbody_masked_power(pos):
    d2 = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1)
    inv = np.zeros_like(d2)
    inv[d2 > 0] = d2[d2 > 0] ** -1.5
    return inv.sum(axis=1)


def mandelbrot_masks(c):
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int64)
    for _ in range(6):
        alive = np.abs(z) <= 2.0
        z[alive] = z[alive] ** 2 + c[alive]
        counts[alive] += 1
    return counts, np.count_nonzero(np.abs(z) > 2.0)


def histogram_unique(data):
    keys = np.floor(data * 4).astype(np.int64)
    values, counts = np.unique(keys, return_counts=True)
    order = np.argsort(-counts, kind="stable")
    return values[order], counts[order], counts / counts.sum()


def histogram_bincount(data):
    bins = np.floor((data + 1.0) * 4).astype(np.int64)
    inside = bins[(bins >= 0) & (bins < 8)]
    return np.bincount(inside, minlength=8)


def outlier_clip(x):
    mu, sd = x.mean(), x.std()
    bad = np.abs(x - mu) > sd
    y = x.copy()
    y[bad] = mu
    return y, x[~bad].mean()


def threshold_sparse(a):
    rows, cols = np.nonzero(np.abs(a) > 0.6)
    vals = a[rows, cols]
    return rows, cols, vals, np.column_stack([rows, cols])


def argsort_selection(x):
    y = x[x > 0]
    return y[np.argsort(y)], np.searchsorted(np.sort(y), 0.5)


def int_selection_dtype(v):
    return v[v % 2 == 0] // 2, np.unique(v)


def mask_result_is_a_copy(x):
    y = x[x > 0]
    y[0] = 100.0
    y += 1
    return x, y


def unique_inverse_2d(a):
    values, inverse = np.unique(np.round(a * 3), return_inverse=True)
    return values[inverse], inverse


def negate_through_indices(x):
    idx = np.nonzero(x > 0)[0]
    x[idx] = -x[idx]
    return x


def mask_changes_between_reads(x):
    m = x > 0
    before = x[m]
    m[0] = True       # another count from here on
    return x[m], before, m.sum()


CASES = {
    "mask_read": (mask_read, lambda s: (_inputs(s),)),
    "mask_read_named": (mask_read_named, lambda s: (_inputs(s), _inputs(s + 7) > 0)),
    "mask_sum": (mask_sum, lambda s: (_inputs(s),)),
    "mask_mean_len": (mask_mean_len, lambda s: (_inputs(s),)),
    "mask_rows": (mask_rows, lambda s: (_inputs(s, 15).reshape(5, 3),)),
    "mask_2d_full": (mask_2d_full, lambda s: (_inputs(s, 12).reshape(3, 4),)),
    "mask_columns": (mask_columns, lambda s: (_inputs(s, 12).reshape(3, 4),)),
    "mask_chained": (mask_chained, lambda s: (_inputs(s),)),
    "mask_same_mask_twice": (mask_same_mask_twice, lambda s: (_inputs(s), _inputs(s + 1))),
    "mask_write_scalar": (mask_write_scalar, lambda s: (_inputs(s),)),
    "mask_write_zero_d": (mask_write_zero_d, lambda s: (_inputs(s),)),
    "mask_write_values": (mask_write_values, lambda s: (_inputs(s),)),
    "mask_write_power": (mask_write_power, lambda s: (_inputs(s),)),
    "mask_iadd": (mask_iadd, lambda s: (_inputs(s),)),
    "mask_write_input": (mask_write_input, lambda s: (_inputs(s),)),
    "nonzero_tuple": (nonzero_tuple, lambda s: (_inputs(s),)),
    "nonzero_index": (nonzero_index, lambda s: (_inputs(s),)),
    "nonzero_method": (nonzero_method, lambda s: (_inputs(s, 12).reshape(4, 3),)),
    "where_one_argument": (where_one_argument, lambda s: (_inputs(s),)),
    "flatnonzero_take": (flatnonzero_take, lambda s: (_inputs(s, 12).reshape(3, 4),)),
    "argwhere_rows": (argwhere_rows, lambda s: (_inputs(s, 12).reshape(3, 4),)),
    "unique_values": (unique_values, lambda s: (_inputs(s),)),
    "unique_counts": (unique_counts, lambda s: (_inputs(s),)),
    "unique_all_flags": (unique_all_flags, lambda s: (_inputs(s),)),
    "unique_inverse_relabel": (unique_inverse_relabel,
                               lambda s: (np.random.default_rng(s).integers(0, 5, 10),)),
    "bincount_of_selection": (bincount_of_selection,
                              lambda s: (np.random.default_rng(s).integers(-3, 6, 12),)),
    "bincount_weights": (bincount_weights,
                         lambda s: (np.random.default_rng(s).integers(-2, 5, 10),
                                    _inputs(s, 10))),
    "add_at_indices": (add_at_indices, lambda s: (_inputs(s),)),
    "reductions_of_selection": (reductions_of_selection, lambda s: (_inputs(s),)),
    "len_as_graph_value": (len_as_graph_value, lambda s: (_inputs(s),)),
    "zeros_of_count": (zeros_of_count, lambda s: (_inputs(s),)),
    "concat_selection": (concat_selection, lambda s: (_inputs(s),)),
    "nbody_cutoff": (nbody_cutoff, lambda s: (_inputs(s, 18).reshape(6, 3),
                                              np.abs(_inputs(s + 3, 6)) + 0.5)),
    "nbody_masked_power": (nbody_masked_power, lambda s: (_inputs(s, 18).reshape(6, 3),)),
    "mandelbrot_masks": (mandelbrot_masks,
                         lambda s: ((_inputs(s, 16) * 1.5 + 1j * _inputs(s + 5, 16))
                                    .reshape(4, 4),)),
    "histogram_unique": (histogram_unique, lambda s: (_inputs(s, 20),)),
    "histogram_bincount": (histogram_bincount, lambda s: (_inputs(s, 20),)),
    "outlier_clip": (outlier_clip, lambda s: (_inputs(s),)),
    "threshold_sparse": (threshold_sparse, lambda s: (_inputs(s, 12).reshape(4, 3),)),
    "argsort_selection": (argsort_selection, lambda s: (_inputs(s),)),
    "mask_result_is_a_copy": (mask_result_is_a_copy, lambda s: (_inputs(s),)),
    "unique_inverse_2d": (unique_inverse_2d, lambda s: (_inputs(s, 12).reshape(3, 4),)),
    "negate_through_indices": (negate_through_indices, lambda s: (_inputs(s),)),
    "mask_changes_between_reads": (mask_changes_between_reads, lambda s: (_inputs(s),)),
    "int_selection_dtype": (int_selection_dtype,
                            lambda s: (np.random.default_rng(s).integers(-9, 9, 11),)),
}


def _run_calls(fn, make, backend, seeds=(0, 1, 2)):
    """The compiled function against eager on several inputs, one compile: the
    counts differ from call to call (and the entry is reused: no recompile)."""
    compiled = dynamo.compile(fn, backend=backend)
    for seed in seeds:
        args = make(seed)
        expected = fn(*copy.deepcopy(args))
        got_args = copy.deepcopy(args)
        got = compiled(*got_args)
        same(expected, got, path=f"{fn.__name__} seed {seed}")
        eager_args = copy.deepcopy(args)
        fn(*eager_args)
        same(eager_args, got_args, path=f"{fn.__name__} seed {seed}: arguments")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_one_graph_equal_to_eager(name, backend):
    fn, make = CASES[name]
    check(fn, *make(0), graphs=1, breaks=0, backend=backend)
    _run_calls(fn, make, backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["mask_read", "mask_sum", "nonzero_index", "unique_counts",
                                  "mask_write_power", "mask_iadd", "bincount_of_selection",
                                  "argwhere_rows", "mask_rows"])
def test_empty_and_full_selections(name, backend):
    """Every element selected, none selected, and an empty input."""
    fn, make = CASES[name]
    base = make(0)
    compiled = dynamo.compile(fn, backend=backend)
    for variant in ({"fill": 1}, {"fill": -1}, {"empty": True}):
        args = []
        for a in base:
            a = np.array(a)
            if "empty" in variant:
                a = a[:0]
            elif a.dtype.kind == "f":
                a = np.full_like(a, 0.75 * variant["fill"])
            elif a.dtype.kind in "iu":
                a = np.full_like(a, 2 if variant["fill"] > 0 else -2)
            args.append(a)
        expected, got = _outcome(fn, args), _outcome(compiled, args)
        if isinstance(expected, Exception):
            assert type(got) is type(expected) and str(got) == str(expected), (variant, got)
        else:
            same(expected, got, path=f"{name} {variant}")


def _outcome(fn, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*copy.deepcopy(args))
    except Exception as e:  # noqa: BLE001
        return e


def test_the_count_is_not_guarded():
    """One entry serves every count: the trace made no guard on the unbacked size."""
    compiled = dynamo.compile(mask_sum, backend="eager")
    for seed in range(6):
        compiled(_inputs(seed))
    report = dynamo.explain(mask_sum, backend="eager")(_inputs(0))
    assert report.graph_count == 1 and report.graph_break_count == 0
    text = str(report)
    assert "u0" not in text.split("Guards")[-1]


def test_empty_selection_warns_as_eager():
    """``np.mean`` of an empty selection: NaN and NumPy's RuntimeWarning, both ways."""
    def f(x):
        return x[x > 10].mean()
    for backend in BACKENDS:
        compiled = dynamo.compile(f, backend=backend)
        x = _inputs(0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = compiled(x)
        assert np.isnan(got)
        assert any(issubclass(w.category, RuntimeWarning) for w in caught), backend


def test_empty_selection_raises_as_eager():
    """``x[m].max()`` of an empty selection raises NumPy's ValueError."""
    def f(x):
        return x[x > 10].max()
    for backend in BACKENDS:
        compiled = dynamo.compile(f, backend=backend)
        assert compiled(_inputs(0) + 20) == f(_inputs(0) + 20)
        with pytest.raises(ValueError, match="zero-size array"):
            compiled(_inputs(0))


def test_count_mismatch_raises_as_eager():
    """``x[m] = v`` with one value per element of another mask: NumPy checks the
    count when the graph runs, and raises its own error when they differ."""
    def f(x, y):
        x = x.copy()
        x[x > 0] = y[y > 0]
        return x
    x, y = _inputs(0), _inputs(1)
    check(f, x, x.copy(), graphs=1, breaks=0)
    check(f, x, y)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-4, 4, allow_nan=False), min_size=0, max_size=20),
       st.floats(-3, 3, allow_nan=False))
def test_random_masks(values, cut):
    def f(x, c):
        y = x[x > c]
        z = x.copy()
        z[x <= c] = -1.0
        idx = np.flatnonzero(x > c)
        return y * 2, y.sum(), z, idx, x[idx] - y, np.unique(np.round(y))
    x = np.array(values, dtype=np.float64)
    for backend in BACKENDS:
        got = dynamo.compile(f, backend=backend)(x.copy(), np.float64(cut))
        same(f(x.copy(), np.float64(cut)), got)


class Holder:
    pass


def test_numpy_backend_reads_no_count_as_a_number():
    """The numpy backend's generated code never holds an unbacked size's made-up hint:
    the ops over such sizes run as plain NumPy calls (barriers), whatever the count."""
    from dynamo.backends.numpy_backend import numpy_backend

    sources = []

    def recording(graph, example_inputs):
        fn = numpy_backend(graph, example_inputs)
        sources.append(fn.__dynamo_source__)
        return fn
    recording.dynamic_shapes = True
    for name in ("mask_write_power", "nbody_masked_power", "len_as_graph_value",
                 "histogram_unique"):
        fn, make = CASES[name]
        sources.clear()
        compiled = dynamo.compile(fn, backend=recording)
        for seed in range(3):
            same(fn(*make(seed)), compiled(*make(seed)))
        # (a hint as a number of its own: not part of a name, `def forward4099`, whose
        # number counts the graphs compiled so far in the process)
        assert sources and not any(re.search(rf"(?<![\w.]){4001 + 98 * k}(?!\w)", src)
                                   for src in sources for k in range(1, 6)), sources


def test_count_leaves_the_graph_as_a_python_int():
    """``len(x[m])`` returned, kept across a break, stored in an attribute and used in
    float arithmetic: the glue reads it off the graph's output (``out.shape[0]``)."""
    def f(x, obj):
        y = x[x > 0]
        n = len(y)
        obj.count = n
        scale = 1.0 / (n + 1)
        print("selected", n)           # a break: n is rebuilt for the resume function
        return n, y * scale, n + 1, (n, n * 2)
    for seed in range(3):
        check(f, _inputs(seed), Holder())
    report = dynamo.explain(f, backend="eager")(_inputs(0), Holder())
    assert report.graph_break_count == 1 and "print" in report.break_reasons[0].reason


def test_fullgraph_names_the_use():
    def f(x):
        idx = np.flatnonzero(x > 0)     # int(len(idx)) is a graph value now (#19):
        return idx if len(idx) else x   # a branch on the length still needs it
    with pytest.raises(dynamo.exc.Unsupported, match="data-dependent size"):
        dynamo.compile(f, fullgraph=True, backend="eager")(_inputs(0))


def test_numpy_backend_compiles_no_variant_per_count():
    """Inputs of changing length (a symbolic entry: one static variant per shape) with
    a mask inside: the variants keep the count symbolic, so the same input shape with
    another count reuses the variant and gives eager's result."""
    compiled = dynamo.compile(mask_write_power, backend="numpy")
    for n in (10, 11, 12, 12, 12, 13, 13, 40):
        for seed in range(3):
            x = _inputs(seed + n, n)
            same(mask_write_power(x.copy()), compiled(x.copy()))


# ---------------------------------------------------------------- what still breaks

def if_len(x):
    idx = np.flatnonzero(x > 0)
    if len(idx) > 0:
        return x[idx].sum()
    return 0.0


def range_len(x):
    idx = np.flatnonzero(x > 0)
    total = 0.0
    for i in range(len(idx)):
        total += 1.0
    return total


def int_of_len(x):
    y = x[x > 0]
    return int(len(y) * 2.5)


def against_static(x, w):
    return x[x > 0] * w


def iterate_rows(x):
    return [float(v) for v in x[x > 0]]


def _three_positive(seed):
    x = -np.abs(_inputs(seed, 8))
    x[[1, 4, 6]] = [0.5, 1.5, 2.5]
    return x, _inputs(seed + 1, 3)


BREAKS = {   # name -> (program, its arguments per seed)
    "if_len": (if_len, lambda s: (_inputs(s),)),
    "range_len": (range_len, lambda s: (_inputs(s),)),
    "int_of_len": (int_of_len, lambda s: (_inputs(s),)),
    "iterate_rows": (iterate_rows, lambda s: (_inputs(s),)),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_specializing_uses_break(name):
    """A use that needs the count as a Python value (or that NumPy takes for some
    counts only) breaks there, saying "data-dependent size", and the results are
    still eager's."""
    fn, make = BREAKS[name]
    report = dynamo.explain(fn, backend="eager")(*make(0))
    assert report.graph_break_count >= 1
    reasons = " | ".join(str(b.reason) for b in report.break_reasons)
    assert "data-dependent size" in reasons, reasons
    assert "4099" not in reasons and "4001" not in reasons   # no made-up hint shows
    for seed in (0, 1, 2):
        check(fn, *make(seed))


def test_one_answer_for_every_count_numpy_takes():
    """``x[m] * w`` with a static ``(3,)`` ``w``: NumPy takes 1 or 3 selected elements
    (both give ``(3,)``) and raises its broadcasting error for any other count. One
    answer: it stays in the graph (``unbacked_results.one_answer``), the node may raise, and
    every count gives eager's result or eager's error (issue #19: ``np.bincount(y,
    minlength=k)`` beside ``k``-sized arrays)."""
    report = dynamo.explain(against_static, backend="eager")(*_three_positive(0))
    assert report.graph_break_count == 0 and report.graph_count == 1
    w = _inputs(1, 3)
    for x in (_three_positive(0)[0], np.array([-1.0, 2.0, -3.0]), np.zeros(4),
              np.array([1.0, 2.0]), np.array([1.0, 2.0, 3.0, 4.0])):   # counts 3, 1, 0, 2, 4
        for backend in BACKENDS:
            check(against_static, x, w, backend=backend)


def test_static_backend_breaks_as_before():
    """A backend that takes static shapes only (no ``dynamic_shapes``) gets the old
    break: it never sees an unbacked size."""
    def static_only(graph, example_inputs):
        return eager(graph, example_inputs)
    report = dynamo.explain(mask_sum, backend=static_only)(_inputs(0))
    assert report.graph_break_count == 1
    assert "data-dependent size" in str(report.break_reasons[0].reason)
    same(mask_sum(_inputs(0)), dynamo.compile(mask_sum, backend=static_only)(_inputs(0)))


# ------------------------------------------- the rest of issue 19's data-dependent ops
# np.extract, np.compress (and x.compress), the np.unique_* functions, np.unique(axis=),
# 0-d masks, x[m, 0] = v, np.delete with a traced mask or index array, the set
# operations and np.trim_zeros. Each program's inputs have exactly ``count`` selected
# elements (positive values, nonzero labels), so every small count is run.

def _with_count(count: int, n: int = 6, seed: int = 0):
    """``n`` floats, exactly ``count`` of them positive, at random places."""
    rng = np.random.default_rng(seed + 10 * count)
    x = -rng.uniform(0.1, 1.0, n)
    x[rng.permutation(n)[:count]] *= -1
    return x


def _labels(count: int, n: int = 7):
    """``n`` integer labels: ``count`` distinct nonzero ones, then zeros."""
    return np.array(list(range(count, 0, -1)) + [0] * (n - count))


def extract_positive(x):
    return np.extract(x > 0, x * 2), np.extract(np.maximum(x, 0), x) + 1


def extract_shorter_condition(x):
    return np.extract(x.reshape(2, 3) > 0, np.arange(8.0).reshape(4, 2))


def compress_rows(a):
    kept = np.compress(a[:, 0] > 0, a, axis=0)
    return kept, kept.sum(axis=0), np.compress(a[:, 0] > 0, a[:, 1])


def compress_flat_and_method(a):
    return np.compress(a.ravel() > 0, a), a.compress(a[0] > 0, axis=1), \
        a.T.compress(a[0, :2] > 0, 0)


def unique_values_scaled(v):
    return np.unique_values(v) * 2


def unique_counts_fields(v):
    result = np.unique_counts(v)
    return result.values, result.counts, result.counts.sum(), type(result).__name__


def unique_inverse_2d(v):
    values, inverse = np.unique_inverse(v.reshape(7, 1))
    return values, inverse, values[inverse]


def unique_all_fields(v):
    r = np.unique_all(v)
    return r.values, r.indices, r.inverse_indices, r.counts, type(r).__name__


def unique_rows(v):
    rows = np.column_stack([v, v % 2])
    return np.unique(rows, axis=0), np.unique(rows, axis=0, return_index=True,
                                              return_inverse=True, return_counts=True)


def unique_columns(v):
    values, inverse = np.unique(np.vstack([v, v]), axis=1, return_inverse=True)
    return values, inverse, values.shape


def zero_d_mask(x):
    return x[x.sum() > 0] + 1, x[np.bool_(True)], x.reshape(2, 3)[x[0] > 0] * 2


def zero_d_mask_write(x):
    y = x.copy()
    y[y.sum() > 0] = 0.0
    z = x.copy()
    z[x[0] > 0] = x[::-1]
    return y, z


def mask_write_one_column(x):
    a = np.column_stack([x, x[::-1], x * 2])
    a[a[:, 0] > 0, 0] = 5.0
    a[a[:, 1] > 0, 1:] = -a[a[:, 1] > 0, 1:]
    a[a[:, 2] < 0, 1:] = np.array([7.0, 8.0])
    return a


def delete_masked(x):
    a = np.column_stack([x, x * 2])
    return np.delete(x, x > 0), np.delete(a, a[:, 0] > 0, axis=0), \
        np.delete(a, (a > 0).ravel()), np.delete(x, np.flatnonzero(x > 0))


def set_operations(v):
    return (np.setdiff1d(v, np.array([1, 3])), np.intersect1d(v, np.arange(2, 9)),
            np.intersect1d(v, np.arange(2, 9), return_indices=True),
            np.union1d(v, np.array([1.5])), np.setxor1d(v, np.arange(3)),
            np.intersect1d(np.unique(v), np.arange(1.0, 3.0), assume_unique=True))


def trim_zeros_views(v):
    both = np.trim_zeros(v)
    front = np.trim_zeros(v, "f") * 1.5
    square = np.trim_zeros(np.outer(v, v))
    both[...] = both + 10    # a view: writes into v, as eagerly
    return front, square, v


FLOAT_CASES = {f.__name__: f for f in (
    extract_positive, extract_shorter_condition, zero_d_mask, zero_d_mask_write,
    mask_write_one_column, delete_masked)}
ROW_CASES = {f.__name__: f for f in (compress_rows, compress_flat_and_method)}
LABEL_CASES = {f.__name__: f for f in (
    unique_values_scaled, unique_counts_fields, unique_inverse_2d, unique_all_fields,
    unique_rows, unique_columns, set_operations, trim_zeros_views)}


def _count_inputs(name: str, count: int) -> tuple:
    if name in FLOAT_CASES:
        return (_with_count(count),)
    if name in ROW_CASES:
        return (np.column_stack([_with_count(count), _with_count(3, seed=1)]),)
    return (_labels(count),)


NEW_OPS = {**FLOAT_CASES, **ROW_CASES, **LABEL_CASES}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(NEW_OPS))
def test_more_data_dependent_ops(name, backend):
    """One graph, no break, eager's results (values, dtypes, named tuple types, views
    written through) for every count from 0 to 3 and all selected, one compile."""
    fn = NEW_OPS[name]
    check(fn, *_count_inputs(name, 2), graphs=1, breaks=0, backend=backend)
    compiled = dynamo.compile(fn, backend=backend)
    for count in (0, 1, 2, 3, 6):
        args = _count_inputs(name, count)
        expected, got = _outcome(fn, args), _outcome(compiled, args)
        same(expected, got, path=f"{name} count {count}")


RULE_CALLS = [   # (function, arguments for a count) -> the rule's meta against NumPy
    (np.extract, lambda c: (_with_count(c) > 0, _with_count(3))),
    (np.compress, lambda c: (_with_count(c)[:4] > 0, _with_count(3).reshape(3, 2))),
    ("method:compress", lambda c: (_with_count(3, 8).reshape(2, 4), _with_count(c, 4) > 0),
     {"axis": 1}),
    (np.unique_values, lambda c: (_labels(c).reshape(7, 1),)),
    (np.unique_counts, lambda c: (_labels(c).astype(np.int8),)),
    (np.unique_inverse, lambda c: (_labels(c).reshape(7, 1) * 0.5,)),
    (np.unique_all, lambda c: (_labels(c).astype(np.uint16),)),
    (np.unique, lambda c: (np.column_stack([_labels(c), _labels(c)]),),
     {"axis": 0, "return_inverse": True, "return_counts": True, "return_index": True}),
    (np.delete, lambda c: (_with_count(3).reshape(6, 1), _with_count(c) > 0), {"axis": 0}),
    (np.delete, lambda c: (_with_count(3), np.flatnonzero(_with_count(c) > 0))),
    (np.intersect1d, lambda c: (_labels(c), np.arange(2.0, 5.0)), {"return_indices": True}),
    (np.union1d, lambda c: (_labels(c).astype(np.int8), np.arange(3, dtype=np.uint8))),
    (np.setdiff1d, lambda c: (_labels(c), np.arange(2))),
    (np.setxor1d, lambda c: (_labels(c) * 1.0, np.arange(2)), {"assume_unique": True}),
    (np.trim_zeros, lambda c: (_labels(c),), {"trim": "b"}),
    (np.trim_zeros, lambda c: (np.outer(_labels(c), _labels(c)),)),
    ("getitem", lambda c: (_with_count(3), np.bool_(c % 2 == 1))),
]


@pytest.mark.parametrize("k", range(len(RULE_CALLS)))
def test_rules_describe_numpy_at_small_counts(k):
    """Each rule's answer (shape with its data-dependent dimensions marked, dtype,
    named tuple type) is NumPy's result at every count from 0 to 3."""
    from dynamo import ops
    from dynamo.ops import ArrayMeta, DataSize, meta_of

    fn, make, *rest = RULE_CALLS[k]
    kwargs = rest[0] if rest else {}
    if isinstance(fn, str) and fn.startswith("method:"):
        op, adapter = ops.lookup_method(fn[7:])
        real = lambda *a, **kw: getattr(a[0], fn[7:])(*a[1:], **kw)  # noqa: E731
    elif isinstance(fn, str):
        (op, adapter), real = (ops.get(fn), ops.registry.same), ops.get(fn).impl
    else:
        (op, adapter), real = ops.lookup_function(fn), fn
    for count in range(4):
        args = make(count)
        value = real(*copy.deepcopy(args), **kwargs)
        metas = tuple(meta_of(a) if isinstance(a, (np.ndarray, np.generic)) else a
                      for a in args)
        margs, mkwargs = adapter(metas, kwargs)
        meta = op.meta(op, tuple(margs), dict(mkwargs))
        values = value if isinstance(value, tuple) else (value,)
        described = meta if isinstance(meta, tuple) else (meta,)
        assert type(described) is type(values) or not isinstance(value, tuple)
        assert len(described) == len(values)
        for m, v in zip(described, values):
            assert isinstance(m, ArrayMeta) and m.dtype == v.dtype and m.ndim == v.ndim
            assert all(isinstance(d, DataSize) or d == n for d, n in zip(m.shape, v.shape))
        assert any(isinstance(d, DataSize) for m in described for d in m.shape)


def test_trim_zeros_result_is_a_view():
    """np.trim_zeros returns a view of its argument: writes through it reach the
    argument, and ``np.shares_memory`` would say so (checked on the values here)."""
    def f(v):
        t = np.trim_zeros(v)
        t *= 2
        return v, t.base is v
    for count in range(4):
        check(f, _labels(count))
    report = dynamo.explain(f, backend="eager")(_labels(3))
    assert report.graph_break_count == 1 and "base" in report.break_reasons[0].reason


def test_longer_condition_breaks_with_a_reason():
    """A condition longer than the array raises IndexError or not by where its True
    elements are: not modelled, a break that says so; the results are eager's."""
    def f(x, c):
        return np.extract(c, x), np.compress(c, x)
    report = dynamo.explain(f, backend="eager")(np.arange(3.0), np.array([1, 0, 1, 0]))
    reasons = " | ".join(str(b.reason) for b in report.break_reasons)
    assert report.graph_break_count >= 1 and "longer than" in reasons, reasons
    check(f, np.arange(3.0), np.array([1, 0, 1, 0]))
    check(f, np.arange(3.0), np.array([1, 0, 1, 1]))
