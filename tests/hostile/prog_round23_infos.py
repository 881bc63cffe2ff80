"""Round 23, ``np.finfo``/``np.iinfo`` objects read as constants of their dtype
(``variables/builder.py``; tests/breaks/test_info_objects_and_unhashables.py): passed
in, held in a global, an attribute, a closure, a dict or a default, made in the trace
from an argument's dtype. The dtype changes between calls (float16/32/64, complex64,
every integer width) and must trace again; a global or attribute rebound to another
info object must be seen; arithmetic with them keeps NumPy's types and warnings
(``fi.max * 2`` of a float32 overflows with a RuntimeWarning, ``x + ii.max`` of an
int8 ``x`` and int16's max raises NEP 50's OverflowError); an info object whose
attributes the program changed (NumPy caches one object per dtype), a subclass, and
``repr``/``str``/``==``/``hash`` of one.

    >>> def _eps_of(x, fi):
    ...     return x + fi.eps, fi.max, fi.bits
"""

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round23_infos")
scenario = reg.scenario


def case(fn, *inputs, **kw):
    """``reg.case`` with each input set made fresh by a callable: arrays copied, info
    objects passed as they are (they cannot be deep-copied)."""
    def fresh(spec):
        if callable(spec):
            return spec
        return lambda: tuple(v.copy() if isinstance(v, np.ndarray) else
                             {k: w for k, w in v.items()} if isinstance(v, dict) else v
                             for v in spec)
    reg.case(fn, *(fresh(s) for s in inputs), **kw)

X8 = np.array([1.0, 1e-300, 0.0, -2.0])
X4 = X8.astype(np.float32)
X2 = X8.astype(np.float16)
FI = {k: np.finfo(k) for k in (np.float16, np.float32, np.float64, np.complex64)}
II = {k: np.iinfo(k) for k in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64)}
N8 = np.array([1, -2, 100], np.int8)
N64 = np.array([1, -2, 100], np.int64)


def _eps_of(x, fi):
    return x + fi.eps, fi.max, fi.tiny, fi.bits, fi.dtype, fi.resolution


def _all_finfo_attributes(x, fi):
    return (fi.smallest_normal, fi.smallest_subnormal, fi.precision, fi.nmant, fi.nexp,
            fi.minexp, fi.maxexp, fi.machep, fi.negep, fi.epsneg, fi.iexp, fi.min,
            x * fi.epsneg)


def _max_overflow(x, fi):
    return fi.max * 2, x * fi.max


def _tiny_underflow(x, fi):
    return fi.tiny / 2 ** 30, np.maximum(x, fi.tiny)


def _safe_log(x, fi):
    return np.log(np.maximum(np.abs(x), fi.tiny))


case(_eps_of, *((X8, fi) for fi in FI.values()))
case(_eps_of, (X4, FI[np.float32]), (X2, FI[np.float16]), (X8, FI[np.float16]),
     name="eps_of_mixed")
case(_all_finfo_attributes, *((X8, fi) for fi in FI.values()))
case(_max_overflow, (X4, FI[np.float32]), (X8, FI[np.float16]), (X8, FI[np.float64]))
case(_tiny_underflow, (X8, FI[np.float64]), (X4, FI[np.float32]), (X2, FI[np.float16]))
case(_safe_log, (X8, FI[np.float64]), (X4, FI[np.float32]), (X8, FI[np.float16]))


def _iinfo_max(x, ii):
    return x // 2 + ii.max, ii.bits, ii.kind, ii.min, ii.dtype


def _clip_to(x, ii):
    return np.clip(x, ii.min, ii.max).astype(ii.dtype)


def _iinfo_python_ints(x, ii):
    return ii.max + 1, ii.min - 1, type(ii.max).__name__, -ii.min


case(_iinfo_max, *((N64, ii) for ii in II.values()))
case(_iinfo_max, (N8, II[np.int8]), (N8, II[np.int16]), (N8, II[np.uint8]),
     name="iinfo_max_int8_overflow")
case(_clip_to, *((X8 * 1e3, ii) for ii in II.values()))
case(_iinfo_python_ints, *((N64, ii) for ii in II.values()))


def _info_in_trace(x):
    fi = np.finfo(x.dtype)
    return x + fi.eps, fi.bits, np.finfo(x.dtype) is fi


def _iinfo_in_trace(x):
    ii = np.iinfo(x.dtype)
    return np.clip(x * 3, ii.min, ii.max), ii.max


case(_info_in_trace, (X8,), (X4,), (X2,), (X8.astype(np.complex64),))
case(_iinfo_in_trace, (N8,), (N64,), (N8.astype(np.uint16),), (N8.astype(np.int32),))


