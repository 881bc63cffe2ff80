"""Round 31, truths of data-dependent size comparisons (``variables/size_values.py``,
``translator/size_and_or.py``): ``not``, ``~``, ``-``, ``==`` and ``^`` of them, ``and``
and ``or`` of two and three, chained comparisons (``0 < n <= m``), the truths used as ints
(``+``, ``*``, ``sum``), as indices (of a list, a tuple, an array: ``x[True]`` adds an
axis), as dict keys, in f-strings (``{t}``, ``{t!r}``, ``{t:d}``, ``{t:>6}``), through
``bool``/``int``/``str``/``np.array``, and short-circuits whose right operand Python must
not evaluate: ``len(a) > 0 and a[0] > 0`` (IndexError when evaluated at no element),
``a.max()`` (ValueError), ``a.mean()`` (a warning), ``10 // m`` (ZeroDivisionError), a
callee that appends to a list or prints, ``next`` of an iterator.

    >>> def _guarded_first(x, y, log):
    ...     a = x[x > 0]
    ...     return len(a) > 0 and a[0] > 0.5
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round31_truths")

_RNG = np.random.default_rng(312)
_V = _RNG.normal(size=8)

# (x, y, log): counts of x > 0 and y > 0: (0, 0), (1, 0), (0, 3), (3, 5), (8, 8)
INPUTS = (
    (-np.abs(_V), -np.abs(_V[:5]), []),
    (np.array([-1.0, 2.0, -3.0]), -np.abs(_V[:4]), []),
    (-np.abs(_V[:6]), np.array([1.0, -1.0, 2.0, 3.0]), []),
    (np.array([0.4, -1.0, 0.7, 2.0]), np.abs(_V[:5]), []),
    (np.abs(_V) + 0.1, np.abs(_V) + 1.0, []),
)


def _sizes(x, y):
    return len(x[x > 0]), len(y[y > 0])


# --------------------------------------------------------------------- not, ~, -, ==

def _not(x, y, log):
    n, m = _sizes(x, y)
    return not (n > 0), not n > 2, x * (not (m > 0))


def _invert(x, y, log):
    n, m = _sizes(x, y)
    return ~(n > 0), ~(m == 0) + 1


def _negate(x, y, log):
    n, m = _sizes(x, y)
    return -(n > 0), -(n > 0) * x.size, +(m >= 3)


def _equal_truths(x, y, log):
    n, m = _sizes(x, y)
    return (n > 0) == (m > 0), (n > 0) != (m > 2), (n > 0) is True


def _xor_truths(x, y, log):
    n, m = _sizes(x, y)
    return (n > 0) ^ (m > 0), (n > 0) & (m > 0), (n > 0) | (m > 0)


def _if_not(x, y, log):
    n, m = _sizes(x, y)
    if not (n > 0):
        return x * 0
    return x * 2


# --------------------------------------------------------------------- and / or

def _and_two(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and m > 0


def _or_two(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 or m > 2


def _and_three(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and m > 0 and n < m


def _or_and_mixed(x, y, log):
    n, m = _sizes(x, y)
    return n > 2 or m > 0 and n == 0


def _not_of_or(x, y, log):
    n, m = _sizes(x, y)
    return not (n > 0 or m > 0), not (n > 0 and m > 0)


def _and_returns_int(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and m


def _int_and_truth(x, y, log):
    n, m = _sizes(x, y)
    return n and m > 0


def _and_in_if(x, y, log):
    n, m = _sizes(x, y)
    if n > 0 and m > 0:
        return x.sum() + y.sum()
    return -1.0


def _and_in_ternary(x, y, log):
    n, m = _sizes(x, y)
    return x * 2 if n > 0 or m > 0 else x - 1


def _and_with_python_bool(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and True, False or m > 0, n > 0 and x.size > 4


def _and_with_float_compare(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and float(x.sum()) > 0


# --------------------------------------------------------------------- chained

def _chain_two(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n <= m, 0 <= n < 4


def _chain_three(x, y, log):
    n, m = _sizes(x, y)
    return 0 <= n <= m <= 8, n == m == 0


def _chain_not(x, y, log):
    n, m = _sizes(x, y)
    return not 0 < n < 5


def _chain_in_if(x, y, log):
    n, m = _sizes(x, y)
    if 1 <= n < m:
        return y[:n]
    return x[:m]


# --------------------------------------------------------------------- as numbers

def _as_ints(x, y, log):
    n, m = _sizes(x, y)
    return (n > 0) + (m > 2), (n > 0) * 3.5, int(n > 0), float(m > 0)


def _as_sum(x, y, log):
    n, m = _sizes(x, y)
    return sum([n > 0, m > 0, n > m]), any([n > 3, m > 3]), all([n >= 0, m > 0])


def _as_weights(x, y, log):
    n, m = _sizes(x, y)
    return x * (n > 0) + (m > 0) * 2.0


def _as_max(x, y, log):
    n, m = _sizes(x, y)
    return max(n > 0, m > 2), min(n > 0, m > 0) + 0


def _as_numpy(x, y, log):
    n, m = _sizes(x, y)
    return np.array(n > 0), np.float64(m > 0), np.int8(n > 0) - np.int8(1)


def _as_divisor(x, y, log):
    n, m = _sizes(x, y)
    try:
        return 10 / (n > 0)
    except ZeroDivisionError as e:
        return str(e)


# --------------------------------------------------------------------- as indices and keys

def _index_list(x, y, log):
    n, m = _sizes(x, y)
    return ["none", "some"][n > 0], ("a", "b")[n > 0 and m > 0]


def _index_array(x, y, log):
    n, m = _sizes(x, y)
    return x[n > 0], x[m > 0].shape


def _index_array_int(x, y, log):
    n, m = _sizes(x, y)
    return x[int(n > 0)], x[(n > 0) + (m > 0)]


def _dict_key(x, y, log):
    n, m = _sizes(x, y)
    d = {True: "yes", False: "no"}
    d[1] = "one"                     # the same key as True
    return d[n > 0], {n > 0: 1, m > 0: 2}


def _slice_bound(x, y, log):
    n, m = _sizes(x, y)
    return x[(n > 0):(m > 0) + 2], y[: -(n > 0) or None]


# --------------------------------------------------------------------- texts

def _fstring(x, y, log):
    n, m = _sizes(x, y)
    return f"{n > 0} {m > 0!r} {(n > 0) and (m > 0)}"


def _fstring_formats(x, y, log):
    n, m = _sizes(x, y)
    return f"{n > 0:d}|{m > 0:>6}|{n > 0:^7}|{not n > 0}"


def _str_repr(x, y, log):
    n, m = _sizes(x, y)
    return str(n > 0) + repr(m > 0), "%s %d" % (n > 0, m > 0)  # noqa: UP031 (its own path)


def _print_truth(x, y, log):
    n, m = _sizes(x, y)
    print("has", n > 0, "both", n > 0 and m > 0)
    return x.size


# --------------------------------------------------------------------- short circuits

def _guarded_first(x, y, log):
    a = x[x > 0]
    return len(a) > 0 and a[0] > 0.5


def _guarded_last(x, y, log):
    a = y[y > 0]
    return len(a) == 0 or a[-1] > 1.0


def _guarded_max(x, y, log):
    a = x[x > 0]
    return len(a) > 0 and a.max() > 1.0


def _guarded_mean(x, y, log):
    a = x[x > 0]
    return len(a) == 0 or a.mean() > 1.0


def _guarded_division(x, y, log):
    n, m = _sizes(x, y)
    return m > 0 and 10 // m > 2


def _guarded_float_division(x, y, log):
    n, m = _sizes(x, y)
    return n == 0 or 1.0 / n > 0.3


def _right_appends(x, y, log):
    n, m = _sizes(x, y)

    def check(k):
        log.append(k)
        return k > 1
    return n > 0 and check(m)


def _right_prints(x, y, log):
    n, m = _sizes(x, y)

    def check(k):
        print("checked", k)
        return k > 1
    return n > 0 or check(m)


def _right_next(x, y, log):
    n, m = _sizes(x, y)
    it = iter([True, False])
    first = n > 0 and next(it)
    return first, next(it, "done")


def _right_raises(x, y, log):
    n, m = _sizes(x, y)

    def check(k):
        raise RuntimeError(f"evaluated at {k}")
    try:
        return n > 0 or check(m)
    except RuntimeError as e:
        return str(e)


def _right_index_error(x, y, log):
    n, m = _sizes(x, y)
    items = [1.0] * m
    return m > 0 and items[m - 1] > 0


def _right_array_write(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and bool(np.copyto(x, 0.0) is None)


def _right_nested_and(x, y, log):
    a = x[x > 0]
    b = y[y > 0]
    return len(a) > 0 and len(b) > 0 and a[0] + b[0] > 1.0


BODIES = (_not, _invert, _negate, _equal_truths, _xor_truths, _if_not, _and_two, _or_two,
          _and_three, _or_and_mixed, _not_of_or, _and_returns_int, _int_and_truth,
          _and_in_if, _and_in_ternary, _and_with_python_bool, _and_with_float_compare,
          _chain_two, _chain_three, _chain_not, _chain_in_if, _as_ints, _as_sum,
          _as_weights, _as_max, _as_numpy, _as_divisor, _index_list, _index_array,
          _index_array_int, _dict_key, _slice_bound, _fstring, _fstring_formats, _str_repr,
          _print_truth, _guarded_first, _guarded_last, _guarded_max, _guarded_mean,
          _guarded_division, _guarded_float_division, _right_appends, _right_prints,
          _right_next, _right_raises, _right_index_error, _right_array_write,
          _right_nested_and)

for _body in BODIES:
    reg.case(_body, *INPUTS)
# the counts from many down to none (the first trace sees every truth true)
for _body in (_not, _invert, _and_two, _or_two, _and_three, _chain_two, _as_ints,
              _index_array, _fstring, _guarded_first, _guarded_max, _guarded_mean,
              _guarded_division, _right_appends, _right_prints, _right_raises,
              _right_index_error, _right_nested_and):
    reg.case(_body, *INPUTS[::-1], name=_body.__name__.lstrip("_") + "_down")


# --------------------------------------------------------------------- right operands
# that look pure but are not, or whose type differs from a size truth's

class _Spy:
    """``ready`` counts its reads: a read Python does not make shows in ``reads``."""

    def __init__(self):
        self.reads = 0

    @property
    def ready(self):
        self.reads += 1
        return True


_FLAG = True


def _flip_flag(k):
    global _FLAG
    _FLAG = k % 2 == 0


def _set_flag():
    global _FLAG
    _FLAG = True


def _right_property(x, y, log):
    n, m = _sizes(x, y)
    spy = _Spy()
    return (n > 0 and spy.ready), spy.reads


def _right_global_flag(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and _FLAG, m > 0 or _FLAG


def _right_numpy_bool(x, y, log):
    n, m = _sizes(x, y)
    r = n > 0 and np.bool_(m > 1)
    return r, type(r).__name__


def _right_array_compare(x, y, log):
    n, m = _sizes(x, y)
    r = n > 0 and x.size > 3
    return r, type(r).__name__


def _right_none(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and None, m > 0 or None


def _right_zero_d(x, y, log):
    n, m = _sizes(x, y)
    r = n > 0 and (x[:1] > 0).all()
    return r, type(r).__name__


def _right_walrus(x, y, log):
    n, m = _sizes(x, y)
    t = None
    r = n > 0 and (t := m > 1)
    return r, t


def _right_size_of_new_mask(x, y, log):
    n, m = _sizes(x, y)
    return n > 0 and len(y[y > 1.0]) > 0


def _right_int_division_of_sizes(x, y, log):
    n, m = _sizes(x, y)
    return m == 0 or n // m >= 1


def _right_modulo_of_sizes(x, y, log):
    n, m = _sizes(x, y)
    return m > 0 and n % m == 0


def _left_python_right_size(x, y, log):
    n, m = _sizes(x, y)
    return x.size > 4 and n > 0, x.size > 100 or m > 0


def _truth_compared_to_int(x, y, log):
    n, m = _sizes(x, y)
    return (n > 0) == 1, (n > 0) < (m > 0), (n > 0) + 0 == (m > 0)


def _truth_in_comprehension(x, y, log):
    n, m = _sizes(x, y)
    return [n > j and m > j for j in range(3)]


def _truth_to_where(x, y, log):
    n, m = _sizes(x, y)
    return np.where(n > 0 and m > 0, x, -x)


def _truth_hash_and_set(x, y, log):
    n, m = _sizes(x, y)
    return hash(n > 0), len({n > 0, m > 0, True})


def _not_of_size(x, y, log):
    a = x[x > 0]
    return not len(a), not a.size, bool(a.size)


def _truth_scales_size(x, y, log):
    n, m = _sizes(x, y)
    return np.zeros((n > 0) + (m > 0) * 2), x[: (n > 0) * 3]


def _truth_after_effect(x, y, log):
    log.append("before")
    n, m = _sizes(x, y)
    log.append(n > 0 and m > 0)
    return len(log)


MORE = (_right_property, _right_global_flag, _right_numpy_bool, _right_array_compare,
        _right_none, _right_zero_d, _right_walrus, _right_size_of_new_mask,
        _right_int_division_of_sizes, _right_modulo_of_sizes, _left_python_right_size,
        _truth_compared_to_int, _truth_in_comprehension, _truth_to_where,
        _truth_hash_and_set, _not_of_size, _truth_scales_size, _truth_after_effect)

for _body in MORE:
    if _body is _right_global_flag:
        continue
    reg.case(_body, *INPUTS)
reg.case(_right_global_flag, *INPUTS, setup=_set_flag, between=_flip_flag)
reg.case(_right_global_flag, *INPUTS[::-1], setup=_set_flag, between=_flip_flag,
         name="right_global_flag_down")
for _body in (_right_property, _right_numpy_bool, _right_none, _right_walrus,
              _right_int_division_of_sizes, _not_of_size, _truth_scales_size):
    reg.case(_body, *INPUTS[::-1], name=_body.__name__.lstrip("_") + "_down")
