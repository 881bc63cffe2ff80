"""Round 11, frames read after a graph break (``convert._reader_after_break``,
``bytecode/caller_frames.py``): ``sys._getframe(2)``, ``f_back.f_back``,
``inspect.stack()``, tracebacks and callers' ``locals()`` read by helpers reached
through arguments, globals, attributes and closures; ``__defaults__``,
``__kwdefaults__`` and ``__globals__`` of a helper swapped between calls; ``or`` tests
whose counters are spent (``translator/spent_counter_tests.py``), row loops of a
symbolic length (``loops.py``), ``enumerate(start=)`` and a program writing the
compiled function's own attributes (``f.__call__``, ``f._orig_fn``, ``f._settings``,
``f._ctx``: ``dynamo/api.py``)."""

import inspect
import itertools
import sys
import traceback
import types

import numpy as np
from hostile_check import Programs

reg = Programs("round11_frames")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
M = np.arange(12.0).reshape(4, 3) - 5.5


def _brk():
    """A graph break: a print."""
    print("break")


# ============================================================ frame readers after a break

def _two_up():
    f = sys._getframe(2)
    return f.f_code.co_name, sorted(k for k in f.f_locals if not k.startswith("___"))


def _f_back_back():
    f = inspect.currentframe().f_back.f_back
    return f.f_code.co_name, f.f_lineno - f.f_code.co_firstlineno


def _stack_names():
    return [fi.function for fi in inspect.stack()[1:3]]


def _caller_locals():
    return sorted(k for k in sys._getframe(1).f_locals if not k.startswith("___"))


def _tb_names():
    try:
        raise ValueError("x")
    except ValueError as e:
        return [f.name for f in traceback.extract_stack(e.__traceback__.tb_frame)][-3:]


READERS = {"two_up": _two_up, "f_back_back": _f_back_back, "stack": _stack_names,
           "caller_locals": _caller_locals, "traceback": _tb_names}


def _via_argument(x, reader):
    y = x * 2
    _brk()
    z = y + 1
    return z, _middle(reader)


def _middle(reader):
    return reader()


def _via_global(x):
    y = x + 1
    _brk()
    return y * 2, _middle(READER)


def _via_attribute(x, holder):
    y = x - 1
    _brk()
    return y, holder.read()


def _via_closure(reader):
    def f(x):
        y = x * 3
        _brk()
        return y, _middle(reader)
    return f


def _via_lambda(x, reader):
    y = x * 2
    _brk()
    return y, (lambda: reader())()


def _reader_after_second_break(x, reader):
    y = x * 2
    _brk()
    y = y + 1
    _brk()
    return y, _middle(reader)


class _Holder:
    def __init__(self, reader):
        self.read = reader


READER = _two_up


def _add_readers():
    for rname, reader in READERS.items():
        case(_via_argument, (X, reader), (M, reader), name=f"argument_{rname}")
        case(_via_attribute, lambda reader=reader: (X.copy(), _Holder(reader)),
             name=f"attribute_{rname}")
        case(_via_closure(reader), (X,), (M,), name=f"closure_{rname}")
        case(_via_lambda, (X, reader), name=f"lambda_{rname}")
        case(_reader_after_second_break, (X, reader), (M, reader),
             name=f"second_break_{rname}")

        def s(r, reader=reader):
            global READER
            old = READER
            READER = reader
            try:
                f = r.compile(_via_global)
                r.call(f, X.copy())
                r.call(f, M.copy())
            finally:
                READER = old
        s.__name__ = f"global_{rname}"
        scenario(s)


_add_readers()


@scenario
def s_global_reader_rebound_between(r):
    global READER
    old = READER
    try:
        READER = lambda: 0  # noqa: E731
        f = r.compile(_via_global)
        r.call(f, X.copy())
        READER = _two_up
        r.call(f, X.copy())
        READER = _f_back_back
        r.call(f, X.copy())
    finally:
        READER = old


class _PlainRead:
    def read(self):
        return "plain"


class _TwoUpRead:
    def read(self):
        return _two_up()


@scenario
def s_global_reader_rebound_from_none(r):
    """A global that held None while compiling (the code after the break tests it)."""
    global READER
    old = READER
    try:
        READER = None
        f = r.compile(_via_global_if_set)
        r.call(f, X.copy())
        READER = _two_up
        r.call(f, X.copy())
        READER = None
        r.call(f, X.copy())
    finally:
        READER = old


