"""API misuse: wrong arity, unexpected or duplicate keywords, positional-only and
keyword-only parameters, parameter names that clash with generated code; objects with
both ``forward`` and ``__call__`` (``model(x)`` runs ``__call__``), callable objects,
bound methods, class and static methods, partials, lambdas, closures, recursion through
the compiled name, a compiled function used as a method, decorated functions, and what
the compiled object looks like (``__name__``, ``__doc__``, ``inspect.signature``)."""

import functools
import inspect

import numpy as np
from hostile_check import Args, Programs

reg = Programs("api")
case, scenario = reg.case, reg.scenario

X = np.linspace(-1, 1, 4)


def two(x, y):
    """Adds."""
    return x + y


def _calls(r, f, *arg_sets):
    for a in arg_sets:
        if isinstance(a, Args):
            r.call(f, *a.args, **a.kwargs)
        else:
            r.call(f, *a)


@scenario
def s_too_few_arguments(r):
    _calls(r, r.compile(two), (X,), (X, X), (X,), ())


@scenario
def s_too_many_arguments(r):
    _calls(r, r.compile(two), (X, X, X), (X, X), (X, X, X, X))


@scenario
def s_unexpected_keyword(r):
    _calls(r, r.compile(two), Args(X, X, z=1), Args(X, y=X), Args(X, X, x=1), Args(y=X, x=X))


@scenario
def s_duplicate_keyword(r):
    _calls(r, r.compile(two), Args(X, x=X), Args(X, X))


def posonly(x, /, k=2.0, *, scale=1.0):
    return x * k * scale


@scenario
def s_positional_only_as_keyword(r):
    _calls(r, r.compile(posonly), Args(x=X), Args(X), Args(X, 3.0, scale=2.0),
           Args(X, 3.0, 4.0), Args(X, k=5.0))


def kwonly(x, *, scale):
    return x * scale


@scenario
def s_keyword_only_missing(r):
    _calls(r, r.compile(kwonly), Args(X), Args(X, scale=2.0), Args(X, 2.0))


def varargs(*xs, **opts):
    out = sum(xs) if xs else 0
    for k, v in sorted(opts.items()):
        out = out * v
    return out, len(xs), sorted(opts)


@scenario
def s_varargs_and_kwargs_shapes(r):
    _calls(r, r.compile(varargs), Args(X), Args(X, X), Args(), Args(X, a=2.0),
           Args(X, a=2.0, b=3.0), Args(b=3.0, a=2.0), Args(*[X, X, X]), Args(**{"x": 1.0}))


def kw_collision(x, **kw):
    return x, kw


@scenario
def s_kwargs_named_like_param(r):
    _calls(r, r.compile(kw_collision), Args(X, y=1), Args(x=X, kw=1), Args(X, **{"x": 1}))


def weird_names(___fn, ___closure, self, fn, args, kwargs, len=len, type=type):
    return ___fn * ___closure + self + fn + args + kwargs + len([1]) + (type is None)


@scenario
def s_parameter_names_like_generated_code(r):
    f = r.compile(weird_names)
    r.call(f, X, 2.0, 1.0, 1.0, 1.0, 1.0)
    r.call(f, X, 2.0, 1.0, 1.0, 1.0, 1.0, len=lambda v: 100, type=None)
    r.call(f, ___fn=X, ___closure=1.0, self=0.0, fn=0.0, args=0.0, kwargs=0.0)


def dispatch_names(x, ___dispatch=1, ___ok=2, ___cache=3, ___ctx=4, ___fallback=5,
                   ___e0_run=6, ___G=7):
    return x * (___dispatch + ___ok + ___cache + ___ctx + ___fallback + ___e0_run + ___G)


@scenario
def s_parameter_names_like_dispatcher_locals(r):
    f = r.compile(dispatch_names)
    r.call(f, X)
    r.call(f, X, ___ok=-2)


def many_args(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16,
              a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, *rest):
    return a0 + a29 + sum(rest)


@scenario
def s_many_arguments(r):
    f = r.compile(many_args)
    r.call(f, *([X] * 30))
    r.call(f, *([X] * 34))
    r.call(f, *([X] * 29))


class Model:
    """A model whose __call__ adds work around forward."""

    def __init__(self):
        self.w = np.eye(4) * 2
        self.calls = []

    def forward(self, x):
        self.calls.append("forward")
        return x @ self.w

    def __call__(self, x):
        self.calls.append("__call__")
        return self.forward(x) + 1


@scenario
def s_model_call_runs_dunder_call(r):
    m = Model()
    f = r.compile(m)
    r.call(f, X)
    r.call(f, X)
    r.see("calls", m.calls)


