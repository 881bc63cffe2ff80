"""Round 5, state: glue inlined into the dispatcher (parameter names that clash with
its locals, globals written, nonlocal writes, attribute write-back that raises,
appends replayed on objects reached by two names), append-only state read by a later
break, a callee, a property or ``__del__``, ``del`` and ``global`` rebinding,
closures' cells mutated by callees, ``contextvars``, recursion and reentrancy,
generators and coroutines compiled, ``np.random`` state."""

import collections
import contextvars
import sys

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round5_state")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
G = 1.0
LOG = []
COUNT = 0
VAR = contextvars.ContextVar("VAR", default=1.0)


def _reset():
    global G, COUNT
    G = 1.0
    COUNT = 0
    LOG.clear()
    for name in ("GONE", "FRESH", "LATE"):
        globals().pop(name, None)


def _watch():
    return G, COUNT, list(LOG), "GONE" in globals(), globals().get("FRESH")


def gcase(fn, *inputs, **kw):
    case(fn, *inputs, setup=_reset, watch=_watch, **kw)


# ============================================================================ dispatcher names

def _param_named_ok(x, ___ok):
    global G
    G = G + 1
    LOG.append(___ok)
    return x * G, ___ok


gcase(_param_named_ok, (X, 2.0), (X, "s"), (X, 3.0))


def _param_named_closure(x, ___closure, ___out):
    LOG.append(x.sum())
    return x + ___out, ___closure


gcase(_param_named_closure, (X, None, 1.0), (X, 5, 2.0))


def _param_named_g(x, ___G, ___result):
    global G
    G = ___G
    return x * ___result


gcase(_param_named_g, (X, 3.0, 2.0), (X, 4.0, 1.0))


def _param_named_type(x, type, isinstance, len):
    LOG.append(type)
    return x * len, isinstance


gcase(_param_named_type, (X, "t", "i", 2.0), (X, 1, 2, 3))


def _param_named_exception(x, Exception, ValueError):
    try:
        return x[10]
    except IndexError:
        return x * Exception, ValueError


gcase(_param_named_exception, (X, 2.0, "v"), (X, 3.0, None))


def _param_named_np(x, np):
    return x * 2, np


gcase(_param_named_np, (X, 1), (X, "np"))


# ============================================================================ globals

def _global_write_read(x):
    global G
    G = G * 2
    y = x * G
    print("G is", G)
    G = G + 1
    return y + G


gcase(_global_write_read, (X,))


def _global_created(x):
    global FRESH
    FRESH = x.sum()
    return x + 1


gcase(_global_created, (X,))


def _global_deleted(x):
    global GONE
    GONE = 1
    y = x * GONE
    del GONE
    return y


gcase(_global_deleted, (X,))


def _global_del_missing(x):
    global GONE
    try:
        del GONE
    except NameError as e:
        return x, str(e)
    return x + 1


gcase(_global_del_missing, (X,))


def _read_missing_global(x):
    try:
        return x * LATE  # noqa: F821
    except NameError as e:
        return str(e)


@scenario
def s_global_appears_between_calls(r):
    _reset()
    f = r.compile(_read_missing_global)
    r.call(f, X)
    globals()["LATE"] = 2.0
    r.call(f, X)
    globals()["LATE"] = 3
    r.call(f, X)
    del globals()["LATE"]
    r.call(f, X)


def _rebinder():
    global G
    G = 100.0


def _global_rebound_by_callee(x):
    a = x * G
    _rebinder()
    return a + G


gcase(_global_rebound_by_callee, (X,))


def _global_rebound_by_print(x):
    class P:
        def __str__(self):
            global G
            G = G + 10
            return "p"
    a = x * G
    print(P())
    return a + G


gcase(_global_rebound_by_print, (X,))


def _global_list_replaced(x):
    global LOG
    LOG.append(1)
    old = LOG
    LOG = [2]
    return x + len(old), old is LOG


@scenario
def s_global_list_replaced(r):
    global LOG
    keep = LOG
    try:
        LOG = []
        f = r.compile(_global_list_replaced)
        r.call(f, X)
        r.see("LOG", LOG)
        r.call(f, X)
        r.see("LOG", LOG)
    finally:
        LOG = keep
        LOG.clear()


def _count_up(x):
    global COUNT
    COUNT += 1
    return x * COUNT


gcase(_count_up, (X,), calls=3)


def _count_with_int_overflow(x):
    global COUNT
    COUNT = COUNT * 2**40 + 1
    return x + COUNT, COUNT


gcase(_count_with_int_overflow, (X,), calls=3)


# ============================================================================ locals

