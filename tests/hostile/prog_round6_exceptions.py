"""Round 6, exceptions and warnings: ``__cause__``/``__context__`` chains and
``add_note`` around graph ops, ``ExceptionGroup`` and ``except*``, ``sys.exc_info()``
inside ``except``, ``traceback`` formatting of exceptions raised in graph code (the
program's own frames must be there), ``warnings.catch_warnings(record=True)`` and
``simplefilter("error")`` around graph ops, exceptions in ``__del__`` and in user
``__eq__`` used by the graph: each must be exact or fall back."""

import sys
import traceback
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round6_exceptions")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
SING = np.array([[1.0, 2.0], [2.0, 4.0]])


class AppError(Exception):
    pass


# ============================================================================ chains

def _raise_from_graph_error(x, i):
    y = x * 2
    try:
        return y[i]
    except IndexError as e:
        raise AppError(f"bad index {i}") from e


case(_raise_from_graph_error, (X, 1), (X, 9))


def _raise_from_none(x, i):
    try:
        return x[i] * 2
    except IndexError:
        raise AppError("hidden") from None


case(_raise_from_none, (X, 8))


def _implicit_context(x):
    try:
        np.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise KeyError("while handling")


case(_implicit_context, (SING,))


def _add_note_after_graph(x, i):
    y = np.cumsum(x)
    try:
        return y[i]
    except IndexError as e:
        e.add_note(f"sum was {y[-1]}")
        raise


case(_add_note_after_graph, (X, 10))


def _notes_visible(x):
    try:
        np.linalg.cholesky(-np.eye(2) * x[0])
    except np.linalg.LinAlgError as e:
        e.add_note("note 1")
        e.add_note("note 2")
        return e.__notes__, str(e)


case(_notes_visible, (X,))


def _reraise_changes_traceback_not_value(x):
    try:
        try:
            return np.array([1, 2])[x.astype(int)]
        except IndexError as inner:
            raise inner
    except IndexError as outer:
        return str(outer), outer.__context__ is None


case(_reraise_changes_traceback_not_value, (X,))


def _exception_args_with_array(x):
    try:
        raise ValueError(x * 2, "tag")
    except ValueError as e:
        return e.args[0] + 1, e.args[1]


case(_exception_args_with_array, (X,))


def _exception_attribute_set(x):
    try:
        raise AppError("a")
    except AppError as e:
        e.payload = x.sum()
        return e.payload, sorted(vars(e))


case(_exception_attribute_set, (X,))


def _except_variable_deleted(x):
    try:
        x[99]
    except IndexError as e:  # noqa: F841 (the name is unbound after the block)
        pass
    try:
        return e  # noqa: F821
    except NameError as n:
        return str(n)


case(_except_variable_deleted, (X,))


def _raise_in_finally_replaces(x):
    try:
        try:
            return x[9]
        finally:
            raise AppError("from finally")
    except AppError as e:
        return type(e.__context__).__name__


case(_raise_in_finally_replaces, (X,))


def _exception_in_else(x):
    try:
        y = x * 2
    except Exception:
        return "except"
    else:
        try:
            return y[100]
        except IndexError as e:
            return "else", str(e)


case(_exception_in_else, (X,))


# ============================================================================ groups

def _exception_group_split(x):
    eg = ExceptionGroup("many", [ValueError("v"), IndexError("i"), KeyError("k")])
    match, rest = eg.split(ValueError)
    return x * len(match.exceptions), len(rest.exceptions)


case(_exception_group_split, (X,))


def _except_star(x, log):
    try:
        raise ExceptionGroup("g", [ValueError(1), TypeError(2)])
    except* ValueError as eg:
        log.append(("v", len(eg.exceptions)))
    except* TypeError as eg:
        log.append(("t", [str(e) for e in eg.exceptions]))
    return x * 2, log


case(_except_star, (X, []))


def _except_star_partial_reraise(x, log):
    try:
        try:
            raise ExceptionGroup("g", [ValueError(1), KeyError(2)])
        except* ValueError:
            log.append("v handled")
    except ExceptionGroup as eg:
        return x, [type(e).__name__ for e in eg.exceptions], log
    return None


case(_except_star_partial_reraise, (X, []))


def _exception_group_from_graph_errors(x):
    errors = []
    for i in (0, 9, 1, 12):
        try:
            x[i]
        except IndexError as e:
            errors.append(e)
    if errors:
        try:
            raise ExceptionGroup("indexing", errors)
        except ExceptionGroup as eg:
            return len(eg.exceptions), str(eg)
    return 0


case(_exception_group_from_graph_errors, (X,))


def _except_star_naked(x):
    try:
        raise ValueError("plain")
    except* ValueError as eg:
        seen = type(eg).__name__
    return seen, x.sum()


case(_except_star_naked, (X,))


# ============================================================================ exc_info

def _exc_info_inside(x):
    try:
        np.linalg.inv(x)
    except np.linalg.LinAlgError:
        t, v, tb = sys.exc_info()
        return t.__name__, str(v), tb is not None
    return None


