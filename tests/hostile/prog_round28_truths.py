"""Round 28, ``not``, ``~``, ``-`` and ``+`` of size comparisons and of data-dependent
counts kept in the graph (``translator/operators.py`` ``_negated``,
``variables/size_values.py`` ``truth_not``, ``truth_number``; ``variables/
conversions.negated_truth`` for NumPy bools). The programs check the exact Python type
(``not`` gives a bool, ``-``/``+``/``~`` of a bool an int, ``~`` of ``np.bool_`` an
``np.bool_``), ``~`` of a bool's DeprecationWarning from 3.12 (once per call), nested
``not``, ``not`` of a count itself (``not n``), the negated bool stored, compared with
``is``, formatted, used as an index or a multiplier, and then jumped on; inputs change
the count (0, some, all selected) and the length (dynamic sizes).

    >>> def _not_count(x):
    ...     n = len(x[x > 0])
    ...     return not (n > 0), -(n > 0), ~(n > 1)
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round28_truths")
case = reg.case
scenario = reg.scenario

X_SOME = np.array([1.0, -2.0, 3.0, -4.0, 5.0])
X_NONE = -np.ones(5)
X_ALL = np.arange(1.0, 6.0)
X_NAN = np.array([np.nan, 1.0, -1.0, 2.0, -2.0])
X_LONG = np.linspace(-3.0, 3.0, 9)
X_ONE = np.array([2.0])
X_EMPTY = np.zeros(0)
INPUTS = tuple((x,) for x in (X_SOME, X_NONE, X_ALL, X_NAN, X_LONG, X_ONE, X_EMPTY))


def _types(*values):
    return [(type(v).__name__, v) for v in values]


def _not_count(x):
    n = len(x[x > 0])
    return _types(not (n > 0), not (n == 0), not (n >= 3), not (n != 1))


def _neg_count(x):
    n = len(x[x > 0])
    return _types(-(n > 0), +(n > 2), -(n == 0) * 3, +(n < 4) + 1)


def _invert_count(x):
    n = len(x[x > 0])
    return _types(~(n > 0), ~(n == 0))


def _invert_in_arith(x):
    n = len(x[x > 0])
    return x * ~(n > 1), (~(n < 2)) + n


def _not_not(x):
    n = len(x[x > 0])
    return _types(not (not (n > 0)), not (not (not (n > 2))))


def _neg_of_not(x):
    n = len(x[x > 0])
    return _types(-(not (n > 0)), +(not (n > 0)), (not (n > 2)) * 5, (not (n > 1)) + 0.5)


def _invert_of_not(x):
    n = len(x[x > 0])
    return _types(~(not (n > 0)))


def _not_then_if(x):
    n = len(x[x > 0])
    empty = not (n > 0)
    if empty:
        return "empty", x.sum()
    return "some", x[x > 0].sum()


def _not_in_if_directly(x):
    n = len(x[x > 0])
    if not (n > 2):
        return 0.0
    return float(x.max())


def _not_stored_in_list(x):
    n = len(x[x > 0])
    flags = [not (n > 0), not (n > 1), -(n > 2)]
    return flags, sum(flags), flags.count(True), flags.index(False) if False in flags else -1


def _not_is(x):
    n = len(x[x > 0])
    b = not (n > 0)
    return b is True, b is False, b == 0, b == 1.0, type(b) is bool


def _not_format(x):
    n = len(x[x > 0])
    b = not (n > 1)
    return f"{b}", str(b), repr(b), f"{-(n > 1)}", "%d %s" % (b, b), f"{b:>6}"  # noqa: UP031


def _not_as_index(x):
    n = len(x[x > 0])
    b = not (n > 0)
    return x[int(b)], x[-(n > 1)], (1, 2)[b], [7, 8, 9][-(n > 0)]


def _not_dict_key(x):
    n = len(x[x > 0])
    d = {True: "t", False: "f", 1: "one?"}  # noqa: F601 (1 replaces True's value)
    return d[not (n > 0)], {not (n > 0): 1}, hash(not (n > 0))


def _not_of_count_itself(x):
    n = len(x[x > 0])
    return _types(not n, -n, +n, ~n, not (n + 0), not (n - n))


def _neg_nonzero_count(x):
    n = int(np.count_nonzero(x > 0))
    return _types(not n, -n, ~n, not (n > 0), -(n > 0))


def _not_of_shape(x):
    m = x.shape[0]
    return _types(not (m > 3), -(m > 3), +(m < 2), ~(m == 5), not m, not (m % 2))


def _not_of_size(x):
    m = x.size
    return _types(not (m >= 5), not (len(x) == 5), -(x.ndim > 0))


def _not_of_numpy_bool(x):
    s = x.sum()
    return _types(not (s > 0), ~(s > 0), -(x[0] > 0) if x.size else None, not s)


def _invert_numpy_bool_array(x):
    return ~(x > 0), np.logical_not(x > 0), not (x > 0).any(), ~(x > 0).all()


def _not_and_or(x):
    n = len(x[x > 0])
    a, b = not (n > 0), not (n > 2)
    return _types(a and b, a or b, a & b, a | b, a ^ b, a & (n < 9))


def _not_compare_chain(x):
    n = len(x[x > 0])
    return _types(not (0 < n < 3), not (n > 0) == (n == 0), (not (n > 0)) < 1)


def _not_max_min(x):
    n = len(x[x > 0])
    return _types(max(not (n > 0), -(n > 0)), min(-(n > 0), ~(n > 5)), abs(-(n > 0)))


def _not_arith_float(x):
    n = len(x[x > 0])
    return _types((not (n > 0)) / 2, -(n > 0) ** 2, (not (n > 1)) // 1, divmod(-(n > 0), 2))


def _not_bool_call(x):
    n = len(x[x > 0])
    return _types(bool(not (n > 0)), int(not (n > 0)), float(-(n > 0)), complex(~(n > 0)))


def _not_loop(x):
    total = 0
    for k in range(3):
        n = len(x[x > k])
        total += -(n > 0) + (not (n > 1))
    return total


def _not_with_print(x):
    n = len(x[x > 0])
    b = not (n > 0)
    print("empty:", b, -(n > 0))
    return b


def _not_count_then_array(x):
    n = len(x[x > 0])
    return np.full(3, not (n > 0)), np.array([-(n > 0), not (n > 0)]), np.zeros(n + (n > 0))


def _not_of_two_counts(x):
    a = len(x[x > 0])
    b = len(x[x < 0])
    return _types(not (a > b), -(a == b), not (a + b > 3), ~(a >= b))


def _walrus_not(x):
    if (e := not (len(x[x > 0]) > 0)):
        return "none", e
    return "some", e


def _not_ternary(x):
    n = len(x[x > 0])
    return "a" if not (n > 0) else "b", (n if not (n > 2) else -n)


def _not_returned_alone(x):
    return not (len(x[x > 0]) > 1)


def _neg_returned_alone(x):
    return -(len(x[x > 0]) > 1)


def _invert_returned_alone(x):
    return ~(len(x[x > 0]) > 1)


def _not_while(x):
    k = 0
    while not (len(x[x > k]) == 0) and k < 10:
        k += 1
    return k


def _not_in_comprehension(x):
    return [not (len(x[x > t]) > 0) for t in (-1, 0, 1)]


def _not_assert(x):
    n = len(x[x > 0])
    try:
        assert not (n > 4), "too many"
    except AssertionError as e:
        return "assert", str(e)
    return "ok"


def _not_raise(x):
    n = len(x[x > 0])
    ok = not (n == 0)
    try:
        if not ok:
            raise ValueError("no positives")
        return x[x > 0].mean()
    except ValueError as e:
        return str(e)


def _sum_of_bools(x):
    n = len(x[x > 0])
    return _types(sum([not (n > 0), -(n > 0), ~(n > 0), +(n > 0)]))


for _fn in (_not_count, _neg_count, _invert_count, _invert_in_arith, _not_not, _neg_of_not,
            _invert_of_not, _not_then_if, _not_in_if_directly, _not_stored_in_list, _not_is,
            _not_format, _not_as_index, _not_dict_key, _not_of_count_itself,
            _neg_nonzero_count, _not_of_shape, _not_of_size, _not_of_numpy_bool,
            _invert_numpy_bool_array, _not_and_or, _not_compare_chain, _not_max_min,
            _not_arith_float, _not_bool_call, _not_loop, _not_with_print,
            _not_count_then_array, _not_of_two_counts, _walrus_not, _not_ternary,
            _not_returned_alone, _neg_returned_alone, _invert_returned_alone, _not_while,
            _not_in_comprehension, _not_assert, _not_raise, _sum_of_bools):
    case(_fn, *INPUTS)


@scenario
def s_invert_warns_each_call(r):
    """``~(n > 0)`` warns (3.12+) on every call, also the cached ones."""
    f = r.compile(_invert_count)
    for x in (X_SOME, X_SOME, X_NONE, X_SOME, X_LONG, X_LONG):
        r.call(f, x)


@scenario
def s_invert_warning_as_error(r):
    """The DeprecationWarning made an error by the caller's filter (3.12+ raises)."""
    import warnings

    def g(x):
        n = len(x[x > 0])
        try:
            return ~(n > 0)
        except DeprecationWarning as e:
            return "dep", str(e)
    f = r.compile(g)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for x in (X_SOME, X_NONE, X_SOME):
            try:
                r.see("result", f(x))
            except DeprecationWarning as e:
                r.see("raised", str(e))