def _del_local_then_read(x):
    y = x * 2
    del y
    try:
        return y  # noqa: F821
    except UnboundLocalError as e:
        return x, type(e).__name__


case(_del_local_then_read, (X,))


def _del_local_across_print(x):
    y = x * 2
    print("between")
    del y
    y = x + 1
    return y


case(_del_local_across_print, (X,))


def _unbound_on_branch(x, flag):
    if flag:
        z = x * 2
    print("check")
    try:
        return z
    except UnboundLocalError:
        return "unbound"


case(_unbound_on_branch, (X, True), (X, False))


# ============================================================================ closures

def _make_cell_pair():
    v = [1.0]

    def read():
        return v[0]

    def bump():
        nonlocal v
        v = [v[0] + 1]
    return read, bump


def _cell_mutated_by_callee(x, read, bump):
    a = x * read()
    bump()
    return a + read()


case(_cell_mutated_by_callee, lambda: (X.copy(), *_make_cell_pair()))


def _nonlocal_in_compiled_closure():
    total = 0.0

    def step(x):
        nonlocal total
        total = total + x.sum()
        return x * total
    return step


@scenario
def s_nonlocal_compiled_closure(r):
    step = _nonlocal_in_compiled_closure()
    f = r.compile(step)
    for _ in range(3):
        r.call(f, X)
    r.see("cell", step.__closure__[0].cell_contents)


def _closure_over_loop_var(x):
    fs = []
    for i in range(3):
        fs.append(lambda y, i=i: y * i)
    gs = [lambda y: y * i for i in range(3)]  # noqa: B023
    return [f(x) for f in fs], [g(x) for g in gs]


case(_closure_over_loop_var, (X,))


def _closure_cell_rebound_after_def(x):
    k = 1.0

    def mul(y):
        return y * k
    a = mul(x)
    k = 3.0
    print("rebound")
    return a, mul(x)


case(_closure_cell_rebound_after_def, (X,))


def _closure_cell_deleted(x):
    k = 2.0

    def mul(y):
        return y * k  # noqa: F821 (deleted below: NameError)
    a = mul(x)
    del k
    try:
        return a, mul(x)
    except NameError as e:
        return a, type(e).__name__, str(e)


case(_closure_cell_deleted, (X,))


# ============================================================================ write-back

class Locked:
    def __init__(self):
        self.v = 1.0
        self.frozen = False

    def __setattr__(self, name, value):
        if getattr(self, "frozen", False) and name == "v":
            raise AttributeError("frozen")
        object.__setattr__(self, name, value)


def _attr_write_raises_after_append(x, o, log):
    log.append("a")
    o.v = x.sum()
    log.append("b")
    return x * 2


case(_attr_write_raises_after_append, lambda: (X.copy(), _frozen(), []))


def _frozen():
    o = Locked()
    o.frozen = True
    return o


class Box:
    def __init__(self):
        self.items = []
        self.n = 0


def _append_two_names(x, a, b):
    a.items.append(x.sum())
    b.items.append(x.max())
    a.n += 1
    b.n += 1
    return len(a.items), a.n


case(_append_two_names, lambda: (lambda o: (X.copy(), o, o))(Box()),
     lambda: (X.copy(), Box(), Box()))


def _set_add_alias(x, s, t):
    s.add(1)
    t.add(2)
    return x * len(s)


case(_set_add_alias, lambda: (lambda s: (X.copy(), s, s))(set()), lambda: (X.copy(), set(), set()))


def _dict_alias_setdefault(x, d, e):
    d.setdefault("k", []).append(x.sum())
    e.setdefault("k", []).append(1)
    return len(d["k"])


case(_dict_alias_setdefault, lambda: (lambda d: (X.copy(), d, d))({}), lambda: (X.copy(), {}, {}))


def _list_in_object_and_arg(x, o, lst):
    o.items.append(1)
    lst.append(2)
    return len(o.items), len(lst)


def _shared_box():
    o = Box()
    return X.copy(), o, o.items


case(_list_in_object_and_arg, _shared_box, lambda: (X.copy(), Box(), []))


# ============================================================================ append-only

class Model:
    def __init__(self):
        self.log = []

    @property
    def last(self):
        return self.log[-1] if self.log else None

    def step(self, x):
        self.log.append(x.sum())
        return x * len(self.log)


def _append_then_property(x, m):
    y = m.step(x)
    return y, m.last


case(_append_then_property, (X, Model()))


def _append_then_break_reads(x, m):
    y = m.step(x)
    print(len(m.log))
    return y + m.log[-1]


case(_append_then_break_reads, (X, Model()))


