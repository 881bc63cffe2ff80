"""Round 39, the numpy backend's block plans (``backends/numpy_backend/plan.py``; same
category as ``prog_round39_loops.py``): members hoisted out of the blocks
(``block_invariant``: a row of column statistics, constants and each other, run once
before the blocks) made to divide by zero and take logs of negatives, under
``np.errstate`` raising (caught and not), ``np.seterr(all="call")`` with a callback that
counts its calls, ``warnings`` as errors; invariant values that are outputs, read by
outputs, made from a reduction of the same group, from a random draw, from an input the
group writes in place (a row view of the blocked array itself); and the spill rule by
the peak alive (``_peak_live``): chains whose values die at once against values that
stay alive, at sizes just below and just above ``blocked_working_set`` times
``cache_bytes`` (docs/numpy_backend.md), with warnings, ints, float32 and an input
written in place. Options shrink the thresholds (``cache_bytes``, ``min_block_elements``)
so that small arrays run in many blocks on two threads; the eager backend takes no
options and runs the same programs plainly.

    >>> def _minmax(x):
    ...     lo, hi = x.min(axis=0), x.max(axis=0)
    ...     span = hi - lo                     # (19,): the same in every block of rows
    ...     return (x - lo) / np.where(span > 0, span, 1.0)
"""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round39_loops")   # the category of prog_round39_loops.py
# many blocks of rows over (61, 19), two threads (tests/backends/numpy_backend BLOCKED)
BLOCKS = {"min_blocked_elements": 0, "min_threaded_elements": 0, "cache_bytes": 2048,
          "min_block_elements": 1, "threads": 2}
# the spill rule alone: the default min_blocked_elements, a 64 KiB "L2", so that 2x it
# (131072 bytes) is crossed by nine float64 values alive of 1821 elements, not of 1820
SPILL = {"cache_bytes": 1 << 16, "blocked_working_set": 2.0, "min_block_elements": 512,
         "threads": 2, "min_threaded_elements": 0}


def _x(seed, shape=(61, 19), dtype=np.float64):
    return (np.random.default_rng(seed).random(shape) * 4 - 1).astype(dtype)


def _with(options, fn, *makes, calls=1, name=None, around=None):
    """``fn`` compiled with the numpy backend's ``options`` (plainly on eager, which
    takes none), called on each input maker ``calls`` times, then on the first again.
    ``around(r, call)`` wraps each call (global settings)."""
    def scenario(r):
        try:
            f = r.compile(fn, options=options) if r.compiled else fn
        except ValueError:       # (the eager backend takes no options)
            f = r.compile(fn)
        for make in [m for m in makes for _ in range(calls)] + [makes[0]]:
            args = make()
            if around is None:
                r.call(f, *args)
            else:
                around(r, lambda args=args: r.call(f, *args))
    reg._add(name or fn.__name__.removeprefix("_"), scenario, (fn.__doc__ or "").strip())


# ------------------------------------------------------------------- block-invariant rows
def _minmax(x):
    lo, hi = x.min(axis=0), x.max(axis=0)
    span = hi - lo
    return (x - lo) / np.where(span > 0, span, 1.0)


def _inv_span(x):                          # 1 / 0 in the row: one divide warning
    lo, hi = x.min(axis=0), x.max(axis=0)
    return (x - lo) * (1.0 / (hi - lo))


def _log_row(x, w):                        # log(0), log(-1): divide and invalid
    return x * np.log(w) + np.sqrt(w)


def _log_row_raising(x, w):
    with np.errstate(divide="raise"):
        return x * np.log(w) + 1.0


def _log_row_caught(x, w):
    try:
        with np.errstate(invalid="raise", divide="ignore"):
            return x * np.log(w) + np.sqrt(w)
    except FloatingPointError as e:
        return str(e)


def _log_row_ignored(x, w):
    with np.errstate(all="ignore"):
        return x * np.log(w) - np.sqrt(w)


def _row_as_error(x, w):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return x / (w * 0.0 + w)
        except RuntimeWarning as e:
            return str(e)


