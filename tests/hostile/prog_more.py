"""More Python around array code: generators and context managers across graph breaks,
exceptions with tracebacks and notes, ``__del__`` and weakref finalizers, descriptors
and ``__set_name__``, ``__class_getitem__``, dataclasses with ``__post_init__``,
``functools.cache`` / ``lru_cache`` wrappers, ``contextlib.ExitStack``, ``nonlocal``
counters, and loops long enough to become loop nodes (more than 8 iterations, see
docs/loops.md) with Python state around them."""

import contextlib
import dataclasses
import functools
import gc
import traceback
import warnings
import weakref

import numpy as np
from hostile_check import Programs

reg = Programs("more")
case, scenario = reg.case, reg.scenario

X = np.linspace(-1, 1, 5)
M = np.arange(12.0).reshape(4, 3)
SING = np.ones((2, 2))
EVENTS = []


def _reset():
    gc.collect()   # finalizers of earlier scenarios' objects log now, not into this one
    EVENTS.clear()


def _events():
    return list(EVENTS)


# -- generators and context managers across breaks -----------------------------------------

def counting_gen(n):
    for i in range(n):
        EVENTS.append(f"gen {i}")
        yield i


def gen_with_cleanup(n):
    try:
        yield from range(n)
    finally:
        EVENTS.append("cleanup")


def _gen_across_print(x):
    g = counting_gen(4)
    a = next(g)
    print("between", a)
    b = next(g)
    return x * (a + b)


case(_gen_across_print, (X,), setup=_reset, watch=_events)


def _gen_with_cleanup_exhausted(x):
    total = 0
    for v in gen_with_cleanup(3):
        total += v
    EVENTS.append("after loop")
    return x + total


case(_gen_with_cleanup_exhausted, (X,), setup=_reset, watch=_events)


def _gen_with_cleanup_closed_by_exception(x):
    g = gen_with_cleanup(5)
    try:
        for v in g:
            if v == 2:
                raise KeyError(v)
    except KeyError as e:
        EVENTS.append(f"caught {e.args[0]}")
    del g
    EVENTS.append("after")
    return x - 1


case(_gen_with_cleanup_closed_by_exception, (X,), setup=_reset, watch=_events)


def _gen_send(x):
    def acc():
        total = 0.0
        while True:
            v = yield total
            total += v
    g = acc()
    next(g)
    g.send(2.0)
    s = g.send(3.0)
    return x * s


case(_gen_send, (X,))


def _gen_yield_from(x):
    def inner():
        yield 1
        yield 2
        return 10

    def outer():
        r = yield from inner()
        yield r
    return x * sum(outer())


case(_gen_yield_from, (X,))


@contextlib.contextmanager
def tagged(tag):
    EVENTS.append(f"enter {tag}")
    try:
        yield tag
    finally:
        EVENTS.append(f"exit {tag}")


def _contextmanager_around_ops(x):
    with tagged("a") as t:
        y = x * 2
        EVENTS.append(t)
    return y + 1


case(_contextmanager_around_ops, (X,), setup=_reset, watch=_events)


def _contextmanager_exception_inside(x):
    try:
        with tagged("b"):
            y = x * 2
            raise ValueError("inside")
    except ValueError as e:
        EVENTS.append(str(e))
        y = x
    return y


case(_contextmanager_exception_inside, (X,), setup=_reset, watch=_events)


def _contextmanager_suppressing(x):
    with contextlib.suppress(IndexError):
        y = x * 3
        y = y[10]
    return y


case(_contextmanager_suppressing, (X,))


class Recorder:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, tp, val, tb):
        self.log.append(f"exit {tp.__name__ if tp else None}")
        return False


def _class_context_manager(x, log):
    with Recorder(log):
        y = np.sqrt(np.abs(x))
    log.append(float(y.sum()))
    return y


case(_class_context_manager, (X, []))


def _exit_stack(x):
    with contextlib.ExitStack() as stack:
        for tag in ("p", "q", "r"):
            stack.enter_context(tagged(tag))
        stack.callback(EVENTS.append, "callback")
        y = x + 1
    return y


case(_exit_stack, (X,), setup=_reset, watch=_events)


