"""Round 17, code that runs as Python around graphs: islands (the code after a break,
``while float(err) > tol:`` loops) calling compiled helpers, methods, closures,
functions whose ``__code__`` or ``__defaults__`` change between calls, recursive
helpers, helpers that read ``sys._getframe(1)``, ``inspect.stack()`` or the caller's
``locals()``; imports inside traced functions (``import numpy.linalg as la``,
``from math import *`` in ``exec``, a module replaced in ``sys.modules`` between
calls), ``np.linspace(..., retstep=True)``, ``np.add.reduce`` of lists; and the numpy
backend's kept scratch buffers (results of 1 MiB and more returned, mutated by the
caller, aliased with each other, kept across the next call).

    >>> def _halve_until(x, tol):
    ...     err = np.abs(x).max()
    ...     while float(err) > tol:          # the loop runs as Python: an island
    ...         x = _half(x)
    ...         err = np.abs(x).max()
    ...     return x
"""

import inspect
import sys
import types

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round17_islands")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
BIG = np.linspace(-1.0, 1.0, 400 * 400).reshape(400, 400)     # 1.22 MiB


def _brk():
    print("break")


def _half(x):
    return x * 0.5


# ------------------------------------------------------------------ while loops

def _halve_until(x, tol):
    err = np.abs(x).max()
    while float(err) > tol:
        x = _half(x)
        err = np.abs(x).max()
    return x


case(_halve_until, (X, 0.1), (X * 100, 0.1), (X, 10.0), (X * 0, 0.1))


class Stepper:
    def __init__(self):
        self.calls = 0

    def step(self, x):
        self.calls += 1
        return x - 0.25 * np.sign(x)

    def __call__(self, x):
        self.calls += 10
        return self.step(x) * 0.9


def _method_loop(x, s):
    while float(np.abs(x).sum()) > 1.0:
        x = s.step(x)
    return x, s.calls


def _callable_loop(x, s):
    while float(np.abs(x).sum()) > 1.0:
        x = s(x)
    return x, s.calls


case(_method_loop, (X, Stepper()), (X * 3, Stepper()))
case(_callable_loop, (X, Stepper()), (X * 3, Stepper()))


def _closure_loop(x, k):
    seen = []

    def shrink(v):
        seen.append(float(v.sum()))
        return v * k

    while float(np.abs(x).max()) > 0.5:
        x = shrink(x)
    return x, seen


case(_closure_loop, (X, 0.5), (X, 0.25), (X * 10, 0.5))


def _nonlocal_counter_loop(x):
    n = 0

    def bump(v):
        nonlocal n
        n += 1
        return v / 2

    while float(x.max()) > 0.1:
        x = bump(x)
    return x, n


case(_nonlocal_counter_loop, (X,), (X * 7,))


@scenario
def s_loop_calls_compiled_helper(r):
    h = r.compile(_half)

    def g(x):
        while float(np.abs(x).max()) > 0.3:
            x = h(x)
        return x
    f = r.compile(g)
    for s in (1.0, 5.0, 0.1, 100.0):
        r.call(f, X * s)


@scenario
def s_helper_code_replaced(r):
    def helper(v):
        return v * 0.5

    def other(v):
        return v * 0.25

    def g(x):
        while float(np.abs(x).max()) > 0.3:
            x = helper(x)
        return x
    f = r.compile(g)
    r.call(f, X.copy())
    helper.__code__ = other.__code__
    r.call(f, X.copy())
    r.call(f, X * 9)


@scenario
def s_helper_defaults_replaced(r):
    def helper(v, k=0.5):
        return v * k

    def g(x):
        _brk()
        while float(np.abs(x).max()) > 0.3:
            x = helper(x)
        return x
    f = r.compile(g)
    r.call(f, X.copy())
    helper.__defaults__ = (0.1,)
    r.call(f, X.copy())
    helper.__defaults__ = (0.9,)
    r.call(f, X.copy())


@scenario
def s_helper_kwdefaults_replaced(r):
    def helper(v, *, k=0.5):
        return v * k

    def g(x):
        _brk()
        return helper(x) + helper(x, k=2.0)
    f = r.compile(g)
    r.call(f, X.copy())
    helper.__kwdefaults__ = {"k": 3.0}
    r.call(f, X.copy())


