"""Round 25, graphs of one output returned bare (the numpy backend hands the value back
itself, issue #16; ``dynamo/glue.py``'s lighter cached call): a function returning a
single array, a 0-d array, a NumPy scalar, a Python float or int made from one, a
tuple of one, a list of one, a dict of one, ``None`` on one call and an array on the
next (the same entry), the argument itself after an in-place op (``f(x) is x``:
``x += 1``, ``np.add(x, 1, out=x)``, ``x.sort()``'s None), a view of the argument, a
result kept across calls and written by the caller (also views of large temporaries,
the numpy backend's recycled buffers), a result that is also stored in a global, an
attribute or a list, printed or returned twice; one output of ndarray subclasses, of
sizes that change, under ``np.errstate(divide="raise")`` (the rerun returns it bare
too), across graph breaks, and read back from the disk cache.

    >>> def _scaled(x):
    ...     return x * 2.0
"""

import os
import sys
import tempfile
import warnings

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round25_bare")
case = reg.case
scenario = reg.scenario

X = np.linspace(-2.0, 3.0, 7)
X4 = X.astype(np.float32)
XI = np.arange(-3, 4, dtype=np.int8)
XB = np.array([True, False, True])
X2 = np.arange(12.0).reshape(3, 4)
ARRS = ((X,), (X4,), (XI,))
STORE = {}


class Box:
    def __init__(self):
        self.last = None


# ------------------------------------------------------------ one value, bare

def _scaled(x):
    return x * 2.0


def _zero_d(x):
    return np.array(x.sum())


def _zero_d_from_reduce(x):
    return np.add.reduce(x, keepdims=False, axis=None, out=None, dtype=None)[()] if x.ndim else x


def _numpy_scalar(x):
    return x.sum()


def _python_float(x):
    return float(x.max())


def _python_int(x):
    return int(x.argmax())


def _bool_scalar(x):
    return bool((x > 0).any())


def _item(x):
    return x[2].item()


def _tuple_of_one(x):
    return (x + 1,)


def _list_of_one(x):
    return [x - 1]


def _dict_of_one(x):
    return {"y": x * x}


def _nested_one(x):
    return ((x.mean(),),)


def _scalar_times_python(x):
    return x.sum() * 2


def _dtype_result(x):
    return (x + x).dtype


def _shape_result(x):
    return (x[1:] * 2).shape


def _zero_d_index(x):
    return x[3]


def _empty_result(x):
    return x[x > 100]


def _mask_result(x):
    return x[x > 0]


def _transpose_result(x):
    return (x * 1.0).T


def _fortran_result(x):
    return np.asfortranarray(x * 2)


def _reshape_result(x):
    return (x + 0).reshape(-1, 1)


def _astype_result(x):
    return (x * 3).astype(np.int16)


def _complex_result(x):
    return x * 1j


def _bool_result(x):
    return x > 0


for _fn in (_scaled, _zero_d, _numpy_scalar, _python_float, _python_int, _bool_scalar,
            _item, _tuple_of_one, _list_of_one, _dict_of_one, _nested_one,
            _scalar_times_python, _dtype_result, _shape_result, _zero_d_index,
            _empty_result, _mask_result, _transpose_result, _fortran_result,
            _reshape_result, _astype_result, _complex_result, _bool_result):
    case(_fn, *ARRS)
case(_zero_d_from_reduce, (X,), (np.array(4.0),), (XI,))
case(_scaled, (X2,), (X2[:, ::2],), (X2.T,), name="scaled_layouts")
case(_numpy_scalar, (XB,), (np.array([], np.float32),), (X2,), name="numpy_scalar_odd")


# ------------------------------------------------------------ None, then a value

def _none_first(x, flag):
    if flag:
        return None
    return x * 2.0


def _value_or_scalar(x, flag):
    if flag:
        return x.sum()
    return x + 1


def _tuple_or_bare(x, flag):
    if flag:
        return (x + 1,)
    return x + 1


def _empty_tuple_or_array(x, flag):
    if flag:
        return ()
    return x[:1]


case(_none_first, (X, True), (X, False), (X4, False))
case(_value_or_scalar, (X, True), (X, False), (XI, True))
case(_tuple_or_bare, (X, True), (X, False))
case(_empty_tuple_or_array, (X, True), (X, False))


