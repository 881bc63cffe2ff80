"""Round 16, Python machinery around graphs: generators and coroutines driven by compiled
code (``send``, ``throw``, ``close``, ``yield from``), context managers whose
``__exit__`` swallows or re-raises, ``return`` in ``finally``, chained exceptions
(``raise ... from``, ``__context__``, ``__notes__``, ``ExceptionGroup``/``except*``),
``sys.exc_info()`` in handlers; and class machinery: ``__init_subclass__``,
``__set_name__``, ``__class_getitem__``, non-data descriptors, ``__slots__``, frozen
dataclasses and ``default_factory``, ``cached_property``, ``lru_cache``d helpers,
``operator`` functions, ``__array_ufunc__``/``__array_function__`` and ndarray
subclasses.

    >>> def _send_sums(x, g):
    ...     first = next(g)
    ...     return first, g.send(x.sum())      # the generator sees the graph's value
"""

import contextlib
import dataclasses
import functools
import operator
import sys

import numpy as np
from hostile_check import Programs
from prog_round5_objects import HasNonData

reg = Programs("round16_python")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
SING = np.zeros((2, 2))


def _brk():
    print("break")


# ------------------------------------------------------------------- generators

def _accumulator(log):
    total = 0.0
    try:
        while True:
            v = yield total
            log.append(v)
            total += v
    except ValueError as e:
        log.append(f"thrown {e}")
        yield -1.0
    finally:
        log.append("gen finally")


def _send_sums(x, log):
    g = _accumulator(log)
    next(g)
    a = g.send(float(x.sum()))
    b = g.send(float(x.max()))
    return x * b, a


def _throw_into(x, log):
    g = _accumulator(log)
    next(g)
    g.send(1.0)
    r = g.throw(ValueError("bad"))
    return x + r


def _close_early(x, log):
    g = _accumulator(log)
    next(g)
    g.send(float(x[0]))
    g.close()
    log.append("closed")
    return x * 2


def _send_across_break(x, log):
    g = _accumulator(log)
    next(g)
    g.send(2.0)
    _brk()
    v = g.send(float(x.min()))
    g.close()
    return x - v


def _delegate(log):
    r = yield from _accumulator(log)
    log.append(("delegate got", r))


def _yield_from_driven(x, log):
    g = _delegate(log)
    next(g)
    s = g.send(float(x.sum()))
    g.close()
    return x / s if s else x


def _coro_like(x, log):
    def co():
        got = yield "ready"
        log.append(got.sum())
        return got * 2
    c = co()
    log.append(c.send(None))
    try:
        c.send(x)
    except StopIteration as stop:
        return stop.value
    return None


def _gen_passed_in(x, g):
    out = []
    for v in g:
        if v > 2:
            break
        out.append(x * v)
    return out, next(g, "done")


def _gen_throw_uncaught(x, log):
    g = _accumulator(log)
    next(g)
    try:
        g.throw(KeyError("k"))
    except KeyError as e:
        return x, repr(e)
    return None


_logs = lambda: (X.copy(), [])   # noqa: E731
case(_send_sums, _logs)
case(_throw_into, _logs)
case(_close_early, _logs)
case(_send_across_break, _logs)
case(_yield_from_driven, _logs)
case(_coro_like, _logs)
case(_gen_passed_in, lambda: (X.copy(), iter([1, 2, 3, 4])))
case(_gen_throw_uncaught, _logs)


# ------------------------------------------------------------- context managers

class Swallow:
    def __init__(self, log, verdict=True):
        self.log, self.verdict = log, verdict

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, tp, val, tb):
        self.log.append(tp.__name__ if tp else None)
        return self.verdict


class Replace:
    def __enter__(self):
        return self

    def __exit__(self, tp, val, tb):
        if tp is not None:
            raise RuntimeError("replaced") from val
        return False


def _exit_swallows_python_error(x, log):
    with Swallow(log):
        y = x * 2
        1 / 0
    return y


def _exit_truthy_string(x, log):
    with Swallow(log, "yes"):
        x[0] = 3.0
        np.linalg.inv(SING)
    return x


def _exit_falsy_reraises(x, log):
    with Swallow(log, 0):
        x[10]
    return x


def _exit_replaces(x):
    with Replace():
        x = x + 1
        raise KeyError("inner")
    return x


