"""Round 22, namespaces and odd objects, and deferred prints.

``types.SimpleNamespace`` and its subclasses (whose generic ``__getattribute__`` and
``__setattr__`` are now plain reads and writes on 3.11), subclasses that override
``__getattribute__``, ``__setattr__``, ``__getattr__``, ``__delattr__``, add
``__slots__``, properties or descriptors; attributes added and deleted between calls;
one namespace passed as two arguments, or held by another. Then
``dynamo.config.defer_prints = True``: ``print`` with ``file=``, ``sep=``, ``end=``,
``flush=``, ``sys.stdout`` replaced between calls (each call of the recorder has its
own), printed arrays under changed ``np.set_printoptions``, a print then an exception,
prints in loops, helpers and recursion (``RecursionError``), objects whose ``__str__``
counts or raises, and values written after they were printed.

    >>> def _alias(a, b):
    ...     a.x = a.x + 1           # a and b one namespace
    ...     b.x = b.x * 2
    ...     return a.x
"""

import io
import sys
import types
import typing

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round22_objects")
case = reg.case
scenario = reg.scenario

X = np.linspace(0.5, 4.0, 6)
NS = types.SimpleNamespace


def obj(fn, *inputs, name=None, calls=2, **kw):
    case(fn, *inputs, name=name, calls=calls, **kw)


# ----------------------------------------------------------------- SimpleNamespace

class Counting(NS):
    reads = 0

    def __getattribute__(self, name):
        type(self).reads += 1
        return super().__getattribute__(name)


class Guarded(NS):
    def __setattr__(self, name, value):
        if name == "frozen":
            raise AttributeError("frozen is read-only")
        super().__setattr__(name, value * 2 if isinstance(value, float) else value)


class Fallback(NS):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return np.float64(len(name))


class Slotted(NS):
    __slots__ = ("extra",)


class Scaled(NS):
    @property
    def double(self):
        return self.x * 2

    @double.setter
    def double(self, v):
        self.x = v / 2


class Twice:
    def __get__(self, inst, owner):
        return None if inst is None else inst.__dict__.get("x", 0) * 2

    def __set__(self, inst, value):
        inst.__dict__["x"] = value + 1


class Described(NS):
    twice = Twice()


class NoDelete(NS):
    def __delattr__(self, name):
        raise AttributeError(f"cannot delete {name}")


def _read_write(o, x):
    o.y = x * o.k
    o.k = o.k + 1
    return o.y.sum()


def _alias(a, b):
    a.x = a.x + 1
    b.x = b.x * 2
    return a.x, b.x


def _alias_arrays(a, b):
    a.v += 1
    b.v = b.v * 2
    return a.v, b.v is a.v


def _nested_alias(outer, inner):
    outer.inner.v = outer.inner.v + inner.v
    return inner.v


def _added_or_missing(o, x):
    return x * getattr(o, "k", 10.0), hasattr(o, "k"), vars(o).get("k")


def _counting(o, x):
    n0 = type(o).reads
    v = x * o.k + o.k
    return v, type(o).reads - n0


def _guarded(o, x):
    o.scale = 1.5
    try:
        o.frozen = 1
    except AttributeError as e:
        o.error = str(e)
    return x * o.scale


def _fallback(o, x):
    return x * o.missing, o.k


def _slotted(o, x):
    o.extra = x.sum()
    o.k = o.extra * 2
    return o.k, hasattr(o, "__dict__")


def _scaled(o, x):
    o.double = x.max()
    return o.x, o.double


def _described(o, x):
    o.twice = float(x.sum())
    return o.twice, vars(o)


def _deleted(o, x):
    del o.k
    return x * 2, hasattr(o, "k")


def _no_delete(o, x):
    try:
        del o.k
    except AttributeError as e:
        return str(e), x * o.k
    return None


def _eq_and_repr(a, b, x):
    a.x = x.sum()
    return a == b, repr(b)[:9]


def _dict_written(o, x):
    o.__dict__["k"] = x.mean()
    vars(o)["j"] = 3
    return o.k * o.j


def _class_attr(o, x):
    return x * o.k, type(o).k


class WithClassK(NS):
    k = 7.0


obj(_read_write, (NS(k=2.0), X), (NS(k=np.float32(2)), X), (NS(k=3), X), name="ns_read_write")
obj(_alias, lambda: (lambda o: (o, o))(NS(x=1.5)), lambda: (NS(x=1.5), NS(x=2.5)),
    name="ns_alias_two_arguments")
obj(_alias_arrays, lambda: (lambda o: (o, o))(NS(v=X.copy())),
    lambda: (NS(v=X.copy()), NS(v=X.copy())), name="ns_alias_arrays")
obj(_nested_alias, lambda: (lambda i: (NS(inner=i), i))(NS(v=X.copy())),
    lambda: (NS(inner=NS(v=X.copy())), NS(v=X.copy())), name="ns_nested_alias")