# ------------------------------------------------------------------ the bool and int meet NumPy

def _bool_as_array_index(x):
    n = len(x[x > 0])
    b = not (n > 0)
    return x[b], x[not b], x[b].shape     # a bool index adds an axis (True) or empties


def _bool_slice_bounds(x):
    n = len(x[x > 0])
    return x[:not (n > 0)], x[-(n > 1):], x[::1 + (not (n > 2))]


def _int_of_bool_with_int8(x):
    n = len(x[x > 0])
    xi = np.arange(-3, 3, dtype=np.int8)
    return xi * ~(n > 0), xi + -(n > 1), (xi * (not (n > 2))).dtype


def _uint8_out_of_bounds(x):
    n = len(x[x > 0])
    xu = np.arange(4, dtype=np.uint8)
    try:
        return xu * -(n > 0)
    except OverflowError as e:
        return "overflow", str(e)


def _uint8_invert(x):
    n = len(x[x > 0])
    xu = np.arange(4, dtype=np.uint8)
    try:
        return xu + ~(n > 2)
    except OverflowError as e:
        return "overflow", str(e)


def _float32_times_bool(x):
    n = len(x[x > 0])
    x32 = x.astype(np.float32)
    return x32 * (not (n > 0)), (x32 - -(n > 1)).dtype, x32.sum() * ~(n > 0)


