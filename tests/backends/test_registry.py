"""The backend registry: built-ins by "module:function" path, user backends registered.

The built-ins are imported on first lookup and never register themselves; a user
backend registers through ``dynamo.register_backend`` and may take a built-in's name.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from dynamo.backends import is_builtin, list_backends, lookup_backend, registry

import dynamo


def f(x):
    return np.exp(x) + 1


@pytest.mark.parametrize("name", sorted(registry.BUILTIN))
def test_every_builtin_path_names_its_backend(name):
    if name == "native":   # an optional extra (arraydynamo[native])
        pytest.importorskip("numba")
    backend = lookup_backend(name)
    module, _, attr = registry.BUILTIN[name].partition(":")
    assert callable(backend) and backend.__name__ == attr
    assert backend.__module__ == registry.__package__ + module
    assert is_builtin(backend) and lookup_backend(name) is backend
    assert name in list_backends()


def test_unknown_name_lists_the_choices():
    with pytest.raises(ValueError, match=r"unknown backend 'eagre'; registered backends: "
                                         r"auto, cudagraphs, cupy, dask, eager, native, "
                                         r"numpy"):
        lookup_backend("eagre")
    with pytest.raises(TypeError, match="name or a callable, got int"):
        lookup_backend(3)


def test_a_callable_is_its_own_backend():
    def mine(graph, example_inputs):
        return lambda *a: a
    assert lookup_backend(mine) is mine and not is_builtin(mine)


def test_user_backend_may_take_a_builtin_name():
    eager = lookup_backend("eager")
    seen = []

    def spy(graph, example_inputs):
        seen.append(graph)
        return eager(graph, example_inputs)

    try:
        assert dynamo.register_backend(spy, name="eager") is spy
        assert lookup_backend("eager") is spy
        x = np.arange(3.0)
        np.testing.assert_array_equal(dynamo.compile(f, backend="eager")(x), f(x))
        assert len(seen) == 1
    finally:
        registry._REGISTRY["eager"] = eager
    assert lookup_backend("eager") is eager


def test_register_refuses_what_is_not_callable():
    with pytest.raises(TypeError, match="must be callable, got int"):
        dynamo.register_backend(3, name="three")
    assert "three" not in list_backends()


def test_no_backend_registers_itself_on_import():
    pkg = registry.__package__
    code = (f"import {pkg}.eager, {pkg}.numpy_backend, {pkg}.cupy_backend, "
            f"{pkg}.cudagraphs\n"
            f"from {pkg} import registry\n"
            "print(sorted(registry._REGISTRY))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
