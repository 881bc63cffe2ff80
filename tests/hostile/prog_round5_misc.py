"""Round 5, misc: frames read by callees (``sys._getframe(1).f_locals``), ``locals()``,
``eval``/``exec``, zero-argument ``super()``, mutable default arguments, function
attributes, ``__class__`` reassigned, shadowed builtins and a rebound ``np``, iterators
as arguments, threads, ``id()`` and ``is`` of results, ``sorted`` with keys, string
formatting with ``%``."""

import builtins
import itertools
import sys
import threading

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round5_misc")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])


# ============================================================================ frames

def _peek_caller(name):
    return sys._getframe(1).f_locals.get(name, "missing")


def _callee_reads_caller_locals(x):
    y = x * 2
    z = y + 1
    seen = _peek_caller("z")
    return seen is z, seen


case(_callee_reads_caller_locals, (X,))


def _callee_reads_caller_after_print(x):
    y = x * 2
    print("b")
    w = y - 1  # noqa: F841 (read by the callee through the frame)
    return _peek_caller("w")


case(_callee_reads_caller_after_print, (X,))


def _locals_snapshot(x):
    a = x + 1
    b = 2
    loc = locals()
    return sorted(loc), loc["b"]


case(_locals_snapshot, (X,))


def _eval_local(x):
    k = 3.0  # noqa: F841 (read by eval)
    return eval("x * k")


case(_eval_local, (X,))


def _exec_sets_global(x):
    exec("global EXEC_G\nEXEC_G = 5")
    return x * globals()["EXEC_G"]


case(_exec_sets_global, (X,), watch=lambda: globals().get("EXEC_G"),
     setup=lambda: globals().pop("EXEC_G", None))


def _dir_and_vars(x, o):
    return sorted(k for k in vars(o)), x * len(dir(o)) if False else x


class Plain:
    def __init__(self):
        self.a = 1


case(_dir_and_vars, (X, Plain()))


# ============================================================================ classes

class Base:
    def scale(self, x):
        return x * 2


class Child(Base):
    def scale(self, x):
        return super().scale(x) + 1


def _zero_arg_super(x, o):
    return o.scale(x)


case(_zero_arg_super, (X, Child()))


def _super_in_class_made_inside(x):
    class B:
        def f(self, y):
            return y * 3

    class C(B):
        def f(self, y):
            return super().f(y) - 1
    return C().f(x), C.__mro__[1].__name__


case(_super_in_class_made_inside, (X,))


class Dog:
    def speak(self):
        return "woof"


class Cat:
    def speak(self):
        return "meow"


def _class_reassigned(x, o):
    a = o.speak()
    o.__class__ = Cat
    return a, o.speak(), x


case(_class_reassigned, (X, Dog()))


@scenario
def s_class_reassigned_between_calls(r):
    def f(x, o):
        return x * len(o.speak())
    c = r.compile(f)
    o = Dog()
    r.call(c, X, o)
    o.__class__ = Cat
    r.call(c, X, o)


def _method_replaced_on_class(x, o):
    return x * len(o.speak())


@scenario
def s_method_replaced_on_class(r):
    class Bird:
        def speak(self):
            return "tweet"
    c = r.compile(_method_replaced_on_class)
    o = Bird()
    r.call(c, X, o)
    Bird.speak = lambda self: "caw"
    r.call(c, X, o)


def _classmethod_staticmethod(x, cls):
    return cls.make(x), cls.twice(x)


class Factory:
    k = 2.0

    @classmethod
    def make(cls, x):
        return x * cls.k

    @staticmethod
    def twice(x):
        return x * 2


class SubFactory(Factory):
    k = 5.0


case(_classmethod_staticmethod, (X, Factory), (X, SubFactory))


# ============================================================================ defaults

def _mutable_default(x, acc=[]):  # noqa: B006
    acc.append(x.sum())
    return len(acc)


