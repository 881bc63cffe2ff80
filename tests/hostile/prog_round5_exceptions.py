"""Round 5, exceptions: errors the translator models inside ``try`` (class, ``args``,
``str``, ``__context__``, ``__cause__``, ``__traceback__``), ``except*`` and
ExceptionGroup, ``finally`` ordering with returns and breaks, exceptions in
``__exit__`` and ``__enter__``, errors raised by NumPy for shapes the trace knows,
exceptions carried out of the function, and exceptions across graph breaks."""

import contextlib
import sys
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round5_exceptions")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
M = np.arange(6.0).reshape(2, 3)


class MyError(Exception):
    pass


class WithInit(Exception):
    def __init__(self, a, b=2):
        super().__init__(a)
        self.b = b


# ============================================================================ modelled

def _index_error_caught(x, i):
    try:
        return x[i]
    except IndexError as e:
        return "idx", e.args, str(e)


case(_index_error_caught, (X, 10), (X, -5), (X, 1))


def _broadcast_error_caught(x, y):
    try:
        return x + y
    except ValueError as e:
        return "shape", str(e)


case(_broadcast_error_caught, (X, M), (M, M[0]), (M, X))


def _reshape_error_caught(x, n):
    try:
        return x.reshape(n, 3)
    except ValueError as e:
        return type(e).__name__, e.args


case(_reshape_error_caught, (X, 2), (M, 2))


def _matmul_error_caught(a, b):
    try:
        return a @ b
    except ValueError as e:
        return "matmul", str(e)


case(_matmul_error_caught, (M, M), (M, M.T))


def _key_error_caught(x, d, k):
    try:
        return x * d[k]
    except KeyError as e:
        return "key", e.args, str(e)


case(_key_error_caught, (X, {"a": 2.0}, "b"), (X, {"a": 2.0}, "a"), (X, {}, ("t", 1)))


def _attribute_error_caught(x, o):
    try:
        return x * o.missing
    except AttributeError as e:
        return "attr", e.name if hasattr(e, "name") else None, type(e).__name__


class Empty:
    pass


case(_attribute_error_caught, (X, Empty()), (X, 3))


def _zero_div_caught_context(x, n):
    try:
        try:
            return x * (1 / n)
        except ZeroDivisionError:
            raise MyError("wrapped")
    except MyError as e:
        return type(e.__context__).__name__, e.__suppress_context__, e.__cause__


case(_zero_div_caught_context, (X, 0), (X, 2))


def _raise_from_caught(x, n):
    try:
        try:
            return x[n]
        except IndexError as inner:
            raise MyError("outer") from inner
    except MyError as e:
        return type(e.__cause__).__name__, e.__suppress_context__, str(e)


case(_raise_from_caught, (X, 10), (X, 0))


def _raise_from_none_caught(x):
    try:
        try:
            x[10]
        except IndexError:
            raise KeyError("k") from None
    except KeyError as e:
        return e.__cause__, e.__suppress_context__, type(e.__context__).__name__


case(_raise_from_none_caught, (X,))


def _traceback_of_caught(x):
    try:
        x[10]
    except IndexError as e:
        tb = e.__traceback__
        return tb is not None, tb.tb_frame.f_code.co_name if tb else None


case(_traceback_of_caught, (X,))


def _traceback_lineno(x):
    try:
        y = x * 2
        y[10]
    except IndexError as e:
        return e.__traceback__.tb_lineno - _traceback_lineno.__code__.co_firstlineno


case(_traceback_lineno, (X,))


def _exc_info_inside(x):
    try:
        x[10]
    except IndexError:
        t, v, tb = sys.exc_info()
        return t.__name__, type(v).__name__, tb is not None
    return None


case(_exc_info_inside, (X,))


def _exc_info_after(x):
    try:
        x[10]
    except IndexError:
        pass
    return sys.exc_info(), x + 1


case(_exc_info_after, (X,))


def _exception_var_deleted(x):
    try:
        x[10]
    except IndexError as e:
        err = e
    try:
        return e  # noqa: F821
    except NameError:
        return "e is gone", type(err).__name__


case(_exception_var_deleted, (X,))


def _custom_init_exception(x):
    try:
        raise WithInit("a", b=x.sum())
    except WithInit as e:
        return e.args, e.b


case(_custom_init_exception, (X,))


def _exception_attrs_set(x):
    try:
        e = MyError("m")
        e.payload = x * 2
        raise e
    except MyError as err:
        return err.payload, err.args


case(_exception_attrs_set, (X,))


def _exception_notes(x):
    try:
        try:
            x[10]
        except IndexError as e:
            e.add_note("note " + str(x.shape))
            raise
    except IndexError as e:
        return e.__notes__


