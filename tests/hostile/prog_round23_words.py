"""Round 23, guards in words (``dynamo/guard_words.py``, ``guards/check.py``
``failed_guards``, ``hook._log_full``): when a function's cache is full, dynamo says
once why the last call missed, for every entry; with the ``recompiles`` and ``guards``
logs on, it says so at every recompile and lists every entry's guards. Those words
name the program's values, so they must be made without running the program's code
(a ``__repr__`` that prints or counts, a metaclass ``__getattribute__``, a
``__getattr__`` answering ``__qualname__``) and without failing on odd values: a
``__repr__`` that raises or returns a non-string, an int of 5,000 digits (``repr``
raises ValueError), a tuple of 3,000 items, strings that look like generated code
(``___G['x']``, ``L['\\x']``, ``<value 3 carried over the graph break>``), keys with
quotes and backslashes, NaN and -0.0. Each program calls its function with more
distinct values than ``config.cache_size_limit`` (8), some with the logs on.

    >>> class Loud(type):
    ...     def __repr__(cls):
    ...         print("repr ran")          # must never run for dynamo's own messages
    ...         return cls.__name__
"""


import numpy as np
from hostile_check import Programs, logs_on

reg = Programs("round23_words")
case = reg.case
scenario = reg.scenario

X = np.arange(4.0)
SEEN = []


def with_logs(fn):
    """The scenario ``fn`` with dynamo's recompiles and guards logs on (into a handler
    that formats every record), then off again."""
    def s(r):
        with logs_on():
            fn(r)
    s.__name__ = fn.__name__ + "_logged"
    s.__doc__ = fn.__doc__
    return s


def both(fn):
    scenario(fn)
    scenario(with_logs(fn))


def calls(r, f, values, *, extra=()):
    for v in list(values) + list(values[:2]):
        r.call(f, X.copy(), v, *extra)
    r.see("seen", list(SEEN))
    SEEN.clear()


# ------------------------------------------------------------------- program code in repr


class Loud(type):
    def __repr__(cls):
        SEEN.append("repr")
        print("metaclass repr ran")
        return cls.__name__

    def __getattribute__(cls, name):
        if name in ("__qualname__", "__name__", "__module__"):
            SEEN.append(name)
            print("metaclass read", name)
        return super().__getattribute__(name)


LOUD_CLASSES = [Loud(f"L{i}", (), {"v": float(i)}) for i in range(10)]


def _scaled_by_instance(x, o):
    return x * o.v


def s_loud_classes(r):
    """Instances of ten classes whose metaclass prints when its name is read."""
    f = r.compile(_scaled_by_instance)
    calls(r, f, [c() for c in LOUD_CLASSES])


def _class_is(x, cls):
    if cls is LOUD_CLASSES[0]:
        return x + 1
    return x * 2


def s_loud_class_identity(r):
    f = r.compile(_class_is)
    calls(r, f, LOUD_CLASSES)


class LoudRepr:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        SEEN.append("object repr")
        print("object repr ran")
        return f"LoudRepr({self.v})"


def _uses_function(x, fn):
    return fn(x)


def _make_fn(i):
    def fn(x):
        return x + i
    fn.__qualname__ = f"fn{i}"
    return fn


class CallableRepr:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return x * self.k

    def __repr__(self):
        SEEN.append("callable repr")
        print("callable repr ran")
        return "CallableRepr"

    def __getattr__(self, name):
        SEEN.append(f"getattr {name}")
        print("getattr", name)
        raise AttributeError(name)


def s_functions(r):
    f = r.compile(_uses_function)
    calls(r, f, [_make_fn(i) for i in range(10)])


def s_callable_objects(r):
    f = r.compile(_uses_function)
    calls(r, f, [CallableRepr(i) for i in range(10)])


def _global_object(x):
    return x * G_OBJ.v


G_OBJ = LoudRepr(1.0)


def s_global_object_rebound(r):
    f = r.compile(_global_object)
    for i in range(11):
        r.patch(globals(), "G_OBJ", LoudRepr(float(i)) if i % 2 else
                type(f"Other{i}", (), {"v": float(i), "__repr__": LoudRepr.__repr__})())
        r.call(f, X.copy())
    r.see("seen", list(SEEN))
    SEEN.clear()


def _number_branch(x, n):
    if n > 3:
        return x + n
    return x - n


def _key_branch(x, d):
    return x * d[next(iter(d))]


for _s in (s_loud_classes, s_loud_class_identity, s_functions, s_callable_objects,
           s_global_object_rebound):
    both(_s)


# ------------------------------------------------------------------- odd values


class RaisingRepr:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        raise RuntimeError("no repr")


class NonStrRepr:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return 42


def _choice(x, o):
    if isinstance(o, RaisingRepr):
        return x + o.v
    return x - o.v


def s_raising_reprs(r):
    f = r.compile(_choice)
    calls(r, f, [type(f"R{i}", (RaisingRepr,), {})(float(i)) for i in range(10)])


def s_non_str_reprs(r):
    f = r.compile(_choice)
    calls(r, f, [type(f"N{i}", (NonStrRepr,), {})(float(i)) for i in range(10)])


