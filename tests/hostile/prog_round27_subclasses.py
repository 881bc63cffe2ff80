"""Round 27, array-likes an ordinary user passes in: ``np.matrix`` (``*`` and ``**`` are
matrix products, rows stay 2-D, reductions give matrices or scalars), ``np.ma`` masked
arrays (masks through ops, division by zero masked without a warning, ``filled``,
``compressed``, ``masked`` itself), an ``np.memmap``-like ndarray subclass carrying an
attribute through ``__array_finalize__``, and objects that are not arrays but speak
NumPy's protocols: ``__array__`` (called as often as plainly, its ``dtype``/``copy``
arguments), ``__array_ufunc__`` (answering, delegating, ``None`` refusing operators) and
``__array_function__`` (answering some functions, ``NotImplemented`` for others). The
result's type and the protocol calls (logged in ``LOG``, watched after every call) must
be the same as plainly.

    >>> def _mat_mul(m):
    ...     return m * m, type(m * m).__name__    # a matrix product, not elementwise
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round27_subclasses")
case = reg.case
scenario = reg.scenario

LOG: list = []


def _reset():
    LOG.clear()


def _watch():
    return list(LOG)


M = np.matrix([[1.0, 2.0], [3.0, 4.0]])
M_INT = np.matrix([[2, 0], [1, -1]])
M_ROW = np.matrix([[1.0, -2.0, 0.5]])
A2 = np.array([[0.5, -1.0], [2.0, 0.0]])

# ------------------------------------------------------------------------- np.matrix


def _mat_mul(m):
    p = m * m
    return p, type(p).__name__, m * 2, 3 * m


def _mat_pow(m):
    try:
        return m ** 2, m ** 0, m ** -1
    except (np.linalg.LinAlgError, TypeError, ValueError) as e:
        return type(e).__name__, str(e)


def _mat_rows(m):
    return m[0], m[0, 0], m[:, 0], m[0].shape, m.A, m.A1, m.T


def _mat_reduce(m):
    return m.sum(), m.sum(axis=0), m.mean(1), m.max(axis=1), np.sum(m), m.argmax(0)


def _mat_with_array(m):
    a = np.ones(m.shape[1])
    return m * a[:, None] if m.shape[0] == 1 else m * A2, A2 * m if m.shape[0] == 2 \
        else None, np.multiply(m, m), m @ m.T


def _mat_inplace(m):
    m *= 2
    m += m
    return m


def _mat_ravel(m):
    return m.ravel(), np.ravel(m), m.flatten(), m.reshape(-1), m.tolist()


def _mat_ufunc(m):
    return np.sin(m), m > 1, np.where(m > 1, m, 0), np.abs(-m)


def _mat_inverse(m):
    try:
        return m.I, m.H
    except np.linalg.LinAlgError as e:
        return str(e)


def _mat_asarray(m):
    a = np.asarray(m)
    b = np.asanyarray(m)
    return a, type(a).__name__, b is m, np.array(m, subok=True) is m


def _mat_iter(m):
    return [r for r in m], len(m), m.shape


for _fn in (_mat_mul, _mat_pow, _mat_rows, _mat_reduce, _mat_with_array, _mat_inplace,
            _mat_ravel, _mat_ufunc, _mat_inverse, _mat_asarray, _mat_iter):
    case(_fn, (M,), (M_INT,), (M_ROW,))


def _mat_made_inside(x):
    m = np.asmatrix(x)
    return m * m.T, (m * m.T).shape, type(m.sum(axis=0)).__name__


case(_mat_made_inside, (A2,), (np.arange(6.0).reshape(2, 3),))

# ------------------------------------------------------------------------- masked arrays

MA = np.ma.masked_array([1.0, 2.0, -3.0, 0.0, 4.0], mask=[0, 1, 0, 0, 0])
MA_NONE = np.ma.masked_array([1.0, 2.0, 3.0])
MA_ALL = np.ma.masked_array([1.0, 2.0], mask=[1, 1])
MA_INT = np.ma.masked_array([5, -2, 0, 7], mask=[0, 0, 1, 0], fill_value=-99)
MASKED = (MA, MA_NONE, MA_ALL, MA_INT)


def _ma_arith(a):
    b = a + 1
    return b, b.mask, type(b).__name__, (a * a).mask, b.fill_value


def _ma_reduce(a):
    return a.sum(), a.mean(), a.max(), a.count(), np.sum(a), a.min() is np.ma.masked


def _ma_divide(a):
    d = 1.0 / a
    return d, d.mask, np.ma.getmaskarray(d)


def _ma_log(a):
    lg = np.ma.log(a)
    return lg, lg.mask, np.log(a)


def _ma_fill(a):
    return a.filled(0), a.filled(), a.compressed(), a.data, np.ma.getdata(a)


def _ma_store(a):
    a[1] = 50
    a[0] = np.ma.masked
    return a, a.mask


def _ma_index(a):
    return a[1], a[1] is np.ma.masked, a[::-1], a[a > 0], a[[0, -1]]


def _ma_where(x):
    m = np.ma.masked_where(x > 2, x)
    n = np.ma.masked_invalid(np.log(np.abs(x)))
    return m, m.mask, n, n.mask


def _ma_mixed(a):
    x = np.arange(a.shape[0], dtype=float)
    return x + a, a + x, np.add(x, a), type(x + a).__name__


def _ma_shape(a):
    return a.reshape(-1, 1), a.T, np.ma.concatenate([a, a]), a.ravel()


for _fn in (_ma_arith, _ma_reduce, _ma_divide, _ma_log, _ma_fill, _ma_store, _ma_index,
            _ma_mixed, _ma_shape):
    case(_fn, *((a,) for a in MASKED))

case(_ma_where, (np.array([1.0, 3.0, 0.0, -2.0]),), (np.array([5.0, 5.0]),))

# ------------------------------------------------------------------------- subclasses


class Mapped(np.ndarray):
    """An np.memmap-like subclass: a ``filename`` carried to views and results."""

    def __new__(cls, values, filename):
        obj = np.asarray(values).view(cls)
        obj.filename = filename
        return obj

    def __array_finalize__(self, obj):
        LOG.append(("finalize", type(obj).__name__ if obj is not None else None))
        self.filename = getattr(obj, "filename", None)


def _mapped():
    return (Mapped(np.arange(6.0), "data.bin"),)


def _sub_ops(x):
    y = x + 1
    return y, type(y).__name__, y.filename, x.sum(), type(x.sum()).__name__


def _sub_views(x):
    v = x[1:4]
    return v, v.filename, type(x.reshape(2, 3)).__name__, np.asarray(x)


def _sub_store(x):
    x[0] = -1
    x *= 2
    return x, x.filename


def _sub_attr_written(x):
    x.filename = "other.bin"
    return x[:2].filename


def _sub_reductions(x):
    return x.max(), np.mean(x), x.cumsum(), type(x.cumsum()).__name__, x @ x


for _fn in (_sub_ops, _sub_views, _sub_store, _sub_attr_written, _sub_reductions):
    case(_fn, _mapped, setup=_reset, watch=_watch)

# ------------------------------------------------------------------------- protocols


class ArrayLike:
    """Only ``__array__``: every conversion is logged."""

    def __init__(self, values):
        self.values = np.asarray(values)

    def __array__(self, dtype=None, copy=None):
        LOG.append(("__array__", str(dtype), copy))
        v = self.values if dtype is None else self.values.astype(dtype)
        return v.copy() if copy else v


class Tagged:
    """``__array_ufunc__`` that logs and answers with the plain ufunc, then tags."""

    def __init__(self, values):
        self.values = np.asarray(values)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        LOG.append((ufunc.__name__, method, len(inputs)))
        plain = [i.values if isinstance(i, Tagged) else i for i in inputs]
        return Tagged(getattr(ufunc, method)(*plain, **kwargs))

    def __repr__(self):
        return f"Tagged({self.values!r})"


class Refuser:
    """``__array_ufunc__ = None``: NumPy's operators give way to ``__radd__``."""

    __array_ufunc__ = None

    def __radd__(self, other):
        LOG.append("radd")
        return "refused and radded"