def _row_output(x, w, k):                  # an invariant output and one it reads
    s = np.sqrt(w * w + k)
    return x * s - 1.0, s * 2.0, s


def _row_of_reduction(x):                  # the row from a reduction of the same group
    m = x.mean(axis=0)
    d = m * m + 1.0
    return x / d - m


def _row_random(x, seed):
    rng = np.random.default_rng(seed)
    w = rng.random(x.shape[1])
    s = np.exp(-w) / w
    return x * s + w


def _row_global_random(x):
    w = np.random.random(x.shape[1])
    return x * (w + 1.0) - np.sqrt(w)


def _row_written_first(x, w):              # w written in place, then the row read
    w *= 2.0
    s = w + 1.0
    return x * s


def _row_written_after(x, w):              # the row read, then w written from it
    s = w * w + 1.0
    y = x / s
    w[:] = s
    return y, w


def _row_view_of_x(x):                     # the row is x[0], and x is written in place
    w = x[0]
    x *= 2.0
    s = w + 1.0
    return x * s


def _row_view_before(x):
    w = x[0]
    s = w * 0.5 + 1.0
    x *= s
    return x - w


def _row_out_param(x, w):                  # out= into the row, then read
    np.multiply(w, 3.0, out=w)
    return x - w * 0.5


def _scalar_invariant(x, a):
    k = np.float64(a) * 2.0
    return x * (k + 1.0) - k


def _row_f32(x, w):
    s = w * 1.5 + 0.1
    return x * s - np.float32(2.0) * s


def _row_int8(x, w):                       # int8 row times 100: wraps (no warning)
    s = w * np.int8(100)
    return x + s


def _row_nan(x, w):
    s = np.where(np.isnan(w), 0.0, w) + np.nanmax(w)
    return x * s


def _chain_of_rows(x, w, v):
    a = w * v
    b = np.sin(a) + v
    c = np.where(b > 0.5, b, -b) / (v - 0.25)
    return x * c + a


W0 = np.linspace(-1, 2, 19)
W0[3] = 0.0


def _row_zero():
    return _x(1), W0.copy()


def _const_col(seed):
    x = _x(seed)
    x[:, 4] = 0.75
    return x


_with(BLOCKS, _minmax, lambda: (_x(1),), lambda: (_const_col(2),))
_with(BLOCKS, _inv_span, lambda: (_const_col(3),), lambda: (_x(4),))
for _fn in (_log_row, _log_row_raising, _log_row_caught, _log_row_ignored, _row_as_error):
    _with(BLOCKS, _fn, _row_zero, lambda: (_x(5), np.abs(W0) + 1.0))
_with(BLOCKS, _row_output, lambda: (_x(1), W0.copy(), 0.5), lambda: (_x(2), W0.copy(), -1.0))
_with(BLOCKS, _row_of_reduction, lambda: (_x(1),), lambda: (_x(2, (70, 19)),))
_with(BLOCKS, _row_random, lambda: (_x(1), 3), lambda: (_x(2), 4))
_with(BLOCKS, _row_written_first, _row_zero, lambda: (_x(7), W0 + 1.0))
_with(BLOCKS, _row_written_after, _row_zero, lambda: (_x(7), W0 + 1.0))
_with(BLOCKS, _row_view_of_x, lambda: (_x(1),), lambda: (_x(8),))
_with(BLOCKS, _row_view_before, lambda: (_x(1),), lambda: (_x(8),))
_with(BLOCKS, _row_out_param, _row_zero, lambda: (_x(3), W0 * 2))
_with(BLOCKS, _scalar_invariant, lambda: (_x(1), 0.5), lambda: (_x(2), -3.0))
_with(BLOCKS, _row_f32, lambda: (_x(1, dtype=np.float32), W0.astype(np.float32)),
      lambda: (_x(2, dtype=np.float32), W0.astype(np.float32) * 3))
_with(BLOCKS, _row_int8, lambda: ((_x(1) * 9).astype(np.int8), np.arange(19, dtype=np.int8)),
      lambda: ((_x(2) * 9).astype(np.int8), np.arange(-9, 10, dtype=np.int8)))
