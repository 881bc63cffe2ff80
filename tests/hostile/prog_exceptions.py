"""Exceptions: errors raised by array operations inside the user's own ``try/except``
(IndexError, LinAlgError, FloatingPointError under ``np.errstate``, ValueError from shape
mismatches), ``finally``, re-raise, chaining, and mutations made before the error (they
must persist: ``log.append("before"); np.linalg.inv(singular)`` leaves ``["before"]``).
What ``except`` sees (type, message, ``args``, ``__cause__``, ``__context__``) and what
the caller sees must be plain Python's."""

import sys
import traceback
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("exceptions")
case, scenario = reg.case, reg.scenario

X = np.linspace(-1, 1, 5)
SING = np.array([[1.0, 2.0], [2.0, 4.0]])
GOOD = np.array([[2.0, 1.0], [1.0, 3.0]])
LOG = []
COUNT = 0


class Box:
    def __init__(self):
        self.n = 0
        self.log = []


def _reset():
    global COUNT
    LOG.clear()
    COUNT = 0


def _watch():
    return list(LOG), COUNT


# -- caught inside the function -----------------------------------------------------------

def _index_error_caught(x, i):
    try:
        v = x[i]
    except IndexError as e:
        return "caught", str(e), type(e).__name__
    return v


case(_index_error_caught, (X, 2), (X, 7), (X, -6), (X, 4))


def _index_error_2d_caught(x, i):
    try:
        return x[0, i] * 2
    except IndexError as e:
        return str(e)


case(_index_error_2d_caught, (X.reshape(1, 5), 9), (X.reshape(1, 5), 1))


def _too_many_indices(x):
    try:
        return x[0, 0]
    except IndexError as e:
        return e.args


case(_too_many_indices, (X,))


def _fancy_index_out_of_bounds(x):
    try:
        return x[np.array([0, 5])]
    except IndexError as e:
        return repr(e)


case(_fancy_index_out_of_bounds, (X,))


def _take_out_of_bounds(x):
    try:
        return np.take(x, 10)
    except IndexError as e:
        return str(e), np.take(x, 10, mode="wrap")


case(_take_out_of_bounds, (X,))


def _float_index(x):
    try:
        return x[1.0]
    except IndexError as e:
        return type(e).__name__, str(e)


case(_float_index, (X,))


def _linalg_caught(a, log):
    log.append("before")
    try:
        inv = np.linalg.inv(a)
    except np.linalg.LinAlgError as e:
        log.append(str(e))
        return None
    log.append("after")
    return inv


case(_linalg_caught, (SING, []), (GOOD, []))


def _linalg_caught_as_valueerror(a):
    try:
        return np.linalg.solve(a, np.ones(2))
    except ValueError as e:           # LinAlgError is a ValueError
        return type(e).__qualname__, str(e)


case(_linalg_caught_as_valueerror, (SING,), (GOOD,))


def _cholesky_not_pd(a):
    try:
        return np.linalg.cholesky(a)
    except np.linalg.LinAlgError as e:
        return e.args


case(_cholesky_not_pd, (-GOOD,), (GOOD,))


def _errstate_divide_caught(x):
    with np.errstate(divide="raise"):
        try:
            return x / 0.0
        except FloatingPointError as e:
            return "fpe", str(e)


case(_errstate_divide_caught, (X,))


def _errstate_try_outside(x):
    try:
        with np.errstate(divide="raise"):
            y = x / 0.0
        return y
    except FloatingPointError as e:
        return str(e), np.geterr()["divide"]


case(_errstate_try_outside, (X,))


def _errstate_overflow(x):
    try:
        with np.errstate(over="raise"):
            return np.exp(x.astype(np.float32) * 1000)
    except FloatingPointError as e:
        return str(e)


case(_errstate_overflow, (X,))


def _errstate_invalid(x):
    try:
        with np.errstate(invalid="raise"):
            return np.sqrt(x)
    except FloatingPointError as e:
        return str(e)


case(_errstate_invalid, (X,), (np.abs(X),))


def _errstate_under(x):
    try:
        with np.errstate(under="raise"):
            return np.float32(1e-30) * x.astype(np.float32) * np.float32(1e-30)
    except FloatingPointError as e:
        return str(e)


case(_errstate_under, (X,))


def _errstate_all_raise_int(x):
    try:
        with np.errstate(all="raise"):
            return x.astype(np.int64) // 0
    except FloatingPointError as e:
        return str(e)


case(_errstate_all_raise_int, (X,))


def _shape_mismatch_caught(x, y):
    try:
        return x + y
    except ValueError as e:
        return str(e)


case(_shape_mismatch_caught, (X, np.ones(3)), (X, np.ones(5)))


