"""A parallel kernel's one-thread twin in the disk cache (backends/native/one_thread.py,
docs/native.md "Disk cache"): a process that compiles the kernel into the cache
compiles its twin too, and a new process loads both with the kernel, so the race of the
tiers (which times the twin as the one-thread candidate) runs from the second call
instead of waiting seconds for the twin's compile."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("numba")

_CHILD = """
import sys, numpy as np, dynamo
from dynamo.backends.native import tier
from dynamo.backends.native.backend import native_backend
tier.FIRST_LOAD_WAIT_S = 240.0   # (the load's bound, 10 s, could pass on a loaded CI machine)
cache_dir, mode = sys.argv[1], sys.argv[2]
made = []
def backend(graph, example_inputs):
    # "fill" as scripts/bench_native_warm_cache.py fills: no race, compiled at once
    options = {"cache_dir": cache_dir, "parallel_min_elements": 1}
    if mode == "fill":
        options.update(after_calls=1, background=False, prefer="native")
    made.append(native_backend(graph, example_inputs, options=options))
    return made[-1]
def g(x):
    return np.sqrt(x) - 3.0
c = dynamo.compile(g, backend=backend)
x = np.arange(64.0)
outs = [c(x), c(x)]   # no wait in between: the program's own next call
t = made[0]
print(t.kernel.parallel, t.native_calls, t.twin.dispatcher is not None,
      all(o.tobytes() == g(x).tobytes() for o in outs))
"""


def test_a_warm_cache_holds_the_twin_and_the_race_runs_tier_2_from_the_second_call(tmp_path):
    """Before, a process that compiled the kernel without racing (``prefer="native"``)
    left the twin out of the cache, and a new process's race waited for the twin's
    compile (seconds; 11.8 s at load 7) with tier 1 answering: 0 of 60 Jacobi calls in
    tier 2, in every new process (none lived long enough to cache the twin)."""
    env = dict(os.environ, NUMBA_NUM_THREADS="2")

    def child(mode):
        out = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path), mode],
                             capture_output=True, text=True, timeout=300, env=env)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()
    assert child("fill") == ["True", "1", "True", "True"]
    # call 1: tier 1 (the load starts); call 2 waits for the load, the race's first call
    assert child("auto") == ["True", "1", "True", "True"]
