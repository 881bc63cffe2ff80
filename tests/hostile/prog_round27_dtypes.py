"""Round 27, dtypes an ordinary user passes in beside float64: byte-swapped (``'>f8'``,
``'>i4'``: results of arithmetic are native, stores and in-place ops keep the input's
order), structured and record dtypes (field reads and writes, whole records, missing
fields, ``order=`` sorts, ``recarray`` attributes), ``datetime64``/``timedelta64``
arithmetic (NaT, unit casts, division by a unit, mixed-kind errors), object arrays
(Python ints past int64, ``None``, strings, Fractions, lists as elements) and str/bytes
arrays (truncating stores, comparisons, ``np.strings``/``np.char``, ``+``). Dtypes are
returned as ``dtype.descr`` where ``dtype.str`` would hide the fields or byte order.

    >>> def _be_arith(x):
    ...     y = x + 1                  # '>f8' in, native '<f8' out
    ...     return y, y.dtype.descr, x.dtype.byteorder
"""

from fractions import Fraction

import numpy as np
from hostile_check import Programs

reg = Programs("round27_dtypes")
case = reg.case
scenario = reg.scenario

BE_F = np.array([1.5, -2.0, 3.25, 0.0, -0.0, np.nan], ">f8")
BE_I = np.array([1, -2, 300, 7, 2 ** 31 - 1, -2 ** 31], ">i4")
LE_F = BE_F.astype("<f8")
BE_F4 = np.array([0.1, 2.5, -1e30], ">f4")
BE_U2 = np.array([1, 65535, 256], ">u2")
BYTESWAPPED = (BE_F, BE_I, LE_F, BE_F4, BE_U2)

REC_T = np.dtype([("a", "<i4"), ("b", "<f8"), ("c", "U3")])
REC = np.array([(1, 2.0, "x"), (3, -1.5, "yz"), (-4, 0.25, "")], REC_T)
REC_BE = np.array([(1, 2.0), (3, -1.5)], [("a", ">i4"), ("b", ">f8")])
REC_NEST = np.array([((1, 2), 3.0), ((4, 5), -6.0)],
                    [("p", [("x", "i2"), ("y", "i2")]), ("q", "f4")])
REC_SUB = np.array([([1.0, 2.0], 1), ([3.0, -4.0], 2)], [("v", "f8", (2,)), ("k", "u1")])
RECORDS = (REC, REC_BE)

D = np.array(["2024-01-01", "2024-03-01", "NaT", "1999-12-31"], "datetime64[D]")
DS = np.array(["2024-01-01T12:00:00", "2024-01-01T00:00:01"], "datetime64[s]")
TD = np.array([1, -3, 0, 90], "timedelta64[h]")
TD_NAT = np.array([5, "NaT", 2], "timedelta64[D]")

O_INTS = np.array([1, 2 ** 70, -3, 0], dtype=object)
O_MIXED = np.array([1, "a", None, 2.5], dtype=object)
O_FRAC = np.array([Fraction(1, 3), Fraction(-2, 7), 1], dtype=object)
O_LISTS = np.empty(3, dtype=object)
O_LISTS[:] = [[1], [2, 3], []]
OBJECTS = (O_INTS, O_MIXED, O_FRAC, O_LISTS)

SU = np.array(["ab", "cde", "", "Zz"], "U3")
SB = np.array([b"x", b"yz", b"", b"\x00a"], "S2")
STRINGS = (SU, SB)


def _descr(a):
    return a.dtype.descr if isinstance(a, np.ndarray) else type(a).__name__


# ------------------------------------------------------------------------- byte order

def _be_arith(x):
    y = x + 1
    return y, _descr(y), x.dtype.byteorder, (x * x).dtype.str


def _be_reduce(x):
    return x.sum(), x.max(), x.argmin(), np.cumsum(x), x.mean()


def _be_inplace(x):
    x += 1
    return x, _descr(x)


def _be_store(x):
    x[0] = 7
    x[-1] = x[1]
    return x, x.tobytes()


