"""A tier-2 kernel loaded from Numba's disk cache by a new process draws from NumPy's
global RandomState, the one ``np.random.seed`` of the program steers (issue #17).

A legacy draw (``np.random.rand(4)``) is a call of ``_np_ops.random_rand``, the bound
method ``np.random.mtrand._rand.rand``, from an object-mode block (draws.py). Numba
stores a pickle of the block's IR in the kernel's cached code, and the IR holds the
value of each global it reads: the op table ``_np_ops``. Pickled by value, that table
carried a copy of the RandomState of the process that compiled the kernel; a process
loading the kernel rebuilds the block from that pickle. It is still correct because the
block reads ``_np_ops`` by name from the kernel module's globals when it runs (Numba's
object mode), not the pickled value; and with ``ImplTable.__reduce__`` the pickled
value is the live table anyway. This checks the outcome: the draws of a loaded kernel
equal eager's, the global state ends where eager leaves it, and a reseed between calls
steers the kernel as it steers eager.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("numba")

_CHILD = """
import sys
import numpy as np
import dynamo
from dynamo.backends.native.backend import native_backend
from dynamo.backends.native.tier import Tiered

cache_dir, seed = sys.argv[1], int(sys.argv[2])
made = []

def backend(graph, example_inputs):
    # tier 2 at the second call, compiled in this process, the kernel cached on disk
    made.append(native_backend(graph, example_inputs, options={
        "after_calls": 1, "background": False, "prefer": "native", "cache": True,
        "cache_dir": cache_dir}))
    return made[-1]

def noisy(x):
    return x * 2.0 + np.random.rand(4)

def calls(fn):
    x = np.arange(4.0)
    np.random.seed(seed)
    outs = [fn(x), fn(x), fn(x)]
    np.random.seed(seed + 100)    # the program reseeds between calls
    outs.append(fn(x))
    return outs, np.random.get_state()

want, want_state = calls(noisy)
c = dynamo.compile(noisy, backend=backend)
got, got_state = calls(c)
(tier,) = [m for m in made if isinstance(m, Tiered)]
stats = tier._dispatcher.stats
print(tier.error is None, tier.native_calls, sum(stats.cache_hits.values()),
      all(g.tobytes() == w.tobytes() for g, w in zip(got, want, strict=True)),
      got_state[1].tobytes() == want_state[1].tobytes() and got_state[2:] == want_state[2:])
"""


def _child(cache_dir, seed):
    out = subprocess.run([sys.executable, "-c", _CHILD, cache_dir, str(seed)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_a_kernel_from_the_disk_cache_draws_from_the_global_random_state(tmp_path):
    # the first process compiles the kernel (seeded 0 when it did); the second, seeded
    # otherwise, loads it: a copy of the first's RandomState would give other numbers
    assert _child(str(tmp_path), 0) == ["True", "3", "0", "True", "True"]
    assert _child(str(tmp_path), 7) == ["True", "3", "1", "True", "True"]