def _reshape_impossible(x):
    try:
        return x.reshape(2, 3)
    except ValueError as e:
        return str(e)


case(_reshape_impossible, (X,), (np.arange(6.0),))


def _matmul_mismatch(a, b):
    try:
        return a @ b
    except ValueError as e:
        return str(e)


case(_matmul_mismatch, (np.ones((2, 3)), np.ones((2, 3))), (np.ones((2, 3)), np.ones((3, 2))))


def _broadcast_to_bad(x):
    try:
        return np.broadcast_to(x, (3, 4))
    except ValueError as e:
        return str(e)


case(_broadcast_to_bad, (X,))


def _concat_mismatch(x):
    try:
        return np.concatenate([x, x.reshape(1, 5)])
    except ValueError as e:
        return str(e)


case(_concat_mismatch, (X,))


def _ufunc_type_error(x):
    try:
        return x + "a"
    except TypeError as e:
        return type(e).__qualname__, type(e).__module__, str(e)


case(_ufunc_type_error, (X,))


def _axis_error(x):
    try:
        return x.sum(axis=3)
    except np.exceptions.AxisError as e:
        return str(e), isinstance(e, IndexError), isinstance(e, ValueError)


case(_axis_error, (X,))


def _item_of_many(x):
    try:
        return x.item()
    except ValueError as e:
        return str(e)


case(_item_of_many, (X,), (X[:1],))


def _bool_ambiguous(x):
    try:
        if x > 0:
            return 1
        return 0
    except ValueError as e:
        return str(e)


case(_bool_ambiguous, (X,), (X[:1],))


def _int_of_array(x):
    try:
        return int(x)
    except TypeError as e:
        return str(e)


case(_int_of_array, (X,), (X[3:4],))


def _empty_max(x):
    try:
        return x.max()
    except ValueError as e:
        return str(e)


case(_empty_max, (X,), (X[:0],))


def _empty_argmax(x):
    try:
        return np.argmax(x)
    except ValueError as e:
        return str(e)


case(_empty_argmax, (X[:0],), (X,))


def _stack_empty(xs):
    try:
        return np.stack(xs)
    except ValueError as e:
        return str(e)


case(_stack_empty, ([],), ([X, X],))


def _negative_dims(n):
    try:
        return np.zeros(n)
    except ValueError as e:
        return str(e)


case(_negative_dims, (-1,), (2,))


def _key_error_caught(d, k):
    try:
        return d[k] * 2
    except KeyError as e:
        return "missing", e.args


case(_key_error_caught, ({"a": X}, "b"), ({"a": X}, "a"))


def _attribute_error_caught(o):
    try:
        return o.missing
    except AttributeError as e:
        return str(e), e.name


case(_attribute_error_caught, (Box(),))


def _zero_division_from_size(x):
    try:
        return 1 // (len(x) - 5)
    except ZeroDivisionError as e:
        return str(e)


case(_zero_division_from_size, (X,), (X[:2],))


def _list_index_error(lst):
    try:
        return lst[5]
    except IndexError as e:
        return str(e)


case(_list_index_error, ([1, 2],))


def _stop_iteration_caught(xs):
    try:
        return next(iter(xs))
    except StopIteration:
        return "empty"


case(_stop_iteration_caught, ([],), ([X],))


def _assert_caught(x):
    try:
        assert x.shape[0] == 3, f"bad shape {x.shape}"
    except AssertionError as e:
        return str(e)
    return x


case(_assert_caught, (X,), (X[:3],))


def _assert_data_caught(x):
    try:
        assert (x > 0).all(), "negative values"
        return x
    except AssertionError as e:
        return e.args


case(_assert_data_caught, (X,), (np.abs(X) + 1,))


def _return_the_exception(x):
    try:
        np.linalg.inv(x)
    except Exception as e:  # noqa: BLE001
        return e
    return None


case(_return_the_exception, (SING,))


def _custom_exception(x):
    class Bad(Exception):
        def __init__(self, v):
            super().__init__(f"bad {v}")
            self.v = v
    try:
        raise Bad(x.shape[0])
    except Bad as e:
        return e.v, str(e)


case(_custom_exception, (X,))


def _except_tuple(x, i):
    try:
        return x[i] + x.reshape(2, -1)
    except (IndexError, ValueError) as e:
        return type(e).__name__


case(_except_tuple, (X, 9), (X, 1), (np.arange(6.0), 1))


def _loop_continue_on_error(xs):
    out = []
    for x in xs:
        try:
            out.append(np.linalg.inv(x))
        except np.linalg.LinAlgError:
            out.append(None)
            continue
        out.append("ok")
    return out


case(_loop_continue_on_error, ([GOOD, SING, GOOD],))


