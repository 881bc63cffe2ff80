"""The ``auto`` backend: per graph, the fastest built-in backend this machine can run
for the graph's arrays (issue #15: a default that is fast).

=============================================== ==========================================
the graph's arrays                              backend
=============================================== ==========================================
NumPy arrays only                               ``native`` when Numba is importable (tier 1
                                                is the numpy backend; hot graphs get Numba
                                                loop nests, kept only when faster), else
                                                ``numpy``
CuPy arrays                                     ``cupy`` (it has passed its GPU checks:
                                                ``CUPY_PASSED_GPU_CHECKS``; False gives
                                                ``eager``)
dask arrays (with or without NumPy arrays),     ``numpy`` (which hands a graph with dask
no arrays                                       inputs to the dask backend)
=============================================== ==========================================

The choice is made once per graph, from the kinds of its array nodes (the call that
traced it; the guards pin its inputs' types, so a call with CuPy arrays after one with
NumPy arrays makes its own entry and its own choice), and logged on the ``backend``
channel: ``backend auto: graph (x, y) on NumPy arrays -> 'native' (Numba is
importable)``. Numba is looked for (``importlib.util.find_spec``), never imported here:
the native tier imports it in its compile thread, the first time a graph is hot.

Options (``dynamo.compile(fn, backend="auto", options={...})``, checked at
``compile()``), one flat dict, each key going where it applies:

- the numpy backend's options (``threads``, ``skip_passes``, ``fast_powers``...,
  ``backends.numpy_backend.options.Options``): to ``numpy``, and to ``native`` as its
  tier 1's (the native backend's ``numpy`` option);
- the native tier's (``after_calls``, ``after_ms``, ``background``, ``prefer``,
  ``trial_calls``, ``cache``, ``cache_dir``, ``cache_load``, ``parallel_min_elements``,
  ``numba_draws``, ``max_kernel_lines``, ``compile_process``): to ``native``;
  without Numba they are accepted (a program's options work on every machine) and
  unused, and only their names are checked;
- none go to ``eager`` (it has none) or ``cupy`` (its tuning knobs: ask for
  ``backend="cupy"`` by name).

Example::

    >>> f = dynamo.compile(step, backend="auto", options={"after_calls": 3})
    >>> choose(graph, have_numba=False)
    'numpy'
"""

from __future__ import annotations

import importlib.util
import logging
from dataclasses import fields

from dynamo.graph import Graph
from dynamo.ops import CUPY, NUMPY
from dynamo.ops.meta import ArrayMeta

from .numpy_backend.options import Options as NumpyOptions

log = logging.getLogger("dynamo.backend")

# True since the cupy backend passed its GPU checks (scripts/gpu_check.sh on an H200,
# 2026-12-04: every GPU test, docs/cupy_backend.md). False would run CuPy graphs with the
# eager backend, whose results are CuPy's own calls.
CUPY_PASSED_GPU_CHECKS = True

# the native tier's own options (backends/native/backend.py; its "numpy" option is
# auto's flat numpy-backend options)
NATIVE_KEYS = frozenset({"after_calls", "after_ms", "background", "prefer", "trial_calls",
                         "cache", "cache_dir", "cache_load", "parallel_min_elements",
                         "numba_draws", "max_kernel_lines",
                         "compile_process"})
NUMPY_KEYS = frozenset(f.name for f in fields(NumpyOptions))


def numba_importable() -> bool:
    """Whether ``import numba`` would find it, without importing it (a blocked
    ``sys.modules["numba"] = None`` counts as absent, as in the native backend)."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):   # sys.modules["numba"] is None: blocked
        return False


def array_kinds(graph: Graph) -> set[str]:
    """The array libraries of the graph's array nodes (``numpy``, ``cupy``, ``dask``)."""
    kinds = set()
    for node in graph.nodes:
        meta = node.meta.get("array")
        for m in meta if isinstance(meta, tuple) else (meta,):
            if isinstance(m, ArrayMeta):
                kinds.add(m.kind)
    return kinds


def choose(graph: Graph, have_numba: bool,
           cupy_ready: bool = CUPY_PASSED_GPU_CHECKS) -> tuple[str, str]:
    """(the backend's name, why) for ``graph``; ``have_numba`` and ``cupy_ready`` are
    what this machine and this version offer (``auto`` passes ``numba_importable()``
    and ``CUPY_PASSED_GPU_CHECKS``; tests pass both)."""
    kinds = array_kinds(graph)
    if kinds == {NUMPY}:
        if have_numba:
            return "native", "on NumPy arrays, Numba is importable"
        return "numpy", "on NumPy arrays, Numba is not installed"
    if kinds == {CUPY}:
        if cupy_ready:
            return "cupy", "on CuPy arrays"
        return "eager", "on CuPy arrays, the cupy backend has not passed its GPU checks"
    if not kinds:
        return "numpy", "without arrays"
    return "numpy", f"on {' and '.join(sorted(kinds))} arrays"


def _backend(name: str):
    """The built-in backend ``name``, imported now (each only when auto picks it)."""
    if name == "native":
        from .native.backend import native_backend
        return native_backend
    if name == "numpy":
        from .dask_backend.select import numpy_or_dask
        return numpy_or_dask
    if name == "cupy":
        from .cupy_backend.backend import cupy_backend
        return cupy_backend
    from .eager import eager
    return eager


def options_for(name: str, options: dict | None) -> dict | None:
    """The part of auto's ``options`` that backend ``name`` takes (see the module's
    docstring), or None."""
    options = options or {}
    numpy = {k: v for k, v in options.items() if k in NUMPY_KEYS}
    if name == "native":
        native = {k: v for k, v in options.items() if k in NATIVE_KEYS}
        if numpy:
            native["numpy"] = numpy
        return native or None
    if name == "numpy":
        return numpy or None
    return None


def check_options(options: dict | None) -> None:
    """ValueError for an option no backend of auto's takes, or a bad value."""
    options = dict(options or {})
    unknown = sorted(set(options) - NUMPY_KEYS - NATIVE_KEYS)
    if unknown:
        raise ValueError(f"unknown option(s) for backend 'auto': {unknown}; options: the "
                         f"numpy backend's {sorted(NUMPY_KEYS)} and the native tier's "
                         f"{sorted(NATIVE_KEYS)}")
    if numba_importable():
        _backend("native").check_options(options_for("native", options))
    else:
        NumpyOptions.parse(options_for("numpy", options))


def auto(graph: Graph, example_inputs, options: dict | None = None):
    """The graph compiled by the backend ``choose`` picks for it."""
    name, why = choose(graph, numba_importable())
    inputs = ", ".join(n.name for n in graph.placeholders)
    log.info("backend auto: graph (%s) %s -> %r", inputs, why, name)
    backend = _backend(name)
    chosen = options_for(name, options)
    if chosen is None:
        return backend(graph, example_inputs)
    return backend(graph, example_inputs, options=chosen)


auto.dynamic_shapes = True    # every backend auto picks takes symbolic sizes
# layout guards by array library: the cupy backend's kernels assume its inputs' layout
# (output_graph._array_spec reads the entry of each input's kind)
auto.layout_guards = {CUPY: "dynamic-contiguity"} if CUPY_PASSED_GPU_CHECKS else False
auto.check_options = check_options
