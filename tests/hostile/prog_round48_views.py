"""Round 48, views (issue #17): views that outlive the call and memory the program does
not own. A view stored on an object, in a global or in a list and written on a later call
(or by the caller between calls); a returned view the caller writes, then the next call
reads its base; ``x.base is y``, ``np.shares_memory`` and ``flags`` read in the function;
read-only inputs (``flags.writeable = False``, ``np.broadcast_to``, ``np.frombuffer`` of
``bytes``) that the function writes (must raise as eager does, ValueError, after the same
effects); ``memoryview`` and ``bytearray`` buffers; 0-d arrays and their views; fields of
structured arrays and record views.

    >>> class Keep:
    ...     def __init__(self, x): self.v = x[2:5]     # a view kept on the object
    >>> def _write_kept(k, x):
    ...     k.v[:] = 0.0                               # writes x's elements 2..4
    ...     return x.sum()
"""

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round48_views")
case, scenario = reg.case, reg.scenario


def _v(n=10, k=0.0):
    return np.arange(n, dtype=np.float64) * 0.5 - 1.5 + k


def _m(r=4, c=3, k=0.0):
    return (np.arange(r * c, dtype=np.float64).reshape(r, c) - 4.0) * 0.25 + k


class Keep:
    def __init__(self, x):
        self.v = x[2:5]
        self.x = x


STORE = {}
VIEW = None


def _reset():
    global VIEW
    STORE.clear()
    VIEW = None


# ----------------------------------------------------------------------------- kept views

def _write_kept(k, x):
    k.v[:] = 0.0
    return x.sum()


def _kept_pair():
    x = _v()
    return (Keep(x), x)


case(_write_kept, _kept_pair, lambda: (Keep(_v()), _v(k=1.0)))


def _kept_iadd_then_base(k):
    k.v += 1.0
    return k.x * 2.0


case(_kept_iadd_then_base, lambda: (Keep(_v()),))


def _store_view(x):
    STORE["w"] = x[::2]
    return x.sum()


def _write_stored(y):
    STORE["w"] *= y
    return STORE["w"].sum()


@scenario
def s_global_view_written_later(r):
    """A view stored in a global by one compiled function, written by another."""
    _reset()
    f, g = r.compile(_store_view), r.compile(_write_stored)
    x = _v()
    r.call(f, x)
    r.call(g, 2.0)
    r.see("x", x)
    r.call(f, x)
    r.call(g, -1.0)
    r.see("x", x)


def _view_global(x):
    global VIEW
    VIEW = x[1:4]
    return VIEW * 2.0


@scenario
def s_view_global_mutated_by_caller(r):
    """The caller writes the global view between calls; the next call reads x."""
    _reset()
    f = r.compile(_view_global)
    x = _v()
    r.call(f, x)
    VIEW[0] = 99.0
    r.call(f, x)
    r.see("x", x)
    VIEW[...] = -1.0
    r.call(f, x)


def _returns_view(x):
    return x[2:6], x.sum()


@scenario
def s_returned_view_written_between_calls(r):
    f = r.compile(_returns_view)
    x = _v()
    w, _ = r.call(f, x)
    w[:] = 5.0
    w2, _ = r.call(f, x)
    w2 *= 3.0
    r.call(f, x)
    r.see("x", x)


def _returns_transpose(m):
    return m.T, m[:, 0].sum()


@scenario
def s_returned_transpose_written(r):
    f = r.compile(_returns_transpose)
    m = _m()
    t, _ = r.call(f, m)
    t[0, :] = 0.0
    r.call(f, m)
    t += 1.0
    r.call(f, m)


def _returns_reshape(m):
    return m.reshape(-1), m.max()


@scenario
def s_returned_reshape_written(r):
    f = r.compile(_returns_reshape)
    m = _m()
    flat, _ = r.call(f, m)
    flat[5] = 100.0
    r.call(f, m)
    r.call(f, m.T)


class Buffer:
    def __init__(self):
        self.data = np.zeros(8)
        self.head = self.data[:4]
        self.tail = self.data[4:]