def _none_result(x):
    x *= 2
    return None


def _no_return(x):
    x[0] = 9


case(_none_result, *ARRS)
case(_no_return, *ARRS)


# ------------------------------------------------------------ the argument itself

def _iadd_same(x):
    x += 1
    return x


def _out_same(x):
    np.add(x, 1, out=x)
    return x


def _out_result_same(x):
    return np.multiply(x, 2, out=x)


def _sort_none(x):
    return x.sort()


def _sort_then_x(x):
    x.sort()
    return x


def _fill_none(x):
    return x.fill(3)


def _view_of_arg(x):
    return x[1:]


def _reshape_view(x):
    return x.reshape(-1)


def _arg_itself(x):
    return x


def _asarray_same(x):
    return np.asarray(x)


def _imul_view(x):
    v = x[::2]
    v *= 3
    return v


def _clip_out(x):
    return np.clip(x, -1, 1, out=x)


def _negative_out(x):
    return np.negative(x, out=x)


for _fn in (_iadd_same, _out_same, _out_result_same, _sort_none, _sort_then_x, _fill_none,
            _view_of_arg, _reshape_view, _arg_itself, _asarray_same, _imul_view, _clip_out,
            _negative_out):
    case(_fn, *ARRS)


def _iadd_float_into_int(x):
    try:
        x += 1.5
    except Exception as e:  # noqa: BLE001 (UFuncTypeError for int arrays)
        return type(e).__name__
    return x


case(_iadd_float_into_int, *ARRS)


# ------------------------------------------------------------ kept, stored, rewritten

def _stored_global(x):
    y = x * 2
    STORE["y"] = y
    return y


def _stored_attr(x, box):
    y = x + 1
    box.last = y
    return y


case(_stored_global, *ARRS, setup=STORE.clear, watch=lambda: dict(STORE))
case(_stored_attr, (X, Box()), (XI, Box()))


@scenario
def s_kept_and_written(r):
    """A bare result kept and written by the caller; later calls must not see or
    reuse it."""
    f = r.compile(_scaled)
    a = r.call(f, X.copy())
    a[0] = 100.0
    b = r.call(f, X.copy())
    r.see("a and b", (a, b, a is b))


@scenario
def s_kept_zero_d_written(r):
    f = r.compile(_zero_d)
    a = r.call(f, X.copy())
    a[()] = -1.0
    b = r.call(f, X.copy())
    r.see("a and b", (a, b))


@scenario
def s_kept_scalar_twice(r):
    f = r.compile(_numpy_scalar)
    a = r.call(f, X.copy())
    b = r.call(f, X.copy())
    r.see("same scalar?", (a == b, type(a).__name__))


@scenario
def s_same_input_twice(r):
    """The same array passed on every call; the in-place result is it."""
    f = r.compile(_iadd_same)
    x = X.copy()
    for _ in range(3):
        y = r.call(f, x)
        r.see("y is x", y is x)


@scenario
def s_view_then_input_written(r):
    f = r.compile(_view_of_arg)
    x = X.copy()
    v = r.call(f, x)
    x[3] = 42.0
    r.see("view", v)
    r.call(f, x)


@scenario
def s_large_bare(r):
    """A result large enough for the numpy backend's kept buffers."""
    f = r.compile(_scaled)
    big = np.linspace(0.0, 1.0, 300_000)
    a = r.call(f, big)
    b = r.call(f, big)
    r.see("distinct", (a is b, np.shares_memory(a, b)))
    a[:] = 0.0
    r.call(f, big)


# ------------------------------------------------------------ views and copies, bare

def _ellipsis_view(x):
    return x[...]


def _full_slice(x):
    return x[:]


def _view_method(x):
    return x.view()


def _reshape_same(x):
    return x.reshape(x.shape)


def _ravel(x):
    return x.ravel()


def _flatten(x):
    return x.flatten()


def _contiguous(x):
    return np.ascontiguousarray(x)


def _astype_same(x):
    return x.astype(x.dtype, copy=False)


def _asarray_dtype(x):
    return np.asarray(x, dtype=x.dtype)