@contextlib.contextmanager
def _guarded(log):
    log.append("in")
    try:
        yield
    except ZeroDivisionError as e:
        log.append("cm caught")
        raise ValueError("from cm") from e
    finally:
        log.append("cm out")


def _contextmanager_reraise(x, log):
    with _guarded(log):
        y = x.sum()
        y / 0 if isinstance(y, int) else 1 / 0
    return y


def _nested_inner_swallows(x, log):
    with Swallow(log, False):
        with Swallow(log, True):
            x = x * 3
            raise IndexError("i")
        x = x + 1
    return x


def _suppress_graph_error(x, log):
    with contextlib.suppress(np.linalg.LinAlgError):
        log.append("before")
        np.linalg.inv(SING)
        log.append("not reached")
    return x


case(_exit_swallows_python_error, _logs)
case(_exit_truthy_string, _logs)
case(_exit_falsy_reraises, _logs)
case(_exit_replaces, (X,))
case(_contextmanager_reraise, _logs)
case(_nested_inner_swallows, _logs)
case(_suppress_graph_error, _logs)


# --------------------------------------------------------- finally and exceptions

def _finally_overrides_raise(x):
    try:
        x[10]
    finally:
        return x * 2   # noqa: B012 (the override is the point)


def _finally_overrides_return(x, log):
    try:
        return x + 1
    finally:
        log.append("finally")
        return x - 1   # noqa: B012


def _finally_mutates_returned(x):
    try:
        return x
    finally:
        x += 1


def _raise_from(x):
    try:
        try:
            x[10]
        except IndexError as e:
            raise ValueError(f"sum {x.sum():.1f}") from e
    except ValueError as v:
        return type(v.__cause__).__name__, str(v), v.__suppress_context__


def _implicit_context(x):
    try:
        try:
            np.linalg.inv(SING)
        except np.linalg.LinAlgError:
            raise KeyError(x.size)
    except KeyError as k:
        return type(k.__context__).__name__, k.args


def _notes(x):
    try:
        e = ValueError("v")
        e.add_note(f"max {x.max()}")
        e.add_note(str(x.dtype))
        raise e
    except ValueError as v:
        return v.__notes__


def _except_star(x, log):
    try:
        raise ExceptionGroup("g", [ValueError(1), KeyError(2), ValueError(3)])
    except* ValueError as eg:
        log.append([e.args for e in eg.exceptions])
    except* KeyError as eg:
        log.append(len(eg.exceptions))
    return x + 1


def _exc_info_after_break(x):
    try:
        x[10]
    except IndexError:
        _brk()
        tp, val, _ = sys.exc_info()
        return tp.__name__, str(val), x.sum()


def _exc_info_restored(x):
    try:
        raise KeyError("outer")
    except KeyError:
        try:
            raise ValueError("inner")
        except ValueError:
            pass
        return sys.exc_info()[0].__name__, x * 2


def _from_none(x):
    try:
        try:
            x[10]
        except IndexError:
            raise RuntimeError("clean") from None
    except RuntimeError as e:
        return e.__suppress_context__, e.__context__ is not None, e.__cause__


def _exception_with_array(x):
    raise ValueError(x.sum(), x * 2)


case(_finally_overrides_raise, (X,))
case(_finally_overrides_return, _logs)
case(_finally_mutates_returned, lambda: (X.copy(),))
case(_raise_from, (X,))
case(_implicit_context, (X,))
case(_notes, (X,))
case(_except_star, _logs)
case(_exc_info_after_break, (X,))
case(_exc_info_restored, (X,))
case(_from_none, (X,))
case(_exception_with_array, (X,))


# -------------------------------------------------------------- class machinery

class Registered:
    registry: list = []

    def __init_subclass__(cls, tag="none", **kw):
        super().__init_subclass__(**kw)
        Registered.registry.append((cls.__name__, tag))


def _subclass_inside(x):
    class Child(Registered, tag="c"):
        scale = 2.0
    return x * Child.scale, list(Registered.registry)


class Named:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return getattr(obj, self.name, 0.0) + 1.0


class HasNamed:
    weight = Named()


def _set_name_descriptor(x, o):
    return x * o.weight, HasNamed.weight.name


class Generic:
    def __class_getitem__(cls, item):
        return (cls.__name__, item)


def _class_getitem(x):
    return Generic[int], Generic[x.dtype.type], x * 2


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = 1.0


