"""Shared tools of the op tests: does an op's rule agree with what NumPy really does?

``agree(np.tile, x, (2, 1))`` runs the real call on real arrays and the op's rule on
their metas, and asserts that the rule describes the result exactly (shape, dtype,
NumPy scalar or array, list or tuple of them) or, when NumPy raises, that the rule
raises too. A rule may refuse a call NumPy accepts (a graph break) only when the test
says so (``may_break=True``); the return value says which way it went.

Example::

    >>> agree(np.sum, np.ones((2, 3), "f4"), axis=-1)
    'captured'
"""

from __future__ import annotations

import copy

import hypothesis.strategies as st
import numpy as np
from hypothesis.extra import numpy as hnp

from dynamo import ops
from dynamo.ops import ArrayMeta, meta_of

DTYPES = [np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                "uint32", "uint64", "float16", "float32", "float64",
                                "complex64", "complex128")]
NUMERIC = [d for d in DTYPES if d.kind != "b"]
FLOATS = [d for d in DTYPES if d.kind == "f"]


def to_meta(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return meta_of(value)
    if isinstance(value, tuple):
        return tuple(to_meta(v) for v in value)
    if isinstance(value, list):
        return [to_meta(v) for v in value]
    if isinstance(value, dict):
        return {k: to_meta(v) for k, v in value.items()}
    if isinstance(value, slice):
        return slice(to_meta(value.start), to_meta(value.stop), to_meta(value.step))
    return value


def describe(value) -> str:
    if isinstance(value, (np.ndarray, np.generic)):
        return f"{type(value).__name__} {value.dtype}{list(np.shape(value))}"
    return repr(value)


def matches(meta, value, where: str = "result") -> None:
    if isinstance(value, (list, tuple)):
        assert type(meta) is type(value), f"{where}: rule gave {meta!r} for a {type(value)}"
        assert len(meta) == len(value), f"{where}: {len(meta)} metas for {len(value)} values"
        for i, (m, v) in enumerate(zip(meta, value)):
            matches(m, v, f"{where}[{i}]")
        return
    assert isinstance(value, (np.ndarray, np.generic)), f"{where}: NumPy gave {value!r}"
    assert isinstance(meta, ArrayMeta), f"{where}: rule gave {meta!r}"
    # a size only the data decides (x[mask]: an unbacked size) matches any size
    got = (tuple(d if not isinstance(d, ops.DataSize) else n
                 for d, n in zip(meta.shape, np.shape(value))) +
           tuple(meta.shape[np.ndim(value):]), meta.dtype, meta.scalar)
    want = (np.shape(value), value.dtype, isinstance(value, np.generic))
    assert got == want, f"{where}: rule says {got}, NumPy gives {want}"


def resolve(fn):
    """(op, adapter) for a NumPy callable, or for ``"method:name"`` (an ndarray method)."""
    if isinstance(fn, str) and fn.startswith("method:"):
        hit = ops.lookup_method(fn.split(":", 1)[1])
    elif isinstance(fn, str):
        hit = (ops.get(fn), lambda a, k: (a, k))
    else:
        hit = ops.lookup_function(fn)
    assert hit is not None, f"{fn} is not registered"
    return hit


def real_call(fn, args, kwargs):
    if isinstance(fn, str) and fn.startswith("method:"):
        return getattr(args[0], fn.split(":", 1)[1])(*args[1:], **kwargs)
    if isinstance(fn, str):
        return ops.get(fn).impl(*args, **kwargs)
    return fn(*args, **kwargs)


def agree(fn, *args, may_break: bool = False, **kwargs) -> str:
    """'captured', 'break' (the rule refused; only with may_break), 'raised' (both), or
    'data_error' (NumPy raised because of array values, which the graph reproduces)."""
    op, adapter = resolve(fn)
    margs, mkwargs = adapter(tuple(to_meta(a) for a in args), to_meta(kwargs))
    real_args = copy.deepcopy(args)
    with np.errstate(all="ignore"):
        try:
            value = real_call(fn, real_args, dict(kwargs))
            error = None
        except Exception as e:  # noqa: BLE001
            value, error = None, e
    try:
        meta = op.meta(op, tuple(margs), dict(mkwargs))
    except Exception as e:  # noqa: BLE001
        if error is None:
            assert may_break, (f"{op.name}: the rule refused a call NumPy accepts "
                               f"({type(e).__name__}: {e}); args "
                               f"{[describe(a) for a in args]} {kwargs}")
            return "break"
        return "raised"
    if error is not None and (_data_dependent(fn, args, kwargs) or
                              _count_checked_when_run(op, args, error)):
        return "data_error"  # the real op raises it when the graph runs, as eagerly
    assert error is None, (f"{op.name}: NumPy raised {type(error).__name__}: {error}, but the "
                           f"rule said {meta}; args {[describe(a) for a in args]} {kwargs}")
    if op.extras.get("returns_none") or (value is None and op.kind == ops.MUTATION):
        value = real_args[0]  # the written array is the node's value
    matches(meta, value, f"{op.name}{[describe(a) for a in args]} {kwargs}")
    return "captured"


def _count_checked_when_run(op, args, error: Exception) -> bool:
    """``x[mask] = values`` with one value per selected element: the number of True
    elements is data, so NumPy checks the count when the graph runs (docs/unbacked.md)."""
    if op.name != "setitem" or not isinstance(error, ValueError) or len(args) != 3:
        return False
    x, mask, value = args
    return (isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and
            isinstance(value, np.ndarray) and
            value.ndim == np.ndim(x) - mask.ndim + 1)


def _data_dependent(fn, args, kwargs) -> bool:
    """NumPy's error came from array values (an index out of bounds, a negative integer
    power under a ``where`` mask): the same call on arrays of zeros or of ones succeeds.
    Errors from shapes and dtypes stay whatever the values. A 0-d mask's value is data
    too (``x[[2, 1], c]``: only a True ``c`` broadcasts), so one try fills index arrays
    with zeros and masks with ones."""
    fills = ((np.zeros_like, np.zeros_like), (np.ones_like, np.ones_like),
             (np.zeros_like, np.ones_like))
    for fill, mask_fill in fills:
        def conv(v, fill=fill, mask_fill=mask_fill):
            if isinstance(v, (np.ndarray, np.generic)):
                filled = (mask_fill if v.dtype == np.bool_ else fill)(v)
                return filled if isinstance(v, np.ndarray) else filled[()]
            if isinstance(v, (tuple, list)):
                return type(v)(conv(x) for x in v)
            if isinstance(v, slice):
                return slice(conv(v.start), conv(v.stop), conv(v.step))
            return v
        try:
            with np.errstate(all="ignore"):
                real_call(fn, conv(list(copy.deepcopy(args))),
                          {k: conv(v) for k, v in kwargs.items()})
        except Exception:  # noqa: BLE001
            continue
        return True
    return False


# --------------------------------------------------------------------------- strategies

def shapes(min_dims=0, max_dims=4, min_side=0, max_side=4):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def arrays(dtypes=DTYPES, shape=None, **shape_kwargs):
    """Small arrays with small values (values only matter for data-dependent errors)."""
    dtype = st.sampled_from(dtypes) if isinstance(dtypes, list) else st.just(dtypes)
    shape = shapes(**shape_kwargs) if shape is None else shape
    return st.builds(_fill, dtype, shape, st.integers(0, 2**31))


def _fill(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    values = np.asarray(rng.integers(-3, 4, size=shape))
    if dtype.kind == "u":
        values = np.abs(values)
    if dtype.kind == "b":
        values = values > 0
    return np.asarray(values.astype(dtype))


def scalars_or_arrays(dtypes=DTYPES, **shape_kwargs):
    """An array, a 0-d array, a NumPy scalar, or a Python scalar (NEP 50 weak)."""
    return st.one_of(arrays(dtypes, **shape_kwargs),
                     arrays(dtypes, shape=st.just(())).map(lambda a: a[()]),
                     st.sampled_from([0, 1, -2, 2.5, True, 1j, 3]))
