"""backend="native": tier 2 (Numba loop nests) against eager, and the tiering around it.

Every test compiles with ``background=False`` and ``after_calls=1``: the first call
runs tier 1 and compiles tier 2 before it returns, so the second call is tier 2's,
deterministically (``Tiered.native_calls`` counts the calls tier 2 answered). The
background swap has its own test, which waits on ``Tiered.ready``.

Tolerances (docs/native.md): arithmetic, comparisons, casts, max/min and loops are
bit-exact; transcendental functions (exp, tanh...) within 4 ulp (NumPy's SIMD versions
against libm); float sums and means within ``2 * n * eps * sum(|x|)`` (summation order).
"""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import threading

import numpy as np
import pytest

import dynamo

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402

SYNC = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}


def compiled(fn, **options):
    """``fn`` compiled with the native backend; the list of what the backend made."""
    made = []

    def backend(graph, example_inputs):
        out = native_backend(graph, example_inputs, options={**SYNC, **options})
        made.append(out)
        return out
    return dynamo.compile(fn, backend=backend), made


def same(got, want, rtol=0.0, atol=0.0):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w, rtol, atol)
        return
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.strides == want.strides or got.size <= 1, (got.strides, want.strides)
    if rtol or atol:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want, strict=True)


def check_native(fn, *args, rtol=0.0, atol=0.0, native=True, **options):
    """Run ``fn`` eagerly and compiled (twice: tier 1, then tier 2) on copies of
    ``args``; results and arguments after the call must match eager's."""
    want_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    want = fn(*want_args)
    c, made = compiled(fn, **options)
    for _ in range(2):
        got_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        got = c(*got_args)
        same(got, want, rtol, atol)
        for g, w in zip(got_args, want_args):
            same(g, w, rtol, atol)
    tiers = [m for m in made if isinstance(m, Tiered)]
    if native:
        assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
        assert sum(t.native_calls for t in tiers) >= 1
    return made


def second_call(fn, *args, **options):
    """``fn`` compiled, called twice on ``args`` (tier 1, then tier 2): ``(compiled,
    the Tiered object, the second call's result)``; the second call was tier 2's."""
    c, made = compiled(fn, **options)
    c(*args)
    got = c(*args)
    assert len(made) == 1 and made[0].native_calls == 1, made
    return c, made[0], got


def warns_overflow(fn, *args):
    """``fn(*args)``, which must warn about an overflow as eager NumPy does."""
    with pytest.warns(RuntimeWarning, match="overflow"):
        return fn(*args)


ULP4 = {np.float32: 4 * np.finfo(np.float32).eps, np.float64: 4 * np.finfo(np.float64).eps}
rng = np.random.default_rng(1)


# the issue's loop programs (scripts/bench_native.py runs the same)
def prefix_sum(x):
    for i in range(1, x.shape[0]):
        x[i] += x[i - 1]
    return x


def recursion(r):
    alpha, beta = -r[0], 1.0
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + alpha) / beta
    return alpha


def jacobi(A, B):
    for _ in range(10):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A, B


# --------------------------------------------------------------------- elementwise


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_elementwise_chain_is_exact(dtype):
    def f(x, y):
        return 0.25 * (x + y) - x * y / (y + 2.0), np.maximum(x, y) - np.minimum(x, 0.5)
    x, y = rng.random((7, 9)).astype(dtype), rng.random((7, 9)).astype(dtype)
    check_native(f, x, y)


def test_broadcast_shapes():
    def f(x, row, col):
        return (x - row) * col + 1.0
    check_native(f, rng.random((5, 6)), rng.random(6), rng.random((5, 1)))


def test_transcendentals_within_4_ulp():
    def f(x):
        return np.exp(x) + np.tanh(x) * np.sqrt(x) - np.log(x + 1.0)
    for dtype in (np.float32, np.float64):
        check_native(f, rng.random((4, 33)).astype(dtype) + 0.1, rtol=ULP4[dtype])


def test_int8_overflow_wraps():
    def f(x, y):
        return (x + y) * 3 - x, -x, np.abs(x), x * x
    x = np.array([[127, -128, 100, -1, 0]], np.int8)
    check_native(f, x, np.array([[1, -1, 100, -128, 127]], np.int8))


def test_small_integers_wrap_before_they_are_read():
    """Numba computes int8 * int8 as an int64: the product must wrap to int8 before
    a sum or a minimum reads it, not only where it is stored (it summed 39948 for
    NumPy's 12)."""
    def f(x, y):
        t = y * y
        u = x * 3
        return np.minimum(u, u + 1), t.sum(axis=-1), (x - 100).astype(np.int16) * 2
    x = np.array([[100, -100, 50, 127], [-128, 3, 0, 90]], np.int8)
    check_native(f, x, np.array([100, -90, 17, 12], np.int8))
    check_native(f, x.astype(np.uint8), np.array([200, 16, 17, 255], np.uint8))


def test_unsigned_and_mixed_integer_promotion():
    def f(a, b, c):
        return a - b, a + c, a * 7, c / a
    a = np.array([3, 1, 250], np.uint8)
    check_native(f, a, np.array([1, 2, 3], np.uint8), np.array([-5, 7, 2**40], np.int64))


def test_bool_ops():
    def f(x, y):
        return (x > 0.5) & (y < 0.3), np.logical_or(x > 0.9, y > 0.9), (x > y) + (y > 0.2)
    check_native(f, rng.random((6, 6)), rng.random((6, 6)))


