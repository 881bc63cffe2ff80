"""CuPy: every issue-6 function exists in CuPy under the same name and maps to the same
op; every op resolves to a CuPy implementation (CuPy imported, no GPU needed); and,
on the GPU machine (``gpu``), the rules agree with what CuPy returns and compiled
CuPy programs equal eager CuPy ones."""

import numpy as np
import pytest
from harness import check

from dynamo import ops
from dynamo.ops.coverage import ISSUE_FUNCTIONS
from dynamo.ops.meta import ArrayMeta
from dynamo.ops.registry import _resolve_cupy

NO_CUPY_TWIN = {"isnat", "spacing",  # NumPy ufuncs CuPy does not have (CuPy 14)
                "nanpercentile", "nanquantile", "histogram_bin_edges",
                "block", "insert", "polyder", "multi_dot", "linalg.multi_dot",  # not in CuPy 14
                "generator_integers", "generator_permuted"}  # methods of NumPy's Generator


def test_issue_functions_map_to_the_same_ops_in_cupy():
    cupy = pytest.importorskip("cupy")
    for names in ISSUE_FUNCTIONS.values():
        for name in names.split():
            if name in NO_CUPY_TWIN:
                continue
            np_fn, cp_fn = np, cupy
            for part in name.split("."):
                np_fn, cp_fn = getattr(np_fn, part), getattr(cp_fn, part, None)
            assert cp_fn is not None, f"cupy.{name} does not exist"
            hit = ops.lookup_function(cp_fn)
            assert hit is not None, f"cupy.{name} is not mapped"
            assert hit[0] is ops.lookup_function(np_fn)[0], name


def test_every_op_has_a_cupy_implementation():
    pytest.importorskip("cupy")
    missing = {name for name, op in ops.REGISTRY.items() if _resolve_cupy(op) is None}
    assert missing <= NO_CUPY_TWIN, sorted(missing - NO_CUPY_TWIN)


def test_every_registered_function_has_a_cupy_path_or_none():
    """The first CuPy callable a program uses binds every registered NumPy function to
    its CuPy twin by name (no CuPy needed to check the names): one without a name, such
    as the ``np.mgrid`` instance, has no twin, and must not stop the binding of the rest
    (it once did, and every CuPy function after it broke the graph)."""
    from dynamo.ops.registry import _FUNCTIONS, _numpy_path
    paths = {id(fn): _numpy_path(fn) for fn, _, _ in list(_FUNCTIONS.values())}
    assert paths[id(np.mgrid)] is None
    assert paths[id(np.exp)] == "exp" and paths[id(np.linalg.norm)] == "linalg.norm"
    assert paths[id(np.fft.rfft)] == "fft.rfft"


def test_an_op_without_a_cupy_twin_breaks_on_cupy_arrays():
    op = ops.get("spacing")
    with pytest.raises(Exception, match="CuPy"):
        op.meta(op, (ArrayMeta((3,), np.dtype("f4"), "cupy"),), {})


# --------------------------------------------------------------------------- GPU


def _cp():
    import cupy
    return cupy


GPU_PROGRAMS = [
    ("elementwise", lambda x: np.exp(x) * 2 + np.maximum(x, 0) - np.where(x > 0, x, 0.5)),
    ("reductions", lambda x: (x.sum(0), x.mean(-1, keepdims=True), x.max(), x.argmax(1),
                              x.var(ddof=1), np.cumsum(x, 1))),
    ("linalg", lambda x: (x @ x.T, np.einsum("ij,kj->ik", x, x), np.tensordot(x, x, 2),
                          np.trace(x[:, :4]))),
    ("shapes", lambda x: (x.reshape(8, 4), x.T.ravel(), np.concatenate([x, x], 1),
                          np.stack([x, x]), np.tile(x, 2), np.pad(x, 1), np.tril(x),
                          np.sort(x, 0), np.split(x, 2, axis=1)[1])),
    ("indexing", lambda x: (x[1:, ::2], x[None, 0], x[[0, 2]], _setitem(x))),
    ("creation", lambda x: x + np.zeros((4, 8), np.float32) + np.arange(8) + np.eye(4, 8)),
    ("audit_ops", lambda x: _audit_ops(x, np)),
]


def _audit_ops(x, np):
    """The functions the real-world audit added (solve, inv, percentile, convolve...);
    ``np`` is the library of ``x`` (the lambda's own ``np``, cupy in the GPU run)."""
    s = x[:, :4] @ x[:, :4].T + 4 * np.eye(4, dtype=np.float32)
    y = s.copy()
    np.fill_diagonal(y, 0.0)
    u, v = np.meshgrid(x[0], x[:, 0])
    return (np.linalg.solve(s, x), np.linalg.inv(s), np.linalg.eigh(s)[0], y, u * v,
            np.percentile(x, 50, axis=0), np.convolve(x[0], x[1]), np.interp(x[0], x[1],
            x[2]), np.add.reduce(x, axis=0),   # (no maximum.accumulate: CuPy 14 lacks it)
            np.ascontiguousarray(x.T), np.polyval(x[0, :3], x))


def _setitem(x):
    y = x.copy()
    y[1:-1, 1:-1] = 0.25 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:])
    y[y > 0.5] = 0.5
    return y


def _cupy_version(fn):
    """The same program written against cupy (np.* names resolved in cupy)."""
    import types

    cupy = _cp()
    return types.FunctionType(fn.__code__, {**fn.__globals__, "np": cupy}, fn.__name__,
                              fn.__defaults__, fn.__closure__)


@pytest.mark.gpu
@pytest.mark.parametrize("name,fn", GPU_PROGRAMS, ids=[p[0] for p in GPU_PROGRAMS])
def test_cupy_programs_equal_eager(name, fn):
    cupy = _cp()
    x = cupy.asarray(np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8))
    check(_cupy_version(fn), x, graphs=1, breaks=0, rtol=1e-5, atol=1e-6)


@pytest.mark.gpu
def test_cupy_rules_agree_with_cupy_results():
    """The meta of each call (computed with NumPy probes) is what CuPy returns."""
    cupy = _cp()
    rng = np.random.default_rng(0)
    for dtype in ("float32", "float64", "int32", "bool"):
        a = cupy.asarray((rng.random((3, 4)) * 4).astype(dtype))
        for fn, args, kwargs in [(cupy.add, (a, 1.5), {}), (cupy.sum, (a,), {"axis": 0}),
                                 (cupy.mean, (a,), {}), (cupy.matmul, (a, a.T), {}),
                                 (cupy.concatenate, ([a, a],), {"axis": 1}),
                                 (cupy.argsort, (a,), {}), (cupy.take, (a, [0, 2]), {})]:
            op, adapter = ops.lookup_function(fn)
            margs = tuple(ArrayMeta(v.shape, v.dtype, "cupy") if isinstance(v, cupy.ndarray)
                          else [ArrayMeta(w.shape, w.dtype, "cupy") for w in v]
                          if isinstance(v, list) and isinstance(v[0], cupy.ndarray) else v
                          for v in args)
            meta = op.meta(op, margs, kwargs)
            value = fn(*args, **kwargs)
            assert (meta.shape, meta.dtype) == (value.shape, value.dtype), (fn, dtype)
