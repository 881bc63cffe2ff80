"""``np.finfo``/``np.iinfo`` objects from outside, and unhashable objects (issue #19).

An ``np.finfo`` or ``np.iinfo`` passed in, held in a global or in an attribute is read
as ``np.finfo(x.dtype)`` made in the trace is: its attributes (``eps``, ``max``,
``tiny``, ``bits``) are constants of its dtype, guarded by the object's exact type
and dtype (``variables/builder.py``). No graph break; a new dtype traces again, a new
``np.iinfo`` object of the same dtype does not.

Objects whose class sets ``__hash__ = None`` (an ``np.poly1d``, a user class) used
every way never make a break that says "Python raises this error here" when eager
raises nothing: the translator compared such an object by hashing it (``fn in
{...}``) and reported its own TypeError as the program's. An ``np.poly1d``, from outside
the frame or made in the trace, is one graph (its coefficient array:
``variables/polynomials.py``, tests/translator/test_poly1d_objects.py); polynomial
arithmetic is a break whose hint points at ``np.polyval`` (captured).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

FI32 = np.finfo(np.float32)


class Tolerances:
    def __init__(self):
        self.fi = np.finfo(np.float64)
        self.ii = np.iinfo(np.int16)


def eps_of_argument(x, fi):
    return x + fi.eps, fi.max, fi.tiny, fi.bits, fi.dtype, fi.resolution


def eps_of_global(x):
    return np.maximum(x, FI32.tiny) * FI32.eps


def info_of_attribute(x, tol):
    return np.clip(x, tol.ii.min, tol.ii.max) + tol.fi.eps


def iinfo_max(x, ii):
    return x // 2 + ii.max, ii.bits, ii.kind, ii.min


def safe_log(x, fi):
    return np.log(np.maximum(x, fi.tiny)), np.where(np.abs(x) < fi.eps * 10, 0.0, x)


def cast_to_info_dtype(x, fi):
    return x.astype(fi.dtype) + fi.eps


def returns_the_info(x, fi):
    return fi, x * 2


INFO_CASES = [
    (eps_of_argument, [(np.ones(3), np.finfo(np.float64)), (np.ones(3), np.finfo(np.float32)),
                       (np.ones(3, np.float32), np.finfo(np.float16))]),
    (eps_of_global, [(np.ones(3, np.float32),)]),
    (info_of_attribute, [(np.arange(5.0) * 1e4, Tolerances())]),
    (iinfo_max, [(np.arange(4), np.iinfo(np.int32)), (np.arange(4), np.iinfo(np.int8))]),
    (safe_log, [(np.array([0.0, 1e-20, 2.0]), np.finfo(np.float64))]),
    (cast_to_info_dtype, [(np.ones(2), np.finfo(np.float32)), (np.ones(2), np.finfo(np.float64))]),
    (returns_the_info, [(np.ones(2), np.finfo(np.float64))]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,arg_sets", INFO_CASES, ids=[c[0].__name__ for c in INFO_CASES])
def test_info_attributes_need_no_break(fn, arg_sets, backend):
    report = dynamo.explain(fn, backend=backend).calls(arg_sets)
    assert report.graph_break_count == 0, str(report)
    assert report.graph_count == len({str(a[-1].dtype) if isinstance(a[-1], (np.finfo,
                                      np.iinfo)) else "" for a in arg_sets}), str(report)
    compiled = dynamo.compile(fn, backend=backend)
    for args in arg_sets + arg_sets:
        same_outcome(outcome(fn, args), outcome(compiled, args), fn.__name__)


def test_a_new_iinfo_of_one_dtype_is_one_entry():
    """``np.iinfo`` makes a new object per call: guarded by type and dtype, not identity."""
    calls = [(np.arange(4), np.iinfo(np.int32)) for _ in range(3)]
    report = dynamo.explain(iinfo_max, backend="eager").calls(calls)
    assert (report.graph_count, report.recompile_count) == (1, 0), str(report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_attribute_the_program_writes_is_read_again(backend):
    """NumPy hands out one cached info object per dtype, and a program may write to it
    (or to one of its own): each attribute the trace read is guarded by its value
    (issue #17, round 23: the first call's eps was kept)."""
    fi = object.__new__(np.finfo)
    fi.__dict__.update(vars(np.finfo(np.float64)))
    compiled = dynamo.compile(eps_of_argument, backend=backend)
    x = np.ones(3)
    same_outcome(outcome(eps_of_argument, (x, fi)), outcome(compiled, (x, fi)), "before")
    fi.eps, fi.bits = 0.5, 7                      # a Python float now, not np.float64
    same_outcome(outcome(eps_of_argument, (x, fi)), outcome(compiled, (x, fi)), "after")
    assert compiled(x, fi)[0][0] == 1.5 and compiled(x, fi)[3] == 7


# ------------------------------------------------------------------ unhashable objects

class Scaler:
    __hash__ = None     # like a mutable value class with __eq__ and no __hash__

    def __init__(self):
        self.w, self.k = np.ones(3), 2.0

    def __call__(self, x):
        return x * self.k

    def apply(self, x):
        return x + self.w


class Subarray(np.ndarray):
    pass


SCALER = Scaler()
POLY = np.poly1d([1.0, 2.0, 3.0])


def call_it(o, x):
    return o(x)


def helper(o, x):
    return o(x)


def via_helper(o, x):
    return helper(o, x)


def in_closure(o, x):
    def inner(t):
        return o(t) + 1
    return inner(x)


def via_partial(o, x):
    return functools.partial(helper, o)(x)


def in_a_list(o, x):
    return [o][0](x)


def method_and_attributes(o, x):
    return o.apply(x) * o.k + o.w


def globals_called(x):
    return SCALER(x) + POLY(x)


def poly_coefficients(p, x):
    return np.polyval(p.coeffs, x)


def poly_made_inside(c, x):
    p = np.poly1d(c)
    return p(x)


def dict_of_lists(cfg, x):
    return x * cfg["a"][0] + len(cfg["b"])


def subclass_added(s, x):
    return s + x


X = np.arange(3.0)
UNHASHABLE_CASES = [
    (call_it, (SCALER, X)), (call_it, (POLY, X)), (via_helper, (SCALER, X)),
    (via_helper, (POLY, X)), (in_closure, (SCALER, X)), (in_closure, (POLY, X)),
    (via_partial, (SCALER, X)), (via_partial, (POLY, X)), (in_a_list, (SCALER, X)),
    (in_a_list, (POLY, X)), (method_and_attributes, (SCALER, X)), (globals_called, (X,)),
    (poly_coefficients, (POLY, X)), (poly_made_inside, (np.array([1.0, 2.0, 3.0]), X)),
    (dict_of_lists, ({"a": [2.0], "b": [1, 2]}, X)),
    (subclass_added, (np.ones(3).view(Subarray), X)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", UNHASHABLE_CASES,
                         ids=[f"{c[0].__name__}-{type(c[1][0]).__name__}"
                              for c in UNHASHABLE_CASES])
def test_unhashable_objects_never_claim_a_python_error(fn, args, backend):
    want = outcome(fn, args)
    assert not isinstance(want[0], Exception)
    same_outcome(want, outcome(dynamo.compile(fn, backend=backend), args), fn.__name__)
    report = dynamo.explain(fn, backend=backend)(*args)
    for brk in report.break_reasons:
        text = str(brk)
        assert "unhashable type" not in text and "Python raises" not in text, text
        assert brk.cause != "python_error", text
    # the frame runs its compiled parts around the break (a partial made in the trace
    # is rebuilt after the graph: functools.partial(helper, o))
    assert "cannot rebuild" not in str(report), str(report)
    if not any(isinstance(a, Subarray) for a in args) and fn is not globals_called:
        assert report.graph_break_count == 0, str(report)


def composed(p, x):
    return p(p)(x)


def its_roots(p, x):
    return p.roots + x


@pytest.mark.parametrize("fn,args,reason", [
    (composed, (POLY, X), "calling an np.poly1d object"),
    (its_roots, (POLY, X), "attribute 'roots' of an np.poly1d object"),
], ids=["composed", "attribute"])
def test_poly1d_breaks_point_at_polyval(fn, args, reason):
    report = dynamo.explain(fn, backend="eager")(*args)
    first = str(report.break_reasons[0])
    assert first.startswith(reason), first
    assert "np.polyval(c, x)" in first, first


def test_polyval_of_a_fit_is_one_graph():
    def fit(x, y, t):
        return np.polyval(np.polyfit(x, y, 2), t)
    x = np.linspace(0.0, 1.0, 20)
    args = (x, x ** 2 + 1.0, x[::3])
    report = dynamo.explain(fit, backend="eager")(*args)
    assert (report.graph_count, report.graph_break_count) == (1, 0), str(report)
    np.testing.assert_allclose(dynamo.compile(fit, backend="eager")(*args), fit(*args), rtol=1e-12)
