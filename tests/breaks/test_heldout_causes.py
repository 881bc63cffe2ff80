"""What the held-out-style corpus (``tests/realworld/heldout_programs3.py``) and a probe
of everyday calls found breaking, captured now (issue #19), each against eager on the
eager and numpy backends, and the breaks that stay, with their messages.

- ``min(c, s)`` / ``max(c, s)`` of a Python number and a NumPy scalar
  (``g * min(1.0, clip / norm)``, ``X.sum(0) / max(cnt, 1)``): Python returns one of
  the two objects, so the result's type is data. Returned or stored, the glue makes
  Python's choice after the graph; as an arithmetic operand beside an array, the
  graph's select stands for it where both candidates compute the same (dtype, type,
  value); any other use breaks with min()'s reason.
- ``np.diff(prepend=, append=)``, ``np.put_along_axis``, ``np.unwrap``: ops now.
- ``np.vectorize``, ``np.apply_along_axis``, ``np.piecewise``: still breaks (they call
  Python per element or slice), now saying so, with a hint that fits.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check
from hypothesis import example, given, settings
from hypothesis import strategies as st

import dynamo

BACKENDS = ("eager", "numpy")
_rng = np.random.default_rng(74)
G64 = _rng.normal(size=6)
G32 = G64.astype(np.float32)
M = _rng.normal(size=(4, 5))


# ---------------------------------------------------------------- min/max of a number and a scalar


def clip_by_norm(g, clip=1.0):
    return g * min(1.0, clip / (np.linalg.norm(g) + 1e-12))


def clip_by_norm_reversed(g, clip=1.0):
    return min(clip / (np.linalg.norm(g) + 1e-12), 1.0) * g


def mean_of_members(X, members):
    cnt = members.sum()
    return (X * members[:, None]).sum(0) / max(cnt, 1)


def returned_and_stored(g):
    state = {"lr": min(0.5, g.sum())}
    return max(g.max(), 0), max(0, g.min()), state


def integer_steps(x):
    return x * max(2, x.sum() // 100), x // max(3, x[0])


CAPTURED = [
    (clip_by_norm, (G64,)), (clip_by_norm, (G64 * 1e-3,)), (clip_by_norm, (G32,)),
    (clip_by_norm_reversed, (G64,)), (clip_by_norm, (np.full(3, np.nan),)),
    (mean_of_members, (M, np.array([True, False, True, False]))),
    (mean_of_members, (M, np.zeros(4, bool))),
    (returned_and_stored, (G64,)), (returned_and_stored, (-np.abs(G64) - 1,)),
    (integer_steps, (np.arange(5) * 100,)), (integer_steps, (np.arange(1, 6),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", CAPTURED,
                         ids=[f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(CAPTURED)])
def test_number_or_scalar_choice_is_one_graph(fn, args, backend):
    check(fn, *args, graphs=1, breaks=0, backend=backend)


@settings(max_examples=40, deadline=None)
@example([0.0], -0.0, "max", True).via("a tie of signed zeros: Python keeps the first")
@example([-0.0], 0.0, "min", False).via("a tie of signed zeros, the scalar first")
@example([1.0], 1.0, "min", True).via("a tie of equal values")
@example([float("nan")], 1.0, "max", True).via("NaN: the constant stays")
@example([float("nan")], 1.0, "min", False).via("NaN first: NaN stays")
@given(st.lists(st.floats(-1e3, 1e3) | st.just(float("nan")), min_size=1, max_size=5),
       st.sampled_from([0.0, -0.0, 1.0, 2.5, 1e300]),
       st.sampled_from(["min", "max"]), st.booleans())
def test_number_or_scalar_choice_matches_python(values, c, name, number_first):
    """Python's object (float or np.float64), value and sign of zero, NaN included,
    returned, and through arithmetic with a float64 array."""
    pick = min if name == "min" else max

    def f(x):
        s = x.sum()
        r = pick(c, s) if number_first else pick(s, c)
        return r, x * r, r - x

    check(f, np.array(values), breaks=0)


def compares_the_choice(g):
    r = min(1.0, g.sum())
    return g if r < 0.5 else -g


def float32_times_a_float_choice(g):
    return g * min(0.1, g.sum())     # a float32 array: float32 for 0.1, float64 for s


def formats_the_choice(g):
    return f"{max(0.0, g.sum())}"


@pytest.mark.parametrize("fn,args", [(compares_the_choice, (G64,)),
                                     (float32_times_a_float_choice, (G32,)),
                                     (formats_the_choice, (G64,))])
def test_a_use_that_needs_the_choice_breaks_with_mins_reason(fn, args):
    report = check(fn, *args)
    report = dynamo.explain(fn, backend="eager")(*args)
    assert report.graph_break_count >= 1
    first = report.break_reasons[0]
    assert "compares array data" in first.reason and "have different types" in first.reason
    assert "np.minimum" in first.hint or "np.maximum" in first.hint


def test_float32_array_and_a_float_breaks():
    """``g32 * min(1.0, np.float64(s))``: ``g32 * 1.0`` is float32 while ``g32 *
    np.float64`` is float64: no select can stand for both."""
    def g(x):
        return x * min(1.0, np.float64(x.sum()))
    report = check(g, G32, breaks=1)
    assert "compares array data" in report.break_reasons[0].reason


# ---------------------------------------------------------------- ops added


def diff_forms(x):
    return (np.diff(x, prepend=0.0), np.diff(x, axis=0, append=x[-1:]),
            np.diff(x, prepend=0), np.diff(x[0], prepend=x[0, :1], append=[7, 8]),
            np.diff(x, n=2, axis=0, prepend=np.zeros((1, 5))),
            np.diff(x > 0, prepend=False), np.diff(x, prepend=[[1.0]] * 4),
            np.diff(x.astype(np.float32), prepend=x[:, :2].astype(np.int8), n=3))


def put_along_forms(a):
    b = a.copy()
    np.put_along_axis(b, np.argmax(b, 1)[:, None], 0.0, axis=1)
    idx = np.argsort(a, axis=0)[:2]
    r = np.put_along_axis(a, idx, a[:2] * 10, axis=0)          # the argument, in place
    c = np.zeros((4, 5), dtype=np.int32)
    np.put_along_axis(c, np.argmin(a, 1)[:, None], a[:, :1] * 3, 1)
    return b, c, r, a.sum()


def unwrap_forms(p):
    return (np.unwrap(p, axis=0), np.unwrap(p.astype(np.float32)),
            np.unwrap((p * 3).astype(np.int64), period=7), np.unwrap((p * 3).astype(np.int64)),
            np.unwrap(p[:, 0], discont=4.0), np.unwrap(p[:1]))


PHASE = np.cumsum(_rng.uniform(0, 2, size=(16, 3)), axis=0) % (2 * np.pi) - np.pi


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", [(diff_forms, (M,)), (put_along_forms, (M,)),
                                     (unwrap_forms, (PHASE,))],
                         ids=["diff", "put_along_axis", "unwrap"])
def test_added_ops_are_one_graph(fn, args, backend):
    tol = {} if backend == "eager" else {"rtol": 1e-12}
    check(fn, *args, graphs=1, breaks=0, backend=backend, **tol)


def test_diff_edge_that_does_not_fit_breaks_and_raises_numpys_error():
    def f(x):
        return np.diff(x * 2, prepend=np.zeros((2, 3)))
    check(f, M)     # eager raises NumPy's ValueError; so does the compiled call
    with pytest.raises(dynamo.Unsupported, match="does not fit"):
        dynamo.compile(f, fullgraph=True, backend="eager")(M)


@pytest.mark.parametrize("backend", BACKENDS)
def test_put_along_axis_errors_are_numpys(backend):
    def out_of_bounds(a):
        b = a.copy()
        np.put_along_axis(b, np.argmax(a, 1)[:, None] + 10, 1.0, axis=1)
        return b

    def shapes_differ(a):
        b = a.copy()
        np.put_along_axis(b, np.argmax(a, 1)[:, None], a[:3], axis=1)
        return b
    check(out_of_bounds, M, backend=backend)     # IndexError, eager's message
    check(shapes_differ, M, backend=backend)     # ValueError, eager's message


# ---------------------------------------------------------------- Python callbacks


def vectorized(x):
    return np.vectorize(lambda a: a * 2 if a > 0 else -a)(x)


def along_axis(x):
    return np.apply_along_axis(np.sum, 1, x)


def piecewise(x):
    return np.piecewise(x, [x < 0, x >= 0], [0, lambda t: t])


@pytest.mark.parametrize("fn", [vectorized, along_axis, piecewise])
def test_python_callbacks_break_saying_why(fn):
    report = check(fn, M)
    report = dynamo.explain(fn, backend="eager")(M)
    assert report.graph_break_count >= 1
    for b in report.break_reasons:
        assert "calls a Python function" in b.reason, b.reason
        assert "whole-array operations" in b.hint and "register_op" not in b.hint
        assert "np.<lambda>" not in b.reason      # the object is np.vectorize(<lambda>)
        assert b.cause == "python_callback"


def test_a_slice_bound_read_from_an_array_gets_a_hint_that_fits():
    # (step 1 with integer bounds is no break: an unbacked length, test_slice_bound_sizes)
    def f(v, p):
        return v[p[0]:p[1]:2].sum()
    report = check(f, np.arange(10.0), np.array([2, 5]), breaks=1)
    (b,) = report.break_reasons
    assert "a slice bound is an array" in b.reason
    assert "bounds in as Python ints" in b.hint and "n_classes" not in b.hint


def test_a_dunder_method_call_is_not_told_to_use_np_dunder():
    def f(x):
        y = x.copy()
        y.__setitem__(y < 0, 0.0)
        return y
    report = check(f, M, breaks=1)
    (b,) = report.break_reasons
    assert "np.__" not in b.hint and "x[i] = v" in b.hint