_with(BLOCKS, _row_nan, lambda: (_x(1), np.where(W0 > 1, np.nan, W0)), _row_zero)
_with(BLOCKS, _chain_of_rows, lambda: (_x(1), W0.copy(), W0 + 0.25),
      lambda: (_x(2), W0 * 0.5, W0 - 0.5))


def _seeded(r, call):
    np.random.seed(5)
    call()


_with(BLOCKS, _row_global_random, lambda: (_x(1),), lambda: (_x(2),), around=_seeded)

CALLS = []


def _count_call(kind, flag):
    CALLS.append(kind)


def _under_call(r, call):
    CALLS.clear()
    old, old_call = np.seterr(all="call"), np.seterrcall(_count_call)
    try:
        call()
    finally:
        np.seterr(**old)
        np.seterrcall(old_call)
    r.see("seterrcall calls", list(CALLS))


def _under_raise(r, call):
    old = np.seterr(all="raise")
    try:
        call()
    finally:
        np.seterr(**old)


_with(BLOCKS, _inv_span, lambda: (_const_col(3),), lambda: (_x(4),), around=_under_call,
      name="inv_span_seterrcall")
_with(BLOCKS, _log_row, _row_zero, lambda: (_x(5), np.abs(W0) + 1.0), around=_under_call,
      name="log_row_seterrcall")
_with(BLOCKS, _log_row, _row_zero, lambda: (_x(5), np.abs(W0) + 1.0), around=_under_raise,
      name="log_row_seterr_raise")
_with({**BLOCKS, "threads": 1}, _log_row, _row_zero, name="log_row_one_thread")
_with({**BLOCKS, "rerun_on_error": False}, _log_row, lambda: (_x(5), np.abs(W0) + 1.0),
      name="log_row_no_rerun_clean")


def _out_inplace(x):                      # out=x written, then its row x[0] read
    w = x[0]
    np.multiply(x, 2.0, out=x)
    s = w + 1.0
    return x * s


def _setitem_all(x):
    w = x[0]
    x[:] = x * 2.0
    s = w + 1.0
    return x * s


def _int_floordiv(x, w):                   # 7 // 0 in an int row: a warning, 0
    return x + 7 // w


def _overflow_row(x, w):
    with np.errstate(over="raise"):
        return x * np.exp(w * 800.0)


def _neg_power(x, w):                      # an int row to -1: ValueError
    return x + np.power(w, -1)


def _where_recip(x, w):
    return x * np.where(w > 0, 1.0 / w, 0.0)


def _f16_row(x, w):
    return x * (w * np.float16(3.1) + np.float16(0.1))


def _dtype_arg(x, w):
    return x - np.add(w, 1, dtype=np.float32)


def _row_in_sums(x, w):
    s = w * w + 1.0
    y = x * s
    return y.sum(axis=1), s.sum()


def _two_rows(x, w, v):                    # (x - lo) / 0 where w == v
    a, b = np.maximum(w, v), np.minimum(w, v)
    return (x - b) / (a - b)


_with(BLOCKS, _out_inplace, lambda: (_x(1),), lambda: (_x(2),))
_with(BLOCKS, _setitem_all, lambda: (_x(1),))
_with(BLOCKS, _int_floordiv, lambda: ((_x(1) * 9).astype(np.int64), np.arange(-9, 10)))
_with(BLOCKS, _overflow_row, lambda: (_x(1), W0.copy()), lambda: (_x(1), W0 * 0.1))
_with(BLOCKS, _neg_power, lambda: (_x(1), np.arange(1, 20)), lambda: (_x(1), W0.copy()))
_with(BLOCKS, _where_recip, lambda: (_x(1), W0.copy()))
_with(BLOCKS, _f16_row, lambda: (_x(1, dtype=np.float16), W0.astype(np.float16)))
_with(BLOCKS, _dtype_arg, lambda: (_x(1), W0.copy()))
_with(BLOCKS, _row_in_sums, lambda: (_x(1), W0.copy()))
_with(BLOCKS, _two_rows, lambda: (_x(1), W0.copy(), W0 * 0.5))