obj(_added_or_missing, (NS(), X), (NS(k=2.0), X), (NS(k=None), X), name="ns_added_or_missing")
obj(_counting, lambda: (Counting(k=2.0), X), name="ns_counting_getattribute")
obj(_guarded, (Guarded(), X), name="ns_guarded_setattr")
obj(_fallback, (Fallback(k=1.0), X), (Fallback(), X), name="ns_fallback_getattr")
obj(_slotted, (Slotted(), X), name="ns_slots")
obj(_scaled, (Scaled(x=1.0), X), name="ns_property")
obj(_described, (Described(), X), name="ns_descriptor")
obj(_deleted, (NS(k=1), X), (NS(), X), name="ns_deleted")
obj(_no_delete, (NoDelete(k=2.0), X), name="ns_no_delete")
obj(_eq_and_repr, lambda: (lambda o: (o, o, X))(NS()), (NS(), NS(x=X.sum()), X),
    name="ns_eq_and_repr")
obj(_dict_written, (NS(), X), name="ns_dict_written")
obj(_class_attr, (WithClassK(), X), (WithClassK(k=1.0), X), name="ns_class_attribute")


@scenario
def s_ns_attributes_between_calls(r):
    o = NS(k=2.0)
    f = r.compile(_added_or_missing)
    r.call(f, o, X)
    del o.k
    r.call(f, o, X)
    o.k = np.float32(0.5)
    r.call(f, o, X)
    o.__dict__.clear()
    r.call(f, o, X)


class PlainNS(NS):
    reads = 0


@scenario
def s_ns_class_changed_between_calls(r):
    o = PlainNS(k=2.0)
    f = r.compile(_counting)
    Counting.reads = 0
    r.call(f, Counting(k=1.0), X)
    r.call(f, o, X)
    o.__class__ = Counting
    r.call(f, o, X)
    r.call(f, o, X)
    o.__class__ = PlainNS
    r.call(f, o, X)


@scenario
def s_ns_method_added(r):
    o = NS(k=2.0)

    def g(o, x):
        return o.scale(x) if hasattr(o, "scale") else x * o.k
    f = r.compile(g)
    r.call(f, o, X)
    o.scale = lambda x: x * 100
    r.call(f, o, X)
    NS_scaled = type("NSScaled", (NS,), {"scale": lambda self, x: x - 1})
    r.call(f, NS_scaled(k=1.0), X)


# ------------------------------------------------------------------- deferred prints

def printing(fn, *inputs, name=None, calls=2, between=None):
    name = name or fn.__name__.removeprefix("_")

    def s(r):
        r.patch(dynamo.config, "defer_prints", True)
        f = r.compile(fn)
        schedule = [a for a in inputs for _ in range(calls)] + list(inputs[:1])
        for k, a in enumerate(schedule):
            if between is not None and k:
                between(k)
            a = a() if callable(a) else tuple(v.copy() if isinstance(v, np.ndarray) else v
                                              for v in a)
            r.call(f, *a)
    s.__name__ = name
    reg.scenario(s)


def _plain_print(x, i):
    y = x * 2
    print("step", i, y.sum(), sep=" | ", end=";\n")
    return y


def _print_array(x):
    y = x / 3
    print(y)
    print(repr(y), y.dtype, y.shape)
    return y


def _print_flush(x):
    print("a", x.max(), flush=True)
    print("b", end="")
    print(sep="-")
    return x + 1


def _print_file(x, buf):
    print("to buffer", x.sum(), file=buf)
    print("to stdout", x.min())
    return buf.getvalue()


def _print_stderr(x):
    print("err", x.sum(), file=sys.stderr)
    return x * 2


def _print_none_args(x):
    print(x.sum(), sep=None, end=None, file=None)
    return x


def _print_then_raise(x):
    print("before", x.sum())
    v = int(x.sum())
    return 10 // v


def _print_then_index_error(x, i):
    print("index", i)
    return x[i]


def _print_in_loop(x):
    for k in range(4):
        print(k, x[k] * k)
    return x * 2


def _helper_print(v):
    print("helper", v.mean())
    return v + 1


def _print_in_helper(x):
    y = _helper_print(x)
    return _helper_print(y)


def _recursive_print(x, n):
    print("depth", n)
    if n == 0:
        return x
    return _recursive_print(x + 1, n - 1)


def _deep_recursion(x, n):
    print("d", n)
    return _deep_recursion(x, n + 1)


def _print_then_write(x):
    print(x)
    x += 1
    print(x)
    return x


def _print_view_then_write(x):
    v = x[:3]
    print(v)
    x[:] = -1
    return v


def _print_number(x):
    v = float(x.sum())
    print(v, v * 2, f"{v:.2f}", x.sum(), np.float32(v))
    return v


def _print_scalars(x):
    print(x.sum(), x.astype(np.float32).sum(), x.astype(np.int8)[0], x[0] > 1, np.float16(1) / 3)
    return x