@scenario
def s_global_helper_rebound(r):
    def g(x):
        _brk()
        return _island_global(x)
    f = r.compile(g)
    r.patch(sys.modules[__name__], "_island_global", lambda v: v + 1)
    r.call(f, X.copy())
    r.patch(sys.modules[__name__], "_island_global", lambda v: v * 100)
    r.call(f, X.copy())


def _island_global(v):
    return v


def _fact(n):
    if n <= 1:
        return 1
    return n * _fact(n - 1)


def _after_break_recursive(x, n):
    _brk()
    return x * _fact(n)


case(_after_break_recursive, (X, 5), (X, 12), (X, 0))


def _rec_arrays(x, n):
    if n == 0:
        return x
    return _rec_arrays(x * 0.5 + 1, n - 1)


def _island_recursive_arrays(x, n):
    _brk()
    return _rec_arrays(x, n)


case(_island_recursive_arrays, (X, 3), (X, 6), (X, 0))


def _self_recursive_with_break(x, n):
    if n == 0:
        return x
    _brk()
    return _self_recursive_with_break(x + n, n - 1)


case(_self_recursive_with_break, (X, 3), (X, 5))


# ------------------------------------------------------------------ frame readers

def _caller_name():
    return sys._getframe(1).f_code.co_name


def _caller_locals_keys():
    return sorted(k for k in sys._getframe(1).f_locals if not k.startswith("_"))


def _caller_local_value(name):
    return sys._getframe(1).f_locals.get(name)


def _stack_names():
    return [fi.function for fi in inspect.stack()[1:3]]


def _island_frame_name(x):
    _brk()
    return x * 2, _caller_name()


def _island_frame_locals(x):
    y = x + 1
    _brk()
    z = y * 2
    return z, _caller_locals_keys()


def _island_local_value(x):
    scale = float(x.sum())  # noqa: F841 (the helper reads it from this frame)
    _brk()
    return x * 2, _caller_local_value("scale")


def _island_stack(x):
    _brk()
    return x.sum(), _stack_names()[0]


def _loop_frame_name(x):
    names = []
    while float(x.max()) > 0.5:
        x = x / 2
        names.append(_caller_name())
    return x, names


def _loop_locals_keys(x):
    seen = []
    k = 0
    while float(x.max()) > 0.5:
        k += 1
        x = x / 2
        seen.append(_caller_locals_keys())
    return x, seen


def _locals_builtin_in_island(x):
    y = x * 2
    _brk()
    w = y + 1
    return w, sorted(k for k in locals() if not k.startswith("_"))


def _frame_lineno_delta(x):
    _brk()
    here = sys._getframe().f_lineno
    return x + 1, here - _frame_lineno_delta.__code__.co_firstlineno


for _fn in (_island_frame_name, _island_frame_locals, _island_local_value, _island_stack,
            _loop_frame_name, _loop_locals_keys, _locals_builtin_in_island,
            _frame_lineno_delta):
    case(_fn, (X,), (X * 4,))


# ------------------------------------------------------------------ imports

def _import_linalg(x):
    import numpy.linalg as la
    return la.norm(x) * x


def _from_import(x):
    from numpy import sqrt
    return sqrt(np.abs(x))


def _import_math_star_exec(x):
    ns = {}
    exec("from math import *", ns)
    return x * ns["pi"], "sqrt" in ns


def _import_math_star_compile_error(x):
    try:
        exec("def h():\n    from math import *\n")
    except SyntaxError as e:
        return x, e.msg
    return x * 2, None


def _import_missing(x):
    try:
        import not_a_module_round17  # noqa: F401
    except ImportError as e:
        return x * 0, e.name
    return x, None


def _import_os_path(x):
    import os.path
    return x + len(os.path.basename("/a/bc"))


for _fn in (_import_linalg, _from_import, _import_math_star_exec,
            _import_math_star_compile_error, _import_missing, _import_os_path):
    case(_fn, (X,), (X * 3,))


def _uses_fake_module(x):
    import r17_fake_mod
    return r17_fake_mod.scale(x), r17_fake_mod.NAME


