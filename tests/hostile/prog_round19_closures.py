"""Round 19, Python's function and binding machinery around arrays inside compiled code:
nested functions and closures defined in the compiled function and returned (called
later, by the caller, after the cell changed), ``lambda``, ``functools.partial`` and
``functools.reduce`` over arrays, list/dict/set/generator comprehensions building
arrays, augmented assignment on attributes, items and slices of objects and of lists
of arrays (``+=`` in place on an array vs rebinding an immutable), star-unpacking of
arrays and shapes, ``global`` and ``nonlocal`` counters, recursion through compiled
helpers, and keyword-only, positional-only and default arguments (a mutable default
array written, ``__defaults__``/``__kwdefaults__`` replaced between calls).
(Loops, ``match``, ``try``/``finally`` and context managers: ``prog_round19_flow.py``.)

    >>> def _make_scaler(x):
    ...     k = x.sum()
    ...     def scale(y):
    ...         return y * k        # the cell outlives the compiled frame
    ...     return scale
"""

import functools
import operator

import numpy as np
from hostile_check import Programs

reg = Programs("round19_closures")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, 2.0, -3.0, 4.0])
P = np.array([1.0, 2.0, 3.0, 4.0])
G = np.arange(12.0).reshape(3, 4)
LOG: list = []
COUNT = 0
TOTAL = None


def _reset():
    global COUNT, TOTAL
    LOG.clear()
    COUNT = 0
    TOTAL = None


def _watch():
    return list(LOG), COUNT, TOTAL


def logged(fn, *inputs, **kw):
    case(fn, *inputs, setup=_reset, watch=_watch, **kw)


# ------------------------------------------------------------------- closures

def _make_scaler(x):
    k = x.sum()

    def scale(y):
        return y * k
    return scale


def _closure_nonlocal_counter(x):
    n = 0

    def bump(v):
        nonlocal n
        n += 1
        return v + n
    y = bump(x)
    y = bump(y)
    return y, n


def _returned_closure_holds_array(x):
    buf = x * 2

    def read():
        return buf.sum()

    def write(v):
        buf[0] = v
    return read, write, buf


case(_make_scaler, (P,), (X,))
case(_closure_nonlocal_counter, (P,), (G,))


@scenario
def s_returned_closure_used_later(r):
    """Closures returned by compiled code, called by the caller after the array changed."""
    f = r.compile(_returned_closure_holds_array)
    read, write, buf = r.call(f, P.copy())
    r.see("read", read())
    write(-7.0)
    r.see("read after write", read())
    r.see("buf", buf.copy())
    read2, _, _ = r.call(f, P.copy())
    r.see("second read", read2())


@scenario
def s_scaler_called_by_caller(r):
    f = r.compile(_make_scaler)
    g = r.call(f, P.copy())
    r.see("g(P)", g(P))
    h = r.call(f, X.copy())
    r.see("h(G)", h(G))
    r.see("g(G)", g(G))


# ------------------------------------------------------------------- lambda, partial, reduce


def _partial_arg(x, p):
    return p(x)


def _reduce_add(xs):
    return functools.reduce(operator.add, xs)


case(_partial_arg, (P, functools.partial(np.multiply, 3.0)),
     (P, functools.partial(np.power, x2=2)))
case(_reduce_add, ([P, P, X],), ([G],), ((P, 1.0, True),))


# ------------------------------------------------------------------- comprehensions

def _list_comp_stack(x):
    return np.stack([x * k for k in range(3)])


def _gen_returned(x):
    return (v + 1 for v in x)


case(_list_comp_stack, (P,), (G,))


@scenario
def s_generator_consumed_by_caller(r):
    """A generator made inside compiled code, consumed by the caller after a write."""
    f = r.compile(_gen_returned)
    x = P.copy()
    g = r.call(f, x)
    r.see("first", next(g))
    x[1] = 50.0
    r.see("rest", list(g))


# ------------------------------------------------------------------- augmented stores

class Box:
    def __init__(self, v):
        self.v = v


def _aug_attr(o, x):
    o.v += x
    return o.v


def _aug_item_list(xs, x):
    xs[0] += x
    xs[1] *= 2
    return xs[0] is xs[1]


def _aug_fancy(x, i):
    x[i] += 1
    return x


case(_aug_attr, (Box(P.copy()), P), (Box(1.0), P), (Box([1]), [2]))
case(_aug_item_list, ([P.copy(), P.copy()], X), (lambda: ([P.copy()] * 2, X),))
case(_aug_fancy, (P.copy(), np.array([0, 0, 1])), (P.copy(), [3, 3]))


# ------------------------------------------------------------------- unpacking

def _unpack_shape(g):
    r, *rest = g.shape
    return r, rest, g.reshape(r, -1)


case(_unpack_shape, (G,), (G.reshape(2, 3, 2),))


# ------------------------------------------------------------------- global and nonlocal

def _global_counter(x):
    global COUNT
    COUNT += 1
    return x * COUNT


logged(_global_counter, (P,), calls=3)


# ------------------------------------------------------------------- recursion