def _append_then_callee_reads(x, m):
    m.step(x)

    def total():
        return sum(float(v) for v in m.log)
    return total()


case(_append_then_callee_reads, (X, Model()))


class Reporter:
    def __init__(self, log):
        self.log = log

    def __del__(self):
        self.log.append(("del", len(self.log)))


def _append_then_del_reads(x, log):
    r = Reporter(log)
    log.append(x.sum())
    del r
    log.append(x.max())
    return x


case(_append_then_del_reads, lambda: (X.copy(), []))


class CountingList(list):
    def append(self, v):
        super().append(("wrapped", v))


def _subclass_append(x, log):
    log.append(x.sum())
    return x * len(log), log[-1]


case(_subclass_append, lambda: (X.copy(), CountingList()), lambda: (X.copy(), []))


def _deque_maxlen(x, d):
    d.append(x.sum())
    d.append(x.max())
    return x * len(d), list(d)


case(_deque_maxlen, lambda: (X.copy(), collections.deque(maxlen=1)),
     lambda: (X.copy(), collections.deque()))


def _append_self(x, lst):
    lst.append(lst)
    return len(lst), x


case(_append_self, lambda: (X.copy(), []))


def _extend_with_generator(x, lst):
    lst.extend(v * 2 for v in (1, 2))
    lst += [x.sum()]
    return len(lst)


case(_extend_with_generator, lambda: (X.copy(), []))


def _insert_and_pop(x, lst):
    lst.insert(0, x.sum())
    v = lst.pop()
    return v, list(lst)


case(_insert_and_pop, lambda: (X.copy(), [1, 2]), lambda: (X.copy(), []))


def _default_dict_counts(x, d):
    d["a"] += 1
    d[x.shape[0]] += 2
    return dict(d)


case(_default_dict_counts, lambda: (X.copy(), collections.defaultdict(int)))


def _counter_update(x, c):
    c.update(["a", "b", "a"])
    return x * c["a"], c.most_common(1)


case(_counter_update, lambda: (X.copy(), collections.Counter()))


def _ordered_move_to_end(x, d):
    d["x"] = x.sum()
    d.move_to_end("a")
    return list(d)


case(_ordered_move_to_end, lambda: (X.copy(), collections.OrderedDict(a=1, b=2)))


# ============================================================================ contextvars

def _contextvar_read(x):
    return x * VAR.get()


@scenario
def s_contextvar_changes(r):
    f = r.compile(_contextvar_read)
    r.call(f, X)
    tok = VAR.set(3.0)
    r.call(f, X)
    VAR.reset(tok)
    r.call(f, X)


def _contextvar_set_inside(x):
    tok = VAR.set(x.sum())
    y = x * VAR.get()
    VAR.reset(tok)
    return y, VAR.get()


case(_contextvar_set_inside, (X,))


def _contextvar_in_copy(x):
    ctx = contextvars.copy_context()
    return ctx.run(lambda: x * VAR.get())


case(_contextvar_in_copy, (X,))


# ============================================================================ recursion

def _recursive(x, n):
    if n == 0:
        return x
    return _recursive(x * 2, n - 1) + 1


case(_recursive, (X, 3), (X, 0), (X, 5))


def _deep_recursion(x, n):
    def down(k):
        return 0 if k == 0 else 1 + down(k - 1)
    try:
        return x * down(n)
    except RecursionError:
        return "too deep"


@scenario
def s_deep_recursion_limit(r):
    old = sys.getrecursionlimit()
    f = r.compile(_deep_recursion)
    try:
        r.call(f, X, 50)
        sys.setrecursionlimit(400)
        r.call(f, X, 600)
        r.call(f, X, 50)
    finally:
        sys.setrecursionlimit(old)


def _self_compiled():
    holder = {}

    def fact(x, n):
        if n <= 1:
            return x
        return holder["f"](x, n - 1) * n
    return holder, fact


@scenario
def s_compiled_calls_itself(r):
    holder, fact = _self_compiled()
    f = r.compile(fact)
    holder["f"] = f
    r.call(f, X, 4)
    r.call(f, X, 1)
    r.call(f, X, 4)


def _inner(x):
    LOG.append("inner")
    return x * 3


@scenario
def s_compiled_calls_compiled(r):
    _reset()
    inner = r.compile(_inner)

    def outer(x):
        LOG.append("outer")
        return inner(x) + inner(x * 2)
    f = r.compile(outer)
    r.call(f, X)
    r.call(f, X)
    r.see("LOG", LOG)


class Finalized:
    def __init__(self, fn):
        self.fn = fn

    def __del__(self):
        LOG.append(("del", float(self.fn(np.ones(2)).sum())))


