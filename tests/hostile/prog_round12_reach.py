"""Round 12, what a frame with a graph break relies on (``dynamo/reach_guards.py``: the
guards on the globals, arguments and instance functions the frame-reader check looked
at) and re-entry (``dynamo/reentry.py``: a compiled function called again under its own
code after a break runs its original code): globals, functions and classes rebound
between calls, ``__code__`` swapped, an instance function replaced or shadowed later by
a class attribute or a property, ``__class__`` reassigned, classes whose
``__getattribute__``, ``__getattr__`` or metaclass runs code (counting every read, or
raising), a ``__class__`` property that lies; recursion through compiled globals
(direct, mutual, raising at depth, caught by an outer level, rebound mid-recursion,
in a thread, deeper than the first call), and compiled functions called from their own
callbacks.

    >>> def _calls_global(x):
    ...     y = x * 2
    ...     _brk()               # a break: the code after it calls HELPER
    ...     return HELPER(y)
    >>> # HELPER rebound between calls: the second call uses the new one
"""

import sys
import threading

import numpy as np
from hostile_check import Programs

reg = Programs("round12_reach")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])


def _brk():
    """A graph break: a print."""
    print("break")


def _plus(y):
    return y + 1


def _minus(y):
    return y - 1


def _times(y):
    return y * 3


HELPER = _plus


def _calls_global(x):
    y = x * 2
    _brk()
    return HELPER(y)


def _calls_global_no_break(x):
    return HELPER(x * 2)


def _rebind(values):
    def between(k):
        global HELPER
        HELPER = values[k % len(values)]
    return between


def _reset_helper():
    global HELPER
    HELPER = _plus


for fn in (_calls_global, _calls_global_no_break):
    case(fn, (X,), setup=_reset_helper, between=_rebind([_plus, _minus, _times, _plus]),
         calls=4, name=fn.__name__.lstrip("_") + "_rebound")
    case(fn, (X,), setup=_reset_helper, between=_rebind([_plus, lambda y: y * 0, None]),
         calls=3, name=fn.__name__.lstrip("_") + "_rebound_lambda_none")


@scenario
def global_code_swapped(r):
    """The global helper keeps its identity, its __code__ is replaced."""
    _reset_helper()

    def helper(y):
        return y + 10
    globals()["HELPER"] = helper
    f = r.compile(_calls_global)
    try:
        r.call(f, X.copy())
        helper.__code__ = _minus.__code__
        r.call(f, X.copy())
        helper.__code__ = _times.__code__
        r.call(f, X.copy())
    finally:
        _reset_helper()


@scenario
def global_defaults_swapped(r):
    """The helper's __defaults__ change between calls."""
    def helper(y, k=1.0):
        return y * k
    globals()["HELPER"] = helper
    f = r.compile(_calls_global)
    try:
        r.call(f, X.copy())
        helper.__defaults__ = (-2.0,)
        r.call(f, X.copy())
    finally:
        _reset_helper()


@scenario
def global_deleted(r):
    """The global disappears between calls: NameError, as plainly."""
    _reset_helper()   # (the program before may leave HELPER at None)
    f = r.compile(_calls_global)
    try:
        r.call(f, X.copy())
        del globals()["HELPER"]
        r.call(f, X.copy())
        globals()["HELPER"] = _times
        r.call(f, X.copy())
    finally:
        _reset_helper()


# ------------------------------------------------------------ classes rebound

class Plain:
    def act(self, y):
        return y + 1


class Other:
    def act(self, y):
        return y * -1


KLASS = Plain


def _make_global_class(x):
    o = KLASS()
    y = x + 1
    _brk()
    return o.act(y), type(o).__name__


def _set_klass(k):
    global KLASS
    KLASS = (Plain, Other)[k % 2]


case(_make_global_class, (X,), setup=lambda: _set_klass(0), between=_set_klass, calls=4)


def _method_of_argument(x, o):
    y = x * 2
    _brk()
    return o.act(y)


case(_method_of_argument, (X, Plain()), (X, Other()), calls=2)


@scenario
def class_reassigned(r):
    """o.__class__ = Other between calls."""
    f = r.compile(_method_of_argument)
    o = Plain()
    r.call(f, X.copy(), o)
    o.__class__ = Other
    r.call(f, X.copy(), o)
    o.__class__ = Plain
    r.call(f, X.copy(), o)


@scenario
def method_replaced_on_class(r):
    """Plain.act replaced on the class between calls."""
    class Local:
        def act(self, y):
            return y + 1
    f = r.compile(_method_of_argument)
    o = Local()
    r.call(f, X.copy(), o)
    Local.act = lambda self, y: y - 100
    r.call(f, X.copy(), o)
    del Local.act
    r.call(f, X.copy(), o)