@scenario
def s_model_forward_attribute(r):
    m = Model()
    f = r.compile(m)
    r.call(f.forward, X)
    r.call(f.forward, X)
    r.see("calls", m.calls)
    r.see("w via wrapper", f.w)


@scenario
def s_model_attribute_set_through_wrapper(r):
    m = Model()
    f = r.compile(m)
    r.call(f, X)
    f.w = np.eye(4) * -1
    r.call(f, X)
    r.see("model w", m.w)


@scenario
def s_model_wrong_arity(r):
    m = Model()
    f = r.compile(m)
    r.call(f)
    r.call(f, X, X)
    r.call(f, x=X)
    r.call(f, y=X)


class ForwardOnlyCall:
    def forward(self, x):
        return x * 3

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


@scenario
def s_call_with_star_args_to_forward(r):
    f = r.compile(ForwardOnlyCall())
    r.call(f, X)
    r.call(f, x=X)
    r.call(f, X, X)


class Sub(Model):
    def __call__(self, x):
        self.calls.append("Sub.__call__")
        return super().__call__(x) * 2


@scenario
def s_subclass_call_with_super(r):
    m = Sub()
    f = r.compile(m)
    r.call(f, X)
    r.call(f, X)
    r.see("calls", m.calls)


class StaticCall:
    __call__ = staticmethod(lambda x: x * 5)


@scenario
def s_callable_with_static_call(r):
    f = r.compile(StaticCall())
    r.call(f, X)


class PartialCall:
    def _impl(self, x, k):
        return x * k
    __call__ = functools.partialmethod(_impl, k=3.0)


@scenario
def s_callable_with_partialmethod_call(r):
    f = r.compile(PartialCall())
    r.call(f, X)


@scenario
def s_compile_partial(r):
    f = r.compile(functools.partial(two, y=np.ones(4)))
    r.call(f, X)
    r.call(f, X, y=X)


@scenario
def s_compile_ufunc(r):
    f = r.compile(np.tanh)
    r.call(f, X)


@scenario
def s_compile_builtin(r):
    f = r.compile(len)
    r.call(f, X)


@scenario
def s_compile_class(r):
    class Point:
        def __init__(self, x):
            self.x = x * 2
    f = r.compile(Point)
    r.call(f, X)


@scenario
def s_compile_lambda(r):
    f = r.compile(lambda x, k=2: x * k)
    r.call(f, X)
    r.call(f, X, 3)
    r.call(f, X, k=X)


@scenario
def s_compile_closure(r):
    scale = 3.0

    def inner(x):
        return x * scale
    f = r.compile(inner)
    r.call(f, X)
    scale = -1.0  # noqa: F841 (read through the cell)
    r.call(f, X)


class Layer:
    def __init__(self, k):
        self.k = k

    def apply(self, x):
        return x * self.k

    @classmethod
    def make(cls, x):
        return cls.__name__, x + 1

    @staticmethod
    def static(x):
        return x - 1

    @property
    def double(self):
        return self.k * 2


@scenario
def s_bound_method(r):
    a, b = Layer(2.0), Layer(3.0)
    fa = r.compile(a.apply)
    fb = r.compile(b.apply)
    r.call(fa, X)
    r.call(fb, X)
    a.k = 10.0
    r.call(fa, X)


@scenario
def s_classmethod_and_staticmethod(r):
    r.call(r.compile(Layer.make), X)
    r.call(r.compile(Layer.static), X)
    r.call(r.compile(Layer(1.0).make), X)


@scenario
def s_unbound_function_from_class(r):
    f = r.compile(Layer.apply)
    r.call(f, Layer(4.0), X)
    r.call(f, X)


@scenario
def s_compiled_function_as_method(r):
    def apply(self, x):
        return x * self.k
    compiled = r.compile(apply)

    class K:
        k = 3.0
        method = compiled
    r.call(K().method, X)
    r.call(K.method, K(), X)
    r.call(compiled, K(), X)


@scenario
def s_compiled_function_as_staticmethod(r):
    compiled = r.compile(two)

    class K:
        add = staticmethod(compiled)
    r.call(K().add, X, X)
    r.call(K.add, X, 1.0)


FIB = INNER = None      # set by the scenarios (compiled or plain)


def fib(n, x):
    if n <= 1:
        return x
    return FIB(n - 1, x) + FIB(n - 2, x)


@scenario
def s_recursion_through_compiled_name(r):
    f = r.compile(fib)
    r.patch(globals(), "FIB", f)
    r.call(f, 5, X)
    r.call(f, 6, X)


def outer(x):
    return INNER(x) * 2


def inner(x):
    print("inner runs")
    return x + 1


@scenario
def s_compiled_calls_compiled(r):
    r.patch(globals(), "INNER", r.compile(inner))
    f = r.compile(outer)
    r.call(f, X)
    r.call(f, X)


