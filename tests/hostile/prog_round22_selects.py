"""Round 22, ifs that choose a value (``dynamo/translator/branch_selects.py``, the op
``branch_select``): both ways are traced and run, so the taken way must be the only one
whose effects show. Untaken ways that divide by zero, overflow a cast, take a log of a
negative number, index out of range with data indices, raise to a negative integer
power, or underflow into subnormals, under the default settings, ``np.errstate``
(raise, call, warn), ``np.seterrcall`` and a warnings filter set to ``"error"``; ways
whose values differ in dtype, shape, layout, 0-d against 1-d, Python float against
``np.float32``, ``0.0`` against ``-0.0``, ``1`` against ``True``; conditions on NaN,
``a.any()``, chained comparisons, ``and``/``or``, ``not``; nested ifs, conditional
expressions in helpers, methods, lambdas and unrolled loops; values read, viewed and
returned after the join, identity (``y is x``); and the 8192-element budget at its edge.

    >>> def _div_untaken(x, d):
    ...     if x.sum() > 0:
    ...         y = x / d           # d all zeros: plainly warns only when taken
    ...     else:
    ...         y = x * 2
    ...     return y
"""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round22_selects")
case = reg.case
scenario = reg.scenario

POS = np.linspace(0.5, 4.0, 12)
NEG = -POS
ZEROS = np.zeros(12)
NANS = np.where(np.arange(12) % 5 == 2, np.nan, POS)
INTS = np.arange(1, 13)
NINTS = -INTS


def sel(fn, *inputs, name=None, calls=2):
    case(fn, *(inputs or ((POS,), (NEG,))), name=name, calls=calls)


# ------------------------------------------------------- the untaken way's conditions

def _div_untaken(x, d):
    if x.sum() > 0:
        y = x / d
    else:
        y = x * 2
    return y


def _log_untaken(x):
    if x.sum() < 0:
        y = -x
    else:
        y = np.log(x)
    return y


def _sqrt_else(x):
    y = np.sqrt(x) if x.min() >= 0 else np.sqrt(-x)
    return y


def _int_floordiv(x, d):
    if x.sum() > 0:
        y = x // d
    else:
        y = x - 1
    return y


def _int_mod(x, d):
    if x.max() > 5:
        y = x % d
    else:
        y = x + d
    return y


def _cast_overflow(x):
    if x.sum() > 0:
        y = (x * 1e20).astype(np.int64)
    else:
        y = x.astype(np.int64)
    return y


def _cast_int8(x):
    if x.sum() > 0:
        y = (x * 100).astype(np.int8)
    else:
        y = x.astype(np.int8)
    return y


def _float16_overflow(x):
    if x.sum() > 0:
        y = (x * 1e5).astype(np.float16)
    else:
        y = x.astype(np.float16)
    return y


def _exp_overflow(x):
    if x.mean() < 0:
        y = np.exp(-x * 300)
    else:
        y = np.exp(x)
    return y


def _subnormal_untaken(x):
    if x.sum() > 0:
        y = x * 1e-310
    else:
        y = x * 3.0
    return y


def _zero_times_inf(x, big):
    if x.sum() > 0:
        y = x * 0.0 * big
    else:
        y = x + 1
    return y


def _fancy_index_untaken(x, idx):
    if x.sum() > 0:
        y = x[idx]
    else:
        y = x[:3]
    return y


def _take_untaken(x, idx):
    y = np.take(x, idx) if x.sum() < 0 else x[:3] * 2
    return y


def _int_power_untaken(x, k):
    if x.sum() > 0:
        y = x ** 2
    else:
        y = k ** x
    return y


def _int_scalar_overflow(x):
    s = x.max()
    if x.sum() > 0:
        y = s * np.int64(2 ** 62)
    else:
        y = s + 1
    return y


sel(_div_untaken, (POS, ZEROS), (NEG, ZEROS), name="div_untaken_zero")
sel(_div_untaken, (NEG, ZEROS), (POS, ZEROS), name="div_untaken_zero_neg_first")
sel(_log_untaken, (NEG,), (POS,), (ZEROS,))
sel(_sqrt_else, (POS,), (NEG,), (NANS,))
sel(_int_floordiv, (INTS, np.zeros(12, np.int64)), (NINTS, np.zeros(12, np.int64)),
    name="int_floordiv_zero")
sel(_int_mod, (INTS, np.zeros(12, np.int64)), (INTS - 10, np.zeros(12, np.int64)),
    name="int_mod_zero")
sel(_cast_overflow)
sel(_cast_int8, (POS,), (NEG,), (NANS,))
sel(_float16_overflow)
sel(_exp_overflow)
sel(_subnormal_untaken)
sel(_zero_times_inf, (POS, np.inf), (NEG, np.inf), name="zero_times_inf")
sel(_fancy_index_untaken, (POS, np.array([0, 1, 99])), (NEG, np.array([0, 1, 99])),
    name="fancy_index_out_of_range")
