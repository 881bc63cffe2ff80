"""Dynamic shapes: symbolic sizes, automatic dynamic, mark_dynamic, specialization."""

import numpy as np
import pytest
from harness import rand, same

import dynamo


def decode_step(x, w_qkv, w_o):
    """One causal self-attention step over a sequence that grows by one token."""
    T, C = x.shape
    q, k, v = np.split(x @ w_qkv, 3, axis=-1) if False else (
        (x @ w_qkv)[:, :C], (x @ w_qkv)[:, C:2 * C], (x @ w_qkv)[:, 2 * C:])
    i = np.arange(T)
    mask = np.where(i[:, None] >= i[None, :], 0.0, -1e9).astype(x.dtype)
    att = q @ k.T / np.sqrt(C) + mask
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    y = (att @ v) @ w_o
    return y[-1], y.reshape(T, C // 4, 4).sum(axis=1), T - 1


def test_decode_loop_compiles_at_most_twice(traces):
    w_qkv, w_o = rand(16, 48, seed=1), rand(16, 16, seed=2)
    c = dynamo.compile(decode_step, backend="eager")
    for T in range(5, 41):
        x = rand(T, 16, seed=T)
        same(decode_step(x, w_qkv, w_o), c(x, w_qkv, w_o), rtol=1e-6, atol=1e-6)
    assert len(traces) == 2


def test_dynamic_true_compiles_once(traces):
    c = dynamo.compile(decode_step, dynamic=True, backend="eager")
    for T in (3, 7, 12):
        x, w_qkv, w_o = rand(T, 16), rand(16, 48), rand(16, 16)
        same(decode_step(x, w_qkv, w_o), c(x, w_qkv, w_o), rtol=1e-6, atol=1e-6)
    assert len(traces) == 1


def test_dynamic_false_compiles_per_shape(traces):
    c = dynamo.compile(lambda x: x * 2, dynamic=False, backend="eager")
    for n in (3, 4, 5, 6):
        c(rand(n))
    assert len(traces) == 4


def test_sizes_zero_and_one_are_specialized(traces):
    c = dynamo.compile(lambda x: x.sum(axis=0) * x.shape[0], dynamic=True, backend="eager")
    for n in (5, 1, 0, 9):
        x = rand(n, 3)
        same(x.sum(axis=0) * x.shape[0], c(x))
    assert len(traces) == 3   # one symbolic entry for n >= 2, and one each for 1 and 0


def test_mark_dynamic(traces):
    c = dynamo.compile(lambda x: x + x.shape[1], backend="eager")
    x = rand(4, 6)
    dynamo.mark_dynamic(x, 1)
    c(x)
    y = rand(4, 9)
    same(y + 9, c(y))
    assert len(traces) == 1
    with pytest.raises(IndexError):
        dynamo.mark_dynamic(x, 2)


def test_branch_on_size_becomes_guard(traces):
    def f(x):
        if x.shape[0] > 8:
            return x * 2
        return x - 1

    c = dynamo.compile(f, dynamic=True, backend="eager")
    for n in (3, 5, 12, 20, 4):
        x = rand(n)
        same(f(x), c(x))
    assert len(traces) == 2   # one entry for n <= 8, one for n > 8
    report = dynamo.explain(f, dynamic=True, backend="eager")(rand(12))
    assert "x.shape[0] > 8" in str(report)


def test_range_of_a_size_specializes(traces):
    def f(x):
        total = x[0]
        for i in range(x.shape[0]):
            total = total + x[i]
        return total

    c = dynamo.compile(f, dynamic=True, backend="eager")
    for n in (3, 4, 3):
        x = rand(n, 2)
        same(f(x), c(x))
    assert len(traces) == 2
    guards = [g.describe() for g in dynamo.explain(f, dynamic=True,
                                                   backend="eager")(rand(3, 2)).guards]
    assert any(g.startswith("x.shape[0] == 3") for g in guards)   # the loop bound: pinned


def test_symbols_visible_in_explain():
    def f(x, w):
        return (x @ w).reshape(x.shape[0], -1)

    report = dynamo.explain(f, dynamic=True, backend="eager")(rand(5, 4), rand(4, 6))
    text = str(report)
    assert "def forward(x, w, s0)" in text
    assert "ops.reshape(matmul, ((s0), -1,))" in text, text
    assert report.records[0].symbols == {"s0": "L['x'].shape[0]", "s1": "L['x'].shape[1]",
                                         "s2": "L['w'].shape[0]", "s3": "L['w'].shape[1]"}
    assert "w.shape[0] == x.shape[1]" in text


def test_dynamic_size_returned_as_python_int():
    def f(x):
        return x.shape[0] * 3 + 1, len(x) - 1

    c = dynamo.compile(f, dynamic=True, backend="eager")
    for n in (4, 9):
        assert c(rand(n)) == (n * 3 + 1, n - 1)


def test_non_affine_size_specializes(traces):
    def f(x):
        n = x.shape[0]
        return x.reshape(n // 2, 2)

    c = dynamo.compile(f, dynamic=True, backend="eager")
    for n in (4, 6, 4):
        x = rand(n)
        same(f(x), c(x))
    assert len(traces) == 2


def test_float_arithmetic_with_a_size_pins_it(traces):
    def f(x):
        k = x.shape[0]
        return x * (0.1 / k) + 1.5 * k

    c = dynamo.compile(f, dynamic=True, backend="eager")
    for n in (4, 5, 4):
        x = rand(n)
        same(f(x), c(x), rtol=1e-6)
    assert len(traces) == 2        # 0.1 / k needs k itself: one entry per size


def test_layout_guards_dynamic_contiguity(traces):
    """``layout_guards = "dynamic-contiguity"``: exact strides for static inputs and for
    non-contiguous ones, contiguity flags for a contiguous input with a dynamic size
    (its strides change with the size)."""
    from dynamo.backends.eager import eager

    def spy(graph, example_inputs):
        return eager(graph, example_inputs)

    spy.layout_guards, spy.dynamic_shapes = "dynamic-contiguity", True

    def f(x, w, v):
        return x * 2, w + 1, v - 1

    args = (rand(4, 6), rand(3), rand(8, 10)[:, ::2])
    guards = [g.describe() for g in dynamo.explain(f, backend=spy, dynamic=True)(*args).guards]
    assert any(g.startswith("L['x']") and "C contiguous" in g and "strides" not in g
               for g in guards), guards
    assert any(g.startswith("L['v']") and "strides=(40, 8)" in g for g in guards), guards
    c = dynamo.compile(f, backend=spy, dynamic=True)
    before = len(traces)
    for n in (4, 5, 7):
        x = rand(n, n + 2)
        same(f(x, args[1], args[2]), c(x, args[1], args[2]))
    assert len(traces) == before + 1     # new row lengths: new strides, same entry


# ----------------------------------------------------------------- Python int arguments

def scale_shift(x, n):
    return x * n + n, n - 1


def loop_n(x, n):
    for _ in range(n):
        x = x * 2
    return x


def noisy_mean(x, seed):
    rng = np.random.default_rng(seed)     # a graph op: made when the graph runs
    return (x + rng.standard_normal(x.shape)).mean()


STEP = 0


def global_step(x):
    global STEP
    STEP += 1
    return x * STEP, STEP


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_an_int_argument_that_changes_becomes_symbolic(traces, backend):
    # n is used as a value only (x * n + n, n - 1): from its first change on, one
    # entry with n symbolic serves every n, 0 and 1 included (no range guard)
    x = rand(5)
    c = dynamo.compile(scale_shift, backend=backend)
    for n in [0, 1, 2, 3, 7, 100, 2, 1, 0, -4]:
        same(scale_shift(x, n), c(x, n))
    assert traces == ["scale_shift"] * 2
    report = dynamo.explain(scale_shift, backend="eager")(x, 5)
    assert (report.graph_count, report.graph_break_count) == (1, 0)


def test_an_int_used_as_a_plain_int_stays_specialized(traces):
    x = rand(5)
    c = dynamo.compile(loop_n, backend="eager")
    for n in [2, 3, 4, 3]:
        same(loop_n(x, n), c(x, n))
    assert traces == ["loop_n"] * 3    # range(n) unrolls: one entry per n (n=3 hits)


def test_a_seed_argument_does_not_recompile_the_rest(traces):
    x = rand(1000)
    c = dynamo.compile(noisy_mean, backend="eager")
    for seed in range(12):                # more seeds than the cache has entries
        same(noisy_mean(x, seed), c(x, seed))
    # one graph, no break: traced for seed 0 (specialized by value) and once for the
    # rest, with the seed a dynamic int used as a value (no range guard: 1 is one too)
    assert traces == ["noisy_mean"] * 2, traces


def test_ints_stay_static_with_dynamic_false_and_for_globals(traces):
    x = rand(5)
    c = dynamo.compile(scale_shift, dynamic=False, backend="eager")
    for n in [2, 3, 4]:
        same(scale_shift(x, n), c(x, n))
    assert len(traces) == 3
    global STEP
    STEP = 0
    expected = [global_step(x) for _ in range(3)]
    STEP = 0
    g = dynamo.compile(global_step, backend="eager")
    got = [g(x) for _ in range(3)]           # a global written by the call: by value
    same(expected, got)


def sized(x, n):
    return np.zeros(n) + x[0]


def test_a_bad_dynamic_int_raises_eagers_error(traces):
    c = dynamo.compile(sized, backend="eager")
    x = rand(3)
    for n in (2, 3, 4):
        same(sized(x, n), c(x, n))
    for bad in (-1, 2.5):
        with pytest.raises(Exception) as want:
            sized(x, bad)
        with pytest.raises(type(want.value)) as got:
            c(x, bad)
        assert str(got.value) == str(want.value)
