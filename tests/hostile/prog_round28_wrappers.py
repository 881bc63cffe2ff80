"""Round 28, the compiled objects after ``dynamo/api.py`` was split
(``compile_settings.py``, ``compiled_calls.py``, ``compiled_methods.py``,
``pickled_by_name.py``): a compiled function or bound method copied, deep-copied,
pickled and unpickled, wrapped with ``functools.wraps``, put on a class (a method,
a staticmethod, a classmethod), read for ``__name__``/``__qualname__``/``__module__``/
``__doc__``/``__defaults__``/signature, its attributes set between calls, and called from
threads. Each wrapping of each body is one program: the calls through the wrapper
must give exactly what the plain function gives through the same wrapping.

    >>> def _scale(x, k=2.0):
    ...     return x * k + x.sum()
"""

import copy
import functools
import inspect
import pickle
import threading

import numpy as np
from hostile_check import Programs, without_addresses

reg = Programs("round28_wrappers")
scenario = reg.scenario

X = np.arange(6.0)
X2 = np.linspace(-1.0, 1.0, 9)
XI = np.arange(5)


def _scale(x, k=2.0):
    """Scale and shift."""
    return x * k + x.sum()


def _counted(x):
    n = len(x[x > 0])
    return not (n > 2), round(float(x.mean()), 2), x[x > 0] * 2


def _poly(x):
    p = np.poly1d(x[:3] + 1.0)
    return (p * 2 + 1).coeffs, p.deriv()(x)


def _printing(x):
    print("sum", x.sum())
    return x - 1


def _raising(x):
    if x.shape[0] > 7:
        raise ValueError("too long")
    return np.sqrt(x)


BODIES = (_scale, _counted, _poly, _printing, _raising)


class Model:
    """A picklable object with methods to compile."""

    def __init__(self, w):
        self.w = w
        self.calls = 0

    def step(self, x):
        self.calls += 1
        return x * self.w + self.calls

    def count(self, x):
        return not (len(x[x > self.w]) > 0), -(len(x[x > 0]) > 1)


def _inputs():
    return (X.copy(),), (X2.copy(),), (XI.copy(),), (X.copy(),)


def _run(r, f):
    for args in _inputs():
        r.call(f, *args)


def _wrapping(how):
    """A scenario maker: ``how(r, f)`` turns the compiled (or plain) ``f`` into what
    the program calls."""
    def make(body):
        def s(r):
            f = r.compile(body)
            _run(r, how(r, f))
        s.__name__ = f"{how.__name__}{body.__name__}"
        s.__doc__ = how.__doc__
        return s
    return make


def copied(r, f):
    """``copy.copy`` of the compiled function."""
    return copy.copy(f)


def deepcopied(r, f):
    """``copy.deepcopy``."""
    return copy.deepcopy(f)


def pickled(r, f):
    """``pickle.loads(pickle.dumps(f))`` (sent by value: the wrapper is not the
    module's name)."""
    return pickle.loads(pickle.dumps(f))


def wrapsed(r, f):
    """A ``functools.wraps`` decorator around the compiled function."""
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)
    r.see("wrapper names", (wrapper.__name__, wrapper.__qualname__, wrapper.__module__,
                            wrapper.__doc__))
    return wrapper


def partialed(r, f):
    """``functools.partial`` of the compiled function."""
    return functools.partial(f)


def as_method(r, f):
    """The compiled function as a class's staticmethod, called through an instance."""
    holder = type("Holder", (), {"run": staticmethod(f)})
    return holder().run


def lambda_around(r, f):
    """A lambda that calls the compiled function twice."""
    return lambda x: (f(x), f(x))


