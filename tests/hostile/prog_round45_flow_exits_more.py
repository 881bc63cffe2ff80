"""Round 45, state that flows out of loops (3 of 3): more loop exits that print or set
a flag (``translator/exit_prints.py``, ``exit_flags.py``): a Python float of a float32
printed, an argument written after the loop, a floating-point callback, an IndexError
(raised or caught) after the print, shapes and dtypes printed, a summarized array,
flags with prints, appended, tested for identity; exits in an inlined helper and in
nested loops, print's forms (no arguments, star arguments, ``flush``, ``sep=""``), 0-d
arrays, float16, complex and int arrays printed, a list printed then written.

    >>> def newton(x, a, tol, n):
    ...     for i in range(n):
    ...         x_new = 0.5 * (x + a / x)
    ...         if np.max(np.abs(x_new - x)) < tol:
    ...             print("converged", x_new)      # replayed on the way the test chose
    ...             return x_new
    ...         x = x_new
    ...     return x
"""

import warnings

import numpy as np
from hostile_check import Programs
from round45_support import NAN, A, _exits

import dynamo

reg = Programs("round45_flow")


# ----------------------------------------------------------------------------- more exits

def _print_float_of_f32(x, tol, n):
    for i in range(n):
        x = (x * 0.3).astype(np.float32)
        err = np.max(x)
        if err < tol:
            print("err", float(err), err.item(), repr(err))
            break
    return x


@reg.scenario
def s_exit_print_python_float_of_float32(r):
    _exits(r, _print_float_of_f32, [(A, 1.0, 20), (A, 1e-30, 20)])


def _print_argument(x, tol, n):
    y = x
    for i in range(n):
        y = y * 0.5
        if np.max(y) < tol:
            print("argument", x)
            break
    x *= 2.0
    return y


@reg.scenario
def s_exit_print_argument_written_after(r):
    _exits(r, _print_argument, [(A, 1.0, 20), (A, 1e-30, 20), (A, 1.0, 0)])


