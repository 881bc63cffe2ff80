"""Stateful programs compile once (issue #16): appended lists, changing numbers, token lists.

Each test runs a function over several calls, eagerly and compiled (each on its own
deep copy of the arguments), compares every result and the arguments afterwards, and
counts the frames compiled with a listener (``dynamo.listeners``, ``on_compile``).
"""

from __future__ import annotations

import copy
import logging

import numpy as np
import pytest
from harness import same

import dynamo
from dynamo import listeners

BACKENDS = ["eager", "numpy"]


class Compiles:
    """Counts the frames compiled (``on_compile``), and keeps their records."""

    def __init__(self):
        self.records = []

    def on_compile(self, record, ctx):
        self.records.append(record)

    @property
    def count(self) -> int:
        return len(self.records)


def outcome(fn, args):
    try:
        return "ok", fn(*args)
    except Exception as e:  # noqa: BLE001 (compared with the compiled outcome)
        return "raised", type(e)


def run_calls(fn, calls, backend="eager", make=None):
    """Run ``fn`` (or ``make()``'s function, one per side) over ``calls`` (argument
    tuples), eagerly and compiled; assert each outcome and the arguments afterwards are
    the same; return the number of compiles."""
    eager_fn = make() if make is not None else fn
    compiled = dynamo.compile(make() if make is not None else fn, backend=backend)
    counter = Compiles()
    with listeners.listening(counter):
        for i, args in enumerate(calls):
            a, b = copy.deepcopy(args), copy.deepcopy(args)
            want, got = outcome(eager_fn, a), outcome(compiled, b)
            assert want[0] == got[0], f"call {i}: eager {want}, compiled {got}"
            if want[0] == "ok":
                same(want[1], got[1], path=f"call {i} result")
            else:
                assert want[1] is got[1], f"call {i}: eager raised {want[1]}, compiled {got[1]}"
            same(list(a), list(b), path=f"call {i} arguments")
    return counter.count


# --------------------------------------------------------------------------- appended state

class Layer:
    """A numpy-ml layer that keeps its inputs (retain_derived=True)."""

    def __init__(self):
        self.X = []

    def forward(self, x):
        self.X.append(x)
        return np.tanh(x)


@pytest.mark.parametrize("backend", BACKENDS)
def test_layer_appends_compile_once(backend):
    eager, layer = Layer(), Layer()
    f = dynamo.compile(layer.forward, backend=backend)
    counter = Compiles()
    with listeners.listening(counter):
        for i in range(10):
            x = np.full(4, float(i), np.float32)
            same(eager.forward(x.copy()), f(x.copy()))
    assert counter.count == 1
    same(eager.X, layer.X)


# --------------------------------------------------------------------------- changing numbers

def adam_step(g, m, t):
    m = 0.9 * m + 0.1 * g
    return m / (1 - 0.9 ** t)


@pytest.mark.parametrize("backend", BACKENDS)
def test_adam_int_step_compiles_at_most_twice(backend):
    g = np.linspace(-1, 1, 8, dtype=np.float32)
    m = np.zeros(8, np.float32)
    calls = [(g, m, t) for t in range(1, 101)]
    assert run_calls(adam_step, calls, backend) <= 2


def sgd(w, g, lr):
    return w - lr * g


@pytest.mark.parametrize("backend", BACKENDS)
def test_float_argument_is_an_input(backend):
    w = np.ones(5, np.float32)      # float32 stays float32 with a Python float (NEP 50)
    g = np.arange(5, dtype=np.float32)
    calls = [(w, g, lr) for lr in (0.1, 0.05, 0.025, 1e-3, -2.5, 0.0)]
    assert run_calls(sgd, calls, backend) <= 2


def scalar_math(x, k, a):
    c = 1 / (1 + k)                 # int / int: a float, as Python divides
    d = a * 2.0 + 1                 # float op float: a Python float
    return x * c, d, c, a ** 2, -a


def test_python_number_results_keep_their_type():
    x = np.ones(3, np.float32)
    calls = [(x, k, a) for k, a in [(2, 0.5), (3, 1.5), (4, -2.25), (7, 1e10), (9, 3.0)]]
    assert run_calls(scalar_math, calls) <= 2


def int8_add(x, n):
    return x + n


def test_int_into_small_int_array_overflows_as_eager():
    x = np.arange(4, dtype=np.int8)
    calls = [(x, 2), (x, 3), (x, 100), (x, 300), (x, 5)]   # 300: OverflowError (NEP 50)
    run_calls(int8_add, calls)