def _exit_stack_pop_all(x):
    with contextlib.ExitStack() as stack:
        stack.enter_context(tagged("kept"))
        later = stack.pop_all()
        y = x * 2
    EVENTS.append("after with")
    later.close()
    return y


case(_exit_stack_pop_all, (X,), setup=_reset, watch=_events)


# -- exceptions: notes, tracebacks, groups -----------------------------------------------

def _add_note(x):
    try:
        np.linalg.inv(SING)
    except np.linalg.LinAlgError as e:
        e.add_note("while inverting")
        return list(e.__notes__), x * 0
    return None, x


case(_add_note, (X,))


def _note_on_reraise(x):
    y = x * 2
    try:
        raise ValueError(float(y[0]))
    except ValueError as e:
        e.add_note("from the compiled function")
        raise


@scenario
def s_note_survives_reraise(r):
    f = r.compile(_note_on_reraise)
    r.call(f, X)
    try:
        f(X)
    except ValueError as e:
        r.see("notes", e.__notes__)


def _traceback_names(x):
    try:
        y = x[[7]]
    except IndexError as e:
        names = [fs.name for fs in traceback.extract_tb(e.__traceback__)]
        return names[-1:] if names else names, x
    return y, x


case(_traceback_names, (X,))


def _exception_group(x):
    errors = []
    for i in range(3):
        try:
            if x[i] < 0:
                raise ValueError(i)
        except ValueError as e:
            errors.append(e)
    if errors:
        raise ExceptionGroup("negatives", errors)
    return x


case(_exception_group, (X,), (np.abs(X),))


def _raise_from_none(x):
    try:
        return x[9]
    except IndexError:
        raise KeyError("missing") from None


case(_raise_from_none, (X,))


def _exception_attributes_kept(x):
    e = ValueError("v")
    e.payload = x * 2
    raise e


@scenario
def s_exception_payload(r):
    f = r.compile(_exception_attributes_kept)
    try:
        f(X)
    except ValueError as e:
        r.see("payload", e.payload)


# -- __del__ and weakref finalizers -----------------------------------------------------------

class Finalized:
    def __init__(self, tag):
        self.tag = tag
        weakref.finalize(self, EVENTS.append, f"finalize {tag}")


def _finalizer_of_argument(x, o):
    EVENTS.append(o.tag)
    return x * 2


@scenario
def s_finalizer_runs_when_caller_drops(r):
    _reset()
    f = r.compile(_finalizer_of_argument)
    o = Finalized("arg")
    r.call(f, X, o)
    del o
    r.see("events", _events())


def _object_made_and_returned(x):
    o = Finalized("made")
    return o, x + 1


@scenario
def s_finalizer_of_returned_object(r):
    _reset()
    f = r.compile(_object_made_and_returned)
    out = r.call(f, X)
    r.see("events before", _events())
    del out
    r.see("events after", _events())


def _weakref_callback(x, box):
    ref = weakref.ref(box, lambda _: EVENTS.append("callback"))
    EVENTS.append(ref() is box)
    return x * 3


@scenario
def s_weakref_callback(r):
    _reset()
    f = r.compile(_weakref_callback)
    box = Finalized("box")
    r.call(f, X, box)
    del box
    r.see("events", _events())


def _weak_value_dict(x, cache):
    y = x * 2
    cache["y"] = Finalized("value")
    return y, len(cache)


case(_weak_value_dict, lambda: (X, weakref.WeakValueDictionary()), setup=_reset,
     watch=_events)


# -- descriptors, __set_name__, __class_getitem__ ---------------------------------------------

class Logged:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        EVENTS.append(f"get {self.name}")
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        EVENTS.append(f"set {self.name}")
        setattr(obj, self.name, value)


class Scaled:
    factor = Logged()

    def __init__(self, f):
        self.factor = f


def _descriptor_read_write(x, s):
    y = x * s.factor
    s.factor = s.factor + 1
    return y


case(_descriptor_read_write, lambda: (X, Scaled(2.0)), setup=_reset, watch=_events)


class Typed:
    def __class_getitem__(cls, item):
        EVENTS.append(f"getitem {item.__name__}")
        return (cls, item)


def _class_getitem(x):
    alias = Typed[float]
    return x * 2, alias[1].__name__


