"""What ``dynamo.compile(fn)`` returns is read, written and inspected as ``fn`` itself
(``dynamo/api.py`` ``OptimizedFunction``): attributes set on either after compiling,
``__dict__``, the names, the code and defaults as they are now, ``inspect.signature``
with and without following ``__wrapped__``; pickling by name still works."""

import functools
import inspect
import pickle
import sys
import types

import numpy as np

import dynamo

X = np.arange(3.0)


def _target(x, k=2.0, *, scale: float = 1.0):
    """Scales."""
    return x * k * scale


def _copy(fn):
    g = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                           fn.__closure__)
    g.__kwdefaults__, g.__qualname__ = fn.__kwdefaults__, fn.__qualname__
    return g


def test_attributes_are_the_functions_both_ways():
    fn = _copy(_target)
    fn.early = 1
    f = dynamo.compile(fn)
    np.testing.assert_array_equal(f(X), fn(X))
    fn.late, fn.early = "late", 2          # set on the function after compiling
    assert (f.late, f.early) == ("late", 2)
    f.other = 5                            # set on the compiled object
    assert fn.other == 5
    del f.other
    assert not hasattr(fn, "other") and not hasattr(f, "other")
    assert f.__dict__ is fn.__dict__ and vars(f) == {"early": 2, "late": "late"}


def test_names_code_and_defaults_are_the_functions_now():
    fn = _copy(_target)
    f = dynamo.compile(fn)
    assert (f.__name__, f.__qualname__, f.__module__, f.__doc__) == \
        (fn.__name__, fn.__qualname__, fn.__module__, fn.__doc__)
    assert f.__code__ is fn.__code__ and f.__globals__ is fn.__globals__
    f.__name__, f.__doc__ = "renamed", "Other."
    assert (fn.__name__, fn.__doc__) == ("renamed", "Other.")
    fn.__defaults__ = (3.0,)
    assert f.__defaults__ == (3.0,)
    np.testing.assert_array_equal(f(X), X * 3.0)
    assert f.__wrapped__ is fn
    # the class keeps its own docstring and module (pickle sends it by that name)
    assert inspect.getdoc(dynamo.OptimizedFunction).startswith("A compiled function")
    assert dynamo.OptimizedFunction.__module__ == "dynamo.api"


def test_signature_with_and_without_following_wrapped():
    f = dynamo.compile(_target)
    for follow in (True, False):
        assert inspect.signature(f, follow_wrapped=follow) == \
            inspect.signature(_target, follow_wrapped=follow)

    @functools.wraps(_target)
    def logged(*a, **k):
        return _target(*a, **k)
    g = dynamo.compile(logged)
    for follow in (True, False):
        assert str(inspect.signature(g, follow_wrapped=follow)) == \
            str(inspect.signature(logged, follow_wrapped=follow))
    assert inspect.unwrap(g) is _target


def test_pickles_by_name_and_as_function_and_settings():
    f = dynamo.compile(_target, backend="numpy")
    copy_ = pickle.loads(pickle.dumps(f))   # not the module's global: function + settings
    assert type(copy_) is dynamo.OptimizedFunction and copy_._orig_fn is _target
    np.testing.assert_array_equal(copy_(X), _target(X))
    assert pickle.loads(pickle.dumps(dynamo.OptimizedFunction)) is dynamo.OptimizedFunction


def _plain_and_compiled_call_slot(fn, f):
    """What a program sees of ``__call__`` on ``fn`` and on ``f``, before a write, after
    ``.__call__ = h`` on each, and after ``del``; calls after each step."""
    seen = []
    for obj, other in ((fn, f), (f, fn)):
        before = (hasattr(obj, "__call__"), "__call__" in vars(obj))  # noqa: B004
        h = lambda x: "replaced"  # noqa: E731
        obj.__call__ = h
        after = (obj.__call__ is h, other.__call__ is h, vars(obj)["__call__"] is h,
                 obj(X).tolist(), other(X).tolist())
        del obj.__call__
        gone = ("__call__" in vars(obj), "__call__" in vars(other), obj(X).tolist())
        seen.append((before, after, gone))
    return seen


def test_call_attribute_set_by_the_program_reads_back():
    """``f.__call__ = h`` (or ``fn.__call__ = h``) sets the function's attribute: read
    back through either it is ``h``, as on a plain function, and calls are unchanged
    (issue #17 ``compiled-object-call-slot``; failed before: ``f.__call__`` gave the
    compiled object's own entry)."""
    plain = _copy(_target)   # (the compiled object and its function act as one)
    expected = _plain_and_compiled_call_slot(plain, plain)
    fn = _copy(_target)
    f = dynamo.compile(fn)
    f(X)
    assert _plain_and_compiled_call_slot(fn, f) == expected
    assert expected[0][1][:3] == (True, True, True)
    # dynamo's own reads are the slot's: a method access binds the entry, not h
    method = _copy(_method)
    kind = type("Kind", (), {"scaled": dynamo.compile(method)})
    method.__call__ = lambda self, x: "replaced"
    assert kind().scaled(X).tolist() == _method(None, X).tolist()
    assert kind.scaled._call is not method.__call__


def _method(self, x):
    return x * 3.0


def _frames_of(call) -> list:
    """The code objects of the Python frames ``call()`` ran (``sys.setprofile``)."""
    codes = []

    def profile(frame, event, arg):
        if event == "call":
            codes.append(frame.f_code)
    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return codes


def test_calls_never_run_getattribute():
    """A call of a compiled function, or of a compiled method through its class, reads
    the call slot through the type (``slot_tp_call``), never through
    ``OptimizedFunction.__getattribute__``: a hit costs no frame more for it."""
    fn, method = _copy(_target), _copy(_method)
    f = dynamo.compile(fn)
    kind = type("Kind", (), {"scaled": dynamo.compile(method)})
    obj = kind()
    own = type(f).__getattribute__.__code__
    for _ in range(2):
        f(X)
        obj.scaled(X)
    fn.__call__ = method.__call__ = lambda *a: "replaced"
    assert own in _frames_of(lambda: f.__call__)   # (a read does run it)
    for call in (lambda: f(X), lambda: obj.scaled(X)):
        codes = _frames_of(call)
        assert codes and own not in codes, codes


def test_compiled_function_with_call_attribute_is_inlined_by_compiled_code():
    """A compiled function called from compiled code is still inlined (its class's
    ``__getattribute__`` runs no program code) and its attributes written there land on
    the function, call after call (the write counted once before: the trace took the
    compiled object for an object with a ``__getattribute__`` of its own)."""
    fn = _copy(_target)
    f = dynamo.compile(fn)
    holder = {"f": f}

    def uses(x):
        me = holder["f"]
        me.calls = getattr(me, "calls", 0) + 1
        return me(x) * me.calls

    g = dynamo.compile(uses)
    got = [g(X).tolist() for _ in range(3)]
    assert got == [(_target(X) * k).tolist() for k in (1, 2, 3)]
    assert fn.calls == 3
