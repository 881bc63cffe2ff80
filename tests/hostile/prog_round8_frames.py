"""Round 8, frame entries (``dynamo/hook.py`` ``frame_entry``: ``dynamo.compile(fn)``
runs ``fn``'s own code behind a prologue): recursion through the compiled function,
one function compiled twice (and alternated), ``fn.__code__`` / ``__defaults__``
replaced after compiling, ``functools.wraps`` either side, methods, classmethods and
staticmethods, closures whose cells change, ``*args`` / ``**kwargs``, keyword-only
defaults, names that collide with dynamo's hidden ones, exceptions with their
tracebacks (``traceback.extract_tb``), ``inspect.signature``, frame introspection,
``sys.setrecursionlimit``."""

import functools
import inspect
import sys
import traceback

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round8_frames")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.5, 0.25])
M = np.array([[2.0, 1.0], [1.0, 3.0]])
SING = np.array([[1.0, 2.0], [2.0, 4.0]])


def _tb_summary(e):
    """The traceback's frames that belong to this file: (function, line text)."""
    return [(fr.name, fr.line) for fr in traceback.extract_tb(e.__traceback__)
            if fr.filename == __file__]


# ============================================================ recursion

def _rec_sum(x, n):
    if n == 0:
        return x
    return _REC["f"](x * 0.5, n - 1) + x


_REC = {"f": _rec_sum}


@scenario
def s_recursion_through_compiled(r):
    f = r.compile(_rec_sum)
    r.patch(_REC, "f", f)
    r.call(f, X, 5)
    r.call(f, X, 0)
    r.call(f, X, 12)
    r.call(f, X.astype(np.float32), 3)


def _rec_fib(n):
    return n if n < 2 else _REC2["f"](n - 1) + _REC2["f"](n - 2)


_REC2 = {"f": _rec_fib}


@scenario
def s_recursion_python_ints(r):
    f = r.compile(_rec_fib)
    r.patch(_REC2, "f", f)
    for n in (0, 1, 10, 15):
        r.call(f, n)


def _rec_depth(x, n):
    if n == 0:
        return x, len(traceback.extract_stack()) > 0
    y, ok = _REC3["f"](x + 1.0, n - 1)
    return y, ok


_REC3 = {"f": _rec_depth}


@scenario
def s_recursion_under_low_limit(r):
    f = r.compile(_rec_depth)
    r.patch(_REC3, "f", f)
    old = sys.getrecursionlimit()
    here = len(inspect.stack(0))
    sys.setrecursionlimit(here + 400)
    try:
        r.call(f, X, 40)
        r.call(f, X, 60)
    finally:
        sys.setrecursionlimit(old)


def _rec_until_error(x, n):
    try:
        return _REC4["f"](x, n + 1)
    except RecursionError:
        return x + n * 0.0, "hit"


_REC4 = {"f": _rec_until_error}


@scenario
def s_recursion_error_caught(r):
    # where the limit is hit differs by frames; the answer must still be a result
    f = r.compile(_rec_until_error)
    r.patch(_REC4, "f", f)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 150)
    try:
        out = f(X, 0)
    finally:
        sys.setrecursionlimit(old)
    r.see("kind", (type(out[0]).__name__, out[0].shape, out[1]))


def _mutual_a(x, n):
    return x if n <= 0 else _MUT["b"](x * 2.0, n - 1)


def _mutual_b(x, n):
    return x if n <= 0 else _MUT["a"](x - 1.0, n - 1)


_MUT = {"a": _mutual_a, "b": _mutual_b}


@scenario
def s_mutual_recursion_one_compiled(r):
    fa = r.compile(_mutual_a)
    r.patch(_MUT, "a", fa)
    r.call(fa, X, 7)
    r.call(fa, X, 8)
    r.call(_MUT["b"], X, 9)


# ============================================================ compiled twice

def _affine(x, a):
    return x * a + 1.0


