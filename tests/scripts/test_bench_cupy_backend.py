"""The cupy benchmark module: [] without a GPU, and a dry run of its table on the CPU.

The dry run gives ``scripts/bench_cupy_backend.py`` NumPy in place of CuPy, the
reference executor in place of the ``cupy`` backend and small shapes, so a GPU run
does not spend device time on a bug in the script.
"""

import argparse
import types

import numpy as np
import pytest
from dynamo.backends.cupy_backend import reference_backend
from script_modules import load_script

bench = load_script("bench_cupy_backend")


def test_no_gpu_no_rows():
    assert bench.run(argparse.Namespace(), bench.Setup(gpu=False)) == []


def test_dry_run_of_the_table():
    fake = types.SimpleNamespace(
        asarray=np.asarray, fuse=lambda f: f, tanh=np.tanh, float64=np.float64, max=np.max,
        abs=np.abs,
        cuda=types.SimpleNamespace(Device=lambda: types.SimpleNamespace(synchronize=lambda: None)))
    setup = bench.Setup(gpu=True, cupy=fake, backend=reference_backend, bandwidth=1e12,
                        shapes={"gelu": [(1000,)], "softmax": [(16, 64)],
                                "layernorm": [(16, 64), (64,), (64,)]})
    args = argparse.Namespace(models="gelu,softmax,layernorm", repeat=3, calls=2,
                              no_torch=True, no_subprocess=True, sweep=True)
    rows = bench.run(args, setup)
    main = [r for r in rows if r["model"] in ("gelu", "softmax", "layernorm")]
    assert [r["model"] for r in main] == ["gelu", "softmax", "layernorm"]
    for r in rows:
        assert r["max_rel_err"] < 1e-6 and r["compiled_us"] > 0 and r["x_roofline"] > 0
    assert "cupy_fuse_us" in main[0] and main[1]["roofline_us"] == pytest.approx(
        2 * 16 * 64 * 4 / 1e12 * 1e6)
    assert len(rows) == 3 + sum(len(v) for v in bench.SWEEP.values())
