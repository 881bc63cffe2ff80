"""A changing Python int used only as a value (a step counter: ``self.t += 1``, ``0.9 **
t``, ``x * t``, written back, returned) is a graph input with no range guard, so a
counter the frame itself advances compiles once (issue #16: the first trace sees the
write and starts over with it symbolic, ``dynamo.symbolic.written_numbers``); an int
that shapes an array or bounds a loop is a size, guarded ``>= 2`` (0 and 1
specialized) as before (``dynamo.symbolic.sizes.as_size``).

Each program runs compiled and plain side by side over several calls, with start
values 0, 1, negative and large (hypothesis), and must give eager's results, raise
eager's exceptions, leave eager's state, and compile no more than its count.
"""

import numpy as np
import pytest
from harness import outcome, same, same_outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dynamo

BACKENDS = ["eager", "numpy"]


class Adam:
    """Adam's bias correction with an int step counter that starts at ``t``."""

    def __init__(self, t=0):
        self.t = t
        self.m = np.zeros(4)

    def update(self, g):
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * g
        return self.m / (1 - 0.9 ** self.t)


class Values:
    """Value uses of a counter: float math, true division, negation, an operand of
    array arithmetic, returned and written back."""

    def __init__(self, t=0, step=1):
        self.t, self.step = t, step

    def f(self, x):
        t = self.t
        self.t = t + self.step
        return x * t + x / (t + 0.5), t / 2, -t, t * 3 - 7, 1.0 - 2.5 * t


def _run(make, method: str, args, n_calls, backend):
    """``obj.method(*args(k))`` on a plain ``make()`` and on a compiled one, for ``k``
    in ``range(n_calls)``: the outcomes and the objects' states must be equal; returns
    the compile count."""
    plain, traced = make(), make()
    dynamo.reset()
    with dynamo.explain(getattr(traced, method), backend=backend) as compiled:
        for k in range(n_calls):
            want = outcome(getattr(plain, method), args(k))
            got = outcome(compiled, args(k))
            same_outcome(want, got, f"call {k}")
            same(vars(plain), vars(traced), path=f"state after call {k}")
    return compiled.report.compile_count


@pytest.mark.parametrize("backend", BACKENDS)
def test_adam_step_counter_from_0_compiles_once(backend):
    # the first trace writes t = 1 where it read t = 0: it starts over with t symbolic
    # (dynamo.symbolic.written_numbers), so no call learns that t changes
    count = _run(Adam, "update", lambda k: (np.full(4, 0.5 + k),), 12, backend)
    assert count == 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.one_of(st.sampled_from([0, 1, -1, -2, 2, 2**40, -2**40, 2**62]),
                       st.integers(-50, 50)),
       step=st.sampled_from([1, 2, -1, 3]),
       backend=st.sampled_from(BACKENDS))
def test_value_uses_of_a_counter_compile_once(start, step, backend):
    count = _run(lambda: Values(start, step), "f", lambda k: (np.linspace(-1, 2, 5),), 7,
                 backend)
    assert count == 1   # written back with a new value: symbolic from the first trace


def decay(x, t):
    """``0.9 ** t`` (negative t: a power of 1/0.9), ``x ** t`` (NumPy has fast paths for
    0, 1, 2 and -1), and the counter returned."""
    return x * 0.9 ** t + x ** t, t + 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_powers_at_0_1_and_negative_equal_eager(backend):
    x = np.linspace(0.5, 2.0, 6)
    dynamo.reset()
    with dynamo.explain(decay, backend=backend) as compiled:
        for t in [5, 0, 1, 2, -1, -2, 3, 0, 7, -5, 1]:
            same_outcome(outcome(decay, (x, t)), outcome(compiled, (x, t)), f"t = {t}")
    assert compiled.report.compile_count == 2


def branch(x, t):
    if t == 0:        # control flow: guarded, not a value
        return x - 1.0
    return x * t


def test_a_comparison_still_guards():
    x = np.arange(4.0)
    dynamo.reset()
    with dynamo.explain(branch, backend="eager") as compiled:
        for t in [3, 0, 1, 2, 0, 5, -3, 0]:
            same(branch(x, t), compiled(x, t), path=f"t = {t}")
    # t = 3 (by value), t = 0 (symbolic, t == 0), then symbolic with t != 0
    assert compiled.report.compile_count == 3


def sized_later(x, n):
    """A value use, then a size use: the size use decides (0 and 1 specialized)."""
    y = x * n
    return y.sum() + np.zeros(n).sum(), np.arange(n) * 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_int_used_as_a_size_keeps_0_and_1_specialized(backend):
    x = np.arange(3.0)
    dynamo.reset()
    with dynamo.explain(sized_later, backend=backend) as compiled:
        for n in [0, 1, 2, 3, 7, 4, 1, 0, 9, -1, -3]:
            same_outcome(outcome(sized_later, (x, n)), outcome(compiled, (x, n)), f"n = {n}")
    report = compiled.report
    # 0 (by value), 1 (a size at 1: pinned for that entry only), then n >= 2 symbolic;
    # at -1 np.zeros's rule raises: the graph breaks there and the call runs it eagerly,
    # raising eager's ValueError (that entry serves -3 too)
    assert report.compile_count == 4, [str(r) for r in report.recompiles]
    guards = [str(g) for r in report.records for g in r.guards]
    assert any("n >= 2" in g for g in guards), guards


