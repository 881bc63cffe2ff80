"""Round 7, dead loop temporaries and warnings at the user's line. A loop node no
longer hands back a temporary nothing reads after the loop (docs/loops.md); these read
it anyway: ``locals()``, ``vars()``, ``dir()``, ``eval``, ``exec``, ``del``, a closure,
lambda, class body or comprehension defined after the loop, ``nonlocal``, an ``except``
or ``finally`` after the loop, the frame (``sys._getframe().f_locals``, a traceback's
frame), and temporaries that alias a carried array or an input. Then warnings raised in
loop bodies, fused groups, helpers and library code: the file and line each warning
names must be the plain run's (scenarios record ``(file, line, text)``)."""

import contextlib
import io
import os
import sys
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round7_dead")
case, scenario = reg.case, reg.scenario

X = np.linspace(0.5, 2.0, 6)
N = 12          # past config.loop_unroll_limit: a loop node


# ============================================================ names read by name

def _dead_temp_locals(x):
    d = None
    for _ in range(N):
        d = x * 0.5
        x = x + d * 0.01
    return x, locals()["d"]


case(_dead_temp_locals, (X,))


def _dead_temp_locals_keys(x):
    d = None
    for _ in range(N):
        d = x * 0.5
        x = x + d * 0.01
    return sorted(locals())


case(_dead_temp_locals_keys, (X,))


def _dead_temp_vars(x):
    d = None
    for _ in range(N):
        d = x - 1.0  # noqa: F841 (read through the frame, on purpose)
        x = x * 0.99
    return vars()["d"], x


case(_dead_temp_vars, (X,))


def _dead_temp_dir(x):
    d = None
    for _ in range(N):
        d = x - 1.0  # noqa: F841 (read through the frame, on purpose)
        x = x * 0.99
    return "d" in dir(), x


case(_dead_temp_dir, (X,))


def _dead_temp_eval(x):
    d = None
    for _ in range(N):
        d = x * x  # noqa: F841 (read through the frame, on purpose)
        x = x * 0.9
    return eval("d + 1"), x


case(_dead_temp_eval, (X,))


def _dead_temp_exec(x):
    d = None
    for _ in range(N):
        d = x * x  # noqa: F841 (read through the frame, on purpose)
        x = x * 0.9
    exec("print(d.sum())")
    return x


case(_dead_temp_exec, (X,))


def _dead_temp_del(x):
    d = None
    for _ in range(N):
        d = x * 2.0
        x = x - d * 0.01
    del d
    return x


case(_dead_temp_del, (X,))


def _dead_temp_del_unbound_before(x):
    for _ in range(N):
        d = x * 2.0
        x = x - d * 0.01
    del d
    return x


case(_dead_temp_del_unbound_before, (X,))


def _dead_temp_del_then_read(x):
    d = x
    for _ in range(N):
        d = x * 2.0
        x = x - d * 0.01
    del d
    try:
        return d  # noqa: F821 (deleted on purpose)
    except NameError as e:
        return str(e), x


case(_dead_temp_del_then_read, (X,))


def _dead_temp_rebound_before_read(x):
    d = x
    for _ in range(N):
        d = x * 2.0
        x = x - d * 0.01
    d = x + 1
    return d


case(_dead_temp_rebound_before_read, (X,))


# ============================================================ closures after the loop

def _closure_after_loop_reads_temp(x):
    d = None
    for _ in range(N):
        d = x * 3.0
        x = x * 0.95

    def get():
        return d
    return get(), x


case(_closure_after_loop_reads_temp, (X,))


def _lambda_after_loop_reads_temp(x):
    d = None
    for _ in range(N):
        d = x + 1.0
        x = x * 0.95
    g = lambda: d.sum()  # noqa: E731
    return g(), x


case(_lambda_after_loop_reads_temp, (X,))


def _closure_returned_unclosed(x):
    d = None
    for _ in range(N):
        d = x + 1.0
        x = x * 0.95

    def get():
        return d
    return get


def s_closure_returned_unclosed(r):
    f = r.compile(_closure_returned_unclosed)
    g = f(X.copy())
    r.see("closure value", g())
    g = f(X.copy() * 2)
    r.see("closure value 2", g())


scenario(s_closure_returned_unclosed)


def _nonlocal_temp(x):
    d = None

    def bump():
        nonlocal d
        d = d * 2
    for _ in range(N):
        d = x * 0.5
        x = x + 0.1
    bump()
    return d, x


case(_nonlocal_temp, (X,))


def _class_body_reads_temp(x):
    d = None
    for _ in range(N):
        d = x * 4.0
        x = x * 0.5

    class K:
        v = d
    return K.v, x


case(_class_body_reads_temp, (X,))


def _comprehension_reads_temp(x):
    d = None
    for _ in range(N):
        d = x * 4.0
        x = x * 0.5
    return [float(d[i]) for i in range(2)], x


