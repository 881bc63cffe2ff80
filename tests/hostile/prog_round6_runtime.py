"""Round 6, runtime: weakref callbacks and ``__del__`` order, threads calling one
compiled function with different shapes, re-entrancy (a compiled function called from
another's ``__array_function__``, from a ``__del__``, from a callback), recursion
through compiled functions, and frame readers reached otherwise than by name (passed
in, stored in an attribute, fetched with ``getattr``) that read two frames up: each
must be exact or fall back."""

import gc
import inspect
import os
import sys
import threading
import types
import warnings
import weakref

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round6_runtime")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
M = np.arange(6.0).reshape(2, 3)
EVENTS = []


# ============================================================================ weakrefs, __del__

class Noisy:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def __del__(self):
        self.log.append(("del", self.name))


def _del_order_locals(x, log):
    a = Noisy("a", log)
    b = Noisy("b", log)
    y = x * 2
    del a
    log.append("after del a")
    b = None  # noqa: F841 (on purpose)
    log.append("after b=None")
    return y


case(_del_order_locals, (X, []))


def _del_at_function_end(x, log):
    n = Noisy("local", log)  # noqa: F841 (dies when the frame ends)
    y = x + 1
    log.append("returning")
    return y


@scenario
def s_del_at_function_end(r):
    log = []
    f = r.compile(_del_at_function_end)
    r.call(f, X, log)
    r.see("log", list(log))
    r.call(f, X, log)
    r.see("log", list(log))


def _weakref_callback_fires(x, log):
    n = Noisy("w", [])
    ref = weakref.ref(n, lambda r: log.append("callback"))
    y = x * 3
    del n
    log.append(("alive", ref() is not None))
    return y


case(_weakref_callback_fires, (X, []))


def _weakref_to_arg(x, o):
    ref = weakref.ref(o)
    return x * 2, ref() is o


case(_weakref_to_arg, (X, Noisy("arg", [])))


def _weak_value_dict(x, log):
    d = weakref.WeakValueDictionary()
    n = Noisy("v", log)
    d["k"] = n
    before = len(d)
    del n
    gc.collect()
    return x * before, len(d)


case(_weak_value_dict, (X, []))


def _finalize_registered(x, log):
    n = Noisy("fin", [])
    weakref.finalize(n, log.append, "finalized")
    y = x - 1
    del n
    log.append("after")
    return y


case(_finalize_registered, (X, []))


def _del_in_loop_rebinding(x, log):
    for i in range(3):
        n = Noisy(i, log)
        x = x * 2
    log.append("loop done")
    del n
    return x


case(_del_in_loop_rebinding, (X, []))


def _del_resurrects(x):
    class Phoenix:
        saved = []

        def __del__(self):
            Phoenix.saved.append(self)
    p = Phoenix()
    del p
    return x * len(Phoenix.saved)


case(_del_resurrects, (X,))


def _del_raises_ignored(x):
    class Bad:
        def __del__(self):
            raise RuntimeError("in del")
    b = Bad()  # noqa: F841
    old = sys.unraisablehook
    seen = []
    sys.unraisablehook = lambda u: seen.append(type(u.exc_value).__name__)
    try:
        del b
    finally:
        sys.unraisablehook = old
    return x * 2, seen


case(_del_raises_ignored, (X,))


def _array_base_keeps_alive(x):
    big = x * 10
    view = big[1:3]
    del big
    return view, view.base is not None


case(_array_base_keeps_alive, (X,))


def _getrefcount_of_local(x):
    y = x * 2
    return sys.getrefcount(y) > 0, y


case(_getrefcount_of_local, (X,))


# ============================================================================ threads

def _thread_kernel(x):
    return np.tanh(x) * x.sum() + x[::-1]


@scenario
def s_threads_different_shapes(r):
    f = r.compile(_thread_kernel)
    inputs = [np.linspace(-1, 1, n) for n in (3, 5, 8, 13)] + [M, M.T]
    results = {}
    errors = []

    def worker(k):
        try:
            for _ in range(20):
                for j, a in enumerate(inputs):
                    out = f(a)
                    if not np.array_equal(out, _thread_kernel(a)):
                        errors.append((k, j))
            results[k] = True
        except Exception as e:  # noqa: BLE001 (recorded, compared with the plain run)
            errors.append(repr(e))
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    r.see("errors", errors)
    r.see("done", sorted(results))
    for a in inputs:
        r.call(f, a)