def decorated(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        print("before", fn.__name__)
        return fn(*args, **kwargs)
    return wrapper


@decorated
def deco_target(x, k=1.0):
    """Doc of the target."""
    return x * k


@scenario
def s_compile_decorated_function(r):
    f = r.compile(deco_target)
    r.call(f, X)
    r.call(f, X, k=3.0)
    r.call(f, X, 1, 2)


@scenario
def s_metadata_preserved(r):
    f = r.compile(two)
    r.see("name", f.__name__)
    r.see("qualname", f.__qualname__)
    r.see("doc", f.__doc__)
    r.see("module", f.__module__)
    r.see("signature", str(inspect.signature(f)))
    r.see("defaults", getattr(f, "__defaults__", "missing"))
    r.see("callable", callable(f))


@scenario
def s_model_metadata(r):
    m = Model()
    f = r.compile(m)
    r.see("doc", f.__doc__)
    r.see("signature", str(inspect.signature(f)))
    r.see("w", f.w)
    r.see("has forward", hasattr(f, "forward"))


@scenario
def s_isinstance_of_compiled_model(r):
    m = Model()
    f = r.compile(m)
    r.see("isinstance", isinstance(f, Model))
    r.see("type name", type(f).__name__ == "Model")


def gen_fn(x):
    for i in range(3):
        yield x * i


@scenario
def s_compile_generator_function(r):
    f = r.compile(gen_fn)
    g = r.call(f, X)
    if g is not None:
        r.see("items", list(g))
    g2 = r.call(f, X)
    if g2 is not None:
        r.see("first", next(g2))


@scenario
def s_compile_coroutine_function(r):
    async def co(x):
        return x * 2
    f = r.compile(co)
    c = r.call(f, X)
    try:
        c.send(None)
    except StopIteration as e:
        r.see("value", e.value)


@scenario
def s_positional_then_keyword_same_function(r):
    f = r.compile(posonly)
    r.call(f, X, 2.0)
    r.call(f, X, k=2.0)
    r.call(f, X, scale=2.0)
    r.call(f, X, 2.0, scale=2.0)


@scenario
def s_default_array_mutated_between_calls(r):
    w = np.ones(4)

    def f(x, w=w):
        return x * w
    cf = r.compile(f)
    r.call(cf, X)
    w[:] = 5.0
    r.call(cf, X)
    r.call(cf, X, np.zeros(4))


@scenario
def s_call_with_generator_argument(r):
    f = r.compile(varargs)
    r.call(f, *(X * i for i in range(3)))
    r.call(f, *iter([X]))


@scenario
def s_call_with_dict_subclass_kwargs(r):
    class D(dict):
        pass
    f = r.compile(varargs)
    r.call(f, X, **D(a=2.0))


def annotated(x: np.ndarray, k: "float" = 2.0) -> np.ndarray:
    return x * k


@scenario
def s_annotations(r):
    f = r.compile(annotated)
    r.call(f, X)
    r.see("annotations", sorted(getattr(f, "__annotations__", {})))


@scenario
def s_compile_same_function_twice_different_backends(r):
    f1 = r.compile(two)
    f2 = r.compile(two)
    r.call(f1, X, 1.0)
    r.call(f2, X, 1.0)
    r.call(f1, X, X)


@scenario
def s_method_called_with_wrong_self(r):
    f = r.compile(Layer.apply)
    r.call(f, object(), X)
    r.call(f, Layer(2.0), X)


@scenario
def s_nested_compile_of_inner_function(r):
    def outer_fn(x):
        g = r.compile(lambda v: v * 2)
        return g(x) + 1
    f = r.compile(outer_fn)
    r.call(f, X)
    r.call(f, X)


@scenario
def s_call_compiled_object_with_keyword_self(r):
    f = r.compile(Layer(2.0).apply)
    r.call(f, x=X)
    r.call(f, self=None, x=X)


def returns_none(x):
    x += 1


@scenario
def s_returns_none_and_mutates(r):
    f = r.compile(returns_none)
    x = X.copy()
    r.call(f, x)
    r.call(f, x)
    r.see("x", x)


def returns_function(x):
    def g(y):
        return y * x
    return g


@scenario
def s_returns_closure_over_array(r):
    f = r.compile(returns_function)
    x = X.copy()
    g = r.call(f, x)
    x[0] = 100.0
    if g is not None:
        r.see("g(1)", g(1.0))


def returns_lambda_list(x):
    return [lambda i=i: x * i for i in range(3)]


@scenario
def s_returns_lambdas(r):
    f = r.compile(returns_lambda_list)
    fs = r.call(f, X)
    if fs is not None:
        r.see("values", [g() for g in fs])
