"""backend="auto", the default: per graph, the native tier (or the numpy backend
without Numba) for NumPy arrays, cupy for CuPy arrays (eager before its GPU checks had
passed), the numpy backend for dask arrays and graphs without arrays; results equal
eager's.

``choose`` takes what the machine offers as arguments (``have_numba``, ``cupy_ready``),
so the choice is tested for every input kind without Numba or CuPy being absent or
present; the run without Numba is a fresh interpreter where ``import numba`` is blocked
(``sys.modules["numba"] = None``), as the native backend's own test does.
"""

from __future__ import annotations

import inspect
import logging
import os
import subprocess
import sys

import numpy as np
import pytest
from dynamo.backends import DEFAULT_BACKEND, is_builtin, lookup_backend
from dynamo.backends import auto as auto_module
from dynamo.backends.auto import NATIVE_KEYS, NUMPY_KEYS, choose, numba_importable, options_for
from harness import check, same

import dynamo
from dynamo.graph import Graph
from dynamo.ops.meta import ArrayMeta

F64 = np.dtype("float64")
rng = np.random.default_rng(5)


def graph_of(*kinds: str) -> Graph:
    """A graph adding its inputs, one input per kind (none: a graph without arrays)."""
    g = Graph()
    xs = [g.placeholder(f"x{i}", {"array": ArrayMeta((4,), F64, kind)})
          for i, kind in enumerate(kinds)]
    g.output(tuple(xs))
    return g


@pytest.mark.parametrize("kinds, have_numba, cupy_ready, expected", [
    (("numpy",), True, False, "native"),
    (("numpy", "numpy"), False, False, "numpy"),
    (("cupy",), True, False, "eager"),
    (("cupy",), False, True, "cupy"),
    (("dask",), True, False, "numpy"),            # the numpy backend hands it to dask
    (("numpy", "dask"), True, False, "numpy"),
    ((), True, False, "numpy"),
])
def test_choice_per_input_kind(kinds, have_numba, cupy_ready, expected):
    name, why = choose(graph_of(*kinds), have_numba, cupy_ready)
    assert name == expected and why


def test_cupy_graphs_go_to_the_cupy_backend_since_its_gpu_checks():
    # the flag the cupy backend's GPU checks flipped (2026-12-04); CuPy inputs then get
    # the cupy backend's layout guards, NumPy inputs none (their backends take any layout)
    assert auto_module.CUPY_PASSED_GPU_CHECKS is True
    assert choose(graph_of("cupy"), True)[0] == "cupy"
    assert auto_module.auto.layout_guards == {"cupy": "dynamic-contiguity"}


def test_auto_is_a_builtin_backend():
    backend = lookup_backend("auto")
    assert backend is auto_module.auto and is_builtin(backend)
    assert backend.dynamic_shapes


def test_options_go_where_they_apply():
    options = {"after_calls": 3, "prefer": "tier1", "threads": 1, "fast_powers": True}
    assert options_for("native", options) == {
        "after_calls": 3, "prefer": "tier1", "numpy": {"threads": 1, "fast_powers": True}}
    assert options_for("numpy", options) == {"threads": 1, "fast_powers": True}
    assert options_for("eager", options) is None
    assert options_for("cupy", options) is None
    assert options_for("native", None) is None
    assert not NATIVE_KEYS & NUMPY_KEYS


@pytest.mark.parametrize("options, message", [
    ({"thread": 2}, r"unknown option\(s\) for backend 'auto': \['thread'\]"),
    ({"threads": 0}, "option 'threads' of backend 'numpy' must be an int >= 1"),
    ({"numpy": {}}, r"unknown option\(s\) for backend 'auto': \['numpy'\]"),
])
def test_bad_options_fail_at_compile(options, message):
    with pytest.raises(ValueError, match=message):
        dynamo.compile(lambda x: x + 1, backend="auto", options=options)