def _slots_write(x, s):
    s.b = x.sum()
    try:
        s.c = 1
    except AttributeError as e:
        return x * s.a, s.b, type(e).__name__
    return None


@dataclasses.dataclass(frozen=True)
class Frozen:
    k: float = 2.0


def _frozen_write(x, f):
    try:
        f.k = 3.0
    except dataclasses.FrozenInstanceError:
        return x * f.k, "frozen"
    return x, "written"


@dataclasses.dataclass
class Bag:
    items: list = dataclasses.field(default_factory=list)
    n: int = 0


def _factory_field(x):
    b = Bag()
    b.items.append(x.sum())
    b.n += len(b.items)
    return b, Bag().items


@dataclasses.dataclass(order=True)
class Ranked:
    rank: int
    name: str = "r"


def _dataclass_order(x):
    a, b = Ranked(int(x.argmax())), Ranked(2, "z")
    return a < b, max(a, b), dataclasses.astuple(a), dataclasses.replace(a, rank=9)


class Cached:
    def __init__(self, x, log):
        self.x, self.log = x, log

    @functools.cached_property
    def total(self):
        self.log.append("computed")
        return self.x.sum()


def _cached_property(x, log):
    c = Cached(x, log)
    a = c.total
    b = c.total
    del c.total
    return a + b + c.total, c.__dict__["total"]


@functools.lru_cache(maxsize=4)
def _table(n):
    return tuple(range(n))


def _lru_helper(x, n):
    t = _table(n)
    return x * len(t), _table.cache_info().currsize


def _reset_lru():
    _table.cache_clear()


def _operator_funcs(x):
    get = operator.itemgetter(0, -1)
    return (operator.mul(x, 2), get(x), operator.attrgetter("shape")(x),
            operator.methodcaller("sum")(x), operator.neg(x[1]), operator.index(np.int64(3)))


def _reduce_add(x):
    return functools.reduce(operator.add, [x, x * 2, x * 3]), functools.reduce(max, x)


class UfuncSpy:
    def __init__(self, v, log):
        self.v, self.log = v, log

    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        self.log.append((ufunc.__name__, method))
        args = [i.v if isinstance(i, UfuncSpy) else i for i in inputs]
        return getattr(ufunc, method)(*args, **kw)


def _array_ufunc(x, log):
    s = UfuncSpy(x, log)
    return np.add(s, 1), np.multiply(2, s), x + 1


class FuncSpy:
    def __init__(self, v, log):
        self.v, self.log = v, log

    def __array_function__(self, func, types, args, kwargs):
        self.log.append(func.__name__)
        return func(*[a.v if isinstance(a, FuncSpy) else a for a in args], **kwargs)


def _array_function(x, log):
    s = FuncSpy(x, log)
    return np.sum(s), np.concatenate([x, x]).shape


class Tagged(np.ndarray):
    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "fresh")


def _subclass_tag(x):
    t = x.view(Tagged)
    t.tag = "mine"
    u = t * 2
    return type(u).__name__, u.tag, t[1:].tag, np.asarray(u)


class Counted:
    made = 0

    def __init__(self):
        type(self).made += 1

    @classmethod
    def how_many(cls):
        return cls.made

    @staticmethod
    def twice(v):
        return v * 2


def _classmethod_counter(x):
    Counted()
    return Counted.twice(x) * Counted.how_many()


def _reset_counted():
    Counted.made = 0
    Registered.registry.clear()


class ArrayEq:
    def __eq__(self, other):
        return np.array([True, False])


def _ambiguous_in(x):
    try:
        return ArrayEq() in [1, 2], x
    except ValueError as e:
        return str(e), x


@functools.total_ordering
class Version:
    def __init__(self, n):
        self.n = n

    def __eq__(self, o):
        return self.n == o.n

    def __lt__(self, o):
        return self.n < o.n


def _total_ordering(x):
    a, b = Version(x.size), Version(3)
    return a >= b, a <= b, a > b, x if a > b else -x


case(_subclass_inside, (X,), setup=_reset_counted)
case(_set_name_descriptor, (X, HasNamed()))
case(_class_getitem, (X,))
case(_slots_write, lambda: (X.copy(), Slotted()))
case(_frozen_write, (X, Frozen()))
case(_factory_field, (X,))
case(_dataclass_order, (X,), (-X,))
case(_cached_property, _logs)
case(_lru_helper, (X, 3), (X, 5), (X, 0), setup=_reset_lru)
case(_operator_funcs, (X,))
case(_reduce_add, (X,))
case(_array_ufunc, _logs)
case(_array_function, _logs)
case(_subclass_tag, (X,))
case(_classmethod_counter, (X,), setup=_reset_counted, watch=lambda: Counted.made)
case(_ambiguous_in, (X,))
case(_total_ordering, (X,), (X[:2],))