class Loud:
    def __init__(self):
        self.count = 0

    def __str__(self):
        self.count += 1
        return f"loud {self.count}"


class Bad:
    def __str__(self):
        raise ValueError("no text")


def _print_object(x, o):
    print("obj", o, x.sum())
    return x * 2


def _print_namespace(x, o):
    o.total = x.sum()
    print(o)
    return o.total


def _print_list(x):
    items = [x[0], x[1] * 2, [x[2]], {"k": x[3]}, (x[4],)]
    print(items, *items)
    return items


def _print_warns(x):
    print("before", x.min())
    y = np.log(x - 2)
    print("after", y.sum())
    return y


def _stdout_swapped(x, buf):
    old = sys.stdout
    sys.stdout = buf
    try:
        print("inside", x.sum())
    finally:
        sys.stdout = old
    print("outside", x.max())
    return buf.getvalue()


def _set_precision(k):
    np.set_printoptions(precision=2 if k % 2 else 8)


printing(_plain_print, (X, 1), (X * 2, 2))
printing(_print_array, (X,), (np.arange(30.0),))
printing(_print_array, (X,), name="print_array_options_change", between=_set_precision)
printing(_print_flush, (X,))
printing(_print_file, lambda: (X, io.StringIO()))
printing(_print_stderr, (X,))
printing(_print_none_args, (X,))
printing(_print_then_raise, (X,), (np.array([0.0]),), (np.array([np.nan]),))
printing(_print_then_index_error, (X, 2), (X, 10))
printing(_print_in_loop, (X,))
printing(_print_in_helper, (X,))
printing(_recursive_print, (X, 3), (X, 0))
printing(_deep_recursion, (X, 0), calls=1)
printing(_print_then_write, (X,))
printing(_print_view_then_write, (X,))
printing(_print_number, (X,), (np.array([np.nan]),), (np.array([-0.0]),))
printing(_print_scalars, (X,))
printing(_print_object, lambda: (X.copy(), Loud()))
printing(_print_object, (X, Bad()), name="print_object_str_raises")
printing(_print_namespace, (X, NS(a=1)), (X, Counting(a=2)))
printing(_print_list, (X,))
printing(_print_warns, (X,), (X + 2,))
printing(_stdout_swapped, lambda: (X, io.StringIO()))


@scenario
def s_print_options_inside_call(r):
    r.patch(dynamo.config, "defer_prints", True)

    def g(x):
        print(x / 7)
        np.set_printoptions(precision=3)
        print(x / 7)
        np.set_printoptions(precision=8)
        return x
    f = r.compile(g)
    r.call(f, X)
    r.call(f, X)


@scenario
def s_print_stdout_replaced_between_calls(r):
    r.patch(dynamo.config, "defer_prints", True)
    f = r.compile(_plain_print)
    buf = io.StringIO()

    def to(out, *args):
        old = sys.stdout
        sys.stdout = out
        try:
            return f(*args)
        finally:
            sys.stdout = old
    r.call(to, buf, X, 1)
    r.call(f, X, 2)
    r.call(to, buf, X, 3)
    r.see("buffer", buf.getvalue())


@scenario
def s_print_legacy_scalars(r):
    r.patch(dynamo.config, "defer_prints", True)
    f = r.compile(_print_scalars)
    r.call(f, X)
    old = np.get_printoptions()
    np.set_printoptions(legacy="1.25")
    try:
        r.call(f, X)
    finally:
        np.set_printoptions(**old)
    r.call(f, X)


# ------------------------------------------------- class attributes that change between calls

class Tag(Exception):
    count = 0


def _exception_class_attribute(x):
    try:
        raise Tag("boom")
    except Tag as e:
        y = x * type(e).count + e.__class__.count
    try:
        raise Tag
    except Tag:
        return y - sys.exc_info()[0].count


def _opaque_class_attribute(o, x):
    return x * type(o).reads


@scenario
def s_exception_class_attribute_changes(r):
    f = r.compile(_exception_class_attribute)
    for n in (0, 3, 3, 7):
        Tag.count = n
        r.call(f, X)
    Tag.count = 0


@scenario
def s_opaque_class_attribute_changes(r):
    f = r.compile(_opaque_class_attribute)
    o = Counting(k=1.0)
    for n in (0, 3, 3, 7):
        Counting.reads = n
        r.call(f, o, X)


class Pair(typing.NamedTuple):
    a: float
    b: float


def _named_tuple_class_attribute(p, x):
    q = Pair(1.0, x.sum())
    return x * type(p).tag + type(q).tag + q.b


@scenario
def s_named_tuple_class_attribute_changes(r):
    f = r.compile(_named_tuple_class_attribute)
    for n in (0, 3, 3, 7):
        Pair.tag = n
        r.call(f, Pair(1.0, 2.0), X)
    Pair.tag = 0
