"""State: generators dropped half-way (their ``finally`` must run when plain Python runs
it), properties, ``__getattribute__``, ``__getattr__`` and descriptors with side
effects read twice, counters, closures with ``nonlocal``, containers mutated while
iterated, dunder methods with side effects, random streams, stateful iterators."""

import collections
import functools
import gc
import itertools

import numpy as np
from hostile_check import Programs

reg = Programs("state")
case, scenario = reg.case, reg.scenario

X = np.linspace(-1, 1, 5)
EVENTS = []
COUNT = 0
COUNTER = None           # set by s_itertools_count_global


def _reset():
    global COUNT
    gc.collect()   # finalizers of earlier scenarios' objects log now, not into this one
    EVENTS.clear()
    COUNT = 0


def _events():
    return list(EVENTS)


def gen_with_finally(n=3):
    try:
        for i in range(n):
            EVENTS.append(f"yield {i}")
            yield i
    finally:
        EVENTS.append("finally")


def gen_printing_finally():
    try:
        yield 1
        yield 2
    finally:
        print("gen finally")


# -- generators --------------------------------------------------------------------------

def _gen_dropped_after_next(x):
    g = gen_with_finally()
    v = next(g)
    EVENTS.append("after next")
    return x * v


case(_gen_dropped_after_next, (X,), setup=_reset, watch=_events)


def _gen_deleted_mid_function(x):
    g = gen_with_finally()
    next(g)
    del g
    EVENTS.append("after del")
    return x + 1


case(_gen_deleted_mid_function, (X,), setup=_reset, watch=_events)


def _gen_rebound_mid_function(x):
    g = gen_with_finally()
    next(g)
    g = None
    EVENTS.append("after rebind")
    return x + 1, g


case(_gen_rebound_mid_function, (X,), setup=_reset, watch=_events)


def _gen_loop_break(x):
    for v in gen_with_finally(5):
        if v == 1:
            break
    EVENTS.append("after loop")
    return x * v


case(_gen_loop_break, (X,), setup=_reset, watch=_events)


def _gen_print_order(x):
    g = gen_printing_finally()
    next(g)
    print("body")
    return x


case(_gen_print_order, (X,))


def _gen_print_del_order(x):
    g = gen_printing_finally()
    next(g)
    del g
    print("after del")
    return x


case(_gen_print_del_order, (X,))


def _gen_close(x):
    g = gen_with_finally()
    next(g)
    g.close()
    EVENTS.append("after close")
    return x


case(_gen_close, (X,), setup=_reset, watch=_events)


def _gen_returned(x):
    g = gen_with_finally()
    next(g)
    return g, x


case(_gen_returned, (X,), setup=_reset, watch=_events)


def _gen_exhausted(x):
    total = 0
    for v in gen_with_finally(3):
        total += v
    EVENTS.append("done")
    return x * total


case(_gen_exhausted, (X,), setup=_reset, watch=_events)


def _genexpr_partial(x):
    first = next(v for v in x if v > 0)
    return first


case(_genexpr_partial, (X,))


def _gen_send(x):
    def acc():
        total = 0
        while True:
            v = yield total
            total += v
    g = acc()
    next(g)
    g.send(2)
    return x * g.send(3)


case(_gen_send, (X,))


def _gen_return_value(x):
    def g():
        yield 1
        return 42
    it = g()
    next(it)
    try:
        next(it)
    except StopIteration as e:
        return x * e.value
    return x


case(_gen_return_value, (X,))


def _yield_from(x):
    def inner():
        yield 1
        yield 2

    def outer():
        yield from inner()
        yield 3
    return [x * v for v in outer()]


case(_yield_from, (X,))


def _external_gen(g, x):
    return x * next(g)


@scenario
def s_generator_argument_advances(r):
    f = r.compile(_external_gen)
    g = iter(range(10))
    for _ in range(3):
        r.call(f, g, X)
    r.see("rest", list(g))