def _be_casts(x):
    return (x.astype("<f8"), x.astype(np.float32), x.astype(x.dtype.newbyteorder()),
            x.view(np.uint8)[:8], x.byteswap(), x.astype(">i8"))


def _be_index(x):
    a, b, c = x[[0, 2]], x[x > 0], x[::-1]
    return a, _descr(a), b, _descr(b), c, _descr(c)


def _be_join(x):
    c = np.concatenate([x, x[:2]])
    s = np.stack([x, x])
    w = np.where(x > 0, x, 0)
    return c, _descr(c), s, _descr(s), w, _descr(w)


def _be_sort(x):
    s = np.sort(x)
    return s, _descr(s), np.argsort(x), np.unique(x)


def _be_mixed(x):
    return x + LE_F[: x.shape[0]], x - BE_F4[:1], x * np.float32(2), x == x[::-1]


def _be_empty_like(x):
    e = np.empty_like(x)
    e[...] = x
    z = np.zeros_like(x)
    return e, _descr(e), z, _descr(z), np.full_like(x, 3), np.ones(2, x.dtype)


def _be_out(x):
    out = np.empty_like(x)
    np.multiply(x, 2, out=out)
    return out, _descr(out)


def _be_int_overflow(x):
    with np.errstate(over="ignore"):
        return x * 2, x + x, np.abs(x), -x


def _be_item(x):
    return x[0], x[1].item(), float(x[2]), x.tolist()


for _fn in (_be_arith, _be_reduce, _be_inplace, _be_store, _be_casts, _be_index,
            _be_join, _be_sort, _be_mixed, _be_empty_like, _be_out, _be_int_overflow,
            _be_item):
    case(_fn, *((x,) for x in BYTESWAPPED))


# ------------------------------------------------------------------------- records

def _field_read(s):
    return s["a"] + s["b"], s["b"].sum(), s["a"].dtype.str, s.dtype.names


def _field_write(s):
    s["b"] *= 2
    s["a"][0] = 9
    return s, s["b"]


def _field_view_alias(s):
    b = s["b"]
    b[1] = -100.0
    return b, s, np.shares_memory(b, s)


def _record_read(s):
    r0 = s[0]
    return r0, r0["b"], type(r0).__name__, s[-1]["a"] * 2


def _record_write(s):
    s[1] = s[0]
    s[0]["a"] = 42
    return s


def _missing_field(s):
    try:
        return s["zzz"]
    except (ValueError, KeyError) as e:
        return type(e).__name__, str(e)


def _multi_field(s):
    m = s[["b", "a"]]
    return m, _descr(m), m.dtype.names


def _record_sort(s):
    return np.sort(s, order="b"), np.argsort(s, order="a")


def _record_compare(s):
    return s == s, s[0] == s[0], s == s[::-1]


def _record_fields_meta(s):
    return s.dtype.fields["b"][1], s.dtype.itemsize, s.itemsize, s.shape


def _recarray_attrs(s):
    r = s.view(np.recarray)
    return r.a * 2, type(r).__name__, r.b.sum()


def _record_empty_like(s):
    e = np.zeros_like(s)
    e["a"] = s["a"] + 1
    return e, _descr(e)


def _record_concat(s):
    c = np.concatenate([s, s[:1]])
    return c, _descr(c), c["a"]


def _record_store_tuple(s):
    s[0] = (7, 7.5) + (("q",) if len(s.dtype.names) == 3 else ())
    try:
        s[1] = (1,)
    except (ValueError, TypeError) as e:
        return s, type(e).__name__, str(e)
    return s


def _record_arith_error(s):
    try:
        return s + 1
    except TypeError as e:
        return type(e).__name__, str(e)


for _fn in (_field_read, _field_write, _field_view_alias, _record_read, _record_write,
            _missing_field, _multi_field, _record_sort, _record_compare,
            _record_fields_meta, _recarray_attrs, _record_empty_like, _record_concat,
            _record_store_tuple, _record_arith_error):
    case(_fn, *((s,) for s in RECORDS))