def _buffer_step(b, x):
    b.head += x
    b.tail[:] = b.head[::-1]
    return b.data.sum()


case(_buffer_step, lambda: (Buffer(), np.ones(4)), calls=3)


def _list_of_views(parts, x):
    for p in parts:
        p += x[: p.shape[0]]
    return parts[0].base is parts[1].base


def _parts():
    base = _v(12)
    return ([base[:4], base[2:6], base[::3]], _v(4, 1.0))


case(_list_of_views, _parts, lambda: ([_v(4), _v(4), _v(4)], _v(4)))


# ----------------------------------------------------------------------------- identity facts

def _base_is(x, y):
    return x.base is y, y.base is None, (x * 2.0).base is None


case(_base_is, lambda: (lambda y: (y[1:], y))(_v()), lambda: (_v()[1:], _v()))


def _view_base_chain(x):
    v = x[1:][::2]
    w = v.reshape(-1, 1)
    return v.base is x, w.base is x, np.shares_memory(w, x), w.sum()


case(_view_base_chain, lambda: (_v(),), lambda: (_v(14),))


def _flags_read(x):
    return (x.flags.writeable, x.flags.c_contiguous, x.flags.owndata, x * 1.0)


case(_flags_read, lambda: (_v(),), lambda: (_v()[::2],), lambda: (np.broadcast_to(_v(3), (2, 3)),))


def _shares_after_copy(x):
    y = x.copy()
    z = x.view()
    y[0] = 9.0
    return np.shares_memory(x, y), np.shares_memory(x, z), z.base is x, x[0]


case(_shares_after_copy, (_v(),))


def _may_share_slices(x):
    return (np.may_share_memory(x[::2], x[1::2]), np.shares_memory(x[::2], x[1::2]),
            np.shares_memory(x[:5], x[4:]), x.sum())


case(_may_share_slices, (_v(),))


# ----------------------------------------------------------------------------- read-only

def _readonly(n=10):
    x = _v(n)
    x.flags.writeable = False
    return x


def _write_readonly(x, log):
    log.append("before")
    y = x * 2.0
    x += 1.0
    log.append("after")
    return y


case(_write_readonly, lambda: (_readonly(), []), lambda: (_v(), []))


def _setitem_readonly(x):
    t = x.sum()
    x[0] = t
    return x


case(_setitem_readonly, lambda: (_v(),), lambda: (_readonly(),))


def _out_readonly(x, y):
    np.add(y, 1.0, out=x)
    return y


case(_out_readonly, lambda: (_readonly(), _v()), lambda: (_v(), _v()))


def _readonly_view_of_writeable(x):
    v = x[2:]
    v.flags.writeable = False
    try:
        v[0] = 1.0
    except ValueError as e:
        return str(e), x.sum()
    return "wrote", x.sum()


case(_readonly_view_of_writeable, (_v(),))


def _write_broadcast(x, b):
    s = b.sum()
    b[0, 0] = 1.0
    return s + x


case(_write_broadcast, lambda: (_v(3), np.broadcast_to(_v(3), (2, 3))),
     lambda: (_v(3), np.ones((2, 3))))


def _broadcast_read(x, b):
    x *= 2.0
    return b.sum(axis=0)


case(_broadcast_read, lambda: (lambda x: (x, np.broadcast_to(x, (3, 10))))(_v()),
     lambda: (_v(), np.broadcast_to(_v(k=1.0), (3, 10))))


def _frombuffer_write(x):
    y = x + 1.0
    x[1] = 5.0
    return y


case(_frombuffer_write, lambda: (np.frombuffer(_v(6).tobytes()),), lambda: (_v(6),))


def _frombuffer_read(x):
    return x.sum(), x.flags.writeable, x.base is not None


case(_frombuffer_read, lambda: (np.frombuffer(b"\x00\x01\x02\x03\x04\x05\x06\x07", np.uint8),),
     lambda: (np.arange(8, dtype=np.uint8),))


def _bytearray_view(buf, x):
    a = np.frombuffer(buf, dtype=np.float64)
    a += x
    return a.sum()


