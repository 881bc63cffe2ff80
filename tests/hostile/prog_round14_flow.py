"""Round 14, control flow around Python state across graph breaks: exceptions raised,
caught, chained and swallowed on either side of a break, ``finally`` that returns or
breaks, the ``except ... as e`` name unbound after its block, ``sys.exc_info()``,
``with`` blocks whose ``__exit__`` swallows a graph's error after the program mutated
its inputs, ``warnings.catch_warnings`` and ``np.errstate`` entered before a break and
left after it, context variables set in the compiled code and read by callees, and
``__del__``/weakref callbacks of objects made in loops with breaks.

    >>> def _exit_swallows_after_write(x, s):
    ...     x[0] = 5.0
    ...     with s:
    ...         np.linalg.inv(np.zeros((2, 2)))   # raises in the graph; __exit__ swallows
    ...     return x
"""

import contextvars
import sys
import warnings
import weakref

import numpy as np
from hostile_check import Programs

reg = Programs("round14_flow")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
Z = np.array([0.0, 1.0, -1.0, 2.0])
SING = np.zeros((2, 2))
EYE = np.eye(2)


def _brk():
    print("break")


class Swallow:
    def __init__(self):
        self.log = []

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, tb):
        self.log.append(None if kind is None else kind.__name__)
        return True


class Passes:
    def __init__(self):
        self.log = []

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        self.log.append(None if kind is None else str(value))
        return False


# --------------------------------------------------------------- exceptions and breaks

def _raise_after_break(x, m):
    y = x * 2
    _brk()
    return np.linalg.inv(m) @ y[:2]


def _catch_after_break(x, m):
    y = x * 2
    _brk()
    try:
        return np.linalg.inv(m) @ y[:2]
    except np.linalg.LinAlgError as e:
        return str(e), y


def _catch_across_break(x, m):
    try:
        y = x + 1
        _brk()
        z = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        return "caught", y
    return z, y


def _chain_across_break(x, m):
    try:
        np.linalg.inv(m)
    except np.linalg.LinAlgError as e:
        _brk()
        raise ValueError("wrapped") from e
    return x


def _context_across_break(x, m):
    try:
        np.linalg.inv(m)
    except np.linalg.LinAlgError:
        _brk()
        raise KeyError("during")
    return x


def _exc_info_after_break(x, m):
    try:
        np.linalg.inv(m)
    except np.linalg.LinAlgError:
        y = x * 2
        _brk()
        kind = sys.exc_info()[0]
        return kind.__name__ if kind else None, y
    return sys.exc_info()[0], x


def _name_unbound_after_except(x):
    try:
        raise ValueError("v")
    except ValueError as e:
        y = x + len(str(e))
    try:
        e
    except NameError as n:
        return str(n), y


def _finally_returns(x, m):
    try:
        return np.linalg.inv(m)
    finally:
        return x * 2   # noqa: B012 (on purpose)


def _finally_breaks(x, m):
    out = []
    for i in range(3):
        try:
            out.append(float(np.linalg.inv(m)[0, 0]) + i)
        finally:
            if i == 1:
                break   # noqa: B012 (on purpose)
    return out, x


def _finally_runs_with_break(x, m, log):
    try:
        y = x * 3
        _brk()
        return np.linalg.inv(m) @ y[:2]
    finally:
        log.append("finally")


def _except_writes_input(x, m):
    try:
        x[0] = 7.0
        np.linalg.inv(m)
        x[1] = 8.0
    except np.linalg.LinAlgError:
        x[2] = 9.0
    return x


def _nested_handlers(x, m):
    try:
        try:
            np.linalg.inv(m)
        except TypeError:
            return "wrong handler"
        finally:
            x[0] = -1.0
    except np.linalg.LinAlgError as e:
        return type(e).__name__, x
    return "none", x


for fn in (_raise_after_break, _catch_after_break, _catch_across_break,
           _chain_across_break, _context_across_break, _exc_info_after_break,
           _finally_returns, _finally_breaks, _except_writes_input, _nested_handlers):
    case(fn, lambda: (X.copy(), EYE.copy()), lambda: (X.copy(), SING.copy()),
         name=fn.__name__.removeprefix("_"))
case(_name_unbound_after_except, (X,))
case(_finally_runs_with_break, lambda: (X.copy(), EYE.copy(), []),
     lambda: (X.copy(), SING.copy(), []))