@scenario
def s_compiled_called_from_del(r):
    _reset()
    inner = r.compile(_inner)

    def body(x):
        o = Finalized(inner)
        y = x * 2
        del o
        return y
    f = r.compile(body)
    r.call(f, X)
    r.call(f, X)
    r.see("LOG", LOG)


@scenario
def s_compiled_in_seterrcall(r):
    _reset()
    inner = r.compile(_inner)
    calls = []

    def handler(kind, flag):
        calls.append((kind, float(inner(np.ones(1))[0])))

    def body(x):
        with np.errstate(divide="call"):
            return x / 0.0
    f = r.compile(body)
    old = np.seterrcall(handler)
    try:
        r.call(f, X)
        r.call(f, X)
    finally:
        np.seterrcall(old)
    r.see("calls", calls)


# ============================================================================ generators

def _gen_fn(x):
    for i in range(3):
        yield x * i


@scenario
def s_generator_compiled(r):
    f = r.compile(_gen_fn)
    r.call(lambda: list(f(X)))
    r.call(lambda: list(f(X[:2])))


def _gen_with_send(x):
    total = x * 0
    while True:
        v = yield total
        if v is None:
            return total
        total = total + v


@scenario
def s_generator_send_compiled(r):
    f = r.compile(_gen_with_send)

    def drive():
        g = f(X)
        next(g)
        g.send(1.0)
        out = g.send(X)
        try:
            g.send(None)
        except StopIteration as e:
            return out, e.value
    r.call(drive)
    r.call(drive)


async def _coro(x):
    return x * 2


@scenario
def s_coroutine_compiled(r):
    f = r.compile(_coro)

    def drive():
        c = f(X)
        try:
            c.send(None)
        except StopIteration as e:
            return e.value
    r.call(drive)
    r.call(drive)


async def _agen(x):
    for i in range(2):
        yield x + i


@scenario
def s_async_generator_compiled(r):
    import asyncio
    f = r.compile(_agen)

    async def collect():
        return [v async for v in f(X)]
    r.call(lambda: asyncio.run(collect()))


def _lambda_target(x):
    return (lambda y: y * 2)(x) + (lambda: 1)()


case(_lambda_target, (X,))


# ============================================================================ np.random

def _legacy_global_random(x):
    a = np.random.rand(3)
    b = np.random.randint(0, 10, size=2)
    return x[:3] + a, b


@scenario
def s_legacy_random_state(r):
    np.random.seed(5)
    f = r.compile(_legacy_global_random)
    r.call(f, X)
    r.call(f, X)
    r.see("next draw", np.random.rand())


def _legacy_random_state_obj(x, rs):
    return x + rs.normal(size=4), rs.random_sample()


@scenario
def s_random_state_object(r):
    rs = np.random.RandomState(7)
    f = r.compile(_legacy_random_state_obj)
    r.call(f, X, rs)
    r.call(f, X, rs)
    r.see("next", rs.rand())


def _generator_draws_and_break(x, g):
    a = g.random(4)
    print("drawn")
    b = g.standard_normal(4)
    return x + a + b


@scenario
def s_generator_draw_break(r):
    g = np.random.default_rng(3)
    f = r.compile(_generator_draws_and_break)
    r.call(f, X, g)
    r.call(f, X, g)
    r.see("next", g.random())


def _generator_state_get_set(x, g):
    st = g.bit_generator.state
    a = g.random(4)
    g.bit_generator.state = st
    b = g.random(4)
    return x + a - b


@scenario
def s_generator_state_restored(r):
    g = np.random.default_rng(11)
    f = r.compile(_generator_state_get_set)
    r.call(f, X, g)
    r.see("next", g.random())


def _seed_inside(x):
    np.random.seed(1)
    return x + np.random.rand(4)


case(_seed_inside, (X,))


def _generator_draw_zero_and_raise(x, g):
    a = g.random(0)
    try:
        g.normal(size=-1)
    except ValueError as e:
        return a, str(e)
    return a


@scenario
def s_generator_draw_zero_and_raise(r):
    g = np.random.default_rng(2)
    f = r.compile(_generator_draw_zero_and_raise)
    r.call(f, X, g)
    r.see("next", g.random())


def _choice_and_shuffle(x, g):
    y = x.copy()
    g.shuffle(y)
    return y, g.choice(4, 2, replace=False), g.permutation(x)


@scenario
def s_choice_and_shuffle(r):
    g = np.random.default_rng(9)
    f = r.compile(_choice_and_shuffle)
    r.call(f, X, g)
    r.call(f, X[:2], g)
    r.see("next", g.random())


