"""Round 10, the compiled function as an object (``dynamo/api.py``
``OptimizedFunction``: every attribute but its own slots is the function's) and the
tracebacks a program sees after a graph break (``dynamo/tracebacks.py``): attributes
set, read and deleted on either object, ``__defaults__``, ``__kwdefaults__`` and
``__code__`` replaced through the compiled object, names that are the compiled
object's own slots (``__call__``, ``__wrapped__``, ``_orig_fn``...) set as a program
would set any attribute, ``copy``, ``functools.wraps``, ``partial`` and ``weakref`` of a
compiled function, recursion through a decorated (compiled) global, and exceptions
raised before and after breaks, inside islands, comprehensions, nested compiled calls,
re-raised, chained, caught and formatted inside the function (``traceback``'s
frames: names and lines relative to the ``def``, the locals a handler's frame shows)."""

import copy
import functools
import inspect
import sys
import traceback
import weakref

import numpy as np
from hostile_check import Programs

reg = Programs("round10_api")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5])


def _fn(x, k=2.0, *, m=3.0):
    """Scale x."""
    return x * k + m


def _other(x, k=2.0, *, m=3.0):
    return x - k - m


# ============================================================ attributes

@scenario
def s_attribute_round_trip(r):
    f = r.compile(_fn)
    f.tag = "set on the compiled object"
    r.see("tag", (f.tag, getattr(f, "tag", None), hasattr(f, "tag"), "tag" in vars(f)))
    r.call(f, X.copy())
    del f.tag
    r.see("after del", (hasattr(f, "tag"), "tag" in f.__dict__))
    try:
        del f.tag
    except AttributeError as e:
        r.see("del twice", type(e).__name__)


@scenario
def s_metadata(r):
    f = r.compile(_fn)
    r.see("meta", (f.__name__, f.__qualname__, f.__doc__, f.__module__,
                   str(inspect.signature(f)), f.__defaults__, f.__kwdefaults__,
                   f.__code__.co_name, f.__globals__ is globals(), f.__closure__,
                   f.__annotations__))


@scenario
def s_defaults_replaced_through_compiled(r):
    r.patch(_fn, "__defaults__", _fn.__defaults__)     # (put back at the end)
    r.patch(_fn, "__kwdefaults__", dict(_fn.__kwdefaults__))
    f = r.compile(_fn)
    r.call(f, X.copy())
    f.__defaults__ = (10.0,)
    r.call(f, X.copy())
    f.__kwdefaults__ = {"m": -1.0}
    r.call(f, X.copy())
    f.__defaults__ = None
    r.call(f, X.copy())
    r.call(f, X.copy(), 1.0)


@scenario
def s_code_replaced_through_compiled(r):
    f = r.compile(_fn)
    old = _fn.__code__
    r.call(f, X.copy())
    try:
        f.__code__ = _other.__code__
        r.call(f, X.copy())
        r.see("code", f.__code__.co_name)
    finally:
        _fn.__code__ = old
    r.call(f, X.copy())


@scenario
def s_name_set_through_compiled(r):
    for name in ("__name__", "__qualname__", "__doc__"):
        r.patch(_fn, name, getattr(_fn, name))
    f = r.compile(_fn)
    f.__name__ = "renamed"
    f.__qualname__ = "Somewhere.renamed"
    f.__doc__ = "new doc"
    r.see("names", (f.__name__, f.__qualname__, f.__doc__))
    r.call(f, X.copy())


def _plain_target(x):
    return x + 1


@scenario
def s_dunder_call_attribute(r):
    """``f.__call__ = g`` on a function object changes nothing about calling it."""
    r.patch(_plain_target.__dict__, "__call__", None)
    f = r.compile(_plain_target)
    r.call(f, X.copy())
    try:
        f.__call__ = lambda *a: "replaced"
    except AttributeError as e:
        r.see("refused", type(e).__name__)
    r.call(f, X.copy())


@scenario
def s_wrapped_attribute(r):
    r.patch(_plain_target.__dict__, "__wrapped__", None)
    f = r.compile(_plain_target)
    f.__wrapped__ = _other
    r.see("wrapped", (f.__wrapped__.__name__, "__wrapped__" in vars(f),
                      str(inspect.signature(f))))
    r.call(f, X.copy())


@scenario
def s_private_slot_names(r):
    """Attribute names that are the compiled object's own slots, set by a program."""
    for name in ("_orig_fn", "_settings", "_ctx"):
        r.patch(_plain_target.__dict__, name, None)
    f = r.compile(_plain_target)
    for name in ("_orig_fn", "_settings", "_ctx"):
        try:
            setattr(f, name, "user value")
            r.see(name, getattr(f, name))
        except AttributeError as e:
            r.see(name, type(e).__name__)
    r.call(f, X.copy())
    r.call(f, np.ones((2, 2), np.float32))
    r.see("after", (f.__name__, str(inspect.signature(f)), sorted(vars(f))))