# ---------------------------------------------------------------- __exit__ that swallows

def _exit_swallows_after_write(x, s):
    x[0] = 5.0
    with s:
        x[1] = 6.0
        np.linalg.inv(SING)
        x[2] = 7.0
    return x, s.log


def _exit_swallows_fp(x, s):
    y = x.copy()
    with s:
        with np.errstate(divide="raise"):
            y = x / np.zeros_like(x)
    return y, s.log


def _exit_swallows_index(x, s, i):
    y = x + 1
    with s:
        y = y[i]
    return y, s.log


def _exit_swallows_after_break(x, s):
    with s:
        y = x * 2
        _brk()
        raise ValueError("after break")
    return y, s.log


def _exit_passes_graph_error(x, s):
    try:
        with s:
            return np.linalg.inv(SING) + x[0]
    except np.linalg.LinAlgError:
        return "outer", s.log


def _exit_sees_value(x, s, m):
    with s:
        np.linalg.cholesky(m)
    return x, s.log


case(_exit_swallows_after_write, lambda: (X.copy(), Swallow()))
case(_exit_swallows_fp, lambda: (X.copy(), Swallow()))
case(_exit_swallows_index, lambda: (X.copy(), Swallow(), 2), lambda: (X.copy(), Swallow(), 9))
case(_exit_swallows_after_break, lambda: (X.copy(), Swallow()))
case(_exit_passes_graph_error, lambda: (X.copy(), Passes()))
case(_exit_sees_value, lambda: (X.copy(), Passes(), EYE.copy()),
     lambda: (X.copy(), Passes(), -EYE))


# --------------------------------------------------------- warnings and errstate over a break

def _catch_warnings_over_break(x):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        y = np.log(x)
        _brk()
        z = np.sqrt(x)
    return y, z, [str(w.message) for w in got]