@scenario
def s_mutable_default(r):
    _mutable_default.__defaults__[0].clear()
    c = r.compile(_mutable_default)
    r.call(c, X)
    r.call(c, X)
    r.call(c, X, [])
    r.call(c, X)
    r.see("default", _mutable_default.__defaults__[0])


def _defaults_replaced(x, k=2.0):
    return x * k


@scenario
def s_defaults_replaced(r):
    def f(x, k=2.0):
        return x * k
    c = r.compile(f)
    r.call(c, X)
    f.__defaults__ = (5.0,)
    r.call(c, X)
    f.__kwdefaults__ = None
    r.call(c, X)


def _func_attr_counter(x):
    _func_attr_counter.calls += 1
    return x * _func_attr_counter.calls


case(_func_attr_counter, (X,), setup=lambda: setattr(_func_attr_counter, "calls", 0),
     watch=lambda: _func_attr_counter.calls)


# ============================================================================ builtins, np

def _uses_len(x):
    return len(x) * 2, abs(-3)


@scenario
def s_builtin_shadowed_by_global(r):
    c = r.compile(_uses_len)
    r.call(c, X)
    globals()["len"] = lambda v: 100
    try:
        r.call(c, X)
    finally:
        del globals()["len"]
    r.call(c, X)


@scenario
def s_builtins_module_patched(r):
    c = r.compile(_uses_len)
    r.call(c, X)
    r.patch(builtins, "abs", lambda v: "patched abs")
    r.call(c, X)


def _uses_np(x):
    return np.sum(x) + np.pi


class FakeNp:
    pi = 0.0

    @staticmethod
    def sum(x):
        return "fake sum"


@scenario
def s_np_global_rebound(r):
    c = r.compile(_uses_np)
    r.call(c, X)
    r.patch(globals(), "np", FakeNp)
    r.call(c, X)


@scenario
def s_np_function_patched(r):
    c = r.compile(_uses_np)
    r.call(c, X)
    r.patch(np, "sum", lambda v: -1.0)
    r.call(c, X)


# ============================================================================ iterators

def _iterator_argument(x, it):
    a = next(it)
    b = next(it, None)
    return x * a, b


case(_iterator_argument, lambda: (X.copy(), iter([1.0, 2.0])), lambda: (X.copy(), iter([3.0])),
     lambda: (X.copy(), itertools.count(5)))


def _generator_argument(x, g):
    return x * next(g), list(g)


def _g(n):
    yield from range(1, n)


case(_generator_argument, lambda: (X.copy(), _g(3)), lambda: (X.copy(), _g(2)))


def _map_filter_lazy(x, log):
    m = map(lambda v: log.append(v) or v * 2, [1, 2, 3])
    first = next(m)
    return x * first, log


case(_map_filter_lazy, lambda: (X.copy(), []))


def _zip_strict(x, a, b):
    try:
        return [p for p in zip(a, b, strict=True)], x
    except ValueError as e:
        return str(e)


case(_zip_strict, (X, [1, 2], [3, 4]), (X, [1, 2], [3]))


# ============================================================================ identity

def _result_identity(x):
    a = x + 1
    b = a
    a += 1
    return a is b, a, b


case(_result_identity, (X,))


def _ids_equal(x):
    a = x * 2
    return id(a) == id(a), id(x) == id(x[:]), x is x


case(_ids_equal, (X,))


def _return_arg_and_view(x):
    v = x[:]
    return x, v, v.base is x


case(_return_arg_and_view, (X,))


def _same_list_twice(x):
    lst = [x]
    return lst, lst, lst[0] is x


case(_same_list_twice, (X,))


# ============================================================================ sorting, formatting

def _sorted_with_key(x, items):
    return sorted(items, key=lambda t: -t[1]), x * len(items)


case(_sorted_with_key, (X, [("a", 1), ("b", 3), ("c", 2)]))


def _sorted_arrays_key(x):
    rows = [x, x * -1, x + 10]
    return [r[0] for r in sorted(rows, key=lambda r: r.sum())]