class Holder:
    pass


def _instance_function(x, o):
    y = x * 2
    _brk()
    return o.read(y)


@scenario
def instance_function_replaced(r):
    """o.read (an instance attribute) replaced by another function between calls."""
    f = r.compile(_instance_function)
    o = Holder()
    o.read = _plus
    r.call(f, X.copy(), o)
    o.read = _minus
    r.call(f, X.copy(), o)
    o.read = lambda y: y * 7
    r.call(f, X.copy(), o)
    del o.read
    r.call(f, X.copy(), o)


@scenario
def instance_function_shadowed_by_property(r):
    """A property named like the instance function is added to the class later: each
    call reads it once (a guard must not read it again)."""
    class H:
        pass
    reads = []
    f = r.compile(_instance_function)
    o = H()
    o.read = _plus
    r.call(f, X.copy(), o)
    H.read = property(lambda self: (reads.append(1), _times)[1])
    r.call(f, X.copy(), o)
    r.see("reads", list(reads))
    r.call(f, X.copy(), o)
    r.see("reads", list(reads))


@scenario
def instance_function_shadowed_by_method(r):
    """A non-data descriptor (a method) on the class does not shadow the instance dict."""
    class H:
        pass
    f = r.compile(_instance_function)
    o = H()
    o.read = _plus
    r.call(f, X.copy(), o)
    H.read = lambda self, y: y * 1000
    r.call(f, X.copy(), o)
    del o.read
    r.call(f, X.copy(), o)


@scenario
def getattr_added_to_class(r):
    """A __getattr__ added to the class after the first call."""
    class H:
        pass
    log = []
    f = r.compile(_instance_function)
    o = H()
    o.read = _plus
    r.call(f, X.copy(), o)

    def ga(self, name):
        log.append(name)
        return _minus
    H.__getattr__ = ga
    del o.read
    r.call(f, X.copy(), o)
    r.see("log", list(log))


class Spy:
    """Every attribute read is logged (through __getattribute__)."""

    def __init__(self, log):
        object.__setattr__(self, "log", log)
        object.__setattr__(self, "read", _plus)

    def __getattribute__(self, name):
        object.__getattribute__(self, "log").append(name)
        return object.__getattribute__(self, name)


def _spy_calls(x, o):
    y = x + 1
    _brk()
    return o.read(y)


@scenario
def getattribute_spy_counts(r):
    log = []
    f = r.compile(_spy_calls)
    o = Spy(log)
    for _ in range(3):
        r.call(f, X.copy(), o)
        r.see("log", list(log))
    object.__setattr__(o, "read", _minus)
    r.call(f, X.copy(), o)
    r.see("log", list(log))


class Liar:
    """__class__ says Plain; type() says Liar."""

    @property
    def __class__(self):
        return Plain

    def act(self, y):
        return y * 5


case(_method_of_argument, (X, Liar()), (X, Plain()), name="class_property_liar")


def _isinstance_after_break(x, o):
    y = x * 2
    _brk()
    return isinstance(o, Plain), type(o) is Plain, o.act(y)


case(_isinstance_after_break, (X, Liar()), (X, Plain()), (X, Other()))


class Meta(type):
    seen: list = []

    def __instancecheck__(cls, obj):
        Meta.seen.append(("instancecheck", cls.__name__))
        return True

    def __getattribute__(cls, name):
        if not name.startswith("__"):
            Meta.seen.append(("get", name))
        return type.__getattribute__(cls, name)


class WithMeta(metaclass=Meta):
    def act(self, y):
        return y + 0.25


def _meta_calls(x, o):
    y = x * 2
    _brk()
    return o.act(y), isinstance(3, WithMeta)


def _reset_meta():
    Meta.seen = []


case(_meta_calls, (X, WithMeta()), (X, Plain()), setup=_reset_meta,
     watch=lambda: list(Meta.seen))


class HashHater(type):
    def __hash__(cls):
        raise TypeError("no hashing this class")

    def __eq__(cls, other):
        raise TypeError("no comparing this class")


class Unhashable(metaclass=HashHater):
    def act(self, y):
        return y - 0.5


KLASS2 = Unhashable


def _hostile_class_global(x):
    o = KLASS2()
    y = x * 3
    _brk()
    return o.act(y)


case(_hostile_class_global, (X,), (X[:2],))
case(_method_of_argument, lambda: (X, Unhashable()), lambda: (X, Plain()),
     name="hash_hater_argument")


class ModuleLiarMeta(type):
    @property
    def __module__(cls):
        raise RuntimeError("__module__ read")


class ModuleLiar(metaclass=ModuleLiarMeta):
    def act(self, y):
        return y * 2


case(_method_of_argument, lambda: (X, ModuleLiar()), name="meta_module_property")


