"""Round 21, the numpy backend's in-place window updates (``flat_updates.py``; continued
from ``prog_round21_flat.py``, the same category): ``w += v``, ``-=``, ``*=``, ``/=``
where ``v`` is a flat stencil's value that reads the window's own array shifted
(NumPy's overlap rules: as if ``v`` were computed first), int targets of float values
(the casting error), float32/float16/complex targets, broadcast scalars and rows, zero
divisors and ``0 * inf`` under ``errstate``, NaN and inf boundary columns, the window
or the value returned, reversed/column-slice/Fortran/read-only arrays; and the
program's own code that runs inside the update's op (an ``np.seterrcall`` function or
log object, a ``showwarning``, a filter's message matcher) reading the array's
boundary columns, which the 1-D pass holds at 0 in its gaps for the op.

    >>> def _update_reads_self(u):
    ...     u[1:-1, 1:-1] += 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] - 2 * u[1:-1, 1:-1])
    ...     return u
"""

import sys
import warnings

import numpy as np
from hostile_check import Programs
from prog_round20_threads import THREADED, compiled
from prog_round21_flat import _lap_update, big, grid

reg = Programs("round21_flat")
case = reg.case
scenario = reg.scenario

# ------------------------------------------------------------------- in-place updates

case(_lap_update, (big(),), (grid(),), name="update_add")


def _update_op(op):
    def f(u, v):
        val = 0.1 * (v[:-2, 1:-1] + v[2:, 1:-1] - v[1:-1, :-2] * v[1:-1, 2:])
        w = u[1:-1, 1:-1]
        if op == "-":
            w -= val
        elif op == "*":
            w *= val
        else:
            w /= val
        return u
    f.__name__ = {"-": "_sub", "*": "_mul", "/": "_div"}[op]
    return f


for _op in "-*/":
    case(_update_op(_op), lambda: (big(), big()), name=f"update_{_update_op(_op).__name__[1:]}")
    case(_update_op(_op), lambda: (big(), np.zeros((200, 200))),
         name=f"update_{_update_op(_op).__name__[1:]}_zeros")


def _update_reads_self(u):
    u[1:-1, 1:-1] += 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] - 2 * u[1:-1, 1:-1])
    return u


case(_update_reads_self, lambda: (big(),), name="update_reads_self")


def _update_self_plain(u):
    """No flat value: NumPy's overlap rule makes ``u[2:]`` read as a copy."""
    u[1:-1, 1:-1] -= u[2:, 1:-1]
    u[1:-1, 1:-1] += u[:-2, :-2]
    return u


case(_update_self_plain, lambda: (big(),), name="update_self_plain")


def _update_int_float(u):
    u[1:-1, 1:-1] += 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1])
    return u


case(_update_int_float, lambda: (big(dtype=np.int64),), name="update_int_target_float_value")


def _update_int_int(u):
    u[1:-1, 1:-1] += u[:-2, 1:-1] * 3 - u[2:, 1:-1]
    return u


case(_update_int_int, lambda: (big(dtype=np.int64),), name="update_int_target_int_value")


def _update_int_div(u):
    u[1:-1, 1:-1] /= u[:-2, 1:-1] + u[2:, 1:-1]
    return u


case(_update_int_div, lambda: (big(dtype=np.int64),), name="update_int_true_div")


def _update_f32_f64(u, v):
    u[1:-1, 1:-1] += 0.3 * (v[:-2, 1:-1] + v[2:, 1:-1])
    return u


case(_update_f32_f64, lambda: (big(dtype=np.float32), big()), name="update_float32_of_float64")
case(_update_f32_f64, lambda: (big(dtype=np.float16), big(dtype=np.float16)),
     name="update_float16")
case(_update_f32_f64, lambda: (big(dtype=complex), big(dtype=complex) * 1j),
     name="update_complex")
case(_update_f32_f64, lambda: (big(dtype=float), big(dtype=complex)),
     name="update_float_of_complex")


def _update_scalar(u, s):
    u[1:-1, 1:-1] += s
    u[1:-1, 1:-1] *= s
    return u


case(_update_scalar, lambda: (big(), 0.5), lambda: (big(), np.float32(2.5)),
     name="update_scalars")


def _update_row(u, row):
    u[1:-1, 1:-1] += row[None, 1:-1] * (u[:-2, 1:-1] - u[2:, 1:-1])
    return u


case(_update_row, lambda: (big(), np.linspace(0, 1, 200)), name="update_row_broadcast")


def _update_div_raise(u, v):
    with np.errstate(divide="raise", invalid="raise"):
        u[1:-1, 1:-1] /= 0.5 * (v[:-2, 1:-1] - v[2:, 1:-1])
    return u