case(_comprehension_reads_temp, (X,))


def _genexpr_reads_temp(x):
    d = None
    for _ in range(N):
        d = x * 4.0
        x = x * 0.5
    return sum(v for v in d), x


case(_genexpr_reads_temp, (X,))


# ============================================================ except, finally, frames

def _temp_read_in_except_after_loop(x, i):
    d = None
    for _ in range(N):
        d = x + 2.0
        x = x * 0.9
    try:
        return x[i]
    except IndexError:
        return "except", d


case(_temp_read_in_except_after_loop, (X, 1), (X, 99))


def _temp_read_in_finally(x, log):
    d = None
    try:
        for _ in range(N):
            d = x + 2.0
            x = x * 0.9
        return x
    finally:
        log.append(d.tolist())


case(_temp_read_in_finally, (X, []))


def _temp_read_via_getframe(x):
    d = None
    for _ in range(N):
        d = x - 0.5  # noqa: F841 (read through the frame, on purpose)
        x = x * 0.9
    return sys._getframe().f_locals["d"], x


case(_temp_read_via_getframe, (X,))


def _local_read_via_getframe_after_break(x):
    d = x - 0.5  # noqa: F841 (read through the frame, on purpose)
    x = x * 0.9
    print("break")
    return sys._getframe().f_locals.get("d", "missing"), x


case(_local_read_via_getframe_after_break, (X,))


def _peek_caller(name):
    return sys._getframe(1).f_locals.get(name, "missing")


def _temp_read_by_callee_frame(x):
    d = None
    for _ in range(N):
        d = x - 0.5  # noqa: F841 (read through the frame, on purpose)
        x = x * 0.9
    return _peek_caller("d"), x


case(_temp_read_by_callee_frame, (X,))


# (an island follows the loop: its code runs with every local bound, so the loop
# nodes before it keep their temporaries' last values: translator/frames.py)

def _while_temp_read_by_callee_frame(x):
    k = 0
    while k < N:
        t = x * 0.5     # noqa: F841 (bound only in the body; read through the frame)
        x = x - x * 0.1
        k += 1
    return _peek_caller("t"), x


case(_while_temp_read_by_callee_frame, (X,))


def _array_while_temp_read_by_callee_frame(x):
    err = np.abs(x).max()
    d = None
    while err > 0.1:
        d = x * 0.5     # noqa: F841 (read through the frame, on purpose)
        x = x * 0.8
        err = np.abs(x).max()
    return _peek_caller("d"), x


case(_array_while_temp_read_by_callee_frame, (X,))


class _Peeker:
    def peek(self, name):
        return sys._getframe(1).f_locals.get(name, "missing")


def _temps_read_by_method_after_two_loops(x, p):
    a = b = None
    for _ in range(N):
        a = x + 1.0     # noqa: F841 (read through the frame, on purpose)
        x = x * 0.9
    for _ in range(N):
        b = x - 1.0
        x = x * 1.1
    b = 0  # noqa: F841 (rebound after the loop: the frame holds 0)
    return p.peek("a"), p.peek("b"), x


case(_temps_read_by_method_after_two_loops, (X, _Peeker()))


def _local_read_by_callee_after_a_break(x):
    d = x - 0.5         # noqa: F841 (read through the frame, on purpose)
    x = x * 0.9
    print("between")    # an instruction's break, then the reader
    return _peek_caller("d"), x


case(_local_read_by_callee_after_a_break, (X,))


# The same cause (a local dead at an ordinary break, read by a callee through its
# caller's frame after the break), other ways in: the break passes every bound local
# on where the function calls, by a global or closure name, a caller-frame reader.

def _peek_back(name):
    import inspect
    return inspect.currentframe().f_back.f_locals.get(name, "missing")


def _peek_two_up(name):
    return sys._getframe(2).f_locals.get(name, "missing")


def _peek_via_helper(name):
    return _peek_two_up(name)     # reads its own caller's frame, through the helper


def _dead_local_read_by_f_back_after_a_break(x):
    d = x * 2.0         # noqa: F841 (read through the frame, on purpose)
    print("between")
    return _peek_back("d"), x - 1.0


case(_dead_local_read_by_f_back_after_a_break, (X,))


def _dead_local_read_through_a_helper_after_a_break(x):
    d = np.sqrt(x)      # noqa: F841 (read through the frame, on purpose)
    x = x + 1.0
    print("between")
    return _peek_via_helper("d"), x


case(_dead_local_read_through_a_helper_after_a_break, (X,))


def _closure_peeker():
    peek = _peek_caller

    def _dead_local_read_by_a_closure_reader(x):
        d = x - 3.0     # noqa: F841 (read through the frame, on purpose)
        print("between")
        return peek("d"), x * 2.0
    return _dead_local_read_by_a_closure_reader