def _thread_local_state(x, local):
    local.count = getattr(local, "count", 0) + 1
    return x * local.count


@scenario
def s_thread_local_reads(r):
    local = threading.local()
    f = r.compile(_thread_local_state)
    r.call(f, X, local)
    out = []
    t = threading.Thread(target=lambda: out.append(f(X, local)))
    t.start()
    t.join()
    r.see("in thread", out)
    r.call(f, X, local)


def _lock_around_graph(x, lock, log):
    with lock:
        y = x * 2
        log.append(lock.locked())
    return y, lock.locked()


case(_lock_around_graph, lambda: (X, threading.Lock(), []))


def _thread_inside_compiled(x):
    out = []
    t = threading.Thread(target=lambda: out.append(x * 2))
    t.start()
    t.join()
    return out[0] + 1


case(_thread_inside_compiled, (X,))


def _event_set_between(x, ev):
    y = x + 1
    ev.set()
    return y, ev.is_set()


case(_event_set_between, lambda: (X, threading.Event()))


# ============================================================================ re-entrancy

class Reentrant:
    """An array-like whose ``__array_function__`` calls a compiled function."""

    inner = None

    def __init__(self, a):
        self.a = a

    def __array_function__(self, func, types, args, kwargs):
        args = [a.a if isinstance(a, Reentrant) else a for a in args]
        return Reentrant.inner(func(*args, **kwargs))


def _inner_kernel(v):
    return np.asarray(v) * 2 + 1


def _outer_calls_array_function(x, o):
    s = np.sum(o)
    return x * s


@scenario
def s_reentrant_array_function(r):
    Reentrant.inner = r.compile(_inner_kernel)
    f = r.compile(_outer_calls_array_function)
    r.call(f, X, Reentrant(X))
    r.call(f, X, Reentrant(M))
    r.call(f, M, Reentrant(X))


# (the compiled callees are reached through closures: an argument would be recorded
# as an OptimizedFunction object, which plain Python does not have)
def _calls_compiled_inside(g):
    def f(x):
        return g(x) + g(x * 2)
    return f


@scenario
def s_compiled_calls_compiled(r):
    g = r.compile(_inner_kernel)
    f = r.compile(_calls_compiled_inside(g))
    r.call(f, X)
    r.call(f, M)
    r.call(g, X)


def _recursive_compiled(x, n):
    if n == 0:
        return x
    return _RECURSE[0](x * 2, n - 1) + 1


_RECURSE = [None]


@scenario
def s_recursion_through_compiled(r):
    _RECURSE[0] = r.compile(_recursive_compiled)
    r.call(_RECURSE[0], X, 3)
    r.call(_RECURSE[0], X, 0)
    r.call(_RECURSE[0], M, 2)
    _RECURSE[0] = None


class DelCallsCompiled:
    fn = None
    out = []

    def __del__(self):
        DelCallsCompiled.out.append(DelCallsCompiled.fn(X).sum())


def _drop_object_with_compiled_del(x):
    o = DelCallsCompiled()
    y = x * 3
    del o
    return y, len(DelCallsCompiled.out)


@scenario
def s_del_calls_compiled(r):
    DelCallsCompiled.out = []
    DelCallsCompiled.fn = r.compile(_inner_kernel)
    f = r.compile(_drop_object_with_compiled_del)
    r.call(f, X)
    r.call(f, X)
    r.see("out", list(DelCallsCompiled.out))


def _callback_calls_compiled(cb):
    def f(x):
        return np.apply_along_axis(cb, 0, x)
    return f


@scenario
def s_apply_along_axis_compiled_callback(r):
    cb = r.compile(_inner_kernel)
    f = r.compile(_callback_calls_compiled(cb))
    r.call(f, M)
    r.call(f, X)


def _map_with_compiled(g):
    def f(x):
        return list(map(g, [x, x * 2])), sorted([x.sum(), 1.0], key=g)
    return f