def inverse(x, k):
    return x * (1 / (k - 3))


def test_division_by_a_changing_zero_raises_as_eager():
    x = np.ones(2)
    run_calls(inverse, [(x, 5), (x, 6), (x, 3), (x, 7)])


def pow_overflow(x, t):
    return x * 10.0 ** t


def test_float_overflow_raises_as_eager():
    x = np.ones(2)
    run_calls(pow_overflow, [(x, 2), (x, 3), (x, 400), (x, 4)])


def negative_base(x, a, p):
    return x * (a ** p)


def test_power_that_may_be_complex_specializes():
    x = np.ones(2)
    calls = [(x, 2.0, 0.5), (x, 3.0, 0.5), (x, -3.0, 0.5), (x, -2.0, 3.0), (x, 4.0, 0.5)]
    run_calls(negative_base, calls)


def branch_on_float(x, lr):
    if lr > 0.5:
        return x * 2
    return x * lr


def test_float_that_decides_control_flow_is_guarded():
    x = np.ones(3)
    run_calls(branch_on_float, [(x, 0.1), (x, 0.2), (x, 0.9), (x, 0.3), (x, 0.7)])


def used_as_python_values(x, lr):
    table = {0.1: "a", 0.2: "b"}
    return x * lr, table.get(lr, "none"), str(lr), int(lr * 10)


def test_float_used_as_python_value_specializes():
    x = np.ones(3)
    run_calls(used_as_python_values, [(x, 0.1), (x, 0.2), (x, 0.35), (x, 0.1)])


def arange_step(step):
    return np.arange(0.0, 1.0, step)


def test_float_that_shapes_an_array_specializes():
    run_calls(arange_step, [(0.5,), (0.25,), (0.1,), (0.5,)])


def mode_fn(x, mode):
    if mode == "train":
        return x * 2
    return x


def test_value_that_selects_control_flow_still_guards():
    x = np.ones(3)
    assert run_calls(mode_fn, [(x, "train"), (x, "train"), (x, "eval"), (x, "train")]) == 2


def floats_as_data(xs, a):
    return a * np.array(xs)


@pytest.mark.parametrize("backend", BACKENDS)
def test_fresh_list_of_floats_compiles_at_most_twice(backend):
    a = np.ones(3, np.float32)
    calls = [(a, [float(i), 2.0 * i, -0.5 * i]) for i in range(6)]
    calls = [(xs, a) for a, xs in calls]
    assert run_calls(floats_as_data, calls, backend) <= 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_fresh_list_of_floats_is_one_array_input(backend):
    a = np.ones(1, np.float32)
    calls = [([0.5 * i + k for k in range(n)], a) for i, n in enumerate((6, 6, 9, 2, 6, 40))]
    assert run_calls(floats_as_data, calls, backend) <= 2
    report = dynamo.explain(floats_as_data, backend=backend).calls(calls[:3])
    last = report.records[-1]
    # the list is read once per call by the guards and once by the glue, as one array
    assert not any("L['xs'][" in g.source.name() for g in last.guards), last.check_source
    assert last.check_source.count("asarray(") == 1, last.check_source
    assert last.glue_source.count("asarray(") == 1, last.glue_source


def mixed_lists(xs, ys, table):
    return np.array(xs) * 2, table[ys], np.asarray(xs).dtype


def test_lists_numpy_reads_otherwise_recompile_or_raise_as_eager():
    table = np.arange(10.0)
    calls = [([0.5, 1.5], [1, 2], table), ([2.5, 3.5, 4.5], [3, 4, 5], table),
             ([1, 2.5], [1, 2], table),            # an int among the floats: still float64
             ([True, 2.0], [1, 2], table), ([np.float32(1.5), 2.0], [1, 2], table),
             ([1.5, float("nan"), float("inf")], [2, 3], table),
             ([1.5, 2.5], [1.5, 2.5], table),      # floats as an index: IndexError
             (["1.5", 2.5], [1, 2], table), ([[1.0, 2.0], [3.0, 4.0]], [1, 2], table),
             ([0.25, 0.75, 1.0, 2.0], [9, 8, 7, 6], table)]
    run_calls(mixed_lists, calls)