case(_closure_peeker(), (X,))


def _dead_locals_rebound_after_a_break(x):
    d = x - 0.5         # noqa: F841 (read through the frame, on purpose)
    e = x * 3.0
    n = len(x) + 4      # noqa: F841 (a number, read through the frame)
    print("between")
    e = 0               # noqa: F841 (the frame holds 0 when the reader runs)
    return _peek_caller("d"), _peek_caller("e"), _peek_caller("n"), _peek_caller("q")


case(_dead_locals_rebound_after_a_break, (X,), (X[:3],))


def _dead_local_read_after_two_breaks(x):
    d = x + 0.25        # noqa: F841 (read through the frame, on purpose)
    print("one")
    y = x * 2.0
    print("two")
    return _peek_caller("d"), _peek_caller("y"), y.sum()


case(_dead_local_read_after_two_breaks, (X,))


def _dead_local_read_in_a_loop_after_a_break(x):
    d = x - 1.0         # noqa: F841 (read through the frame, on purpose)
    print("between")
    out = []
    for k in range(3):
        out.append(_peek_caller("d") is not None)
        x = x * (k + 1)
    return out, _peek_caller("d"), x


case(_dead_local_read_in_a_loop_after_a_break, (X,))


def _dead_local_read_by_a_method_after_a_break(x, p):
    d = x * 0.125       # noqa: F841 (read through the frame, on purpose)
    print("between")
    return p.peek("d"), x


case(_dead_local_read_by_a_method_after_a_break, (X, _Peeker()))


def _dead_local_read_by_an_argument_after_a_break(x, reader):
    d = np.cos(x)       # noqa: F841 (read through the frame, on purpose)
    print("between")
    return reader("d"), x + 1.0


case(_dead_local_read_by_an_argument_after_a_break, (X, _peek_caller))


def _dead_local_read_by_a_listed_reader_after_a_break(x, readers):
    d = x * len(readers)    # noqa: F841 (read through the frame, on purpose; the list is read)
    print("between")
    return readers[0]("d"), x


case(_dead_local_read_by_a_listed_reader_after_a_break, (X, [_peek_caller]))


def _temp_read_via_traceback_frame(x):
    d = None
    for _ in range(N):
        d = x - 0.5  # noqa: F841 (read through the frame, on purpose)
        x = x * 0.9
    try:
        x[100]
    except IndexError as e:
        return e.__traceback__.tb_frame.f_locals.get("d", "missing"), x
    return x


case(_temp_read_via_traceback_frame, (X,))


def _temp_in_assert_message(x):
    d = None
    for _ in range(N):
        d = x * 0.5
        x = x - 1.0
    assert (x > 0).all(), d
    return x


case(_temp_in_assert_message, (X,), (X + 100,))


def _temp_in_fstring(x):
    d = None
    for _ in range(N):
        d = x.sum()
        x = x * 0.9
    return f"{d:.6f}", x


case(_temp_in_fstring, (X,))


def _temp_read_only_on_one_branch(x, flag):
    d = None
    for _ in range(N):
        d = x * 7.0
        x = x * 0.9
    if flag:
        return d
    return x


case(_temp_read_only_on_one_branch, (X, True), (X, False))


def _temp_read_after_break(x):
    d = None
    for _ in range(N):
        d = x * 7.0
        x = x * 0.9
    print("after")
    return d


case(_temp_read_after_break, (X,))


def _temp_read_in_second_loop(x):
    d = x
    for _ in range(N):
        d = x * 0.1
        x = x + 0.01
    for _ in range(N):
        x = x + d
    return x


case(_temp_read_in_second_loop, (X,))


# ============================================================ temps that alias

def _temp_aliases_carried_inplace(x):
    y = x.copy()
    d = y
    for _ in range(N):
        d = y
        d *= 0.9
    return y


case(_temp_aliases_carried_inplace, (X,))


def _temp_view_of_input_written(x):
    d = x
    for _ in range(N):
        d = x[1:]
        d += 0.5
    return x.sum()


case(_temp_view_of_input_written, (X,))


def _temp_aliases_carried_returned_identity(x):
    y = x * 1.0
    d = y
    for _ in range(N):
        d = y
        y = y * 0.5
    return y, d is y, d


case(_temp_aliases_carried_returned_identity, (X,))


def _temp_is_numpy_scalar(x):
    t = 0.0
    for _ in range(N):
        t = x.sum()
        x = x / t
    return x, locals()["t"]


case(_temp_is_numpy_scalar, (X,))


def _while_temp_locals(x):
    s = x.sum()
    while s > 1:
        tmp = x * 0.5
        x = tmp
        s = x.sum()
    return sorted(locals())


case(_while_temp_locals, (X,))


