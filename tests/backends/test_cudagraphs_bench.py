"""scripts/bench_cudagraphs.py on the CPU: nothing to time, but its comparison must be fair.

The benchmark compares against torch.compile on "the same model"; these tests check
that its torch twins compute what scripts/models.py computes, with the same weights,
and that the section is empty (not an error) without a GPU.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import bench_cudagraphs  # noqa: E402
import models  # noqa: E402


def test_no_gpu_means_no_rows_and_a_clean_exit(capsys):
    if bench_cudagraphs.gpu_available():
        pytest.skip("a GPU is present: scripts/gpu_check_cudagraphs.sh runs the benchmark")
    assert bench_cudagraphs.run(argparse.Namespace(repeat=1)) == []
    assert bench_cudagraphs.main([]) == 0
    assert "nothing to measure" in capsys.readouterr().out


def test_bench_py_picks_the_section_up():
    import bench
    assert "bench_cudagraphs" in bench.EXTRA_SECTIONS


def test_rows_share_one_set_of_columns():
    r = bench_cudagraphs.row("mlp", "cudagraphs", 1e-5, replay_us=3.0)
    assert tuple(r) == bench_cudagraphs.COLUMNS
    assert r["per_call_us"] == pytest.approx(10.0) and r["replay_us"] == 3.0


@pytest.mark.parametrize("name", bench_cudagraphs.MODELS)
def test_torch_twins_compute_the_models(name):
    torch = pytest.importorskip("torch")
    fn, inputs = models.make(name, np)
    twin = bench_cudagraphs._torch_twin(name, fn, lambda a: torch.as_tensor(np.asarray(a)))
    for seed in range(3):
        x = np.random.default_rng(seed).standard_normal(inputs[0].shape).astype(np.float32)
        got = twin(torch.as_tensor(x)).numpy()
        np.testing.assert_allclose(got, fn(x), rtol=1e-4, atol=1e-5)