def recompile_log(fn, calls) -> list[str]:
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    logger = logging.getLogger("dynamo.recompiles")
    handler, level = Keep(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        compiled = dynamo.compile(fn, backend="eager")
        for args in calls:
            compiled(*args)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return records


def pinned_by_format(x, lr):
    # (str() reads the value: pinned. An f-string of it no longer pins: the glue makes
    # the text, and float() of that text is a graph break, variables/formatted.py)
    return x * float(str(lr))


def test_pinned_number_names_its_line():
    x = np.ones(2)
    text = "\n".join(recompile_log(pinned_by_format, [(x, 0.1), (x, 0.2), (x, 0.3)]))
    assert "test_stateful.py:" in text and "float(str(lr))" in text, text


# --------------------------------------------------------------------------- token lists

def gpt_params(n_vocab=40, n_ctx=40, n_embd=16, seed=0):
    rng = np.random.default_rng(seed)

    def w(*shape):
        return (rng.standard_normal(shape) * 0.2).astype(np.float32)

    return {"wte": w(n_vocab, n_embd), "wpe": w(n_ctx, n_embd), "w": w(n_embd, n_embd)}


def tiny_gpt(inputs, wte, wpe, w):
    """picoGPT's embedding (``wte[inputs] + wpe[range(len(inputs))]``), a causal mixing
    layer and the tied head."""
    x = wte[inputs] + wpe[range(len(inputs))]
    n = x.shape[0]
    mask = (1 - np.tri(n, dtype=x.dtype)) * -1e10
    att = x @ x.T / np.sqrt(x.shape[-1]) + mask
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    x = np.tanh((att @ x) @ w) + x
    return x @ wte.T


def decode(fn, prompt, params, n_tokens, as_array):
    ids = np.array(prompt, dtype=np.int64) if as_array else list(prompt)
    for _ in range(n_tokens):
        logits = fn(ids, **params)
        token = np.argmax(logits[-1])
        ids = np.append(ids, token) if as_array else ids + [int(token)]
        if not as_array:
            assert all(type(t) is int for t in ids)
    return list(ids)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("as_array", [False, True], ids=["list", "int64-array"])
def test_greedy_decode_compiles_at_most_twice(backend, as_array):
    params = gpt_params()
    compiled = dynamo.compile(tiny_gpt, backend=backend)
    counter = Compiles()
    with listeners.listening(counter):
        for prompt in ([3, 14, 15, 9, 2, 6], [5, 1, 30, 7, 8, 11]):
            want = decode(tiny_gpt, prompt, params, 16, as_array)
            got = decode(compiled, prompt, params, 16, as_array)
            assert want == got
    assert counter.count <= 2


def append_decode(ids, wte):
    """The token list grows in place: the list is appended to after it is read."""
    x = wte[ids]
    ids.append(7)
    return x.sum(axis=0), len(ids)


def test_list_grown_in_place_is_written_back():
    wte = np.arange(40.0).reshape(10, 4)
    calls = [([1, 2, 3][:n] + [4] * (n - 3) if n > 3 else [1, 2, 3][:n], wte)
             for n in (2, 3, 4, 5, 6)]
    calls = [(list(ids), w) for ids, w in calls]
    assert run_calls(append_decode, calls) <= 2


def ids_as_array(ids, scale):
    return np.array(ids) * scale, np.asarray(ids).dtype


def test_ids_that_numpy_reads_otherwise_recompile():
    calls = [([1, 2, 3], 2), ([4, 5, 6, 7], 2), ([1, 2 ** 70], 2), ([True, False], 2),
             ([1.5, 2.0], 2), ([8, 9], 2), ([1, 2, 3, 4, 5, 6], 2)]
    run_calls(ids_as_array, calls)


def ids_read_as_python(ids, table):
    return table[ids], ids[-1] + 1, [t * 2 for t in ids]


def test_ids_also_read_as_python_values():
    table = np.arange(50.0)
    calls = [([1, 2], table), ([3, 4, 5], table), ([6, 7, 8, 9], table), ([1, 2, 3], table)]
    run_calls(ids_read_as_python, calls)


def ids_out_of_bounds(ids, table):
    return table[ids] + table[range(len(ids))]


def test_index_out_of_bounds_raises_as_eager():
    table = np.arange(10.0)
    calls = [([1, 2], table), ([3, 4, 5], table), ([3, 40, 5], table), ([1, 2, 3, 4], table),
             (list(range(12)), table)]
    run_calls(ids_out_of_bounds, calls)


def range_iterated(ids, table):
    total = 0.0
    for i in range(len(ids)):
        total = total + table[ids[i]]
    return total


def test_range_of_a_changing_length_iterated_is_pinned():
    table = np.arange(10.0)
    run_calls(range_iterated, [([1, 2], table), ([3, 4, 5], table), ([1, 2, 3, 4], table)])


# --------------------------------------------------------------------------- saying why

def test_explain_over_several_calls_reports_recompiles():
    g = np.ones(4, np.float32)
    m = np.zeros(4, np.float32)
    report = dynamo.explain(adam_step, backend="eager").calls([(g, m, t) for t in (1, 2, 3, 4)])
    assert report.calls == 4 and report.compile_count == 2
    assert report.recompile_count == 1 and report.recompiles[0].call == 1
    reason = report.recompiles[0].reasons[0]
    assert "entry 0: t: expected 1, got 2" in reason and "return m / (1 - 0.9 ** t)" in reason
    same(report.results[-1], adam_step(g, m, 4))
    assert "Recompile at call 1" in str(report)


def test_explain_as_a_context_manager_over_the_programs_calls():
    g = np.ones(4, np.float32)
    m = np.zeros(4, np.float32)
    with dynamo.explain(adam_step, backend="eager") as e:
        got = [e(g, m, t) for t in (1, 2, 3, 4)]
        with pytest.raises(TypeError):   # the program's exceptions reach the program
            e(g, m, "x")
    for t, value in zip((1, 2, 3, 4), got):
        same(value, adam_step(g, m, t))
    report = e.report
    assert report.calls == 5 and report.compile_count == 3
    assert report.recompiles[0].call == 1 and "entry 0: t:" in report.recompiles[0].reasons[0]
    assert report.exceptions[-1].__class__ is TypeError and "Recompile at call 1" in str(e)
    with pytest.raises(RuntimeError, match="ended"):
        e(g, m, 5)


def test_explain_counts_the_numpy_size_variants():
    x = np.ones(3, np.float32)
    report = dynamo.explain(sgd, backend="numpy").calls([(x, x, lr) for lr in (0.1, 0.2, 0.3)])
    assert report.compile_count == 2
    assert len(report.size_variants) >= 1 and "numpy backend" in report.size_variants[0]


def test_explain_single_call_is_unchanged():
    report = dynamo.explain(sgd, backend="eager")(np.ones(2), np.ones(2), 0.5)
    assert report.graph_count == 1 and report.calls == 1 and report.recompiles == []
    same(report.result, sgd(np.ones(2), np.ones(2), 0.5))


def mode_everywhere(x, mode):
    return x * len(mode)


def test_cache_limit_names_the_guard_and_fitting_advice(monkeypatch):
    monkeypatch.setattr(dynamo.config, "cache_size_limit", 3)
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    logger = logging.getLogger("dynamo.recompiles")
    handler = Keep(logging.WARNING)
    logger.addHandler(handler)
    try:
        compiled = dynamo.compile(pinned_by_format, backend="eager")
        for i in range(6):
            compiled(np.ones(2), 0.1 * i + 0.01)
    finally:
        logger.removeHandler(handler)
    text = "\n".join(records)
    assert "The guard that keeps failing" in text, text
    assert "guard that keeps failing (2 of 3 entries): lr:" in text and "number that changes between calls" in text, text
    assert "raise dynamo.config.cache_size_limit." not in text


def negative_constant_base(x, t, a):
    return x * (-0.5) ** t, (-2.0) * a - 1.0, -(a ** 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_expressions_keep_python_precedence(backend):
    x = np.ones(2)
    calls = [(x, t, a) for t, a in [(2, 0.5), (3, 1.5), (4, -2.5), (5, 3.0)]]
    assert run_calls(negative_constant_base, calls, backend) <= 2


# --------------------------------------------------------------------------- attributes, globals

class Adam:
    """An optimizer whose step count and learning rate live in attributes."""

    def __init__(self, lr=1e-3):
        self.t, self.lr = 0, lr

    def step(self, g, m):
        self.t += 1
        m = 0.9 * m + 0.1 * g
        return self.lr * m / (1 - 0.9 ** self.t), self.t


def run_object_calls(make, method, calls, backend="eager"):
    """``method`` of an object from ``make()`` (one per side) over ``calls``: every result
    and the object's ``__dict__`` after each call equal eager's; returns the compiles."""
    eager_obj, compiled_obj = make(), make()
    compiled = dynamo.compile(getattr(compiled_obj, method), backend=backend)
    counter = Compiles()
    with listeners.listening(counter):
        for i, args in enumerate(calls):
            same(getattr(eager_obj, method)(*copy.deepcopy(args)),
                 compiled(*copy.deepcopy(args)), path=f"call {i} result")
            same(vars(eager_obj), vars(compiled_obj), path=f"call {i} attributes")
    return counter.count


@pytest.mark.parametrize("backend", BACKENDS)
def test_int_step_in_an_attribute_is_an_input(backend):
    g = np.linspace(-1, 1, 8, dtype=np.float32)
    m = np.zeros(8, np.float32)
    # self.t is 0, then 1, 2...: 0 and 1 keep their own entries, as sizes do
    assert run_object_calls(Adam, "step", [(g, m)] * 100, backend) <= 3

    def from_one():
        opt = Adam()
        opt.t = 1
        return opt
    assert run_object_calls(from_one, "step", [(g, m)] * 100, backend) <= 2


def test_float_attribute_that_changes_is_an_input():
    def make():
        opt = Adam()
        opt.t = 5
        return opt

    g, m = np.ones(4), np.zeros(4)
    eager_opt, opt = make(), make()
    compiled = dynamo.compile(opt.step, backend="eager")
    counter = Compiles()
    with listeners.listening(counter):
        for lr in (0.1, 0.05, 0.025, 1e-3, 3.0, -0.5):
            eager_opt.lr = opt.lr = lr
            same(eager_opt.step(g, m), compiled(g, m))
            same(vars(eager_opt), vars(opt))
    assert counter.count <= 2


SCALE = 1.0
STEP = 0


def scaled(x):
    return x * SCALE + 1 / (1 + SCALE)


def counted(x):
    global STEP
    STEP += 1
    return x * 0.5 ** STEP, STEP


@pytest.mark.parametrize("backend", BACKENDS)
def test_global_float_that_changes_is_an_input(backend, monkeypatch):
    x = np.arange(4, dtype=np.float32)
    compiled = dynamo.compile(scaled, backend=backend)
    counter = Compiles()
    with listeners.listening(counter):
        for value in (1.0, 2.0, 0.5, -3.25, 1e-8, 2.0):
            monkeypatch.setitem(globals(), "SCALE", value)
            same(scaled(x), compiled(x))
    assert counter.count <= 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_global_counter_written_by_the_frame_is_an_input(backend, monkeypatch):
    x = np.ones(3)
    compiled = dynamo.compile(counted, backend=backend)
    counter = Compiles()
    monkeypatch.setitem(globals(), "STEP", 0)
    with listeners.listening(counter):
        for _ in range(12):
            want = counted(x)             # STEP: 1, 3, 5... eagerly; 2, 4, 6... compiled
            got = compiled(x)
            assert got[1] == want[1] + 1 and type(got[1]) is int
            same(want[0] * 0.5, got[0])
    assert STEP == 24
    assert counter.count <= 2


THRESHOLD = 0.5


def gated(x):
    if THRESHOLD > 0.3:
        return x * THRESHOLD
    return x - THRESHOLD


def test_global_that_decides_control_flow_still_recompiles(monkeypatch):
    x = np.ones(3)
    compiled = dynamo.compile(gated, backend="eager")
    counter = Compiles()
    with listeners.listening(counter):
        for value in (0.5, 0.6, 0.7, 0.1, 0.2, 0.9):
            monkeypatch.setitem(globals(), "THRESHOLD", value)
            same(gated(x), compiled(x))
    # a number that decides a branch guards the branch's outcome (``THRESHOLD > 0.3``,
    # symbolic/number_decisions.decide): an entry for each side, never a wrong branch; 0.6
    # (the value changed: a number from then on), then 0.1 takes the other side
    assert counter.count == 3


MODE = "train"


def by_mode(x):
    return x * 2 if MODE == "train" else x


def test_global_string_that_selects_control_flow_guards(monkeypatch):
    x = np.ones(3)
    compiled = dynamo.compile(by_mode, backend="eager")
    counter = Compiles()
    with listeners.listening(counter):
        for mode in ("train", "train", "eval", "train", "eval"):
            monkeypatch.setitem(globals(), "MODE", mode)
            same(by_mode(x), compiled(x))
    assert counter.count == 2
