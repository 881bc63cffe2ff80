"""The public API: compile's forms, callable objects, bad input, backends, caching."""

import numpy as np
import pytest
from harness import rand

import dynamo


def f(x, y):
    """Adds and scales."""
    return (x + y) * 2


def test_compile_forms():
    x, y = rand(3), rand(3, seed=1)
    expected = f(x, y)
    assert np.array_equal(dynamo.compile(f)(x, y), expected)

    @dynamo.compile
    def g(x, y):
        return (x + y) * 2

    @dynamo.compile(backend="eager", fullgraph=True)
    def h(x, y):
        return (x + y) * 2

    assert np.array_equal(g(x, y), expected)
    assert np.array_equal(h(x, y), expected)


def test_wraps_metadata():
    c = dynamo.compile(f)
    assert c.__name__ == "f" and c.__doc__ == "Adds and scales." and c.__wrapped__ is f


class Model:
    """A model."""

    def __init__(self):
        self.w = rand(4, 3)
        self.calls = 0

    def __call__(self, x):
        return x @ self.w


class WithForward:
    def __init__(self):
        self.w = rand(4, 3)
        self.calls = 0

    def forward(self, x):
        return np.tanh(x @ self.w)

    def __call__(self, x):  # model(x) runs __call__, which does more than forward
        self.calls += 1
        return self.forward(x) * 2


def test_callable_object():
    m = Model()
    c = dynamo.compile(m)
    x = rand(2, 4)
    assert np.array_equal(c(x), m(x))
    assert c._orig_mod is m
    assert c.w is m.w                # attribute access goes to the original
    c.calls = 5
    assert m.calls == 5


def test_a_compiled_object_looks_like_the_object():
    import pickle
    m = Model()
    c = dynamo.compile(m)
    assert isinstance(c, Model) and c.__class__ is Model
    assert isinstance(c, dynamo.OptimizedModule)
    assert (type(c).__name__, type(c).__qualname__) == ("Model", Model.__qualname__)
    assert type(dynamo.compile(Model())) is type(c)          # one wrapper class per class
    back = pickle.loads(pickle.dumps(c))
    assert isinstance(back, Model) and np.array_equal(back(np.ones((2, 4))),
                                                      m(np.ones((2, 4))))


def test_calling_a_compiled_object_runs_its_call_as_calling_the_object_does():
    m = WithForward()
    x = rand(2, 4)
    c = dynamo.compile(m)
    assert np.array_equal(c(x), np.tanh(x @ m.w) * 2)
    assert m.calls == 1
    assert np.array_equal(c.forward(x), np.tanh(x @ m.w))   # forward: compiled too
    assert m.calls == 1


def test_bound_method():
    m = WithForward()
    x = rand(2, 4)
    assert np.array_equal(dynamo.compile(m.forward)(x), m.forward(x))


def test_a_call_reads_what_runs_from_a_slot():
    """A compiled function or bound method is called through a ``__call__`` slot (a
    member descriptor, which ``slot_tp_call`` reads in C), not a property that reads
    another attribute: what the slot holds is what runs, and it is the frame entry
    (the function's own code behind the cache's prologue), or the bound one."""
    import types

    m = WithForward()
    compiled, method = dynamo.compile(f), dynamo.compile(m.forward)
    for obj in (compiled, method):
        assert type(vars(type(obj))["__call__"]) is types.MemberDescriptorType
        assert obj.__call__ is obj._call
    assert type(compiled.__call__) is types.FunctionType
    assert compiled.__call__.__code__ is not f.__code__ and compiled.__call__.__wrapped__ is f
    assert type(method.__call__) is types.MethodType and method.__call__.__self__ is m
    assert method.__call__.__func__ is method.__func__.__call__
    x, y = rand(3), rand(3)
    assert np.array_equal(compiled(x, y), f(x, y)) and np.array_equal(compiled(x, y=y),
                                                                       f(x, y))
    x4 = rand(2, 4)
    assert np.array_equal(method(x4), m.forward(x4))


def test_decorated_method():
    class M:
        def __init__(self):
            self.k = 3.0

        @dynamo.compile
        def run(self, x):
            return x * self.k

    x = rand(3)
    assert np.array_equal(M().run(x), x * 3.0)


def test_not_callable():
    with pytest.raises(TypeError, match="expects a function or a callable object"):
        dynamo.compile(42)


def test_unknown_backend_lists_names():
    with pytest.raises(ValueError, match="unknown backend 'nope'.*eager"):
        dynamo.compile(f, backend="nope")


def test_backend_that_raises_says_so():
    def broken(graph, example_inputs):
        raise RuntimeError("kaboom")

    c = dynamo.compile(f, backend=broken)
    with pytest.raises(dynamo.BackendError, match="broken.*failed to compile.*kaboom"):
        c(rand(3), rand(3))