case(_exc_info_inside, (SING,), (np.eye(2),))


def _exc_info_after(x):
    try:
        x[10]
    except IndexError:
        pass
    return sys.exc_info(), x * 2


case(_exc_info_after, (X,))


def _exception_function(x):
    try:
        1 / x.astype(int)[0:1] // 0
    except ZeroDivisionError:
        return "zde"
    except Exception:
        return type(sys.exception()).__name__ if hasattr(sys, "exception") else "old"
    return x


case(_exception_function, (X,))


def _nested_exc_info(x):
    try:
        raise KeyError("outer")
    except KeyError:
        try:
            x[50]
        except IndexError:
            inner = sys.exc_info()[0].__name__
        outer = sys.exc_info()[0].__name__
    return inner, outer


case(_nested_exc_info, (X,))


# ============================================================================ traceback

def _format_exc_has_user_frames(x):
    y = x * 2
    try:
        return y[[0, 40]]
    except IndexError:
        text = traceback.format_exc()
        names = [fs.name for fs in traceback.extract_tb(sys.exc_info()[2])]
        return "_format_exc_has_user_frames" in text, names[-1:], text.splitlines()[-1]


case(_format_exc_has_user_frames, (X,))


def _deep_raiser(x):
    return np.linalg.inv(x)


def _tb_through_helper(x):
    try:
        return _deep_raiser(x * 1.0)
    except np.linalg.LinAlgError as e:
        names = [fs.name for fs in traceback.extract_tb(e.__traceback__)]
        return names[:2], str(e)


case(_tb_through_helper, (SING,))


def _format_exception_only(x):
    try:
        x.reshape(3, 3)
    except ValueError as e:
        return traceback.format_exception_only(type(e), e)


case(_format_exception_only, (X,))


def _tb_lineno(x):
    try:
        y = x * 2
        z = y[[7]]  # this line raises
        return z
    except IndexError as e:
        tb = e.__traceback__
        return tb.tb_lineno - _tb_lineno.__code__.co_firstlineno, tb.tb_frame.f_code.co_name


case(_tb_lineno, (X,))


def _with_traceback_replaced(x):
    try:
        raise AppError("x").with_traceback(None)
    except AppError as e:
        return e.__traceback__.tb_next is None, x.sum()


case(_with_traceback_replaced, (X,))


def _uncaught_from_helper(x):
    y = x * 2
    return _deep_raiser(y.reshape(2, 2) * 0)


@scenario
def s_uncaught_traceback_names(r):
    """The traceback of an error escaping a compiled function lists the user's frames."""
    f = r.compile(_uncaught_from_helper)
    for _ in range(2):
        try:
            f(X)
        except np.linalg.LinAlgError as e:
            # (dynamo's own frames may come between: the wrapper, the dispatcher)
            r.see("user frames", [(fs.name, fs.lineno, fs.line) for fs in
                                  traceback.extract_tb(e.__traceback__)
                                  if fs.filename == __file__ or fs.name == "inv"])
            r.see("last line", traceback.format_exception(e)[-1])


# ============================================================================ warnings

def _record_warnings_around_graph(x):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = np.log(x)
        z = np.sqrt(x)
    return y, z, [(w.category.__name__, str(w.message)) for w in caught]


case(_record_warnings_around_graph, (X,), (np.abs(X),))


