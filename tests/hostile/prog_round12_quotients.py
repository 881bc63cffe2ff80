"""Round 12, numbers that change between calls (``dynamo/symbolic/``): an int argument
becomes a symbol after its second value, and ``n // k``, ``n % k`` and ``divmod(n, k)``
by a constant guard their *result* (or the comparison it feeds), not ``n``: negative
``n`` and ``k``, ``k`` a bool, a NumPy int, zero or an argument itself; quotients as
sizes (``np.zeros(n // 2)``, slices, ``range``), as float operands (``0.5 ** (n // 3)``)
and as int operands of array math (``x ** (n // 3)`` of an int array: an int exponent,
not a float one), quotients of sizes (``len(x) // 2``), of sums of symbols, of floats
that change (NaN, infinities, ``-0.0``), remainders compared (``if n % 3 == 0``) and then
read again, values that pass 2**63 after becoming symbols.

    >>> def _pow_quotient(x, n):
    ...     return x * 0.5 ** (n // 3)
    >>> # n = 3, 4, 7, 9, -1, 0: one entry per quotient, each result exact
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round12_quotients")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
I64 = np.array([2, -3, 5], np.int64)
I8 = np.array([2, -3, 5], np.int8)


def _seq(*values, arg=X):
    return [(arg, v) for v in values]


def _pow_quotient(x, n):
    return x * 0.5 ** (n // 3)


def _mod_scale(x, n):
    return x * (n % 4)


def _divmod_pair(x, n):
    q, r = divmod(n, 3)
    return x * q + r, q, r


def _neg_divisor(x, n):
    return x + n // -3, n % -3


def _mod_compare(x, n):
    if n % 3 == 0:
        return x * 2
    return x - 1


def _mod_compare_then_read(x, n):
    r = n % 3
    if r == 0:
        return x * 2, r
    return x - r, r


def _quotient_size(x, n):
    return np.zeros(n // 2) + x[0]


def _quotient_slice(x, n):
    return x[: n // 2], x[n % 3:]


def _quotient_range(x, n):
    return [float(x[i % len(x)]) for i in range(n // 3)]


def _quotient_int_array_pow(x, n):
    return x ** (n // 3)


def _quotient_int_array_mul(x, n):
    return x * (n // 3), x // (n % 5 + 1)


def _quotient_true_div(x, n):
    return x / (n % 3)


def _python_float_div(x, n):
    try:
        return x * (1.0 / (n % 3))
    except ZeroDivisionError as e:
        return str(e)


def _nested_quotient(x, n):
    return x * ((n // 3) // 2 + (n % 7) % 2)


def _quotient_of_sum(x, n, m):
    return x * ((n + m) // 4), (n - m) % 5


def _quotient_in_loop(x, n):
    acc = x * 0
    for i in range(n):
        if i % 3 == 0:
            acc = acc + x * (i // 3)
    return acc


def _quotient_as_index(x, n):
    return x[n % 4], x[-(n % 4) - 1]


def _quotient_shift(x, n):
    return x * (1 << (n % 5)), (n // 4) >> 1


def _quotient_bool_divisor(x, n):
    return x * (n // True), n % True


def _quotient_numpy_divisor(x, n):
    return x * (n // np.int64(3)), n % np.int8(4)


def _quotient_arg_divisor(x, n, k):
    return x * (n // k), n % k


def _quotient_float_arg(x, f):
    return x * (f // 2), f % 2


def _quotient_float_zero(x, f):
    try:
        return x * (f % 0.0)
    except ZeroDivisionError as e:
        return str(e)


def _quotient_gamma(x, epoch):
    return x * 0.9 ** (epoch // 30)


def _quotient_int64_edge(x, n):
    return x * (n // 2), n % 7


def _quotient_str(x, n):
    return f"{n // 3}-{n % 3}", x


def _quotient_hash(x, n):
    d = {0: "a", 1: "b", 2: "c"}
    return d[n % 3], x * 1


def _quotient_negative_zero(x, n):
    return np.zeros((n % 3, 2)).shape, x


for fn in (_pow_quotient, _mod_scale, _divmod_pair, _neg_divisor, _mod_compare,
           _mod_compare_then_read, _quotient_size, _quotient_slice, _quotient_range,
           _python_float_div, _nested_quotient, _quotient_in_loop, _quotient_as_index,
           _quotient_shift, _quotient_bool_divisor, _quotient_numpy_divisor, _quotient_str,
           _quotient_hash, _quotient_negative_zero, _quotient_true_div):
    case(fn, *_seq(3, 4, 7, 9, -1, 0, -7, 10))

for fn in (_quotient_int_array_pow, _quotient_int_array_mul):
    case(fn, *_seq(3, 4, 7, 9, 0, -7, arg=I64))
    case(fn, *_seq(3, 4, 7, 9, 0, 400, arg=I8), name=fn.__name__.lstrip("_") + "_int8")
    case(fn, *_seq(3, 4, 7, 9, 0, -7, arg=I64.astype(np.float32)),
         name=fn.__name__.lstrip("_") + "_float32")

case(_quotient_of_sum, (X, 3, 4), (X, 5, 9), (X, -2, 7), (X, 0, 0), (X, 2 ** 62, 2 ** 62))
case(_quotient_arg_divisor, (X, 7, 3), (X, 8, 3), (X, 7, -2), (X, 7, 0), (X, -7, 4))
case(_quotient_float_arg, (X, 3.5), (X, 4.5), (X, -0.5), (X, float("nan")),
     (X, float("inf")), (X, -0.0), (X, 1e308))
case(_quotient_float_zero, (X, 3.5), (X, 4.5))
case(_quotient_gamma, *_seq(0, 29, 30, 59, 61, 90, 1000))
case(_quotient_int64_edge, *_seq(5, 6, 2 ** 63 - 1, 2 ** 63, -2 ** 63, -2 ** 63 - 1, 7))


def _len_quotient_size(x):
    h = len(x) // 2
    return x[:h] + x[h:2 * h], x[2 * h:]


def _len_mod_branch(x):
    if len(x) % 2:
        return x[:-1].reshape(-1, 2)
    return x.reshape(-1, 2)


def _shape_divmod(x):
    q, r = divmod(x.shape[0], 3)
    return np.ones((q, 3)) * x[: q * 3].reshape(q, 3), r


def _len_quotient_arange(x):
    return np.arange(len(x) // 3) * x[0] if len(x) else None


SIZES = [(np.arange(n, dtype=float),) for n in (10, 11, 2, 0, 1, 3, 10, 7, 12)]
for fn in (_len_quotient_size, _len_mod_branch, _shape_divmod, _len_quotient_arange):
    case(fn, *SIZES)


def _counter_mod(x, step):
    if step % 10 == 0:
        x = x * 0.5
    return x, step % 10 == 0


@scenario
def counter_mod_many_steps(r):
    """A step counter passed each call: one entry per outcome of step % 10 == 0."""
    f = r.compile(_counter_mod)
    for step in (0, 1, 2, 9, 10, 11, 20, -10, -3, 2 ** 62, 2 ** 63, 100):
        r.call(f, X.copy(), step)


def _schedule(x, epoch, base):
    return x * base * 0.1 ** (epoch // 3) + epoch % 3


@scenario
def lr_schedule_changes(r):
    """Both the epoch and the base rate change between calls."""
    f = r.compile(_schedule)
    for epoch, base in ((0, 1.0), (1, 1.0), (3, 2.0), (4, 2.5), (6, float("nan")),
                        (9, -0.0), (2, 1e308), (-1, 1.0)):
        r.call(f, X.copy(), epoch, base)


def _mixed_symbols(x, n, m):
    a = n // 2
    b = m % 3
    return np.full((a % 3 + 1, b + 1), float(n - m)) + x[0]


case(_mixed_symbols, (X, 4, 5), (X, 6, 7), (X, 8, 2), (X, 1, 0), (X, -5, -4))


class Step(int):
    """An int subclass with its own //."""

    def __floordiv__(self, other):
        return Step(int(self) * 100)

    def __mod__(self, other):
        return -1


case(_pow_quotient, (X, 4), (X, Step(4)), (X, 5), name="int_subclass_floordiv")
case(_mod_compare, (X, 3), (X, Step(3)), (X, 4), name="int_subclass_mod")
case(_quotient_size, (X, 4), (X, True), (X, False), (X, 6), name="bool_after_int")
case(_mod_scale, (X, 4), (X, np.int64(5)), (X, np.uint8(255)), (X, 6),
     name="numpy_int_after_int")


def _quotient_of_negated(x, n):
    return x * (-n // 3), (-n) % 4


def _quotient_of_scaled(x, n):
    return x[: (n * 2) // 4], (n + 1) % 2, (3 - n) // 2


def _quotient_of_size_sum(x, y):
    return np.zeros((len(x) + len(y)) // 3), (len(x) - len(y)) % 4


case(_quotient_of_negated, *_seq(3, 4, 7, 9, -1, 0, -7, 10))
case(_quotient_of_scaled, *_seq(3, 4, 7, 9, -1, 0, -7, 10))
case(_quotient_of_size_sum, (np.ones(4), np.ones(2)), (np.ones(7), np.ones(3)),
     (np.ones(1), np.ones(9)), (np.ones(0), np.ones(0)), (np.ones(12), np.ones(5)))
