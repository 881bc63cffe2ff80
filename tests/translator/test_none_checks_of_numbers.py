"""``if v is None`` of a changing number (``translator/control_flow.py``,
``jump_if_none``; issue #16): a float or int that is an input of the graph is never
None, which its type says; the check no longer pins its value. A memo dict of floats
(``v = self.memo.get(k); if v is None: ...``) pinned each memo value it met
(stateful corpus 13's ``memo_dict_of_floats``: 4 recompiles, now 3), and an optional
``lr=None`` argument passed as a changing float recompiled at every new value.
A None still takes the None side. Plain and compiled side by side, both CPU backends.

Example::

    v = self.memo.get(k)      # a changing float once k's value changed
    if v is None:             # False by its type: no guard on its value
        ...
"""

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ["eager", "numpy"]
X = np.linspace(-1.0, 1.0, 6)
KEYS = [(3 * i + i * i) % 5 for i in range(20)]
TABLE = np.sin(np.arange(30.0)).reshape(5, 6)


class MemoDict:
    def __init__(self):
        self.memo = {}

    def run(self, x, k):
        v = self.memo.get(k)
        if v is None:
            v = float(np.sum(TABLE[k]))
            self.memo[k] = v
        return x * v


def _recompiles(fn, args_of, calls, backend, plain):
    dynamo.reset()
    with dynamo.explain(fn, backend=backend) as f:
        for i in range(calls):
            same(plain(*args_of(i)), f(*args_of(i)), path=f"call {i}")
    return [r for r in f.report.recompiles if r.call >= 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_memo_of_floats_checked_for_none_pins_no_value(backend):
    """Before: 4 recompiles, one ``self.memo[(k)] == ... (a changing float used as a
    plain value: pinned ... if v is None:)``."""
    plain, compiled = MemoDict(), MemoDict()
    recompiles = _recompiles(compiled.run, lambda i: (X, KEYS[i]), len(KEYS), backend,
                             plain.run)
    assert plain.memo == compiled.memo
    assert not any("pinned" in str(r) for r in recompiles), recompiles
    assert len(recompiles) <= 3, recompiles


def scaled(x, lr=None):
    if lr is None:
        lr = 0.1
    return x * lr


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_optional_float_argument_changing_compiles_once_more(backend):
    """A changing ``lr`` is an input after its first change: 1 recompile over 8 values
    (before: an entry per value until the cache limit); ``lr=None`` still gives 0.1."""
    lrs = [0.5, 0.25, 0.125, 0.3, 0.7, 0.9, 0.01, 0.02]
    assert len(_recompiles(scaled, lambda i: (X, lrs[i]), len(lrs), backend,
                           scaled)) == 1
    recompiles = _recompiles(scaled, lambda i: (X, [0.5, None, 0.25, None][i]), 4,
                             backend, scaled)
    assert len(recompiles) <= 2, recompiles