def _simplefilter_error_graph(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return np.log(x)
        except RuntimeWarning as w:
            return "raised", str(w)


case(_simplefilter_error_graph, (X,), (np.abs(X),))


def _filter_error_mutation_before(x, log):
    log.append("before")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            y = 1.0 / (x * 0)
        except RuntimeWarning:
            log.append("caught")
            y = None
    log.append("after")
    return y


case(_filter_error_mutation_before, (X, []))


def _user_warning_in_graph(x):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = x * 2
        warnings.warn(f"sum {y.sum()}", UserWarning)  # noqa: B028 (on purpose)
        z = y + 1
    return z, [str(w.message) for w in caught]


case(_user_warning_in_graph, (X,))


def _warning_category_filter(x):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        warnings.filterwarnings("always", category=RuntimeWarning, message="divide")
        a = 1 / (x * 0)
        b = np.log(x)
    return a, b, [str(w.message) for w in caught]


case(_warning_category_filter, (X,))


def _warning_as_error_exits_function(x):
    y = np.sqrt(x)
    return y


@scenario
def s_warning_filter_changed_between_calls(r):
    f = r.compile(_warning_as_error_exits_function)
    r.call(f, X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r.call(f, X)
    r.call(f, X)


def _complex_warning(x):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        z = (x + 1j).astype(float)
    return z, [w.category.__name__ for w in caught]


case(_complex_warning, (X,))


def _deprecation_warning_in_callee(x):
    def old(v):
        warnings.warn("old api", DeprecationWarning)  # noqa: B028 (on purpose)
        return v * 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = old(x)
    return y, [(w.category.__name__, str(w.message)) for w in caught]


case(_deprecation_warning_in_callee, (X,))


def _warning_registry_once(x):
    for _ in range(3):
        warnings.warn("repeat", UserWarning)  # noqa: B028 (on purpose)
    return x * 2


case(_warning_registry_once, (X,))


def _errstate_call_handler(x, log):
    def handler(kind, flag):
        log.append(kind)
    old = np.seterrcall(handler)
    try:
        with np.errstate(all="call"):
            y = 1.0 / (x * 0)
            z = np.log(x)
    finally:
        np.seterrcall(old)
    return y, z, log


case(_errstate_call_handler, (X, []))


def _errstate_log_object(x):
    class Log:
        def __init__(self):
            self.msgs = []

        def write(self, msg):
            self.msgs.append(msg)
    lg = Log()
    old = np.seterrcall(lg)
    try:
        with np.errstate(divide="log"):
            y = 1.0 / (x * 0)
    finally:
        np.seterrcall(old)
    return y, lg.msgs


case(_errstate_log_object, (X,))


# ============================================================================ odd raises

class BadEq:
    def __eq__(self, other):
        raise RuntimeError("no eq")

    __hash__ = object.__hash__


def _list_index_uses_eq(x, items):
    try:
        return items.index(3), x
    except RuntimeError as e:
        return str(e)


case(_list_index_uses_eq, (X, [BadEq(), 3]))


def _in_operator_eq_raises(x, items):
    try:
        return 3 in items
    except RuntimeError as e:
        return str(e), x * 2


case(_in_operator_eq_raises, (X, [BadEq()]))


class BadRepr:
    def __repr__(self):
        raise ValueError("no repr")


def _format_bad_repr(x, o):
    try:
        return f"{o!r}"
    except ValueError as e:
        return str(e), x.sum()


case(_format_bad_repr, (X, BadRepr()))


def _raise_non_exception(x):
    try:
        raise 3  # noqa: B016 (on purpose)
    except TypeError as e:
        return str(e), x


case(_raise_non_exception, (X,))


def _raise_class_not_instance(x):
    try:
        raise AppError
    except AppError as e:
        return e.args, x + 1


case(_raise_class_not_instance, (X,))


def _assert_with_array(x):
    try:
        assert (x > 0).all(), f"negatives: {x[x < 0]}"
        return x
    except AssertionError as e:
        return str(e)


case(_assert_with_array, (X,), (np.abs(X),))


def _stop_iteration_escaping(x):
    it = iter([])
    try:
        return next(it)
    except StopIteration as e:
        return "stop", e.value, x.sum()


case(_stop_iteration_escaping, (X,))


def _keyboard_interrupt_not_caught_by_exception(x):
    try:
        try:
            raise KeyboardInterrupt
        except Exception:
            return "wrong"
    except BaseException as e:
        return type(e).__name__, x * 2


case(_keyboard_interrupt_not_caught_by_exception, (X,))


def _system_exit_code(x):
    try:
        sys.exit(int(x[0]))
    except SystemExit as e:
        return e.code


case(_system_exit_code, (X,))


def _recursion_error_caught(x):
    def rec(n):
        return rec(n + 1) + x
    try:
        return rec(0)
    except RecursionError:
        return "deep"


case(_recursion_error_caught, (X,), calls=1)


def _memory_error_like(x):
    try:
        np.empty(2 ** 62, dtype=np.float64)
    except (MemoryError, ValueError) as e:
        return type(e).__name__, x.sum()
    return None


case(_memory_error_like, (X,))


def _overflow_error_int_conversion(x):
    try:
        return int(np.float64("inf"))
    except OverflowError as e:
        return str(e), x


case(_overflow_error_int_conversion, (X,))


def _value_error_nan_int(x):
    try:
        return int(x.sum() * np.nan)
    except ValueError as e:
        return str(e)


case(_value_error_nan_int, (X,))


def _axis_error(x):
    try:
        return x.sum(axis=3)
    except np.exceptions.AxisError as e:
        return str(e), isinstance(e, IndexError), isinstance(e, ValueError)


case(_axis_error, (X,))


def _broadcast_error_message(x):
    try:
        return x + np.ones(3)
    except ValueError as e:
        return str(e)


case(_broadcast_error_message, (X,))


def _exception_in_comprehension(x):
    try:
        return [1 / v for v in x.astype(int)]
    except ZeroDivisionError as e:
        return str(e)


case(_exception_in_comprehension, (np.array([1.0, 0.5]),), (X,))


def _exception_inside_sorted_key(x):
    try:
        return sorted([x, x * 2], key=lambda a: a)
    except ValueError as e:
        return str(e)[:40]


case(_exception_inside_sorted_key, (X,))


def _try_except_in_loop_counts(x, log):
    for i in range(6):
        try:
            log.append(float(x[i]))
        except IndexError:
            log.append("miss")
    return log


case(_try_except_in_loop_counts, (X, []))


def _continue_in_finally(x):
    out = []
    for v in x:
        try:
            if v < 0:
                raise ValueError
            out.append(v)
        except ValueError:
            out.append(-1.0)
        finally:
            out.append(0.0)
    return out


case(_continue_in_finally, (X,))
