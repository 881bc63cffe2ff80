"""Calls made from code that runs uncompiled: user code goes through the hook, the
rest passes straight through (cheaply: this is on the path of every such call)."""

import functools
import types

import numpy as np

import dynamo
from dynamo import break_calls, pyversion, skipfiles


def helper(x):
    return x + 1


class WithCall:
    def __call__(self, x):
        return x * 2


class Method:
    def run(self, x):
        return x - 1


class SubFunction:  # an object whose type is defined in Python but is not user code
    pass


def ctx():
    return dynamo.compile(helper, backend="eager")._ctx


def intercepted(f):
    return f is not None and getattr(f, "__code__", None) is not None and \
        f.__code__.co_filename.startswith("<dynamo wrapper")


def test_c_callables_pass_through_unchanged():
    c = ctx()
    for f in (abs, len, np.tanh, np.add.reduce, [].append, print, range, int, np.ndarray,
              functools.partial(abs), "x".upper, np):
        assert break_calls.intercept_callable(f, c) is f


def test_user_functions_methods_and_callable_objects_go_through_the_hook():
    c = ctx()
    assert intercepted(break_calls.intercept_callable(helper, c))
    bound = break_calls.intercept_callable(Method().run, c)
    assert type(bound) is types.MethodType and intercepted(bound.__func__)
    call = break_calls.intercept_callable(WithCall(), c)
    assert type(call) is types.MethodType and intercepted(call.__func__)
    assert call(3) == 6 and bound(3) == 2


def test_library_code_is_not_intercepted():
    c = ctx()
    import json
    assert break_calls.intercept_callable(json.dumps, c) is json.dumps
    assert break_calls.intercept_callable(np.linspace, c) is np.linspace


def test_the_skip_decision_is_made_once_per_file():
    skipfiles._skipped_file.cache_clear()
    for _ in range(100):
        skipfiles.is_skipped(helper.__code__)
    info = skipfiles._skipped_file.cache_info()
    assert info.misses == 1 and info.hits == 99



def calls_through_a_module(x):
    return np.tanh(x) + abs(-1)


def test_the_callable_of_a_module_attribute_call_is_what_is_intercepted():
    """Code that runs uncompiled hands each callable it calls to ``intercept``: for
    ``np.tanh(x)`` that is ``np.tanh`` (on 3.11 the call loads NULL + ``np``, then the
    attribute: the module itself used to be handed over, so ``mod.user_fn(x)`` was never
    compiled)."""
    from bytecode import Bytecode

    from dynamo.bytecode.emit import intercept_calls

    seen = []

    def record(f):
        seen.append(f)
        return f

    bc = Bytecode.from_code(calls_through_a_module.__code__)
    bc[:] = intercept_calls(list(bc), record)
    code = bc.to_code()
    fn = types.FunctionType(code, calls_through_a_module.__globals__)
    assert fn(0.5) == calls_through_a_module(0.5)
    assert np not in seen and seen[-1] is abs
    if not pyversion.NULL_AFTER_CALLABLE:   # 3.13+ loads the attribute, then PUSH_NULL:
        assert seen == [np.tanh, abs]       # such calls are not intercepted yet