# ------------------------------------------------------------------- held elsewhere

TOL = np.finfo(np.float32)


def _global_info(x):
    return np.maximum(x, TOL.tiny) * TOL.eps


def s_global_rebound(r):
    f = r.compile(_global_info)
    r.call(f, X8.copy())
    r.patch(globals(), "TOL", np.finfo(np.float64))
    r.call(f, X8.copy())
    r.patch(globals(), "TOL", np.finfo(np.float16))
    r.call(f, X8.copy())
    r.patch(globals(), "TOL", np.iinfo(np.int8))
    r.call(f, X8.copy())


scenario(s_global_rebound)


class Tolerances:
    def __init__(self, dt):
        self.fi = np.finfo(dt)


def _attribute_info(x, tol):
    return x + tol.fi.eps


def s_attribute_rebound(r):
    f = r.compile(_attribute_info)
    tol = Tolerances(np.float32)
    r.call(f, X8.copy(), tol)
    tol.fi = np.finfo(np.float64)
    r.call(f, X8.copy(), tol)
    tol.fi = FI[np.float16]
    r.call(f, X8.copy(), tol)
    del tol.fi
    r.call(f, X8.copy(), tol)


scenario(s_attribute_rebound)


def _make_closure(dt):
    fi = np.finfo(dt)

    def near_zero(x):
        return np.abs(x) < fi.eps * 4
    return near_zero


def s_closure_cell(r):
    inner = _make_closure(np.float32)
    f = r.compile(inner)
    r.call(f, X8.copy())
    inner.__closure__[0].cell_contents = np.finfo(np.float64)
    r.call(f, X8.copy())


scenario(s_closure_cell)


FI32_DEFAULT = np.finfo(np.float32)


def _default_info(x, fi=FI32_DEFAULT):
    return x * fi.eps


def s_default_replaced(r):
    f = r.compile(_default_info)
    r.call(f, X8.copy())
    r.patch(_default_info, "__defaults__", (np.finfo(np.float16),))
    r.call(f, X8.copy())


scenario(s_default_replaced)


def _dict_info(x, d):
    return x + d["fi"].eps, d["ii"].max


case(_dict_info, (X8, {"fi": FI[np.float64], "ii": II[np.int8]}),
     (X8, {"fi": FI[np.float32], "ii": II[np.int8]}),
     (X8, {"fi": FI[np.float32], "ii": II[np.int64]}))


# ------------------------------------------------------------------- changed objects

def s_info_attribute_set(r):
    """NumPy hands out one finfo object per dtype; the program overwrites its eps."""
    fi = np.finfo(np.float32)
    f = r.compile(_eps_of)
    r.call(f, X8.copy(), fi)
    r.patch(fi, "eps", np.float32(0.5))
    r.call(f, X8.copy(), fi)
    r.patch(fi, "max", np.float32(7))
    r.call(f, X8.copy(), fi)


def s_iinfo_attribute_set(r):
    ii = np.iinfo(np.int16)
    f = r.compile(_iinfo_max)
    r.call(f, N64.copy(), ii)
    r.patch(ii, "bits", 3)
    r.call(f, N64.copy(), ii)


def s_own_info_object(r):
    """A fresh finfo object (a copy) with an attribute of its own."""
    fi = object.__new__(np.finfo)
    fi.__dict__.update(vars(np.finfo(np.float64)))
    f = r.compile(_eps_of)
    r.call(f, X8.copy(), fi)
    fi.eps = 1.0
    r.call(f, X8.copy(), fi)


scenario(s_info_attribute_set)
scenario(s_iinfo_attribute_set)
scenario(s_own_info_object)


class MyFinfo(np.finfo):
    @property
    def eps(self):
        return 0.25


def _subclass_info(x, fi):
    return x + fi.eps, type(fi).__name__


case(_subclass_info, (X8, FI[np.float64]), (X8, MyFinfo(np.float64)))


def _info_text(x, fi):
    return repr(fi), str(fi)[:40], x * 2


def _info_compare(x, fi, other):
    return fi == other, fi is other, hash(fi) == hash(other), x.dtype == fi.dtype


case(_info_text, (X8, FI[np.float64]), (X8, FI[np.float32]), (X8, II[np.int8]))
case(_info_compare, (X8, FI[np.float64], FI[np.float64]), (X8, FI[np.float64], FI[np.float32]),
     lambda: (X8.copy(), FI[np.float32], FI[np.float32]))


def _info_of_value(x):
    return np.finfo(x.dtype).eps * x, np.iinfo(np.int8).max + x.astype(np.int8)