def _nested_fields(s, t):
    return s["p"]["x"] + s["q"], s["p"], t["v"].sum(axis=1), t["v"] * t["k"][:, None]


def _nested_write(s, t):
    s["p"]["y"] += 10
    t["v"][0] = [9.0, 9.0]
    return s, t


case(_nested_fields, (REC_NEST, REC_SUB))
case(_nested_write, (REC_NEST, REC_SUB))


# ------------------------------------------------------------------------- dates and times

def _dt_diff(d):
    return np.diff(d), d - d[0], (d[1] - d[0]).astype(np.int64)


def _dt_add(d):
    return d + np.timedelta64(1, "D"), d + 1, d - np.timedelta64(36, "h")


def _dt_compare(d):
    return d > np.datetime64("2024-02-01"), d == d, np.isnat(d), d.argsort()


def _dt_units(d):
    return d.astype("datetime64[s]"), d.astype("datetime64[M]"), d.astype("datetime64[Y]")


def _dt_reduce(d):
    return d.min(), d.max(), np.sort(d), np.nanmin(d) if d.size else None


def _dt_bad(d):
    out = []
    for op in (lambda: d + d, lambda: d * 2, lambda: d + 1.5):
        try:
            out.append(op())
        except TypeError as e:
            out.append((type(e).__name__, str(e)))
    return out


def _dt_int_view(d):
    return d.view(np.int64), d.astype(np.int64), d.astype(str)


for _fn in (_dt_diff, _dt_add, _dt_compare, _dt_units, _dt_reduce, _dt_bad, _dt_int_view):
    case(_fn, (D,), (DS,))


def _td_div(t):
    return t / np.timedelta64(1, "m"), t // np.timedelta64(2, "h"), t % np.timedelta64(2, "h")


def _td_scale(t):
    return t * 1.5, t * 2, -t, abs(t), t / 2


def _td_zero_div(t):
    with np.errstate(all="ignore"):
        return t // np.timedelta64(0, "h"), t / np.timedelta64(0, "h"), t % np.timedelta64(0, "h")


def _td_zero_div_warn(t):
    return t // np.timedelta64(0, "h"), t / 0


def _td_sum(t):
    return t.sum(), t.mean(), np.cumsum(t), t.astype("timedelta64[s]")


for _fn in (_td_div, _td_scale, _td_zero_div, _td_zero_div_warn, _td_sum):
    case(_fn, (TD,), (TD_NAT,))


def _dt_arange(n):
    a = np.arange("2024-01", "2024-05", dtype="datetime64[M]")
    b = np.arange(np.datetime64("2024-02-27"), np.datetime64("2024-03-02"))
    return a, b, a[n], b + np.timedelta64(n, "D")


case(_dt_arange, (1,), (2,), (-1,))


# ------------------------------------------------------------------------- object arrays

def _obj_arith(o):
    try:
        return o + 1, (o * 2).dtype.str
    except TypeError as e:
        return type(e).__name__, str(e)


def _obj_reduce(o):
    try:
        return o.sum(), o.max()
    except TypeError as e:
        return type(e).__name__, str(e)


def _obj_items(o):
    return o[0], type(o[1]).__name__, o[1:], o.tolist(), len(o)


def _obj_compare(o):
    return o == 1, o != None  # noqa: E711


def _obj_store(o):
    o[0] = [7, 8]
    o[-1] = None
    return o


def _obj_astype(o):
    try:
        return o.astype(float)
    except (TypeError, ValueError) as e:
        return type(e).__name__, str(e)


def _obj_ufunc(o):
    try:
        return np.negative(o), np.abs(o)
    except TypeError as e:
        return type(e).__name__, str(e)


def _obj_where(o):
    return np.where(np.array([True, False, True] + [False] * (o.shape[0] - 3)), o, "no")


for _fn in (_obj_arith, _obj_reduce, _obj_items, _obj_compare, _obj_store, _obj_astype,
            _obj_ufunc, _obj_where):
    case(_fn, *((o,) for o in OBJECTS))