class Functions:
    """``__array_function__`` answering np.sum and np.concatenate, refusing others."""

    def __init__(self, values):
        self.values = np.asarray(values)

    def __array_function__(self, func, types, args, kwargs):
        LOG.append(func.__name__)
        if func is np.sum:
            return ("summed", float(self.values.sum()))
        if func is np.concatenate:
            return ("joined", len(args[0]))
        return NotImplemented


X = np.array([1.0, -2.0, 0.5])


def _array_like(w, x):
    a = np.asarray(w)
    return a + x, np.add(w, x), x + w, np.sum(w), np.asarray(w, dtype=np.float32)


def _array_like_copy(w, x):
    a = np.array(w)
    a[0] = 100.0
    return a, w.values, np.asarray(w) is w.values


def _tagged(t, x):
    out = np.add(t, x)
    return out.values, np.sin(t).values, (x * t).values, np.add.reduce(t).values


def _tagged_result_type(t, x):
    return type(t + x if hasattr(t, "__add__") else np.add(x, t)).__name__


def _refuser(o, x):
    try:
        return x + o
    except TypeError as e:
        return type(e).__name__, str(e)


def _refuser_ufunc(o, x):
    try:
        return np.add(x, o)
    except TypeError as e:
        return type(e).__name__, str(e)


def _functions(o, x):
    out = [np.sum(o), np.concatenate([o, o])]
    try:
        out.append(np.mean(o))
    except TypeError as e:
        out.append((type(e).__name__, str(e)))
    return out