def _print_then_fp_callback(x, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("small", x)
            break
    return np.log(x - 0.3)


@reg.scenario
def s_exit_print_then_seterrcall(r):
    old = np.geterrcall()
    np.seterrcall(lambda kind, flag: print("fp", kind))
    try:
        with np.errstate(all="call"):
            _exits(r, _print_then_fp_callback, [(A, 1.0, 20), (A, 1e-30, 20)])
    finally:
        np.seterrcall(old)


def _print_then_raise_in_graph(x, idx, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("small", x)
            break
    return x[idx]


@reg.scenario
def s_exit_print_then_index_error(r):
    _exits(r, _print_then_raise_in_graph, [(A, 1, 1.0, 20), (A, 50, 1.0, 20), (A, 50, 1e-30, 20)])


def _print_then_catch(x, idx, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("small", x)
            break
    try:
        return x[idx]
    except IndexError:
        print("caught")
        return None


@reg.scenario
def s_exit_print_then_caught_index_error(r):
    _exits(r, _print_then_catch, [(A, 1, 1.0, 20), (A, 50, 1.0, 20)])


def _print_shapes(x, tol, n):
    for i in range(n):
        x = x[:-1] * 2.0 if x.shape[0] > 1 else x
        if np.max(x) > tol:
            print("shape", x.shape, x.dtype, x.ndim)
            break
    return x


@reg.scenario
def s_exit_print_shape_and_dtype(r):
    _exits(r, _print_shapes, [(A, 4.0, 3), (A, 1e30, 3)])


def _print_big(x, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print(x)
            break
    return x[:3]


@reg.scenario
def s_exit_print_summarized_array(r):
    _exits(r, _print_big, [(np.linspace(0.0, 5.0, 2000), 1.0, 20),
                           (np.linspace(0.0, 5.0, 1500), 1.0, 20)])


def _print_flag_from_loop(x, tol, n):
    converged = False
    for i in range(n):
        x_new = x * 0.5
        if np.max(np.abs(x_new - x)) < tol:
            converged = True
            print("converged", x_new)
            break
        x = x_new
    print("end", converged)
    return x, converged


@reg.scenario
def s_exit_flag_and_print(r):
    _exits(r, _print_flag_from_loop, [(A, 1e-3, 40), (A, NAN, 40), (A, 1e-3, 0)])


def _exit_appends_flag(x, log, tol, n):
    done = False
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            done = True
            break
    log.append(done)
    return x, log


@reg.scenario
def s_exit_flag_appended_to_argument(r):
    r.patch(dynamo.config, "defer_prints", True)
    f = r.compile(_exit_appends_flag)
    log = []
    for tol in (1.0, 1e-30, NAN, 1.0):
        r.call(f, A.copy(), log, tol, 20)
    r.see("log", log)


def _flag_identity(x, tol, n):
    ok = False
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            ok = True
            break
    return ok is True, ok is False, type(ok).__name__, [ok], {ok: 1}


@reg.scenario
def s_exit_flag_is_a_real_bool(r):
    _exits(r, _flag_identity, [(A, 1.0, 20), (A, 1e-30, 20)])


# ----------------------------------------------------------------------------- exits in helpers and nests

def _inner_solve(x, tol):
    for i in range(30):
        x_new = 0.5 * (x + 2.0 / x)
        if np.max(np.abs(x_new - x)) < tol:
            print("inner converged", i, x_new[:1])
            return x_new
        x = x_new
    print("inner maxit")
    return x


def _outer_calls_helper(x, tol):
    y = _inner_solve(x, tol)
    z = _inner_solve(y + 1.0, tol)
    return y, z


@reg.scenario
def s_exit_prints_in_inlined_helper(r):
    _exits(r, _outer_calls_helper, [(A, 1e-9), (A, NAN), (A, 1e-300)])


def _nested_exit_prints(x, tol, n):
    for j in range(3):
        for i in range(n):
            x = x * 0.5
            if np.max(x) < tol:
                print("leave", j, x[0])
                break
        x = x + 1.0
    return x


@reg.scenario
def s_exit_prints_in_nested_loops(r):
    _exits(r, _nested_exit_prints, [(A, 1.0, 20), (A, 1e-30, 4), (A, 1.2, 0)])


def _print_forms(x, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print()
            print(*x[:2])
            print("flushed", flush=True)
            print(x, x.dtype, sep="", end="")
            print("", end="\n")
            break
    return x


@reg.scenario
def s_exit_print_forms(r):
    _exits(r, _print_forms, [(A, 1.0, 20), (A, 1e-30, 20)])


def _exit_print_0d(x, tol, n):
    for i in range(n):
        x = x * 0.5
        m = np.max(x)
        if m < tol:
            print("0-d", np.asarray(m), m[()], x.sum(keepdims=True), x.astype(np.float16)[0])
            break
    return x


@reg.scenario
def s_exit_print_zero_d_and_half(r):
    _exits(r, _exit_print_0d, [(A, 1.0, 20), (A, 1e-30, 20)])


def _exit_print_complex_int(x, tol, n):
    z = x.astype(np.complex128)
    k = (x * 10).astype(np.int64)
    for i in range(n):
        z = z * (0.5 + 0.5j)
        k = k // 2
        if np.max(np.abs(z)) < tol:
            print("z", z[0], "k", k, k[0], -z[1])
            break
    return z, k


@reg.scenario
def s_exit_print_complex_and_ints(r):
    _exits(r, _exit_print_complex_int, [(A, 1.0, 20), (A, 1e-30, 20)])


def _exit_print_then_modify_list(x, out, tol, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < tol:
            print("out", out, len(out))
            break
    out.append(x[0])
    out[0] = -1.0
    return x


@reg.scenario
def s_exit_print_list_then_written(r):
    r.patch(dynamo.config, "defer_prints", True)
    f = r.compile(_exit_print_then_modify_list)
    out = [1.0, 2.0]
    for tol in (1.0, 1e-30, 1.0):
        r.call(f, A.copy(), out, tol, 20)
        r.see("out", list(out))


def _sibling_name_rebound(x, k):
    if float(x[0]) > 1.0:
        y = x * k
    else:
        y = x - k
    k = [k, 2.0] if float(x[1]) > 0.5 else (k, "k")
    if float(y[0]) > 0.0:
        return y * len(k), k
    return y, k[::-1]


@reg.scenario
def s_sibling_name_rebound_to_container(r):
    f = r.compile(_sibling_name_rebound)
    for j, k in enumerate((1.0, 2.0, 3.0, NAN, -0.0, 4.0, 2 ** 70, True)):
        r.call(f, np.array([2.0 if j % 2 else 0.0, 1.0 if j % 3 else 0.0]), k)


def _sibling_changes_type(x, k):
    if float(x[0]) > 1.0:
        k = k * 2
        return x * k, k
    k = str(k)
    return x, k


@reg.scenario
def s_sibling_number_becomes_text(r):
    f = r.compile(_sibling_changes_type)
    for j, k in enumerate((1, 2, 3, 4, 5.5, -0.0, NAN, 2 ** 80, False)):
        r.call(f, np.array([2.0 if j % 2 else 0.0, 1.0]), k)


class _Env:
    def __init__(self):
        self.t = 0
        self.rewards = [1.0, -0.0, NAN, 2.0, 2 ** 60, 0.5, True, np.float32(0.25)]

    def step(self, x):
        reward = self.rewards[self.t % len(self.rewards)]
        self.t += 1
        if float(x[0]) > 1.0:
            return x * reward, reward
        return x - reward, reward


@reg.scenario
def s_sibling_reward_from_attribute_list(r):
    e = _Env()
    f = r.compile(e.step)
    for j in range(12):
        r.call(f, np.array([2.0 if j % 3 else 0.0, 1.0]))


# ----------------------------------------------------------------------------- while exits that interleave

def _while_exit_print_raise(x, tol, maxit):
    it = 0
    while it < maxit:
        x_new = 0.5 * (x + 2.0 / x)
        if np.max(np.abs(x_new - x)) < tol:
            print("converged at", x_new[0])
            if maxit > 40:
                raise RuntimeError(f"converged too late {maxit}")
            return x_new
        x = x_new
        it += 1
    print("maxit", x[0])
    raise ValueError("no convergence")


@reg.scenario
def s_while_exit_print_then_raise(r):
    _exits(r, _while_exit_print_raise, [(A, 1e-12, 30), (A, 1e-12, 50), (A, 1e-12, 2),
                                        (A, NAN, 5), (A, 1e-12, 0)])


def _while_exit_warn_print(x, tol, maxit):
    it = 0
    while it < maxit:
        x = x * 0.5
        if np.max(x) < tol:
            warnings.warn("left early", RuntimeWarning, stacklevel=1)
            print("after warning", x[0])
            return x, it
        print_later = it
        it += 1
    print("ran out", print_later if maxit > 0 else None)
    return x, -1


@reg.scenario
def s_while_exit_warning_then_print(r):
    _exits(r, _while_exit_warn_print, [(A, 1.0, 20), (A, 1e-30, 20), (A, 1.0, 0)])


def _while_exit_fp_warning(x, tol, maxit):
    it = 0
    while it < maxit:
        x = x - 0.75
        if np.max(x) < tol:
            print("exit", x[0])
            return np.log(x), it
        it += 1
    return np.sqrt(x), -1


@reg.scenario
def s_while_exit_then_fp_warning(r):
    _exits(r, _while_exit_fp_warning, [(A, 1.0, 20), (A, -100.0, 3), (A, 1.0, 0)])


def _while_exit_in_try(x, tol, maxit):
    it = 0
    try:
        while it < maxit:
            x = x * 0.5
            if np.max(x) < tol:
                print("exit", it)
                return x[it * 10]
            it += 1
    except IndexError as e:
        print("caught", e)
        return None
    finally:
        print("finally", it)
    return x


@reg.scenario
def s_while_exit_inside_try_finally(r):
    _exits(r, _while_exit_in_try, [(A, 1.0, 20), (A, 1e-30, 20), (A, 0.1, 20)])
