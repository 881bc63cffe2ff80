"""Round 8, ``min(c, s)`` / ``max(c, s)`` of a Python number and a NumPy scalar (or a
0-d array) computed in the graph: which object comes back (the first of equal ones,
so ``min(1.0, np.float64(1.0))`` is the Python float), NaN either side (``min(nan, s)``
is ``nan``, ``min(s, nan)`` is ``s``), ties, ``-0.0`` against ``0.0``, bools, ints
against floats, float32 scalars (whose type then decides NEP 50 promotion of an
array), three arguments, ``key=``, lists, and the result used in later array math."""

import numpy as np
from hostile_check import Programs

reg = Programs("round8_minmax")
case, scenario = reg.case, reg.scenario

X = np.array([0.5, 0.25, 0.25])        # sums to 1.0
XN = np.array([0.5, np.nan, 0.25])
XZ = np.array([0.0, -0.0])             # sums to 0.0
XNZ = np.array([-0.0, -0.0])           # sums to -0.0
XF32 = X.astype(np.float32)
XI = np.array([1, 0, 0])
XB = np.array([True, False])
NAN = float("nan")

FLOATS = [(X,), (XN,), (XZ,), (XNZ,), (XF32,), (XI,)]


def _min_const_first(x):
    s = x.sum()
    m = min(1.0, s)
    return m, type(m).__name__


case(_min_const_first, *FLOATS)


def _min_scalar_first(x):
    s = x.sum()
    m = min(s, 1.0)
    return m, type(m).__name__


case(_min_scalar_first, *FLOATS)


def _max_const_first(x):
    s = x.sum()
    m = max(1.0, s)
    return m, type(m).__name__


case(_max_const_first, *FLOATS)


def _max_scalar_first(x):
    s = x.sum()
    m = max(s, 1.0)
    return m, type(m).__name__


case(_max_scalar_first, *FLOATS)


def _min_arg_number(x, c):
    s = x.sum()
    m = min(c, s)
    return m, type(m).__name__


case(_min_arg_number, (X, 1.0), (X, 1), (X, True), (X, 2), (X, -0.0), (XZ, -0.0),
     (XNZ, 0.0), (X, NAN), (XN, NAN), (XN, 5.0), (XZ, False))


def _max_arg_number(x, c):
    s = x.sum()
    m = max(s, c)
    return m, type(m).__name__


case(_max_arg_number, (X, 1.0), (X, 1), (X, True), (X, 0), (XZ, -0.0), (XNZ, 0.0),
     (X, NAN), (XN, NAN), (XN, -5.0), (XNZ, False))


def _min_zero_signs(x):
    s = x.sum()
    return min(0.0, s), min(s, 0.0), min(-0.0, s), min(s, -0.0)


case(_min_zero_signs, (XZ,), (XNZ,))


def _max_zero_signs(x):
    s = x.sum()
    return max(0.0, s), max(s, 0.0), max(-0.0, s), max(s, -0.0)


case(_max_zero_signs, (XZ,), (XNZ,))


def _min_nan_either_side(x):
    s = x.sum()
    return min(float("nan"), s), min(s, float("nan")), max(float("nan"), s), \
        max(s, float("nan"))


case(_min_nan_either_side, (X,), (XN,))


def _min_result_scales_float32(x):
    # min returns the Python float (weak) or the np.float64 (strong): the dtype follows
    s = x.sum()
    k = min(2.0, s)
    return x * k, (x * k).dtype


case(_min_result_scales_float32, (XF32,), (XF32 * 4,), (np.array([2.0, 0.0], np.float32),))


def _max_float32_scalar(x):
    s = x.astype(np.float32).sum()
    k = max(s, 0.5)
    return k, type(k).__name__, x.astype(np.float16) * k


case(_max_float32_scalar, (X,), (X * 0.1,), (np.array([0.25, 0.25]),))


def _clamp_step(x, lo, hi):
    g = np.abs(x).max()
    step = max(lo, min(hi, g))
    return x - step, step, type(step).__name__


case(_clamp_step, (X, 0.1, 0.4), (X, 0.6, 0.9), (XN, 0.1, 0.4), (X, 0.5, 0.5),
     (X, 0.4, 0.1))


def _min_three_args(x):
    s = x.sum()
    t = x.max()
    return min(s, 1.0, t), max(0.25, t, s), min(t, s)


case(_min_three_args, (X,), (XN,), (XZ,))


def _min_of_list(x):
    s = x.sum()
    vals = [1.0, s, x.min()]
    return min(vals), max(vals), vals.index(min(vals))


case(_min_of_list, (X,), (XN,), (XNZ,))


def _min_with_key(x):
    s = x.sum()
    return min(-1.0, s, key=abs), max(s, -2.0, key=abs)


case(_min_with_key, (X,), (-X,), (XN,))


def _min_int_scalar(x):
    n = x.sum()
    return min(n, 1), max(1, n), type(min(1, n)).__name__, type(max(n, 1)).__name__


case(_min_int_scalar, (XI,), (np.array([2, -1]),), (np.array([1], dtype=np.int8),),
     (np.array([1], dtype=np.uint64),))


def _min_int_vs_float_tie(x):
    n = x.sum()
    return min(1.0, n), min(n, 1.0), max(1, n.astype(np.float32))


case(_min_int_vs_float_tie, (XI,), (np.array([1], dtype=np.int16),))


def _min_bool_scalar(x):
    b = x.any()
    return min(b, 0), max(True, b), min(False, b), type(min(b, 0)).__name__


case(_min_bool_scalar, (XB,), (np.array([False]),))