for _fn, _obj in ((_array_like, lambda: ArrayLike([3.0, 4.0, 5.0])),
                  (_array_like_copy, lambda: ArrayLike([3.0, 4.0, 5.0])),
                  (_tagged, lambda: Tagged([0.0, 1.0, 2.0])),
                  (_tagged_result_type, lambda: Tagged([0.0, 1.0, 2.0])),
                  (_refuser, Refuser), (_refuser_ufunc, Refuser),
                  (_functions, lambda: Functions([1.0, 2.0]))):
    case(_fn, lambda o=_obj: (o(), X.copy()), setup=_reset, watch=_watch)


def _array_like_int(w, x):
    return np.asarray(w) * x, np.asarray(w).dtype.str


case(_array_like_int, lambda: (ArrayLike([1, 2, 3]), X.copy()),
     lambda: (ArrayLike([True, False, True]), X.copy()), setup=_reset, watch=_watch)


@scenario
def s_array_method_changes(r):
    """``__array__`` returns other values between calls (the object is the same)."""
    _reset()
    w = ArrayLike([1.0, 2.0, 3.0])
    f = r.compile(_array_like)
    r.call(f, w, X.copy())
    w.values = np.array([-1.0, 0.0, 9.0])
    r.call(f, w, X.copy())
    w.values = np.array([1, 2, 3])
    r.call(f, w, X.copy())
    r.see("log", list(LOG))


@scenario
def s_matrix_then_array(r):
    """A matrix, then a plain array of the same values, then a matrix: ``*`` changes
    meaning with the type."""
    def f(a):
        return a * a, a ** 2
    g = r.compile(f)
    for a in (M, np.asarray(M), M, M_INT, np.asarray(M_INT)):
        r.call(g, a.copy())


@scenario
def s_masked_then_plain(r):
    """A masked array, the same values plain, then masked again with another mask."""
    def f(a):
        return 1.0 / a, (1.0 / a).sum()
    g = r.compile(f)
    r.call(g, MA.copy())
    r.call(g, MA.data.copy())
    r.call(g, np.ma.masked_array([0.0, 1.0], mask=[1, 0]))
    r.call(g, np.ma.masked_array([0.0, 1.0], mask=[0, 0]))


def _ma_division_warnings(a):
    with np.errstate(divide="raise"):
        try:
            return a / 0
        except FloatingPointError as e:
            return str(e)


case(_ma_division_warnings, *((a,) for a in MASKED), (np.ones(2),))

# ------------------------------------------------------------------------- overrides


class Loud(np.ndarray):
    """A subclass whose ``__add__`` and ``__getitem__`` log."""

    def __add__(self, other):
        LOG.append("Loud.__add__")
        return super().__add__(other)

    def __getitem__(self, key):
        LOG.append(("Loud.__getitem__", repr(key)))
        return super().__getitem__(key)


class Wrapping(np.ndarray):
    """``__array_wrap__`` that turns every ufunc result into a tuple tag."""

    def __array_wrap__(self, obj, context=None, return_scalar=False):
        LOG.append(("wrap", context[0].__name__ if context else None, return_scalar))
        return super().__array_wrap__(obj, context, return_scalar)


class Priority:
    """No protocol but ``__array_priority__`` and reflected operators."""

    __array_priority__ = 100

    def __radd__(self, other):
        LOG.append("Priority.__radd__")
        return "priority radd"

    def __rmul__(self, other):
        LOG.append("Priority.__rmul__")
        return NotImplemented


class Interface:
    """Only ``__array_interface__`` (a view of its own array)."""

    def __init__(self, values):
        self._values = np.asarray(values, dtype=np.float64)

    @property
    def __array_interface__(self):
        LOG.append("interface")
        return self._values.__array_interface__


class Seq:
    """A sequence (``__len__``/``__getitem__``) NumPy converts item by item."""

    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        LOG.append("len")
        return len(self.items)

    def __getitem__(self, i):
        LOG.append(("item", i))
        return self.items[i]


def _loud(x, y):
    return x + y, x[1:], type(x + y).__name__, np.add(x, y)


def _wrapping(x, y):
    return np.sin(x), x * 2, x.sum(), type(np.sin(x)).__name__


def _priority(x, o):
    try:
        return x + o, x * o
    except TypeError as e:
        return type(e).__name__, str(e)


def _interface(x, o):
    a = np.asarray(o)
    return a + x, np.add(o, x), np.shares_memory(a, o._values)


def _seq(x, o):
    return np.asarray(o) * x[: len(o)], np.array(o, dtype=np.float32)


def _matrix_loop(m, y):
    for _ in range(3):
        m = m * m / 10
    return m, np.dot(m, m), m @ m, type(np.dot(m, m)).__name__


for _fn, _make in ((_loud, lambda: (np.arange(4.0).view(Loud), np.ones(4))),
                   (_wrapping, lambda: (np.arange(3.0).view(Wrapping), None)),
                   (_priority, lambda: (np.arange(3.0), Priority())),
                   (_interface, lambda: (np.arange(3.0), Interface([1.0, 2.0, 3.0]))),
                   (_seq, lambda: (np.arange(3.0), Seq([1.5, 2.5]))),
                   (_matrix_loop, lambda: (M.copy(), None))):
    case(_fn, _make, setup=_reset, watch=_watch)