# ------------------------------------------------------------------- the spill rule
def _v(n, seed, dtype=np.float64):
    return (np.random.default_rng(seed).random(n) * 4 - 1).astype(dtype)


def _dying(a, b):                          # at most two alive: plain at any size here
    t = a * 2.0 + b
    t = t * t - a
    t = np.sqrt(np.abs(t)) + b
    t = t * 0.5 - a
    t = np.exp(-t) + b
    return t * a


def _living(a, b):                         # nine alive at the peak: blocks from 1821 elements
    p, q, r, s = a * b, a + b, a - b, a * 2.0
    u, v, w, z = np.sin(a), np.cos(b), np.exp(-a), np.abs(b)
    return p * u + q * v + r * w + s * z


def _living_warns(a, b):                   # sqrt and log of negatives inside
    p, q, r, s = np.sqrt(a), np.log(b), a - b, a * 2.0
    u, v, w, z = np.sin(a), np.cos(b), np.exp(-a), 1.0 / b
    return p * u + q * v + r * w + s * z


def _living_written(a, b):                 # a written in place in the middle
    p, q, r, s = a * b, a + b, a - b, a * 2.0
    a += 1.0
    u, v, w, z = np.sin(a), np.cos(b), np.exp(-a), np.abs(b)
    return p * u + q * v + r * w + s * z, a


def _living_sum(a, b):                     # a reduction at the end (partial in blocks)
    p, q, r, s = a * b, a + b, a - b, a * 2.0
    u, v, w, z = np.sin(a), np.cos(b), np.exp(-a), np.abs(b)
    t = p * u + q * v + r * w + s * z
    return t.sum(), t.max(), t


def _living_ints(a, b):
    p, q, r, s = a * b, a + b, a - b, a * 3
    u, v, w, z = a // 3, b % 5, a ^ b, np.abs(b)
    return p * u + q * v + r * w + s * z


def _living_outputs(a, b):                 # the intermediates returned too
    p, q, r, s = a * b, a + b, a - b, a * 2.0
    return p * q + r * s, p, s


def _dying_then_living(a, b):
    t = np.tanh(a * b + 1.0) - a
    t = t * t + b
    p, q, r, s = t * b, t + b, t - b, t * 2.0
    u, v, w, z = np.sin(t), np.cos(b), np.exp(-t), np.abs(b)
    return p * u + q * v + r * w + s * z


def _spill_sizes(fn, *sizes, dtype=np.float64, name=None, kind="f"):
    def make(n, k):
        if kind == "i":
            return ((_v(n, k) * 50).astype(np.int64), (_v(n, k + 1) * 50).astype(np.int64))
        return _v(n, k, dtype), _v(n, k + 1, dtype)
    _with(SPILL, fn, *[(lambda n=n, k=k: make(n, k)) for k, n in enumerate(sizes)], name=name)


# (peaks, bytes per element: dying 16, living 72 (nine alive), written 40, outputs 24;
# the bound is 131072 bytes: each first pair of sizes is just above it, then just below)
_spill_sizes(_dying, 8193, 8192, 2000)
_spill_sizes(_living, 1821, 1820, 2100, 1000)
_spill_sizes(_living_warns, 1821, 1820)
_with(SPILL, _living_warns, lambda: (_v(1821, 1), _v(1821, 2)), lambda: (_v(1820, 3), _v(1820, 4)),
      around=_under_call, name="living_warns_seterrcall")
_with(SPILL, _living_warns, lambda: (_v(1821, 1), _v(1821, 2)), around=_under_raise,
      name="living_warns_seterr_raise")
_spill_sizes(_living_written, 3277, 3276)
_spill_sizes(_living_sum, 1821, 1820, 5000)
_spill_sizes(_living_ints, 1821, 1820, kind="i")
_spill_sizes(_living_outputs, 5462, 5461)
_spill_sizes(_dying_then_living, 1821, 1820)
_spill_sizes(_living, 3641, 3640, dtype=np.float32, name="living_f32")
_spill_sizes(_living, 1821, 0, 1, name="living_empty")