def _squeeze(x):
    return np.squeeze(x)


def _transpose_view(x):
    return x.T


def _real(x):
    return np.real(x)


def _atleast(x):
    return np.atleast_2d(x)


def _global_returned(x):
    return STORE.setdefault("g", x)


LAYOUTS = ((X2,), (X2.T,), (X2[:, ::2],), (X2[:1],))
for _fn in (_ellipsis_view, _full_slice, _view_method, _reshape_same, _ravel, _flatten,
            _contiguous, _astype_same, _asarray_dtype, _squeeze, _transpose_view, _real,
            _atleast):
    case(_fn, *LAYOUTS)
case(_global_returned, *ARRS, setup=STORE.clear)


# ------------------------------------------------------------ the bare code's other paths

# One output under a floating-point guard (the fused code's rerun returns it bare too),
# of sizes that change (the numpy backend's size-generic code), of ndarray subclasses
# (the graph run op by op) and read back from the disk cache.

class Sub(np.ndarray):
    pass


def _div_raise(x):
    with np.errstate(divide="raise"):
        return 1.0 / x


def _div_raise_try(x):
    try:
        with np.errstate(divide="raise"):
            return 1.0 / x
    except FloatingPointError as e:
        return str(e)


def _sqrt_invalid_raise(x):
    with np.errstate(invalid="raise"):
        return np.sqrt(x - 1.0)


def _mean_bare(x):
    return x.mean()


SIZES = ((np.arange(1.0, 6.0),), (np.arange(0.0, 6.0),), (np.arange(7.0),), (np.arange(0.0),),
         (np.arange(1.0, 4.0),))
with warnings.catch_warnings():
    warnings.simplefilter("ignore", PendingDeprecationWarning)   # np.matrix's own
    MATRIX = np.matrix([[1.0, 0.0]])
SUBS = ((np.arange(1.0, 6.0).view(Sub),), (np.arange(0.0, 6.0),),
        (np.ma.masked_array(np.arange(1.0, 6.0), [0, 1, 0, 0, 0]),), (MATRIX,))
for _fn in (_scaled, _div_raise, _div_raise_try, _sqrt_invalid_raise, _mean_bare):
    case(_fn, *SIZES, name=_fn.__name__.lstrip("_") + "_sizes")
    case(_fn, *SUBS, name=_fn.__name__.lstrip("_") + "_subclasses")


def _disk_round_trip(fn):
    def s(r):
        with tempfile.TemporaryDirectory(prefix="dynamo-r25-") as d:
            os.chmod(d, 0o700)
            r.patch(dynamo.config, "disk_cache_dir", d)
            xs = [np.arange(1.0, 6.0), np.arange(0.0, 6.0), np.arange(1.0, 9.0),
                  np.arange(-1.0, 7.0)]
            f = r.compile(fn)
            for x in xs:
                r.call(f, x.copy())
            if r.compiled:
                dynamo.reset()          # the next compile finds the entries on disk
            g = r.compile(fn)
            for x in xs:
                r.call(g, x.copy())
    s.__name__ = "disk" + fn.__name__
    scenario(s)


for _fn in (_scaled, _div_raise_try, _sqrt_invalid_raise, _mean_bare, _iadd_same, _zero_d,
            _tuple_of_one):
    _disk_round_trip(_fn)


# ------------------------------------------------------------ views of large temporaries, kept

# A bare view of a result large enough for the numpy backend's recycled buffers: the
# buffer must not be lent to a later call while a view of it lives.

BIG = np.linspace(0.0, 1.0, 300_000)


def _half_view(x):
    return (x * 2.0)[::2]


def _head_view(x):
    return (x + 1.0)[:10]


def _reshaped(x):
    return (x - 1.0).reshape(600, 500)


def _transposed(x):
    return (x * 3.0).reshape(600, 500).T


def _tuple_view(x):
    return ((x * 2.0)[1:],)


def _list_two_views(x):
    y = x * 2.0
    return [y[:5], y[-5:]]


def _inplace_temporary(x):
    y = x * 2.0
    y += 1.0
    return y


def _last_element(x):
    return (x * 2.0)[-1]


