"""Differential testing: a compiled function must behave exactly like the original.

``check(fn, *args)`` runs ``fn`` eagerly and compiled (twice: the first call traces,
the second hits the cache), each on its own deep copy of the arguments, and compares
results (values, dtypes, shapes, types), the arguments afterwards (mutations),
printed output, and raised exceptions. With ``graphs=`` / ``breaks=`` it also asserts
what ``dynamo.explain`` reports.

Example::

    def f(x):
        return np.exp(x) + 1
    check(f, np.ones(3, np.float32), graphs=1, breaks=0)
"""

from __future__ import annotations

import contextlib
import copy
import io
import warnings
from typing import Any

import numpy as np

import dynamo


def same(a: Any, b: Any, rtol: float = 0.0, atol: float = 0.0, path: str = "result") -> None:
    """Assert ``a`` and ``b`` are the same value: type, dtype, shape, and contents."""
    assert type(a) is type(b), f"{path}: type {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (np.ndarray, np.generic)):
        assert a.dtype == b.dtype, f"{path}: dtype {a.dtype} != {b.dtype}"
        assert np.shape(a) == np.shape(b), f"{path}: shape {np.shape(a)} != {np.shape(b)}"
        if rtol or atol:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=path)
        else:
            np.testing.assert_array_equal(a, b, err_msg=path, strict=True)
        return
    if type(a).__module__.startswith("cupy"):
        import cupy
        same(cupy.asnumpy(a), cupy.asnumpy(b), rtol, atol, path)
        return
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, rtol, atol, f"{path}[{i}]")
        return
    if isinstance(a, dict):
        assert list(a) == list(b), f"{path}: keys {list(a)} != {list(b)}"
        for k in a:
            same(a[k], b[k], rtol, atol, f"{path}[{k!r}]")
        return
    if isinstance(a, float) and a != a:
        assert b != b, f"{path}: {a!r} != {b!r}"
        return
    if isinstance(a, np.random.Generator):     # (they compare by identity)
        same(a.bit_generator.state, b.bit_generator.state, rtol, atol, f"{path}.state")
        return
    if isinstance(a, np.random.RandomState):
        same(a.get_state(legacy=False), b.get_state(legacy=False), rtol, atol,
             f"{path}.state")
        return
    if hasattr(a, "__dict__") and type(a).__module__ not in ("builtins", "numpy", "types",
                                                             "functools"):
        same(vars(a), vars(b), rtol, atol, f"{path}.__dict__")
        return
    assert a == b, f"{path}: {a!r} != {b!r}"


def run(fn, args, kwargs):
    """(result or exception, stdout) of one call."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            result = e
    return result, out.getvalue()


def _same_outcome(expected, got, rtol, atol, label):
    if isinstance(expected, Exception):
        assert isinstance(got, Exception), f"{label}: eager raised {expected!r}, compiled " \
                                           f"returned {got!r}"
        assert type(got) is type(expected), f"{label}: {type(got)} != {type(expected)}"
        assert str(got) == str(expected), f"{label}: message {got} != {expected}"
        return
    assert not isinstance(got, Exception), f"{label}: compiled raised {got!r}"
    same(expected, got, rtol, atol, label)


def outcome(fn, args) -> tuple:
    """Everything one call of ``fn(*args)`` shows: (result or exception, printed
    output, the arguments after the call, the warnings as (category, text))."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result, printed = run(fn, args, {})
    return result, printed, args, [(w.category, str(w.message)) for w in caught]


def nested_types(value):
    """The Python types of a result, nested, with each array's dtype and shape:
    ``(1, 2.0)`` and ``(np.int64(1), 2.0)`` differ, where ``same`` may let them pass.

        >>> nested_types((1, np.float32(2.0)))
        (<class 'tuple'>, [(<class 'int'>, None, ()), (<class 'numpy.float32'>, dtype('float32'), ())])
    """
    if isinstance(value, (tuple, list)):
        return type(value), [nested_types(v) for v in value]
    return type(value), getattr(value, "dtype", None), np.shape(value)


def same_outcome(want: tuple, got: tuple, label: str, rtol: float = 1e-12) -> None:
    """Two ``outcome``s agree: the same exception (type and message) or the same
    result, the same printed output, arguments after the call and warnings (how many
    of each, in any order)."""
    (w_res, w_out, w_args, w_warn), (g_res, g_out, g_args, g_warn) = want, got
    _same_outcome(w_res, g_res, rtol, 0.0, f"{label}: result")
    assert g_out == w_out, f"{label}: printed {g_out!r}, eager printed {w_out!r}"
    same(w_args, g_args, rtol, path=f"{label}: arguments")
    assert sorted(g_warn, key=str) == sorted(w_warn, key=str), f"{label}: warnings"


def check(fn, *args, graphs: int | None = None, breaks: int | None = None,
          backend="eager", rtol: float = 0.0, atol: float = 0.0, calls: int = 2,
          kwargs: dict | None = None, compile_kwargs: dict | None = None):
    """Compare ``fn`` eager and compiled; return the ExplainOutput of one traced call."""
    kwargs = kwargs or {}
    eager_args = copy.deepcopy(args)
    expected, expected_out = run(fn, eager_args, copy.deepcopy(kwargs))
    compiled = dynamo.compile(fn, backend=backend, **(compile_kwargs or {}))
    for call in range(calls):
        comp_args = copy.deepcopy(args)
        got, got_out = run(compiled, comp_args, copy.deepcopy(kwargs))
        label = f"call {call + 1}"
        _same_outcome(expected, got, rtol, atol, label)
        assert got_out == expected_out, f"{label}: stdout {got_out!r} != {expected_out!r}"
        same(eager_args, comp_args, rtol, atol, f"{label}: arguments after the call")
    report = None
    if graphs is not None or breaks is not None:
        with contextlib.redirect_stdout(io.StringIO()):
            report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args),
                                                          **copy.deepcopy(kwargs))
        assert_counts(report, graphs, breaks)
    return report


def quiet_explain(fn, args, backend):
    """``dynamo.explain`` of one call on copies of ``args``, the program's own warnings
    silenced (the counts are what is under test; results are checked elsewhere)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))


def assert_counts(report, graphs: int | None, breaks: int | None) -> None:
    """The explain report has ``graphs`` graphs and ``breaks`` breaks (None: any)."""
    if graphs is not None:
        assert report.graph_count == graphs, \
            f"graphs: expected {graphs}, got {report.graph_count}\n{report}"
    if breaks is not None:
        assert report.graph_break_count == breaks, \
            f"breaks: expected {breaks}, got {report.graph_break_count}\n{report}"


def rand(*shape, dtype=np.float32, seed=0, low=-1.0, high=1.0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(int(low * 10), int(high * 10) + 1, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.random(shape) > 0.5
    return rng.uniform(low, high, size=shape).astype(dtype)