def _fake_module(name, k):
    m = types.ModuleType("r17_fake_mod")
    m.scale = lambda v: v * k
    m.NAME = name
    return m


@scenario
def s_module_replaced_in_sys_modules(r):
    r.patch(sys.modules, "r17_fake_mod", _fake_module("one", 2.0))
    f = r.compile(_uses_fake_module)
    r.call(f, X.copy())
    r.call(f, X.copy())
    r.patch(sys.modules, "r17_fake_mod", _fake_module("two", -3.0))
    r.call(f, X.copy())
    sys.modules["r17_fake_mod"].scale = lambda v: v + 100
    r.call(f, X.copy())


@scenario
def s_module_removed_from_sys_modules(r):
    r.patch(sys.modules, "r17_fake_mod", _fake_module("one", 2.0))
    f = r.compile(_uses_fake_module)
    r.call(f, X.copy())
    del sys.modules["r17_fake_mod"]
    r.call(f, X.copy())


def _np_linalg_attr_after_import(x):
    import numpy.linalg
    return numpy.linalg.det(np.outer(x, x) + np.eye(4))


@scenario
def s_linalg_attr_monkeypatched(r):
    f = r.compile(_np_linalg_attr_after_import)
    r.call(f, X.copy())
    r.patch(np.linalg, "det", lambda a: -1.0)
    r.call(f, X.copy())


# ------------------------------------------------------------ linspace, reduce

def _retstep(x, n):
    grid, step = np.linspace(x[0], x[-1], n, retstep=True)
    return grid * step, step


case(_retstep, (X, 5), (X, 9), (X, 1), (X, 2))


def _retstep_endpoint(x, n):
    g, s = np.linspace(0.0, float(x.max()), n, endpoint=False, retstep=True)
    return g, s, type(s).__name__


case(_retstep_endpoint, (X, 4), (X, 7), (X, 1))


def _retstep_unpack_once(x):
    out = np.linspace(-1, 1, 5, retstep=True)
    return out[0] * x.sum(), out[1], type(out).__name__


case(_retstep_unpack_once, (X,), (X * 2,))


def _retstep_int_dtype(x):
    g, s = np.linspace(0, 10, 4, dtype=np.int64, retstep=True)
    return g + x[:1].astype(np.int64), s


case(_retstep_int_dtype, (X,))


def _add_reduce_list(x, lst):
    return np.add.reduce(lst) + x


case(_add_reduce_list, (X, [X, X * 2, X * 3]), (X, [X]), (X, [1.0, 2.0]))


def _add_reduce_list_of_ints(x, lst):
    return np.add.reduce(lst), np.multiply.reduce(lst)


case(_add_reduce_list_of_ints, (X, [1, 2, 3]), (X, [2**62, 2**62]), (X, [True, True]))


def _add_reduce_empty(x, lst):
    return np.add.reduce(lst), np.maximum.reduce(x)


case(_add_reduce_empty, (X, []), (X, [1.0]))


def _add_reduce_mutated_list(x, lst):
    lst.append(x)
    s = np.add.reduce(lst)
    lst[0] = lst[0] * 0
    return s, np.add.reduce(lst)


case(_add_reduce_mutated_list, (X, [X * 2]), (X, [X, X]))


# ------------------------------------------------------------ kept scratch buffers

def _big_chain(x):
    return np.sqrt(np.abs(x * 2.0 + 1.0)) * 3.0 - 1.0


def _big_two_results(x):
    a = x * 2.0 + 1.0
    b = np.exp(a) * 0.5
    return a, b


def _big_temp_then_reduce(x):
    t = np.sin(x) * np.cos(x) + 1.0
    return float(t.sum()), t[0, :3].copy()


@scenario
def s_scratch_result_kept_across_calls(r):
    f = r.compile(_big_chain)
    first = r.call(f, BIG.copy())
    second = r.call(f, BIG * 2)
    r.see("first unchanged", None if first is None else float(first.sum()))
    r.call(f, BIG * 3)
    r.see("second unchanged", None if second is None else float(second[3].sum()))