def s_huge_ints(r):
    f = r.compile(_number_branch)
    calls(r, f, [10 ** 5000 + i for i in range(10)])


def _tuple_branch(x, t):
    if t[0] > 2:
        return x + len(t)
    return x * t[1]


def s_huge_tuples(r):
    f = r.compile(_tuple_branch)
    calls(r, f, [tuple(range(i, i + 3000)) for i in range(10)])


def s_nested_tuples(r):
    def nested(i, depth):
        t = (i, i + 1)
        for _ in range(depth):
            t = (t, i)
        return t
    f = r.compile(_tuple_const)
    calls(r, f, [nested(i, 2000) for i in range(10)])


def _tuple_const(x, t):
    return x * len(t) if t == t else x


def _text_branch(x, s):
    if s.startswith("L"):
        return x + len(s)
    return x - len(s)


CODE_LIKE = ["L['\\x']", "___G['x']", "<value 3 carried over the graph break>",
             "___closure[99999999999].cell_contents", "___stack7", "G['a\\'b']",
             "{}{0}{x}", "L['" + "\\" * 3 + "']", "\x00\n\t\u2028", "'" * 50 + '"' * 50,
             "x" * 10000]


def s_code_like_strings(r):
    f = r.compile(_text_branch)
    calls(r, f, CODE_LIKE)


def _dict_item(x, d):
    return x * d["k"]


def s_code_like_keys(r):
    f = r.compile(_key_branch)
    calls(r, f, [{k: 2.0} for k in CODE_LIKE])


def s_floats(r):
    f = r.compile(_number_branch)
    calls(r, f, [float("nan"), -0.0, 0.0, float("inf"), -float("inf"), 5e-324, 1e308, 4.0,
                 3.0, 2.5])


def s_number_types(r):
    f = r.compile(_number_branch)
    calls(r, f, [1, 1.0, True, np.int64(1), np.float32(1), 1 + 0j, np.uint8(1),
                 np.float16(1), np.bool_(True), 2])


class Weird(int):
    def __repr__(self):
        SEEN.append("int repr")
        print("int subclass repr")
        return "Weird"


def s_int_subclass(r):
    f = r.compile(_number_branch)
    calls(r, f, [Weird(i) for i in range(10)])


for _s in (s_raising_reprs, s_non_str_reprs, s_huge_ints, s_huge_tuples, s_nested_tuples,
           s_code_like_strings, s_code_like_keys, s_floats, s_number_types, s_int_subclass):
    both(_s)


def _arrays_of_many_dtypes(x, y):
    return x + y


def s_array_dtypes(r):
    f = r.compile(_arrays_of_many_dtypes)
    for dt in ("f8", "f4", "f2", "i8", "i4", "i2", "i1", "u1", "u8", "c8", "?", ">f8"):
        r.call(f, X.astype(dt), np.ones(4, dt))


def s_array_shapes_layouts(r):
    f = r.compile(_arrays_of_many_dtypes)
    base = np.arange(48.0).reshape(4, 12)
    for a in (base, base.T, base[:, ::2], base[::-1], np.asfortranarray(base), base[:2],
              base.reshape(2, 24), base.reshape(48), base[..., None], base[0], base[:0]):
        r.call(f, a, a)


both(s_array_dtypes)
both(s_array_shapes_layouts)


class Unhashable:
    __hash__ = None

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        SEEN.append("eq")
        print("eq ran")
        return isinstance(other, Unhashable) and other.v == self.v


def s_unhashable_objects(r):
    f = r.compile(_scaled_by_instance)
    calls(r, f, [type(f"U{i}", (Unhashable,), {})(float(i)) for i in range(10)])


class PropertyV:
    reads = 0

    @property
    def v(self):
        type(self).reads += 1
        print("property read")
        return 2.0


def s_property_objects(r):
    f = r.compile(_scaled_by_instance)
    calls(r, f, [type(f"P{i}", (PropertyV,), {"reads": 0})() for i in range(10)])


both(s_unhashable_objects)
both(s_property_objects)


def s_cache_limit_then_fits(r):
    """After the cache is full, a call an entry fits runs compiled again; the message
    was said once."""
    f = r.compile(_number_branch)
    for n in list(range(12)) + [0, 5, 11, 3]:
        r.call(f, X.copy(), n)


both(s_cache_limit_then_fits)


class AskedOften:
    """Its __getattr__ (a missing attribute) records every call."""

    def __getattr__(self, name):
        SEEN.append(f"getattr {name}")
        print("getattr", name)
        raise AttributeError(name)


def _scale_or_one(x, o):
    return x * getattr(o, "scale", 1.0)


def s_missing_attribute_past_the_limit(r):
    """One object, eleven dtypes of x: the full cache's words evaluate each entry's
    failing guard, after the guards on o that pass."""
    f = r.compile(_scale_or_one)
    o = AskedOften()
    for dt in ("f8", "f4", "f2", "i8", "i4", "i2", "i1", "u1", "u2", "u4", "u8", "f8"):
        r.call(f, X.astype(dt), o)
    r.see("seen", list(SEEN))
    SEEN.clear()


both(s_missing_attribute_past_the_limit)