case(_exception_notes, (X,))


def _exception_group_star(x):
    try:
        raise ExceptionGroup("g", [ValueError("v"), KeyError("k")])
    except* ValueError as eg:
        v = [str(e) for e in eg.exceptions]
    except* KeyError as eg:
        k = [repr(e) for e in eg.exceptions]
    return x * len(v), v, k


case(_exception_group_star, (X,))


def _exception_group_partial(x):
    try:
        try:
            raise ExceptionGroup("g", [ValueError("v"), TypeError("t")])
        except* ValueError:
            x = x + 1
    except ExceptionGroup as eg:
        return x, [type(e).__name__ for e in eg.exceptions], eg.message


case(_exception_group_partial, (X,))


def _exception_group_from_array_errors(x):
    errors = []
    for i in (1, 10, 2, 20):
        try:
            x[i]
        except IndexError as e:
            errors.append(e)
    try:
        raise ExceptionGroup("many", errors)
    except* IndexError as eg:
        n = len(eg.exceptions)
    return n, x


case(_exception_group_from_array_errors, (X,))


# ============================================================================ finally

# `return` in `finally` (a SyntaxWarning on 3.14, PEP 765): compiled from a string with
# that warning silenced
_FINALLY_RETURNS = """
def _finally_return_overrides(x):
    try:
        return x * 2
    finally:
        return x * 3


def _finally_swallows_exception(x):
    try:
        x[10]
    finally:
        return "swallowed"
"""
with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)
    exec(compile(_FINALLY_RETURNS, __file__, "exec"), globals())

case(_finally_return_overrides, (X,))  # noqa: F821
case(_finally_swallows_exception, (X,))  # noqa: F821


def _finally_order_with_print(x, log):
    try:
        log.append("try")
        print("in try")
        return x + 1
    finally:
        log.append("finally")
        print("in finally")


case(_finally_order_with_print, (X, []))


def _finally_in_loop_break(x, log):
    for i in range(3):
        try:
            if i == 1:
                break
            x = x + i
        finally:
            log.append(i)
    return x


case(_finally_in_loop_break, (X, []))


def _finally_in_loop_continue(x, log):
    for i in range(3):
        try:
            if i == 1:
                continue
            x = x * 2
        finally:
            log.append(("f", i))
    else:
        log.append("else")
    return x


case(_finally_in_loop_continue, (X, []))


def _nested_finally_exception(x, log):
    try:
        try:
            x[10]
        finally:
            log.append("inner")
    except IndexError:
        log.append("caught")
    finally:
        log.append("outer")
    return x


case(_nested_finally_exception, (X, []))


def _exception_in_finally_replaces(x):
    try:
        try:
            x[10]
        finally:
            {}["k"]
    except KeyError as e:
        return type(e.__context__).__name__


case(_exception_in_finally_replaces, (X,))


def _finally_modifies_returned_list(x):
    out = [x]
    try:
        return out
    finally:
        out.append(x * 2)


case(_finally_modifies_returned_list, (X,))


# ============================================================================ context managers

class CM:
    def __init__(self, log, suppress=False, fail_exit=False, fail_enter=False):
        self.log, self.suppress = log, suppress
        self.fail_exit, self.fail_enter = fail_exit, fail_enter

    def __enter__(self):
        self.log.append("enter")
        if self.fail_enter:
            raise MyError("enter failed")
        return self

    def __exit__(self, tp, val, tb):
        self.log.append(("exit", tp.__name__ if tp else None))
        if self.fail_exit:
            raise KeyError("exit failed")
        return self.suppress


def _with_exit_raises(x, log):
    try:
        with CM(log, fail_exit=True):
            y = x * 2
        return y
    except KeyError as e:
        return "exit", str(e), e.__context__


case(_with_exit_raises, (X, []))


def _with_exit_raises_during_exception(x, log):
    try:
        with CM(log, fail_exit=True):
            x[10]
    except KeyError as e:
        return type(e.__context__).__name__


case(_with_exit_raises_during_exception, (X, []))


def _with_enter_raises(x, log):
    try:
        with CM(log, fail_enter=True):
            log.append("body")
    except MyError as e:
        return str(e), x


case(_with_enter_raises, (X, []))


def _with_suppress_index(x, log):
    with CM(log, suppress=True):
        y = x * 2
        y[10]
        log.append("not reached")
    return x


case(_with_suppress_index, (X, []))


def _with_suppress_returns(x, log):
    with CM(log, suppress=True):
        return x + 1


case(_with_suppress_returns, (X, []))


def _contextlib_suppress(x):
    with contextlib.suppress(IndexError):
        return x[10]
    return "suppressed"


case(_contextlib_suppress, (X,))