def _via_global_if_set(x):
    y = x - 2
    _brk()
    return y, (_middle(READER) if READER is not None else "none")


@scenario
def s_argument_reader_of_another_class(r):
    """``f(x, o1)`` then ``f(x, o2)``: only ``o2``'s class reads two frames up."""
    f = r.compile(_via_attribute)
    r.call(f, X.copy(), _PlainRead())
    r.call(f, X.copy(), _TwoUpRead())
    r.call(f, X.copy(), _PlainRead())


@scenario
def s_instance_attribute_becomes_reader(r):
    """One class, ``self.read`` set per instance: a plain lambda, then a reader."""
    f = r.compile(_via_attribute)
    r.call(f, X.copy(), _Holder(lambda: "plain"))
    r.call(f, X.copy(), _Holder(_two_up))
    r.call(f, M.copy(), _Holder(_f_back_back))


def _closing(reader):
    return lambda: reader()


def _three_up():
    f = sys._getframe(3)
    return f.f_code.co_name, sorted(k for k in f.f_locals if not k.startswith("___"))


@scenario
def s_closure_argument_over_a_reader(r):
    """One lambda code closing over a plain function, then over a three-up reader."""
    f = r.compile(_via_argument)
    r.call(f, X.copy(), _closing(lambda: "plain"))
    r.call(f, X.copy(), _closing(_three_up))


@scenario
def s_argument_function_becomes_reader(r):
    """A plain lambda per call, then a two-up reader, through the same argument."""
    f = r.compile(_via_argument)
    for _ in range(2):
        r.call(f, X.copy(), lambda: "plain")
    r.call(f, X.copy(), _two_up)
    r.call(f, M.copy(), _f_back_back)
    r.call(f, X.copy(), lambda: "plain")


@scenario
def s_global_reader_rebound_between_numbers(r):
    """The reader is rebound after the frame compiled with a plain helper that has
    another signature of the same name, twice, then back."""
    global READER
    old = READER
    try:
        READER = lambda: 0  # noqa: E731
        f = r.compile(_reader_after_second_break_global)
        r.call(f, X.copy())
        READER = _stack_names
        r.call(f, X.copy())
        READER = lambda: 1  # noqa: E731
        r.call(f, M.copy())
    finally:
        READER = old


def _reader_after_second_break_global(x):
    y = x * 2
    _brk()
    y = y + 1
    _brk()
    return y, _middle(READER)


# ============================================================ defaults and globals swapped

def _helper(x, k=2.0, *, m=1.0):
    return x * k + m


def _uses_helper(x):
    y = _helper(x)
    _brk()
    return y + _helper(x, 1.0)


@scenario
def s_defaults_swapped(r):
    f = r.compile(_uses_helper)
    r.patch(_helper, "__defaults__", (2.0,))
    r.call(f, X.copy())
    r.patch(_helper, "__defaults__", (-3.0,))
    r.call(f, X.copy())
    r.patch(_helper, "__kwdefaults__", {"m": 10.0})
    r.call(f, X.copy())
    r.patch(_helper, "__defaults__", None)
    r.call(f, X.copy())


def _reads_scale(x):
    return x * SCALE


SCALE = 2.0


def _calls_reads_scale(x):
    y = _reads_scale(x)
    _brk()
    return y + _reads_scale(x)


@scenario
def s_helper_globals_swapped(r):
    f = r.compile(_calls_reads_scale)
    r.call(f, X.copy())
    swapped = types.FunctionType(_reads_scale.__code__, {"SCALE": -1.0},
                                 "_reads_scale")
    r.patch(sys.modules[__name__].__dict__, "_reads_scale", swapped)
    r.call(f, X.copy())
    swapped.__globals__["SCALE"] = 5.0
    r.call(f, X.copy())


@scenario
def s_own_defaults_swapped(r):
    def g(x, k=2.0, *, m=1.0):
        return x * k - m
    f = r.compile(g)
    r.call(f, X.copy())
    f.__defaults__ = (7.0,)
    r.call(f, X.copy())
    f.__kwdefaults__ = {"m": -1.0}
    r.call(f, X.copy())
    g.__defaults__ = (0.5,)
    r.call(f, X.copy())
    r.see("defaults", (f.__defaults__, f.__kwdefaults__, g.__defaults__))


