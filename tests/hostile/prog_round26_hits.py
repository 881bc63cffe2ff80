"""Round 26, breaking cache hits and guards in words. A hit of a frame that breaks now
runs the frame's new code and the loop over its resume functions pasted into the
dispatcher (``break_entry.FrameRunner.dispatch_lines``, ``dispatch.py``), with the
reentry mark (a recursion through the compiled function runs the original code). Here
functions with prints and graph breaks are called recursively, from threads,
re-entrantly from a ``__del__`` or a callback, raise in the code after the break, and
are generators. The second half shows guards in words (``dynamo.explain``, the
``guards`` and ``recompiles`` logs, ``guards/shown.py``) on objects whose ``__repr__``,
``__eq__`` or ``__hash__`` print, count or raise: none of them may run.

    >>> def _fact(n):
    ...     print("level", n)             # a graph break
    ...     return 1 if n <= 1 else n * fact_c(n - 1)
"""

import gc
import threading

import numpy as np
from hostile_check import Programs, logs_on

import dynamo

reg = Programs("round26_hits")
case = reg.case
scenario = reg.scenario

X = np.arange(5.0)
SEEN = []


def _brk(x):
    print("break", x.shape)
    return x + 1


# ------------------------------------------------------------ recursion through the compiled function

@scenario
def s_recursive_print(r):
    """A compiled function that prints and calls itself (through its compiled name)."""
    box = {}

    def fact(n, x):
        print("level", n)
        y = x * n
        return y if n <= 1 else y + box["f"](n - 1, x)
    box["f"] = f = r.compile(fact)
    for n in (1, 3, 5, 3, 1):
        r.call(f, n, X.copy())


@scenario
def s_recursive_after_break(r):
    """The recursion is in the code after the break."""
    box = {}

    def g(n, x):
        x = x + 1
        print("before", n)
        if n > 0:
            x = box["f"](n - 1, x)
        return x * 2
    box["f"] = f = r.compile(g)
    for n in (0, 2, 4, 2):
        r.call(f, n, X.copy())


@scenario
def s_mutual_recursion(r):
    """Two compiled functions that call each other across breaks."""
    box = {}

    def even(n, x):
        print("even", n)
        return x if n == 0 else box["odd"](n - 1, x + 1)

    def odd(n, x):
        print("odd", n)
        return -x if n == 0 else box["even"](n - 1, x * 2)
    box["even"] = fe = r.compile(even)
    box["odd"] = r.compile(odd)
    for n in (0, 1, 4, 5, 4):
        r.call(fe, n, X.copy())


@scenario
def s_recursion_raises_deep(r):
    """The innermost level raises after the break; outer levels catch it or not."""
    box = {}

    def g(n, x):
        print("at", n)
        if n == 0:
            raise ValueError("bottom")
        try:
            return box["f"](n - 1, x) + 1
        except ValueError as e:
            if n % 2:
                raise KeyError(n) from e
            return x - n
    box["f"] = f = r.compile(g)
    for n in (1, 2, 3, 2, 3):
        r.call(f, n, X.copy())


# ------------------------------------------------------------ raising after the break

def _raise_after(x, k):
    y = x * 2
    print("printed", k)
    if k > 1:
        raise ValueError(f"k={k}")
    return y


def _raise_after_mutation(x, k):
    x[0] = 99.0
    print("mutated")
    x[1] = x[0] / k
    return [k][k]


def _raise_in_resume_loop(x, k):
    acc = x.copy()
    for i in range(3):
        print("trip", i)
        acc += 1 / (k - i) if k != i else 0
        if i == k:
            raise ZeroDivisionError(i)
    return acc


def _catch_after_break(x, k):
    try:
        print("in try")
        return x / {0: 1}[k]
    except KeyError as e:
        print("caught", e)
        return x * 0
    finally:
        print("finally", k)


for _fn in (_raise_after, _raise_after_mutation, _raise_in_resume_loop,
            _catch_after_break):
    case(_fn, (X, 0), (X, 1), (X, 2), (X, 5), calls=3)


# ------------------------------------------------------------ generators

def _gen_with_break(x):
    def gen():
        for i in range(3):
            print("yield", i)
            yield x * i
    return list(gen())


def _gen_compiled(x):
    print("start")
    yield x + 1
    print("middle")
    yield x * 2


def _gen_next_in_break(x):
    g = (v * 2 for v in x)
    a = next(g)
    print("after next", a)
    return a, list(g)


def _gen_send(x):
    def co():
        total = 0.0
        while True:
            v = yield total
            print("got", v)
            total += v
    c = co()
    next(c)
    out = [c.send(float(v)) for v in x[:3]]
    c.close()
    return out


for _fn in (_gen_with_break, _gen_next_in_break, _gen_send):
    case(_fn, (X,), (X[:2],), calls=3)