def _np_scalar_and_bool(x):
    n = len(x[x > 0])
    s = x.sum()
    return _types(s * (not (n > 0)), np.float32(2) + -(n > 0), np.int8(3) * ~(n > 3))


def _bool_repeat_sequences(x):
    n = len(x[x > 0])
    return [0] * (not (n > 0)), "ab" * -(n > 0), (1, 2) * (1 + (not (n > 1)))


def _bool_range(x):
    n = len(x[x > 0])
    return list(range(not (n > 0))), list(range(-(n > 0), 2)), list(range(3))[~(n > 0)]


def _bool_sizes(x):
    n = len(x[x > 0])
    return np.zeros(3 - (n > 0)), np.ones(1 + (not (n > 0))), np.arange(~(n > 0), 2)


def _bool_attributes(x):
    n = len(x[x > 0])
    b = not (n > 0)
    i = -(n > 0)
    return b.real, b.bit_length(), i.bit_length(), isinstance(b, int), b.__class__.__name__


def _bool_in_containers(x):
    n = len(x[x > 0])
    b = not (n > 0)
    return b in (True,), {b: 1}.get(True), [b].count(False), {b, -(n > 0)}


def _not_of_array_truths(x):
    out = []
    for v in (x[:1], x[:0], x[:2], x[0] if x.size else 0.0, np.array(0.0), np.array(-0.0)):
        try:
            out.append(not v)
        except ValueError as e:
            out.append(str(e))
    return out


def _not_of_nan_scalar(x):
    s = x.sum()
    m = x.max() if x.size else np.float64(0.0)
    return _types(not s, not m, not (s != s), not (m < 0), ~(m == m))


for _fn in (_bool_as_array_index, _bool_slice_bounds, _int_of_bool_with_int8,
            _uint8_out_of_bounds, _uint8_invert, _float32_times_bool, _np_scalar_and_bool,
            _bool_repeat_sequences, _bool_range, _bool_sizes, _bool_attributes,
            _bool_in_containers, _not_of_array_truths, _not_of_nan_scalar):
    case(_fn, *INPUTS)


# ------------------------------------------------------------------ not before and/or jumps

def _not_or_value(x):
    n = len(x[x > 0])
    a = not (n > 0) or "nonempty"
    b = not (n > 2) and "few"
    return a, b, (not (n > 1)) or -(n > 1), -(n > 0) or x.size


def _if_not_and_not(x):
    n = len(x[x > 0])
    m = len(x[x < 0])
    if not (n > 0) and not (m > 0):
        return "neither"
    if not (n > 0) or not (m > 0):
        return "one"
    return "both"


def _return_not_and(x):
    n = len(x[x > 0])
    return not (n > 0) and "empty"


def _not_in_lambda(x):
    f = lambda t: not (len(x[x > t]) > 0)  # noqa: E731
    return f(0), f(10), [f(t) for t in range(-1, 2)]


def _not_any_all(x):
    ns = [len(x[x > t]) for t in (-1, 0, 1)]
    return any(not (n > 0) for n in ns), all(-(n > 0) for n in ns), [not (n > 0) for n in ns]


for _fn in (_not_or_value, _if_not_and_not, _return_not_and, _not_in_lambda, _not_any_all):
    case(_fn, *INPUTS)