def _rec_sum(x):
    if x.size <= 1:
        return x.sum()
    h = x.size // 2
    return _rec_sum(x[:h]) + _rec_sum(x[h:])


case(_rec_sum, (P,), (np.arange(7.0),), (P[:1],))


@scenario
def s_compiled_recursion(r):
    """A compiled function that calls itself through the compiled name."""
    holder = {}

    def fib_arr(x, n):
        if n < 2:
            return x * n
        return holder["f"](x, n - 1) + holder["f"](x, n - 2)
    holder["f"] = r.compile(fib_arr)
    for n in (1, 5, 3):
        r.call(holder["f"], P, n)


# ------------------------------------------------------------------- parameters


@scenario
def s_kwonly_and_defaults_replaced(r):
    """``__kwdefaults__`` and ``__defaults__`` replaced between calls."""
    def f(x, *, scale=2.0):
        return x * scale

    def g(x, y=1.0):
        return x + y
    cf, cg = r.compile(f), r.compile(g)
    r.call(cf, P)
    r.call(cf, P, scale=3.0)
    f.__kwdefaults__ = {"scale": -1.0}
    r.call(cf, P)
    r.call(cg, P)
    g.__defaults__ = (np.ones(4) * 5,)
    r.call(cg, P)
    g.__defaults__ = None
    r.call(cg, P)


@scenario
def s_default_array_written(r):
    """A default array written in place on every call."""
    def h(x, base=np.zeros(4)):  # noqa: B008
        base += x
        return base.copy()
    f = r.compile(h)
    for _ in range(3):
        r.call(f, P)
    r.see("default", h.__defaults__[0].copy())


# ------------------------------------------------------------------- half-done stores

def _tuple_iadd_list(t, x):
    try:
        t[0] += [x.sum()]          # the list grows, then the tuple store raises
    except TypeError as e:
        return str(e), t
    return t


def _reduce_iadd(xs):
    return functools.reduce(operator.iadd, xs)     # writes xs[0] in place


def _sum_start(xs, s):
    return sum(xs, s)                              # s + ..., s itself unchanged


def _slice_swap(x, y):
    x[:], y[:] = y, x              # the second store reads x after the first wrote it
    return x, y


def _view_swap(x):
    a, b = x[:2], x[2:]
    a[:], b[:] = b, a
    return x


def _iadd_list_alias(xs, x):
    ys = xs
    ys += [x]
    return len(xs), xs is ys


case(_tuple_iadd_list, (([1.0], 2), P))
case(_reduce_iadd, (lambda: ([P.copy(), P.copy(), P.copy()]),), (lambda: ([[1], [2]]),))
case(_sum_start, ([P, P], P.copy()), ([P], 1.0))
case(_slice_swap, (P.copy(), X.copy()))
case(_view_swap, (P.copy(),))
case(_iadd_list_alias, ([P], X))


# ------------------------------------------------------------------- expressions, names


def _chained_cmp(x):
    try:
        return 0 < x < 3
    except ValueError as e:
        return str(e)


def _or_arrays(x, y):
    try:
        return x or y
    except ValueError as e:
        return str(e)


def _exc_var_deleted(x):
    e = "before"
    try:
        x.reshape(7)
    except ValueError as e:  # noqa: F841 (the name is unbound after the clause)
        pass
    try:
        return e  # noqa: F821
    except NameError as err:
        return str(err)


def _closure_cell_list(x):
    fs = []
    for i in range(3):
        fs.append(lambda: x[i])  # noqa: B023 (late binding on purpose)
    x[2] = -1.0
    return [f() for f in fs]


def _yield_from(x):
    def gen():
        yield x * 2
        return x.sum()

    def outer():
        r = yield from gen()
        yield r
    return list(outer())


def _nonlocal_outside(x, bump):
    return bump(x), bump(x)


def _make_bump():
    n = 0

    def bump(v):
        nonlocal n
        n += 1
        return v * n
    return bump


def _forget_gone():
    globals().pop("GONE", None)


def _global_deleted(x):
    global GONE
    try:
        GONE += 1
    except NameError as e:
        GONE = 0
        return str(e)
    return GONE, x * GONE


def _kw_default_is_array(x, *, w=np.ones(4)):  # noqa: B008
    w[0] += 1
    return x * w


def _reset_kw_default():
    _kw_default_is_array.__kwdefaults__["w"][:] = 1.0


case(_chained_cmp, (P,), (np.array([1.0]),))
case(_or_arrays, (P, X), (np.array([0.0]), X), (np.array([2.0]), X))
case(_exc_var_deleted, (P,))
case(_closure_cell_list, (P.copy(),))
case(_yield_from, (P,))
case(_nonlocal_outside, lambda: (P, _make_bump()))
case(_global_deleted, (P,), calls=3, setup=_forget_gone)
case(_kw_default_is_array, (P,), calls=3, setup=_reset_kw_default)


