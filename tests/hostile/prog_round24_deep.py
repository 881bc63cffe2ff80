"""Round 24, inputs read more than 64 reads deep (``variables/builder.py``
``MAX_SOURCE_DEPTH``: past it the value is not traced and the rest of the frame runs as
it is) and ``np.finfo``/``np.iinfo`` objects whose attributes are written
(``variables/constant.py`` ``NumericInfoVariable``: each attribute read is guarded by
type and value).

Depth: tuples, lists, dicts, attribute chains and a mix, nested 62 to 66 (and 200)
levels, the leaf read (and an array there used), written, appended to; the depth
changes between calls on one entry; the walk is a loop, a recursion, a comprehension.

Infos: fresh info objects (not NumPy's cached ones: ``_fresh``) passed in, held in a
global, a default, a dict, an attribute; ``eps`` set to ``-0.0`` after ``0.0``, to NaN,
to an int, a bool, an array, a list, deleted; written inside the compiled function and
read back; ``iinfo.max`` (a property over ``key``/``bits``) changed through ``bits``.

    >>> def _leaf(t, depth):
    ...     for _ in range(depth):
    ...         t = t[0]
    ...     return t * 2.0
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round24_deep")
case = reg.case
scenario = reg.scenario

LEAF = np.linspace(-1.0, 1.0, 5)


class _Node:
    def __init__(self, inner):
        self.inner = inner


def _nest(kind, depth, leaf):
    v = leaf
    for k in range(depth):
        mix = kind if kind != "mixed" else ("tuple", "list", "dict", "attr")[k % 4]
        v = {"tuple": lambda w: (w,), "list": lambda w: [w], "dict": lambda w: {"k": w},
             "attr": _Node}[mix](v)
    return v


def _step(v):
    if isinstance(v, dict):
        return v["k"]
    if isinstance(v, _Node):
        return v.inner
    return v[0]


def _read_leaf(t, depth):
    for _ in range(depth):
        t = t["k"] if isinstance(t, dict) else t.inner if isinstance(t, _Node) else t[0]
    return t * 2.0 + t.sum()


def _write_leaf(t, depth):
    top = t
    for _ in range(depth):
        t = t["k"] if isinstance(t, dict) else t.inner if isinstance(t, _Node) else t[0]
    t[0] = 99.0
    t *= 0.5
    return top is not None


def _read_recursive(t, depth):
    if depth == 0:
        return t + 1.0
    return _read_recursive(_step(t), depth - 1)


def _append_at_depth(t, depth):
    for _ in range(depth - 1):
        t = _step(t)
    if isinstance(t, list):
        t.append(LEAF * 3.0)
        return len(t)
    return None


for _kind in ("tuple", "list", "dict", "attr", "mixed"):
    for _d in (62, 64, 65, 66):
        case(_read_leaf, lambda k=_kind, d=_d: (_nest(k, d, LEAF.copy()), d),
             lambda k=_kind, d=_d: (_nest(k, d, LEAF * 2.0), d),
             name=f"read_{_kind}_{_d}")
        case(_write_leaf, lambda k=_kind, d=_d: (_nest(k, d, LEAF.copy()), d),
             name=f"write_{_kind}_{_d}")
for _kind in ("tuple", "dict", "mixed"):
    case(_read_recursive, lambda k=_kind: (_nest(k, 63, LEAF.copy()), 63),
         lambda k=_kind: (_nest(k, 70, LEAF.copy()), 70), name=f"recursive_{_kind}")
case(_append_at_depth, lambda: (_nest("list", 66, LEAF.copy()), 66),
     lambda: (_nest("list", 64, LEAF.copy()), 64))
case(_read_leaf, lambda: (_nest("tuple", 200, LEAF.copy()), 200), name="read_tuple_200")


def s_depth_changes_on_one_entry(r):
    """One compiled function, the structure 60 deep, then 64, 65, 70, 60 again."""
    f = r.compile(_read_leaf)
    for d in (60, 60, 64, 65, 70, 60):
        r.call(f, _nest("mixed", d, LEAF.copy()), d)


def s_deep_leaf_replaced(r):
    """The same structure, its leaf replaced between calls (66 deep)."""
    f = r.compile(_read_leaf)
    t = _nest("list", 66, LEAF.copy())
    r.call(f, t, 66)
    inner = t
    for _ in range(65):
        inner = inner[0]
    inner[0] = np.arange(5.0)
    r.call(f, t, 66)
    inner[0] = "text"
    r.call(f, t, 66)


DEEP_GLOBAL = None


def _read_global(depth):
    t = DEEP_GLOBAL
    for _ in range(depth):
        t = t[0]
    return t - 1.0


def s_deep_global(r):
    global DEEP_GLOBAL
    f = r.compile(_read_global)
    for d in (63, 65, 63):
        DEEP_GLOBAL = _nest("tuple", d, LEAF.copy())
        r.call(f, d)
    DEEP_GLOBAL = None


for _s in (s_depth_changes_on_one_entry, s_deep_leaf_replaced, s_deep_global):
    scenario(_s)


# ------------------------------------------------------------ info objects written

def _fresh(cls, dtype):
    """An info object of ``dtype`` that is not NumPy's cached one (writing it leaves
    NumPy's cache alone)."""
    o = object.__new__(cls)
    o.__dict__.update(vars(cls(dtype)))
    return o