def _obj_element_identity(o, item):
    o[0] = item
    return o[0] is item, o[0], item


case(_obj_element_identity, (O_MIXED.copy(), [1, 2]), (O_LISTS.copy(), {"k": 1}))


# ------------------------------------------------------------------------- strings

def _str_compare(s):
    return s == s[0], s > s[-1], s != s[::-1], np.sort(s), np.argmax(s)


def _str_store_truncates(s):
    s[0] = s[1] * 3
    s[-1] = s[2]
    return s, s.dtype.str


def _str_funcs(s):
    return (np.strings.str_len(s), np.strings.upper(s), np.char.add(s, s),
            np.strings.find(s, s[0][:1]))


def _str_plus(s):
    try:
        return s + s, (s + s).dtype.str
    except TypeError as e:
        return type(e).__name__, str(e)


def _str_plus_int(s):
    try:
        return s + 1
    except TypeError as e:
        return type(e).__name__, str(e)


def _str_astype(s):
    return s.astype("U1"), s.astype("S5") if s.dtype.kind == "U" else s.astype("U4")


def _str_where(s):
    return np.where(s == s[2], s[0], s), np.unique(s), s[s != s[2]]


def _str_items(s):
    return s[0], type(s[0]).__name__, s.tolist(), s.itemsize, len(s[1])


def _str_concat_widths(s):
    c = np.concatenate([s, s.astype(s.dtype.kind + "7")])
    return c, c.dtype.str


for _fn in (_str_compare, _str_store_truncates, _str_funcs, _str_plus, _str_plus_int,
            _str_astype, _str_where, _str_items, _str_concat_widths):
    case(_fn, *((s,) for s in STRINGS))


@scenario
def s_dtype_changes_between_calls(r):
    """One function, its argument's dtype changing every call: native, big-endian,
    record field, datetime, object, str."""
    def f(x):
        return x[::-1].copy(), x[:2], _descr(x)
    g = r.compile(f)
    for a in (LE_F, BE_F, BE_I, REC["b"], REC_BE["a"], D, TD, O_INTS, SU, SB, LE_F):
        r.call(g, a.copy())


_SWAPPED = np.dtype({"names": ["a", "b"], "formats": ["<f8", "<f8"], "offsets": [8, 0],
                     "itemsize": 16})
_LAYOUTS = (np.dtype([("a", "<f8"), ("b", "<f8")]), np.dtype([("b", "<f8"), ("a", "<f8")]),
            _SWAPPED, np.dtype([("a", "<f4"), ("b", "<f8")], align=True),
            np.dtype([("a", "<i8"), ("b", "<f8")]), np.dtype([("a", ">f8"), ("b", "<f8")]),
            np.dtype([("a", "<f8"), ("c", "<f8")]), np.dtype([("a", "<f8"), ("b", "<f8")]))


def _field_a(s):
    try:
        a = s["a"]
    except ValueError as e:
        return "no a: " + str(e)
    return a * 10, s.dtype.names, s["a"].dtype.str


@scenario
def s_record_layouts_between_calls(r):
    """The same 32 bytes seen through record dtypes of one ``dtype.str`` (``'|V16'``):
    fields swapped by name, by offset, another field name, other field types."""
    raw = np.arange(4.0).tobytes()
    f = r.compile(_field_a)
    for dt in _LAYOUTS:
        r.call(f, np.frombuffer(raw, dtype=dt).copy() if dt.itemsize == 16
               else np.zeros(2, dt))


@scenario
def s_datetime_units_between_calls(r):
    """One function of dates, the unit changing every call (D, s, ms, M, generic NaT)."""
    def f(d):
        return d - d[0], (d[-1] - d[0]) / np.timedelta64(1, "D"), d.dtype.str
    g = r.compile(f)
    for unit in ("D", "s", "ms", "M", "D", "Y"):
        r.call(g, np.array(["2024-01-31", "2024-03-01", "2025-07-04"], f"datetime64[{unit}]"))
