"""Round 14, Python around the compiled code: exceptions (``raise ... from``,
``__context__``, ``__traceback__`` frames the program walks, ``except*``), ``with``
statements whose ``__exit__`` swallows, ``contextvars``, ``warnings.catch_warnings
(record=True)`` inside and around compiled code, ``__del__`` order, classes made inside
the compiled function, ``functools`` (``lru_cache``, ``singledispatch``, ``wraps``,
``partial``), frozen and slotted dataclasses, and ``enum``.

    >>> def _swallowed(x):
    ...     with Swallow():
    ...         raise ValueError("gone")
    ...     return x + 1
"""

import contextvars
import dataclasses
import enum
import functools
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round14_python")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
Z = np.array([0.0, 1.0, -1.0, 2.0])


def _brk():
    print("break")


# ------------------------------------------------------------------------- exceptions

def _raise_from(x):
    try:
        y = x * 2
        raise KeyError("inner")
    except KeyError as e:
        raise ValueError(f"outer {y[0]}") from e


def _raise_from_none(x):
    try:
        return x[10]
    except IndexError:
        raise RuntimeError("hidden") from None


def _context_kept(x):
    try:
        try:
            1 / 0
        except ZeroDivisionError:
            raise TypeError("during")
    except TypeError as e:
        return type(e.__context__).__name__, e.__suppress_context__, x + 1


def _cause_read(x):
    try:
        _raise_from(x)
    except ValueError as e:
        return repr(e.__cause__), x - 1


def _traceback_frames(x):
    try:
        np.linalg.inv(np.zeros((2, 2)) * x[0])
    except np.linalg.LinAlgError as e:
        tb, names = e.__traceback__, []
        while tb is not None:
            names.append(tb.tb_frame.f_code.co_name)
            tb = tb.tb_next
        return names[0], x + 1


def _traceback_lineno(x):
    y = x + 1
    try:
        raise ValueError("here")
    except ValueError as e:
        return e.__traceback__.tb_lineno - _traceback_lineno.__code__.co_firstlineno, y


def _except_star(x):
    try:
        raise ExceptionGroup("g", [ValueError(1), TypeError(2)])
    except* ValueError as eg:
        caught = [type(e).__name__ for e in eg.exceptions]
    except* TypeError:
        caught = "type"
    return caught, x * 2


def _except_star_array(x):
    out = []
    try:
        raise ExceptionGroup("g", [FloatingPointError("fp")])
    except* FloatingPointError:
        out.append(float(x.sum()))
    return out


def _error_in_graph_errstate(x, y):
    try:
        with np.errstate(divide="raise"):
            return x / y
    except FloatingPointError as e:
        return str(e), e.__context__


def _reraise_bare(x, log):
    try:
        log.append("try")
        return x[int(x[0]) + 10]
    except IndexError:
        log.append("except")
        raise


def _exception_args(x):
    try:
        raise ValueError(x.shape, "msg")
    except ValueError as e:
        return e.args, x + 1


def _add_note(x):
    try:
        raise KeyError("k")
    except KeyError as e:
        e.add_note(f"sum {float(x.sum())}")
        raise


for fn in (_raise_from, _raise_from_none, _context_kept, _cause_read, _traceback_frames,
           _traceback_lineno, _except_star, _except_star_array, _exception_args, _add_note):
    case(fn, (X,), (X[:2],))
case(_error_in_graph_errstate, (X, Z), (X, X))
case(_reraise_bare, lambda: (X.copy(), []), lambda: (np.array([-20.0, 1.0]), []))


# ------------------------------------------------------------------ with that swallows

class Swallow:
    def __init__(self, log=None):
        self.log = log if log is not None else []

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, tb):
        self.log.append(kind.__name__ if kind else None)
        return True


class SwallowSome:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return kind is not None and issubclass(kind, ArithmeticError)


def _swallowed(x, s):
    with s:
        y = x * 2   # noqa: F841 (on purpose)
        raise ValueError("gone")
    return x + 1, s.log


def _swallowed_after_write(x, s):
    x[0] = 99.0
    with s:
        x[1] = -99.0
        raise KeyError("k")
    return x


def _swallowed_graph_error(x, s):
    y = x + 1
    with s:
        y = np.linalg.inv(np.zeros((2, 2)))
    return y, s.log


def _swallow_some(x):
    with SwallowSome():
        with np.errstate(divide="raise"):
            x = x / np.zeros_like(x)
    return x


