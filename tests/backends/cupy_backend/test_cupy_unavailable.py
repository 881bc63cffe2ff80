"""Without CuPy, or without a GPU, backend='cupy' says so clearly at the first call."""

import subprocess
import sys
import types

import numpy as np
import pytest
from dynamo.backends.cupy_backend import CupyUnavailable, cupy_problem

import dynamo


def f(x):
    return np.tanh(x) * 2


X = np.ones(8, np.float32)


def test_registered_on_every_machine():
    assert "cupy" in dynamo.list_backends()


def test_importing_the_backend_does_not_import_cupy():
    code = ("import sys, backends.cupy_backend, dynamo; dynamo.list_backends(); "
            "print('cupy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_no_cupy_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)       # import cupy -> ImportError
    assert cupy_problem().startswith("CuPy is not installed")
    compiled = dynamo.compile(f, backend="cupy")
    with pytest.raises(CupyUnavailable) as err:
        compiled(X)
    msg = str(err.value)
    assert "backend 'cupy' needs CuPy and an NVIDIA GPU: CuPy is not installed" in msg
    assert "pip install cupy-cuda13x" in msg and "backend='eager'" in msg
    with pytest.raises(CupyUnavailable):                 # every call, not only the first
        compiled(X)


def test_cupy_without_a_device(monkeypatch):
    def no_device():
        raise RuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")

    fake = types.ModuleType("cupy")
    fake.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=no_device))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    with pytest.raises(CupyUnavailable, match="cannot reach a CUDA device .*no CUDA-capable"):
        dynamo.compile(f, backend="cupy")(X)


def test_bad_option_is_reported(monkeypatch):
    with pytest.raises(ValueError, match="unknown cupy backend option.*'thread'"):
        dynamo.compile(f, backend="cupy", options={"thread": 64})(X)