def threaded(r, f):
    """The compiled function called from four threads at once, the results in order."""
    def run_all(x):
        out = [None] * 4

        def one(i):
            try:
                out[i] = ("ok", f(x + i))
            except Exception as e:  # noqa: BLE001
                out[i] = ("raised", type(e).__name__, str(e))
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):   # (threads' prints interleave)
            ts = [threading.Thread(target=one, args=(i,)) for i in range(4)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
        return out
    return run_all


for _how in (copied, deepcopied, pickled, wrapsed, partialed, as_method, lambda_around,
             threaded):
    for _body in BODIES:
        scenario(_wrapping(_how)(_body))


# ------------------------------------------------------------------ the function's facts

def _facts(f):
    sig = inspect.signature(f)
    return (f.__name__, f.__qualname__, f.__module__, f.__doc__, str(sig),
            getattr(f, "__defaults__", None), callable(f))


for _body in BODIES:
    def _s(r, body=_body):
        f = r.compile(body)
        r.see("facts", _facts(f))
        _run(r, f)
        r.see("facts after calls", _facts(f))
    _s.__name__ = f"facts{_body.__name__}"
    scenario(_s)


@scenario
def s_defaults_replaced(r):
    """``__defaults__`` replaced through the compiled object between calls."""
    f = r.compile(_scale)
    r.call(f, X.copy())
    f.__defaults__ = (-1.0,)
    r.call(f, X.copy())
    r.see("defaults", _scale.__defaults__)
    _scale.__defaults__ = (2.0,)
    r.call(f, X.copy())


@scenario
def s_attribute_set_seen_on_both(r):
    """An attribute set on the compiled object (a registry mark) is the function's."""
    f = r.compile(_counted)
    f.mark = "registered"
    r.see("mark", getattr(_counted, "mark", None))
    r.call(f, X.copy())
    r.see("dict has mark", "mark" in f.__dict__)
    del f.mark
    r.see("mark after del", hasattr(_counted, "mark"))
    r.call(f, X2.copy())


# ------------------------------------------------------------------ compiled bound methods

def _method_scenario(name, how):
    def s(r):
        m = Model(2.0)
        f = r.compile(getattr(m, name))
        g = how(f)
        for args in _inputs():
            r.call(g, *args)
        r.see("model", vars(m))
        r.see("self", (getattr(g, "__self__", m) is m,))
    s.__name__ = f"method_{name}_{how.__name__}"
    return s


def plain(f):
    return f


def method_pickled(f):
    """Pickled with its object: a new object, which the calls then change."""
    return pickle.loads(pickle.dumps(f))


def method_copied(f):
    return copy.copy(f)


def method_deepcopied(f):
    return copy.deepcopy(f)


for _name in ("step", "count"):
    for _how in (plain, method_pickled, method_copied, method_deepcopied):
        scenario(_method_scenario(_name, _how))


@scenario
def s_method_facts(r):
    """A compiled bound method's ``__self__``, ``__func__`` name, ``__name__``, signature."""
    m = Model(1.0)
    f = r.compile(m.step)
    r.see("facts", (f.__self__ is m, f.__name__, f.__qualname__, f.__module__,
                    str(inspect.signature(f)), f.__func__.__name__))
    r.call(f, X.copy())
    r.see("calls", m.calls)


@scenario
def s_method_attribute_rebound(r):
    """``m.w`` changed between calls of the compiled bound method."""
    m = Model(1.0)
    f = r.compile(m.step)
    r.call(f, X.copy())
    m.w = np.float32(3.0)
    r.call(f, X.copy())
    m.w = -1
    r.call(f, XI.copy())


@scenario
def s_class_attribute_compiled(r):
    """A compiled function set as a class attribute: called through an instance, it is
    a method (the instance is its first argument), as a plain function is."""
    def body(self, x):
        self.calls += 1
        return x * self.w, self.calls
    f = r.compile(body)
    cls = type("Late", (Model,), {"late": f})
    o = cls(2.0)
    r.call(o.late, X.copy())
    r.call(o.late, X2.copy())
    r.see("o", vars(o))
    r.call(cls.late, o, XI.copy())


@scenario
def s_classmethod_compiled(r):
    """``classmethod`` around a compiled function."""
    def body(cls, x):
        return cls.__name__, x + 1.0
    f = r.compile(body)
    cls = type("WithClassMethod", (), {"make": classmethod(f)})
    r.call(cls.make, X.copy())
    r.call(cls().make, X2.copy())


@scenario
def s_threads_and_main(r):
    """Threads call while the main thread calls the same compiled function with
    another size."""
    f = r.compile(_counted)
    results = []
    lock = threading.Lock()

    def one(x):
        v = f(x)
        with lock:
            results.append((x.shape[0], v))
    ts = [threading.Thread(target=one, args=(np.arange(float(k) + 3),)) for k in range(4)]
    for t in ts:
        t.start()
    r.call(f, X2.copy())
    for t in ts:
        t.join()
    r.see("thread results", sorted(results, key=lambda t: t[0]))


# ------------------------------------------------------------------ callables with no code

class Point:
    """A class compiled: calling it makes an instance, as plainly."""

    scale = 2.0

    def __init__(self, x):
        self.x = x * self.scale

    @staticmethod
    def origin():
        return np.zeros(2)


def _ufunc_facts(r, f):
    x = X.copy()
    r.see("ufunc facts", (f.__name__, getattr(f, "nin", "no nin"),
                          getattr(f, "identity", "no identity")))
    for use in (lambda: f.reduce(x), lambda: f.accumulate(x), lambda: f.outer(x[:2], x[:3]),
                lambda: f.at(x, [0, 0, 1], 1.0), lambda: f(x, 1.0), lambda: type(f).__name__):
        try:
            r.see("use", use())
        except Exception as e:  # noqa: BLE001
            r.see("raised", (type(e).__name__, str(e)))
    r.see("x after at", x)


@scenario
def s_compiled_ufunc_methods(r):
    """``dynamo.compile(np.add)``: ``reduce``, ``accumulate``, ``outer``, ``at``, ``nin``."""
    _ufunc_facts(r, r.compile(np.add))


@scenario
def s_compiled_ufunc_multiply(r):
    """The same of ``np.multiply``."""
    _ufunc_facts(r, r.compile(np.multiply))


@scenario
def s_compiled_class_instances(r):
    """A compiled class: ``isinstance``, ``type(p) is C``, class attributes, a
    staticmethod, a subclass of it."""
    C = r.compile(Point)
    p = r.call(C, X.copy())
    for use in (lambda: isinstance(p, C), lambda: type(p) is C, lambda: C.scale,
                lambda: C.origin(), lambda: type(C).__name__,
                lambda: type("Sub", (C,), {})(X.copy()).x, lambda: issubclass(Point, C)):
        try:
            r.see("use", use())
        except Exception as e:  # noqa: BLE001
            r.see("raised", (type(e).__name__, str(e)))


@scenario
def s_compiled_builtin_method(r):
    """A bound builtin method compiled (``log.append``): its ``__self__``, and calls."""
    log = []
    f = r.compile(log.append)
    r.call(f, 1)
    r.call(f, X.copy())
    r.see("log", log)
    r.see("self", (getattr(f, "__self__", None) is log, f.__name__))


@scenario
def s_compiled_np_sum_facts(r):
    """``dynamo.compile(np.sum)``: its name, module, and calls with keywords."""
    f = r.compile(np.sum)
    r.see("facts", (f.__name__, f.__module__, f.__doc__ is np.sum.__doc__,
                    type(f).__name__))
    r.call(f, X.copy(), axis=0)
    r.call(f, np.ones((2, 3)), axis=1, keepdims=True)


# ------------------------------------------------------------------ pickling what cannot go

def _pickle_outcome(obj):
    try:
        data = pickle.dumps(obj)
    except Exception as e:  # noqa: BLE001
        # (3.14's message names the function with its address: the compiled run and
        # the plain one pickle different function objects)
        return "refused", type(e).__name__, without_addresses(str(e))
    back = pickle.loads(data)
    return "sent", back(X.copy())


@scenario
def s_pickle_closure(r):
    """A compiled closure: pickle refuses it as it refuses the closure."""
    k = 3.0

    def scaled(x):
        return x * k
    f = r.compile(scaled)
    r.call(f, X.copy())
    r.see("pickle", _pickle_outcome(f))


@scenario
def s_pickle_lambda(r):
    f = r.compile(lambda x: x + 1.0)
    r.see("pickle", _pickle_outcome(f))
    r.call(f, X.copy())


def _by_name(x):
    return x * 4.0 - 1.0


@scenario
def s_pickle_decorated_by_name(r):
    """The module's name bound to the compiled object (``@dynamo.compile``): pickled
    by name, unpickled as that very object, as a plain function is."""
    f = r.compile(_by_name_plain)
    r.patch(globals(), "_by_name", f)
    back = pickle.loads(pickle.dumps(f))
    r.see("same object", back is f)
    r.see("copies", (copy.copy(f) is f, copy.deepcopy(f) is f))
    r.call(back, X.copy())


_by_name_plain = _by_name   # (the function itself, kept when the name is rebound)


@scenario
def s_pickle_method_of_local_class(r):
    """A compiled bound method of an object of a local class: refused as plainly."""
    class Local:
        def go(self, x):
            return x - 1.0
    f = r.compile(Local().go)
    r.see("pickle", _pickle_outcome(f)[:2])
    r.call(f, X.copy())
