"""A drawn number compared with a Python number (``rng.random() < eps``), and
``float(x)`` or ``x.item()`` compared likewise, is a graph comparison whose bool the
glue makes (``translator/number_compares.py``, issue #16): stored or returned it needs
no break, and a branch on it breaks at the jump, whose two ways resume separately, so
the resumed code is not guarded on the outcome, and a changing ``eps`` is a graph
input. Where NumPy would compare differently from Python (an int against a float, an
int past 2**53 against a float draw) it breaks at the comparison as before.

Each program runs plainly and compiled on generators in the same state: results
(values and types: ``bool``, ``float``, ``int``), the random streams afterwards, and
compile counts.
"""

import numpy as np
import pytest
from harness import check, outcome, same, same_outcome
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo

BACKENDS = ["eager", "numpy"]


def keep_the_outcome(x, rng, eps):
    u = rng.random()
    return x * 2, u < eps, u >= 0.5, u


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stored_comparison_needs_no_break(backend):
    check(keep_the_outcome, np.arange(3.0), np.random.default_rng(5), 0.3,
          backend=backend, graphs=1, breaks=0)


class Policy:
    def __init__(self, seed=1):
        self.rng = np.random.default_rng(seed)
        self.eps = 1.0
        self.Q = np.random.default_rng(9).standard_normal((5, 4))

    def select(self, state):
        if self.rng.random() < self.eps:
            a = int(self.rng.integers(4))
        else:
            a = int(np.argmax(self.Q[state]))
        self.eps = max(0.05, self.eps * 0.7)
        return a


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_branch_on_a_draw_resumes_without_the_outcome(backend):
    plain, traced = Policy(), Policy()
    dynamo.reset()
    with dynamo.explain(traced.select, backend=backend) as f:
        for i in range(12):
            same(plain.select(i % 5), f(i % 5), path=f"call {i}")
    same(vars(plain), vars(traced))
    recompiles = [str(r) for r in f.report.recompiles]
    # eps's first change, in the frame and in the branch that reads it; the state's
    # first change in the greedy branch (10 before: the outcome and eps were guarded)
    assert len(recompiles) <= 3, "\n".join(recompiles)
    assert not any("carried over the " in r for r in recompiles), recompiles


def draw_float(rng, c):
    return rng.random() < c, rng.standard_normal() >= c, c == rng.random()


def draw_int(rng, c):
    return rng.integers(10).item() <= c, np.random.randint(10) > c


def converted(x, c):
    return float(x.sum()) < c, x.max().item() != c, c <= float(x[0])


CONSTANTS = st.sampled_from([0.5, -0.0, float("nan"), float("inf"), 3, 2 ** 53 + 1,
                             2 ** 70, 7, -2, True, 0.25])


@settings(max_examples=40, deadline=None)
@given(st.lists(CONSTANTS, min_size=2, max_size=5), st.sampled_from(BACKENDS),
       st.sampled_from([draw_float, draw_int]))
def test_draws_compared_with_numbers_equal_python(constants, backend, fn):
    """Floats, ints exact and not exact in a float64, NaN, inf, bools; changing
    between calls (a float that changes is a graph input)."""
    rng_plain, rng_traced = np.random.default_rng(3), np.random.default_rng(3)
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for i, c in enumerate(constants):
        np.random.seed(i)
        want = outcome(fn, (rng_plain, c))
        np.random.seed(i)
        got = outcome(compiled, (rng_traced, c))
        same_outcome(want, got, f"{fn.__name__}(c={c!r})", rtol=0.0)
        same(rng_plain, rng_traced, path="the generator afterwards")


@settings(max_examples=30, deadline=None)
@given(st.lists(CONSTANTS, min_size=2, max_size=4), st.sampled_from(BACKENDS),
       st.sampled_from([np.float64, np.float32, np.int64]))
def test_converted_numbers_compared_equal_python(constants, backend, dtype):
    """``float()`` and ``.item()`` of float64 (in the graph), float32 and int64 arrays
    (``float(np.float32)`` against a float, an int64 item against a float: as before)."""
    x = (np.arange(4) * 0.75).astype(dtype)
    dynamo.reset()
    compiled = dynamo.compile(converted, backend=backend)
    for c in constants:
        same_outcome(outcome(converted, (x, c)), outcome(compiled, (x, c)), f"c={c!r}",
                     rtol=0.0)


def branch(x, rng, eps):
    if rng.random() < eps:   # (ways of one kind would be a select: no break)
        print("hit")
        return x + 1
    return None


def test_the_break_is_at_the_jump_with_the_draws_reason():
    report = check(branch, np.zeros(2), np.random.default_rng(0), 0.5, breaks=1)
    (brk,) = report.break_reasons
    assert "Generator.random without size= returns a Python scalar" in brk.reason