def _min_zero_dim_array(x):
    s = np.asarray(x.sum())
    t = np.sum(x, keepdims=False) * np.ones(())
    return min(1.0, t), max(t, 0.5), type(min(1.0, t)).__name__, s.ndim


case(_min_zero_dim_array, (X,), (XN,), (XZ,))


def _min_in_loop(x):
    best = float("inf")
    for i in range(x.shape[0]):
        best = min(best, x[i])
    return best, type(best).__name__


case(_min_in_loop, (X,), (XN,), (np.array([3.0, -0.0, 0.0]),))


def _max_in_loop_long(x):
    best = -1.0
    for i in range(12):
        best = max(best, x[i % x.shape[0]] * i)
    return best, type(best).__name__


case(_max_in_loop_long, (X,), (XN,), (XF32,))


def _min_identity_of_result(x):
    s = x.sum()
    m = min(s, 5.0)
    return m is s, m


case(_min_identity_of_result, (X,), (XN,))


def _min_branch_on_result(x, tol):
    s = np.abs(x).max()
    if min(s, tol) == tol:
        return "tol", x * 2
    return "s", x


case(_min_branch_on_result, (X, 0.1), (X, 1.0), (XN, 0.1), (X, 0.5))


def _min_of_numpy_scalars(x):
    s = x.sum()
    return min(s, np.float32(1.0)), max(np.float32(1.0), s), min(np.float64(-0.0), s)


case(_min_of_numpy_scalars, (X,), (XZ,), (XN,))


def _min_complex_raises(x):
    s = x.sum()
    try:
        return min(1j, s)
    except TypeError as e:
        return "TypeError", str(e)


case(_min_complex_raises, (X,), (X + 0j,))


def _min_array_raises(x):
    try:
        return min(1.0, x)
    except ValueError as e:
        return "ValueError", str(e)


case(_min_array_raises, (X,), (X[:1],))


def _min_inf(x):
    s = x.sum()
    return min(float("inf"), s), max(float("-inf"), s), min(s, float("-inf"))


case(_min_inf, (X,), (np.array([np.inf]),), (np.array([-np.inf, 1.0]),))


# ============================================================ the choice as an operand

def _grad_clip(g, clip):
    r = clip / (np.linalg.norm(g) + 1e-12)
    return g * min(1.0, r)


case(_grad_clip, (X, 0.5), (X, 100.0), (XN, 0.5), (XF32, 0.5), (np.zeros(3), 1.0))


def _mean_with_floor(x, cnt):
    return x.sum(0) / max(cnt, 1)


case(_mean_with_floor, (X, 0), (X, 3), (XI, 0), (XI, 2), (XF32, 0))


def _choice_times_int_array(x, c):
    s = x.sum()
    return XI * min(c, s), (XI * min(c, s)).dtype


case(_choice_times_int_array, (X, 2.0), (X, 0.5), (XN, 2.0), (X, 2))


def _choice_plus_float16(x):
    s = x.sum()
    h = np.ones(2, np.float16)
    return h + max(0.5, s), (h + max(0.5, s)).dtype


case(_choice_plus_float16, (X,), (X * 0.1,), (XN,))


def _choice_subtracted_first(x):
    s = x.max()
    return 1.0 - x * min(s, 0.3), min(s, 0.3) - x


case(_choice_subtracted_first, (X,), (XN,), (XNZ,))


def _choice_power(x):
    s = x.sum()
    return x ** max(s, 2.0), x ** min(s, 2)


case(_choice_power, (X,), (X * 3,), (XN,))


def _choice_inexact_constant(x):
    # 0.1 is no float32 value: the float32 scalar and the weak float differ
    s = x.astype(np.float32).sum()
    return x * min(0.1, s), min(0.1, s)


case(_choice_inexact_constant, (X,), (X * 0.01,))


def _choice_huge_int(x):
    s = x.sum()
    return min(2 ** 70, s), max(s, -2 ** 70), x * min(2 ** 53 + 1, s)


case(_choice_huge_int, (X,), (XI,), (np.array([np.inf]),))


def _choice_stored_on_object(x, o):
    o.lr = min(0.1, x.sum())
    o.hist.append(max(x.sum(), 0.0))
    return o


class Box:
    def __init__(self):
        self.lr = None
        self.hist = []


case(_choice_stored_on_object, lambda: (X, Box()), lambda: (XN, Box()),
     lambda: (XNZ, Box()))


def _choice_formatted(x):
    m = min(1.0, x.sum())
    return f"{m}", repr(m), str(type(m))


case(_choice_formatted, (X,), (X * 2,), (XN,))


def _choice_as_index(x):
    n = x.size
    k = min(n - 1, x.astype(np.int64).sum())
    return x[k], type(k).__name__


case(_choice_as_index, (XI,), (np.array([5, 5]),), (np.array([0, 0, 0, 1]),))


def _choice_in_dict_key(x):
    d = {1.0: "float one", np.float64(0.5): "half"}
    m = min(1.0, x.sum())
    return d.get(m, "missing"), m == 1.0


case(_choice_in_dict_key, (X,), (X * 0.5,), (XN,))


def _choice_rounded(x):
    m = max(0.0, x.sum())
    return round(m, 2), int(m), float(m), type(round(m)).__name__


case(_choice_rounded, (X * 1.2345,), (XNZ,), (X * -1,))


def _choice_chain(x):
    a = min(1.0, x.sum())
    b = max(a, x.max())
    c = min(b, 0.75)
    return a, b, c, x * c


case(_choice_chain, (X,), (XN,), (XZ,), (XF32,))


def _choice_neg_abs(x):
    m = min(0.0, x.sum())
    return -m, abs(m), +m


case(_choice_neg_abs, (XZ,), (XNZ,), (-X,), (XN,))