@scenario
def s_compiled_twice_alternated(r):
    f1 = r.compile(_affine)
    f2 = r.compile(_affine)
    for a in (2.0, 3.0, 2.0):
        r.call(f1, X, a)
        r.call(f2, X.astype(np.float32), a)


@scenario
def s_compiled_with_two_backends(r):
    f1 = r.compile(_affine)
    f2 = r.compile(_affine) if not r.compiled else __import__("dynamo").compile(
        _affine, backend="eager")
    for _ in range(2):
        r.call(f1, X, 0.5)
        r.call(f2, X, 0.5)


@scenario
def s_compiled_twice_fullgraph(r):
    f1 = r.compile(_affine)
    f2 = r.compile(_affine, fullgraph=True)
    r.call(f2, X, 1.5)
    r.call(f1, X, 1.5)
    r.call(f2, M, 1.5)


def _printer(x):
    print("called with", x.shape)
    return x.sum()


@scenario
def s_compiled_twice_prints(r):
    f1 = r.compile(_printer)
    f2 = r.compile(_printer)
    r.call(f1, X)
    r.call(f2, X)
    r.call(f1, M)


# ============================================================ code and defaults replaced

def _code_a(x):
    return x + 1.0


def _code_b(x):
    return x * 100.0


@scenario
def s_code_replaced_after_compile(r):
    fn = _copy_function(_code_a)
    f = r.compile(fn)
    r.call(f, X)
    r.call(f, X)
    fn.__code__ = _code_b.__code__
    r.call(f, X)
    r.call(fn, X)


def _copy_function(fn):
    import types
    g = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                           fn.__closure__)
    g.__kwdefaults__ = fn.__kwdefaults__
    g.__qualname__ = fn.__qualname__
    return g


def _with_default(x, k=2.0):
    return x * k


@scenario
def s_defaults_replaced_after_compile(r):
    fn = _copy_function(_with_default)
    f = r.compile(fn)
    r.call(f, X)
    fn.__defaults__ = (5.0,)
    r.call(f, X)
    r.call(f, X, 1.0)


def _kwonly_default(x, *, scale=2.0, shift=0.0):
    return x * scale + shift


@scenario
def s_kwdefaults_replaced_after_compile(r):
    fn = _copy_function(_kwonly_default)
    f = r.compile(fn)
    r.call(f, X)
    r.call(f, X, shift=1.0)
    fn.__kwdefaults__ = {"scale": -1.0, "shift": 0.5}
    r.call(f, X)
    r.call(f, X, scale=3.0)


@scenario
def s_kwonly_missing_and_extra(r):
    f = r.compile(_kwonly_default)
    r.call(f, X, scale=2.0)
    r.call(f, X, 3.0)
    r.call(f, X, bogus=1)
    r.call(f, x=X, scale=0.5)


def _kwonly_required(x, *, k):
    return x * k


case(_kwonly_required, Args(X, k=2.0), Args(X), Args(X, k=np.float32(2.0)), Args(X, 3.0))


def _hidden_name_collision(x, **kw):
    return x * len(kw), sorted(kw)


case(_hidden_name_collision, Args(X, a=1), Args(X, ___entry=1), Args(X, ___entry_0=2, b=3))


def _entry_named_parameter(x, ___entry=None):
    return x, ___entry


case(_entry_named_parameter, (X,), (X, 5), Args(X, ___entry=7))


def _varargs(*args, **kwargs):
    return sum(a.sum() for a in args), sorted(kwargs.items())


case(_varargs, (), (X,), (X, M), Args(X, flag=True, n=3), Args(*[X] * 6, z=None))


def _varargs_mutated(*args):
    args = args + (np.zeros(2),)
    return len(args), args[0] * 2


case(_varargs_mutated, (X,), (X, X))


def _kwargs_mutated(x, **kw):
    kw["seen"] = True
    return x * kw.get("k", 1.0), kw