@scenario
def s_compiled_generator(r):
    """A compiled generator function with prints; consumed part way, then dropped."""
    f = r.compile(_gen_compiled)
    for _ in range(3):
        g = r.call(f, X.copy())
        r.see("first", next(g))
        r.see("rest", list(g))
    g = r.call(f, X.copy())
    r.see("one", next(g))
    del g


# ------------------------------------------------------------ threads

@scenario
def s_threads_breaking_hits(r):
    """Four threads call one breaking function; results kept by thread."""
    def g(x, k):
        y = x + k
        SEEN.append(("mid", k))
        return y * 2
    f = r.compile(g)
    r.call(f, X.copy(), 0)
    out = {}

    def run(k):
        out[k] = [f(X.copy(), k).tolist() for _ in range(20)]
    ts = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    r.see("out", sorted(out.items()))
    r.see("count", len(SEEN))
    SEEN.clear()


@scenario
def s_threads_recursive(r):
    """Threads each recurse through a compiled function that breaks."""
    box = {}

    def g(n):
        SEEN.append(n)
        return 0 if n == 0 else 1 + box["f"](n - 1)
    box["f"] = f = r.compile(g)
    r.call(f, 3)
    res = {}

    def run(k):
        res[k] = [f(k) for _ in range(10)]
    ts = [threading.Thread(target=run, args=(k,)) for k in range(1, 5)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    r.see("res", sorted(res.items()))
    r.see("seen", sorted(SEEN))
    SEEN.clear()


@scenario
def s_thread_raises_after_break(r):
    """Threads whose calls raise after the break; the exceptions are kept."""
    f = r.compile(_raise_after)
    r.call(f, X.copy(), 2)
    errs = {}

    def run(k):
        try:
            f(X.copy(), k)
            errs[k] = None
        except ValueError as e:
            errs[k] = str(e)
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        ts = [threading.Thread(target=run, args=(k,)) for k in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    r.see("errs", sorted(errs.items()))


# ------------------------------------------------------------ re-entry from __del__ and callbacks

@scenario
def s_reentry_from_del(r):
    """An object dropped inside the function runs the compiled function from its
    ``__del__`` (at the break where its last name goes)."""
    box = {}

    class Dropper:
        def __del__(self):
            SEEN.append(("del", box["f"](0, X.copy()).tolist()))

    def g(n, x):
        if n:
            d = Dropper()
            print("made")
            del d
        print("after", n)
        return x + n
    box["f"] = f = r.compile(g)
    for n in (1, 0, 1, 1):
        r.call(f, n, X.copy())
        gc.collect()
        r.see("seen", list(SEEN))
    SEEN.clear()


@scenario
def s_reentry_from_callback(r):
    """A callback passed in calls the same compiled function."""
    box = {}

    def g(n, x, cb):
        print("enter", n)
        y = cb(n, x)
        return y + n
    box["f"] = f = r.compile(g)

    def cb(n, x):
        return box["f"](n - 1, x * 2, cb) if n > 0 else x
    for n in (0, 2, 3, 2):
        r.call(f, n, X.copy(), cb)


@scenario
def s_reentry_from_key_function(r):
    """``sorted(key=...)`` where the key calls the compiled function."""
    box = {}

    def g(x, items):
        print("sorting", len(items))
        return sorted(items, key=lambda v: float(box["f"](X, []).sum()) * 0 + v), x.sum()
    box["f"] = f = r.compile(g)
    for items in ([3, 1, 2], [], [2, 2]):
        r.call(f, X.copy(), items)


@scenario
def s_reentry_from_hash(r):
    """An argument whose ``__hash__`` calls the compiled function (used as a dict key
    in the frame)."""
    box = {}

    class Key:
        def __hash__(self):
            SEEN.append("hash")
            if len(SEEN) < 4:
                box["f"](X, None)
            return 7

    def g(x, k):
        print("in g")
        if k is None:
            return x
        return {k: 1}[k] + x
    box["f"] = f = r.compile(g)
    for _ in range(3):
        r.call(f, X.copy(), Key())
    r.see("seen", len(SEEN))
    SEEN.clear()


# ------------------------------------------------------------ guards in words

class Loud:
    """Every dunder records that it ran; ``__repr__`` prints too."""

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        SEEN.append("repr")
        print("repr ran")
        return f"Loud({self.v})"

    def __eq__(self, other):
        SEEN.append("eq")
        return isinstance(other, Loud) and other.v == self.v

    def __hash__(self):
        SEEN.append("hash")
        return hash(self.v)


class Raises:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        raise RuntimeError("repr raised")

    def __eq__(self, other):
        raise RuntimeError("eq raised")

    __hash__ = None


class BadHash:
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        raise TypeError("no hash today")

    def __repr__(self):
        return 12   # not a string


class LoudMeta(type):
    def __repr__(cls):
        SEEN.append("meta repr")
        return "Meta!"

    def __eq__(cls, other):
        SEEN.append("meta eq")
        return cls is other

    __hash__ = type.__hash__


def _with_logs(fn):
    def s(r):
        with logs_on():
            fn(r)
        r.see("seen", list(SEEN))
        SEEN.clear()
    s.__name__ = fn.__name__ + "_logged"
    s.__doc__ = fn.__doc__
    scenario(s)

    def plain(r):
        fn(r)
        r.see("seen", list(SEEN))
        SEEN.clear()
    plain.__name__ = fn.__name__
    plain.__doc__ = fn.__doc__
    scenario(plain)
    return fn


def _obj_attr(x, o):
    return x * o.v


def _obj_key(x, d):
    return x + sum(d.values())


def _obj_in_tuple(x, t):
    return x + t[1].v


def _obj_break(x, o):
    print("brk")
    return x * o.v


def _many_calls(r, fn, values):
    f = r.compile(fn)
    for v in list(values) + list(values[:2]):
        r.call(f, X.copy(), v)


def _loud_attrs(r):
    _many_calls(r, _obj_attr, [Loud(i) for i in range(11)])


def _raises_attrs(r):
    _many_calls(r, _obj_attr, [Raises(i) for i in range(11)])


def _badhash_attrs(r):
    _many_calls(r, _obj_attr, [BadHash(i) for i in range(11)])


def _loud_keys(r):
    _many_calls(r, _obj_key, [{Loud(i): i, "k": 1.5} for i in range(11)])


def _badhash_keys_of_tuples(r):
    _many_calls(r, _obj_in_tuple, [(i, BadHash(i), Raises(i)) for i in range(11)])


def _loud_break(r):
    _many_calls(r, _obj_break, [Loud(i) for i in range(11)])


def _meta_classes(r):
    classes = [LoudMeta(f"C{i}", (), {"v": i}) for i in range(11)]
    _many_calls(r, _obj_attr, classes)


def _loud_in_long_tuple(r):
    f = r.compile(lambda x, t: x + t[3] + len(t))
    for i in range(10):
        r.call(f, X.copy(), tuple(range(1001 + i)) + (Loud(i),))


@scenario
def s_explain_loud(r):
    """``dynamo.explain`` of a breaking function over objects whose dunders print or
    raise: the explanation (its text included) runs none of them."""
    def g(x, o):
        print("brk")
        return x * o.v
    for o in (Loud(1), Raises(2), BadHash(3)):
        e = dynamo.explain(g, backend="eager").calls([(X.copy(), o), (X.copy(), o)])
        r.see("explain", (e.graph_count, e.graph_break_count, len(str(e)) > 0))
    r.see("seen", list(SEEN))
    SEEN.clear()


for _fn in (_loud_attrs, _raises_attrs, _badhash_attrs, _loud_keys,
            _badhash_keys_of_tuples, _loud_break, _meta_classes, _loud_in_long_tuple):
    _with_logs(_fn)


# ------------------------------------------------------------ more breaking hits

def _break_in_loop_body(x, k):
    out = x.copy()
    for i in range(k):
        out = out + i
        print("trip", i)
    return out


def _break_then_kwargs(x, k, *, scale=2.0):
    print("scale", scale)
    return x * scale + k


def _break_closure(x, k):
    def inner(y):
        print("inner", k)
        return y + k
    return inner(x) * 2


def _break_global_write(x, k):
    SEEN.append(k)
    print("len", len(SEEN))
    return x + len(SEEN) * 0


def _two_breaks(x, k):
    print("one")
    y = x + k
    print("two")
    return y, k * 2


for _fn in (_break_in_loop_body, _break_then_kwargs, _break_closure, _break_global_write,
            _two_breaks):
    case(_fn, (X, 0), (X, 3), (X, 1), calls=3, setup=SEEN.clear)


@scenario
def s_hit_after_recursion_limit(r):
    """A compiled function that prints, called near the recursion limit."""
    import sys
    f = r.compile(_two_breaks)

    def down(n):
        return f(X.copy(), n) if n == 0 else down(n - 1)
    r.call(f, X.copy(), 1)
    depth = sys.getrecursionlimit() // 2
    res = r.call(down, depth)
    r.see("done", res is not None)
    SEEN.clear()


def _chained_after_break(x, k):
    try:
        print("try", k)
        return x[k + 10]
    except IndexError as e:
        print("handler")
        if k:
            raise ValueError("chained") from (e if k > 1 else None)
        raise KeyError(k)


case(_chained_after_break, (X, 0), (X, 1), (X, 2), calls=3)