def _exc_info_inside(x):
    try:
        x[10]
    except IndexError:
        t, v, _ = sys.exc_info()
        return t.__name__, str(v)


case(_exc_info_inside, (X,))


def _traceback_names(x):
    def helper(v):
        return v[10]
    try:
        helper(x)
    except IndexError as e:
        return [f.name for f in traceback.extract_tb(e.__traceback__)]


case(_traceback_names, (X,))


def _traceback_names_graph_op(x):
    try:
        np.linalg.inv(x * 2)
    except np.linalg.LinAlgError as e:
        return [f.name for f in traceback.extract_tb(e.__traceback__)][:1]


case(_traceback_names_graph_op, (SING,))


def _warning_as_error(x):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return np.log(x)
        except RuntimeWarning as w:
            return "warned", str(w)


case(_warning_as_error, (X,), (np.abs(X) + 1,))


# -- finally, re-raise, chaining --------------------------------------------------------

def _finally_runs(x, log):
    try:
        log.append("try")
        return np.linalg.inv(x)
    finally:
        log.append("finally")


case(_finally_runs, (SING, []), (GOOD, []))


def _finally_prints(x):
    try:
        return x[10]
    finally:
        print("finally ran")


case(_finally_prints, (X,))


# `return` in `finally` swallows the IndexError. Python 3.14 warns about it when the
# source is compiled (PEP 765), so it is compiled here with that warning silenced.
_FINALLY_RETURN = """
def _finally_return_overrides(x):
    try:
        return x[10]
    finally:
        return "overridden"
"""
with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)
    exec(compile(_FINALLY_RETURN, __file__, "exec"))

case(_finally_return_overrides, (X,))  # noqa: F821 (defined by the exec above)


def _reraise_bare(x, log):
    try:
        return np.linalg.inv(x)
    except np.linalg.LinAlgError:
        log.append("handled")
        raise


case(_reraise_bare, (SING, []))


def _reraise_same_object(x):
    try:
        x[10]
    except IndexError as e:
        saved = e
    try:
        raise saved
    except IndexError as e2:
        return e2 is saved, str(e2)


case(_reraise_same_object, (X,))


def _raise_from(x):
    try:
        return np.linalg.inv(x)
    except np.linalg.LinAlgError as e:
        raise RuntimeError("could not invert") from e


case(_raise_from, (SING,))


def _raise_from_none(x):
    try:
        return x[10]
    except IndexError:
        raise KeyError("k") from None


case(_raise_from_none, (X,))


def _implicit_context(x):
    try:
        return x[10]
    except IndexError:
        return x + np.ones(3)       # ValueError with __context__ IndexError


case(_implicit_context, (X,))


def _chain_inspected(x):
    try:
        try:
            x[10]
        except IndexError as e:
            raise ValueError("wrapped") from e
    except ValueError as outer:
        return type(outer.__cause__).__name__, type(outer.__context__).__name__, \
            outer.__suppress_context__


case(_chain_inspected, (X,))


def _nested_finally_order(x, log):
    try:
        try:
            log.append("inner")
            x[10]
        finally:
            log.append("inner finally")
    except IndexError:
        log.append("outer except")
    finally:
        log.append("outer finally")
    return log


case(_nested_finally_order, (X, []))


def _except_then_else(x, log):
    try:
        y = x * 2
    except Exception:  # noqa: BLE001
        log.append("except")
    else:
        log.append("else")
        y = y + 1
    return y


case(_except_then_else, (X, []))


def _exception_variable_cleared(x):
    e = "before"
    try:
        x[10]
    except IndexError as e:  # noqa: F841
        pass
    try:
        return e  # noqa: F821
    except NameError as err:
        return str(err)


case(_exception_variable_cleared, (X,))


# -- mutations before the error persist -----------------------------------------------------

def _log_before_inv(x, log):
    log.append("before")
    return np.linalg.inv(x)


case(_log_before_inv, (SING, []))


def _global_log_before_inv(x):
    LOG.append("before")
    y = x * 2
    LOG.append("middle")
    return np.linalg.inv(y)


case(_global_log_before_inv, (SING,), setup=_reset, watch=_watch)


def _counter_before_error(x):
    global COUNT
    COUNT += 1
    return x + np.ones(3)


case(_counter_before_error, (X,), setup=_reset, watch=_watch)


def _attr_before_error(o, x):
    o.n += 1
    o.log.append(x.shape)
    return x.reshape(7)


case(_attr_before_error, (Box(), X))


def _dict_before_error(d, x):
    d["a"] = x * 2
    d.pop("old", None)
    return x[99]


case(_dict_before_error, ({"old": 1}, X))


def _array_write_before_error(x):
    x += 1
    x[0] = 100.0
    return np.linalg.inv(x.reshape(1, 5))