case(_info_of_value, (X8,), (X4,), (X8 * 200,))


def _info_bad_dtype(x):
    return np.finfo(x.dtype)


case(_info_bad_dtype, (X8,), (N8,))


def _info_dtype_cast(x, fi):
    return x.astype(fi.dtype), np.zeros(2, fi.dtype), np.array(fi.max, dtype=x.dtype)


case(_info_dtype_cast, (X8, FI[np.float32]), (X4, FI[np.float64]), (X2, FI[np.float64]))


def _info_in_errstate(x, fi):
    with np.errstate(over="raise"):
        return x * fi.max


case(_info_in_errstate, (X8, FI[np.float64]), (X4, FI[np.float32]), (X2, FI[np.float16]))


def s_cached_info_written(r):
    """np.finfo(x.dtype) made in the trace is NumPy's cached object, which the program
    then overwrites: the next call's np.finfo(x.dtype).eps reads the new value."""
    f = r.compile(_info_in_trace)
    r.call(f, X8.copy())
    r.patch(np.finfo(np.float64), "eps", np.float64(0.5))
    r.call(f, X8.copy())


def s_cached_info_written_passed(r):
    f = r.compile(_eps_of)
    r.call(f, X8.copy(), np.finfo(np.float64))
    r.patch(np.finfo(np.float64), "tiny", np.float64(0.5))
    r.call(f, X8.copy(), np.finfo(np.float64))


scenario(s_cached_info_written)
scenario(s_cached_info_written_passed)


# ------------------------------------------------------------------- more ways to read one


def _info_branch(x, fi):
    if fi.bits == 32:
        return x.astype(np.float32) * fi.eps
    return x * fi.eps


def _info_getattr(x, fi):
    return x + getattr(fi, "eps"), hasattr(fi, "no_such"), getattr(fi, "no_such", 1.5)  # noqa: B009


def _info_in_list(x, infos):
    return [x * fi.eps for fi in infos]


def _info_keyword(x, *, fi):
    return x + fi.tiny


def _info_class(x, fi):
    return type(fi).__name__, fi.__class__ is np.finfo, isinstance(fi, np.iinfo)


def _iinfo_nep50(x, ii):
    return x + ii.max, x - ii.min


def _info_longdouble(x, fi):
    return (x.astype(fi.dtype) + fi.eps).dtype, fi.bits


def _info_in_tuple(x, pair):
    fi, ii = pair
    return x * fi.eps + ii.bits


def _info_shape_argument(x, ii):
    return np.zeros(ii.bits // 8), np.full(3, ii.max, dtype=ii.dtype)


def _info_max_cast(x, fi):
    return x.astype(fi.dtype) * 2 if fi.max < 1e5 else x * fi.max


case(_info_branch, (X8, FI[np.float32]), (X8, FI[np.float64]), (X8, FI[np.float16]))
case(_info_getattr, (X8, FI[np.float32]), (X8, II[np.int8]), (X8, FI[np.float64]))
case(_info_in_list, (X8, [FI[np.float32], FI[np.float64]]), (X8, [FI[np.float16]]),
     (X8, [FI[np.float64], FI[np.float64]]))
case(_info_keyword, lambda: Args(X8.copy(), fi=FI[np.float64]),
     lambda: Args(X8.copy(), fi=FI[np.float32]), lambda: Args(X8.copy(), fi=II[np.int8]))
case(_info_class, (X8, FI[np.float32]), (X8, II[np.int8]))
case(_iinfo_nep50, (N8, II[np.int8]), (N8, II[np.uint8]), (N8, II[np.int64]),
     (N64, II[np.uint64]), (N64, II[np.int64]))
case(_info_longdouble, (X8, np.finfo(np.longdouble)), (X8, FI[np.float64]))
case(_info_in_tuple, (X8, (FI[np.float32], II[np.int8])), (X8, (FI[np.float64], II[np.int64])))
case(_info_shape_argument, (X8, II[np.int8]), (X8, II[np.int64]), (X8, II[np.uint8]))
case(_info_max_cast, (X8, FI[np.float16]), (X8, FI[np.float32]), (X4, FI[np.float64]))


def s_info_attribute_deleted(r):
    """An attribute the program deletes from its info object after the first call."""
    fi = object.__new__(np.finfo)
    fi.__dict__.update(vars(np.finfo(np.float16)))
    f = r.compile(_eps_of)
    r.call(f, X8.copy(), fi)
    del fi.bits
    r.call(f, X8.copy(), fi)


scenario(s_info_attribute_deleted)