def _nested_cms(x, log):
    with CM(log) as a, CM(log, suppress=True) as b:
        log.append(a is b)
        x[10]
    return x


case(_nested_cms, (X, []))


@contextlib.contextmanager
def _gen_cm(log):
    log.append("start")
    try:
        yield 2.0
    except IndexError:
        log.append("handled in cm")
    finally:
        log.append("cm finally")


def _generator_cm_handles(x, log):
    with _gen_cm(log) as k:
        y = x * k
        y[10]
    return "after", x


case(_generator_cm_handles, (X, []))


def _warnings_catch_inside(x):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y = np.log(x)
    return y, [str(i.message) for i in w]


case(_warnings_catch_inside, (X,))


def _warnings_as_error(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return np.log(x)
        except RuntimeWarning as e:
            return "warn", str(e)


case(_warnings_as_error, (X,), (np.abs(X),))


def _errstate_raise_in_try(x):
    try:
        with np.errstate(divide="raise"):
            return x / 0.0
    except FloatingPointError as e:
        return str(e)


case(_errstate_raise_in_try, (X,))


# ============================================================================ breaks

def _raise_after_print(x, log):
    log.append(1)
    print("before")
    log.append(2)
    raise MyError("after print", x.shape)


case(_raise_after_print, (X, []))


def _raise_in_helper_after_mutation(x, log):
    def helper(y):
        log.append("helper")
        y[0] = 100.0
        raise MyError("helper")
    try:
        helper(x)
    except MyError:
        log.append("caught")
    return x


case(_raise_in_helper_after_mutation, lambda: (X.copy(), []))


def _assert_fails(x):
    try:
        assert x.shape == (3,), "shape"
    except AssertionError as e:
        return str(e)
    return x


case(_assert_fails, (X,), (X[:3],))


def _assert_on_data(x):
    try:
        assert (x > 0).all(), "negative"
        return x
    except AssertionError as e:
        return "assert", str(e)


case(_assert_on_data, (X,), (np.abs(X),))


def _stop_iteration_from_next(x):
    it = iter([x])
    next(it)
    try:
        next(it)
    except StopIteration as e:
        return "stop", e.value, e.args


case(_stop_iteration_from_next, (X,))


def _next_default(x):
    it = iter([])
    return next(it, x * 2)


case(_next_default, (X,))


def _int_of_array_error(x):
    try:
        return int(x)
    except TypeError as e:
        return "type", str(e)


case(_int_of_array_error, (X,), (X[:1],), (np.array(2.5),))


def _bool_of_array_error(x):
    try:
        if x:
            return 1
        return 0
    except ValueError as e:
        return str(e)


case(_bool_of_array_error, (X,), (X[:1],), (np.zeros(0),))


def _linalg_error_caught(a):
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError as e:
        return "singular", str(e)


case(_linalg_error_caught, (np.zeros((2, 2)),), (np.eye(2),))


def _axis_error_caught(x, ax):
    try:
        return x.sum(axis=ax)
    except np.exceptions.AxisError as e:
        return "axis", str(e), isinstance(e, IndexError), isinstance(e, ValueError)


case(_axis_error_caught, (X, 1), (X, 0), (M, 2), (M, -3))


def _type_error_of_op(x, s):
    try:
        return x + s
    except (TypeError, np._core._exceptions._UFuncNoLoopError) as e:
        return type(e).__name__


case(_type_error_of_op, (X, "a"), (X, 1))


def _exception_escapes_with_mutation(x, d):
    d["before"] = x.sum()
    x += 1
    d["k"] = d["missing"]


case(_exception_escapes_with_mutation, lambda: (X.copy(), {}))


def _reraise_bare_after_break(x):
    try:
        x[10]
    except IndexError:
        print("handling")
        raise


case(_reraise_bare_after_break, (X,))


def _raise_class_not_instance(x, n):
    try:
        if n:
            raise MyError
        raise ValueError
    except (MyError, ValueError) as e:
        return type(e).__name__, e.args, x


case(_raise_class_not_instance, (X, 1), (X, 0))


def _raise_non_exception(x):
    try:
        raise 42  # noqa: B016
    except TypeError as e:
        return str(e), x


case(_raise_non_exception, (X,))


def _except_tuple_built(x, kinds):
    try:
        x[10]
    except kinds as e:
        return type(e).__name__


case(_except_tuple_built, (X, (KeyError, IndexError)), (X, IndexError), (X, (LookupError,)))


def _except_non_class_spec(x, kinds):
    try:
        try:
            x[10]
        except kinds:
            return "caught"
    except TypeError as e:
        return "bad spec", str(e)


case(_except_non_class_spec, (X, 3), (X, IndexError))