def test_complex_arithmetic():
    """Complex add, subtract and compare are exact in tier 2; complex multiply is no
    loop nest (NumPy's SIMD loop fuses its products: half its results differ in the last
    bit from the plain formula that Numba and Python use): the kernel calls NumPy's."""
    def f(x, y):
        return x + y - x, -y, x == y, x != y
    x = rng.random(100) + 1j * rng.random(100)
    y = rng.random(100) - 1j * rng.random(100)
    check_native(f, x, y)

    def g(x, y):
        return x * y + x
    # the product is NumPy's own call from the kernel (calls.py): eager's bits
    made = check_native(g, x, y)
    assert "_np_ops.multiply" in made[0].kernel.source


def test_float16_stays_in_tier_1():
    def f(x):
        return x * 2.0 + 1.0
    made = check_native(f, rng.random(10).astype(np.float16), native=False)
    assert not any(isinstance(m, Tiered) for m in made)


def test_unsupported_op_stays_in_tier_1(caplog):
    def f(x):             # out= with where=: no loop nest (outs.py), no NumPy call
        y = np.zeros_like(x)
        np.multiply(x, 2.0, out=y, where=x > 0.5)
        return np.cumsum(y) + np.arctan2(x, 1.0)
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        made = check_native(f, rng.random(10), native=False)
    assert not any(isinstance(m, Tiered) for m in made)
    assert "stays in tier 1" in caplog.text


def test_a_lowering_that_fails_keeps_tier_1_with_a_warning(caplog):
    """An internal error of the lowering (here: an object input whose metadata is not a
    class, which ``lower`` names by ``__name__``) leaves the graph in tier 1, which is
    still right, with a warning; it does not fail the compile (``backend="auto"``
    would raise BackendError on the program's first call)."""
    from dynamo.graph import Graph
    from dynamo.ops import ArrayMeta
    g = Graph()
    g.placeholder("o", {"object": 5})
    x = g.placeholder("x", {"array": ArrayMeta((3,), np.dtype("f8"), "numpy")})
    g.output((x,))
    with caplog.at_level(logging.WARNING, logger="dynamo.backend"):
        compiled = native_backend(g, [5, np.ones(3)])
    assert not isinstance(compiled, Tiered)
    assert compiled(5, np.arange(3.0))[0].tolist() == [0.0, 1.0, 2.0]
    assert "lowering it failed" in caplog.text and "AttributeError" in caplog.text


# --------------------------------------------------------------------- shapes, layouts


@pytest.mark.parametrize("make", [
    lambda: rng.random((0, 5)), lambda: rng.random((1, 1)), lambda: rng.random(1),
    lambda: rng.random((9, 12))[::2, ::3], lambda: rng.random((6, 7))[::-1, ::-2],
    lambda: np.asfortranarray(rng.random((5, 4))),
], ids=["0-size", "1x1", "1", "strided", "negative-strides", "fortran"])
def test_layouts(make):
    def f(x):
        return x * 2.0 - 1.0, x.sum(axis=-1)
    x = make()
    # a Fortran-ordered input: eager's result is Fortran-ordered, tier 1 answers
    check_native(f, x, native=x.ndim < 2 or x.flags.c_contiguous or
                 not x.flags.f_contiguous)


def test_setitem_into_fortran_input():
    def f(x):
        x[1:, :-1] = x[:-1, 1:] * 0.5
        return x
    check_native(f, np.asfortranarray(rng.random((5, 6))))


# --------------------------------------------------------------------- NaN, inf, reports


def test_nan_propagation_of_maximum_minimum_max_min():
    def f(x, y):
        return (np.maximum(x, y), np.minimum(x, y), x.max(axis=-1), y.min(axis=-1),
                x.max(), y.min())
    x = np.array([[np.nan, 1.0, -0.0, np.inf], [2.0, np.nan, 0.0, 3.0]])
    y = np.array([[1.0, np.nan, 0.0, -np.inf], [np.nan, np.nan, -0.0, 1.0]])
    made = check_native(f, x, y)
    assert made[0].native_calls == 1


def test_division_by_zero_warns_as_eager_and_undoes_writes():
    def f(x, y):
        x[:] = x / y
        return x
    x, y = np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 2.0])
    c, made = compiled(f)
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        c(x.copy(), y)
    got = x.copy()
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        c(got, y)   # tier 2 flags it, restores x, tier 1 warns and writes
    np.testing.assert_array_equal(got, [1.0, np.inf, 1.5])
    assert made[0].native_calls == 0
    ok = x.copy()
    c(ok, np.array([1.0, 4.0, 2.0]))
    assert made[0].native_calls == 1


def test_overflow_in_a_sum_runs_tier_1():
    def f(x):
        return x.sum()
    x = np.full(4, 1e308)
    want = warns_overflow(f, x)
    c, made = compiled(f)
    for _ in range(2):
        assert warns_overflow(c, x) == want


def test_nonfinite_values_through_arithmetic_run_in_tier_1():
    """A chain of +, -, *, sqrt... is checked once, on its result: a NaN or infinity
    there (from the inputs or made by an op) sends the call to tier 1."""
    def f(x):
        return x + 1.0, x * 0.5
    made = check_native(f, np.array([np.inf, -np.inf, np.nan, 1.0]), native=False)
    assert made[0].native_calls == 0


@pytest.mark.parametrize("expr", ["np.abs(x * 1e308 * 10.0)", "np.minimum(x * 1e308 * 10.0, 1.0)",
                                  "1.0 / (x * 1e308 * 10.0)", "np.exp(-(x * 1e308 * 10.0))",
                                  "np.where(x > 0, 1.0, x * 1e308 * 10.0)"])