@scenario
def s_generator_function_argument_advances(r):
    """Plain Python closes the generator at ``del g`` (reference counting). The cyclic
    GC is off meanwhile, so that anything else keeping ``g`` alive (a reference cycle)
    shows every time, not only when no collection happened to run."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        _reset()
        f = r.compile(_external_gen)
        g = gen_with_finally(5)
        for _ in range(3):
            r.call(f, g, X)
        r.see("events", list(EVENTS))
        del g
        r.see("events after del", list(EVENTS))
    finally:
        if enabled:
            gc.enable()


def _iterator_partial(it, x):
    a = next(it)
    b = next(it)
    return x * (a + b)


@scenario
def s_list_iterator_argument(r):
    f = r.compile(_iterator_partial)
    it = iter([1.0, 2.0, 3.0, 4.0, 5.0])
    r.call(f, it, X)
    r.call(f, it, X)
    r.call(f, it, X)     # StopIteration
    r.see("rest", list(it))


def _count_global_iter(x):
    return x * next(COUNTER)


@scenario
def s_itertools_count_global(r):
    globals()["COUNTER"] = itertools.count()
    f = r.compile(_count_global_iter)
    for _ in range(3):
        r.call(f, X)


# -- properties, descriptors, attribute hooks --------------------------------------------

class Counting:
    def __init__(self):
        self.reads = 0

    @property
    def p(self):
        self.reads += 1
        return float(self.reads)


def _prop_twice(o, x):
    return x * o.p + o.p


case(_prop_twice, (Counting(), X), calls=3)


def _prop_in_branch(o, x):
    if o.p > 1:
        return x * o.p
    return x - o.p


@scenario
def s_prop_in_branch(r):
    o = Counting()
    f = r.compile(_prop_in_branch)
    for _ in range(3):
        r.call(f, o, X)
    r.see("reads", o.reads)


class Spy:
    def __init__(self):
        object.__setattr__(self, "log", [])
        object.__setattr__(self, "w", 2.0)

    def __getattribute__(self, name):
        if not name.startswith("_"):      # (dunders: isinstance and the snapshots read them)
            object.__getattribute__(self, "log").append(name)
        return object.__getattribute__(self, name)


def _getattribute_spy(o, x):
    return x * o.w + o.w


@scenario
def s_getattribute_side_effect(r):
    o = Spy()
    f = r.compile(_getattribute_spy)
    for _ in range(2):
        r.call(f, o, X)
    r.see("log", object.__getattribute__(o, "log"))


class Lazy:
    def __init__(self):
        self.misses = 0

    def __getattr__(self, name):
        self.misses += 1
        return float(len(name))


def _getattr_missing(o, x):
    return x * o.abc + o.z


case(_getattr_missing, lambda: (Lazy(), X), calls=3)   # (deepcopy would ask __getattr__)


class SetSpy:
    def __init__(self):
        object.__setattr__(self, "writes", [])

    def __setattr__(self, name, value):
        self.writes.append(name)
        object.__setattr__(self, name, value)


def _setattr_spy(o, x):
    o.a = 1
    o.b = x.sum()
    o.a = 2
    return len(o.writes)


case(_setattr_spy, (SetSpy(), X))


class Desc:
    def __init__(self):
        self.gets = 0

    def __get__(self, obj, objtype=None):
        self.gets += 1
        return float(self.gets)


class WithDesc:
    d = Desc()


def _descriptor_reads(o, x):
    return x * o.d + o.d


@scenario
def s_descriptor_side_effect(r):
    desc = WithDesc.__dict__["d"]
    desc.gets = 0
    f = r.compile(_descriptor_reads)
    for _ in range(3):
        r.call(f, WithDesc(), X)
    r.see("gets", desc.gets)


class Truthy:
    def __init__(self):
        self.calls = 0

    def __bool__(self):
        self.calls += 1
        return self.calls % 2 == 1


def _bool_side_effect(o, x):
    if o:
        return x
    return -x


@scenario
def s_bool_side_effect(r):
    o = Truthy()
    f = r.compile(_bool_side_effect)
    for _ in range(4):
        r.call(f, o, X)


class Sized:
    def __init__(self):
        self.calls = 0

    def __len__(self):
        self.calls += 1
        return self.calls


def _len_side_effect(o, x):
    return x[:len(o)], len(o)


@scenario
def s_len_side_effect(r):
    o = Sized()
    f = r.compile(_len_side_effect)
    for _ in range(3):
        r.call(f, o, X)


class Index:
    def __init__(self):
        self.calls = 0

    def __index__(self):
        self.calls += 1
        return self.calls % 3


def _index_side_effect(i, x):
    return x[i], x[i]


@scenario
def s_index_side_effect(r):
    i = Index()
    f = r.compile(_index_side_effect)
    for _ in range(3):
        r.call(f, i, X)


class Floaty:
    def __init__(self):
        self.calls = 0

    def __float__(self):
        self.calls += 1
        return float(self.calls)


def _float_side_effect(o, x):
    return x * float(o)


@scenario
def s_float_side_effect(r):
    o = Floaty()
    f = r.compile(_float_side_effect)
    for _ in range(3):
        r.call(f, o, X)


class ArrayLike:
    def __init__(self):
        self.calls = 0

    def __array__(self, dtype=None, copy=None):
        self.calls += 1
        return np.full(5, float(self.calls))


def _array_protocol(o, x):
    return x + np.asarray(o)


@scenario
def s_array_protocol_side_effect(r):
    o = ArrayLike()
    f = r.compile(_array_protocol)
    for _ in range(3):
        r.call(f, o, X)


class Iterable:
    def __init__(self):
        self.iters = 0

    def __iter__(self):
        self.iters += 1
        return iter([1.0, 2.0])


def _iter_side_effect(o, x):
    return [x * v for v in o] + [x for _ in o]


case(_iter_side_effect, (Iterable(), X), calls=3)


class KeyCounting:
    hashes = 0

    def __hash__(self):
        KeyCounting.hashes += 1
        return 1

    def __eq__(self, other):
        return isinstance(other, KeyCounting)


def _hash_side_effect(d, k, x):
    return x * d[k] + d.get(k, 0)


@scenario
def s_hash_side_effect(r):
    KeyCounting.hashes = 0
    k = KeyCounting()
    d = {k: 2.0}
    f = r.compile(_hash_side_effect)
    for _ in range(2):
        r.call(f, d, k, X)
    r.see("hashes", KeyCounting.hashes)


class Noisy:
    def __init__(self, tag):
        self.tag = tag

    def __del__(self):
        EVENTS.append(f"del {self.tag}")


def _del_order(x):
    a = Noisy("a")
    EVENTS.append("made a")
    a = Noisy("b")
    EVENTS.append("made b")
    del a
    EVENTS.append("end")
    return x


case(_del_order, (X,), setup=_reset, watch=_events)


# -- counters and closures ---------------------------------------------------------------

def _global_counter(x):
    global COUNT
    COUNT += 1
    return x * COUNT


case(_global_counter, (X,), calls=3, setup=_reset, watch=lambda: COUNT)


def _global_counter_twice(x):
    global COUNT
    COUNT += 1
    y = x * COUNT
    COUNT += 1
    return y + COUNT


case(_global_counter_twice, (X,), calls=3, setup=_reset, watch=lambda: COUNT)


def _make_counter():
    n = 0

    def step(x):
        nonlocal n
        n += 1
        return x * n
    return step


@scenario
def s_nonlocal_counter(r):
    step = _make_counter()
    f = r.compile(step)
    for _ in range(3):
        r.call(f, X)
    r.see("n", step.__closure__[0].cell_contents)


def _make_shared():
    hist = []

    def push(x):
        hist.append(x.sum())
        return len(hist)

    def peek():
        return list(hist)
    return push, peek


@scenario
def s_closure_list_shared(r):
    push, peek = _make_shared()
    f = r.compile(push)
    for _ in range(3):
        r.call(f, X)
    r.see("hist", peek())


def _inner_nonlocal(x):
    n = 0

    def bump():
        nonlocal n
        n += 1
    bump()
    bump()
    return x * n


case(_inner_nonlocal, (X,))


def _closure_escapes(x):
    k = 2.0

    def g(y):
        return y * k
    k = 3.0
    return g(x), g


case(_closure_escapes, (X,))


def _class_counter(o, x):
    type(o).calls += 1
    return x * type(o).calls


class Calls:
    calls = 0


@scenario
def s_class_attribute_counter(r):
    Calls.calls = 0
    f = r.compile(_class_counter)
    for _ in range(3):
        r.call(f, Calls(), X)
    r.see("Calls.calls", Calls.calls)


class Stepper:
    def __init__(self):
        self.n = 0

    def __call__(self, x):
        self.n += 1
        y = x * self.n
        self.n += 1
        return y, self.n


@scenario
def s_stateful_callable_object(r):
    s = Stepper()
    f = r.compile(s)
    for _ in range(3):
        r.call(f, X)
    r.see("n", s.n)


@functools.cache
def _cached_scale(k):
    EVENTS.append(f"computed {k}")
    return k * 2.0


def _uses_lru(x, k):
    return x * _cached_scale(k)


@scenario
def s_lru_cache_side_effect(r):
    _reset()
    _cached_scale.cache_clear()
    f = r.compile(_uses_lru)
    r.call(f, X, 1)
    r.call(f, X, 1)
    r.call(f, X, 2)
    r.see("events", list(EVENTS))


# -- containers mutated while iterated ------------------------------------------------------

def _dict_grows_in_loop(d):
    for k in d:
        d[k + "x"] = 1
    return d


case(_dict_grows_in_loop, ({"a": 1, "b": 2},))


def _dict_values_rewritten(d, x):
    for k in d:
        d[k] = d[k] * x
    return d


case(_dict_values_rewritten, ({"a": 1.0, "b": 2.0}, X))


def _dict_pop_in_loop(d):
    for k in list(d):
        if k.startswith("a"):
            d.pop(k)
    return d


case(_dict_pop_in_loop, ({"a1": 1, "b": 2, "a2": 3},))


def _dict_del_during_iter(d):
    for k in d:
        del d[k]
    return d


case(_dict_del_during_iter, ({"a": 1, "b": 2},))


def _list_grows_in_loop(lst):
    for v in lst:
        if len(lst) < 6:
            lst.append(v * 2)
    return lst


case(_list_grows_in_loop, ([1, 2],))


def _list_remove_in_loop(lst):
    for v in lst:
        if v % 2 == 0:
            lst.remove(v)
    return lst


case(_list_remove_in_loop, ([2, 4, 6, 7, 8],))


def _set_grows_in_loop(s):
    for v in s:
        s.add(v + 100)
    return s


case(_set_grows_in_loop, ({1, 2},))


def _list_of_arrays_grows(xs):
    for x in xs:
        if len(xs) < 4:
            xs.append(x * 2)
    return xs


case(_list_of_arrays_grows, ([X],))


def _enumerate_insert(lst):
    for i, v in enumerate(lst):
        if i == 0:
            lst.insert(0, -1)
        if i > 4:
            break
    return lst


case(_enumerate_insert, ([1, 2, 3],))


def _setdefault_and_pop(d, x):
    d.setdefault("hist", []).append(x.sum())
    last = d.pop("last", None)
    d["last"] = x.max()
    return last, len(d["hist"])


@scenario
def s_setdefault_and_pop(r):
    f = r.compile(_setdefault_and_pop)
    d = {}
    for _ in range(3):
        r.call(f, d, X)


def _deque_ops(q, x):
    q.append(x.sum())
    if len(q) > 2:
        q.popleft()
    return list(q)


@scenario
def s_deque_state(r):
    f = r.compile(_deque_ops)
    q = collections.deque()
    for i in range(4):
        r.call(f, q, X * i)


def _sort_in_place(lst):
    lst.sort(reverse=True)
    lst.append(0)
    return lst


case(_sort_in_place, ([3, 1, 2],))


# -- random streams ---------------------------------------------------------------------

def _global_rng(x):
    a = np.random.rand(3)
    b = np.random.rand(2)
    return x[:3] * a, b


@scenario
def s_global_random_stream(r):
    np.random.seed(0)
    f = r.compile(_global_rng)
    for _ in range(3):
        r.call(f, X)
    r.see("next draw", np.random.rand())


def _generator_rng(rng, x):
    return x * rng.standard_normal(5), rng.integers(0, 10, 3)


@scenario
def s_generator_stream(r):
    rng = np.random.default_rng(1)
    f = r.compile(_generator_rng)
    for _ in range(3):
        r.call(f, rng, X)
    r.see("next draw", rng.random())


def _rng_then_error(rng, x):
    a = rng.random(3)
    return a + x       # shape mismatch: the draw has happened


@scenario
def s_rng_draw_before_error(r):
    rng = np.random.default_rng(2)
    f = r.compile(_rng_then_error)
    r.call(f, rng, X)
    r.see("next draw", rng.random())


def _shuffle_in_place(rng, lst):
    rng.shuffle(lst)
    return lst


@scenario
def s_shuffle_list(r):
    rng = np.random.default_rng(3)
    f = r.compile(_shuffle_in_place)
    r.call(f, rng, [1, 2, 3, 4, 5])
    r.call(f, rng, np.arange(5))


# -- context managers with state ------------------------------------------------------------

class Ctx:
    def __init__(self):
        self.log = []

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, *exc):
        self.log.append(f"exit {exc[0].__name__ if exc[0] else None}")
        return False


def _with_ctx(c, x):
    with c:
        y = x * 2
        c.log.append("body")
    return y


case(_with_ctx, (Ctx(), X))


def _with_ctx_raising(c, x):
    with c:
        c.log.append("body")
        return x + np.ones(2)


case(_with_ctx_raising, (Ctx(), X))


class Suppress(Ctx):
    def __exit__(self, *exc):
        super().__exit__(*exc)
        return True


def _with_suppress(c, x):
    y = x
    with c:
        y = x * 2
        y = y + np.ones(2)      # ValueError: suppressed
    return y


case(_with_suppress, (Suppress(), X))


def _contextmanager_gen(x):
    import contextlib

    @contextlib.contextmanager
    def scope():
        EVENTS.append("enter")
        try:
            yield
        finally:
            EVENTS.append("exit")
    with scope():
        y = x * 3
    return y


case(_contextmanager_gen, (X,), setup=_reset, watch=_events)


def _state_before_return(o, x):
    o.n = 1
    y = x + 1
    o.n = 2
    return y


case(_state_before_return, (Counting(), X))


# -- attribute writes that fail or have effects --------------------------------------------

class ReadOnlyProp:
    @property
    def p(self):
        return 1.0


def _write_property_without_setter(o, x):
    try:
        o.p = 2.0
    except AttributeError as e:
        return "refused", str(e), x * o.p
    return x


case(_write_property_without_setter, (ReadOnlyProp(), X))


class Validated:
    def __init__(self):
        object.__setattr__(self, "v", 1.0)

    def __setattr__(self, name, value):
        if value < 0:
            raise ValueError(f"{name} must be >= 0")
        object.__setattr__(self, name, value)


def _setattr_validation_in_try(o, x):
    try:
        o.v = float(-1)
    except ValueError as e:
        return str(e), x * o.v
    return x


case(_setattr_validation_in_try, (Validated(), X))


class WithSetter:
    def __init__(self):
        self.log = []
        self._v = 0.0

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        self.log.append(("set", type(value).__name__))
        self._v = value


def _property_setter_side_effect(o, x):
    o.v = x.sum()
    o.v = 2.0
    return o.v * x, list(o.log)


case(_property_setter_side_effect, (WithSetter(), X))


def _ndarray_shape_assign(x):
    x.shape = (5, 1)
    return x, x.shape


case(_ndarray_shape_assign, (X,))


def _ndarray_shape_assign_fails(x):
    y = x[::2]
    try:
        y.shape = (1, 3)
    except AttributeError as e:
        return str(e)
    return y


case(_ndarray_shape_assign_fails, (X,), (np.arange(6.0),))


def _ndarray_flags_write(x):
    x.flags.writeable = False
    try:
        x[0] = 1.0
    except ValueError as e:
        return str(e), x.flags.writeable
    return x


case(_ndarray_flags_write, (X,))


def _ndarray_setflags(x):
    x.setflags(write=False)
    return x + 1, x.flags.writeable


case(_ndarray_setflags, (X,))


def _function_attribute_state(x):
    _function_attribute_state.calls = getattr(_function_attribute_state, "calls", 0) + 1
    return x * _function_attribute_state.calls


@scenario
def s_function_attribute_counter(r):
    _function_attribute_state.__dict__.pop("calls", None)
    f = r.compile(_function_attribute_state)
    for _ in range(3):
        r.call(f, X)
    r.see("calls", _function_attribute_state.__dict__.get("calls"))


def _write_then_read_same_attr(o, x):
    o.n = 5
    a = o.n
    o.n += 1
    return a, o.n, x * o.n


case(_write_then_read_same_attr, (type("O", (), {"n": 0})(), X))


def _attr_write_then_helper_reads(o, x):
    def read(obj):
        return obj.n
    o.n = 3
    return x * read(o)


case(_attr_write_then_helper_reads, (type("O", (), {})(), X))