case(_kwargs_mutated, Args(X), Args(X, k=3.0))


def _positional_only(x, /, k=1.0):
    return x * k


case(_positional_only, (X,), (X, 2.0), Args(X, k=3.0), Args(x=X))


def _wrong_arity(x, y):
    return x + y


case(_wrong_arity, (X, X), (X,), (X, X, X), Args(X, z=X))


# ============================================================ wraps, methods, closures

def _logged(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        print("->", fn.__name__)
        return fn(*a, **k)
    return wrapper


def _base(x, k=2.0):
    """Doubles."""
    return x * k


@scenario
def s_compile_wrapped_function(r):
    w = _logged(_base)
    f = r.compile(w)
    r.call(f, X)
    r.call(f, X, k=0.5)
    r.see("meta", (f.__name__, f.__doc__, inspect.unwrap(f) is _base))
    r.see("signature", str(inspect.signature(f)))


@scenario
def s_wrap_compiled_function(r):
    f = r.compile(_base)
    w = _logged(f)
    r.call(w, X)
    r.call(w, M, 3.0)
    r.see("meta", (w.__name__, w.__doc__, w.__qualname__))


@scenario
def s_signature_of_compiled(r):
    for fn in (_base, _kwonly_default, _varargs, _positional_only, _kwonly_required):
        f = r.compile(fn)
        r.see(fn.__name__, (str(inspect.signature(f)), f.__name__, f.__qualname__,
                            f.__doc__, f.__module__))
        try:
            bound = sorted(inspect.signature(f).bind(X).arguments)
        except TypeError as e:
            bound = str(e)
        r.see(fn.__name__ + " bound", bound)


class Scaler:
    factor = 3.0

    def __init__(self, k):
        self.k = k

    def apply(self, x):
        return x * self.k + self.factor

    @classmethod
    def make(cls, x):
        return x * cls.factor

    @staticmethod
    def pure(x):
        return x - 1.0


def _tagged(x):
    return x * 2.0


_tagged.tag = "registered"


@scenario
def s_function_attributes_of_compiled(r):
    # a decorator registry reads attributes set on the function
    f = r.compile(_tagged)
    r.call(f, X)
    r.see("tag", getattr(f, "tag", "missing"))
    r.see("public attributes", sorted(k for k in getattr(f, "__dict__", {})
                                      if not k.startswith("_")))


@scenario
def s_bound_method(r):
    o = Scaler(2.0)
    f = r.compile(o.apply)
    r.call(f, X)
    o.k = 5.0
    r.call(f, X)
    r.see("self", o.k)


@scenario
def s_unbound_method_with_self(r):
    f = r.compile(Scaler.apply)
    r.call(f, Scaler(1.5), X)
    r.call(f, Scaler(-1.0), X)


@scenario
def s_classmethod_compiled(r):
    f = r.compile(Scaler.make)
    r.call(f, X)

    class Sub(Scaler):
        factor = 10.0

    g = r.compile(Sub.make)
    r.call(g, X)
    r.call(f, X)


@scenario
def s_staticmethod_compiled(r):
    f = r.compile(Scaler.pure)
    r.call(f, X)
    r.call(f, M)


def _as_method(self, x):
    return x * self.k


@scenario
def s_compiled_function_as_class_attribute(r):
    # a plain function binds self when stored on a class; the compiled one must too
    f = r.compile(_as_method)

    class Holder:
        k = 4.0
        m = f

    h = Holder()
    r.call(lambda x: h.m(x), X)
    r.call(lambda x: Holder.m(h, x), X)


@scenario
def s_compiled_in_staticmethod(r):
    f = r.compile(_affine)

    class Holder:
        g = staticmethod(f)

    r.call(Holder.g, X, 2.0)
    r.call(Holder().g, X, 3.0)


def _make_counter(step):
    total = [0.0]

    def add(x):
        total[0] += step
        return x + total[0]
    return add


@scenario
def s_closure_list_cell(r):
    f = r.compile(_make_counter(0.5))
    for _ in range(4):
        r.call(f, X)


def _make_rebinding():
    k = 1.0

    def use(x):
        return x * k

    def set_k(v):
        nonlocal k
        k = v
    return use, set_k


@scenario
def s_closure_cell_rebound(r):
    use, set_k = _make_rebinding()
    f = r.compile(use)
    r.call(f, X)
    set_k(4.0)
    r.call(f, X)
    set_k(np.float32(0.5))
    r.call(f, X)
    set_k(np.array([1.0, 0.0, 1.0, 0.0]))
    r.call(f, X)


def _make_nonlocal_writer():
    n = 0

    def bump(x):
        nonlocal n
        n += 1
        return x * n

    def read():
        return n
    return bump, read


@scenario
def s_closure_nonlocal_write(r):
    bump, read = _make_nonlocal_writer()
    f = r.compile(bump)
    for _ in range(3):
        r.call(f, X)
        r.see("cell", read())


@scenario
def s_closure_cell_deleted(r):
    def outer():
        v = 2.0

        def use(x):
            return x * v

        def kill():
            nonlocal v
            del v
        return use, kill

    use, kill = outer()
    f = r.compile(use)
    r.call(f, X)
    kill()
    r.call(f, X)


@scenario
def s_lambda_compiled(r):
    f = r.compile(lambda x, k=2: x ** k)
    r.call(f, X)
    r.call(f, X, 3)
    r.see("name", f.__name__)


@scenario
def s_partial_compiled(r):
    f = r.compile(functools.partial(_affine, a=3.0))
    r.call(f, X)
    r.call(f, X, a=1.0)
    r.call(f, M)


# ============================================================ exceptions and tracebacks

def _raises_value_error(x):
    y = x * 2.0
    if x.shape[0] > 3:
        raise ValueError("too long")
    return y


@scenario
def s_traceback_of_raise(r):
    f = r.compile(_raises_value_error)

    def catch(x):
        try:
            return f(x)
        except ValueError as e:
            return "caught", str(e), _tb_summary(e)
    r.call(catch, X)
    r.call(catch, X[:2])
    r.call(catch, X)


def _raises_in_graph(a):
    b = a * 2.0
    return np.linalg.inv(b)


@scenario
def s_traceback_of_graph_op(r):
    f = r.compile(_raises_in_graph)

    def catch(a):
        try:
            return f(a)
        except np.linalg.LinAlgError as e:
            return "caught", str(e), _tb_summary(e)
    r.call(catch, M)
    r.call(catch, SING)
    r.call(catch, SING)


def _raises_index_error(x, i):
    return x[i] * 2.0


@scenario
def s_traceback_of_index_error(r):
    f = r.compile(_raises_index_error)

    def catch(x, i):
        try:
            return f(x, i)
        except IndexError as e:
            return "caught", str(e), _tb_summary(e), e.__traceback__.tb_next is not None
    r.call(catch, X, 1)
    r.call(catch, X, 9)
    r.call(catch, X, -5)


def _helper_raises(x):
    raise KeyError(x.shape)


def _calls_helper(x):
    y = x + 1.0
    return _helper_raises(y)


@scenario
def s_traceback_through_helper(r):
    f = r.compile(_calls_helper)

    def catch(x):
        try:
            return f(x)
        except KeyError as e:
            return "caught", e.args, _tb_summary(e)
    r.call(catch, X)
    r.call(catch, M)


def _reraise_chain(x):
    try:
        return x[10]
    except IndexError as e:
        raise RuntimeError("wrapped") from e


@scenario
def s_exception_chain_from(r):
    f = r.compile(_reraise_chain)

    def catch(x):
        try:
            return f(x)
        except RuntimeError as e:
            return (str(e), type(e.__cause__).__name__, str(e.__cause__),
                    _tb_summary(e), _tb_summary(e.__cause__))
    r.call(catch, X)
    r.call(catch, np.arange(20.0))


def _frame_name_and_locals(x):
    fr = sys._getframe()
    y = x * 2.0
    return fr.f_code.co_name, sorted(k for k in fr.f_locals if not k.startswith("_")), y


case(_frame_name_and_locals, (X,), (M,))


def _caller_name(x):
    return sys._getframe(1).f_code.co_name, x + 1.0


@scenario
def s_caller_frame_of_compiled(r):
    f = r.compile(_caller_name)

    def my_caller(x):
        return f(x)
    r.call(my_caller, X)
    r.call(my_caller, X)


def _code_name_seen(x):
    return inspect.currentframe().f_code.co_qualname, x.sum()


case(_code_name_seen, (X,))


def _locals_snapshot(x, k=3):
    y = x * k
    return sorted(locals()), y


case(_locals_snapshot, (X,), (X, 5))


def _raise_then_recover(x, log):
    try:
        np.linalg.inv(x)
    except np.linalg.LinAlgError:
        log.append("singular")
        x = x + np.eye(2)
    return np.linalg.inv(x)


case(_raise_then_recover, (M, []), (SING, []))


# ============================================================ the compiled object

def _plain_target(x, k):
    return x * k


@scenario
def s_attribute_set_after_compile(r):
    # setting an attribute on the function (a registry's mark) after compiling
    fn = _copy_function(_plain_target)
    f = r.compile(fn)
    r.call(f, X, 2.0)
    fn.tag = "late"
    r.see("tag through the compiled", getattr(f, "tag", "missing"))
    f.other = 5
    r.see("set on the compiled, read on the function", getattr(fn, "other", "missing"))


@scenario
def s_signature_not_following_wrapped(r):
    f = r.compile(_plain_target)
    try:
        sig = str(inspect.signature(f, follow_wrapped=False))
    except (ValueError, TypeError) as e:
        sig = type(e).__name__
    r.see("signature", sig)
    r.call(f, X, 3.0)


def _counts_itself(x):
    me = _COUNTED["f"]
    me.calls += 1
    return x * me.calls


_COUNTED: dict = {}


@scenario
def s_function_counts_its_calls(r):
    f = r.compile(_counts_itself)
    r.patch(_COUNTED, "f", f)
    f.calls = 0
    for _ in range(4):
        r.call(f, X)
    r.see("calls", f.calls)


def _returns_compiled_function(x):
    fs = [_COUNTED["f"]]
    _HELD.append(fs)
    _HELD.append(_COUNTED["f"])
    return fs[0] is _COUNTED["f"], len(fs), x * 2.0


_HELD: list = []


@scenario
def s_compiled_function_returned(r):
    # the objects the program stores are the compiled function itself
    _HELD.clear()
    f = r.compile(_plain_target)
    r.patch(_COUNTED, "f", f)
    g = r.compile(_returns_compiled_function)
    for _ in range(3):
        r.call(g, X)
    r.see("held the compiled", [h is f or h == [f] for h in _HELD])
    _HELD.clear()


def _calls_compiled_then_breaks(x):
    me = _COUNTED["f"]
    y = me(x, 2.0)
    print("between")
    return me(y, 3.0), me is _COUNTED["f"], me.__name__


@scenario
def s_compiled_function_across_a_break(r):
    f = r.compile(_plain_target)
    r.patch(_COUNTED, "f", f)
    g = r.compile(_calls_compiled_then_breaks)
    for _ in range(3):
        r.call(g, X)


def _code_varargs(x, *rest):
    return x - len(rest)


@scenario
def s_code_replaced_by_other_shapes(r):
    fn = _copy_function(_code_a)
    f = r.compile(fn)
    r.call(f, X)
    fn.__code__ = _code_varargs.__code__
    r.call(f, X)
    r.call(f, X, 1, 2)
    fn.__code__ = _code_a.__code__
    r.call(f, X)


# The same cause (fn.__code__ replaced by code with other parameters): the compiled
# object takes the new code's parameters from the first call its frame entry sees
# the replacement on, and at once where the code is set through the compiled object.

def _code_two(x, y):
    return x * y


def _code_none():
    return 7.0


def _code_keyword(x, *, k):
    return x - k


@scenario
def s_code_replaced_by_more_parameters(r):
    fn = _copy_function(_code_a)
    f = r.compile(fn)
    r.call(f, X)
    fn.__code__ = _code_two.__code__
    r.call(f, X)          # TypeError: missing 'y' (the new code's)
    r.call(f, X, X)
    r.call(f, X, y=2.0)


@scenario
def s_code_replaced_by_no_parameters(r):
    fn = _copy_function(_code_a)
    f = r.compile(fn)
    r.call(f, X)
    fn.__code__ = _code_none.__code__
    r.call(f, X)          # TypeError: takes 0 positional arguments
    r.call(f)
    r.call(f)


@scenario
def s_code_replaced_through_the_compiled_object(r):
    fn = _copy_function(_code_a)
    f = r.compile(fn)
    r.call(f, X)
    f.__code__ = _code_varargs.__code__
    r.call(f, X, 1, 2)    # the first call already binds by the new code
    r.call(f, X)
    f.__code__ = _code_keyword.__code__
    r.call(f, X, k=3.0)
    r.call(f, X, 3.0)     # TypeError: k is keyword-only


@scenario
def s_code_replaced_back_and_forth(r):
    fn = _copy_function(_code_a)
    f = r.compile(fn)
    for _ in range(3):
        r.call(f, X)
        fn.__code__ = _code_varargs.__code__
        r.call(f, X)
        r.call(f, X, 5)
        fn.__code__ = _code_a.__code__
        r.call(f, X)
        r.call(f, X, 5)   # TypeError again: the old code's parameters


@scenario
def s_code_replaced_then_keyword_call(r):
    fn = _copy_function(_code_a)
    f = r.compile(fn)
    r.call(f, x=X)
    fn.__code__ = _code_keyword.__code__
    r.call(f, x=X)        # TypeError: missing keyword-only 'k'
    r.call(f, x=X, k=1.5)
    r.call(f, X, k=0.5)


def _code_default(x, s=1.0):
    return x + s


@scenario
def s_code_replaced_on_a_function_with_defaults(r):
    """A function with defaults is called through intercept's wrapper, not a frame
    entry: it takes the new code's parameters the same way."""
    fn = _copy_function(_code_default)
    f = r.compile(fn)
    r.call(f, X)
    fn.__code__ = _code_varargs.__code__
    r.call(f, X)          # (x, *rest): s's default is no longer a parameter's
    r.call(f, X, 1, 2)
    r.call(f, X, 1, 2, 3)
    fn.__code__ = _code_default.__code__
    r.call(f, X, 2.0)
    r.call(f, X, 1, 2)    # TypeError: the old parameters again


@scenario
def s_code_replaced_first_call_new_shape(r):
    """Still different: the first call after the replacement binds by the parameters
    the compiled object's entry was made for (docs/python_semantics.md)."""
    fn = _copy_function(_code_a)
    f = r.compile(fn)
    r.call(f, X)
    fn.__code__ = _code_varargs.__code__
    r.call(f, X, 1, 2)


def _sets_recursion_limit(x, n):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(old + n)
    y = x * sys.getrecursionlimit() / (old + n)
    sys.setrecursionlimit(old)
    return y, sys.getrecursionlimit() == old


case(_sets_recursion_limit, (X, 100), (X, 7))


def _compiles_inside(x):
    import dynamo
    g = dynamo.compile(_affine, backend="eager")
    return g(x, 2.0) + 1.0


case(_compiles_inside, (X,), (M,))
