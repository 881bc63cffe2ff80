"""Errors the translator knows are raised, inside the program's own ``try`` (issue #19).

``raise`` inside ``try`` is a jump to the handler (translator/exceptions.py). The same
holds for an error Python or NumPy raises at an instruction the trace can decide
exactly, before that instruction had any effect: a shape mismatch of ``x + y`` known
from the shapes, ``x[10]`` past the end of an array or a tuple, ``x.reshape`` to a
size that does not fit, ``np.matmul``/``np.concatenate`` of misaligned arrays,
``int(x)``/``float(x)`` of an array of several elements, ``list.pop()`` of an empty
list, unpacking a tuple into the wrong number of names, a missing dict key. NumPy's
errors are asked of NumPy itself on arrays of the same shapes and dtypes
(``ops.rules.numpy_error``): the class caught is NumPy's own, and so is the message
(it depends on the shapes and dtypes only). ``str(e)``, ``repr(e)``, ``e.args`` and
``f"{e}"`` of an error whose arguments are the real ones (a missing key, an index past
the end, ``int()`` of an array, NumPy's shape errors, ``list.pop()``) are constants;
of one the translator words itself (unpacking into the wrong number of names) they
are a break.

Each program is one graph with no break, on the eager and numpy backends, and
behaves as plain Python (values, exceptions, mutations, printed output).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check

import dynamo


def shape_mismatch(x, y):
    try:
        z = x + y
    except ValueError:
        z = x * 0
    return z


def static_index_past_the_end(x):
    try:
        v = x[10]
    except IndexError:
        v = x[0]
    return v * 2


def setitem_past_the_end(x):
    x = x.copy()
    try:
        x[2, 7] = 1.0
    except IndexError:
        x[0, 0] = -1.0
    return x


def tuple_index(x):
    t = (1, 2, 3)
    try:
        k = t[5]
    except IndexError:
        k = 0
    return x + k


def reshape_does_not_fit(x):
    try:
        y = x.reshape(4, 4)
    except ValueError:
        y = x.reshape(2, -1)
    return y * 3


def matmul_misaligned(a):
    try:
        y = a @ a
    except ValueError:
        y = a.T @ a
    return y


def concatenate_ranks(x, a):
    try:
        c = np.concatenate([x, a])
    except ValueError:
        c = np.concatenate([x, a.ravel()])
    return c + 1


def int_of_an_array(x):
    try:
        n = int(x)
    except TypeError:
        n = -1
    return x + n


def float_of_an_array(x):
    try:
        v = float(x[:2])
    except TypeError:
        v = 0.5
    return x * v


def pop_from_empty(x):
    stack = []
    try:
        v = stack.pop()
    except IndexError:
        v = 3
    stack.append(v)
    return x * v, stack


def unpack_too_many(x):
    try:
        a, b = (1, 2, 3)
    except ValueError:
        a, b = 4, 5
    return x + a + b


def missing_key(x):
    table = {"a": x}
    try:
        v = table["b"]
    except KeyError:
        v = x + 1
    return v


def error_after_effects(x, log):
    """What ran before the error in the ``try`` stays done; the handler sees it."""
    y = x.copy()
    try:
        y += 1
        log.append("added")
        y = y + np.ones(len(y) + 1)
        log.append("never")
    except ValueError as e:
        log.append(type(e).__name__)
    finally:
        log.append("finally")
    return y, log


def in_a_helper(x):
    def first_row(a):
        return a[5]
    try:
        return first_row(x)
    except IndexError:
        return x.sum()


def nested_finally(x):
    out = []
    try:
        try:
            v = x[99]
        finally:
            out.append(1)
    except IndexError:
        v = x[1]
    return v, out


def caught_by_a_base_class(x, y):
    try:
        return np.dot(x, y)
    except Exception as e:   # noqa: BLE001
        return type(e).__name__, x.sum()


X = np.arange(6.0)
A = np.arange(6.0).reshape(2, 3)
PROGRAMS = {   # name -> (program, arguments)
    "shape_mismatch": (shape_mismatch, (X, np.ones(4))),
    "static_index_past_the_end": (static_index_past_the_end, (X,)),
    "setitem_past_the_end": (setitem_past_the_end, (A,)),
    "tuple_index": (tuple_index, (X,)),
    "reshape_does_not_fit": (reshape_does_not_fit, (X,)),
    "matmul_misaligned": (matmul_misaligned, (A,)),
    "concatenate_ranks": (concatenate_ranks, (X, A)),
    "int_of_an_array": (int_of_an_array, (X,)),
    "float_of_an_array": (float_of_an_array, (X,)),
    "pop_from_empty": (pop_from_empty, (X,)),
    "unpack_too_many": (unpack_too_many, (X,)),
    "missing_key": (missing_key, (X,)),
    "error_after_effects": (error_after_effects, (X, [])),
    "in_a_helper": (in_a_helper, (X[:3],)),
    "nested_finally": (nested_finally, (X,)),
    "caught_by_a_base_class": (caught_by_a_base_class, (X, np.ones(4))),
}


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_no_break_and_as_eager(name, backend):
    fn, args = PROGRAMS[name]
    check(fn, *args, graphs=1, breaks=0, backend=backend)


def test_fitting_arguments_take_the_other_path():
    """The error is decided by the shapes: another shape is another entry, which
    does not raise (and gives eager's result)."""
    check(shape_mismatch, X, np.ones(6), graphs=1, breaks=0)
    check(static_index_past_the_end, np.arange(12.0), graphs=1, breaks=0)
    check(int_of_an_array, np.array(2.5), breaks=1)   # 0-d: the value decides


def test_symbolic_sizes_are_not_decided():
    """With a dynamic size the error holds for some sizes only: a break, not a guess."""
    compiled = dynamo.compile(static_index_past_the_end, backend="eager", dynamic=True)
    for n in (4, 5, 20, 3):
        x = np.arange(float(n))
        assert compiled(x) == static_index_past_the_end(x)


def _message(e):
    """Everything a handler reads of an exception's text."""
    return str(e), repr(e), e.args, f"{e}", f"{e!r}", f"failed: {e!s}"


def message_of_shape_mismatch(x, y):
    try:
        return x + y
    except ValueError as e:
        return _message(e), x.sum()


def message_of_missing_key(x, key):
    table = {"a": x, 3: x * 2}
    try:
        return table[key]
    except KeyError as e:
        return _message(e), x + 1


def message_of_index(x):
    try:
        return x[10]
    except IndexError as e:
        return _message(e), x[0]


def message_of_tuple_and_list_index(x):
    out = []
    for seq in ((1, 2), [1, 2]):
        try:
            out.append(seq[5])
        except IndexError as e:
            out.append(_message(e))
    return out, x * 2


def message_of_matmul_and_reshape(a):
    out = []
    try:
        a @ a
    except ValueError as e:
        out.append(_message(e))
    try:
        a.reshape(4, 4)
    except ValueError as e:
        out.append(_message(e))
    return out, a.T @ a


def message_of_conversions_and_pop(x):
    out = []
    try:
        int(x)
    except TypeError as e:
        out.append(_message(e))
    try:
        [].pop()
    except IndexError as e:
        out.append(_message(e))
    try:
        1 / 0
    except ZeroDivisionError as e:
        out.append(_message(e))
    return out, x + 1


MESSAGES = {
    "shape_mismatch": (message_of_shape_mismatch, (X, np.ones(4))),
    "missing_str_key": (message_of_missing_key, (X, "b")),
    "missing_int_key": (message_of_missing_key, (X, 7)),
    "missing_tuple_key": (message_of_missing_key, (X, (1, "x"))),
    "index": (message_of_index, (X,)),
    "tuple_and_list_index": (message_of_tuple_and_list_index, (X,)),
    "matmul_and_reshape": (message_of_matmul_and_reshape, (A,)),
    "conversions_and_pop": (message_of_conversions_and_pop, (X,)),
}


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_reading_the_message(name, backend):
    """The message is the real one: one graph, no break, eager's text exactly."""
    fn, args = MESSAGES[name]
    check(fn, *args, graphs=1, breaks=0, backend=backend)


def test_a_message_the_translator_words_breaks():
    """Unpacking into the wrong number of names: the class is sure, the text is the
    translator's own, so reading it breaks (and the result is still eager's)."""
    def f(x):
        try:
            a, b = (1, 2, 3)
        except ValueError as e:
            return str(e), x
        return a + b, x
    report = dynamo.explain(f, backend="eager")(X)
    assert report.graph_break_count == 1
    check(f, X)


class Loud(Exception):
    def __format__(self, spec):
        return "loud"


def test_format_spec_and_own_format_break():
    """A format spec raises TypeError in Python; a class's own __format__ runs its
    code: both break with a reason, and the results stay eager's."""
    def with_spec(x):
        try:
            raise KeyError("k")
        except KeyError as e:
            try:
                return f"{e:>10}", x
            except TypeError as t:
                return type(t).__name__, x

    def own_format(x):
        try:
            raise Loud("quiet")
        except Loud as e:
            return f"{e}", x
    for fn in (with_spec, own_format):
        report = dynamo.explain(fn, backend="eager")(X)
        assert report.graph_break_count >= 1
        assert any("format" in b.reason for b in report.break_reasons)
        check(fn, X)


def test_errors_outside_a_try_still_break():
    """Not caught by the function: the frame raises it for real, with Python's traceback."""
    def f(x, y):
        return x + y
    report = dynamo.explain(f, backend="eager")(X, np.ones(4))
    assert report.graph_break_count == 1
    check(f, X, np.ones(4))
