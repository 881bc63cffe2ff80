"""New generated code of the call path is specialized before the program's calls run it
(issue #15: calls 3-10 of a small stateful program).

CPython 3.11 runs a new code object unspecialized for its first 8 calls and quickens it
on the 8th (``pyversion.WARMUP_CALLS``). A new dispatcher (``dispatch.warmed``) and a
new frame-entry template (``frame_entries._warm``) are called that many times through
an early return that reads no argument, so the first hit already runs specialized
code. 3.12+ quicken code when it is made and specialize it on its first runs: the same
facts hold there after one hit.

    >>> c = dynamo.compile(f); c(x); c(x)              # compile, one hit
    >>> specialized(cache.dispatch.__code__)           # True (before: only from call 9)
"""

import dis

import numpy as np
import pytest

import dynamo
from dynamo import pyversion


def specialized(code) -> bool:
    """Does ``code`` run quickened instructions (``dis``'s adaptive view differs)?"""
    return any(a.opname != b.opname for a, b in
               zip(dis.get_instructions(code, adaptive=True), dis.get_instructions(code)))


def three_ops(x):
    return np.tanh(x * 2.0 + 1.0)


class Counter:
    def __init__(self):
        self.n = 0

    def step(self, x):
        self.n += 1
        return x * self.n


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_the_first_hit_runs_a_specialized_dispatcher_and_entry(backend):
    compiled = dynamo.compile(three_ops, backend=backend)
    x = np.linspace(0.0, 1.0, 10)
    compiled(x)                       # compiles: a new dispatcher, a new entry template
    np.testing.assert_array_equal(compiled(x), three_ops(x))   # one hit
    cache = compiled._ctx.caches[three_ops.__code__]
    assert specialized(cache.dispatch.__code__)
    assert specialized(compiled.__call__.__code__)


def test_warming_reads_no_argument_and_compiles_nothing():
    c, plain = Counter(), Counter()
    compiled = dynamo.compile(Counter.step, backend="numpy")
    x = np.ones(5)
    for _ in range(3):
        np.testing.assert_array_equal(compiled(c, x), plain.step(x))
    cache = compiled._ctx.caches[Counter.step.__code__]
    assert (c.n, len(cache.entries)) == (3, 1)
    np.testing.assert_array_equal(compiled(c, np.ones(7)), plain.step(np.ones(7)))
    assert (c.n, len(cache.entries)) == (4, 2)   # a new shape: one more entry, warmed too
    lines = cache.dispatch.__dynamo_source__.splitlines()
    warm = ["    if ___fn is ___warming:", "        return None"]
    assert (lines[1:3] == warm) == bool(pyversion.WARMUP_CALLS), lines[:3]


def test_the_hidden_parameter_passed_by_a_caller_still_raises():
    compiled = dynamo.compile(three_ops, backend="eager")
    compiled(np.ones(3))
    hidden = next(iter(compiled.__call__.__kwdefaults__))
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        compiled(np.ones(3), **{hidden: None})
