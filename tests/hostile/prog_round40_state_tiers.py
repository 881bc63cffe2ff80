"""Round 40, state: the native tier's graphs in the disk cache
(``backends/native/stored_tier.py``; the category of ``prog_round40_state_hash.py``).
A graph compiled on "native" (and on "auto" with tier 2 forced: ``hostile_check.TIER2``)
with the disk cache on, called until tier 2 runs, then ``dynamo.reset()`` (the next
compile loads the stored ``Tiered``) and between the two compiles a global the loop
reads rebound, a helper it inlines given other code, or the input's dtype changed
(float32, int64: another entry). (A graph with a loop node is not stored: its loop
body is a function of the program's run; these are loop-free.) They name their backend, so they run once
(``Program.own_backend``).

    >>> def _chain(x):
    ...     return np.tanh(x) * SCALE + x ** 2 - np.sqrt(np.abs(x)).sum()
"""

import os
import tempfile

import numpy as np
from hostile_check import TIER2, Programs

import dynamo

reg = Programs("round40_state")
SCALE = 1.0 / 3.0


def _helper(a, b):
    return a * 0.5 + b


def _chain(x):
    return np.tanh(x) * SCALE + x ** 2 - np.sqrt(np.abs(x)).sum()


def _helped(x):
    return _helper(np.tanh(x), x) * 2.0 + x.max()


def _v(n=24, dtype=np.float64):
    return (np.random.default_rng(n).random(n) * 4 - 1).astype(dtype)


def _rescale(r):
    r.patch(globals(), "SCALE", 2.0)


def _other_code(r):
    def other(a, b):
        return a - b * 2.0
    r.patch(_helper, "__code__", other.__code__)


def _stored(name, fn, between, later):
    """``fn`` on "native" and "auto" (tier 2 forced), stored, reloaded after ``between``
    and called on ``later`` (input makers)."""
    for backend in ("native", "auto"):
        def s(r, backend=backend):
            with tempfile.TemporaryDirectory(prefix="dynamo-r40t-") as d:
                os.chmod(d, 0o700)
                r.patch(dynamo.config, "disk_cache_dir", d)
                f = r.compile_on(fn, backend, options=TIER2)
                r.call(f, _v())
                r.call(f, _v())
                if r.compiled:
                    dynamo.reset()
                between(r)
                g = r.compile_on(fn, backend, options=TIER2)
                for make in later:
                    r.call(g, make())
        reg._add(f"{name}_{backend}", s, (fn.__doc__ or "").strip(), own_backend=True)


_stored("stored_global_rebound", _chain, _rescale, (_v, _v))
_stored("stored_dtype_changed", _chain, lambda r: None,
        (_v, lambda: _v(dtype=np.float32), lambda: np.arange(24), _v))
_stored("stored_helper_code", _helped, _other_code, (_v, _v))
