"""Round 45, state that flows out of loops (2 of 3): loops whose exit prints or sets a
flag (``translator/exit_prints.py``, ``exit_flags.py``, ``config.defer_prints`` on):
prints on both ways with NaN and zero trips, of an array or a list written after the
loop, of an object whose ``__str__`` counts, under ``redirect_stdout`` and
``np.printoptions``, with ``sep``/``end``/``file``, of NumPy scalars, beside a warning,
before a raise; flags with NaN, inf and zero trips, stored and formatted; ``while``
loops returning at the exit; two exits.

    >>> def newton(x, a, tol, n):
    ...     for i in range(n):
    ...         x_new = 0.5 * (x + a / x)
    ...         if np.max(np.abs(x_new - x)) < tol:
    ...             print("converged", x_new)      # replayed on the way the test chose
    ...             return x_new
    ...         x = x_new
    ...     return x
"""

import contextlib
import io
import sys
import warnings

import numpy as np
from hostile_check import Programs
from round45_support import NAN, A, _exits

import dynamo

reg = Programs("round45_flow")


# ----------------------------------------------------------------------------- loop exits

def _newton_print(x, a, tol, n):
    for i in range(n):
        x_new = 0.5 * (x + a / x)
        if np.max(np.abs(x_new - x)) < tol:
            print("converged", x_new)
            return x_new
        x = x_new
    print("no convergence", x)
    return x


@reg.scenario
def s_exit_prints_both_ways_nan(r):
    _exits(r, _newton_print, [(A, A, 1e-9, 30), (A, A, 1e-9, 2), (A, A, NAN, 30),
                              (np.array([NAN, 1.0]), np.array([2.0, 3.0]), 1e-9, 5),
                              (A, A, 1e-9, 0)])


def _print_then_write(x, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("small", x)
            break
    x[0] = 99.0
    return x


@reg.scenario
def s_exit_print_array_written_after(r):
    _exits(r, _print_then_write, [(A, 1.0, 20), (A, 1e-30, 20), (A, 1.0, 0)])


def _print_list_appended_after(x, log, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("log", log)
            break
    log.append(float(x[0]))
    return x


@reg.scenario
def s_exit_print_list_appended_after(r):
    r.patch(dynamo.config, "defer_prints", True)
    f = r.compile(_print_list_appended_after)
    log = [1.0]
    for tol in (1.0, 1e-30, 1.0):
        r.call(f, A.copy(), log, tol, 20)
        r.see("log", list(log))


class _Loud:
    def __init__(self):
        self.n = 0

    def __str__(self):
        self.n += 1
        return f"loud#{self.n}"


def _print_object(x, o, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("obj", o)
            break
    return x, o.n


@reg.scenario
def s_exit_print_object_str_counts(r):
    r.patch(dynamo.config, "defer_prints", True)
    f = r.compile(_print_object)
    o = _Loud()
    for tol in (1.0, 1e-30, 1.0, 1.0):
        r.call(f, A.copy(), o, tol, 20)


def _print_redirected(x, tol, n):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        for i in range(n):
            x = x * 0.5
            if np.max(x) < tol:
                print("inside", i)
                print("small", x)
                break
    return x, buf.getvalue()


@reg.scenario
def s_exit_print_under_redirect(r):
    _exits(r, _print_redirected, [(A, 1.0, 20), (A, 1e-30, 20)])


def _print_stderr(x, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("err", x, file=sys.stdout, sep="|", end="!\n")
            break
    return x


@reg.scenario
def s_exit_print_sep_end_file(r):
    _exits(r, _print_stderr, [(A, 1.0, 20), (A, 1e-30, 20)])


def _print_then_raise(x, d, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("before raise", x)
            break
    return x / (1 // d)


@reg.scenario
def s_exit_print_then_raise_after(r):
    _exits(r, _print_then_raise, [(A, 1, 1.0, 20), (A, 0, 1.0, 20), (A, 0, 1e-30, 20)])


def _print_printoptions(x, tol, n):
    with np.printoptions(precision=2):
        for i in range(n):
            x = x / 3.0
            if np.max(x) < tol:
                print("opts", x)
                break
    print("after", x)
    return x


@reg.scenario
def s_exit_print_under_printoptions(r):
    _exits(r, _print_printoptions, [(A, 1.0, 20), (A, 1e-30, 20)])


def _print_scalars(x, tol, n):
    for i in range(n):
        x = (x * 0.5).astype(np.float32)
        err = np.max(x)
        if err < tol:
            print("err", err, x.dtype, err * 2)
            break
    return x


@reg.scenario
def s_exit_print_numpy_scalars(r):
    _exits(r, _print_scalars, [(A, 1.0, 20), (A, 1e-30, 20), (A, np.float32(0.5), 20)])


def _print_and_warn(x, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("small")
            warnings.warn("left early", stacklevel=1)
            break
    print("end")
    return x


@reg.scenario
def s_exit_print_and_warning(r):
    _exits(r, _print_and_warn, [(A, 1.0, 20), (A, 1e-30, 20)])


def _flag(x, tol, n):
    converged = False
    for i in range(n):
        x_new = x * 0.5
        if np.max(np.abs(x_new - x)) < tol:
            converged = True
            break
        x = x_new
    return x, converged, not converged


@reg.scenario
def s_exit_flag_nan_inf_zero_trips(r):
    _exits(r, _flag, [(A, 1e-3, 40), (A, NAN, 40), (A, np.inf, 40), (A, 1e-3, 0),
                      (np.array([np.inf, 1.0]), 1e-3, 40)])


class _Solver:
    def __init__(self):
        self.ok = None

    def run(self, x, tol, n):
        done = True
        for i in range(n):
            x_new = x * 0.5
            if not (np.max(np.abs(x_new - x)) >= tol):
                done = False
                break
            x = x_new
        self.ok = done
        return f"{x.sum():.3f} {self.ok}"


@reg.scenario
def s_exit_flag_stored_then_formatted(r):
    r.patch(dynamo.config, "defer_prints", True)
    s = _Solver()
    f = r.compile(s.run)
    for tol in (1e-3, NAN, 1e-3, 10.0):
        r.call(f, A.copy(), tol, 30)
        r.see("ok", s.ok)


def _while_return_exit(x, tol, maxit):
    it = 0
    while it < maxit:
        x_new = 0.5 * (x + 2.0 / x)
        if np.max(np.abs(x_new - x)) < tol:
            print("done", x_new)
            return x_new, it
        x = x_new
        it += 1
    print("maxit")
    return x, -1


@reg.scenario
def s_while_return_exit_prints(r):
    _exits(r, _while_return_exit, [(A, 1e-12, 50), (A, 1e-12, 2), (A, NAN, 10), (A, 1e-12, 0),
                                   (A, 1e-12, -3)])


def _two_exits(x, lo, hi, n):
    for i in range(n):
        x = x * 1.5
        m = np.max(x)
        if m > hi:
            print("high", m)
            return x, "high"
        if m < lo:
            print("low", m)
            return x, "low"
    return x, "none"


@reg.scenario
def s_two_exits_print(r):
    _exits(r, _two_exits, [(A, 0.0, 100.0, 20), (A, 10.0, 100.0, 20), (A, 0.0, 1e300, 5)])
