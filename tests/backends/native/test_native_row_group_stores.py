"""In-place stores into the kernel's own arrays share row loops (nests.join).

A separable blur (``tmp += k[i] * p[:, i:i + w]`` per tap, then the same down the
columns) was one ``prange`` loop per tap: 26 thread launches a call for 13 taps, each
a wait for a core on a busy machine (corpus 13's blur, tier 2 forced at load 20: 1.5-2
s a call against 2.4 ms plain). Its passes are now one row loop each.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from tier_runs import same_in_tier_two  # noqa: E402

import dynamo  # noqa: E402

# tier 2 never compiled: the kernel's source only
NEVER = {"after_calls": 10**9, "background": False, "cache": False}


def _blur(img, k):
    # rows then columns, an accumulation per tap into a new array: 2 passes, 2 taps
    n = len(k)
    h, w = img.shape[0] - n + 1, img.shape[1] - n + 1
    tmp = np.zeros((img.shape[0], w))
    for i, c in enumerate(k):
        tmp += c * img[:, i:i + w]
    out = np.zeros((h, w))
    for i, c in enumerate(k):
        out += c * tmp[i:i + h, :]
    return out


def test_a_blur_s_accumulations_are_one_parallel_loop_per_pass():
    k = np.array([0.25, 0.75])
    made = []

    def lowered_only(graph, example_inputs):   # (no compile: a parallel one takes 10 s)
        made.append(native_backend(graph, example_inputs, options=NEVER))
        return made[-1]
    img = np.random.default_rng(0).random((136, 136))   # rows of 135: parallel loops
    dynamo.compile(_blur, backend=lowered_only)(img, k)
    (tier,) = [m for m in made if isinstance(m, Tiered)]
    source = tier.__dynamo_native_source__
    assert tier.kernel.parallel and source.count("prange(") == 2, source
    # the same lowering on fewer rows (plain row loops), compiled: eager's results
    same_in_tier_two(_blur, np.random.default_rng(3).random((12, 12)), k)


def _mirror_then_add(x):
    z = np.zeros_like(x)
    z += x
    y = z[::-1] * 2.0   # reads z at the mirrored row
    z += y              # eager: after every row of y was made from z as it was
    return z


def test_a_store_waits_for_a_loop_that_read_its_array_at_other_rows():
    # in one row loop with y's nest, row i of z would change before y's row n - 1 - i
    # read it (small: a plain row loop, whose order shows it as threads would)
    same_in_tier_two(_mirror_then_add, np.random.default_rng(1).random((12, 12)))