def test_overflow_hidden_by_a_later_op_still_warns(expr):
    scope = {"np": np}
    exec(f"def f(x):\n    return {expr}\n", scope)
    f = scope["f"]
    x = np.array([1.0, 2.0])
    want = warns_overflow(f, x)
    c, made = compiled(f)
    for _ in range(2):
        same(warns_overflow(c, x), want)
    assert made[0].native_calls == 0


def test_errstate_other_than_default_runs_tier_1():
    def f(x):
        return x / 0.0
    c, made = compiled(f)
    x = np.ones(3)
    with np.errstate(all="ignore"):
        c(x)
        np.testing.assert_array_equal(c(x), np.full(3, np.inf))
    assert made[0].native_calls == 0


# --------------------------------------------------------------------- reductions


def test_sum_tolerance_summation_order():
    """Sums run in another order than NumPy's pairwise one: within 2*n*eps*sum(|x|)."""
    def f(x):
        return x.sum(axis=-1), x.mean(axis=-1, keepdims=True), x.sum()
    for dtype in (np.float32, np.float64):
        x = (rng.standard_normal((20, 1000)) * 10.0 ** rng.integers(-3, 4, (20, 1000)))
        x = x.astype(dtype)
        want = f(x)
        got = second_call(f, x)[2]
        eps = np.finfo(dtype).eps
        n = x.shape[-1]
        bound = 2 * n * eps * np.abs(x).astype(np.float64).sum(axis=-1)
        assert np.all(np.abs(got[0].astype(np.float64) - want[0]) <= bound)
        assert np.all(np.abs(got[1][:, 0].astype(np.float64) - want[1][:, 0]) <= bound / n)
        assert abs(float(got[2]) - float(want[2])) <= 2 * x.size * eps * \
            np.abs(x).astype(np.float64).sum()
        assert type(got[2]) is type(want[2]) and got[0].dtype == want[0].dtype


def test_integer_and_bool_sums_are_exact():
    def f(x, b):
        return x.sum(axis=-1), x.sum(), b.sum(axis=-1), x.prod(axis=-1), x.max(), x.min(axis=-1)
    x = rng.integers(-128, 128, (4, 50)).astype(np.int8)
    check_native(f, x, rng.random((4, 50)) > 0.5)


def test_softmax_and_layernorm():
    def softmax(x):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def layernorm(x, g, b):
        mu = x.mean(axis=-1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5) * g + b
    x = rng.standard_normal((16, 200)).astype(np.float32)
    check_native(softmax, x, rtol=1e-5)
    # the mean is a sum in another order: within 2 * eps * sum(|x|) (docs/native.md),
    # an absolute error that x - mu keeps (relative to a difference near 0 it is large)
    atol = 2 * np.finfo(np.float32).eps * float(np.abs(x).sum(axis=-1).max())
    check_native(layernorm, x, np.ones(200, np.float32), np.zeros(200, np.float32),
                 rtol=1e-4, atol=atol)


# --------------------------------------------------------------------- stencils, loops


def test_jacobi_stencil_loop_is_exact():
    A = rng.random((40, 50))
    check_native(jacobi, A, A.copy())
    big = rng.random((200, 200))   # nests past parallel_min_elements: prange
    made = check_native(jacobi, big, big.copy())
    assert made[0].kernel.parallel


def test_self_overlapping_write_reads_before_it_writes():
    def shift(x):
        x[1:] = x[:-1] + 1.0
        return x
    check_native(shift, rng.random(20))


def test_prefix_sum_and_scalar_recursion_loops():
    check_native(prefix_sum, rng.random(100))
    made = check_native(recursion, rng.random(50) * 0.01)
    assert made[0].kernel.writes == []   # it carries its input, reads it only: no backup


def test_flagged_loop_restores_its_input_from_reused_backups():
    """An in-place loop whose call overflows midway: tier 2 flags it, restores the
    input from the backup taken before the call and tier 1 warns as eager; the backup
    buffers are the same objects from call to call (no new array per call)."""
    c, made = compiled(prefix_sum)
    x = rng.random(50)
    c(x.copy())
    same(c(x.copy()), prefix_sum(x.copy()))
    spares = made[0]._spares
    assert len(spares) == 1
    buffers = [id(b) for b in spares[0]]
    bad = x.copy()
    bad[20:22] = 1e308
    want = bad.copy()
    warns_overflow(prefix_sum, want)
    got = bad.copy()
    assert warns_overflow(c, got) is got
    same(got, want)
    assert made[0].native_calls == 1
    y = rng.random(50)
    same(c(y.copy()), prefix_sum(y.copy()))
    assert made[0].native_calls == 2
    assert [id(b) for b in made[0]._spares[0]] == buffers


# Programs that write their inputs, each with inputs that overflow midway (after the
# kernel wrote part of them): how each store saves what it overwrites (saves.py).
def _backward(x):        # a loop walking down: the span widens at its low end
    for i in range(x.shape[0] - 2, -1, -1):
        x[i] = x[i] + x[i + 1]
    return x


