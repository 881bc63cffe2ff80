"""Round 27, array kinds an ordinary user passes in: read-only arrays (``writeable =
False``, ``np.frombuffer`` of ``bytes``, ``np.broadcast_to`` views, a read-only
``np.memmap``), Fortran-ordered and negatively-strided inputs. Stores into a read-only
array must raise exactly as plainly (the message, after the mutations made before it),
also inside the program's own ``try``; views of them stay read-only, copies do not;
results keep NumPy's layout (F in, F out for elementwise ops; ``ravel`` a copy of F).
Each function runs on five inputs made fresh for every call (a deep copy would be
writeable again).

    >>> def _store_try(x):
    ...     try:
    ...         x[0] = 5.0
    ...     except ValueError as e:
    ...         return "refused: " + str(e)    # assignment destination is read-only
    ...     return x
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round27_readonly")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
G = np.arange(12.0).reshape(3, 4)


def _ro():
    a = G.copy()
    a.flags.writeable = False
    return a


def _from_bytes():
    return np.frombuffer(G.tobytes(), dtype=np.float64).reshape(3, 4)


def _broadcast():
    return np.broadcast_to(X.copy(), (3, 4))


def _fortran():
    return np.asfortranarray(G)


def _negative():
    return G.copy()[::-1, ::-2]


MAKERS = {"ro": _ro, "bytes": _from_bytes, "bcast": _broadcast, "fortran": _fortran,
          "neg": _negative}


def _inputs(*extra):
    """One input set per array kind, each made fresh for every call."""
    return tuple((lambda m=m: (m(), *extra)) for m in MAKERS.values())


# ------------------------------------------------------------------------- stores

def _store_item(x):
    x[0, 0] = 5.0
    return x


def _store_try(x):
    try:
        x[0, 0] = 5.0
    except ValueError as e:
        return "refused: " + str(e)
    return x


def _iadd(x):
    x += 1
    return x


def _iadd_try(x):
    try:
        x += 1
    except ValueError as e:
        return "refused: " + str(e), x
    return x


def _out_is_input(x):
    np.add(x, 1, out=x)
    return x


def _fill(x):
    x.fill(0.0)
    return x


def _sort_in_place(x):
    x.sort(axis=1)
    return x


def _slice_store(x):
    x[:, 1:3] = -1.0
    return x


def _mask_store(x):
    x[x > 2] = 0.0
    return x


def _fancy_store(x):
    x[[0, 2], 1] = 9.0
    return x


def _copyto(x):
    np.copyto(x, 3.0)
    return x


def _put(x):
    np.put(x, [0, 5], [1.0, 2.0])
    return x


def _add_at(x):
    np.add.at(x, (0, [0, 0]), 1.0)
    return x


def _clip_out(x):
    np.clip(x, 0.0, 3.0, out=x)
    return x


def _transpose_store(x):
    x.T[0, 0] = 7.0
    return x


def _row_view_store(x):
    row = x[1]
    row *= 2
    return row, x


def _store_after_log(x, log):
    log.append("before")
    s = float(x.sum())
    x[0, 0] = s
    log.append("after")
    return x


def _store_after_log_try(x, log):
    log.append("before")
    try:
        x[0, 0] = x.sum()
    except ValueError:
        log.append("caught")
    return log, x * 2


def _setflags_back(x):
    try:
        x.setflags(write=True)
    except ValueError as e:
        return "refused: " + str(e)
    x[0, 0] = -1.0
    return x


def _writeable_true(x):
    try:
        x.flags.writeable = True
    except ValueError as e:
        return "refused: " + str(e)
    return x.flags.writeable


def _make_readonly_then_store(x):
    y = x * 2
    y.flags.writeable = False
    try:
        y[0, 0] = 1.0
    except ValueError as e:
        return str(e), y
    return y


for _fn in (_store_item, _store_try, _iadd, _iadd_try, _out_is_input, _fill,
            _sort_in_place, _slice_store, _mask_store, _fancy_store, _copyto, _put,
            _add_at, _clip_out, _transpose_store, _row_view_store, _setflags_back,
            _writeable_true, _make_readonly_then_store):
    case(_fn, *_inputs())

case(_store_after_log, *(lambda m=m: (m(), [])
                         for m in MAKERS.values()))
case(_store_after_log_try, *(lambda m=m: (m(), [])
                             for m in MAKERS.values()))


# ------------------------------------------------------------------------- reads and views

def _flags(x):
    f = x.flags
    return f.writeable, f.c_contiguous, f.f_contiguous, f.owndata, x.strides


def _view_kept(x):
    v = x[1:, ::2]
    return v, v.flags.writeable, v.base is None


def _reshape_view(x):
    return x.reshape(-1), x.reshape(4, 3)


def _ravel_flatten(x):
    return x.ravel(), x.flatten(), x.ravel(order="K"), x.ravel(order="F")


def _transpose(x):
    return x.T, x.T.flags.writeable, np.transpose(x) + 0


def _elementwise_layout(x):
    return x + 1, np.sin(x), x * x.T.T, np.negative(x)


def _empty_like_layout(x):
    e = np.empty_like(x)
    e[...] = 1.0
    z = np.zeros_like(x)
    return e, z, e.flags.f_contiguous, z.flags.c_contiguous


def _copy_orders(x):
    return (x.copy(), x.copy(order="K"), x.copy(order="F"), np.copy(x),
            np.array(x), np.array(x, copy=False) if x.flags.writeable else None)


def _asarray_same(x):
    y = np.asarray(x)
    z = np.ascontiguousarray(x)
    w = np.asfortranarray(x)
    return y is x, z is x, w is x, z.flags.writeable, w.flags.writeable


def _reduce(x):
    return x.sum(axis=0), x.sum(axis=1), x.cumsum(axis=0), x.max(), np.argmax(x)


def _matmul(x):
    return x @ x.T, np.dot(x, np.ones(4)), x.T @ x


def _sort_copy(x):
    return np.sort(x, axis=0), np.argsort(x, axis=1), np.unique(x)


def _concat(x):
    return np.concatenate([x, x]), np.stack([x, x], axis=-1), np.hstack([x, x])


def _diff_roll(x):
    return np.diff(x, axis=1), np.roll(x, 1, axis=0), np.flip(x)


def _where_gather(x):
    return np.where(x > 1, x, -x), x[[2, 0]], x[:, [3, 0]], x[x > 1]


def _tobytes(x):
    return x.tobytes(), x.tobytes(order="F"), x.tolist()


def _strided_views(x):
    return x[::-1], x[:, ::-1], x[::-2, 1::2], np.ascontiguousarray(x[::-1])


def _result_written_by_caller(x):
    return x[0], x + 0


def _base_chain(x):
    v = x[::-1]
    return v.base is x, v.base is None, np.shares_memory(v, x), np.may_share_memory(v, x)


def _astype_copy_false(x):
    y = x.astype(np.float64, copy=False)
    z = x.astype(np.float32)
    return y is x, z, y.flags.writeable


def _byte_view(x):
    b = x.view(np.uint8) if x.flags.c_contiguous or x.flags.f_contiguous else None
    return b if b is None else (b.shape, b.flags.writeable, b[:8])


for _fn in (_flags, _view_kept, _reshape_view, _ravel_flatten, _transpose,
            _elementwise_layout, _empty_like_layout, _copy_orders, _asarray_same, _reduce,
            _matmul, _sort_copy, _concat, _diff_roll, _where_gather, _tobytes,
            _strided_views, _base_chain, _astype_copy_false, _byte_view):
    case(_fn, *_inputs())


@scenario
def s_result_view_written_later(r):
    """A view of a read-only input returned, the caller unlocks its own copy and
    writes; a later call must not see it."""
    f = r.compile(_result_written_by_caller)
    a = _negative()
    row, full = r.call(f, a)
    full[0, 0] = 99.0
    r.see("a", a)
    r.call(f, a)
    b = _ro()
    r.call(f, b)
    r.see("b writeable", b.flags.writeable)


@scenario
def s_lock_between_calls(r):
    """One array, writeable on the first call, read-only on the second, writeable again
    on the third: the store raises only on the second."""
    f = r.compile(_store_try)
    a = G.copy()
    r.call(f, a)
    a.flags.writeable = False
    r.call(f, a)
    a.flags.writeable = True
    r.call(f, a)
    r.see("a", a)


@scenario
def s_layout_between_calls(r):
    """C, then F, then reversed, then a broadcast view of the same values."""
    f = r.compile(_elementwise_layout)
    for m in (lambda: G.copy(), _fortran, _negative, _broadcast, _from_bytes,
              lambda: G.copy()):
        r.call(f, m())


@scenario
def s_memmap_readonly(r):
    """A read-only np.memmap (mode "r") and a writable one (mode "r+") of one file."""
    import os
    import tempfile
    fd, path = tempfile.mkstemp(suffix=".dat")
    os.close(fd)
    try:
        G.tofile(path)
        f = r.compile(_store_try)
        g = r.compile(_elementwise_layout)
        ro = np.memmap(path, dtype=np.float64, mode="r", shape=(3, 4))
        r.call(f, ro)
        r.call(g, ro)
        rw = np.memmap(path, dtype=np.float64, mode="r+", shape=(3, 4))
        r.call(f, rw)
        r.call(g, rw)
        rw.flush()
        r.see("file", np.fromfile(path))
        del ro, rw
    finally:
        os.unlink(path)


# ------------------------------------------------------------------------- views or copies written

def _reshape_written(x):
    y = x.reshape(-1)
    try:
        y[0] = 99.0
    except ValueError as e:
        return "refused: " + str(e), x
    return y, x


def _reshape_f_written(x):
    y = np.reshape(x, -1, order="F")
    try:
        y[1] = -99.0
    except ValueError as e:
        return "refused: " + str(e), x
    return y, x


def _ravel_written(x):
    y = x.ravel()
    try:
        y[0] = 42.0
    except ValueError as e:
        return "refused: " + str(e), x
    return y, x


def _contiguous_written(x):
    y = np.ascontiguousarray(x)
    z = np.asfortranarray(x)
    try:
        y[0, 0] = 7.0
        z[1, 1] = 8.0
    except ValueError as e:
        return "refused: " + str(e), x
    return y, z, x


def _flat_written(x):
    try:
        x.flat[2] = 5.0
        x.flat[[0, 7]] = -5.0
    except ValueError as e:
        return "refused: " + str(e), x.flat[2]
    return x, x.flat[7]


def _diagonal_written(x):
    d = x.diagonal()
    try:
        d[0] = 1.0
    except ValueError as e:
        return "refused: " + str(e), d
    return d


def _broadcast_made_written(x):
    b = np.broadcast_to(x[0], (2, 4))
    p, q = np.broadcast_arrays(x[:1], x)
    out = [b.flags.writeable, p.flags.writeable, q.flags.writeable]
    for target in (b, p):
        try:
            target[0, 0] = 3.0
            out.append("written")
        except ValueError as e:
            out.append(str(e))
    return out, x


def _as_strided_readonly(x):
    from numpy.lib.stride_tricks import as_strided, sliding_window_view
    v = as_strided(x, shape=(2, 2), strides=x.strides, writeable=False)
    w = sliding_window_view(x, 2, axis=1)
    out = [v.flags.writeable, w.flags.writeable, v.sum(), w.sum(axis=-1)]
    try:
        w[0, 0, 0] = 1.0
    except ValueError as e:
        out.append(str(e))
    return out


def _locked_inside(x):
    y = x * 2
    y.flags.writeable = False
    v = y[::-1]
    return y, v, v.flags.writeable


def _squeeze_expand(x):
    y = x[None, :, ::-1]
    z = np.squeeze(y)
    try:
        z[0, 0] = -3.0
    except ValueError as e:
        return "refused: " + str(e), x
    return z, x


def _view_same_itemsize(x):
    v = x.view(np.int64)
    try:
        v[0, 0] = 0
    except ValueError as e:
        return "refused: " + str(e), v[0, 0]
    return v, x


def _swap_rows(x):
    try:
        x[[0, 1]] = x[[1, 0]]
    except ValueError as e:
        return "refused: " + str(e), x
    return x


def _zero_d_store(x):
    z = x[0, 0:1].reshape(())
    try:
        z[()] = 11.0
    except ValueError as e:
        return "refused: " + str(e), z
    return z, x


def _frombuffer_bytearray(x):
    buf = bytearray(x.tobytes())
    a = np.frombuffer(buf, dtype=x.dtype)
    a[0] = -7.0
    a *= 2
    return a, bytes(buf[:16]), a.flags.writeable


for _fn in (_reshape_written, _reshape_f_written, _ravel_written, _contiguous_written,
            _flat_written, _diagonal_written, _broadcast_made_written,
            _as_strided_readonly, _locked_inside, _squeeze_expand, _view_same_itemsize,
            _swap_rows, _zero_d_store, _frombuffer_bytearray):
    case(_fn, *_inputs())


def _bytearray_passed(buf, x):
    a = np.frombuffer(buf, dtype=np.float64)
    a += x[: a.shape[0]]
    return a


case(_bytearray_passed, lambda: (bytearray(X.tobytes()), X.copy()),
     lambda: (bytes(X.tobytes()), X.copy()),
     lambda: (memoryview(bytearray(X.tobytes())), X.copy()))


# ------------------------------------------------------------------------- tier 2 (native)
# The same kinds through the native tier from the second call (``Programs.tiers``):
# element loops storing into, and reading from, each kind of array.

def _loop_store(x):
    try:
        for i in range(x.shape[0]):
            x[i, 0] = x[i, 1] * 2
    except ValueError as e:
        return "refused: " + str(e), x
    return x


def _loop_read(x):
    acc = np.zeros(x.shape[1])
    for i in range(x.shape[0]):
        acc += x[i] * (i + 1)
    return acc, x.sum(axis=0)


def _loop_swapped(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    return s, x * 2


reg.tiers("tier_loop_store", _loop_store, lambda: (G.copy(),), _ro, _from_bytes,
          _broadcast, _fortran, _negative)
reg.tiers("tier_loop_read", _loop_read, lambda: (G.copy(),), _ro, _from_bytes, _broadcast,
          _fortran, _negative)
reg.tiers("tier_loop_swapped", _loop_swapped, lambda: (X.astype(">f8"),),
          lambda: (X.astype(">i4"),), lambda: (X.astype("<f4"),),
          lambda: (np.frombuffer(X.astype(">f8").tobytes(), ">f8"),))