@scenario
def s_dict_replaced(r):
    r.patch(_plain_target, "__dict__", {})
    f = r.compile(_plain_target)
    f.__dict__ = {"a": 1}
    r.see("dict", (dict(vars(f)), getattr(f, "a", None)))
    f.__dict__.update(b=2)
    r.see("dict", sorted(vars(f)))
    r.call(f, X.copy())


@scenario
def s_copy_and_weakref(r):
    f = r.compile(_plain_target)
    c = copy.copy(f)
    d = copy.deepcopy(f)
    w = weakref.ref(f)
    # (identity is not compared: a compiled function deep-copies as a fresh compile,
    # by design, tests/test_travel.py)
    r.see("identity", w() is f)
    r.call(c, X.copy())
    r.call(d, X.copy())


@scenario
def s_wraps_and_partial(r):
    f = r.compile(_fn)

    @functools.wraps(f)
    def deco(*a, **k):
        return f(*a, **k) * 2

    p = functools.partial(f, k=-1.0)
    r.see("wrapped", (deco.__name__, deco.__doc__, deco.__wrapped__ is f,
                      str(inspect.signature(deco)), str(inspect.signature(p))))
    r.call(deco, X.copy())
    r.call(p, X.copy())
    r.call(p, X.copy(), m=0.0)


@scenario
def s_equality_and_hash(r):
    f = r.compile(_plain_target)
    g = r.compile(_plain_target)
    r.see("eq", (f == f, f != f, hash(f) == hash(f), f in {f: 1}, bool(f)))
    r.see("two", (f == g) == (f is g))


@scenario
def s_bad_calls(r):
    f = r.compile(_fn)
    r.call(f)
    r.call(f, X.copy(), 1.0, 2.0)
    r.call(f, X.copy(), k=1.0, q=2)
    r.call(f, X.copy(), m=1.0, k=2.0)
    r.call(f, x=X.copy())


class Model:
    def __init__(self):
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return x * self.calls


@scenario
def s_compiled_method_attributes(r):
    m = Model()
    f = r.compile(m.forward)
    r.call(f, X.copy())
    r.see("bound", (getattr(f, "__self__", None) is m, f.__name__, m.calls))
    r.call(f, X.copy())


# ============================================================ recursion of a compiled global

def _decorated_recursion(x, d):
    if d == 0:
        return x
    return _decorated_recursion(x + 1, d - 1)


@scenario
def s_decorated_recursion(r):
    """``@dynamo.compile`` on a recursive function: its global name is the compiled
    object, which each level calls."""
    f = r.compile(_decorated_recursion)
    r.patch(globals(), "_decorated_recursion", f)
    r.call(f, X.copy(), 5)
    r.call(f, X.copy(), 250)


def _decorated_recursion_break(x, d):
    if d == 0:
        return x
    print(end="")
    return _decorated_recursion_break(x * 1.0, d - 1)


@scenario
def s_decorated_recursion_with_break(r):
    f = r.compile(_decorated_recursion_break)
    r.patch(globals(), "_decorated_recursion_break", f)
    r.call(f, X.copy(), 3)
    r.call(f, X.copy(), 180)


# ============================================================ tracebacks

def tb_of(fn):
    """``fn`` returning its result, or the exception's frames (function name, line
    relative to the frame's function's ``def``, source text) and type."""
    def run(*args):
        try:
            return fn(*args)
        except Exception as e:  # noqa: BLE001
            frames = []
            tb = e.__traceback__.tb_next
            while tb is not None:
                code = tb.tb_frame.f_code
                frames.append((code.co_name, tb.tb_lineno - code.co_firstlineno))
                tb = tb.tb_next
            summary = [(s.name, s.line) for s in traceback.extract_tb(e.__traceback__)[1:]]
            return type(e).__name__, frames, summary
    run.__name__ = fn.__name__
    return run


def tb_case(fn, *inputs):
    def s(r):
        f = tb_of(r.compile(fn))
        for spec in inputs + inputs[:1]:
            for _ in range(2):
                r.call(f, *copy.deepcopy(spec))
    s.__name__ = fn.__name__.removeprefix("_")
    reg.scenario(s)


def _raise_after_break(x, i):
    y = x * 2
    print("break")
    return y[i]


tb_case(_raise_after_break, (X, 1), (X, 10))


def _raise_before_break(x, i):
    y = x[i] * 2
    print("break")
    return y