def _swallow_some_other(x):
    try:
        with SwallowSome():
            raise KeyError("k")
    except KeyError:
        return "through", x * 2


def _swallowed_in_loop(x, s):
    total = 0.0
    for i in range(3):
        with s:
            if i == 1:
                raise ValueError(i)
            total += float(x[i])
    return total, list(s.log)


case(_swallowed, lambda: (X.copy(), Swallow()))
case(_swallowed_after_write, lambda: (X.copy(), Swallow()))
case(_swallowed_graph_error, lambda: (X.copy(), Swallow()))
case(_swallow_some, (X,))
case(_swallow_some_other, (X,))
case(_swallowed_in_loop, lambda: (X.copy(), Swallow()))


# ------------------------------------------------------------------------ contextvars

SCALE = contextvars.ContextVar("scale", default=2.0)


def _ctxvar_read(x):
    return x * SCALE.get()


def _ctxvar_set(x, v):
    token = SCALE.set(v)
    try:
        return x * SCALE.get()
    finally:
        SCALE.reset(token)


def _ctxvar_set_leak(x, v):
    SCALE.set(v)
    return x + SCALE.get()


@scenario
def ctxvar_changed_between(r):
    f = r.compile(_ctxvar_read)
    ctx = contextvars.copy_context()
    r.call(f, X.copy())
    token = SCALE.set(5.0)
    r.call(f, X.copy())
    SCALE.reset(token)
    r.see("in other context", ctx.run(lambda: SCALE.get()))


@scenario
def ctxvar_in_context_run(r):
    f = r.compile(_ctxvar_set_leak)
    ctx = contextvars.copy_context()
    r.see("first", ctx.run(r.call, f, X.copy(), 3.0))
    r.see("outside", SCALE.get())
    r.see("inside", ctx.run(SCALE.get))


case(_ctxvar_set, (X, 3.0), (X, -1.0))


# --------------------------------------------------------------------------- warnings

def _warn_in_graph(x):
    return np.log(x)


def _record_inside(x):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        y = np.sqrt(x)
        warnings.warn("mine", UserWarning)   # noqa: B028 (on purpose)
    return y, [str(w.message) for w in got]