class DictLiar:
    __slots__ = ("act",)


def _slot_function(x, o):
    y = x * 2
    _brk()
    return o.act(y)


@scenario
def slot_function_replaced(r):
    f = r.compile(_slot_function)
    o = DictLiar()
    o.act = _plus
    r.call(f, X.copy(), o)
    o.act = _minus
    r.call(f, X.copy(), o)


def _callable_argument(x, fn):
    y = x + 2
    _brk()
    return fn(y)


class CallMe:
    def __init__(self, k):
        self.k = k

    def __call__(self, y):
        return y * self.k


@scenario
def callable_object_changed(r):
    f = r.compile(_callable_argument)
    c = CallMe(2)
    r.call(f, X.copy(), c)
    c.k = -1
    r.call(f, X.copy(), c)
    CallMe.__call__ = lambda self, y: y + self.k * 100
    try:
        r.call(f, X.copy(), c)
    finally:
        del CallMe.__call__
        CallMe.__call__ = lambda self, y: y * self.k


case(_callable_argument, (X, _plus), (X, _minus), (X, lambda y: y), (X, np.negative),
     (X, abs), (X, CallMe(3)))


def _closure_argument(k):
    return lambda y: y * k


case(_callable_argument, lambda: (X, _closure_argument(2)),
     lambda: (X, _closure_argument(-3)), name="closure_arguments")


# ------------------------------------------------------------ recursion through compiled

def _recurse(x, d):
    if d == 0:
        return x
    _brk() if d % 50 == 0 else None
    return _recurse_entry(x + 1, d - 1)


_recurse_entry = _recurse


@scenario
def recursion_compiled_global(r):
    global _recurse_entry
    f = r.compile(_recurse)
    _recurse_entry = f
    try:
        r.call(f, X.copy(), 3)
        r.call(f, X.copy(), 120)
        r.call(f, X.copy(), 0)
    finally:
        _recurse_entry = _recurse


def _walk(x, d):
    if d == 0:
        return x
    print(d)
    return WALK(x * 1.0 + d, d - 1)


WALK = _walk


@scenario
def recursion_every_level_breaks(r):
    global WALK
    f = r.compile(_walk)
    WALK = f
    try:
        r.call(f, X.copy(), 4)
        r.call(f, X.copy(), 7)
        r.call(f, X.copy(), 1)
    finally:
        WALK = _walk


def _walk_raise(x, d):
    if d == 0:
        raise ValueError("bottom", x.sum())
    print(d)
    try:
        return WALK2(x + d, d - 1)
    except ValueError as e:
        if d == 2:
            return ("caught at 2", e.args)
        raise


WALK2 = _walk_raise


@scenario
def recursion_raises_at_bottom(r):
    global WALK2
    f = r.compile(_walk_raise)
    WALK2 = f
    try:
        r.call(f, X.copy(), 4)
        r.call(f, X.copy(), 1)
        r.call(f, X.copy(), 3)
    finally:
        WALK2 = _walk_raise


def _ping(x, d):
    if d <= 0:
        return x
    print("ping", d)
    return PONG(x * 2, d - 1)


def _pong(x, d):
    if d <= 0:
        return -x
    print("pong", d)
    return PING(x + 1, d - 1)


PING, PONG = _ping, _pong


@scenario
def mutual_recursion(r):
    global PING, PONG
    fp, fq = r.compile(_ping), r.compile(_pong)
    PING, PONG = fp, fq
    try:
        r.call(fp, X.copy(), 5)
        r.call(fq, X.copy(), 4)
        r.call(fp, X.copy(), 1)
    finally:
        PING, PONG = _ping, _pong


def _walk_rebinding(x, d):
    global WALK3
    if d == 0:
        return x
    print(d)
    if d == 2:
        WALK3 = _times_walk
    return WALK3(x + 1, d - 1)


def _times_walk(x, d):
    return x * 10, d


WALK3 = _walk_rebinding


@scenario
def recursion_rebinds_itself(r):
    global WALK3
    f = r.compile(_walk_rebinding)
    for d in (4, 3, 4):
        WALK3 = f
        r.call(f, X.copy(), d)
    WALK3 = _walk_rebinding


def _walk_state(x, d, log):
    log.append(d)
    if d == 0:
        return x
    y = x + d
    print("at", d)
    r = WALK4(y, d - 1, log)
    log.append(-d)
    return r * 2


WALK4 = _walk_state


@scenario
def recursion_with_shared_log(r):
    global WALK4
    f = r.compile(_walk_state)
    WALK4 = f
    try:
        log = []
        r.call(f, X.copy(), 3, log)
        r.call(f, X.copy(), 5, log)
        r.see("log", log)
    finally:
        WALK4 = _walk_state


