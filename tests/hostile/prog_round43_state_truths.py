"""Round 43, truth tests at graph breaks (``bytecode/break_code.py``: on 3.13+ a break
at a conditional jump runs ``TO_BOOL`` before it, since those jumps take only exact
bools): the value at the jump an ``np.bool_`` from the graph, a 0-d array, a 1-element
array, a 2-element array (ValueError as eager), NaN (true), ``-0.0`` (false), an object
whose ``__bool__`` raises, counts its calls, prints, returns a non-bool (TypeError as
eager), a ``__len__``-only object (0 and 3), a ``__bool__`` that returns an
``np.bool_``, a comparison that returns such an object (or raises for NaN); the jump
inside ``and``/``or``, ``not``, a conditional expression, ``while``, ``assert``, and
after a ``print`` that forces the break first.

    >>> def _obj_jump(x, o):
    ...     y = x * 2.0
    ...     print("at", y[0])        # the graph breaks here
    ...     if o:                    # o's __bool__ runs once, as eagerly
    ...         y = y + 1.0
    ...     return y
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round43_state")
CALLS = []


class Counted:
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        CALLS.append(("bool", self.v))
        return self.v


class Raising:
    def __bool__(self):
        CALLS.append("raising")
        raise RuntimeError("no truth")


class Printing:
    def __bool__(self):
        print("bool called")
        return False


class NotBool:
    def __bool__(self):
        CALLS.append("notbool")
        return 1


class NpBool:
    def __bool__(self):
        CALLS.append("npbool")
        return np.bool_(True)


class Sized:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        CALLS.append(("len", self.n))
        return self.n


class NegLen:
    def __len__(self):
        return -1


def _x(n=5):
    return np.linspace(-1.0, 1.0, n)


def _see():
    return list(CALLS)


def _case(fn, *inputs, name=None):
    reg.case(fn, *inputs, calls=2, setup=CALLS.clear, watch=_see, name=name)


def _graph_bool(x):
    y = x * 2.0
    print("sum", y.sum())
    if y[-1] > 0:
        return y + 1.0
    return y


def _np_bool_value(x):
    b = np.all(x > -5.0)
    print("b", b)
    if b:
        return x + 1.0
    return x


def _zero_d(x):
    z = np.asarray(x.sum())
    print("z")
    if z:
        return "true"
    return "false"


def _one_element(x):
    a = x[:1] * 3.0
    print("a")
    if a:
        return "true"
    return "false"


def _two_elements(x):
    a = x[:2] * 3.0
    print("a")
    if a:
        return "true"
    return "false"


def _nan_true(x):
    v = float(x.max() * np.nan)
    print("v")
    if v:
        return "nan is true"
    return "no"


def _neg_zero(x):
    v = x.min() * 0.0 - 0.0
    print("v", v)
    if v:
        return "true"
    return "false", v


def _obj_jump(x, o):
    y = x * 2.0
    print("at", y[0])
    if o:
        y = y + 1.0
    return y


def _obj_not(x, o):
    y = x * 2.0
    print("at")
    if not o:
        y = y - 1.0
    return y


def _obj_and(x, o):
    y = x * 2.0
    print("at")
    if o and y[0] < 0:
        return y + 1.0
    return y


def _obj_or(x, o):
    y = x + 1.0
    print("at")
    return (o or y.sum()), y


def _obj_ternary(x, o):
    y = x + 1.0
    print("at")
    return y if o else -y


def _obj_while(x, o):
    y = x + 0.0
    print("at")
    k = 0
    while o and k < 2:
        y = y + 1.0
        k += 1
    return y, k


def _obj_assert(x, o):
    y = x * 3.0
    print("at")
    assert o, "o was false"
    return y


def _obj_no_break(x, o):
    """No print: the truth test is traced (or breaks at it) with no earlier break."""
    y = x * 2.0
    if o:
        y = y + 1.0
    return y


def _obj_bool_call(x, o):
    y = x * 2.0
    print("at")
    return bool(o), y


def _obj_in_loop(x, o):
    s = 0.0
    for i in range(len(x)):
        s = s + x[i]
        if o:
            s = s * 0.5
    return s


def _np_bool_not(x):
    b = np.isnan(x).any()
    print("b")
    if not b:
        return "no nan"
    return "nan"


def _compare_chain_break(x):
    lo = x.min()
    print("lo")
    if -2.0 < lo < 0.0:
        return "in"
    return "out"


_case(_graph_bool, (_x(),), (-_x(),))
_case(_np_bool_value, (_x(),), (_x() - 10.0,))
_case(_zero_d, (_x(),), (_x(4),))
_case(_one_element, (_x(),), (-_x(),))
_case(_two_elements, (_x(),))
_case(_nan_true, (_x(),))
_case(_neg_zero, (_x(),), (-_x(),))
for fn in (_obj_jump, _obj_not, _obj_and, _obj_or, _obj_ternary, _obj_while, _obj_assert,
           _obj_no_break, _obj_bool_call, _obj_in_loop):
    stem = fn.__name__.removeprefix("_")
    _case(fn, lambda: (_x(), Counted(True)), lambda: (_x(), Counted(False)),
          name=f"{stem}_counted")
    _case(fn, lambda: (_x(), Raising()), name=f"{stem}_raising")
    _case(fn, lambda: (_x(), NotBool()), lambda: (_x(), NpBool()), name=f"{stem}_not_bool")
    _case(fn, lambda: (_x(), Sized(0)), lambda: (_x(), Sized(3)), name=f"{stem}_sized")
_case(_obj_jump, lambda: (_x(), Printing()), name="obj_jump_printing")
_case(_obj_jump, lambda: (_x(), NegLen()), name="obj_jump_neg_len")
_case(_obj_jump, (_x(), np.bool_(True)), (_x(), np.bool_(False)), name="obj_jump_np_bool_arg")
_case(_obj_jump, (_x(), np.float64("nan")), (_x(), np.float64(-0.0)),
      name="obj_jump_np_float_arg")
_case(_obj_jump, (_x(), np.array(0)), (_x(), np.array([2.0])), name="obj_jump_array_arg")
_case(_obj_jump, (_x(), np.ones(2)),  name="obj_jump_ambiguous_arg")
_case(_np_bool_not, (_x(),), (_x() * np.nan,))
_case(_compare_chain_break, (_x(),), (_x() + 1.5,))


class Judge:
    """Its comparisons return a ``Counted`` (a non-bool whose ``__bool__`` counts), or
    raise for NaN."""

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        if other != other:
            raise ValueError("NaN compared")
        return Counted(bool(self.v < other))

    def __gt__(self, other):
        return Counted(bool(self.v > other))


def _compare_object(x, j):
    m = float(x.max())
    print("m")
    if j < m:
        return "below"
    return "not below"


def _compare_object_no_print(x, j):
    y = x * 2.0
    if j > y.sum():
        return y
    return -y


def _compare_object_chain(x, j):
    m = x.mean()
    print("m")
    return 0.0 < m and j < m


_case(_compare_object, lambda: (_x(), Judge(0.5)), lambda: (_x(), Judge(2.0)),
      lambda: (_x() * np.nan, Judge(0.0)))
_case(_compare_object_no_print, lambda: (_x(), Judge(0.5)), lambda: (_x() + 1.0, Judge(-9.0)))
_case(_compare_object_chain, lambda: (_x() + 1.0, Judge(0.5)), lambda: (_x() - 1.0, Judge(0.5)))