def loop_bound(x, n):
    for i in range(n):
        x = x * 1.01 + i
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_bound_is_exact_from_0(backend):
    # short loops unroll (range(n) pins n); long ones are loop nodes over n trips,
    # whose count is a size: guarded n >= 2, so 1 and 0 never run them
    x = np.arange(3.0)
    c = dynamo.compile(loop_bound, backend=backend)
    for n in [0, 1, 2, 40, 55, 1, 0, 3, 64]:
        same(loop_bound(x, n), c(x, n), path=f"n = {n}")
    # range(1) unrolled pins n at 1, for that entry only: 40 is still a loop node's
    # symbolic trip count, which serves 55 and 64
    dynamo.reset()
    with dynamo.explain(loop_bound, backend=backend) as compiled:
        for n in [0, 1, 40, 55, 64, 1, 0]:
            same(loop_bound(x, n), compiled(x, n), path=f"n = {n}")
    assert compiled.report.compile_count == 3, \
        [str(r) for r in compiled.report.recompiles]


def root(t):
    """``t ** 0.5`` is a float for t >= 0, complex below: guarded ``t >= 0``."""
    return t ** 0.5 + 1.0


def test_a_root_of_a_counter_guards_its_sign():
    dynamo.reset()
    with dynamo.explain(root, backend="eager") as compiled:
        for t in [4, 0, 1, 9, 2, -4, -1, 16]:
            same(root(t), compiled(t), path=f"t = {t}")
    # 4 (by value); symbolic, guarded t >= 0; -4 pins t (a complex power): static
    # from then on, so -1 gets its own entry
    assert compiled.report.compile_count == 4


def overflow(x, t):
    return x * t, t * 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_large_ints_and_int8_arrays_equal_eager(backend):
    big = np.arange(3, dtype=np.int64)
    small = np.arange(3, dtype=np.int8)
    for x in (big, small):
        dynamo.reset()
        c = dynamo.compile(overflow, backend=backend)
        for t in [2, 3, 0, 1, -2, 100, 300, 2**62, 2**63 - 1, 2**63, -2**63, -2**63 - 1,
                  2**70, 5]:
            same_outcome(outcome(overflow, (x, t)), outcome(c, (x, t)),
                         f"{x.dtype} * {t}")


def bool_or_int(x, t):
    return x * t, t + 1, type(t).__name__


def test_bool_is_not_an_int():
    x = np.arange(3.0)
    c = dynamo.compile(bool_or_int, backend="eager")
    for t in [2, 3, True, 1, False, 0, True, 4]:
        same(bool_or_int(x, t), c(x, t), path=f"t = {t!r}")


class Seeded:
    def __init__(self):
        self.seed = 0

    def draw(self, x):
        self.seed += 1
        return x + np.random.default_rng(self.seed - 3).standard_normal(x.shape)


def test_a_seed_counter_from_negative_raises_eagers_error():
    # seeds -3, -2, -1 raise ValueError (eagerly and from the graph), then 0, 1, ...
    count = _run(Seeded, "draw", lambda k: (np.zeros(3),), 8, "eager")
    assert count <= 2




def arange_of_float(x, n):
    """``np.arange`` of an int's float (``n + 1.0``, ``2.0 * n - 1.0``: float64 ranges of
    n + 1 and 2n - 1 elements, empty below)."""
    a = np.arange(n + 1.0)
    b = np.arange(2.0 * n - 1.0)
    return x * a.sum() + b.sum(), a, b


def arange_of_half(x, n):
    """``n + 0.5`` is no int's float: its length is read by value (n pinned)."""
    return x * np.arange(n + 0.5).sum()


@pytest.mark.parametrize("backend", BACKENDS)
def test_arange_of_an_ints_float_is_a_size(backend):
    # n + 1.0 is float(n) + 1 at every n: its length n + 1 fits as a size
    # (ShapeEnv.floats_as_sizes), where it pinned n (an entry per n) before
    x = np.ones(3)
    for fn, most in ((arange_of_float, 2), (arange_of_half, None)):
        dynamo.reset()
        with dynamo.explain(fn, backend=backend) as compiled:
            for n in [4, 5, 9, 2, 12] if most else [4, 5]:
                same_outcome(outcome(fn, (x, n)), outcome(compiled, (x, n)), f"n = {n}")
        # n = 4 by value, then n symbolic (a size: >= 2); n + 0.5: an entry per n
        assert most is None or compiled.report.compile_count <= most, str(compiled.report)
    with dynamo.explain(arange_of_float, backend=backend) as compiled:
        for n in [1, 0, -3]:   # (0 and 1 specialized, below 0 empty ranges)
            same_outcome(outcome(arange_of_float, (x, n)), outcome(compiled, (x, n)),
                         f"n = {n}")