@scenario
def s_bytearray_buffer_written(r):
    f = r.compile(_bytearray_view)
    buf = bytearray(_v(4).tobytes())
    r.call(f, buf, np.ones(4))
    r.see("bytes", bytes(buf))
    r.call(f, buf, np.ones(4))
    r.see("bytes", bytes(buf))


def _memoryview_in(mv, x):
    a = np.asarray(mv)
    a[:] = a + x
    return a * 1.0


@scenario
def s_memoryview_argument(r):
    f = r.compile(_memoryview_in)
    base = _v(5)
    r.call(f, memoryview(base), np.ones(5))
    r.see("base", base)
    r.call(f, memoryview(base), np.full(5, 2.0))
    r.see("base", base)
    ro = _v(5)
    ro.flags.writeable = False
    r.call(f, memoryview(ro), np.ones(5))


# ----------------------------------------------------------------------------- 0-d and records

def _zero_d_write(a, b):
    a[...] = b * 2.0
    return a + b, a[()]


case(_zero_d_write, lambda: (lambda z: (z, z))(np.array(1.5)), (np.array(1.5), np.array(2.0)))


def _zero_d_view_of(x):
    z = x[3:4].reshape(())
    z[...] = -7.0
    return x[3], z.base is not None


case(_zero_d_view_of, (_v(),))


def _zero_d_iadd(z, x):
    z += x.sum()
    return float(z)


case(_zero_d_iadd, lambda: (lambda x: (x[2:3].reshape(()), x))(_v()), (np.array(0.0), _v()))


REC = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.float64, (2,))])


def _records(n=4):
    r = np.zeros(n, dtype=REC)
    r["a"] = np.arange(n) * 0.5
    r["b"] = np.arange(n) - 1
    r["c"] = np.arange(2 * n).reshape(n, 2)
    return r


def _field_write(rec):
    a = rec["a"]
    a *= 2.0
    return rec["a"].sum() + rec["b"].sum()


case(_field_write, lambda: (_records(),))


def _field_views_alias(a, c):
    a += 1.0
    return c.sum(axis=0), a


case(_field_views_alias, lambda: (lambda r: (r["a"], r["c"]))(_records()),
     lambda: (_v(4), _m(4, 2)))


def _record_row_write(rec):
    row = rec[1]
    row["a"] = 42.0
    return rec["a"][1], rec["b"].copy()


case(_record_row_write, lambda: (_records(),))


def _view_as_int(x):
    i = x.view(np.int64)
    i[0] = 0
    return x[0], x.sum()


case(_view_as_int, lambda: (_v(),))


def _view_dtype_halves(x):
    h = x.view(np.float32)
    h[::2] = 0.0
    return x.copy(), h.shape


case(_view_dtype_halves, lambda: (_v(6),))


def _real_imag_views(z):
    z.real[:] = z.imag
    z.imag[:] = 0.0
    return z.sum()


case(_real_imag_views, lambda: (np.arange(6) * (1 + 2j),))


def _diagonal_write(m):
    d = np.diagonal(m)
    try:
        d[0] = 1.0
    except ValueError as e:
        return str(e)
    return d


case(_diagonal_write, lambda: (_m(4, 4),))


def _fill_diagonal_then_trace(m, n):
    np.fill_diagonal(m, 3.0)
    return np.trace(n), m


case(_fill_diagonal_then_trace, lambda: (lambda m: (m, m.T))(_m(4, 4)),
     lambda: (_m(4, 4), _m(4, 4).T))


def _keyword_views(*, src, dst):
    dst[:] = src * 2.0
    return src.sum()


case(_keyword_views, lambda: (lambda x: Args(src=x[:5], dst=x[3:8]))(_v()),
     lambda: Args(src=_v()[:5], dst=_v()[3:8]))


def _star_views(*arrs):
    arrs[0][:] = arrs[-1] + 1.0
    return sum(a.sum() for a in arrs)


case(_star_views, lambda: (lambda x: (x[:4], x[2:6], x[4:8]))(_v()),
     lambda: (_v()[:4], _v()[2:6], _v()[4:8]))