@scenario
def s_scratch_result_mutated_by_caller(r):
    f = r.compile(_big_chain)
    out = r.call(f, BIG.copy())
    if out is not None:
        out[...] = -7.0
    out2 = r.call(f, BIG.copy())
    r.see("out", None if out is None else float(out.sum()))
    r.see("out2 first row", None if out2 is None else out2[0, :4].copy())
    del out
    r.call(f, BIG * 2)


@scenario
def s_scratch_results_aliased(r):
    f = r.compile(_big_two_results)
    res = r.call(f, BIG.copy())
    res2 = r.call(f, BIG * 0.5)
    r.see("shares", None if res is None or res2 is None else
          [np.shares_memory(res[0], res2[0]), np.shares_memory(res[1], res2[1]),
           np.shares_memory(res[0], res[1])])


@scenario
def s_scratch_dropped_then_reused(r):
    f = r.compile(_big_chain)
    for k in range(4):
        out = r.call(f, BIG * (k + 1))
        r.see("sum", None if out is None else float(out.sum()))
        del out


@scenario
def s_scratch_temp_only(r):
    f = r.compile(_big_temp_then_reduce)
    for k in range(3):
        r.call(f, BIG * (k + 1))


def _big_view_result(x):
    y = x * 2.0 + 1.0
    return y[::2], y.T


@scenario
def s_scratch_views_kept(r):
    f = r.compile(_big_view_result)
    a = r.call(f, BIG.copy())
    r.call(f, BIG * 5)
    r.see("first view", None if a is None else a[0][0, :4].copy())


def _big_result_into_list(x, keep):
    y = x * 3.0 + 2.0
    keep.append(y)
    return float(y[0, 0])


@scenario
def s_scratch_result_held_by_list(r):
    keep = []
    f = r.compile(_big_result_into_list)
    for k in range(3):
        r.call(f, BIG * (k + 1), keep)
    r.see("kept", [float(a.sum()) for a in keep])


def _big_result_global(x):
    global _BIG_KEPT
    _BIG_KEPT = np.tanh(x * 2.0 + 0.5)
    return float(_BIG_KEPT[1, 1])


_BIG_KEPT = None


@scenario
def s_scratch_result_held_by_global(r):
    f = r.compile(_big_result_global)
    r.call(f, BIG.copy())
    first = _BIG_KEPT
    r.call(f, BIG * 2)
    r.see("first", None if first is None else float(first.sum()))


def _big_inplace_arg(x, out):
    np.multiply(x, 2.0, out=out)
    return out + 1.0


@scenario
def s_scratch_out_argument(r):
    f = r.compile(_big_inplace_arg)
    buf = np.empty_like(BIG)
    a = r.call(f, BIG.copy(), buf)
    b = r.call(f, BIG * 2, buf)
    r.see("a", None if a is None else float(a.sum()))
    r.see("buf", float(buf.sum()))
    r.see("b", None if b is None else float(b.sum()))


case(_big_chain, Args(BIG.copy()), name="big_chain_plain", calls=3)


def _dropped_result_dies(f, x):
    """Plain driver: call the compiled ``f``, drop its result, and say whether a weak
    reference to it died at once and when its ``finalize`` ran (the recorder keeps
    every result ``r.call`` returns, so this is the only way to drop one)."""
    import weakref
    log = []
    out = f(x)
    w = weakref.ref(out)
    weakref.finalize(out, log.append, "finalized")
    del out
    log.append("dropped")
    return w() is None, log


@scenario
def s_scratch_result_dies_when_dropped(r):
    f = r.compile(_big_chain)
    for k in range(3):
        r.call(lambda x: _dropped_result_dies(f, x), BIG * (k + 1))


def _small_chain_dropped(x):
    return np.sqrt(np.abs(x * 2.0 + 1.0)) * 3.0 - 1.0


@scenario
def s_small_result_dies_when_dropped(r):
    f = r.compile(_small_chain_dropped)
    for k in range(3):
        r.call(lambda x: _dropped_result_dies(f, x), X * (k + 1))


@scenario
def s_scratch_result_held_by_memoryview(r):
    f = r.compile(_big_chain)
    out = r.call(f, BIG.copy())
    if out is None:
        return
    mv = memoryview(out)
    first = float(out.sum())
    del out
    r.call(f, BIG * 4)
    r.see("memoryview unchanged", float(np.asarray(mv).sum()) == first)