def _eps_plus(x, fi):
    return x + fi.eps, math.copysign(1.0, fi.eps), type(fi.eps).__name__


def _info_written_scenario(name, values, x=None):
    def s(r):
        fi = _fresh(np.finfo, np.float64)
        f = r.compile(_eps_plus)
        arg = np.array([-0.0, 1.0, -2.0]) if x is None else x
        r.call(f, arg.copy(), fi)
        r.call(f, arg.copy(), fi)
        for v in values:
            fi.eps = v
            r.call(f, arg.copy(), fi)
            r.call(f, arg.copy(), fi)
    s.__name__ = f"eps_{name}"
    scenario(s)


_info_written_scenario("signed_zero", [0.0, -0.0, 0.0])
_info_written_scenario("float32_zero", [np.float32(0.0), np.float32(-0.0)])
_info_written_scenario("nan", [float("nan"), float("nan"), np.nan])
_info_written_scenario("int_bool", [1, True, 1.0, np.int64(1)])
_info_written_scenario("huge_int", [10 ** 30, 10 ** 30 + 1])


def _eps_array(x, fi):
    return x + fi.eps


def s_eps_array(r):
    """``fi.eps`` replaced by an array, then written in place."""
    fi = _fresh(np.finfo, np.float64)
    f = r.compile(_eps_array)
    r.call(f, LEAF.copy(), fi)
    fi.eps = np.zeros(5)
    r.call(f, LEAF.copy(), fi)
    fi.eps[0] = 7.0
    r.call(f, LEAF.copy(), fi)
    fi.eps = [1.0, 2.0, 3.0, 4.0, 5.0]
    r.call(f, LEAF.copy(), fi)
    fi.eps.append(6.0)
    r.call(f, LEAF.copy(), fi)


def s_eps_deleted(r):
    fi = _fresh(np.finfo, np.float32)
    f = r.compile(_eps_array)
    r.call(f, LEAF.copy(), fi)
    del fi.eps
    r.call(f, LEAF.copy(), fi)
    fi.eps = 0.25
    r.call(f, LEAF.copy(), fi)


def _write_inside(x, fi):
    before = fi.eps
    fi.eps = before * 2
    return x + fi.eps, before, fi.eps


def s_written_inside(r):
    fi = _fresh(np.finfo, np.float32)
    f = r.compile(_write_inside)
    for _ in range(4):
        r.call(f, LEAF.copy(), fi)
    r.see("eps", fi.eps)


def _iinfo_max(x, ii):
    return x + ii.max, ii.min, ii.bits


def s_iinfo_bits_written(r):
    """``iinfo.max`` is a property over ``key``: rewriting ``key`` and ``bits``
    changes it."""
    ii = _fresh(np.iinfo, np.int8)
    f = r.compile(_iinfo_max)
    x = np.array([1, 2, 3], np.int64)
    r.call(f, x.copy(), ii)
    r.call(f, x.copy(), ii)
    ii.key, ii.bits = "i16", 16
    r.call(f, x.copy(), ii)
    ii.kind = "u"
    r.call(f, x.copy(), ii)


def _iinfo_nep50(x, ii):
    try:
        return x + ii.max
    except OverflowError as e:
        return str(e)