@scenario
def s_builtin_map_of_compiled(r):
    g = r.compile(_inner_kernel)
    f = r.compile(_map_with_compiled(g))
    r.call(f, X)


def _vectorize_python(x):
    v = np.vectorize(lambda a: a * 2 if a > 0 else -a)
    return v(x), v(M)


case(_vectorize_python, (X,))


def _frompyfunc(x):
    f = np.frompyfunc(lambda a, b: a * 10 + b, 2, 1)
    return f(x, 1), f.reduce(np.arange(4))


case(_frompyfunc, (X,))


def _compiled_method_on_instance(x, o):
    return o.run(x) + o.run(x)


def _run_method(self, v):
    self.calls += 1
    return v * self.k


@scenario
def s_compiled_method_of_object(r):
    class HasCompiledMethod:        # a compiled function as a method (a class attribute)
        run = r.compile(_run_method)

        def __init__(self, k):
            self.k = k
            self.calls = 0
    o = HasCompiledMethod(2.0)
    f = r.compile(_compiled_method_on_instance)
    r.call(f, X, o)
    r.see("calls", o.calls)
    o.k = 5.0
    r.call(f, X, o)
    r.see("calls", o.calls)


# ============================================================================ frame readers

def describe(frame):
    code = frame.f_code
    return (code.co_name, os.path.basename(code.co_filename),
            frame.f_lineno - code.co_firstlineno, sorted(frame.f_locals))


def two_up(y):
    return describe(sys._getframe(2))


def one_up(y):
    return describe(sys._getframe(1))


def back_back(y):
    return describe(sys._getframe().f_back.f_back)


def stack_two(y):
    info = inspect.stack()[2]
    return info.function, os.path.basename(info.filename)


