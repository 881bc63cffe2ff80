"""What ``dynamo.compile(fn)`` returns is read, written and inspected as ``fn`` itself
(``dynamo/api.py`` ``OptimizedFunction``): attributes set on either after compiling,
``__dict__``, the names, the code and defaults as they are now, ``inspect.signature``
with and without following ``__wrapped__``; pickling by name still works."""

import functools
import inspect
import pickle
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