def _kwargs_only(x, *, scale=2.0, **rest):
    return x * scale, sorted(rest)


case(_kwargs_only, Args(X), Args(X, scale=3.0), Args(X, scale=1, extra=2))


def _recursive_helper_low_limit(x, n):
    def down(k):
        return 0 if k == 0 else 1 + down(k - 1)
    return x * down(n)


@scenario
def s_low_recursion_limit_inlining(r):
    """The program lowers the recursion limit to a little above its own depth: tracing
    the recursive helper must break at a call, not fail inside the translator."""
    old = sys.getrecursionlimit()
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    f = r.compile(_recursive_helper_low_limit)
    try:
        sys.setrecursionlimit(depth + 400)
        r.call(f, X, 8)
        r.call(f, X, 3)
    finally:
        sys.setrecursionlimit(old)


def _recursion_200_deep(x, n):
    def down(k):
        return 0 if k == 0 else 1 + down(k - 1)
    return x * down(n)


case(_recursion_200_deep, (X, 200), (X, 3))


# ============================================================================ write-back order

class Logged:
    def __init__(self):
        object.__setattr__(self, "log", [])

    def __setattr__(self, name, value):
        self.log.append((name, value if isinstance(value, (int, float, str)) else "obj"))
        object.__setattr__(self, name, value)


def _same_attr_written_twice(x, o):
    o.a = 1
    o.a = 2
    o.b = x.sum()
    o.a = 3
    return x


case(_same_attr_written_twice, lambda: (X.copy(), Logged()))


def _attr_written_then_deleted(x, o):
    o.a = 1
    del o.a
    o.b = 2
    return x + o.b


case(_attr_written_then_deleted, lambda: (X.copy(), Logged()))


def _dict_key_order_rewritten(x, d):
    d["new"] = 1
    del d["old"]
    d["old"] = x.sum()
    return list(d)


case(_dict_key_order_rewritten, lambda: (X.copy(), {"old": 0, "mid": 1}))


def _dict_pop_and_reinsert(x, d):
    v = d.pop("a")
    d["a"] = v + x.max()
    d.update(b=2, c=3)
    d |= {"a": -1}
    return list(d.items())


case(_dict_pop_and_reinsert, lambda: (X.copy(), {"a": 1.0, "b": 0}))


def _list_slice_assign(x, lst):
    lst[1:3] = [x.sum(), 7, 8]
    del lst[::2]
    lst *= 2
    return lst


case(_list_slice_assign, lambda: (X.copy(), [0, 1, 2, 3]), lambda: (X.copy(), []))


def _list_sort_reverse(x, lst):
    lst.sort(key=lambda v: -v)
    lst.reverse()
    lst.append(x.shape[0])
    return lst


case(_list_sort_reverse, lambda: (X.copy(), [3, 1, 2]))


def _list_remove_missing(x, lst):
    lst.append(1)
    try:
        lst.remove(99)
    except ValueError as e:
        return str(e), lst
    return lst


case(_list_remove_missing, lambda: (X.copy(), [0]))


def _set_ops_in_place(x, s):
    s |= {1, 2}
    s -= {0}
    s.discard(5)
    s ^= {2, 3}
    return sorted(s), x


case(_set_ops_in_place, lambda: (X.copy(), {0, 9}))


def _object_dict_direct(x, o):
    o.__dict__["z"] = x.sum()
    vars(o)["w"] = 1
    return o.z + o.w


case(_object_dict_direct, lambda: (X.copy(), Box()))


def _setattr_getattr_builtin(x, o, name):
    setattr(o, name, x * 2)
    return getattr(o, name), hasattr(o, name), delattr(o, name), hasattr(o, name)


case(_setattr_getattr_builtin, lambda: (X.copy(), Box(), "dyn"), lambda: (X.copy(), Box(), "n"))


def _append_after_alias_rebound(x, o):
    items = o.items
    o.items = []
    items.append(x.sum())
    o.items.append(1)
    return items, o.items


case(_append_after_alias_rebound, lambda: (X.copy(), Box()))


def _nested_container_mutation(x, d):
    d["list"].append(x.sum())
    d["dict"]["k"] = d["list"]
    d["list"] = d["list"] + [0]
    return d


case(_nested_container_mutation, lambda: (X.copy(), {"list": [], "dict": {}}))


def _mutation_then_raise_glue(x, d, lst):
    d["a"] = 1
    lst.append(2)
    return x.reshape(3, 3)


case(_mutation_then_raise_glue, lambda: (X.copy(), {}, []))
