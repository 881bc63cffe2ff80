"""Round 38, flow: values whose *kind* the data decides. An ``if`` on array data that
chooses between a NumPy scalar and a Python number (``BranchChoiceVariable``,
``dynamo/translator/branch_selects.py``) and the chosen value then used as a dict key,
in ``is``/``type()``/``isinstance`` checks, formatted, compared, as an index, returned,
stored, beside arrays of other dtypes; and ``names[i]`` of a list at a graph-computed
index (``prog_round38_flow_picks.py``). Texts and triangular solves are in
``prog_round38_flow_texts.py`` and ``prog_round38_flow_solves.py`` (the same category).

    >>> def _ratio(x):
    ...     d = x.sum()
    ...     p = x[0] / d if d > 0 else 0.0      # np.float64 or the float 0.0
    ...     return p, type(p).__name__
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round38_flow")
POS = np.array([1.0, 2.0, 3.0, 4.0])
NEG = np.array([-1.0, -2.0, 0.5, -4.0])
NANS = np.array([math.nan, 1.0, 2.0, 3.0])
ZERO = 0.0
SETS = ((POS,), (NEG,), (NANS,))


# ---------------------------------------------------------------- chosen values
def _ratio(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    return p


def _ratio_type(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    return type(p).__name__, type(p) is float


def _ratio_isinstance(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    return isinstance(p, float), isinstance(p, np.floating), isinstance(p, np.generic)


def _ratio_is_zero(x):
    d = x.sum()
    p = x[0] / d if d > 0 else ZERO
    return p is ZERO, x * 2


def _ratio_key(x, table):
    d = x.sum()
    p = x.max() if d > 0 else 0
    return table.get(p, "missing"), x + 1


def _ratio_key_stored(x, table):
    d = x.sum()
    p = x.max() if d > 0 else 0.0
    table[p] = len(table)
    return x * 2


def _ratio_fstring(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    return f"{p:.3f}|{p!r}|{p}"


def _ratio_repr(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    return repr(p), str(p)


def _ratio_eq_int(x):
    d = x.sum()
    p = x.max() if d > 0 else 0
    return p == 0, type(p == 0).__name__


def _ratio_index(x, names):
    d = x.sum()
    k = x.argmax() if d > 0 else -1
    return names[k]


def _ratio_stored(x, o):
    d = x.sum()
    o.p = x[0] / d if d > 0 else 0.0
    return x - 1


def _ratio_appended(x, out):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    out.append(p)
    return x * 3


def _ratio_times_array(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    return x * p, p


def _int_or_float(x):
    d = x.sum()
    p = x.max() if d > 0 else 0     # an int one way
    return x * p, p


def _int_array_times(x):            # int64 * np.float64 vs int64 * 0: dtypes differ
    d = x.sum()
    p = d / 2 if d > 0 else 0
    return x * p


def _none_or_scalar(x):
    d = x.sum()
    p = x.max() if d > 0 else None
    return p is None, p


def _none_used(x):
    d = x.sum()
    p = x.max() if d > 0 else None
    try:
        return x * p
    except TypeError as e:
        return str(e)


def _float32_or_float(x):
    d = x.sum()
    p = np.float32(x[0]) if d > 0 else 0.5
    return x.astype(np.float32) * p, p


def _float32_array_times(x):        # float32 array * np.float64 is float64, * 0.5 float32
    y = x.astype(np.float32)
    d = x.sum()
    p = x[1] if d > 0 else 0.5
    return y * p


def _bool_scalar_or_int(x):
    d = x.sum()
    p = (x > 0).all() if d > 0 else 0
    return x.astype(np.int8) * p, p


def _bool_scalar_or_one(x):
    d = x.sum()
    p = (x > 0).any() if d > 0 else 1
    return x.astype(np.int8) + p


def _int8_scalar_or_int(x):
    y = x.astype(np.int8)
    d = x.sum()
    p = y[1] if d > 0 else 3
    return y * p, type(p).__name__


def _uint8_scalar_or_neg(x):
    y = np.abs(x).astype(np.uint8)
    d = x.sum()
    p = y[1] if d > 0 else -1
    try:
        return y + p
    except OverflowError as e:
        return str(e)


def _complex_or_float(x):
    d = x.sum()
    p = x[0] * 1j if d > 0 else 0.0
    return x * p, p


def _float16_or_float(x):
    d = x.sum()
    p = x.astype(np.float16)[2] if d > 0 else 0.25
    return x.astype(np.float16) * p, p


def _zero_d_array(x):
    d = np.asarray(x.sum())
    p = d if d > 0 else 0.0
    return type(p).__name__, p


def _chosen_twice(x):
    d = x.sum()
    p = q = x[0] / d if d > 0 else 0.0
    return p is q, x * p + q


def _chosen_neg_zero(x):
    d = x.sum()
    p = x[0] / d if d > 0 else -0.0
    return x * p, p


def _condition_raises(x):
    try:
        p = x[0] if x[4] > 0 else 0.0
    except IndexError as e:
        return str(e)
    return p


def _condition_ambiguous(x):
    try:
        p = x[0] if x[:2] > 0 else 0.0
    except ValueError as e:
        return type(e).__name__
    return p


def _untaken_divides(x):            # the untaken way divides by zero
    d = x.sum()
    p = x[0] / d if d != 0 else 0.0
    return x * p


def _choice_compared(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    if p > 0.1:
        return x * 2
    return x


def _choice_in_loop_after(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    acc = []
    for k in range(3):
        acc.append(p * k)
    return acc


def _choice_int_index(x, seq):
    d = x.sum()
    k = x.argmin() if d > 0 else 0
    return seq[k], x[k]


def _choice_bool(x):
    d = x.sum()
    p = x.max() if d > 0 else 0.0
    return bool(p), not p, int(p) if not math.isnan(p) else -1


def _choice_hash(x):
    d = x.sum()
    p = x.max() if d > 0 else 0.0
    return hash(p), {p}


def _choice_round(x):
    d = x.sum()
    p = x.mean() if d > 0 else 1.5
    return round(p), round(p, 1), type(round(p)).__name__


def _choice_math(x):
    d = x.sum()
    p = x.mean() if d > 0 else 2.0
    return math.sqrt(abs(p)), abs(p)


def _choice_max_python(x):
    d = x.sum()
    p = x.mean() if d > 0 else 0.0
    return max(p, 0.5), min(p, 2)


def _choice_returned_pair(x):
    d = x.sum()
    if d > 0:
        return x[0] / d
    return 0.0


class Box:
    def __init__(self):
        self.p = None


for _fn in (_ratio, _ratio_type, _ratio_isinstance, _ratio_is_zero, _ratio_fstring,
            _ratio_repr, _ratio_eq_int, _ratio_times_array, _int_or_float,
            _none_or_scalar, _none_used, _float32_or_float, _float32_array_times,
            _bool_scalar_or_int, _bool_scalar_or_one, _int8_scalar_or_int,
            _uint8_scalar_or_neg, _complex_or_float, _float16_or_float, _zero_d_array,
            _chosen_twice, _chosen_neg_zero, _untaken_divides, _choice_compared,
            _choice_in_loop_after, _choice_bool, _choice_hash, _choice_round,
            _choice_math, _choice_max_python, _choice_returned_pair):
    reg.case(_fn, *SETS, calls=2)

reg.case(_int_array_times, (np.arange(4),), (-np.arange(4),), calls=2)
reg.case(_ratio_key, (POS, {4.0: "four", 0: "zero"}), (NEG, {4.0: "four", 0: "zero"}),
         calls=2)
reg.case(_ratio_key_stored, (POS, {}), (NEG, {0: "z"}), calls=2)
reg.case(_ratio_index, (POS, ["a", "b", "c", "d"]), (NEG, ["a", "b", "c", "d"]), calls=2)
reg.case(_ratio_stored, (POS, Box()), (NEG, Box()), calls=2)
reg.case(_ratio_appended, (POS, []), (NEG, [1]), calls=2)
reg.case(_condition_raises, (POS,), (POS[:3],), calls=2)
reg.case(_condition_ambiguous, (POS,), (NEG,), calls=2)
reg.case(_choice_int_index, (POS, ("a", "b", "c", "d")), (NEG, ["w", "x", "y", "z"]),
         calls=2)


def _s_none_checked_by_if(r):
    """``if p is None`` (a jump on None, not ``is``) of a value that may be None."""
    def f(x):
        p = x.max() if x.sum() > 0 else None
        if p is None:
            return -x
        return x * p
    g = r.compile(f)
    for x in (POS, NEG, NANS, NEG, POS):
        r.call(g, x)


reg._add("none_checked_by_if", _s_none_checked_by_if, "")


# ---------------------------------------------------------------- more: odd Python
# numbers on the other way, a changing default, two names chosen by one flag
def _else_nan(x):
    d = x.sum()
    p = x.max() if d > 0 else math.nan
    return x * p, p


def _else_inf(x):
    d = x.sum()
    p = x.min() if d > 0 else -math.inf
    return x - p, p


def _else_huge_int(x):
    d = x.sum()
    p = x.argmax() if d > 0 else 10**30
    try:
        return np.arange(4) * p
    except OverflowError as e:
        return str(e)


def _else_int64_edge(x):
    d = x.sum()
    p = x.argmax() if d > 0 else 2**63 - 1
    return np.arange(4) + p, p


def _else_default(x, default):
    d = x.sum()
    p = x.max() if d > 0 else default
    return x * p, p


def _two_names(x):
    d = x.sum()
    if d > 0:
        p = x[0] / d
        q = 0
    else:
        p = 0.0
        q = x.argmin()
    return x * p, q, type(p).__name__, type(q).__name__


for _fn in (_else_nan, _else_inf, _else_huge_int, _else_int64_edge, _two_names):
    reg.case(_fn, *SETS, calls=2)
reg.case(_else_default, (POS, 1.0), (NEG, 2.0), (NEG, 3.5), (NEG, 7), (NEG, None), calls=1)

# ---------------------------------------------------------------- more: the choice made in
# a helper, passed to one, printed, put in containers, converted
def _safe_div(a, b):
    return a / b if b > 0 else 0.0


def _kind_of(p):
    return "float" if type(p) is float else "numpy"


def _helper_chooses(x):
    r = _safe_div(x[0], x.sum())
    return x * r, r


def _helper_chooses_typed(x):
    r = _safe_div(x[0], x.sum())
    return _kind_of(r), r


def _passed_to_helper(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    return _kind_of(p), x + p


def _printed(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    print("p =", p)
    print(f"{p!r}")
    return x * 2


def _in_containers(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    return [p] * 2, (p,) + (1,), {"p": p}, dict(p=p)


def _converted(x):
    d = x.sum()
    p = x.argmax() if d > 0 else 1
    return np.float64(p), np.int8(p), np.asarray(p).dtype, complex(p)


def _while_on_choice(x):
    d = x.sum()
    p = x[0] / d if d > 0 else 0.0
    k = 0
    while p < 0.2 and k < 3:
        p = p + 0.1
        k += 1
    return k, p


for _fn in (_helper_chooses, _helper_chooses_typed, _passed_to_helper, _printed,
            _in_containers, _converted, _while_on_choice):
    reg.case(_fn, *SETS, calls=2)