def _error_filter_over_break(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        _brk()
        try:
            return np.log(x)
        except RuntimeWarning as w:
            return "raised " + str(w)


def _errstate_over_break(x):
    with np.errstate(divide="ignore", invalid="raise"):
        y = np.log(x)
        _brk()
        try:
            return y, np.sqrt(x)
        except FloatingPointError as e:
            return y, str(e)


def _filter_set_in_function(x):
    warnings.simplefilter("ignore")
    y = np.log(x)
    warnings.resetwarnings()
    warnings.simplefilter("always")
    return y, np.log(x)


case(_catch_warnings_over_break, (X,), (Z,))
case(_error_filter_over_break, (X,), (Z,))
case(_errstate_over_break, (X,), (Z,), (np.abs(X),))
case(_filter_set_in_function, (Z,))


# ------------------------------------------------------------------------ context vars

LEVEL = contextvars.ContextVar("level", default=1)


def _read_level(y):
    return y * LEVEL.get()


def _set_then_callee(x):
    token = LEVEL.set(4)
    y = _read_level(x)
    _brk()
    z = _read_level(x)
    LEVEL.reset(token)
    return y, z, _read_level(x)


def _set_in_loop(x):
    out = []
    for k in range(3):
        LEVEL.set(k)
        out.append(_read_level(x)[0])
    LEVEL.set(1)
    return out


def _copy_context_run(x):
    ctx = contextvars.copy_context()
    return ctx.run(lambda: (LEVEL.set(9), _read_level(x))[1]), LEVEL.get()


case(_set_then_callee, (X,))
case(_set_in_loop, (X,))
case(_copy_context_run, (X,))


@scenario
def level_set_between_calls(r):
    def g(x):
        return x + LEVEL.get()
    f = r.compile(g)
    r.call(f, X.copy())
    token = LEVEL.set(10)
    r.call(f, X.copy())
    LEVEL.reset(token)
    r.call(f, X.copy())


# ---------------------------------------------------------------- __del__ and finalizers

class Noisy:
    def __init__(self, log, name):
        self.log, self.name = log, name

    def __del__(self):
        self.log.append(f"del {self.name}")


class Plain:
    pass


def _made_in_loop_with_break(x, log):
    for i in range(3):
        n = Noisy(log, str(i))   # noqa: F841 (its end is what counts)
        x = x + 1
        if i == 1:
            _brk()
    log.append("end")
    return x


def _finalizer_with_break(x, log):
    p = Plain()
    weakref.finalize(p, log.append, "finalized")
    y = x * 2
    _brk()
    p = None
    log.append("after")
    return y


def _del_in_except(x, log):
    a = Noisy(log, "a")
    try:
        np.linalg.inv(SING)
    except np.linalg.LinAlgError:
        del a
        log.append("handled")
    return x


def _weakref_dies_at_return(x, log):
    p = Plain()
    r = weakref.ref(p, lambda ref: log.append("callback"))
    y = x + 1
    log.append(r() is p)
    return y


case(_made_in_loop_with_break, lambda: (X.copy(), []))
case(_finalizer_with_break, lambda: (X.copy(), []))
case(_del_in_except, lambda: (X.copy(), []))
case(_weakref_dies_at_return, lambda: (X.copy(), []))


# ------------------------------------------------------------------------- more flow

def _else_clause(x, m):
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        return "singular"
    else:
        return inv @ x[:2]
    finally:
        x[3] = 0.0


def _tuple_of_handlers(x, i):
    try:
        return x[i] / x[0]
    except (KeyError, IndexError) as e:
        return type(e).__name__


def _assert_array(x):
    assert (x > -10).all(), f"bad {x.min()}"
    assert x.sum() > 100, "small sum"
    return x


def _stop_iteration_in_genexpr(x):
    def gen():
        yield 1
        raise StopIteration
    try:
        return list(v for v in gen()), x
    except RuntimeError as e:
        return str(e), x * 2


def _return_inside_swallow(x, s):
    with s:
        return x * 2
    return "unreached"


def _raise_in_callee_after_break(x):
    def inner(y):
        _brk()
        return np.linalg.inv(y.reshape(2, 2) * 0)
    try:
        return inner(x)
    except np.linalg.LinAlgError as e:
        return "caught " + str(e)


def _exception_kept_in_list(x, m, keep):
    try:
        np.linalg.inv(m)
    except np.linalg.LinAlgError as e:
        keep.append(e)
    return x + len(keep)


def _except_star_with_graph(x):
    try:
        raise ExceptionGroup("g", [ValueError("a"), KeyError("b")])
    except* ValueError:
        y = x * 2
    except* KeyError:
        y = x * 3
    return y


def _modified_args_reraise(x, m):
    try:
        np.linalg.inv(m)
    except np.linalg.LinAlgError as e:
        e.args = ("changed",) + e.args
        raise
    return x


def _swallow_in_loop_with_break(x, s):
    acc = x.copy()
    for i in range(3):
        with s:
            acc = acc + i
            if i == 1:
                _brk()
                raise ValueError(i)
    return acc, s.log


case(_else_clause, lambda: (X.copy(), EYE.copy()), lambda: (X.copy(), SING.copy()))
case(_tuple_of_handlers, (X, 1), (X, 10))
case(_assert_array, (X,), (X * 100,))
case(_stop_iteration_in_genexpr, (X,))
case(_return_inside_swallow, lambda: (X.copy(), Swallow()))
case(_raise_in_callee_after_break, (X,))
case(_exception_kept_in_list, lambda: (X.copy(), SING.copy(), []),
     lambda: (X.copy(), EYE.copy(), []))
case(_except_star_with_graph, (X,))
case(_modified_args_reraise, lambda: (X.copy(), SING.copy()))
case(_swallow_in_loop_with_break, lambda: (X.copy(), Swallow()))


def _two_noisy_at_return(x, log):
    a = Noisy(log, "a")   # noqa: F841 (its end is what counts)
    b = Noisy(log, "b")   # noqa: F841 (its end is what counts)
    y = x * 2
    _brk()
    return y


def _weakref_kept_past_break(x, log):
    p = Plain()
    y = x + 1
    _brk()
    r = weakref.ref(p, lambda ref: log.append("callback"))
    log.append(r() is p)
    return y


def _weakref_made_before_break(x, log):
    p = Plain()
    r = weakref.ref(p, lambda ref: log.append("callback"))
    y = x + 1
    _brk()
    log.append(r() is p)
    return y


case(_two_noisy_at_return, lambda: (X.copy(), []))
case(_weakref_kept_past_break, lambda: (X.copy(), []))
case(_weakref_made_before_break, lambda: (X.copy(), []))


def _weakref_single_break(x, log):
    p = Plain()
    r = weakref.ref(p, lambda ref: log.append("callback"))   # noqa: F841 (its end counts)
    return x + 1


case(_weakref_single_break, lambda: (X.copy(), []))
