"""``np.clip``, ``np.cumsum``/``np.cumprod`` and ``ufunc.accumulate`` write their fresh
result into a dead operand's buffer or a buffer kept across calls (``out_calls.py``),
as elementwise ufuncs do, and every result still equals eager's (values, dtype, shape,
strides), call after call, with the caller's earlier results left alone.

The shapes are the seventh corpus's (scripts/realworld_programs7.py): a weighted 2-D
histogram's ``np.clip(x.astype(np.int64), 0, 31)`` and a segment sum's ``np.cumsum``
and ``np.maximum.accumulate`` of 200,000 floats: each was a fresh array, and its page
faults, on every call.
"""

import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend import numpy_backend

import dynamo

N = 200_000          # 1.6 MB of float64: over scratch.MIN_BYTES
# The code read here is the plain path's: a group whose plain path spills the L2 cache
# would run block by block (``plan._spills_cache``), where no op writes a whole buffer.
PLAIN_PATH = {"blocked_working_set": 0.0}


def bins2d(x, y, w):
    ix = np.clip((x * 32).astype(np.int64), 0, 31)
    iy = np.clip((y * 32).astype(np.int64), 0, 31)
    return (ix * 32 + iy) * w


def clip_image(img):
    return np.clip(img * 2.0 - 0.5, 0.0, 1.0) + 1.0


def segment_sums(x, flags):
    c = np.cumsum(x)
    starts = np.flatnonzero(flags)
    offset = np.zeros_like(x)
    offset[starts] = c[starts] - x[starts]
    offset = np.maximum.accumulate(np.where(flags, offset, -np.inf))
    return c - np.where(np.isfinite(offset), offset, 0.0)


def returned_scans(x):
    return np.cumsum(x * 2.0), np.maximum.accumulate(x), np.cumprod(x * 0.5 + 0.75)


def rolling_sums(X, w=20):
    c = np.cumsum(X * X, axis=1)
    return (c[:, w:] - c[:, :-w]) / w


def cast_sqrt(x):
    # NaN, inf: invalid casts (summed: a returned chain would take no kept buffer)
    return (np.sqrt(np.abs(x * 1e19)).astype(np.int64) + 1).sum()


def loop_casts(X, n):
    acc = np.zeros(X.shape)
    for i in range(n):
        acc += np.sqrt((X * (i + 1)).astype(np.float64))
    return acc


def log_paths(z):
    return np.exp(np.cumsum(0.2 * z - 0.01, axis=1) + 4.6)


def int_cumsum(k):
    return np.cumsum(k * 2) + 1       # int32 sums in int64: never through out=


def typed_cumsum(x):
    return np.cumsum(x * 2.0, dtype=np.float32) + 1


def compiled_source(fn, *args) -> str:
    """The numpy backend's generated code for ``fn``'s one graph (a recording backend
    that, as the numpy backend, takes ``np.flatnonzero``'s data-dependent size)."""
    sources = []

    def recording(graph, example_inputs):
        compiled = numpy_backend(graph, example_inputs, options=PLAIN_PATH)
        sources.append(compiled.__dynamo_source__)
        return compiled
    recording.dynamic_shapes = True
    dynamo.compile(fn, backend=recording)(*args)
    assert len(sources) == 1, sources
    return sources[0]


def assert_same(got, want):
    np.testing.assert_array_equal(got, want, strict=True)
    assert got.strides == want.strides


def data(seed):
    rng = np.random.default_rng(seed)
    return rng.random(N), rng.random(N), rng.random(N)


def test_clip_writes_into_the_dead_astype():
    src = compiled_source(bins2d, *data(0))
    # (astype has no out=: a cast into a kept buffer, then clip in place; ``x * 32``
    # itself is a fresh array: a kept one would sit idle at the last product, idle_sites)
    assert '_copyto(astype, (_multiply(x, 32)), casting="unsafe")' in src, src
    assert "_clip(astype, 0, 31, out=astype)" in src, src
    assert "_clip(astype_1, 0, 31, out=astype_1)" in src, src


def test_accumulations_keep_their_buffer_from_call_to_call():
    x, f, _ = data(1)
    src = compiled_source(segment_sums, x, f < 0.01)
    assert "_cumsum(x, out=_scratch" in src, src
    # (np.maximum.accumulate writes into the dead np.where it scans)
    assert "_ufunc_accumulate(_maximum, where, out=where)" in src, src