case(_class_getitem, (X,), setup=_reset, watch=_events)


class Cached:
    calls = 0

    @functools.cached_property
    def table(self):
        Cached.calls += 1
        return np.arange(5.0)


def _cached_property(x, c):
    return x + c.table + c.table, Cached.calls


def _reset_cached():
    Cached.calls = 0


case(_cached_property, lambda: (X, Cached()), setup=_reset_cached)


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = 1.0


def _slots_missing_attribute(x, s):
    try:
        return x * s.b
    except AttributeError:
        s.b = 2.0
        return x * s.a


case(_slots_missing_attribute, lambda: (X, Slotted()))


# -- dataclasses --------------------------------------------------------------------------

@dataclasses.dataclass
class Params:
    scale: float
    shift: float = 0.0
    history: list = dataclasses.field(default_factory=list)

    def __post_init__(self):
        self.history.append("post_init")
        if self.scale < 0:
            raise ValueError("negative scale")


def _dataclass_made_inside(x):
    p = Params(2.0, 1.0)
    return x * p.scale + p.shift, p.history


case(_dataclass_made_inside, (X,))


def _dataclass_post_init_raises(x):
    p = Params(-1.0)
    return x * p.scale


case(_dataclass_post_init_raises, (X,))


def _dataclass_argument_mutated(x, p):
    p.history.append(float(x[0]))
    p.shift += 1
    return x * p.scale + p.shift


case(_dataclass_argument_mutated, lambda: (X, Params(3.0)))


@dataclasses.dataclass(frozen=True)
class Frozen:
    w: float


def _frozen_dataclass_write(x, f):
    try:
        f.w = 5.0
    except dataclasses.FrozenInstanceError as e:
        return x * f.w, type(e).__name__
    return x, None


case(_frozen_dataclass_write, (X, Frozen(2.0)))


def _dataclass_replace_and_eq(x, p):
    q = dataclasses.replace(p, shift=4.0)
    return x + q.shift, q == p, dataclasses.asdict(q)


case(_dataclass_replace_and_eq, lambda: (X, Params(1.0)))


# -- functools.cache / lru_cache ----------------------------------------------------------

@functools.lru_cache(maxsize=4)
def table(n):
    EVENTS.append(f"table {n}")
    return np.arange(float(n))


def _lru_cache_helper(x):
    return x + table(5), table.cache_info().hits


@scenario
def s_lru_cache_helper(r):
    table.cache_clear()
    _reset()
    f = r.compile(_lru_cache_helper)
    for _ in range(3):
        r.call(f, X)
    r.see("events", _events())
    r.see("info", tuple(table.cache_info()))


@functools.cache
def coefficient(k):
    EVENTS.append(f"coef {k}")
    return k * 0.5


def _cache_of_scalars(x):
    return x * coefficient(2) + coefficient(3)


@scenario
def s_cache_of_scalars(r):
    coefficient.cache_clear()
    _reset()
    f = r.compile(_cache_of_scalars)
    r.call(f, X)
    r.call(f, X)
    coefficient.cache_clear()
    r.call(f, X)
    r.see("events", _events())


def _lru_cache_made_inside(x):
    @functools.lru_cache(maxsize=8)
    def sq(v):
        EVENTS.append("sq")
        return v * v
    return x * sq(3.0) + sq(3.0), sq.cache_info().misses


case(_lru_cache_made_inside, (X,), setup=_reset, watch=_events)


# -- closures with nonlocal counters -------------------------------------------------------

def make_counter():
    n = 0

    def bump(x):
        nonlocal n
        n += 1
        return x * n
    return bump


@scenario
def s_nonlocal_counter(r):
    bump = make_counter()
    f = r.compile(bump)
    for _ in range(3):
        r.call(f, X)
    r.see("cell", bump.__closure__[0].cell_contents)


def _nonlocal_inside(x):
    calls = 0

    def step(v):
        nonlocal calls
        calls += 1
        return v + 1
    y = step(step(x))
    return y, calls


case(_nonlocal_inside, (X,))


def _closure_list_of_counters(x):
    fns = []
    for i in range(3):
        def f(v, i=i):
            return v * i
        fns.append(f)
    return [fn(x) for fn in fns]