@scenario
def set_name_value_changes(r):
    def g(x, o):
        return x * o.weight
    f = r.compile(g)
    o = HasNamed()
    r.call(f, X.copy(), o)
    o._weight = 5.0
    r.call(f, X.copy(), o)
    r.call(f, X.copy(), o)


@scenario
def non_data_descriptor_replaced(r):
    def g(x, o):
        return x * o.k
    f = r.compile(g)
    o = HasNonData()
    r.call(f, X.copy(), o)
    o.__dict__["k"] = 3.0
    r.call(f, X.copy(), o)
    del o.__dict__["k"]
    r.call(f, X.copy(), o)


@scenario
def lru_cache_cleared_between(r):
    def g(x, n):
        return x * len(_table(n)), _table.cache_info().hits
    _table.cache_clear()
    f = r.compile(g)
    r.call(f, X.copy(), 3)
    r.call(f, X.copy(), 3)
    _table.cache_clear()
    r.call(f, X.copy(), 3)


# ------------------------------------------------------------- more of the same

def _gen_closes_over_array(x, log):
    def gen():
        v = yield x.sum()
        yield v * x
    g = gen()
    a = next(g)
    return a, g.send(a * 2), next(g, "end")


def _yield_from_returns_array(x, log):
    def inner():
        yield 1
        return x * 3

    def outer():
        r = yield from inner()
        yield r
    g = outer()
    return next(g), next(g)


def _sum_of_generator(x, log):
    def gen():
        for i in range(3):
            yield x * i
    return sum(gen()), list(map(float, gen()))[1]


def _throw_into_fresh(x, log):
    def gen():
        yield 1
    g = gen()
    try:
        g.throw(ValueError("t"))
    except ValueError as e:
        return str(e), x, g.gi_frame is None


def _iterator_across_break(x, log):
    it = iter([x, x * 2])
    a = next(it)
    _brk()
    b = next(it)
    return a + b, next(it, None)


def _group_with_array_payload(x, log):
    try:
        raise ExceptionGroup("eg", [ValueError(x.sum()), TypeError("t")])
    except* ValueError as eg:
        log.append(repr(eg.exceptions[0]))
    except* TypeError:
        log.append("t")
    return x


def _exc_info_after_handler(x, log):
    try:
        x[10]
    except IndexError:
        info = sys.exc_info()
    return info[0].__name__, sys.exc_info() == (None, None, None), x


def _exc_info_in_finally(x, log):
    try:
        try:
            1 / 0
        finally:
            log.append(sys.exc_info()[0].__name__)
    except ZeroDivisionError as z:
        return repr(z), x


def _error_kept_past_handler(x, log):
    e = None
    try:
        x[10]
    except IndexError as err:
        e = err
    return type(e).__name__, e.__traceback__ is not None, x


def _continue_in_try_loop(x, log):
    for i in range(3):
        try:
            if i == 1:
                x[10]
            log.append(i)
        except IndexError:
            continue
        finally:
            log.append(("f", i))
    return x


def _return_in_except_with_finally(x, log):
    try:
        return x[10]
    except IndexError:
        return x[1]
    finally:
        log.append("fin")


def _cause_set_by_hand(x, log):
    try:
        np.linalg.inv(SING)
    except np.linalg.LinAlgError as e:
        log.append(str(e))
        e2 = ValueError("wrapped")
        e2.__cause__ = e
        log.append(e2.__cause__ is e)
    return x


case(_gen_closes_over_array, _logs)
case(_yield_from_returns_array, _logs)
case(_sum_of_generator, _logs)
case(_throw_into_fresh, _logs)
case(_iterator_across_break, _logs)
case(_group_with_array_payload, _logs)
case(_exc_info_after_handler, _logs)
case(_exc_info_in_finally, _logs)
case(_error_kept_past_handler, _logs)
case(_continue_in_try_loop, _logs)
case(_return_in_except_with_finally, _logs)
case(_cause_set_by_hand, _logs)