def _strided(x):         # every other element: the span fills the gaps
    for i in range(1, x.shape[0] // 2):
        x[2 * i] = x[2 * i - 2] * 1.5
    return x


def _rows(A):            # a fixed row, then a column (every row, one element each)
    A[3] = A[2] * 4.0
    A[:, 1] = A[:, 0] * 4.0
    return A


def _band(A):            # columns 2..-3 of rows 1..-2: the store's nest saves each
    A[1:-1, 2:-3] = A[1:-1, 3:-2] * 4.0   # row, the columns it leaves alone included
    return A


def _cube(A):            # rows of a 3-D input
    A[1:, :, 1] = A[:-1, :, 0] * 4.0
    return A


def _reversed_1d(x):     # a 1-D store in a prange: its range is saved before the nest
    x[::-1] = x * 10.0
    return x


def _swap_with_new(x, z):   # a loop swaps an input with a new array: saved whole first
    y = x * 2.0
    w = y + 1.0
    for _ in range(20):
        y[1:] = x[:-1] * 3.0 + z[1:]
        x, y = y, x
    z[0] = x[0] + y[1]
    return z, w


def _big(a, at, value=1e308):
    a = a.copy()
    a[at] = value
    return a


_data = np.random.default_rng(23)   # (its own: the other tests' inputs stay as they were)
_grid = _data.random((200, 200))
_line = _data.random(200)
_WRITERS = {
    "prefix": (prefix_sum, (_line,), (_big(_line, slice(120, 122)),)),
    "backward": (_backward, (_line,), (_big(_line, slice(60, 62)),)),
    "strided": (_strided, (_line,), (_big(_line, 0, 1e306),)),
    "rows": (_rows, (_grid[:8, :6],), (_big(_grid[:8, :6], (5, 0)),)),
    "band": (_band, (_grid,), (_big(_grid, (150, 40)),)),
    "3-d": (_cube, (_data.random((6, 4, 3)),), (_big(_data.random((6, 4, 3)), (3, 2, 0)),)),
    "jacobi": (jacobi, (_grid, _grid.copy()), (_big(_grid, slice(150, 152)), _grid.copy())),
    "reversed-1d": (_reversed_1d, (_data.random(40_000),),
                    (_big(_data.random(40_000), 25_000),)),
    "swap-with-new": (_swap_with_new, (_line, _line * 0.5),
                      (_line, _big(_line * 0.5, slice(100, 102), 1.7e308))),
}


@pytest.mark.parametrize("name", list(_WRITERS))
def test_a_flagged_call_leaves_the_inputs_as_eager_does(name):
    """A call that overflows after the kernel wrote part of its inputs: the kernel
    saved each part at its first write; the call restores them and runs in tier 1,
    which warns and writes as eager. Calls before and after it run in tier 2."""
    fn, good, bad = _WRITERS[name]
    c, tier, _ = second_call(fn, *[a.copy() for a in good])
    for args, flagged in ((bad, True), (good, False), (bad, True), (good, False)):
        want_args = [a.copy() for a in args]
        got_args = [a.copy() for a in args]
        calls = tier.native_calls
        if flagged:
            want = warns_overflow(fn, *want_args)
            got = warns_overflow(c, *got_args)
        else:
            want, got = fn(*want_args), c(*got_args)
        same(got, want)
        for g, w in zip(got_args, want_args):
            same(g, w)
        assert tier.native_calls == calls + (not flagged)


def test_the_prefix_sum_saves_beside_its_store():
    """The prefix sum's loop saves one element a trip next to its store, with no call
    in the loop (a call there keeps LLVM from carrying the previous sum in a register:
    about 3x slower); its first element is saved before the loop."""
    made = check_native(prefix_sum, rng.random(100))
    src = made[0].__dynamo_native_source__.split("def kernel(")[1]
    head, loop = src.split("for trip")
    assert "_save_span(" in head.rstrip().splitlines()[-1] and "_save_span(" not in loop
    assert made[0].kernel.writes == [0]


def test_an_index_error_midway_leaves_the_input_as_eager_does():
    """A loop whose index leaves the array raises IndexError after writing part of it;
    the compiled function leaves the same part written (such a loop is not lowered:
    a kernel has no bounds checks, the translator sees the index's range)."""
    def f(x, n):
        for i in range(1, n):
            x[i] += x[i - 1]
        return x
    c, made = compiled(f)
    for _ in range(3):
        want, got = np.arange(10.0), np.arange(10.0)
        with pytest.raises(IndexError) as eager:
            f(want, 12)
        with pytest.raises(IndexError) as compiled_error:
            c(got, 12)
        assert str(compiled_error.value) == str(eager.value)
        same(got, want)


def test_overflow_hidden_in_a_scalar_loop_still_warns():
    """Sequential code ORs its checks into one flag without a branch per op; a value
    that overflows and is then hidden (``1 / inf == 0``) is still checked."""
    def f(r):
        s = r[0] * 1.0
        for k in range(1, r.shape[0]):
            s = s + 1.0 / (r[k] * 1e308 * 10.0)
        return s
    r = rng.random(20) + 1.0
    want = warns_overflow(f, r)
    c, made = compiled(f)
    for _ in range(2):
        same(warns_overflow(c, r), want)
    assert made[0].native_calls == 0
    ok = rng.random(20) * 1e-300
    same(c(ok), f(ok))
    assert made[0].native_calls == 1


def test_kernel_shapes_of_the_issue_programs():
    """What makes the benchmarks fast, checked on the source: the recursion's loop has
    no branch per op (one flag for sequential code); the Jacobi loop is one kernel, a
    ``for`` over the steps around a ``prange`` over rows."""
    made = check_native(recursion, rng.random(50) * 0.01)
    src = made[0].__dynamo_native_source__.split("def kernel(")[1]
    assert "if " not in src and "_bad[0] = True" not in src and src.count("for ") == 1
    big = rng.random((200, 200))
    made = check_native(jacobi, big, big.copy())
    src = made[0].__dynamo_native_source__.split("def kernel(")[1]
    loop = src.index("for trip")
    assert "prange(" in src[loop:] and made[0].kernel.parallel
    # each row is saved by the store's own inner loop at its first write (saves.RowSave),
    # not by a pass of its own over the row before it (a third slower on one thread)
    assert "_save_row(" not in src
    assert re.search(r"\n( +)for (i\d+) in range\(198\):\n\1    _b1\[1 \+ i\d+, 1 \+ \2\] = "
                     r"p1\[1 \+ i\d+, 1 \+ \2\]\n", src), src


def test_views_and_outputs_keep_identity():
    def f(x):
        x[0] = 5.0
        y = x * 2.0
        return x, y, y
    a = rng.random(6)
    got = second_call(f, a)[2]
    assert got[0] is a and got[1] is got[2]


# --------------------------------------------------------------------- random programs

_BIN = ["+", "-", "*"]
_FN = ["np.maximum", "np.minimum"]


def _program(seed: int):
    r = np.random.default_rng(seed)
    lines, names = [], ["x", "y"]
    for k in range(int(r.integers(2, 7))):
        a, b = r.choice(names), r.choice(names + ["1.5", "3"])
        if r.random() < 0.3:
            expr = f"{r.choice(_FN)}({a}, {b})"
        else:
            expr = f"({a} {r.choice(_BIN)} {b})"
        lines.append(f"    t{k} = {expr}")
        names.append(f"t{k}")
    src = "def prog(x, y):\n" + "\n".join(lines) + \
        f"\n    return {names[-1]}, {names[-2]}.sum(axis=-1)\n"
    scope = {"np": np}
    exec(compile(src, f"<program {seed}>", "exec"), scope)
    return scope["prog"], src


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8, np.int64])
def test_random_programs(dtype):
    """Random elementwise chains (hypothesis-style seeds; each compiles once)."""
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=3, deadline=None, derandomize=True)
    @given(st.integers(0, 10_000), st.sampled_from([(5, 7), (1, 7), (0, 3)]))
    def run(seed, shape):
        prog, src = _program(seed)
        if np.dtype(dtype).kind == "f":
            x = rng.standard_normal(shape).astype(dtype)
            y = rng.standard_normal(shape[-1:]).astype(dtype)
        else:
            x = rng.integers(-100, 100, shape).astype(dtype)
            y = rng.integers(-100, 100, shape[-1:]).astype(dtype)
        rtol = 0.0 if np.dtype(dtype).kind != "f" else 64 * np.finfo(dtype).eps
        if np.dtype(dtype).kind == "f":   # the sums: summation order
            want = prog(x.copy(), y.copy())
            got = second_call(prog, x, y)[2]
            same(got[0], want[0])
            np.testing.assert_allclose(got[1], want[1], rtol=rtol,
                                       atol=shape[-1] * 8 * np.finfo(dtype).eps *
                                       (np.abs(x).sum() + 1), err_msg=src)
        else:
            check_native(prog, x, y)
    del hypothesis
    run()