def _zero_d_view(x):
    return (x * 2.0)[5, ...]


def _kept_views(fn):
    def s(r):
        f = r.compile(fn)
        kept = [r.call(f, BIG * k) for k in (1.0, 2.0, 3.0, 4.0)]
        r.see("kept", kept)
    s.__name__ = fn.__name__.lstrip("_") + "_kept"
    scenario(s)


for _fn in (_half_view, _head_view, _reshaped, _transposed, _tuple_view, _list_two_views,
            _inplace_temporary, _last_element, _zero_d_view):
    _kept_views(_fn)


# ------------------------------------------------------------ one output, seen twice

# The one value is also stored (a list argument, a global, an attribute, a dict, a
# closure cell), printed, or returned twice: every place must hold the same object.

LOG = []


class Holder:
    pass


def _stored_and_returned(x, log):
    y = x * 2.0
    log.append(y)
    return y


def _global_and_returned(x):
    y = x + 1.0
    LOG.append(y)
    return y


def _returned_twice(x):
    y = x * 2.0
    return y, y


def _list_twice(x):
    return [x - 1.0] * 2


def _printed_and_returned(x):
    y = x * 2.0
    print(y)
    return y


def _attr_and_returned(x, o):
    o.v = x.sum()
    return o.v


def _cell_and_returned(x):
    y = x * 3.0

    def g():
        return y
    return g() is y, y


def _dict_and_returned(x, d):
    d["k"] = x.max()
    return d["k"]


def _arg_logged_and_returned(x, log):
    x *= 2
    log.append(x)
    return x


def _scalar_thrice(x):
    s = x.sum()
    return s, s, [s]


def _zero_d_stored(x, log):
    z = np.array(x.mean())
    log.append(z)
    return z


XS = (np.arange(5.0), np.arange(5))
case(_stored_and_returned, *((x, []) for x in XS))
case(_global_and_returned, *((x,) for x in XS), setup=LOG.clear, watch=lambda: list(LOG))
case(_returned_twice, *((x,) for x in XS))
case(_list_twice, *((x,) for x in XS))
case(_printed_and_returned, *((x,) for x in XS))
case(_attr_and_returned, *((x, Holder()) for x in XS))
case(_cell_and_returned, *((x,) for x in XS))
case(_dict_and_returned, (XS[0], {}), (XS[1], {"k": 1}))
case(_arg_logged_and_returned, *((x, []) for x in XS))
case(_scalar_thrice, *((x,) for x in XS))
case(_zero_d_stored, *((x, []) for x in XS))


# ------------------------------------------------------------ large, raising, across breaks

def _brk():
    """A call the tracer does not follow (it reads the calling frame): a graph break."""
    return sys._getframe(1).f_lineno > 0


def _recip_raise(x):
    with np.errstate(divide="raise"):
        return 1.0 / x


def _recip_raise_try(x):
    try:
        with np.errstate(divide="raise"):
            return 1.0 / x
    except FloatingPointError:
        return None


def _log_warns(x):
    return np.log(x)


def _after_break(x):
    y = x * 2.0
    _brk()
    return y


def _before_break(x):
    _brk()
    return x * 2.0


def _between_breaks(x):
    _brk()
    y = x + 1.0
    _brk()
    return y


B1 = BIG + 1.0
B0 = B1.copy()
B0[12345] = 0.0


def _kept_calls(fn, xs):
    def s(r):
        f = r.compile(fn)
        kept = [r.call(f, x.copy()) for x in xs]
        r.see("kept", kept)
    s.__name__ = fn.__name__.lstrip("_") + "_large"
    scenario(s)


_kept_calls(_recip_raise, [B1, B1 * 2, B0, B1 * 3, B0, B1 * 4])
_kept_calls(_recip_raise_try, [B1, B1 * 2, B0, B1 * 3, B0, B1 * 4])
_kept_calls(_log_warns, [B1, B1 * 2, B0, B1 - 1.0, B1 * 4])
for _fn in (_after_break, _before_break, _between_breaks):
    _kept_calls(_fn, [B1, B1 * 2, B1 * 3])
    case(_fn, (np.arange(3.0),), (np.arange(3),), (np.array(2.0),))