sel(_fancy_index_untaken, (NEG, np.array([0, 1, 2])), (POS, np.array([0, -1, 5])),
    name="fancy_index_in_range")
sel(_take_untaken, (POS, np.array([0, 50, 2])), (NEG, np.array([0, 1, 2])),
    name="take_out_of_range")
sel(_int_power_untaken, (INTS, np.int64(2)), (NINTS, np.int64(2)), name="int_negative_power")
sel(_int_scalar_overflow, (INTS,), (NINTS,))


# --------------------------------------------------- the caller's settings around the call

def _settings_scenario(fn, inputs, settings, name, errcall=False, warn_error=False):
    def s(r):
        f = r.compile(fn)
        calls = []

        def run(*args):
            old = np.seterrcall(lambda kind, flag: calls.append(kind)) if errcall else None
            try:
                with np.errstate(**settings), warnings.catch_warnings():
                    if warn_error:
                        warnings.simplefilter("error", RuntimeWarning)
                    try:
                        return f(*args)
                    finally:
                        r.see("errcall log", list(calls))
            finally:
                if errcall:
                    np.seterrcall(old)
        for args in inputs + inputs[:1]:
            r.call(run, *args)
            r.call(run, *args)
    s.__name__ = name
    reg.scenario(s)


_DIV_INPUTS = [(NEG, ZEROS), (POS, ZEROS)]
_settings_scenario(_div_untaken, _DIV_INPUTS, {"all": "raise"}, "div_untaken_errstate_raise")
_settings_scenario(_div_untaken, _DIV_INPUTS, {"all": "call"}, "div_untaken_errcall",
                   errcall=True)
_settings_scenario(_div_untaken, _DIV_INPUTS, {"all": "warn"}, "div_untaken_warnings_error",
                   warn_error=True)
_settings_scenario(_div_untaken, _DIV_INPUTS, {"all": "print"}, "div_untaken_errstate_print")
_settings_scenario(_subnormal_untaken, [(NEG,), (POS,)], {"under": "raise"},
                   "subnormal_untaken_under_raise")
_settings_scenario(_subnormal_untaken, [(NEG,), (POS,)], {"under": "call"},
                   "subnormal_untaken_under_call", errcall=True)
_settings_scenario(_cast_int8, [(NEG,), (NANS,), (POS,)], {"invalid": "raise"},
                   "cast_untaken_invalid_raise")
_settings_scenario(_int_floordiv, [(NINTS, np.zeros(12, np.int64)),
                                   (INTS, np.zeros(12, np.int64))], {"divide": "call"},
                   "int_floordiv_untaken_errcall", errcall=True)
_settings_scenario(_int_scalar_overflow, [(NINTS,), (INTS,)], {"over": "raise"},
                   "int_scalar_overflow_raise")
_settings_scenario(_exp_overflow, [(POS,), (NEG,)], {"over": "ignore", "under": "warn"},
                   "exp_untaken_under_warn", warn_error=True)
_settings_scenario(_log_untaken, [(NEG,), (POS,), (ZEROS,)], {"divide": "raise",
                                                                "invalid": "ignore"},
                   "log_untaken_divide_raise")


# ------------------------------------------------------------------ values that differ

