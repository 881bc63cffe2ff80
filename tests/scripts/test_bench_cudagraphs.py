"""scripts/bench_cudagraphs.py on the CPU: nothing to time, but its comparison must be fair.

The benchmark compares against torch.compile on "the same model"; these tests check
that its torch twins compute what tests/shared/models.py computes, with the same weights,
and that the section is empty (not an error) without a GPU.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys

import pytest
from script_modules import SCRIPTS, load_script

bench_cudagraphs = load_script("bench_cudagraphs")


def test_no_gpu_means_no_rows_and_a_clean_exit(capsys):
    if bench_cudagraphs.gpu_available():
        pytest.skip("a GPU is present: scripts/gpu_check_cudagraphs.sh runs the benchmark")
    assert bench_cudagraphs.run(argparse.Namespace(repeat=1)) == []
    assert bench_cudagraphs.main([]) == 0
    assert "nothing to measure" in capsys.readouterr().out


def test_bench_py_picks_the_section_up():
    bench = load_script("bench")
    assert "bench_cudagraphs" in bench.EXTRA_SECTIONS


def test_rows_share_one_set_of_columns():
    r = bench_cudagraphs.row("mlp", "cudagraphs", 1e-5, replay_us=3.0)
    assert tuple(r) == bench_cudagraphs.COLUMNS
    assert r["per_call_us"] == pytest.approx(10.0) and r["replay_us"] == 3.0


_TWIN_CHECK = """
import importlib.util
import sys
import numpy as np
import torch
sys.path.insert(0, {tests!r})
import models
spec = importlib.util.spec_from_file_location("bench_cudagraphs", {script!r})
bench_cudagraphs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_cudagraphs)
fn, inputs = models.make({name!r}, np)
twin = bench_cudagraphs._torch_twin({name!r}, fn, lambda a: torch.as_tensor(np.asarray(a)))
for seed in range(3):
    x = np.random.default_rng(seed).standard_normal(inputs[0].shape).astype(np.float32)
    got = twin(torch.as_tensor(x)).numpy()
    np.testing.assert_allclose(got, fn(x), rtol=1e-4, atol=1e-5)
print("twin ok")
"""


@pytest.mark.parametrize("name", bench_cudagraphs.MODELS)
def test_torch_twins_compute_the_models(name):
    # In a child process: torch's threads and NumPy's, in one process with the rest of
    # the suite, crashed NumPy ufunc tests later in that process (seen here, 2 runs in 3)
    if importlib.util.find_spec("torch") is None:   # (importing it here is what crashed)
        pytest.skip("torch is not installed")
    script = str(SCRIPTS / "bench_cudagraphs.py")
    done = subprocess.run([sys.executable, "-c", _TWIN_CHECK.format(script=script, tests=str(SCRIPTS.parent / "tests"),
                                                              name=name)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "twin ok" in done.stdout, done.stderr[-3000:]