def _zero_diffs():
    v = big()
    v[3] = v[1]          # v[:-2] - v[2:] is 0 on row 1 of the window: 1/0
    return big(), v


case(_update_div_raise, _zero_diffs, lambda: (big(), big()), name="update_div_raise")


def _update_div_warn(u, v):
    with np.errstate(divide="warn", invalid="warn"):
        u[1:-1, 1:-1] /= 0.5 * (v[:-2, 1:-1] - v[2:, 1:-1])
    return u


case(_update_div_warn, _zero_diffs, name="update_div_warn")


def _update_nan_columns():
    u = big()
    u[:, 0] = np.nan
    u[:, -1] = np.inf
    return (u,)


case(_lap_update, _update_nan_columns, name="update_nan_boundary_columns")


def _update_mul_inf(u, v):
    with np.errstate(invalid="raise"):
        u[1:-1, 1:-1] *= 2.0 * (v[:-2, 1:-1] + v[2:, 1:-1])
    return u


def _zero_and_inf():
    u = big()
    u[1:-1, 1:-1] = 0.0
    v = big()
    v[0, 5] = np.inf
    return u, v


case(_update_mul_inf, _zero_and_inf, name="update_mul_zero_by_inf")
case(_lap_update, lambda: (big()[::-1],), name="update_reversed")
case(_lap_update, lambda: (big(200, 260)[:, :200],), name="update_column_slice")
case(_lap_update, lambda: (np.asfortranarray(big()),), name="update_fortran")
case(_lap_update, lambda: (big(260, 200)[30:230],), name="update_row_window")


def _readonly_u():
    u = big()
    u.setflags(write=False)
    return (u,)


case(_lap_update, _readonly_u, name="update_readonly")


def _steps(u, n):
    for _ in range(n):
        lap = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1]
        u[1:-1, 1:-1] += 0.1 * lap
    return u


case(_steps, lambda: (big(), 3), lambda: (grid(), 0), name="update_steps")


def _window_returned(u):
    w = u[1:-1, 1:-1]
    w += 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1])
    return w, u


case(_window_returned, lambda: (big(),), name="update_window_returned")


def _value_kept(u):
    val = 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1])
    u[1:-1, 1:-1] += val
    return val


case(_value_kept, lambda: (big(),), name="update_value_returned")


def _two_windows(u, v):
    """v is u's other half: the update of one reads the other."""
    u[1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1] + v[2:, 1:-1])
    return u


def _halves():
    a = big(400, 200)
    return a[:200], a[200:]


def _same_halves():
    a = big()
    return a, a


case(_two_windows, _halves, name="update_other_half")
case(_two_windows, _same_halves, name="update_other_is_same")


@scenario
def s_update_errcall(r):
    """The update's division by zero reported once, to the caller's errcall."""
    seen = []
    f = r.compile(_update_op("/"))
    old = np.seterrcall(lambda kind, flag: seen.append((kind, flag)))
    olderr = np.seterr(all="call")
    try:
        r.call(f, big(), np.zeros((200, 200)))
        r.call(f, big(), big())
    finally:
        np.seterr(**olderr)
        np.seterrcall(old)
    r.see("seen", seen)


# ----------------------------------------- program code that runs inside the update's op

def _div_update(u, v):
    u[1:-1, 1:-1] /= 0.5 * (v[:-2, 1:-1] - v[2:, 1:-1])
    return u


def _reads_edges(u, seen, *what):
    seen.append((*what, float(u[:, 0].sum()), float(u[:, -1].sum())))


def edges_seen_by(name, install):
    """``install(report)`` makes a floating-point condition of the update's own op call
    ``report(*what)`` (a program's function, in the middle of the op) and returns its
    undo: the function reads the array's boundary columns, which eager never changes."""
    def s(r):
        f = r.compile(_div_update)

        def drive():
            seen = []
            u = big() + 2
            undo = install(lambda *what: _reads_edges(u, seen, *what))
            try:
                f(u, _zero_diffs()[1])
            finally:
                undo()
            return seen
        r.call(drive)
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


def _edges_seen_by_hook(name, setter, getter, events):
    """A trace or profile function (``sys.settrace``: a debugger, a coverage tool;
    ``sys.setprofile``: a profiler) runs between the statements or calls of the
    update's pass: the boundary columns it reads are eager's every time (the set of
    the sums it saw has one member)."""
    def s(r):
        f = r.compile(_div_update)

        def drive():
            seen = set()
            u = big() + 2
            v = big()

            def hook(frame, event, arg):
                if event in events:
                    seen.add((float(u[:, 0].sum()), float(u[:, -1].sum())))
                return hook
            old = getter()
            setter(hook)
            try:
                f(u, v)
            finally:
                setter(old)
            return sorted(seen)
        r.call(drive)
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