def _dtype_differs(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x.astype(np.float32)
    return y


def _shape_differs(x):
    if x.sum() > 0:
        y = x[:6]
    else:
        y = x
    return y


def _zero_d_vs_one_d(x):
    if x.sum() > 0:
        y = x.sum()
    else:
        y = x[:1]
    return y


def _zero_d_array_vs_scalar(x):
    if x.sum() > 0:
        y = np.asarray(x.sum())
    else:
        y = x.max()
    return y


def _float_vs_float32(x):
    y = 1.0 if x.sum() > 0 else np.float32(1.0)
    return y, type(y)


def _zero_vs_neg_zero(x):
    if x.sum() > 0:
        y = 0.0
    else:
        y = -0.0
    return y, x * y


def _one_vs_true(x):
    y = 1 if x.sum() > 0 else True
    return y, x + y


def _int_vs_float(x):
    y = 2 if x.sum() > 0 else 2.0
    return x.astype(np.float32) * y


def _nan_constants(x):
    y = float("nan") if x.sum() > 0 else float("nan")
    return y != y, x + y


def _layout_differs(m):
    if m.sum() > 0:
        y = m.T
    else:
        y = m.copy()
    return y, y.flags.c_contiguous


def _layout_then_ravel(m):
    if m.sum() > 0:
        y = m.T
    else:
        y = m * 1
    z = y.ravel()
    return z, np.shares_memory(z, m)


def _view_vs_copy_returned(x):
    if x.sum() > 0:
        y = x[::2]
    else:
        y = x[1::2] + 0
    return y, x


def _same_array_both(x):
    if x.sum() > 0:
        y = x
    else:
        y = x * 1
    return y is x, y


def _two_names_one_pair(x):
    if x.sum() > 0:
        y = z = x + 1
    else:
        y = x - 1
        z = y
    return y is z, y, z


def _two_names_crossed(x):
    a = x + 1
    b = x - 1
    if x.sum() > 0:
        y, z = a, b
    else:
        y, z = b, a
    return y, z, y is a


def _read_after(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x - 5
    return np.tanh(y).sum(), y.max(), y[3]


def _scalar_kinds(x):
    y = x.sum() if x.sum() > 0 else x.min()
    return y, type(y), y * 2


def _bool_arrays(x):
    if x.sum() > 0:
        m = x > 1
    else:
        m = x < -1
    return m, x[m]


def _complex_ways(x):
    z = x.astype(np.complex128)
    if x.sum() > 0:
        y = z * 1j
    else:
        y = np.conj(z)
    return y


def _readonly_way(x):
    if x.sum() > 0:
        y = np.broadcast_to(x[:1], (12,))
    else:
        y = x + 0
    return y


sel(_dtype_differs)
sel(_shape_differs)
sel(_zero_d_vs_one_d)
sel(_zero_d_array_vs_scalar)
sel(_float_vs_float32)
sel(_zero_vs_neg_zero)
sel(_one_vs_true)
sel(_int_vs_float)
sel(_nan_constants)
sel(_layout_differs, (np.arange(16.0).reshape(4, 4),), (-np.arange(16.0).reshape(4, 4),))
sel(_layout_then_ravel, (np.arange(16.0).reshape(4, 4),), (-np.arange(16.0).reshape(4, 4),))
sel(_view_vs_copy_returned)
sel(_same_array_both)
sel(_two_names_one_pair)
sel(_two_names_crossed)
sel(_read_after)
sel(_scalar_kinds)
sel(_bool_arrays)
sel(_complex_ways)
sel(_readonly_way)


# --------------------------------------------------------------------- the conditions

def _nan_condition(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x * 3
    return y


def _nan_condition_not(x):
    if not x.sum() <= 0:
        y = x * 2
    else:
        y = x * 3
    return y


def _any(a, x):
    y = x + 1 if a.any() else x - 1
    return y


def _all(a, x):
    if a.all():
        y = x * 2
    else:
        y = x / 2
    return y


def _chained(x):
    s = x.mean()
    if 0 < s < 2:
        y = x * 2
    else:
        y = -x
    return y


def _and(x):
    if x.sum() > 0 and x.max() < 3:
        y = x + 1
    else:
        y = x - 1
    return y


def _or(x):
    if x.min() > 0 or x.max() < -3:
        y = x + 1
    else:
        y = x - 1
    return y


def _and_value(x):
    y = (x.sum() > 0) and x.max()
    return y


def _or_value(x):
    y = (x.sum() > 0) or x.min()
    return y


def _bool_of_0d(x):
    y = x * 2 if np.float32(x.sum()) else x * 3
    return y


def _nested(x):
    if x.sum() > 0:
        if x.max() > 3.9:
            y = x * 2
        else:
            y = x * 3
    else:
        if x.min() < -3.9:
            y = -x
        else:
            y = x / 7
    return y


def _nested_expr(x):
    s = x.sum()
    y = (x + 1 if s > 10 else x + 2) if s > 0 else (x - 1 if s < -10 else x - 2)
    return y


def _is_nan_condition(x):
    s = x.sum()
    y = x * 0 if np.isnan(s) else x / s
    return y


def _equal_condition(x, v):
    y = x + 1 if x.max() == v else x - 1
    return y


MIXED = np.concatenate([POS[:6], NEG[:6]])
sel(_nan_condition, (NANS,), (POS,), (NEG,))
sel(_nan_condition_not, (NANS,), (POS,), (NEG,))
sel(_any, (np.zeros(5, bool), POS), (np.eye(3, dtype=bool), POS), (np.array([]), POS),
    name="any_condition")
sel(_all, (np.ones(5, bool), POS), (np.array([True, False]), POS), (np.array([], bool), POS),
    name="all_condition")
sel(_chained, (POS / 3,), (POS,), (NEG,), (NANS,))
sel(_and, (POS / 2,), (POS,), (NEG,), (NANS,))
sel(_or, (POS,), (NEG * 2,), (MIXED,), (NANS,))
sel(_and_value, (POS,), (NEG,), (NANS,))
sel(_or_value, (POS,), (NEG,), (NANS,))
sel(_bool_of_0d, (POS,), (MIXED,), (ZEROS,))
sel(_nested, (POS,), (POS / 2,), (NEG,), (NEG / 2,))
sel(_nested_expr, (POS,), (POS / 10,), (NEG,), (NEG / 10,))
sel(_is_nan_condition, (NANS,), (POS,), (ZEROS,))
sel(_equal_condition, (POS, 4.0), (POS, 3.0), (NANS, np.nan), name="equal_condition")