# ============================================================ or tests with spent counters

def _or_spent_range(x, n):
    it = iter(range(n))
    out = []
    while next(it, None) is not None or len(out) < 2:
        out.append(x.sum())
    return out


def _or_spent_count(x, n):
    c = itertools.count(n)
    total = x * 0
    while next(c) < 3 or total.sum() < 0:
        total = total + x
    return total


def _or_spent_enumerate(x):
    e = enumerate(x, start=-2)
    acc = 0.0
    for i, v in e:
        if i < 0 or v > 1:
            acc += v * i
    return acc, list(e)


def _or_both_spent(x):
    a, b = iter(x), iter(x[:2])
    out = []
    while (next(a, None) is not None) or (next(b, None) is not None):
        out.append(len(out))
    return out


case(_or_spent_range, (X, 0), (X, 3), (X, 5))
case(_or_spent_count, (X, 0), (X, 2), (X, 5))
case(_or_spent_enumerate, (X,), (M[:, 0].copy(),), (np.zeros(0),))
case(_or_both_spent, (X,), (np.zeros(1),))


# ============================================================ enumerate(start=) and row loops

def _enum_start(x, s):
    acc = x[0] * 0
    for i, row in enumerate(x, start=s):
        acc = acc + row * i
    return acc


case(_enum_start, (M, 0), (M, -3), (M, 2 ** 62), (X, -1))


def _enum_start_big(x):
    return [i for i, _ in enumerate(x, start=2 ** 63 - 2)]


case(_enum_start_big, (X,), (M,))


def _row_loop(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] * (i + 1)
    return out


case(_row_loop, (M,), (np.ones((7, 3)),), (np.zeros((0, 3)),), (np.ones((1, 3)),),
     (np.asfortranarray(M),))


def _row_loop_break(x, limit):
    acc = x[0] * 0
    for i in range(len(x)):
        if i >= limit:
            break
        acc = acc + x[i]
    return acc, i


case(_row_loop_break, (M, 2), (np.ones((9, 3)), 5), (np.ones((2, 3)), 10))


def _row_loop_negative_step(x):
    acc = []
    for i in range(len(x) - 1, -1, -2):
        acc.append(x[i].sum())
    return acc


case(_row_loop_negative_step, (M,), (np.ones((5, 2)),), (np.ones((1, 2)),))


# ============================================================ the compiled object's own names

def _target(x):
    return x + 1


@scenario
def s_write_call_slot(r):
    f = r.compile(_target)
    r.call(f, X.copy())
    f.__call__ = lambda x: "replaced"
    r.call(f, X.copy())
    r.see("has", (hasattr(f, "__call__"), "__call__" in vars(f)))  # noqa: B004
    r.see("read back", f.__call__ is vars(f)["__call__"])
    del f.__call__
    r.call(f, X.copy())


@scenario
def s_read_back_private_names(r):
    f = r.compile(_target)
    r.call(f, X.copy())
    for name in ("_orig_fn", "_settings", "_ctx"):
        setattr(f, name, name.upper())
    r.see("read back", [getattr(f, n) for n in ("_orig_fn", "_settings", "_ctx")])
    r.see("in dict", sorted(k for k in vars(f) if k.startswith("_")))
    r.call(f, X.copy())
    for name in ("_orig_fn", "_settings", "_ctx"):
        delattr(f, name)
    r.see("after del", [hasattr(f, n) for n in ("_orig_fn", "_settings", "_ctx")])
    r.call(f, M.copy())


def _sets_own_attr(x):
    me = REG["f"]
    me._ctx = "from inside"
    me.calls = getattr(me, "calls", 0) + 1
    return x * me.calls, me._ctx


REG = {}


@scenario
def s_program_writes_own_ctx(r):
    f = r.compile(_sets_own_attr)
    REG["f"] = f
    try:
        r.call(f, X.copy())
        r.call(f, X.copy())
        r.see("ctx", (f._ctx, f.calls))
    finally:
        REG.clear()
        for name in ("_ctx", "calls"):
            _sets_own_attr.__dict__.pop(name, None)


# ============================================================ while loops: counter or array test