def stencil(A, B):
    for _ in range(3):
        B[1:-1, 1:-1] = 0.25 * (A[1:-1, :-2] + A[1:-1, 2:] + A[:-2, 1:-1] + A[2:, 1:-1])
        A, B = B, A
    return A.sum()


def scaled(x, y):
    return x * 2.0 - y


@pytest.mark.parametrize("fn, args", [
    (stencil, (rng.random((12, 12)), rng.random((12, 12)))),
    (scaled, (rng.random(50), rng.random(50))),
    (scaled, (rng.random((3, 4)).astype(np.float32), 1.5)),
])
def test_results_equal_eager(fn, args):
    check(fn, *args, backend="auto", calls=3)


def test_numpy_arrays_run_on_the_native_tier(caplog):
    pytest.importorskip("numba")
    options = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
    x, y = rng.random(40), rng.random(40)
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        check(scaled, x, y, backend="auto", calls=3, compile_kwargs={"options": options})
    said = [r.getMessage() for r in caplog.records if r.name == "dynamo.backend"]
    picked = [m for m in said if m.startswith("backend auto:")]
    assert picked == ["backend auto: graph (x, y) on NumPy arrays, Numba is importable "
                      "-> 'native'"], said                    # once per graph
    assert any("compiled by Numba" in m for m in said), said


def test_graph_without_array_inputs_runs_numpy_arrays_natively():
    # the graph's arrays are made inside it: still NumPy arrays, still native
    def ramp(n):
        return np.arange(n) * 2.0
    check(ramp, 7, backend="auto")


def test_dask_arrays_go_to_the_dask_backend():
    da = pytest.importorskip("dask.array")
    x = da.from_array(rng.random(16), chunks=4)
    out = dynamo.compile(scaled, backend="auto")(x, x)
    assert type(out).__module__.startswith("dask")
    same(out.compute(), scaled(x, x).compute())


def test_layout_guards_by_array_library():
    # a backend may pin layouts for one array library only (what auto does for CuPy
    # once its backend is ready): NumPy inputs of another layout then make no new entry
    made = []

    def backend(graph, example_inputs):
        made.append(graph)
        return lookup_backend("eager")(graph, example_inputs)
    x = rng.random((6, 6))
    xf = np.asfortranarray(x)
    for guards, entries in (({"cupy": True}, 1), ({"numpy": True}, 2)):
        backend.layout_guards = guards
        made.clear()
        f = dynamo.compile(scaled, backend=backend)
        same(f(x, x), scaled(x, x))
        same(f(xf, xf), scaled(xf, xf))
        assert len(made) == entries, guards


RUN = ("import sys{block}\n"
       "import logging, numpy as np, dynamo\n"
       "logging.basicConfig(level=logging.WARNING, format='%(message)s')\n"
       "logging.getLogger('dynamo.backend').setLevel(logging.INFO)\n"
       "f = dynamo.compile(lambda x: x * 2.0 + 1.0,{backend}\n"
       "                   options={{'after_calls': 2, 'threads': 1}})\n"
       "x = np.arange(5.0)\n"
       "print(all((f(x) == x * 2.0 + 1.0).all() for _ in range(4)))\n"
       "print(sys.modules.get('numba') is not None)\n")