def _while_temp_read_after(x):
    s = x.sum()
    tmp = None
    while s > 1:
        tmp = x * 0.5
        x = tmp
        s = x.sum()
    return tmp is x, tmp


case(_while_temp_read_after, (X,), (X * 0,))


def _for_break_temp_eval(x):
    t = None
    for _ in range(40):
        t = x * 0.5
        x = t + 0.0
        if x.max() < 0.01:
            break
    return eval("t")


case(_for_break_temp_eval, (X,))


# ============================================================ warnings at the user's line

def warned(fn, *inputs):
    """A scenario that calls ``fn`` (compiled) and records where each warning points."""
    def s(r):
        f = r.compile(fn)
        for args in inputs * 2:
            printed = io.StringIO()
            with warnings.catch_warnings(record=True) as seen, \
                    contextlib.redirect_stdout(printed):
                warnings.simplefilter("always")
                try:
                    out = f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
                except Exception as e:  # noqa: BLE001
                    out = e
            r.see("result", out)
            r.see("printed", printed.getvalue())
            r.see("warnings", [(os.path.basename(w.filename), w.lineno, w.category.__name__,
                                str(w.message)) for w in seen])
    s.__name__ = "warn" + fn.__name__
    scenario(s)


def _w_log_in_while(x):
    s = x.sum()
    while s > 0.1:
        x = np.log(x - 1.0)
        s = np.nansum(x)
    return x


warned(_w_log_in_while, (X,))


def _w_log_in_fori(x):
    for _ in range(N):
        x = np.sqrt(x - 0.3)
    return x


warned(_w_log_in_fori, (X,))


def _w_in_for_break(x):
    for _ in range(30):
        x = 1.0 / (x - 1.0)
        if x.max() > 1e3:
            break
    return x


warned(_w_in_for_break, (np.array([2.0, 1.5, 3.0]),))


def _w_fused_chain(x):
    y = x * 2.0 + 1.0
    z = np.log(y - 3.0)
    return z * 2.0 + y


warned(_w_fused_chain, (X,))


def _w_multiline_expression(x):
    y = (x
         * 0.0
         / 0.0)
    return y


warned(_w_multiline_expression, (X,))


def _helper_that_warns(v):
    return np.arccos(v)


def _w_in_inlined_helper(x):
    y = x + 0.0
    return _helper_that_warns(y) * 2


warned(_w_in_inlined_helper, (X,))


def _w_user_warn_stacklevel_1(x):
    if x.sum() > 1:
        warnings.warn("big sum")  # noqa: B028 (stacklevel 1 on purpose)
    return x * 2


warned(_w_user_warn_stacklevel_1, (X,))


def _helper_warns_up(v):
    warnings.warn("from helper", stacklevel=2)
    return v


def _w_user_warn_stacklevel_2(x):
    y = x * 2
    return _helper_warns_up(y)


warned(_w_user_warn_stacklevel_2, (X,))


def _w_mean_of_empty(x):
    return x[x > 100].mean()


warned(_w_mean_of_empty, (X,))


def _w_int_floor_divide_zero(x):
    a = x.astype(np.int64)
    return a // (a - a)


warned(_w_int_floor_divide_zero, (X,))


def _w_complex_to_real(x):
    z = x * 1j + 1.0
    return z.astype(np.float64)


warned(_w_complex_to_real, (X,))


def _w_nan_cast_to_int(x):
    y = x / 0.0 - x / 0.0
    return y.astype(np.int32)


warned(_w_nan_cast_to_int, (X,))


def _w_in_while_test_line(x):
    s = x.sum()
    while np.log(s - 5.0) > -2.0:
        s = s * 0.9
    return s


warned(_w_in_while_test_line, (X,))


def _w_stencil(a):
    b = a.copy()
    b[1:-1, 1:-1] = np.log(a[1:-1, 1:-1] - 0.5) + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, 2:]
    return b


warned(_w_stencil, (np.linspace(0.0, 1.0, 400).reshape(20, 20),))


def _w_after_graph_break(x):
    y = x * 2.0
    print("break")
    return np.log(y - 2.0)


warned(_w_after_graph_break, (X,))


def _w_lambda_line(x):
    f = lambda v: np.log(v - 1.0)  # noqa: E731
    return f(x)


warned(_w_lambda_line, (X,))


def _w_comprehension_line(x):
    return [np.log(x - k) for k in range(2)]


warned(_w_comprehension_line, (X,))


def _w_errstate_warn_inside(x):
    with np.errstate(all="ignore"):
        y = x / 0.0
        with np.errstate(divide="warn"):
            z = x / 0.0
    return y, z


warned(_w_errstate_warn_inside, (X,))


def _w_scalar_overflow(x):
    s = np.float32(x.max()) * np.float32(1e38) * np.float32(10)
    return s


warned(_w_scalar_overflow, (X,))