def _iterate(x, tol, miniter):
    it, err = 0, np.abs(x).max()
    while it < miniter or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return x, it, err


case(_iterate, (X, 0.1, 3), (X, 100.0, 3), (X, 100.0, 0), (X, 0.1, -5), (np.zeros(3), 0.0, 2),
     (X, 1e-300, 2))


def _iterate_array_first(x, tol, miniter):
    it, err = 0, np.abs(x).max()
    while err > tol or it < miniter:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return x, it


case(_iterate_array_first, (X, 0.1, 3), (X, 100.0, 4), (X, 100.0, 0))


def _iterate_start_above(x, tol, it):
    err = np.abs(x).max()
    while it < 3 or err > tol:
        x = x / 3.0
        err = np.abs(x).max()
        it += 1
    return it, x


case(_iterate_start_above, (X, 0.1, 10), (X, 0.1, -2), (X, 10.0, 2), (X, 0.1, 2 ** 62))


def _iterate_down(x, tol):
    it, err = 5, np.abs(x).max()
    while it > 2 or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        it -= 1
    return it, x


case(_iterate_down, (X, 0.1), (X, 100.0))


def _iterate_toward_bound(x, tol):
    it, err = 5, np.abs(x).max()
    while it < 3 or err > tol:   # the step goes towards the bound: true again later
        x = x * 0.5
        err = np.abs(x).max()
        it -= 1
        if it < -4:
            break
    return it, x


case(_iterate_toward_bound, (X, 0.1), (X, 1e-3), (X, 100.0))


def _iterate_bound_moves(x, tol):
    it, bound, err = 0, 2, np.abs(x).max()
    while it < bound or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
        if it == 3:
            bound = 6
    return it, bound, x


case(_iterate_bound_moves, (X, 0.1), (X, 100.0))


def _iterate_not_equal(x, tol):
    it, err = 0, np.abs(x).max()
    while it != 4 or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
        if it > 50:
            break
    return it, x


case(_iterate_not_equal, (X, 0.1), (X, 100.0), (X, 1e-9))


def _iterate_float_counter(x, tol):
    it, err = 0.0, np.abs(x).max()
    while it < 2.5 or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        it += 0.5
    return it, x


case(_iterate_float_counter, (X, 0.1), (X, 100.0))


def _iterate_numpy_counter(x, tol, it):
    err = np.abs(x).max()
    while it < 3 or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return it, type(it).__name__, x


case(_iterate_numpy_counter, (X, 0.1, np.int64(0)), (X, 0.1, np.int8(126)), (X, 0.1, True))


def _iterate_counter_used(x, tol):
    it, err = 0, np.abs(x).max()
    acc = x * 0
    while it < 3 or err > tol:
        acc = acc + x * it
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return acc, it


case(_iterate_counter_used, (X, 0.1), (X, 100.0), (M, 0.5))


class _State:
    def __init__(self):
        self.it = 0


def _iterate_attribute_counter(x, tol, s):
    err = np.abs(x).max()
    while s.it < 3 or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        s.it += 1
    return x, s.it


case(_iterate_attribute_counter, lambda: (X.copy(), 0.1, _State()),
     lambda: (X.copy(), 100.0, _State()))


def _iterate_chained_compare(x, tol):
    it, err = 0, np.abs(x).max()
    while 0 <= it < 3 or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return it, x


case(_iterate_chained_compare, (X, 0.1), (X, 100.0))


def _iterate_two_counters(x, tol):
    i, j, err = 0, 10, np.abs(x).max()
    while i < 2 or j > 7 or err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        i += 1
        j -= 2
    return i, j, x


case(_iterate_two_counters, (X, 0.1), (X, 100.0))


def _iterate_print_each(x, tol):
    it, err = 0, np.abs(x).max()
    while it < 2 or err > tol:
        print("trip", it, err)
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return it


case(_iterate_print_each, (X, 0.5), (X, 100.0))


def _iterate_nan(x, tol):
    it, err = 0, np.abs(x).max()
    while it < 2 or err > tol:   # a NaN err: the array test is False at once
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
        if it > 40:
            break
    return it, x


case(_iterate_nan, (np.array([np.nan, 1.0]), 0.1), (np.array([np.inf, 1.0]), 0.1),
     (X, np.nan))