@scenario
def s_compiled_closures_share_code(r):
    """Compiled closures of one code object, their cells differing (a float, a NumPy
    scalar, an array)."""
    def make(k):
        def f(x):
            return x * k
        return r.compile(f)
    fs = [make(k) for k in (1.0, 2.0, np.float32(3.0), np.ones(4))]
    for f in fs + fs[::-1]:
        r.call(f, P)


@scenario
def s_compiled_closure_cell_changes(r):
    """The compiled function's own free variable rebound between calls."""
    k = 1.0

    def f(x):
        return x * k
    cf = r.compile(f)
    for k in (1.0, 5.0, np.arange(4.0), "s"):  # noqa: B007 (f reads the cell)
        r.call(cf, P)


@scenario
def s_compiled_nonlocal_writer(r):
    n = 0
    acc = P * 0

    def f(x):
        nonlocal n, acc
        n += 1
        acc = acc + x * n
        return n
    cf = r.compile(f)
    for _ in range(3):
        r.call(cf, P)
    r.see("n", n)
    r.see("acc", acc)


@scenario
def s_compiled_recursive_via_global(r):
    """A compiled function calling itself through a module global, printing on the way."""
    global REC

    def fact(x, n):
        if n <= 1:
            return x
        if n == 3:
            print("three")
        return REC(x, n - 1) * n
    REC = r.compile(fact)
    for n in (1, 4, 2):
        r.call(REC, P, n)


# ------------------------------------------------------------------- state read through
# defaults, partials and cells, written in place (not replaced) between calls

@scenario
def s_kwdefaults_mutated_in_place(r):
    def f(x, *, scale=2.0, n=1):
        return x * scale + n
    cf = r.compile(f)
    r.call(cf, P)
    f.__kwdefaults__["scale"] = -3.0
    r.call(cf, P)
    f.__kwdefaults__["n"] = 7
    r.call(cf, P)
    del f.__kwdefaults__["n"]
    r.call(cf, P)


@scenario
def s_default_array_mutated_by_caller(r):
    def f(x, b=np.zeros(4)):  # noqa: B008
        return x + b
    cf = r.compile(f)
    r.call(cf, P)
    f.__defaults__[0][:] = 5.0
    r.call(cf, P)


@scenario
def s_partial_keywords_mutated(r):
    """A partial (a free variable) whose ``keywords`` dict is written between calls."""
    p = functools.partial(np.clip, a_min=0.0, a_max=2.0)

    def f(x):
        return p(x * 1.0)
    cf = r.compile(f)
    r.call(cf, P)
    p.keywords["a_max"] = 3.5
    r.call(cf, P)
    p.keywords["a_min"] = 2.5
    r.call(cf, P)


@scenario
def s_cell_list_mutated(r):
    cfg = [2.0]

    def f(x):
        return x * cfg[0] + len(cfg)
    cf = r.compile(f)
    r.call(cf, P)
    cfg[0] = 10.0
    r.call(cf, P)
    cfg.append(1)
    r.call(cf, P)


@scenario
def s_cell_dict_mutated(r):
    cfg = {"k": 2.0}

    def f(x):
        if "off" in cfg:
            return x
        return x * cfg["k"]
    cf = r.compile(f)
    r.call(cf, P)
    cfg["k"] = 3
    r.call(cf, P)
    cfg["off"] = True
    r.call(cf, P)


@scenario
def s_reader_writer_closures_returned(r):
    """Two closures over one cell returned; the caller writes through one."""
    def make(x):
        acc = x * 0

        def add(v):
            nonlocal acc
            acc = acc + v

        def get():
            return acc
        add(x)
        return add, get
    cf = r.compile(make)
    add, get = r.call(cf, P)
    add(P)
    r.see("get", get())
    add2, get2 = r.call(cf, P * 2)
    r.see("get2", get2())
    r.see("get again", get())


@scenario
def s_global_read_as_default(r):
    global SCALE
    SCALE = 2.0

    def f(x, s=None):
        s = SCALE if s is None else s
        return x * s
    cf = r.compile(f)
    for SCALE in (2.0, np.float32(4.0), np.arange(4)):  # noqa: B007
        r.call(cf, P)


def _lambda_default_in_loop(x):
    fs = []
    for k in range(3):
        fs.append(lambda y, b=x.sum() * k: y + b)  # noqa: B008 (read now, on purpose)
        x = x * 2
    return [f(1.0) for f in fs]


def _comp_captures_later_rebound(x):
    g = (x * k for k in range(3))
    x = x + 100
    return list(g)


class Bag:
    def __init__(self):
        self._items = [np.ones(2), np.zeros(2)]

    @property
    def items(self):
        return list(self._items)


def _aug_property_list(b):
    b.items[0] += 5      # the array is written in place, the list is a copy
    return b._items[0]


def _reduce_generator_effects(x):
    log = []

    def gen():
        for v in x:
            log.append(float(v))
            yield v
    return functools.reduce(lambda a, b: a * b, gen(), 1.0), log


case(_lambda_default_in_loop, (P,))
case(_comp_captures_later_rebound, (P,))
case(_aug_property_list, (Bag(),))
case(_reduce_generator_effects, (P,), (P[:0],))