def s_iinfo_nep50(r):
    ii = _fresh(np.iinfo, np.int16)
    f = r.compile(_iinfo_nep50)
    x8 = np.array([1, 2], np.int8)
    r.call(f, x8.copy(), ii)
    r.call(f, x8.copy(), ii)
    ii.key, ii.bits = "i8", 8
    r.call(f, x8.copy(), ii)


FI_GLOBAL = None


def _global_info(x):
    return x * FI_GLOBAL.eps, FI_GLOBAL.bits


def s_global_info_written(r):
    global FI_GLOBAL
    FI_GLOBAL = _fresh(np.finfo, np.float64)
    f = r.compile(_global_info)
    r.call(f, LEAF.copy())
    FI_GLOBAL.eps = -0.0
    r.call(f, LEAF.copy())
    FI_GLOBAL.bits = 7
    r.call(f, LEAF.copy())
    FI_GLOBAL = _fresh(np.finfo, np.float16)
    r.call(f, LEAF.copy())
    FI_GLOBAL = None


def _info_in_dict(x, d):
    return x - d["fi"].tiny, d["fi"].resolution


def s_info_in_dict(r):
    fi = _fresh(np.finfo, np.float64)
    d = {"fi": fi}
    f = r.compile(_info_in_dict)
    r.call(f, LEAF.copy(), d)
    fi.resolution = 0.5
    r.call(f, LEAF.copy(), d)
    d["fi"] = _fresh(np.finfo, np.float32)
    r.call(f, LEAF.copy(), d)


def _info_deep(x, t):
    for _ in range(66):
        t = t[0]
    return x + t.eps


def s_info_deep(r):
    """An info object 66 reads deep (past the depth the trace follows)."""
    fi = _fresh(np.finfo, np.float64)
    f = r.compile(_info_deep)
    t = _nest("tuple", 66, fi)
    r.call(f, LEAF.copy(), t)
    fi.eps = 3.0
    r.call(f, LEAF.copy(), t)


class _Holder:
    def __init__(self):
        self.fi = _fresh(np.finfo, np.float32)

    def __call__(self, x):
        return x * self.fi.max, self.fi.eps


def s_info_attribute_of_object(r):
    h = _Holder()
    f = r.compile(h.__call__)
    r.call(f, np.float32(2.0))
    h.fi.max = np.float32(1.0)
    r.call(f, np.float32(2.0))
    h.fi.eps = 0.0
    r.call(f, np.float32(2.0))


def _info_default(x, fi=_fresh(np.finfo, np.float64)):   # noqa: B008
    return x + fi.eps


def s_info_default_written(r):
    fi = _info_default.__defaults__[0]
    old = fi.eps
    f = r.compile(_info_default)
    try:
        r.call(f, LEAF.copy())
        fi.eps = 1.0
        r.call(f, LEAF.copy())
    finally:
        fi.eps = old


def _info_setattr_getattr(x, fi):
    setattr(fi, "eps", getattr(fi, "eps") + 1)   # noqa: B009, B010 (the hostile part)
    return x + vars(fi)["eps"], hasattr(fi, "made")


def s_info_setattr_getattr(r):
    fi = _fresh(np.finfo, np.float64)
    f = r.compile(_info_setattr_getattr)
    r.call(f, LEAF.copy(), fi)
    fi.made = 1
    r.call(f, LEAF.copy(), fi)
    r.see("eps", fi.eps)


def _info_dtype_used(x, fi):
    return x.astype(fi.dtype) + fi.eps


def s_info_dtype_written(r):
    fi = _fresh(np.finfo, np.float64)
    f = r.compile(_info_dtype_used)
    r.call(f, LEAF.copy(), fi)
    fi.dtype = np.dtype(np.float16)
    r.call(f, LEAF.copy(), fi)
    fi.dtype = np.float32
    r.call(f, LEAF.copy(), fi)


for _s in (s_eps_array, s_eps_deleted, s_written_inside, s_iinfo_bits_written,
           s_iinfo_nep50, s_global_info_written, s_info_in_dict, s_info_deep,
           s_info_attribute_of_object, s_info_default_written, s_info_setattr_getattr,
           s_info_dtype_written):
    scenario(_s)