def _record_inside_error(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return np.log(x)
        except RuntimeWarning as w:
            return str(w)


@scenario
def record_around_compiled(r):
    f = r.compile(_warn_in_graph)
    for arg in (X.copy(), Z.copy(), Z.copy()):
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            r.call(f, arg)
        r.see("recorded", [(w.category.__name__, str(w.message)) for w in got])


@scenario
def record_once_filter(r):
    f = r.compile(_warn_in_graph)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("once")
        r.call(f, Z.copy())
        r.call(f, Z.copy())
    r.see("recorded", [str(w.message) for w in got])


case(_record_inside, (X,), (Z,))
case(_record_inside_error, (X,), (Z,))


# ------------------------------------------------------------------------ __del__ order

class Noisy:
    def __init__(self, log, name):
        self.log, self.name = log, name

    def __del__(self):
        self.log.append(f"del {self.name}")


def _del_order(x, log):
    a = Noisy(log, "a")
    b = Noisy(log, "b")
    log.append("made")
    del a
    log.append("after a")
    y = x * 2
    b = None   # noqa: F841 (its end is what counts)
    log.append("after b")
    return y


def _del_at_return(x, log):
    a = Noisy(log, "a")
    y = x + 1
    log.append(f"holding {a.name}")
    return y


def _del_rebind_in_loop(x, log):
    n = None
    for i in range(3):
        n = Noisy(log, str(i))   # noqa: F841 (its end is what counts)
        x = x + i
    log.append("loop done")
    return x


def _del_with_break(x, log):
    a = Noisy(log, "a")
    y = x * 3
    _brk()
    del a
    log.append("deleted")
    return y


for fn in (_del_order, _del_at_return, _del_rebind_in_loop, _del_with_break):
    case(fn, lambda: (X.copy(), []))


# ----------------------------------------------------------------- classes made inside

def _class_inside(x):
    class Local:
        k = 3.0

        def act(self, y):
            return y * self.k
    return Local().act(x), Local.__qualname__


def _class_inside_counter(x, log):
    class Meta(type):
        def __new__(m, name, bases, ns):
            log.append(name)
            return super().__new__(m, name, bases, ns)

    class Made(metaclass=Meta):
        pass
    return x + len(log), Made.__name__


def _type_three_args(x):
    K = type("K", (), {"v": 2.0})
    return x * K.v, K.__name__


def _init_subclass(x, log):
    class Base:
        def __init_subclass__(cls, **kw):
            log.append(cls.__name__)

    class Child(Base):
        pass
    return x - 1


case(_class_inside, (X,))
case(_class_inside_counter, lambda: (X.copy(), []))
case(_type_three_args, (X,))
case(_init_subclass, lambda: (X.copy(), []))


# -------------------------------------------------------------------------- functools

CALLS = []


@functools.lru_cache(maxsize=2)
def _cached_scale(k):
    CALLS.append(k)
    return float(k) * 1.5


def _uses_cache(x, k):
    return x * _cached_scale(k), _cached_scale.cache_info().hits


@functools.singledispatch
def _describe(v):
    return "object"


@_describe.register
def _(v: float):
    return "float"


def _dispatch(x, v):
    return _describe(v), x + 1


def _logged(fn):
    @functools.wraps(fn)
    def inner(*a):
        CALLS.append(fn.__name__)
        return fn(*a)
    return inner


@_logged
def _wrapped_helper(y):
    return y * 4


def _uses_wrapped(x):
    return _wrapped_helper(x), _wrapped_helper.__name__, _wrapped_helper.__wrapped__(x)


def _partial_kw(x):
    p = functools.partial(np.clip, a_min=-1.0)
    return p(x, a_max=1.0)


def _reduce_arrays(xs):
    return functools.reduce(np.add, xs)


case(_uses_cache, (X, 2), (X, 3), (X, 4), setup=lambda: (CALLS.clear(),
                                                        _cached_scale.cache_clear()),
     watch=lambda: list(CALLS))
case(_dispatch, (X, 1.0), (X, "s"), (X, 2))
case(_uses_wrapped, (X,), setup=CALLS.clear, watch=lambda: list(CALLS))
case(_partial_kw, (X,))
case(_reduce_arrays, lambda: ([X.copy(), X * 2, Z.copy()],))


@scenario
def singledispatch_registered_later(r):
    @functools.singledispatch
    def kind(v):
        return "any"

    def g(x, v):
        return kind(v), x * 2
    f = r.compile(g)
    r.call(f, X.copy(), 1)
    kind.register(int, lambda v: "int")
    r.call(f, X.copy(), 1)


# ------------------------------------------------------------------------- dataclasses

@dataclasses.dataclass(frozen=True)
class Frozen:
    k: float
    name: str = "f"


@dataclasses.dataclass(slots=True)
class Slotted:
    k: float
    hits: int = 0


def _frozen_read(x, c):
    return x * c.k, c.name


def _frozen_write(x, c):
    try:
        c.k = 5.0
    except dataclasses.FrozenInstanceError as e:
        return type(e).__name__, x + c.k


def _frozen_replace(x, c):
    d = dataclasses.replace(c, k=c.k * 2)
    return x * d.k, d == c, hash(d) == hash(c)


def _slotted_write(x, s):
    s.hits += 1
    return x * s.k


def _slotted_new_attr(x, s):
    try:
        s.other = 1
    except AttributeError:
        return "no slot", x - s.k


case(_frozen_read, (X, Frozen(2.0)), (X, Frozen(3.0, "g")))
case(_frozen_write, (X, Frozen(2.0)))
case(_frozen_replace, (X, Frozen(2.0)))
case(_slotted_write, lambda: (X.copy(), Slotted(2.0)))
case(_slotted_new_attr, (X, Slotted(2.0)))


# -------------------------------------------------------------------------------- enum

class Mode(enum.Enum):
    ADD = 1
    MUL = 2


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 3


class Flag(enum.Flag):
    A = 1
    B = 2


def _by_mode(x, m):
    if m is Mode.ADD:
        return x + 1
    return x * 2


def _int_enum_math(x, lv):
    return x * lv, lv + 1, Level(3)


def _enum_members(x):
    return [m.name for m in Mode], x + len(Mode)


def _flag_ops(x, fl):
    return bool(fl & Flag.A), x * (fl.value)


def _enum_lookup(x, name):
    return x * Mode[name].value


case(_by_mode, (X, Mode.ADD), (X, Mode.MUL))
case(_int_enum_math, (X, Level.LOW), (X, Level.HIGH))
case(_enum_members, (X,))
case(_flag_ops, (X, Flag.A), (X, Flag.A | Flag.B))
case(_enum_lookup, (X, "ADD"), (X, "MUL"))