tb_case(_raise_before_break, (X, 1), (X, 10))


def _raise_in_island(x, n):
    acc = x * 1
    for i in range(n):
        print(i)
        acc = acc + x[i]
    return acc


tb_case(_raise_in_island, (X, 2), (X, 5))


def _helper_raises(v, i):
    return v[i] + 1


def _raise_in_callee_after_break(x, i):
    print("b")
    return _helper_raises(x * 2, i)


tb_case(_raise_in_callee_after_break, (X, 0), (X, 9))


def _raise_in_comprehension_after_break(x, d):
    print("c")
    return [float(v) / d for v in x]


tb_case(_raise_in_comprehension_after_break, (X, 2.0), (X, 0))


def _reraised(x, i):
    print("r")
    try:
        return x[i]
    except IndexError:
        x = x * 0
        raise


tb_case(_reraised, (X, 0), (X, 7))


def _raise_from(x, i):
    print("f")
    try:
        return x[i]
    except IndexError as e:
        raise KeyError(i) from e


tb_case(_raise_from, (X, 0), (X, 7))


def _raise_in_finally(x, i):
    print("fin")
    try:
        return x[0]
    finally:
        if i:
            raise ValueError("from finally")


tb_case(_raise_in_finally, (X, 0), (X, 1))


def _inner_compiled(v, i):
    print("inner")
    return v[i]


INNER = None


def _outer_calls_compiled(x, i):
    y = x + 1
    print("outer")
    return INNER(y, i) * 2


@scenario
def s_nested_compiled_traceback(r):
    r.patch(globals(), "INNER", r.compile(_inner_compiled))
    f = tb_of(r.compile(_outer_calls_compiled))
    for i in (0, 9, 1, 9):
        r.call(f, X.copy(), i)


def _format_inside(x, i):
    print("fmt")
    try:
        x[i]
    except IndexError:
        lines = traceback.format_exc().splitlines()
        return [ln.strip() for ln in lines if "File" not in ln]
    return "no"


case(_format_inside, (X, 0), (X, 4))


def _exc_info_inside(x, i):
    print("info")
    try:
        x[i]
    except IndexError:
        t, v, tb = sys.exc_info()
        names = []
        while tb is not None:
            names.append((tb.tb_frame.f_code.co_name, tb.tb_lineno - tb.tb_frame.f_code.co_firstlineno))
            tb = tb.tb_next
        return t.__name__, names
    return "no"


case(_exc_info_inside, (X, 0), (X, 4))


def _handler_frame_locals(x, i):
    y = x * 3
    label = "here"
    print("loc")
    try:
        return y[i], label
    except IndexError as e:
        tb = e.__traceback__
        while tb.tb_next is not None:
            tb = tb.tb_next
        return sorted(k for k in tb.tb_frame.f_locals if not k.startswith("___")), \
            float(tb.tb_frame.f_locals["y"][0])


case(_handler_frame_locals, (X, 0), (X, 6))


def _exception_escapes_with_context(x, i):
    print("ctx")
    try:
        1 / 0
    except ZeroDivisionError:
        return x[i]


tb_case(_exception_escapes_with_context, (X, 0), (X, 8))


def _raise_after_two_breaks(x, i):
    print("one")
    y = x + 1
    print("two")
    return y[i]


tb_case(_raise_after_two_breaks, (X, 2), (X, 3))


def _assert_after_break(x):
    print("a")
    assert x.sum() > 0, "negative sum"
    return x


tb_case(_assert_after_break, (X * -1,), (np.abs(X),))


# ============================================================ more tracebacks

def _raise_in_generator_after_break(x, i):
    print("gen")

    def gen():
        yield x[0]
        yield x[i]
    return list(gen())


tb_case(_raise_in_generator_after_break, (X, 1), (X, 5))


class Guard:
    def __init__(self, fail):
        self.fail = fail

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.fail:
            raise RuntimeError("exit failed")
        return False


def _raise_in_exit_after_break(x, fail):
    print("with")
    with Guard(fail):
        y = x * 2
    return y


tb_case(_raise_in_exit_after_break, (X, False), (X, True))


def _raise_in_nested_def(x, i):
    def pick(v):
        return v[i]
    print("n")
    return pick(x) + pick(x * 2)


tb_case(_raise_in_nested_def, (X, 0), (X, 4))


def _try_else_in_island(x, n):
    out = []
    for i in range(n):
        print(i)
        try:
            v = x[i]
        except IndexError:
            out.append("missing")
        else:
            out.append(float(v))
            if v < -1:
                raise ValueError(f"too small at {i}")
    return out


tb_case(_try_else_in_island, (X, 1), (X, 5), (X * -1, 1))