# --------------------------------------------------------------------- tiering


def test_background_swap_waits_deterministically():
    def f(x):
        return x * 3.0 + 1.0
    c, made = compiled(f, background=True, after_calls=2)
    x = rng.random(100)
    for _ in range(3):   # tier 1 answers while tier 2 compiles
        same(c(x), f(x))
    tier = made[0]
    assert tier.wait(timeout=300) and tier.state == "native"
    results = []
    threads = [threading.Thread(target=lambda: results.append(c(x))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        same(r, f(x))
    assert tier.native_calls >= 4


def test_measured_choice_is_logged(caplog):
    def f(x):
        return np.exp(x) * 2.0
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        c, made = compiled(f, prefer="measure", trial_calls=2)
        x = rng.random(1000)
        for _ in range(6):
            np.testing.assert_allclose(c(x), f(x), rtol=ULP4[np.float64])
    tier = made[0]
    assert tier.decided.is_set() and tier.winner in ("native", "tier1")
    assert "runs in tier" in caplog.text


def test_the_race_wants_both_clocks_for_serial_kernels():
    """race.choose: a serial tier 2 replaces tier 1 only when it is faster by wall time
    and by CPU time (a loaded machine inflates some calls' wall time); a parallel
    kernel on all threads wins by wall time alone; the thread count by wall time."""
    from dynamo.backends.native.race import choose
    ms = 1e-3
    # softmax at load 10: tier 2 won by wall time by luck, lost by CPU time
    assert choose({"native": [(90 * ms, 32 * ms)], "native1": [(25 * ms, 21 * ms)],
                   "tier1": [(27 * ms, 15.5 * ms), (40 * ms, 16 * ms)]}, True) == ("tier1", 1)
    assert choose({"native": [(25 * ms, 21 * ms)], "tier1": [(27 * ms, 15 * ms)]},
                  False) == ("tier1", None)
    assert choose({"native": [(9 * ms, 8 * ms)], "tier1": [(27 * ms, 15 * ms)]},
                  False) == ("native", None)
    # Jacobi at load 1: two threads beat one by wall time (more CPU than tier 1 is fine)
    assert choose({"native": [(0.5 * ms, 2.5 * ms)], "native1": [(0.9 * ms, 0.9 * ms)],
                   "tier1": [(2.0 * ms, 2.0 * ms)]}, True) == ("native", None)
    # and at load 9 one thread wins
    assert choose({"native": [(503 * ms, 9 * ms)], "native1": [(0.94 * ms, 0.9 * ms)],
                   "tier1": [(2.0 * ms, 2.0 * ms)]}, True) == ("native", 1)
    # a tie is tier 1's
    assert choose({"native": [(2 * ms, 2 * ms)], "tier1": [(2 * ms, 2 * ms)]},
                  False) == ("tier1", None)


def test_options_checked_at_compile():
    def f(x):
        return x + 1
    with pytest.raises(ValueError, match="after_calls"):
        dynamo.compile(f, backend="native", options={"after_calls": -1})
    with pytest.raises(ValueError, match="unknown option"):
        dynamo.compile(f, backend="native", options={"after_call": 1})
    with pytest.raises(ValueError, match="prefer"):
        dynamo.compile(f, backend="native", options={"prefer": "fast"})
    with pytest.raises(ValueError, match="cache_load"):
        dynamo.compile(f, backend="native", options={"cache_load": "now"})


def test_by_name_and_config_thresholds():
    def f(x):
        return x * 2.0
    old = dynamo.config.native_after_calls
    dynamo.config.native_after_calls = 1
    try:
        c = dynamo.compile(f, backend="native", options={"background": False,
                                                         "prefer": "native", "cache": False})
        x = rng.random(5)
        for _ in range(3):
            same(c(x), f(x))
    finally:
        dynamo.config.native_after_calls = old


def test_without_numba_compile_says_how_to_install():
    code = ("import sys; sys.modules['numba'] = None\n"
            "import dynamo\n"
            "try:\n"
            "    dynamo.compile(lambda x: x + 1, backend='native')\n"
            "except ImportError as e:\n"
            "    print(e)\n"
            "print(dynamo.compile(lambda x: x + 1, backend='numpy') is not None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert "pip install arraydynamo[native]" in out.stdout, out.stderr
    assert out.stdout.strip().endswith("True")


def test_disk_cache(tmp_path):
    def f(x):
        return x * 2.0 + 1.0
    x = rng.random(8)
    same(second_call(f, x, cache=True, cache_dir=str(tmp_path))[2], f(x))
    assert list(tmp_path.glob("k_*.py"))
    assert list(tmp_path.rglob("*.nbi")), sorted(p.name for p in tmp_path.rglob("*"))


# a child process's backend: "fill" compiles at the first call (the cache filled),
# another mode is the cache_load option's
_CHILD_BACKEND = """
import sys, numpy as np, dynamo
from dynamo.backends.native.backend import native_backend
cache_dir, mode = sys.argv[1], sys.argv[2]
made = []
def backend(graph, example_inputs):
    options = {"cache_dir": cache_dir, "prefer": "native"}
    if mode == "fill":
        options.update(after_calls=1, background=False)
    else:
        options["cache_load"] = mode
    made.append(native_backend(graph, example_inputs, options=options))
    return made[-1]
"""

_WARM_CHILD = _CHILD_BACKEND + """
def f(x, rng):
    return x * 2.0 + rng.standard_normal(x.shape)
def g(x):
    return np.sqrt(x) - 3.0
c, cg = dynamo.compile(f, backend=backend), dynamo.compile(g, backend=backend)
x = np.arange(6.0)
outs = [c(x, np.random.default_rng(1))]
t = made[0]
hot = t.state  # the first call made it hot (a warm cache): its kernel loads meanwhile
t.wait(120)
outs += [c(x, np.random.default_rng(1)), c(x, np.random.default_rng(1))]
want = f(x, np.random.default_rng(1))
g_outs = [cg(x)]
tg = made[1]
g_hot = tg.state  # Numba is set up now: "auto" loads g's kernel in its first call
tg.wait(120)
g_outs.append(cg(x))
stats, g_stats = t._dispatcher.stats, tg._dispatcher.stats
print(hot, t.state, t.native_calls, sum(stats.cache_hits.values()),
      sum(stats.cache_misses.values()), t.kernel.nopython_draws,
      all(o.tobytes() == want.tobytes() for o in outs),
      g_hot, tg.native_calls, sum(g_stats.cache_hits.values()),
      sum(g_stats.cache_misses.values()), all(o.tobytes() == g(x).tobytes() for o in g_outs))
"""


def test_a_new_process_loads_its_kernel_from_the_disk_cache(tmp_path):
    """A process that finds its kernel in the disk cache counts the graph as hot at its
    first call (answered by tier 1) and loads the kernel without compiling it (Numba's
    cache hit, no miss; a kernel with Numba's own draws: nopython_draws.py). The first
    kernel of a process loads in the background (Numba's setup: 0.6-0.8 s of CPU), and
    tier 2 answers from the first call after the load; once Numba is set up, a kernel
    loads in the first call of its graph (``cache_load="auto"``: about 12 ms), and tier
    2 answers from the second call. ``"first_call"`` loads the first kernel in its
    first call too; ``"background"`` never waits."""
    def child(mode):
        out = subprocess.run([sys.executable, "-c", _WARM_CHILD, str(tmp_path), mode],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()
    assert child("fill") == ["native", "native", "2", "0", "1", "True", "True",
                             "native", "1", "0", "1", "True"]
    assert child("auto") == ["compiling", "native", "2", "1", "0", "True", "True",
                             "native", "1", "1", "0", "True"]
    assert child("first_call") == ["native", "native", "2", "1", "0", "True", "True",
                                   "native", "1", "1", "0", "True"]
    # "background": g's kernel (Numba set up by then) loads in about 12 ms on another
    # thread, which may finish before g's first call reads its state: that state is
    # either; one native call of two says the first was tier 1's (it never waited)
    bg = child("background")
    assert bg[7] in ("compiling", "native"), bg
    assert bg[:7] + bg[8:] == ["compiling", "native", "2", "1", "0", "True", "True",
                               "1", "1", "0", "True"]


_SECOND_CALL_CHILD = _CHILD_BACKEND + """
from dynamo.backends.native import tier
tier.FIRST_LOAD_WAIT_S = 240.0   # (the load's bound, 10 s, could pass on a loaded CI machine)
def g(x):
    return np.sqrt(x) - 3.0
c = dynamo.compile(g, backend=backend)
x = np.arange(6.0)
first = c(x)
t = made[0]
state = t.state
second = c(x)   # no wait in between: the program's own next call
print(state, t.native_calls, first.tobytes() == g(x).tobytes(),
      second.tobytes() == g(x).tobytes())
"""


def test_a_new_process_with_a_warm_cache_runs_tier_2_from_its_second_call(tmp_path):
    """The process's first kernel found in the disk cache loads in the background
    (Numba's setup, 0.6-0.8 s of CPU): the first call is tier 1's, as fast as without
    a cache, and the second call waits for the load and is answered by tier 2 (before,
    tier 1 answered every call until the load finished, seconds later)."""
    def child(mode):
        out = subprocess.run([sys.executable, "-c", _SECOND_CALL_CHILD, str(tmp_path), mode],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()
    assert child("fill") == ["native", "1", "True", "True"]
    assert child("auto") == ["compiling", "1", "True", "True"]


def test_machine_code_in_the_cache_is_found_by_its_index(tmp_path):
    """``has_machine_code``: the kernel's file alone (a miss: a compile of seconds,
    which the second call must not wait for) is not machine code; Numba's index for
    this Python beside it is; another Python's or another kernel's is not."""
    from dynamo.backends.native.kernel_files import cache_path, has_machine_code
    src = "def kernel(p0):\n    return p0\n"
    stem = cache_path(src, str(tmp_path)).rsplit("/", 1)[1][:-3]
    (tmp_path / f"{stem}.py").write_text(src)
    assert not has_machine_code(src, str(tmp_path))
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / f"{stem}.kernel-1.py27.nbi").write_text("")
    (tmp_path / "__pycache__" / f"k_other.kernel-1.py{sys.version_info[0]}"
     f"{sys.version_info[1]}.nbi").write_text("")
    assert not has_machine_code(src, str(tmp_path))
    (tmp_path / "__pycache__" / f"{stem}.kernel-1.py{sys.version_info[0]}"
     f"{sys.version_info[1]}.nbi").write_text("")
    assert has_machine_code(src, str(tmp_path))


def test_negative_loop_index_into_a_view_wraps_around_the_view():
    def g(x, out):
        v = x[2:32]
        for i in range(20):
            out[i] = v[i - 1] * 2.0    # i = 0 reads v[-1], x[31] (not x[-1])
        return out
    check_native(g, rng.random(40), np.zeros(20))


def test_float_prod_within_2_n_eps():
    def f(x):
        return x.prod(axis=-1)
    x = 1.0 + 0.01 * rng.standard_normal((8, 300))
    want = f(x)
    got = second_call(f, x)[2]
    np.testing.assert_allclose(got, want, rtol=2 * 300 * np.finfo(np.float64).eps, atol=0)


def test_a_new_input_layout_compiles_its_own_kernel():
    def f(x):
        return x * 2.0 + 1.0
    x = rng.random((6, 8))
    c, tier, got = second_call(f, x)
    same(got, f(x))
    ro = x.copy()
    ro.flags.writeable = False
    strided = rng.random((6, 16))[:, ::2]
    for arg in (strided, ro, strided, ro):   # the first call of each compiles it
        same(c(arg), f(arg))
    assert tier.native_calls == 3 and len(tier._compiled) == 3


def test_the_fast_call_path_falls_back_as_the_generic_one():
    """A kernel that writes no input and makes no new 2-D array (the recursion) is
    called through a function generated for it (``call_helpers.fast_native``): it answers in
    tier 1, as the generic path does, under a non-default error state, for an input
    layout with no kernel yet (compiled then) and for a flagged call."""
    def f(x):
        return x * 2.0 + 1.0, x.max()
    x = rng.random(50)
    c, tier, got = second_call(f, x)
    same(got, f(x))
    assert "_native" in vars(tier)   # the generated function, not the method
    strided = rng.random(100)[::2]
    for _ in range(2):   # tier 1 while its kernel compiles, then tier 2
        same(c(strided), f(strided))
    assert tier.native_calls == 2
    with np.errstate(all="ignore"):
        same(c(x), f(x))
    big = np.full(4, 1e308)
    want = warns_overflow(f, big)
    same(warns_overflow(c, big), want)   # flagged (2e308): tier 1 warns as eager
    assert tier.native_calls == 2


# --------------------------------------------------------------------- speed without loss


def test_large_new_arrays_come_from_numpy_and_intermediates_are_kept():
    """A new array of 1 MiB or more is made by the caller with NumPy (huge pages), not
    in the kernel (emitter.LIFT_MIN_BYTES): a result is new on every call, as eager's;
    an intermediate written and read row by row (softmax's exp) is a buffer of one row
    in the kernel (row_buffers.py; before, a full-size one reused from call to call).
    (float64: a float32 ``exp`` is NumPy's own call, a whole array, since 2026-12-06.)"""
    def softmax(x):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
    x = rng.standard_normal((300, 1000))   # 2.4 MB
    c, tier, first = second_call(softmax, x)
    kinds = sorted(b.result for b in tier.kernel.buffers)
    assert kinds == [True], tier.kernel.buffers
    assert "np.empty((300, 1000)" not in tier.__dynamo_native_source__
    assert "np.empty((1000,), np.float64)" in tier.__dynamo_native_source__
    second = c(x)
    assert tier.native_calls == 2 and first is not second
    assert first.base is None and not np.shares_memory(first, second)
    same(first, softmax(x), rtol=1e-5)
    same(second, first)
    small = rng.standard_normal((3, 40))   # stays in the kernel
    c, tier, got = second_call(softmax, small)
    assert tier.kernel.buffers == () and "np.empty((3, 40)" in tier.__dynamo_native_source__
    same(got, softmax(small), rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
def test_max_min_in_lanes_are_numpys_bit_for_bit(dtype):
    """Rows of 16 or more reduce in eight lanes (reductions._lanes_max_min): the same
    values as NumPy's, NaN wherever a row holds one; a zero result is the zero NumPy
    gives: a run with one sign of zero gives that one in any order, a run with both
    (row 12, and the whole array) flags the call, which tier 1 answers."""
    def f(x):
        return x.max(axis=-1), x.min(axis=-1), x[:12].max(), x[:8, :10].min(axis=-1)
    n = 37   # four lanes of four, plus a tail of five
    x = rng.standard_normal((40, n)) * 10
    if np.dtype(dtype).kind == "f":
        x[:4], x[4:8] = -0.0, 0.0                                   # one sign a row
        x[8, 5] = x[9, n - 1] = np.nan                              # a lane, the tail
        x[10, 3], x[11, 20] = np.inf, -np.inf
        x[12] = -np.abs(x[12])
        x[12, [4, 30]] = [0.0, -0.0]                                # max is a zero
    x = x.astype(dtype)
    c, made = compiled(f)
    for _ in range(2):   # tier 1, then tier 2 (or tier 1 again for a flagged call)
        got = c(x)
        want = f(x)
        same(got, want)
        for g, w in zip(got, want):
            assert np.array_equal(np.signbit(g), np.signbit(w)), (g, w)
    assert "8 * j" in made[0].__dynamo_native_source__
    mixed = np.dtype(dtype).kind == "f"   # row 12 holds 0.0 and -0.0
    assert made[0].native_calls == (0 if mixed else 1)
    if mixed:
        x[12, 30] = 0.0   # one sign of zero: tier 2 answers
        same(c(x), f(x))
        assert made[0].native_calls == 1
        x[:8, 3] = -x[:8, 3]   # both signs in rows 0-7 and the (0..7, :10) block
        same(c(x), f(x))
        assert made[0].native_calls == 1


def test_float32_exp_within_4_ulp_of_numpy_and_overflows_where_it_does():
    """fastexp.exp32 (the kernels' float32 ``np.exp``, which vectorizes) against NumPy's
    own float32 exp: within the documented 4 ulp (3 measured) over a dense sample of
    [-104, 89], infinity for exactly the same inputs around the overflow threshold,
    NaN, infinities and zeros as NumPy's."""
    from dynamo.backends.native.fastexp import exp32
    from numba import njit

    @njit
    def apply(x, out):
        for i in range(x.shape[0]):
            out[i] = exp32(x[i])

    lo, hi = np.array([88.7, 88.75], np.float32).view(np.int32)
    x = np.concatenate([
        np.linspace(-104, 89, 1_000_003, dtype=np.float32),
        np.arange(lo, hi, dtype=np.int32).view(np.float32),   # every float32 there
        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, -110, 100],
                 np.float32)])
    got = np.empty_like(x)
    apply(x, got)
    with np.errstate(all="ignore"):
        want = np.exp(x)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(np.isinf(got), np.isinf(want))
    finite = np.isfinite(want)
    ulps = np.abs(got[finite].view(np.int32).astype(np.int64) - want[finite].view(np.int32))
    assert ulps.max() <= 4, ulps.max()


def test_float32_exp_in_tier2_is_numpys_own_bit_for_bit():
    """Tier 2's float32 ``np.exp`` is NumPy's own call (elementwise.no_loop_for), not
    fastexp.exp32 (within 3 ulp: ``exp(y * 0.01) - 1`` cancelled that into a 3 %
    relative difference, round40_native/f32_exp_loop); results bit for bit."""
    y = np.random.default_rng(0).random(100).astype(np.float32).reshape(4, 25) * 4 - 2

    def chain(v):
        for _ in range(3):
            v = np.exp(v * np.float32(0.01)) - np.float32(1.0)
        return v
    c, tier, out = second_call(chain, y)
    assert "_npcall(_np_ops.exp" in tier.__dynamo_native_source__
    assert "_exp32(" not in tier.__dynamo_native_source__
    assert np.array_equal(out, chain(y.copy()))


def test_loop_invariant_statements_move_out_of_row_loops():
    """A row group's inner loop reads the row's mean from a new array on every trip;
    the read, the ``sqrt`` of it and its check move before the loop (emitter.
    hoist_invariants), results unchanged; a value carried from the trip before and a
    loop that never runs keep their statements."""
    from dynamo.backends.native.emitter import hoist_invariants

    def layernorm(x, g, b):
        mu = x.mean(axis=-1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5) * g + b
    x = rng.standard_normal((64, 300)).astype(np.float32)
    g, b = rng.random(300).astype(np.float32), rng.random(300).astype(np.float32)
    atol = 2 * np.finfo(np.float32).eps * float(np.abs(x).sum(axis=-1).max())
    made = check_native(layernorm, x, g, b, rtol=1e-4, atol=atol)
    src = made[0].__dynamo_native_source__.split("def kernel(")[1]
    sqrt = next(line for line in src.splitlines() if "np.sqrt(" in line)
    last = src[:src.index("return")].rstrip().splitlines()[-3]   # the last loop's body
    assert len(sqrt) - len(sqrt.lstrip()) < len(last) - len(last.lstrip()), src
    lines = ["for j in range(4):", "    u = v + 1", "    v = _k1", "    t1 = a0[i, 0]",
             "    a5[i, j] = t1 + u", "for j in range(3, 3):", "    t2 = a0[i, 0]",
             "for j in range(4):", "    t3 = a5[i, 0]", "    a5[i, j] = t3"]
    assert hoist_invariants(lines) == ["t1 = a0[i, 0]", "for j in range(4):", "    u = v + 1",
                                       "    v = _k1", "    a5[i, j] = t1 + u", *lines[5:]]