case(_sorted_arrays_key, (X,))


def _percent_format(x):
    return "%.2f|%d|%s|%r" % (x.sum(), x.shape[0], x.dtype, x.max())  # noqa: UP031


case(_percent_format, (X,), (X.astype(np.float32),))


def _format_spec_dynamic(x, spec):
    return format(x.sum(), spec), f"{x.mean():{spec}}"


case(_format_spec_dynamic, (X, ".1f"), (X, "e"), (X, ">10"))


def _str_join_of_array(x):
    return ",".join(str(v) for v in x), " ".join(map(repr, x[:2]))


case(_str_join_of_array, (X,))


# ============================================================================ threads

def _thread_body(x, k):
    return x * k


@scenario
def s_two_threads(r):
    c = r.compile(_thread_body)
    out = {}

    def run(k):
        out[k] = c(X, k)
    ts = [threading.Thread(target=run, args=(k,)) for k in (2.0, 3.0)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    r.see("out", sorted(out.items()))
    r.call(c, X, 4.0)


def _thread_local_read(x, tl):
    return x * getattr(tl, "k", 1.0)


@scenario
def s_thread_local(r):
    tl = threading.local()
    c = r.compile(_thread_local_read)
    r.call(c, X, tl)
    tl.k = 5.0
    r.call(c, X, tl)


# ============================================================================ kwargs

class KwDict(dict):
    pass


def _kwargs_passthrough(x, **kw):
    return sorted(kw.items()), type(kw).__name__, x


def _call_with_kwdict(x):
    return _kwargs_passthrough(x, **KwDict(a=1, b=2))


case(_call_with_kwdict, (X,))


def _kwargs_mutated(x, **kw):
    kw["new"] = x.sum()
    return kw


case(_kwargs_mutated, Args(X, a=1), Args(X))


def _args_tuple_type(x, *args):
    return type(args).__name__, len(args), args[0] if args else None


case(_args_tuple_type, (X,), (X, 1, 2))


def _keyword_only_missing(x, *, k):
    return x * k


@scenario
def s_keyword_only_missing(r):
    c = r.compile(_keyword_only_missing)
    r.call(c, X, k=2)
    r.call(c, X)
    r.call(c, X, 2)


def _positional_only(x, /, k=1):
    return x * k


@scenario
def s_positional_only_as_keyword(r):
    c = r.compile(_positional_only)
    r.call(c, X)
    r.call(c, x=X)
    r.call(c, X, k=3)


# ============================================================================ compiled objects

def _method_body(self, x):
    self.calls = getattr(self, "calls", 0) + 1
    return x * self.k


@scenario
def s_compiled_function_as_method(r):
    class A:
        k = 2.0
        m = r.compile(_method_body)
    a = A()
    r.call(a.m, X)
    r.call(A.m, a, X)
    r.see("calls", a.calls)


@scenario
def s_compiled_bound_method(r):
    class A:
        k = 3.0

        def m(self, x):
            return x * self.k
    a = A()
    c = r.compile(a.m)
    r.call(c, X)
    a.k = 4.0
    r.call(c, X)


@scenario
def s_compiled_callable_object(r):
    class Scale:
        def __init__(self):
            self.k = 2.0

        def __call__(self, x):
            return x * self.k
    s = Scale()
    c = r.compile(s)
    r.call(c, X)
    s.k = 5.0
    r.call(c, X)


@scenario
def s_compiled_partial(r):
    import functools
    p = functools.partial(lambda x, k: x * k, k=3.0)
    c = r.compile(p)
    r.call(c, X)
    r.call(c, X, k=1.0)


@scenario
def s_compiled_lambda_default_changed(r):
    f = lambda x, k=2.0: x * k  # noqa: E731
    c = r.compile(f)
    r.call(c, X)
    f.__defaults__ = (7.0,)
    r.call(c, X)
