"""Round 16, text and flags: strings formatted from array values (f-strings with
format specs, ``str``/``repr`` of arrays and NumPy scalars, ``%`` formatting,
``format(np.float32(...))``, ``np.array2string``, print options, bytes), ``x.flags``
read and written (``writeable = False`` and then an in-place op, ``setflags``, flags of
views, ``owndata``), ``np.ndindex`` loops (empty shapes, breaks inside), ``np.diagflat``
with offsets and changing ``k``, and ``np.roll`` by a shift computed from the data.

    >>> def _readonly_then_iadd(x):
    ...     x.flags.writeable = False
    ...     x += 1                       # ValueError: output array is read-only
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round16_text")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
SPECIAL = np.array([np.nan, -0.0, np.inf, 1e-300])
INTS = np.array([3, -7, 0, 11], dtype=np.int64)
G = np.arange(12.0).reshape(3, 4)
F32 = np.array([0.1, 0.2, 0.3], dtype=np.float32)


def _brk():
    print("break")


# ------------------------------------------------------------------------- text

def _fstring_spec(x):
    return f"{x.sum():.3f}|{x.max():+.1e}|{x.min():>10}|{x[0]!r}"


def _str_array(x):
    return str(x), str(x * 2)


def _repr_array(x):
    return repr(x), repr(x.astype(np.float32))


def _percent_format(x):
    return ("%s" % (x,), "%.2f" % x.mean(),   # noqa: UP031 (% formatting is the point)
            "%d items" % x.size, "%r" % (x[1],))   # noqa: UP031


def _format_float32(x):
    v = np.float32(x.sum())
    return format(v, ".4g"), str(v), repr(v), f"{v}"


def _str_scalar_kinds(x):
    return str(x.sum()), repr(x.sum()), str(x.argmax()), repr(x.argmax()), str(x > 0)


def _dtype_shape_text(x):
    return f"{x.dtype}/{x.shape}/{x.ndim}/{x.T.strides}"


def _array2string(x):
    return np.array2string(x, precision=2, separator=";"), np.array_repr(x)


def _printoptions_inside(x):
    with np.printoptions(precision=1, suppress=True):
        s = str(x / 3)
    return s, str(x / 3)


def _print_array(x):
    print(x)
    print(x.sum(), x.dtype)
    return x + 1


def _print_around_break(x):
    y = x * 2
    print(f"sum={y.sum():.4f}")
    _brk()
    print(repr(y.max()))
    return y


def _summarised_str(x):
    big = np.arange(2000.0) * x[0]
    return str(big), repr(big[:3])


def _format_method(x):
    return "{:>12.5f}|{!s}|{:e}".format(x.max(), x.min(), x.mean())   # noqa: UP032


def _tolist_text(x):
    return str(x.tolist()), str(x.astype(int).tolist())


def _complex_text(x):
    z = x + 1j * x[::-1]
    return str(z), f"{z[0]:.2f}", repr(z.sum())


def _bytes_format(x):
    return b"%d:%d" % (x.size, x.ndim), f"{x.nbytes}".encode()


def _text_len_as_size(x):
    s = str(x.sum())
    return np.zeros(len(s)), s


def _text_in_dict(x):
    return {f"k{i}": f"{v:.1f}" for i, v in enumerate(x)}


def _float16_text(x):
    h = x.astype(np.float16)
    return str(h), f"{h.sum()}", repr(h[1])


def _int_text(x):
    return str(x), f"{x.sum():,}", "%x" % x.max(), f"{x[1]:b}"   # noqa: UP031


def _bool_text(x):
    m = x > 0
    return str(m), repr(m.any()), f"{m.all()}", str(m.sum())


def _str_compare(x):
    s = f"{x.sum():.1f}"
    return s == "3.5", s > "3", s.startswith("-")


def _zero_d_text(x):
    z = np.array(x.sum())
    return str(z), repr(z), f"{z}", f"{z:.2f}"


case(_fstring_spec, (X,), (SPECIAL,), (F32,))
case(_str_array, (X,), (SPECIAL,), (G,))
case(_repr_array, (X,), (SPECIAL,))
case(_percent_format, (X,), (SPECIAL,))
case(_format_float32, (X,), (SPECIAL,), (F32,))
case(_str_scalar_kinds, (X,), (SPECIAL,), (INTS,))
case(_dtype_shape_text, (X,), (G,), (F32,))
case(_array2string, (X,), (G,))
case(_printoptions_inside, (X,), (SPECIAL,))
case(_print_array, (X,), (INTS,))
case(_print_around_break, (X,), (SPECIAL,))
case(_summarised_str, (X,))
case(_format_method, (X,), (SPECIAL,))
case(_tolist_text, (X,))
case(_complex_text, (X,))
case(_bytes_format, (X,), (G,))
case(_text_len_as_size, (X,), (SPECIAL,), (F32,))
case(_text_in_dict, (X,), (SPECIAL,))
case(_float16_text, (X,), (SPECIAL,))
case(_int_text, (INTS,))
case(_bool_text, (X,), (SPECIAL,))
case(_str_compare, (X,), (-X,))
case(_zero_d_text, (X,), (SPECIAL,))


# ------------------------------------------------------------------------ flags

def _readonly_then_iadd(x):
    x.flags.writeable = False
    x += 1
    return x


def _readonly_then_out(x):
    x.flags.writeable = False
    np.add(x, 1, out=x)
    return x


def _setflags_then_store(x):
    x.setflags(write=False)
    try:
        x[0] = 1.0
    except ValueError as e:
        return str(e), x.flags.writeable
    return "stored", x


def _readonly_copy_result(x):
    y = x * 2
    y.flags.writeable = False
    return y


def _writeable_branch(x):
    if x.flags.writeable:
        x[0] = 9.0
        return x
    return x + 1


def _contiguity_flags(x):
    t = x.T
    s = x[::2]
    return (x.flags["C_CONTIGUOUS"], t.flags.c_contiguous, t.flags.f_contiguous,
            s.flags.c_contiguous, x.flags.owndata, s.flags.owndata)


def _view_of_readonly(x):
    x.flags.writeable = False
    v = x[1:]
    try:
        v.flags.writeable = True
    except ValueError as e:
        return "refused", str(e)
    return "allowed", v


def _readonly_restore(x):
    x.flags.writeable = False
    x.flags.writeable = True
    x *= 2
    return x


def _readonly_after_break(x):
    x.flags.writeable = False
    _brk()
    x[1] = 5.0
    return x


def _flag_in_try(x, log):
    x.flags.writeable = False
    log.append("locked")
    try:
        x -= 1
    except ValueError:
        log.append("raised")
    return x.sum()


def _flags_aligned(x):
    return bool(x.flags.aligned), bool(x.flags.writebackifcopy), x.flags.num & 1


case(_readonly_then_iadd, lambda: (X.copy(),))
case(_readonly_then_out, lambda: (X.copy(),))
case(_setflags_then_store, lambda: (X.copy(),))
case(_readonly_copy_result, (X,))
case(_writeable_branch, lambda: (X.copy(),))
case(_contiguity_flags, (G,), (X,))
case(_view_of_readonly, lambda: (X.copy(),))
case(_readonly_restore, lambda: (X.copy(),))
case(_readonly_after_break, lambda: (X.copy(),))
case(_flag_in_try, lambda: (X.copy(), []))
case(_flags_aligned, (X,), (G,))


@scenario
def readonly_input_second_call(r):
    def g(x):
        x += 1
        return x
    f = r.compile(g)
    r.call(f, X.copy())
    ro = X.copy()
    ro.flags.writeable = False
    r.call(f, ro)
    r.call(f, X.copy())


# ---------------------------------------------------------------------- ndindex

def _ndindex_sum(x):
    t = 0.0
    for idx in np.ndindex(x.shape):
        t += x[idx] * (idx[-1] + 1)
    return t


def _ndindex_list(x):
    return list(np.ndindex(2, 3)), list(np.ndindex(*x.shape))


def _ndindex_empty(x):
    n = 0
    for _ in np.ndindex(x.shape[0], 0):
        n += 1
    return n, list(np.ndindex(()))


def _ndindex_break(x):
    out = []
    for idx in np.ndindex(x.shape):
        if x[idx] < 0:
            break
        out.append(idx)
    return out


def _ndindex_write(x):
    for i, j in np.ndindex(x.shape):
        x[i, j] = i * 10 + j
    return x


def _ndindex_with_brk(x):
    t = 0.0
    for k, idx in enumerate(np.ndindex(x.shape)):
        t += x[idx]
        if k == 2:
            _brk()
    return t


case(_ndindex_sum, (X,), (G,))
case(_ndindex_list, (X,), (G,))
case(_ndindex_empty, (X,))
case(_ndindex_break, (X,), (G,))
case(_ndindex_write, lambda: (G.copy(),))
case(_ndindex_with_brk, (X,), (G,))


# --------------------------------------------------------------------- diagflat

def _diagflat(x):
    return np.diagflat(x)


def _diagflat_k(x):
    return np.diagflat(x, k=1), np.diagflat(x, -2)


def _diagflat_2d(x):
    return np.diagflat(x.reshape(2, -1))


def _diagflat_changing_k(x, k):
    return np.diagflat(x, k) * 2


def _diagflat_written(x):
    d = np.diagflat(x)
    d[0, -1] = 7.0
    return d, x


case(_diagflat, (X,), (INTS,), (F32,))
case(_diagflat_k, (X,), (G[:, 0],))
case(_diagflat_2d, (X,))
case(_diagflat_changing_k, (X, 0), (X, 2), (X, -3), (X, True), (X, np.int64(1)))
case(_diagflat_written, (X,))


# ------------------------------------------------------------- computed rolls

def _roll_by_argmax(x):
    return np.roll(x, int(x.argmax()))


def _roll_by_half(x):
    return np.roll(x, len(x) // 2), np.roll(x, -(x.size // 3))


def _roll_2d_computed(x):
    k = int(x[0, 1]) % 3
    return np.roll(x, shift=(k, -k), axis=(0, 1))


def _roll_by_np_int(x):
    return np.roll(x, x.sum().astype(np.int64))


def _roll_by_count_positive(x):
    return np.roll(x, (x > 0).sum())


def _roll_by_text(x):
    return np.roll(x, len(f"{x.max()}"))


case(_roll_by_argmax, (X,), (SPECIAL,), (INTS,))
case(_roll_by_half, (X,), (G.ravel(),))
case(_roll_2d_computed, (G,), (G * 2,))
case(_roll_by_np_int, (INTS,), (INTS[::-1],))
case(_roll_by_count_positive, (X,), (-X,))
case(_roll_by_text, (X,), (SPECIAL,))


# ---------------------------------------------------- more specs, flags by name, escapes

def _self_documenting(x):
    return f"{x.sum()=}", f"{x.max()=:.2f}"


def _repeated_field(x):
    return "{0} {0:.1f} {1!r}".format(x.sum(), x.min())


def _percent_spec(x):
    return "{:.2%}".format(np.float32(x.sum())), "%5.1f%%" % x.mean()   # noqa: UP031, UP032


def _mapping_key_format(x):
    return "%(a)s" % {"a": x.sum()}   # noqa: UP031


def _nested_width(x):
    return f"{x.sum():>{len(x)}}", "{:{w}}".format(x.sum(), w=8)


def _ascii_conversion(x):
    return f"{x.max()!a}", ascii(x.sum())


def _text_methods(x):
    s = f"{x.sum():.2f}"
    return s.upper(), len(s), s.split(".")


def _joined_rows(x):
    return "\n".join("{:8.3f}".format(v) for v in x), ",".join(f"{v:.1f}" for v in x)  # noqa: UP032


def _text_as_key(x):
    return {f"{x.sum():.1f}": 1}


def _snapshot_then_write(x):
    s = f"{x[0]}"
    t = f"{x}"
    x[0] = 7.0
    return s, t, f"{x[0]}"


def _python_numbers_text(x):
    return f"{float(x.sum()):.3f}", f"{int(x.argmax()):04d}", f"{x.item(0)}"


def _presentations(x):
    return f"{x.sum():e}", f"{x.sum():g}", f"{(x > 0).sum():x}", f"{x.astype(int).sum():_}"


def _divide_in_text(x):
    with np.errstate(divide="raise"):
        try:
            return f"{x.sum() / 0:.2f}"
        except FloatingPointError as e:
            return str(e)


def _empty_max_text(x):
    return f"{x.max():.2f}"


def _flags_held(x):
    fl = x.flags
    _brk()
    return fl.c_contiguous, fl.writeable, str(fl)


def _flags_write_through_name(x):
    fl = x.flags
    fl.writeable = False
    try:
        x[0] = 1.0
    except ValueError as e:
        return str(e), fl.c_contiguous
    return None


def _ascontiguous_flags(x):
    y = np.ascontiguousarray(x)
    return y.flags.f_contiguous, y.flags.c_contiguous, y.flags.forc, y.flags.fnc, y.shape


def _ndindex_escapes(x):
    it = np.ndindex(2, 3)
    next(it)
    return list(it), x


case(_self_documenting, (X,), (SPECIAL,))
case(_repeated_field, (X,), (F32,))
case(_percent_spec, (X,), (SPECIAL,))
case(_mapping_key_format, (X,))
case(_nested_width, (X,), (G,))
case(_ascii_conversion, (X,), (SPECIAL,))
case(_text_methods, (X,), (-X,))
case(_joined_rows, (X,), (SPECIAL,))
case(_text_as_key, (X,))
case(_snapshot_then_write, lambda: (X.copy(),))
case(_python_numbers_text, (X,), (F32,))
case(_presentations, (X,), (SPECIAL,))
case(_divide_in_text, (X,), (-X,))
case(_empty_max_text, (X,), (np.zeros(0),))
case(_flags_held, (X,), (G.T,))
case(_flags_write_through_name, lambda: (X.copy(),))
case(_ascontiguous_flags, (np.ones((1, 4)),), (G.T,), (np.ones((0, 3)),), (np.array(2.0),),
     (np.ones((4, 1))[::2],))
case(_ndindex_escapes, (X,))