def warn_three(y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("up", UserWarning, stacklevel=3)
    return [(os.path.basename(w.filename), w.lineno) for w in caught]


def _reader_passed_in(x, reader):
    y = np.sin(x) * 2
    seen = reader(y)
    return y + 1, seen


def _through(f):
    """A caller of ``f`` (the same line in both runs): what a two-up read sees is
    this frame, as in plain Python."""
    def through(*args):
        return f(*args)
    return through


def _fresh_code(code):
    return code.replace(co_consts=tuple(_fresh_code(c) if isinstance(c, types.CodeType)
                                        else c for c in code.co_consts))


def _fresh(fn):
    """A copy of ``fn`` with new code objects: what dynamo learns about a code object
    (it reads its caller's frame) stays with the code, so each compiled run starts
    from knowing nothing, whichever backend runs first."""
    return types.FunctionType(_fresh_code(fn.__code__), fn.__globals__, fn.__name__,
                              fn.__defaults__, fn.__closure__)


def _reader_scenario(fn, reader_of):
    def scenario(r):
        f = _through(r.compile(_fresh(fn)))
        for _ in range(3):
            r.call(f, X, reader_of())
    return scenario


for _name, _reader in [("getframe_2", two_up), ("f_back_f_back", back_back),
                       ("inspect_stack_2", stack_two), ("stacklevel_3", warn_three),
                       ("getframe_1", one_up)]:
    reg._add(f"reader_argument_{_name}", _reader_scenario(_reader_passed_in,
                                                           lambda r=_reader: r), "")


class Holder:
    def __init__(self, reader):
        self.reader = reader


def _reader_in_attribute(x, h):
    y = np.cos(x)
    return y * 2, h.reader(y)


for _name, _reader in [("getframe_2", two_up), ("f_back_f_back", back_back)]:
    reg._add(f"reader_attribute_{_name}", _reader_scenario(
        _reader_in_attribute, lambda r=_reader: Holder(r)), "")

READERS = types.SimpleNamespace(two_up=two_up)


def _reader_by_getattr(x, name):
    y = x * 3
    return y, getattr(READERS, name)(y)


@scenario
def s_reader_by_getattr(r):
    f = _through(r.compile(_fresh(_reader_by_getattr)))
    for _ in range(2):
        r.call(f, X, "two_up")


def _reader_in_container(x, readers):
    y = x - 1
    return y, [rd(y) for rd in readers]


@scenario
def s_reader_in_list(r):
    f = _through(r.compile(_fresh(_reader_in_container)))
    for _ in range(2):
        r.call(f, X, [one_up, two_up])


@scenario
def s_reader_swapped_in_later(r):
    """Compiled with a plain callee, then called with a two-up reader."""
    f = _through(r.compile(_fresh(_reader_passed_in)))
    r.call(f, X, np.sum)
    r.call(f, X, lambda y: y * 2)
    for _ in range(2):
        r.call(f, X, two_up)


def _helper_calls_arg(y, reader):
    return reader(y + 0.5)


def _reader_via_helper_arg(x, reader):
    y = np.sin(x)
    return _helper_calls_arg(y, reader), y


@scenario
def s_reader_through_helper_argument(r):
    f = _through(r.compile(_fresh(_reader_via_helper_arg)))
    for _ in range(2):
        r.call(f, X, two_up)


def _reader_partial(x, p):
    y = x * 2
    return p(y)


@scenario
def s_reader_in_partial(r):
    import functools
    f = _through(r.compile(_fresh(_reader_partial)))
    for _ in range(2):
        r.call(f, X, functools.partial(two_up))


class CallableReader:
    def __call__(self, y):
        return describe(sys._getframe(2))


@scenario
def s_callable_object_reader_argument(r):
    f = _through(r.compile(_fresh(_reader_passed_in)))
    for _ in range(2):
        r.call(f, X, CallableReader())


class MethodReader:
    def read(self, y):
        return describe(sys._getframe(2))


def _method_reader_in_island(x, o):
    y = x - 1
    here = sys._getframe()   # the rest runs as an island: its method calls are routed
    out = [here.f_code.co_name]
    for _ in range(2):
        out.append(o.read(y))
    return y, out


@scenario
def s_method_reader_in_island(r):
    f = _through(r.compile(_fresh(_method_reader_in_island)))
    for _ in range(3):
        r.call(f, X, MethodReader())


# The same cause (a two-up reader called only after a graph break, by the resume
# function or an island): found within the frame's reach at the break, before the
# first graph runs, so the whole frame runs in the program's own frame.

def _reader_in_dict_after_break(x, readers):
    y = x * 1.5
    print("between")
    return y, readers["two"](y)


@scenario
def s_reader_in_dict_after_break(r):
    f = _through(r.compile(_fresh(_reader_in_dict_after_break)))
    for _ in range(2):
        r.call(f, X, {"one": one_up, "two": two_up})


class Readers:
    two = staticmethod(two_up)


def _static_reader_after_break(x):
    y = x + 0.5
    print("between")
    return y, Readers.two(y)


@scenario
def s_static_reader_after_break(r):
    f = _through(r.compile(_fresh(_static_reader_after_break)))
    for _ in range(2):
        r.call(f, X)


def _attribute_reader_after_break(x, h):
    y = np.cos(x)
    print("between")
    return y, h.reader(y)


@scenario
def s_attribute_reader_after_break(r):
    f = _through(r.compile(_fresh(_attribute_reader_after_break)))
    for _ in range(2):
        r.call(f, X, Holder(back_back))


def _callable_reader_after_break(x, c):
    y = x - 2
    print("between")
    return c(y), y


@scenario
def s_callable_reader_after_break(r):
    f = _through(r.compile(_fresh(_callable_reader_after_break)))
    for _ in range(2):
        r.call(f, X, CallableReader())


def _partial_reader_in_island(x, ps):
    y = x * 4
    here = sys._getframe()   # the rest runs as an island
    return here.f_code.co_name, ps[0](y)


@scenario
def s_partial_reader_in_island(r):
    import functools
    f = _through(r.compile(_fresh(_partial_reader_in_island)))
    for _ in range(2):
        r.call(f, X, (functools.partial(two_up),))


def _warning_reader_after_break(x, w):
    y = x / 3
    print("between")
    return y, w(y)


@scenario
def s_warning_reader_after_break(r):
    f = _through(r.compile(_fresh(_warning_reader_after_break)))
    for _ in range(2):
        r.call(f, X, warn_three)


def _method_reader_in_loop_after_break(x, o):
    y = x + 1
    print("between")
    out = []
    for k in range(3):
        out.append(o.read(y + k))
    return y, out


@scenario
def s_method_reader_in_loop_after_break(r):
    f = _through(r.compile(_fresh(_method_reader_in_loop_after_break)))
    for _ in range(2):
        r.call(f, X, MethodReader())


def _bound_method_reader(x, o):
    y = x + 2
    return o.read(y)


@scenario
def s_bound_method_reader(r):
    f = _through(r.compile(_fresh(_bound_method_reader)))
    for _ in range(2):
        r.call(f, X, MethodReader())


# ============================================================================ compiled objects

def _kernel_kwargs(x, *, scale=2.0, shift=0.0):
    return x * scale + shift


case(_kernel_kwargs, (X,), Args(X, shift=1.0, scale=3.0), Args(X, scale=0.5),
     name="kwargs_order")


def _varargs_kernel(*arrays, **opts):
    out = arrays[0] * 0
    for a in arrays:
        out = out + a * opts.get("w", 1.0)
    return out, len(arrays), sorted(opts)


case(_varargs_kernel, (X,), (X, X * 2), (X, X, X))


def _generator_function(x):
    for v in (x, x * 2, x * 3):
        yield v.sum()


@scenario
def s_compiled_generator_function(r):
    f = r.compile(_generator_function)
    r.call(lambda g: list(g), f(X))
    r.call(lambda g: (next(g), next(g)), f(M))


def _mutable_default(x, acc=[]):  # noqa: B006 (the shared default is the point)
    acc.append(float(x.sum()))
    return len(acc), x * len(acc)


@scenario
def s_mutable_default_grows(r):
    _mutable_default.__defaults__[0].clear()
    f = r.compile(_mutable_default)
    for _ in range(3):
        r.call(f, X)
    r.see("default", list(_mutable_default.__defaults__[0]))
    _mutable_default.__defaults__[0].clear()


def _cell_reader_factory():
    k = [2.0]

    def f(x):
        return x * k[0]

    def set_k(v):
        k[0] = v
    return f, set_k


@scenario
def s_closure_list_changed_between_calls(r):
    fn, set_k = _cell_reader_factory()
    f = r.compile(fn)
    r.call(f, X)
    set_k(5.0)
    r.call(f, X)


def _rebindable_factory():
    k = 2.0

    def f(x):
        return x * k

    def set_k(v):
        nonlocal k
        k = v
    return f, set_k


@scenario
def s_closure_cell_rebound_between_calls(r):
    fn, set_k = _rebindable_factory()
    f = r.compile(fn)
    r.call(f, X)
    set_k(np.float32(3.0))
    r.call(f, X)
    set_k(4)
    r.call(f, X)


def _code_a(x):
    return x + 1


def _code_b(x):
    return x * 100


@scenario
def s_code_swapped_after_compile(r):
    def target(x):
        return x + 1
    f = r.compile(target)
    r.call(f, X)
    target.__code__ = _code_b.__code__
    r.call(f, X)
    target.__code__ = _code_a.__code__
    r.call(f, X)


@scenario
def s_many_shapes_past_cache_limit(r):
    f = r.compile(_thread_kernel)
    for n in range(1, 15):
        r.call(f, np.arange(float(n)))


class StaticAndClass:
    factor = 3.0

    @staticmethod
    def st(x):
        return x * 2

    @classmethod
    def cl(cls, x):
        return x * cls.factor


def _static_and_class_methods(x, o):
    return o.st(x) + StaticAndClass.cl(x) + type(o).cl(x)


case(_static_and_class_methods, (X, StaticAndClass()))


def _lambda_compiled_scenario_fn(x):
    return (lambda v: v ** 2)(x) + (lambda: x)()


case(_lambda_compiled_scenario_fn, (X,))


def _reset_between(x):
    return np.exp(x) - 1


@scenario
def s_dynamo_reset_between_calls(r):
    import dynamo
    f = r.compile(_reset_between)
    r.call(f, X)
    dynamo.reset()
    r.call(f, X)
    r.call(f, M)