class Loud(Exception):
    def __str__(self):
        return f"loud({self.args[0]!r})"


def _custom_exception_after_break(x):
    print("loud")
    if x.sum() > 0:
        raise Loud(float(x.sum()))
    return x


tb_case(_custom_exception_after_break, (X * -10,), (X,))


def _exception_group_after_break(x):
    print("group")
    errors = [ValueError(float(v)) for v in x if v < 0]
    if errors:
        raise ExceptionGroup("negative values", errors)
    return x


tb_case(_exception_group_after_break, (np.abs(X),), (X,))


def _without_traceback(x, i):
    print("wt")
    try:
        return x[i]
    except IndexError as e:
        raise e.with_traceback(None)


tb_case(_without_traceback, (X, 0), (X, 9))


def _print_exc_inside(x, i):
    print("pe")
    try:
        return x[i]
    except IndexError:
        lines = traceback.format_exc().splitlines()
        return [ln.strip() for ln in lines if not ln.lstrip().startswith("File")], \
            len([ln for ln in lines if ln.lstrip().startswith("File")])


case(_print_exc_inside, (X, 0), (X, 9))


def _stack_depth_after_break(x):
    print("depth")
    return len(traceback.extract_stack()) - len(traceback.extract_stack(sys._getframe(1)))


case(_stack_depth_after_break, (X,))


# ============================================================ more attributes

@scenario
def s_dict_shared(r):
    f = r.compile(_fn)
    r.see("shared", (f.__dict__ is _fn.__dict__, vars(f) is vars(_fn), callable(f)))


class Holder:
    method = None


@scenario
def s_compiled_as_class_attribute(r):
    def m(self, x):
        return x * self.k
    r.patch(Holder, "k", 3.0)
    r.patch(Holder, "method", r.compile(m))
    h = Holder()
    r.call(h.method, X.copy())
    r.see("bound", (h.method.__self__ is h, h.method.__name__))
    r.patch(Holder, "stat", staticmethod(r.compile(_plain_target)))
    r.call(h.stat, X.copy())
    r.call(Holder.stat, X.copy())


@scenario
def s_cache_of_compiled(r):
    f = functools.lru_cache(maxsize=None)(r.compile(lambda n: np.arange(float(n)) * 2))
    r.call(f, 3)
    r.call(f, 3)
    r.see("info", f.cache_info())


@scenario
def s_signature_after_defaults_change(r):
    r.patch(_fn, "__defaults__", _fn.__defaults__)
    f = r.compile(_fn)
    f.__defaults__ = (7.0,)
    r.see("sig", (str(inspect.signature(f)), f.__defaults__, _fn.__defaults__))
    r.call(f, X.copy())


# ============================================================ state kept on the function

def _mutable_default(x, acc=[]):  # noqa: B006 (the shared default is the point)
    acc.append(float(x.sum()))
    return x * len(acc), list(acc)


@scenario
def s_mutable_default_grows(r):
    r.patch(_mutable_default, "__defaults__", ([],))
    f = r.compile(_mutable_default)
    for _ in range(4):
        r.call(f, X.copy())
    r.see("default", _mutable_default.__defaults__)


def _kw_default(x, *, opts={"scale": 2.0}):  # noqa: B006
    return x * opts["scale"]


@scenario
def s_kwdefault_mutated_in_place(r):
    r.patch(_kw_default, "__kwdefaults__", {"opts": {"scale": 2.0}})
    f = r.compile(_kw_default)
    r.call(f, X.copy())
    _kw_default.__kwdefaults__["opts"]["scale"] = -1.0
    r.call(f, X.copy())
    f.__kwdefaults__["opts"] = {"scale": 10.0}
    r.call(f, X.copy())


def _counts_itself(x):
    _counts_itself.calls += 1
    return x * _counts_itself.calls


@scenario
def s_function_attribute_counter(r):
    """The decorated global counts its calls on itself (through the compiled object)."""
    r.patch(_counts_itself, "calls", 0)
    f = r.compile(_counts_itself)
    r.patch(globals(), "_counts_itself", f)
    for _ in range(3):
        r.call(f, X.copy())
    r.see("calls", (f.calls, vars(f).get("calls")))


def _counts_itself_break(x):
    _counts_itself_break.calls += 1
    print("b")
    return x * _counts_itself_break.calls


@scenario
def s_function_attribute_counter_break(r):
    r.patch(_counts_itself_break, "calls", 0)
    f = r.compile(_counts_itself_break)
    r.patch(globals(), "_counts_itself_break", f)
    for _ in range(3):
        r.call(f, X.copy())
    f.calls = 100
    r.call(f, X.copy())
    r.see("calls", f.calls)