def run_fresh(block: str, backend: str = " backend='auto',") -> tuple[str, str]:
    out = subprocess.run([sys.executable, "-c", RUN.format(block=block, backend=backend)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout, out.stderr


@pytest.mark.parametrize("backend", [" backend='auto',", ""], ids=["auto", "default"])
def test_without_numba_auto_is_the_numpy_backend(backend):
    # the switch the native backend documents: ``import numba`` blocked; on the default
    # too, the numpy backend runs the graph with no error, and only the log says why
    stdout, stderr = run_fresh("; sys.modules['numba'] = None", backend)
    assert stdout.split() == ["True", "False"], (stdout, stderr)
    assert "-> 'numpy'" in stderr and "Numba is not installed" in stderr, stderr
    assert "Traceback" not in stderr and "rror" not in stderr, stderr


def test_numba_is_imported_only_when_a_graph_is_hot(tmp_path):
    pytest.importorskip("numba")
    stdout, stderr = run_fresh("")
    # four calls made the graph hot: the compile thread imported Numba then, not
    # dynamo.compile nor the first call
    assert stdout.split()[0] == "True" and "-> 'native'" in stderr, (stdout, stderr)
    code = ("import sys, numpy as np, dynamo\n"
            "f = dynamo.compile(lambda x: x + 1.0, backend='auto')\n"
            "f(np.ones(3))\n"
            "print(sys.modules.get('numba') is not None)\n")
    # an empty disk cache: a kernel of this graph that another process left there
    # would make the graph hot from its first call (tier._cached), and Numba load
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.stdout.split() == ["False"], out.stderr


def test_parallel_kernel_races_on_all_threads_and_on_one(caplog):
    # on a machine whose cores are busy, a parallel kernel's threads wait for each
    # other: the trial also runs it on one thread, and every answer equals eager's
    numba = pytest.importorskip("numba")
    options = {"after_calls": 1, "background": False, "trial_calls": 1, "cache": False,
               "parallel_min_elements": 16}
    A, B = rng.random((40, 40)), rng.random((40, 40))
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        # (the sum of 1600 elements: within 2 * n * eps of NumPy's, docs/native.md)
        check(stencil, A, B, backend="auto", calls=6, rtol=1e-12,
              compile_kwargs={"options": options})
    decided = [r.getMessage() for r in caplog.records if " runs in " in r.getMessage()]
    assert len(decided) == 1, decided
    if numba.get_num_threads() > 1:
        assert "one thread" in decided[0] and "all threads" in decided[0], decided


# ---- the default (issue #15): ``dynamo.compile(fn)`` is ``backend="auto"``

def test_the_default_backend_is_auto():
    from dynamo.__main__ import _parser
    from dynamo.report.api import annotate
    assert DEFAULT_BACKEND == "auto"
    for fn in (dynamo.compile, dynamo.explain, dynamo.annotate, annotate):
        assert inspect.signature(fn).parameters["backend"].default == "auto", fn
    assert _parser().parse_args(["annotate", "app.py"]).backend == "auto"
    assert repr(dynamo.compile(scaled)) == "<dynamo compiled scaled backend=auto>"
    assert dynamo.compile(backend="eager")(scaled)._ctx.backend_name == "eager"


def test_the_default_runs_numpy_graphs_on_the_numpy_backend_or_the_native_tier(caplog):
    want = "native" if numba_importable() else "numpy"
    x, y = rng.random(40), rng.random(40)
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        f = dynamo.compile(scaled)
        for _ in range(3):       # (under after_calls: no Numba compile)
            same(f(x, y), scaled(x, y))
    picked = [r.getMessage() for r in caplog.records
              if r.getMessage().startswith("backend auto:")]
    assert len(picked) == 1, picked                                  # once per graph
    assert picked[0].startswith("backend auto: graph (x, y) on NumPy arrays"), picked
    assert picked[0].endswith(f"-> {want!r}"), picked


def test_the_numpy_backends_options_work_on_the_default():
    x, y = rng.random(40), rng.random(40)
    f = dynamo.compile(scaled, options={"threads": 1, "fast_powers": True,
                                        "after_calls": 50})
    same(f(x, y), scaled(x, y))
    # checked by the numpy backend's own Options, at compile()
    with pytest.raises(ValueError, match="option 'threads' of backend 'numpy' must be"):
        dynamo.compile(scaled, options={"threads": 0})
    with pytest.raises(ValueError, match=r"unknown option\(s\) for backend 'auto'"):
        dynamo.compile(scaled, options={"thread": 1})
