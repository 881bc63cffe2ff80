"""The cudagraphs backend's entry points on the CPU: errors, options, the recorded code.

Without a GPU the backend must fail at compile time with an error that says what is
missing; options are validated; and the function it records is the graph's own code
with matmul/dot routed through the capture-safe GEMM (checked with the cuBLAS
emulator of test_cudagraphs_blas).
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from dynamo.backends import list_backends, lookup_backend
from dynamo.backends.cudagraphs import blas, parse_options, require_gpu
from dynamo.backends.cudagraphs.backend import CaptureOps, graph_function, graph_name
from test_cudagraphs_blas import HostBlas

import dynamo
from dynamo.exc import BackendError
from dynamo.ops import impl_table


def mlp(x, w1, w2):
    return np.maximum(x @ w1, 0).dot(w2) + 1


def arrays(seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in [(4, 3), (3, 5), (5, 2)]]


def test_registered_by_name():
    assert "cudagraphs" in list_backends()
    backend = lookup_backend("cudagraphs")
    assert backend.layout_guards is True and backend.dynamic_shapes is True


def test_missing_cupy_is_a_clear_compile_time_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)           # import cupy -> ImportError
    with pytest.raises(BackendError, match="CuPy is not installed.*pip install cupy-cuda13x"):
        require_gpu()
    compiled = dynamo.compile(mlp, backend="cudagraphs", fullgraph=True)
    with pytest.raises(BackendError, match="backend 'cudagraphs' needs CuPy"):
        compiled(*arrays())


def _fake_cupy(get_count):
    fake = types.ModuleType("cupy")
    fake.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=get_count))
    return fake


def test_cupy_without_a_device_is_a_clear_error(monkeypatch):
    def no_driver():
        raise RuntimeError("cudaErrorInsufficientDriver: CUDA driver version is insufficient")

    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(no_driver))
    with pytest.raises(BackendError, match="cannot reach a CUDA device.*InsufficientDriver.*nvidia-smi"):
        require_gpu()
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(lambda: 0))
    with pytest.raises(BackendError, match="sees no CUDA device"):
        require_gpu()


def test_this_machine_gets_the_error_that_matches_it():
    try:
        import cupy
        has_gpu = cupy.cuda.runtime.getDeviceCount() > 0
    except ImportError:
        expected = "CuPy is not installed"
    except Exception:  # noqa: BLE001
        expected = "cannot reach a CUDA device"
    else:
        if has_gpu:
            pytest.skip("a GPU is present: the gpu tests cover this machine")
        expected = "sees no CUDA device"
    with pytest.raises(BackendError, match=expected):
        require_gpu()


@pytest.mark.parametrize("options, words", [
    ({"warmpu": 1}, "unknown option"),
    ({"warmup": -1}, "int >= 0"),
    ({"warmup": True}, "int >= 0"),
    ({"max_sizes": 1.5}, "int >= 0"),
    ({"cublas_workspace": "32M"}, "bytes"),
])
def test_bad_options_are_refused_with_the_known_ones(options, words):
    with pytest.raises(ValueError, match=words):
        parse_options(options)


def test_options_have_defaults():
    opts = parse_options({"warmup": 0})
    assert opts["warmup"] == 0 and opts["pin_inputs"] is True and opts["max_sizes"] == 8


def test_numpy_graphs_run_uncaptured(monkeypatch):
    from dynamo.backends.cudagraphs import backend
    (graph,) = dynamo.explain(mlp, backend="eager")(*arrays()).graphs
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(lambda: 1))   # "a GPU is here"
    fn = backend.cudagraphs(graph, arrays())
    assert fn.capture_plan is None
    np.testing.assert_array_equal(fn(*arrays(1))[0], mlp(*arrays(1)))


def test_recorded_code_routes_matmul_and_dot_through_the_capture_safe_gemm():
    (graph,) = dynamo.explain(mlp, backend="eager")(*arrays()).graphs
    # the label is graph_name's text, spaces and all: the function gets an identifier
    fn = graph_function(graph, CaptureOps(impl_table("numpy")), graph_name(graph))
    g = HostBlas()
    x, w1, w2 = arrays(2)
    with blas.active(g):
        (got,) = fn(x, w1, w2)
    np.testing.assert_allclose(got, mlp(x, w1, w2), rtol=1e-5)
    assert [c[0] for c in g.cublas.calls] == ["gemmEx", "gemmEx"]    # @ and .dot
    assert "ops.matmul(" in fn.__dynamo_source__ and "ops.dot(" in fn.__dynamo_source__


def test_graph_names_point_at_the_users_code():
    (graph,) = dynamo.explain(mlp, backend="eager")(*arrays()).graphs
    name = graph_name(graph)
    assert "mlp" in name and __file__.rsplit("/", 1)[-1] in name