@scenario
def recursion_in_threads(r):
    global WALK
    f = r.compile(_walk)
    WALK = f
    results = [None] * 4

    def work(i):
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            pass
        results[i] = float(f(np.ones(3) * i, 3 + i).sum())
    try:
        r.call(f, X.copy(), 2)
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        r.see("results", results)
        r.call(f, X.copy(), 3)
    finally:
        WALK = _walk


def _deep(x, d):
    if d == 0:
        return x
    if d % 97 == 0:
        print("deep", d)
    return DEEP(x, d - 1) + 0


DEEP = _deep


@scenario
def recursion_deeper_than_first(r):
    global DEEP
    f = r.compile(_deep)
    DEEP = f
    try:
        r.call(f, X.copy(), 2)
        r.call(f, X.copy(), 150)
        r.call(f, X.copy(), 5)
    finally:
        DEEP = _deep


def _outer_calls_compiled_inner(x, inner):
    y = x + 1
    _brk()
    return inner(y), inner(y * 2)


class _Hidden:
    """Holds a callable out of the harness's view (a compiled object is not a plain
    function: the snapshots of the arguments would differ by that alone)."""
    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)


_Hidden.__slots__ = ()   # (the snapshot lists no slot values)


@scenario
def compiled_passed_to_compiled(r):
    inner = _Hidden(r.compile(_calls_global))
    outer = r.compile(_outer_calls_compiled_inner)
    _reset_helper()
    r.call(outer, X.copy(), inner)
    globals()["HELPER"] = _minus
    r.call(outer, X.copy(), inner)
    _reset_helper()


def _self_via_callback(x, cb, d):
    y = x * 2
    _brk()
    if d:
        return cb(y, cb, d - 1)
    return y


@scenario
def recursion_through_argument(r):
    f = r.compile(_self_via_callback)
    r.call(f, X.copy(), _Hidden(f), 3)
    r.call(f, X.copy(), _Hidden(f), 0)
    r.call(f, X.copy(), _Hidden(_self_via_callback), 2)


def _gen_recursion(x, d):
    if d == 0:
        yield x
        return
    print(d)
    yield from GEN(x + 1, d - 1)
    yield x


GEN = _gen_recursion


def _drive(x, d):
    return [float(v.sum()) for v in GEN(x, d)]


@scenario
def recursion_of_generators(r):
    global GEN
    g = r.compile(_gen_recursion)
    GEN = g
    f = r.compile(_drive)
    try:
        r.call(f, X.copy(), 3)
        r.call(f, X.copy(), 1)
    finally:
        GEN = _gen_recursion


def _limit_reader(x, d):
    if d == 0:
        return sys.getrecursionlimit() > 50
    print(d)
    return LIMITED(x, d - 1)


LIMITED = _limit_reader


@scenario
def recursion_near_limit(r):
    """A recursion that fits plainly with a lowered limit, raising RecursionError past."""
    global LIMITED
    f = r.compile(_limit_reader)
    LIMITED = f
    old = sys.getrecursionlimit()
    try:
        r.call(f, X.copy(), 3)
        sys.setrecursionlimit(old)
        r.call(f, X.copy(), 10)
    finally:
        sys.setrecursionlimit(old)
        LIMITED = _limit_reader


# ------------------------------------------------------------ isinstance and __class__

class ClassAttrLiar:
    """A plain class attribute named __class__ (no property): o.__class__ is Plain."""
    __class__ = Plain

    def act(self, y):
        return y + 2


class CountingClass:
    """Every read of __class__ is counted."""
    reads = 0

    @property
    def __class__(self):
        CountingClass.reads += 1
        return CountingClass

    def act(self, y):
        return y * 0.5


def _isinstance_no_break(x, o):
    return isinstance(o, Plain), isinstance(o, (Other, Plain)), x * 2


def _isinstance_abc(x, o):
    import collections.abc
    return isinstance(o, collections.abc.Sized), isinstance(o, Plain), x + 1


def _reset_counting():
    CountingClass.reads = 0


case(_isinstance_no_break, (X, Liar()), (X, ClassAttrLiar()), (X, Plain()), (X, Other()))
case(_isinstance_abc, (X, Liar()), (X, ClassAttrLiar()), (X, [1]))
case(_isinstance_no_break, (X, CountingClass()), (X, Plain()), setup=_reset_counting,
     watch=lambda: CountingClass.reads, name="isinstance_counts_class_reads")
case(_isinstance_no_break, lambda: (X, Spy([])), name="isinstance_of_spy")


def _type_checks(x, o):
    return type(o) is Liar, type(o).__name__, o.__class__ is Plain, x - 1


case(_type_checks, (X, Liar()), (X, Plain()))