def test_a_2d_accumulation_writes_into_the_dead_product_it_reads():
    # X * X dies at np.cumsum: the scan runs in its buffer (NumPy's in-place scan gives
    # the same bits). The result is laid out as X: the buffer (a kept one, C order) only
    # where X is C-contiguous; the variant for any other layout allocates
    src = compiled_source(rolling_sums, data(5)[0].reshape(100, 2000))
    other, _, main = src.partition("\ndef forward")
    assert "X.flags.c_contiguous" in main, src
    assert "_cumsum(multiply, axis=1, out=multiply)" in main, src
    assert "out=" not in other, src


def test_a_chain_runs_through_an_accumulation_in_one_buffer():
    # a barrier option's paths: the scan's result lends its buffer on to + and exp
    src = compiled_source(log_paths, data(8)[0].reshape(500, 400))
    assert "_cumsum(subtract, axis=1, out=subtract)" in src, src
    assert "_add(cumsum, _float64_4_6, cumsum)" in src and "_exp(add, add)" in src, src
    # (returned: the chain's first op writes a fresh array, not a kept buffer, which
    # the caller's result would hold: reuse.donors)
    assert src.split("def forward")[-1].count(".take()") == 0, src


@pytest.mark.parametrize("fn,make", [
    (bins2d, lambda s: data(s)),
    (segment_sums, lambda s: (data(s)[0], data(s)[1] < 0.01)),
    (returned_scans, lambda s: (data(s)[0],)),
    (clip_image, lambda s: (data(s)[0].reshape(400, 500),)),
    (clip_image, lambda s: (np.asfortranarray(data(s)[0].reshape(400, 500)),)),
    (rolling_sums, lambda s: (data(s)[0].reshape(100, 2000),)),
    (rolling_sums, lambda s: (np.asfortranarray(data(s)[0].reshape(100, 2000)),)),
    (log_paths, lambda s: (data(s)[0].reshape(500, 400),)),
])
def test_results_equal_eager_call_after_call(fn, make):
    compiled = dynamo.compile(fn, backend="numpy")
    kept = []
    for seed in (2, 3, 2, 3):
        args = make(seed)
        got = compiled(*args)
        want = fn(*args)
        for g, w in zip(*((got, want) if isinstance(want, tuple) else ((got,), (want,)))):
            assert_same(g, w)
        kept.append((got, want))
    for got, want in kept:        # nothing the caller held was written again
        for g, w in zip(*((got, want) if isinstance(want, tuple) else ((got,), (want,)))):
            assert_same(g, w)


@pytest.mark.parametrize("fn,args", [
    (int_cumsum, (np.arange(N, dtype=np.int32),)),
    (typed_cumsum, (data(4)[0],)),
])
def test_accumulations_that_change_the_dtype_allocate(fn, args):
    src = compiled_source(fn, *args)
    scans = [line for line in src.splitlines() if "cumsum" in line and "=" in line]
    assert scans and not any("out=" in line for line in scans), src
    assert_same(dynamo.compile(fn, backend="numpy")(*args), fn(*args))


def test_a_cast_into_a_buffer_warns_as_eager():
    x = data(6)[0]
    x[::7] = np.nan
    x[1::11] = np.inf
    compiled = dynamo.compile(cast_sqrt, backend="numpy")
    for _ in range(2):
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            expected = cast_sqrt(x)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            result = compiled(x)
        assert_same(result, expected)
        assert [(w.category, str(w.message)) for w in got] == \
            [(w.category, str(w.message)) for w in want] != []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert "_copyto(" in compiled_source(cast_sqrt, x)


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_a_cast_in_a_loop_body_keeps_eager_layout(layout):
    # the loop body's cast may write into the product it reads only on trips where X is
    # C-contiguous (the per-trip check): elsewhere it allocates, as eager
    X = data(7)[0][:120_000].reshape(400, 300)
    X = {"C": X, "F": np.asfortranarray(X), "strided": X[:, ::2]}[layout]
    assert_same(dynamo.compile(loop_casts, backend="numpy")(X, 30), loop_casts(X, 30))