def test_custom_backend_sees_graph():
    seen = []

    @dynamo.register_backend(name="spy")
    def spy(graph, example_inputs):
        seen.append((str(graph), [a.shape for a in example_inputs]))
        from dynamo.backends.eager import eager
        return eager(graph, example_inputs)

    assert "spy" in dynamo.list_backends()
    x, y = rand(3), rand(3, seed=1)
    assert np.array_equal(dynamo.compile(f, backend="spy")(x, y), f(x, y))
    assert len(seen) == 1 and "ops.add(x, y)" in seen[0][0] and seen[0][1] == [(3,), (3,)]


def test_options_need_a_backend_that_takes_them():
    with pytest.raises(ValueError, match="takes no options"):
        dynamo.compile(f, backend=lambda g, i: None, options={"x": 1})


def test_second_call_does_not_trace(traces):
    c = dynamo.compile(f)
    x, y = rand(3), rand(3, seed=1)
    c(x, y)
    c(x, y)
    c(rand(3, seed=5), rand(3, seed=6))   # same shapes and dtypes: a cache hit
    assert len(traces) == 1


def test_shape_or_dtype_change_retraces(traces):
    c = dynamo.compile(f)
    c(rand(3), rand(3))
    c(rand(4), rand(4))
    c(rand(4).astype(np.float64), rand(4))
    c(rand(3), rand(3))                   # the first entry still serves
    assert len(traces) == 3


def test_model_weight_reassignment_retraces(traces):
    m = Model()
    c = dynamo.compile(m)
    x = rand(2, 4)
    c(x)
    m.w = rand(4, 5)                      # a differently shaped weight: new entry
    assert c(x).shape == (2, 5)
    assert len(traces) == 2


def test_reset_drops_entries(traces):
    c = dynamo.compile(f)
    c(rand(3), rand(3))
    dynamo.reset()
    c(rand(3), rand(3))
    assert len(traces) == 2


def test_explain_leaves_no_state(traces):
    x, y = rand(3), rand(3, seed=1)
    report = dynamo.explain(f)(x, y)
    assert report.graph_count == 1 and report.graph_break_count == 0
    assert np.array_equal(report.result, f(x, y))
    c = dynamo.compile(f)
    c(x, y)
    assert len(traces) == 2               # explain's entry was not reused


def test_numpy_in_numpy_out_scalars():
    def g(x):
        return x.sum(), x.shape[0], x.mean(axis=0)

    s, n, m = dynamo.compile(g)(rand(3, 2))
    assert type(s) is np.float32 and n == 3 and type(m) is np.ndarray


def test_config_documented():
    text = dynamo.config.describe()
    assert "cache_size_limit = 8" in text and "max_unroll" in text


def test_compiled_function_called_from_compiled_code():
    inner = dynamo.compile(lambda x: x * 2)

    def outer(x):
        return inner(x) + 1

    x = rand(3)
    report = dynamo.explain(outer)(x)
    assert report.graph_count == 1 and report.graph_break_count == 0   # inlined
    assert np.array_equal(dynamo.compile(outer)(x), x * 2 + 1)


def test_compiled_function_called_at_a_graph_break():
    inner = dynamo.compile(lambda x: x * 2)

    def outer(x):
        y = x + 1
        print("between")
        return inner(y)

    x = rand(3)
    assert np.array_equal(dynamo.compile(outer)(x), (x + 1) * 2)


def test_identity_of_two_inputs_is_guarded():
    def f(x, y):
        if x is y:
            return x * 2
        return x + y

    c = dynamo.compile(f)
    x, y = rand(3), rand(3, seed=1)
    assert np.array_equal(c(x, y), x + y)
    assert np.array_equal(c(x, x), x * 2)     # must not reuse the entry for distinct x, y
    assert np.array_equal(c(x, y), x + y)


def test_one_array_passed_twice_is_one_value():
    def f(x, y):
        x += 1
        return y * 1      # y is x: sees the write

    a = rand(3)
    b = a.copy()
    out = dynamo.compile(f)(b, b)
    assert np.array_equal(out, a + 1) and np.array_equal(b, a + 1)


def test_a_compiled_method_keeps_the_function_attributes_on_its_bound_method():
    import unittest

    class T(unittest.TestCase):
        @unittest.expectedFailure
        def test_fails(self):
            self.assertEqual(1, 2)

    T.test_fails = dynamo.compile(T.test_fails)
    assert T("test_fails").test_fails.__unittest_expecting_failure__ is True
    result = unittest.TestResult()
    T("test_fails").run(result)
    assert (len(result.expectedFailures), result.failures) == (1, [])
