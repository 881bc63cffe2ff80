"""Round 19, control flow that changes with the data between calls: loops whose trip
count or body depends on array values (``break``/``continue`` on data, ``for ... else``
taking the other branch on the next call), ``while`` loops whose test is an array
reduction, ``match`` on shapes, dtypes, tuples and classes, the walrus in ``if`` and
``while`` tests, ``try``/``finally`` with a ``return`` in ``finally`` (swallowing an
exception or a ``break``), the program's own context managers whose ``__exit__``
swallows or replaces an exception, and ``with np.errstate(...)`` around a ``return``.
(Closures, lambdas, comprehensions, augmented stores, unpacking and argument defaults:
``prog_round19_closures.py``.)

    >>> def _first_negative(x):
    ...     for i, v in enumerate(x):
    ...         if v < 0:
    ...             break          # the break moves with the data between calls
    ...     else:
    ...         return None
    ...     return i, x[:i].sum()
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round19_flow")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, 2.0, -3.0, 4.0])
P = np.array([1.0, 2.0, 3.0, 4.0])
N = np.array([-1.0, 2.0, 3.0, 4.0])
G = np.arange(12.0).reshape(3, 4)
IV = np.array([3, 1, 4, 1, 5])
LOG: list = []


def _reset():
    LOG.clear()


def _watch():
    return list(LOG)


def logged(fn, *inputs, **kw):
    case(fn, *inputs, setup=_reset, watch=_watch, **kw)


# ------------------------------------------------------------------- for loops on data

def _first_negative(x):
    for i, v in enumerate(x):
        if v < 0:
            break
    else:
        return None
    return i, x[:i].sum()


def _for_else_sum(x):
    acc = 0.0
    for v in x:
        if v > 3:
            acc += v * 10
            break
        acc += v
    else:
        acc = -acc
    return acc


def _continue_on_data(x):
    out = []
    for v in x:
        if v < 0:
            continue
        out.append(v * 2)
    return np.array(out), len(out)


def _break_in_nested(g):
    found = None
    for r in range(g.shape[0]):
        for c in range(g.shape[1]):
            if g[r, c] > 6:
                found = (r, c)
                break
        else:
            continue
        break
    return found, g[: (found[0] if found else 0)].sum()


def _trip_from_values(x):
    acc = x * 0
    for k in range(int(x.max())):
        acc = acc + k
    return acc


def _body_changes(x):
    acc = x.copy()
    for k in range(3):
        if acc.sum() > 10:
            acc = acc / 2
        else:
            acc = acc * 3
    return acc


def _loop_over_rows_break(g):
    total = g[0] * 0
    for row in g:
        total = total + row
        if total.sum() > 10:
            break
    return total


def _enumerate_reversed(x):
    out = x.copy()
    for i, v in reversed(list(enumerate(x))):
        if v < 0:
            out[i:] = 0
            return out, i
    return out, -1


case(_first_negative, (X,), (P,), (np.array([-1.0, 2.0]),))
case(_for_else_sum, (X,), (P,), (np.array([0.5, 0.25]),))
case(_continue_on_data, (X,), (np.array([-1.0, -2.0]),), (P,))
case(_break_in_nested, (G,), (G * 0,), (G[::-1].copy(),))
case(_trip_from_values, (P,), (np.array([0.5, 0.2]),), (X * 2,))
case(_body_changes, (P,), (P * 0.1,), (-P,))
case(_loop_over_rows_break, (G,), (G * 0.1,), (-G,))
case(_enumerate_reversed, (X,), (P,), (N,))


# ------------------------------------------------------------------- while loops

def _while_array_test(x):
    n = 0
    while (x > 1).any():
        x = x / 2
        n += 1
    return x, n


def _while_norm_else(x):
    k = 0
    while np.linalg.norm(x) > 1e-3:
        x = x * 0.1
        k += 1
        if k > 5:
            break
    else:
        return x, k, "converged"
    return x, k, "gave up"


def _while_walrus(x):
    k = 0
    while (m := x.max()) > 1:
        x = x - 1
        k += 1
    return x, k, m


def _while_true_break(x):
    y = x
    while True:
        y = np.sqrt(np.abs(y))
        if np.abs(y - 1).max() < 0.1:
            break
    return y


def _while_all_equal(x):
    y = x.copy()
    n = 0
    while not np.all(y == y[0]):
        y[np.argmax(y)] -= 1
        n += 1
        if n > 50:
            break
    return y, n


def _while_bool_array_error(x):
    try:
        while x > 0:
            x = x - 1
    except ValueError as e:
        return str(e)
    return x


case(_while_array_test, (P,), (P * 0.1,), (G,))
case(_while_norm_else, (P,), (P * 1e-5,), (P * 1e-3,))
case(_while_walrus, (P,), (P * 0.5,))
case(_while_true_break, (P,), (np.array([0.9, 1.1]),))
case(_while_all_equal, (IV,), (np.array([2, 2]),))
case(_while_bool_array_error, (X,), (np.array([3.0]),), (np.array(2.0),))


# ------------------------------------------------------------------- match statements

def _match_shape(x):
    match x.shape:
        case (n,):
            return "vector", x * n
        case (r, c) if r == c:
            return "square", x.T
        case (r, c):
            return "matrix", x.sum(axis=0)
        case _:
            return "other", x.ravel()


def _match_dtype(x):
    match x.dtype.kind:
        case "f":
            return x * 0.5
        case "i" | "u":
            return x // 2
        case "b":
            return ~x
        case k:
            return k


def _match_tuple(pair):
    match pair:
        case (a, b) if a.shape == b.shape:
            return a + b
        case (a, *rest):
            return a.sum(), len(rest)
        case []:
            return "empty"


class Pt:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y


def _match_class(o):
    match o:
        case Pt(x, y) if (x > 0).all():
            return x * y
        case Pt(x=x):
            return -x
        case np.ndarray():
            return o + 100
        case _:
            return None


def _match_mapping(d):
    match d:
        case {"a": a, "b": b}:
            return a - b
        case {"a": a, **rest}:
            return a * len(rest)
        case _:
            return "no a"


def _match_value(x, mode):
    match mode:
        case "sum":
            return x.sum()
        case "max":
            return x.max()
        case str() as s:
            return s.upper(), x
        case int(n) if n > 0:
            return x * n


case(_match_shape, (P,), (G[:3, :3],), (G,), (np.float64(2.0),))
case(_match_dtype, (P,), (IV,), (P > 2,), (P.astype(complex),))
case(_match_tuple, ((P, P),), ((P, G),), ((P,),), ([],))
case(_match_class, (Pt(P, P),), (Pt(N, P),), (P,), ("s",))
case(_match_mapping, ({"a": P, "b": N},), ({"a": P, "c": 1, "d": 2},), ({"z": P},))
case(_match_value, (P, "sum"), (P, "max"), (P, "mean"), (P, 3), (P, -1))


# ------------------------------------------------------------------- walrus

def _walrus_if(x):
    if (s := x.sum()) > 5:
        return s, x / s
    return s, x


def _walrus_chain(x):
    if (a := x.max()) > 0 and (b := x.min()) < 0:
        return a - b
    return a


case(_walrus_if, (P,), (P * 0.1,))
case(_walrus_chain, (X,), (P,), (-P,))


# ------------------------------------------------------------------- try/finally

def _finally_returns(x):
    try:
        return x * 2
    finally:
        return x * 3  # noqa: B012


def _finally_swallows(x):
    try:
        x.reshape(5, -1)
    finally:
        return x.sum()  # noqa: B012


def _finally_in_loop(x):
    out = []
    for v in x:
        try:
            if v < 0:
                break
            out.append(v)
        finally:
            out.append(-1.0)
    return np.array(out)


def _finally_continue(x):
    n = 0
    for v in x:
        try:
            if v < 0:
                continue
            n += 1
        finally:
            LOG.append(float(v))
    return n


def _finally_counts(x):
    try:
        y = x / x.sum()
        if y.max() > 0.5:
            raise ValueError("too big")
        return y
    except ValueError as e:
        LOG.append(str(e))
        return None
    finally:
        LOG.append("finally")


def _finally_reraises(x):
    try:
        try:
            return x[10]
        finally:
            LOG.append("inner")
    except IndexError as e:
        return str(e), x + 1


def _finally_return_in_loop(x):
    for v in x:
        try:
            if v > 2:
                return v
        finally:
            if v < 0:
                return "neg"  # noqa: B012
    return "end"


case(_finally_returns, (P,))
case(_finally_swallows, (P,), (G,))
case(_finally_in_loop, (X,), (P,))
logged(_finally_continue, (X,), (N,))
logged(_finally_counts, (P,), (np.array([1.0, 5.0]),))
logged(_finally_reraises, (P,), (np.arange(12.0),))
case(_finally_return_in_loop, (X,), (N,), (P * 0.1,))


# ------------------------------------------------------------------- context managers

class Swallow:
    """Swallows the exception types it is given, logs enter and exit."""

    def __init__(self, *types):
        self.types = types

    def __enter__(self):
        LOG.append("enter")
        return self

    def __exit__(self, tp, val, tb):
        LOG.append(("exit", tp.__name__ if tp else None))
        return tp is not None and issubclass(tp, self.types)


class Replace:
    def __enter__(self):
        return 7

    def __exit__(self, tp, val, tb):
        if tp is ValueError:
            raise KeyError("replaced") from val
        return False


def _swallow_value_error(x):
    y = x * 2
    with Swallow(ValueError):
        y = y.reshape(3, -1)
        y = y + 1
    return y


def _swallow_not_matching(x):
    try:
        with Swallow(KeyError):
            return x.reshape(3, -1)
    except ValueError as e:
        return "out", str(e)


def _swallow_return_inside(x):
    with Swallow(ZeroDivisionError):
        return x.sum() / int(x.min())
    return "swallowed"


def _replace_exception(x):
    try:
        with Replace() as k:
            if x.sum() > 5:
                raise ValueError("big")
            return x * k
    except KeyError as e:
        return repr(e), repr(e.__cause__)


def _swallow_in_loop(x):
    out = []
    for v in x:
        with Swallow(ValueError):
            if v < 0:
                raise ValueError(v)
            out.append(v)
    return out


def _swallow_break(x):
    for v in x:
        with Swallow(Exception):
            if v < 0:
                break
    return v


logged(_swallow_value_error, (np.arange(6.0),), (np.arange(4.0),))
logged(_swallow_not_matching, (np.arange(6.0),), (P,))
logged(_swallow_return_inside, (P,), (P * 0.5,))
logged(_replace_exception, (P,), (P * 0.1,))
logged(_swallow_in_loop, (X,), (N,))
logged(_swallow_break, (X,), (P,))


# ------------------------------------------------------------------- np.errstate

def _errstate_return(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return x / (x - x)


def _errstate_raise_inside(x):
    try:
        with np.errstate(divide="raise"):
            return 1.0 / x
    except FloatingPointError as e:
        return str(e), np.geterr()["divide"]


def _errstate_break(x):
    out = x
    for k in range(3):
        with np.errstate(over="ignore"):
            out = out * 1e200
            if np.isinf(out).any():
                break
    return out, k


case(_errstate_return, (P,), (X,))
case(_errstate_raise_inside, (P,), (np.array([1.0, 0.0]),))
case(_errstate_break, (P,), (P * 1e-300,))


@scenario
def s_trip_grows_between_calls(r):
    """One function, a bound that is a global changed between calls."""
    f = r.compile(_body_changes)
    for s in (1.0, 5.0, 0.1, -1.0):
        r.call(f, P * s)


@scenario
def s_for_else_flips(r):
    """The same array mutated between calls: the for-else takes the other branch."""
    x = P.copy()
    f = r.compile(_first_negative)
    r.call(f, x)
    x[2] = -1.0
    r.call(f, x)
    x[0] = -5.0
    r.call(f, x)
    x[:] = 1.0
    r.call(f, x)


# ------------------------------------------------------------------- exits that hide others

def _exit_raises(x):
    class CM:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            LOG.append(a[0].__name__ if a[0] else None)
            raise RuntimeError("exit")
    try:
        with CM():
            x[0] = 99.0
            return x.reshape(3, -1)
    except RuntimeError as e:
        return str(e), repr(e.__context__), x


def _swallow_after_write(x):
    with Swallow(KeyError):
        x[1] = -5.0
        y = x * 2
        raise KeyError("k")
    return x, y


def _while_else_break(x):
    y = x.copy()
    while y.max() > 1:
        y = y - 1
        if (y < -2).any():
            break
    else:
        return "else", y
    return "break", y


def _finally_break_swallows(x):
    for v in x:
        try:
            raise ValueError(v)
        finally:
            break  # noqa: B012
    return v


def _match_guard_mutates(x):
    match x.shape:
        case (n,) if x.__setitem__(0, -1.0) is None and n > 10:
            return "big"
        case (n,):
            return "small", x
    return None


logged(_exit_raises, (np.arange(6.0),), (np.arange(5.0),))
logged(_swallow_after_write, (P.copy(),))
case(_while_else_break, (P,), (np.array([5.0, -1.0]),))
case(_finally_break_swallows, (P,))
case(_match_guard_mutates, (P.copy(),), (np.arange(12.0),))