_edges_seen_by_hook("update_edges_seen_by_tracer", sys.settrace, sys.gettrace,
                    ("call", "line", "return"))
_edges_seen_by_hook("update_edges_seen_by_profiler", sys.setprofile, sys.getprofile,
                    ("call", "c_call", "c_return", "return"))


def _errcall(mode):
    def install(report):
        class Log:
            def write(self, text):
                report("log")
        old = np.seterrcall(Log() if mode == "log" else lambda kind, flag: report(kind))
        olderr = np.seterr(all=mode)
        return lambda: (np.seterr(**olderr), np.seterrcall(old))
    return install


def _showwarning(report):
    old = warnings.showwarning
    warnings.showwarning = lambda message, *rest, **kw: report(str(message))
    return lambda: setattr(warnings, "showwarning", old)


def _formatwarning(report):
    old = warnings.formatwarning

    def fmt(message, *rest, **kw):
        report(str(message))
        return ""
    warnings.formatwarning = fmt
    return lambda: setattr(warnings, "formatwarning", old)


def _stderr(report):
    import sys

    class Err:
        def write(self, text):
            report("stderr")

        def flush(self):
            pass
    old = sys.stderr
    sys.stderr = Err()
    return lambda: setattr(sys, "stderr", old)


def _in_catch_warnings(install):
    """The same under ``catch_warnings()`` (not recording: the program's own display)."""
    def wrapped(report):
        cm = warnings.catch_warnings()
        cm.__enter__()
        warnings.simplefilter("always")
        undo = install(report)
        return lambda: (undo(), cm.__exit__(None, None, None))
    return wrapped


def _matching_filter(report):
    """A filter whose message matcher is the program's object: matching runs its code."""
    class Matcher:
        def match(self, text):
            report("match")
            return None
    warnings.filters.insert(0, ("error", Matcher(), RuntimeWarning, None, 0))
    return lambda: warnings.filters.pop(0)


edges_seen_by("edges_seen_by_errcall", _errcall("call"))
edges_seen_by("edges_seen_by_errlog", _errcall("log"))
edges_seen_by("edges_seen_by_showwarning", _in_catch_warnings(_showwarning))
edges_seen_by("edges_seen_by_formatwarning", _in_catch_warnings(_formatwarning))
edges_seen_by("edges_seen_by_stderr", _in_catch_warnings(_stderr))
edges_seen_by("edges_seen_by_filter_matcher", _in_catch_warnings(_matching_filter))


def _div_into(a, b):
    b[1:-1, 1:-1] = 1.0 / (0.5 * (a[:-2, 1:-1] - a[2:, 1:-1]))
    return b


@scenario
def s_target_edges_seen_by_errcall(r):
    """The direct write into a target under np.seterrcall: the function reads the
    target's boundary columns (the 1-D pass's gaps)."""
    f = r.compile(_div_into)

    def drive():
        seen = []
        b = big() + 2
        old = np.seterrcall(lambda kind, flag: _reads_edges(b, seen, kind))
        olderr = np.seterr(all="call")
        try:
            f(_zero_diffs()[1], b)
        finally:
            np.seterr(**olderr)
            np.seterrcall(old)
        return seen
    r.call(drive)
    r.call(drive)


@scenario
def s_target_edges_seen_by_showwarning(r):
    f = r.compile(_div_into)

    def drive():
        seen = []
        b = big() + 2
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = lambda message, *rest, **kw: _reads_edges(b, seen, "w")
            f(_zero_diffs()[1], b)
        return seen
    r.call(drive)
    r.call(drive)


def edges_seen_with_pool(name, fn, make, install):
    """As ``edges_seen_by``, the numpy backend on its own two threads (the eager
    backend takes no options)."""
    def s(r):
        f = compiled(r, fn, THREADED)

        def drive():
            seen = []
            args = make()
            target = args[-1]
            undo = install(lambda *what: _reads_edges(target, seen, *what))
            try:
                fn_result = f(*args)
            finally:
                undo()
            return seen, fn_result
        r.call(drive)
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


def _update_args():
    return _zero_diffs()[1], big() + 2


def _update_swapped(v, u):
    return _div_update(u, v)


edges_seen_with_pool("pool_update_edges_seen_by_errcall", _update_swapped, _update_args,
                     _errcall("call"))
edges_seen_with_pool("pool_update_edges_seen_by_showwarning", _update_swapped, _update_args,
                     _in_catch_warnings(_showwarning))
edges_seen_with_pool("pool_target_edges_seen_by_errcall", _div_into, _update_args,
                     _errcall("call"))
edges_seen_with_pool("pool_target_edges_seen_by_showwarning", _div_into, _update_args,
                     _in_catch_warnings(_showwarning))