case(_closure_list_of_counters, (X,))


def _nonlocal_across_break(x):
    total = 0

    def add(v):
        nonlocal total
        total += v
    add(1)
    print("break")
    add(2)
    return x * total


case(_nonlocal_across_break, (X,))


# -- loop nodes with Python state around them ------------------------------------------------

def _loop_then_append(x, log):
    acc = x.copy()
    for i in range(20):
        acc = acc * 0.9 + x
    log.append(float(acc[0]))
    return acc


case(_loop_then_append, (X, []))


def _append_then_loop_writes_input(x, log):
    log.append("before")
    for i in range(12):
        x[1:] = x[1:] * 0.5 + x[:-1]
    return x


case(_append_then_loop_writes_input, (X, []))


def _loop_counter_attribute(x, o):
    for i in range(10):
        x = x + 1
    o.n = o.n + 10
    return x


class Box:
    def __init__(self):
        self.n = 0


case(_loop_counter_attribute, lambda: (X.copy(), Box()))


def _loop_with_raising_op(x, log):
    log.append("start")
    acc = x.copy()
    for i in range(10):
        acc = acc + i
    return np.linalg.inv(SING) @ acc[:2]


case(_loop_with_raising_op, (X, []))


def _loop_over_rows_and_list(m, out):
    for row in m:
        out.append(float(row.sum()))
    return m * 2


case(_loop_over_rows_and_list, (np.arange(30.0).reshape(10, 3), []))


def _loop_index_used_after(x):
    for i in range(15):
        x = x + i
    return x, i


case(_loop_index_used_after, (X,))


def _loop_with_warning_inside(x):
    acc = x.copy()
    for i in range(10):
        acc = acc / (x - x)
    return acc


case(_loop_with_warning_inside, (X,))


def _loop_break_on_value(x):
    acc = x.copy()
    for i in range(50):
        acc = acc * 2
        if acc.max() > 100:
            break
    return acc, i


case(_loop_break_on_value, (X + 2,))


def _loop_global_counter(x):
    global LOOPS
    for i in range(12):
        x = x * 1.1
    LOOPS += 1
    return x


LOOPS = 0


def _reset_loops():
    global LOOPS
    LOOPS = 0


case(_loop_global_counter, (X,), setup=_reset_loops, watch=lambda: LOOPS)


def _loop_inside_context_manager(x):
    with tagged("loop"):
        for i in range(10):
            x = x + 1
    return x


case(_loop_inside_context_manager, (X,), setup=_reset, watch=_events)


def _loop_errstate_raise_inside(x):
    acc = x.copy()
    with np.errstate(divide="raise"):
        for i in range(10):
            acc = acc + 1.0 / (x + 2)
    return acc


case(_loop_errstate_raise_inside, (X,), (X - 1,))


# -- raising graphs with Python state (rerun and warnings) -----------------------------------

def _warn_append_then_raise(x, log):
    log.append("a")
    y = np.log(x - x)
    return np.linalg.inv(SING) + y[0]


case(_warn_append_then_raise, (X, []))


def _write_append_warn_raise(x, log):
    log.append("before")
    x[0] = 7.0
    y = x / 0.0
    return np.linalg.inv(SING) * y[1]


case(_write_append_warn_raise, (X, []))


def _global_seterr_raise(x, log):
    log.append("before")
    return x / 0.0


@scenario
def s_global_seterr_raise_after_append(r):
    f = r.compile(_global_seterr_raise)
    old = np.seterr(divide="raise")
    try:
        r.call(f, X, [])
        r.call(f, X, [])
    finally:
        np.seterr(**old)


def _raise_inside_helper_after_attr(o, x):
    o.n = 3

    def helper(v):
        return np.linalg.cholesky(v)
    return helper(-np.eye(2)) + x[0]


case(_raise_inside_helper_after_attr, lambda: (Box(), X.copy()))


def _index_error_after_dict_write(x, d, idx):
    d["k"] = 1
    return x[idx]


case(_index_error_after_dict_write, (X, {}, np.array([0, 9])), (X, {}, np.array([0, 1])))


def _warnings_caught_inside(x):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y = x / 0.0
    return y, len(w)


case(_warnings_caught_inside, (X,))