case(_array_write_before_error, (X,))


def _out_write_before_error(x, out):
    np.multiply(x, 2, out=out)
    return np.linalg.inv(SING) + out


case(_out_write_before_error, (X, np.zeros(5)))


def _errstate_mutation_before(x, log):
    log.append("start")
    with np.errstate(divide="raise"):
        log.append("inside")
        return x / 0.0


case(_errstate_mutation_before, (X, []))


def _errstate_restored_after_uncaught(x):
    with np.errstate(divide="raise", invalid="ignore"):
        return x / 0.0


case(_errstate_restored_after_uncaught, (X,))


def _error_in_helper(x, log):
    def helper(v):
        log.append("helper")
        return np.linalg.inv(v)
    log.append("caller")
    return helper(x) * 2


case(_error_in_helper, (SING, []))


def _error_after_print(x):
    print("about to fail")
    y = x * 2
    return np.linalg.inv(y)


case(_error_after_print, (SING,))


def _error_in_comprehension(xs):
    try:
        return [np.linalg.inv(x) for x in xs]
    except np.linalg.LinAlgError as e:
        return str(e)


case(_error_in_comprehension, ([GOOD, SING],))


def _error_in_init(x):
    class Checked:
        def __init__(self, v):
            self.v = v
            if v.ndim != 2:
                raise ValueError(f"need 2-d, got {v.ndim}-d")
    try:
        return Checked(x).v
    except ValueError as e:
        return str(e)


case(_error_in_init, (X,), (SING,))


def _error_on_second_size(x):
    return x.max() - x.min()


case(_error_on_second_size, (X,), (X[:0],))


def _uncaught_index_with_mutation(x, lst):
    lst.append(len(lst))
    x[0] = -1.0
    return x[len(lst) + 10]


case(_uncaught_index_with_mutation, (X, []))


def _numpy_scalar_overflow_error(x):
    with np.errstate(over="raise"):
        try:
            return np.int8(127) + np.int8(x.shape[0])
        except FloatingPointError as e:
            return str(e)


case(_numpy_scalar_overflow_error, (X,))


def _raise_inside_loop_after_mutations(xs, log):
    for i, x in enumerate(xs):
        log.append(i)
        if x.shape[0] > 3:
            raise ValueError(f"too big at {i}")
    return log


case(_raise_inside_loop_after_mutations, ([X[:2], X[:3], X, X[:1]], []))


def _error_message_with_value(x):
    if x.shape[0] != 3:
        raise ValueError(f"expected 3 rows, got {x.shape[0]} (first {x[0]})")
    return x


case(_error_message_with_value, (X,))


# -- a graph that raises after doing something visible ----------------------------------

def _warning_then_raise(x):
    y = x / 0.0
    return np.linalg.inv(SING) + y[0]


case(_warning_then_raise, (X,))


def _log_and_array_write_then_raise(x, log):
    log.append("before")
    x += 1
    return np.linalg.inv(SING) * x[0]


case(_log_and_array_write_then_raise, (X, []))


def _global_random_then_raise(x):
    r = np.random.rand(2)
    return np.linalg.inv(SING) * r[0] + x[0]


@scenario
def s_global_random_draw_then_raise(r):
    np.random.seed(5)
    f = r.compile(_global_random_then_raise)
    r.call(f, X)
    r.call(f, X)
    r.see("next draw", np.random.rand())


def _generator_draw_then_raise(rng, x):
    a = rng.random(2)
    return np.linalg.inv(SING) * a[0] + x[0]


@scenario
def s_generator_draw_then_raise(r):
    rng = np.random.default_rng(7)
    f = r.compile(_generator_draw_then_raise)
    r.call(f, rng, X)
    r.call(f, rng, X)
    r.see("next draw", rng.random())


def _attr_and_item_write_then_raise(o, x):
    o.n = 5
    x[0] = 1.0
    return np.linalg.inv(SING)


case(_attr_and_item_write_then_raise, (Box(), X))


def _print_then_graph_raise(x, log):
    print("start")
    log.append("after print")
    y = x * 2
    return np.linalg.inv(SING) + y[0]


case(_print_then_graph_raise, (X, []))


def _errstate_warn_then_raise(x):
    with np.errstate(divide="warn"):
        y = x / 0.0
    with np.errstate(invalid="raise"):
        return np.sqrt(-np.abs(y) - 1)


case(_errstate_warn_then_raise, (X,))


def _raise_in_second_graph_after_print(x, log):
    y = x * 2
    log.append(1)
    print("between")
    log.append(2)
    return np.linalg.cholesky(-np.eye(2) * y[0])


case(_raise_in_second_graph_after_print, (X, []))
