"""``kept_buffers.release_kept``: the buffers a generated function keeps between calls
(scratch sites, flat passes' holders, block scratch sets) let go on request (the native
tier asks once tier 2 answers a graph: docs/native.md); the next call makes new ones
and its result is unchanged."""

from __future__ import annotations

import numpy as np
from dynamo.backends.numpy_backend.backend import numpy_code
from dynamo.backends.numpy_backend.kept_buffers import holders, release_kept

import dynamo


def sharpen(img):
    rows = 0.25 * img[:-2, :] + 0.5 * img[1:-1, :] + 0.25 * img[2:, :]
    blur = 0.25 * rows[:, :-2] + 0.5 * rows[:, 1:-1] + 0.25 * rows[:, 2:]
    mid = img[1:-1, 1:-1]
    return np.clip(mid + 0.6 * (mid - blur), 0.0, 1.0)


def test_release_lets_go_of_kept_buffers_and_the_next_call_is_the_same():
    made = []

    def backend(graph, example_inputs):
        made.append(numpy_code(graph, example_inputs))
        return made[-1]
    x = np.random.default_rng(3).random((402, 402))      # 1.28 MB values: kept
    compiled = dynamo.compile(sharpen, backend=backend)
    want = sharpen(x.copy())
    np.testing.assert_array_equal(compiled(x.copy()), want, strict=True)
    kept = sum(h.retained() for h in holders(made[0]))
    assert kept >= 1 << 20                                # something large was kept
    assert release_kept(made[0]) == kept
    assert sum(h.retained() for h in holders(made[0])) == 0
    np.testing.assert_array_equal(compiled(x.copy()), want, strict=True)
    assert sum(h.retained() for h in holders(made[0])) > 0    # kept again
    dynamo.reset()
