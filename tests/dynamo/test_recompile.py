"""Recompilation: a compiled function retraces exactly when a fact its trace relied on
changed, and never otherwise; the recompile log says which guard failed, in words.

Every test counts traces by wrapping ``dynamo.convert.convert_frame`` and compares
each compiled result with the eager one.
"""

import enum
import logging
import math

import numpy as np
import pytest
from dynamo.backends.eager import eager
from harness import same

import dynamo
import dynamo.convert

F4 = np.float32


def arr(*shape, dtype=F4, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def run(fn, calls, compiled=None):
    """Call ``fn`` compiled and eagerly on each argument tuple; compare results."""
    compiled = compiled or dynamo.compile(fn, backend="eager")
    for args in calls:
        same(fn(*args), compiled(*args))
    return compiled


def counts(fn, calls, traces, compiled=None):
    """Number of traces after each call."""
    compiled = compiled or dynamo.compile(fn, backend="eager")
    out = []
    for args in calls:
        same(fn(*args), compiled(*args))
        out.append(len(traces))
    return out


# ---------------------------------------------------------------------------- arrays

def add1(x):
    return x + 1


def test_same_shape_new_arrays_never_retrace(traces):
    assert counts(add1, [(arr(3, 4, seed=i),) for i in range(20)], traces) == [1] * 20


def test_array_shape_dtype_ndim_kind_retrace(traces):
    calls = [(arr(3),), (arr(3, seed=1),), (arr(4),), (arr(3, dtype=np.float64),),
             (arr(3, 1),), (F4(2.0),), (arr(4),), (arr(3),)]
    assert counts(add1, calls, traces) == [1, 1, 2, 3, 4, 5, 5, 5]


def test_layout_is_not_guarded_unless_the_backend_asks(traces):
    c = arr(4, 6)
    assert counts(add1, [(c,), (np.asfortranarray(c),), (arr(4, 12)[:, ::2],)], traces) \
        == [1, 1, 1]


def test_layout_guards_for_backends_that_ask(traces):
    def strided(graph, example_inputs):
        return eager(graph, example_inputs)
    strided.layout_guards = True

    def contiguity(graph, example_inputs):
        return eager(graph, example_inputs)
    contiguity.layout_guards = "contiguity"

    c = arr(4, 6)
    calls = [(c,), (arr(4, 6, seed=1),), (np.asfortranarray(c),), (arr(4, 12)[:, ::2],)]
    assert counts(add1, calls, traces, dynamo.compile(add1, backend=strided)) == [1, 1, 2, 3]
    traces.clear()
    calls.append((arr(8, 6)[::2],))   # not contiguous either: same contiguity flags
    assert counts(add1, calls, traces, dynamo.compile(add1, backend=contiguity)) == \
        [1, 1, 2, 3, 3]


def write_into(x, y):
    x += y
    return x * 2


def write_through_view(x):
    v = x[1:]
    v[...] = 0
    return x.sum()


@pytest.mark.parametrize("fn", [write_into, write_through_view])
def test_writes_into_inputs_guard_writeability(fn, traces):
    """A read-only input never takes a compiled path that writes into it: NumPy's own
    error is raised, exactly as eagerly."""
    args = (arr(4), arr(4, seed=1))[:fn.__code__.co_argcount]
    compiled = dynamo.compile(fn, backend="eager")
    for _ in range(2):
        fresh = tuple(a.copy() for a in args)
        same(fn(*[a.copy() for a in args]), compiled(*fresh))
    assert len(traces) == 1
    ro = args[0].copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError) as eager_error:
        fn(ro, *args[1:])
    with pytest.raises(ValueError) as compiled_error:
        compiled(ro, *args[1:])
    assert str(compiled_error.value) == str(eager_error.value)
    assert np.array_equal(ro, args[0]), "the read-only input was written"
    report = dynamo.explain(fn, backend="eager")(*[a.copy() for a in args])
    assert any("writeable" in g.describe() for g in report.guards)


def test_read_only_input_first_then_writeable(traces):
    ro = arr(4)
    ro.flags.writeable = False
    compiled = dynamo.compile(write_into, backend="eager")
    with pytest.raises(ValueError, match="read-only"):
        compiled(ro, arr(4))
    x = arr(4)
    same(write_into(x.copy(), arr(4)), compiled(x, arr(4)))


def no_write(x):
    return x * 2


def test_read_only_input_not_written_hits_the_same_entry(traces):
    ro = arr(4)
    ro.flags.writeable = False
    assert counts(no_write, [(arr(4),), (ro,)], traces) == [1, 1]


# ---------------------------------------------------------------------------- constants

def scale(x, k):
    return x * k


@pytest.mark.parametrize("values, expected", [
    ([2, 2, 3, 2], [1, 1, 2, 2]),
    ([2, 2.0, True, 1], [1, 2, 3, 4]),          # int, float, bool: different types
    ([0.0, -0.0, 0.0], [1, 2, 2]),              # the sign of zero is a fact
    ([math.nan, math.nan, 1.5], [1, 1, 2]),     # nan matches nan
    ([None, None, 1], [1, 1, 2]),
])
def test_scalars_type_and_value(values, expected, traces):
    def f(x, k):
        return x * (1 if k is None else k)
    assert counts(f, [(arr(3), v) for v in values], traces) == expected


def activation(x, name):
    if name == "relu":
        return np.maximum(x, 0)
    return np.tanh(x)


def test_strings(traces):
    calls = [(arr(3), "relu"), (arr(3), "relu"), (arr(3), "tanh"), (arr(3), "relu")]
    assert counts(activation, calls, traces) == [1, 1, 2, 2]


class Mode(enum.Enum):
    A = 1
    B = 2


def by_mode(x, mode):
    return x + mode.value


def test_enum_member_value(traces):
    calls = [(arr(3), Mode.A), (arr(3), Mode.A), (arr(3), Mode.B)]
    run(by_mode, calls)


# ---------------------------------------------------------------------------- structure

def total(xs):
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


def test_list_and_tuple_length(traces):
    calls = [([arr(2), arr(2)],), ([arr(2, seed=1), arr(2)],), ([arr(2)] * 3,),
             ((arr(2), arr(2)),), ([arr(2), arr(1)],)]
    assert counts(total, calls, traces) == [1, 1, 2, 3, 4]


def weighted(d, x):
    out = x
    for k in d:
        out = out * d[k]
    return out


def test_dict_keys_and_values(traces):
    calls = [({"a": arr(2), "b": arr(2)}, arr(2)), ({"a": arr(2, seed=2), "b": arr(2)}, arr(2)),
             ({"b": arr(2), "a": arr(2)}, arr(2)), ({"a": arr(2)}, arr(2)),
             ({"a": 2.0, "b": arr(2)}, arr(2))]
    assert counts(weighted, calls, traces) == [1, 1, 2, 3, 4]


def star(x, *args, **kwargs):
    return x * len(args) + sum(kwargs.values())


def test_varargs_and_kwargs(traces):
    """``*args`` is a tuple and ``**kwargs`` a dict of the frame: guarded like any other.
    Known over-approximation: every item of a container is guarded when the container
    enters the trace, so (1,) -> (2,) retraces although only len(args) was used."""
    compiled = dynamo.compile(star, backend="eager")
    x = arr(2)
    got = []
    calls = [((1,), {"u": 1}), ((1,), {"u": 1}), ((2,), {"u": 1}), ((1, 2), {"u": 1}),
             ((1,), {"v": 1}), ((1,), {"u": 2})]
    for a, k in calls:
        same(star(x, *a, **k), compiled(x, *a, **k))
        got.append(len(traces))
    assert got == [1, 1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------- identities

def apply(fn, x):
    return fn(x) + 1


def double(x):
    return x * 2


def triple(x):
    return x * 3


def test_function_identity(traces):
    calls = [(double, arr(2)), (double, arr(2)), (triple, arr(2)), (np.exp, arr(2)),
             (double, arr(2))]
    assert counts(apply, calls, traces) == [1, 1, 2, 3, 3]


class Lin:
    def __init__(self, n, k=2.0):
        self.w, self.k = arr(n, n), k

    def __call__(self, x):
        return x @ self.w * self.k


class Lin2(Lin):
    def __call__(self, x):
        return x @ self.w - self.k


def call_model(model, x):
    return model(x)


def test_class_identity_and_attribute_values(traces):
    a, b = Lin(3), Lin(3)
    calls = [(a, arr(3)), (b, arr(3)), (Lin2(3), arr(3)), (Lin(3, k=3.0), arr(3)),
             (Lin(4), arr(4)), (a, arr(3))]
    assert counts(call_model, calls, traces) == [1, 1, 2, 3, 4, 4]


def test_model_attributes_changed_in_place(traces):
    m = Lin(3)
    compiled = dynamo.compile(m, backend="eager")
    x = arr(3)
    same(m(x), compiled(x))
    m.w = arr(3, 3, seed=5)            # another weight, same shape: read fresh, no retrace
    same(m(x), compiled(x))
    assert len(traces) == 1
    m.k = 5.0                          # a constant the trace baked in: retrace
    same(m(x), compiled(x))
    assert len(traces) == 2
    m.w = arr(3, 3, dtype=np.float64)  # another dtype: retrace
    same(m(x), compiled(x))
    assert len(traces) == 3


def use_module(mod, x):
    return mod.exp(x)


def test_module_identity(traces):
    import numpy
    calls = [(np, arr(2)), (numpy, arr(2))]
    assert counts(use_module, calls, traces) == [1, 1]


# ---------------------------------------------------------------------------- globals

SCALE = 2.0
WEIGHT = arr(3, 3)


def uses_globals(x):
    return x @ WEIGHT * SCALE


def test_global_constant_changes_retrace(traces, monkeypatch):
    compiled = run(uses_globals, [(arr(3),)])
    monkeypatch.setitem(globals(), "SCALE", 3.0)
    run(uses_globals, [(arr(3),)], compiled)
    assert len(traces) == 2
    monkeypatch.setitem(globals(), "SCALE", 2.0)
    run(uses_globals, [(arr(3),)], compiled)
    assert len(traces) == 2            # the first entry is still cached


def test_global_weight_replaced(traces, monkeypatch):
    """A replaced global array is read at call time: the same shape gives the fresh
    result with no retrace, another shape or dtype retraces. Never a stale result."""
    compiled = run(uses_globals, [(arr(3),)])
    monkeypatch.setitem(globals(), "WEIGHT", arr(3, 3, seed=9))
    run(uses_globals, [(arr(3),)], compiled)
    assert len(traces) == 1
    monkeypatch.setitem(globals(), "WEIGHT", arr(3, 4))
    run(uses_globals, [(arr(3),)], compiled)
    assert len(traces) == 2
    WEIGHT[...] = 7.0                  # written in place: read fresh as well
    run(uses_globals, [(arr(3),)], compiled)
    assert len(traces) == 2


def helper(x):
    return x + 1


def uses_helper(x):
    return helper(x) * 2


def test_global_function_replaced(traces, monkeypatch):
    compiled = run(uses_helper, [(arr(2),)])
    monkeypatch.setitem(globals(), "helper", lambda x: x - 1)
    run(uses_helper, [(arr(2),)], compiled)
    assert len(traces) == 2


def uses_builtin(xs):
    return xs[0] * len(xs)


def test_builtin_shadowed_by_a_global(traces, monkeypatch):
    compiled = run(uses_builtin, [([arr(2), arr(2)],)])
    monkeypatch.setitem(globals(), "len", lambda xs: 10)
    run(uses_builtin, [([arr(2), arr(2)],)], compiled)
    assert traces == ["uses_builtin"] * 2   # (len itself is shadowed in this module now)


def test_closure_contents(traces):
    def make(k):
        def f(x):
            return x * k
        return f

    f2, f3 = make(2.0), make(3.0)
    compiled2 = run(f2, [(arr(2),), (arr(2),)])
    compiled3 = dynamo.compile(f3, backend="eager")
    same(f3(arr(2)), compiled3(arr(2)))
    assert len(traces) == 2
    k = 1.0

    def g(x):
        return x * k
    compiled = run(g, [(arr(2),)])
    k = 4.0
    run(g, [(arr(2),)], compiled)
    assert len(traces) == 4
    del compiled2


# ---------------------------------------------------------------------------- the log

def test_recompile_log_says_which_guard_failed_in_each_entry(caplog, traces):
    caplog.set_level(logging.DEBUG, logger="dynamo.recompiles")
    compiled = dynamo.compile(scale, backend="eager")
    compiled(arr(3), 2)
    compiled(arr(4), 2)
    compiled(arr(3, dtype=np.float64), 2)
    recompiles = [r.getMessage() for r in caplog.records if r.name == "dynamo.recompiles"]
    assert len(recompiles) == 2
    assert "recompiling scale (" in recompiles[0]
    assert "test_recompile.py" in recompiles[0]
    assert "entry 0: x shape[0]: expected 3, got 4" in recompiles[0]
    # the first guard each entry fails: for an array, type, then dtype, then shape
    assert "entry 0: x dtype: expected float32, got float64" in recompiles[1]
    assert "entry 1: x dtype: expected float32, got float64" in recompiles[1]
    caplog.clear()
    compiled(arr(3), 3)
    (msg,) = [r.getMessage() for r in caplog.records if r.name == "dynamo.recompiles"]
    assert "entry 2: k: expected 2, got 3" in msg


def test_recompile_log_is_free_when_off(traces):
    """The failure words are only computed when the channel is on."""
    from dynamo.guards import CheckFunction
    from observe import calls_to

    logging.getLogger("dynamo.recompiles").setLevel(logging.WARNING)
    compiled = dynamo.compile(scale, backend="eager")
    with calls_to(CheckFunction.failures) as failures:
        compiled(arr(3), 2)
        compiled(arr(4), 2)
    assert len(traces) == 2
    assert failures == [], "failures() computed with the recompiles channel off"


def test_explain_keeps_the_check_function():
    report = dynamo.explain(scale, backend="eager")(arr(3), 2)
    (text,) = report.check_sources      # (the report's text shows the guards in words)
    assert "def ___check_scale_" in text
    assert "type(x) is ___c1 and" in text
    assert "x.shape == ___c2 and" in text      # the first shape: tested early, alone
    assert "(k, x.dtype,) == ___expected" in text
    assert "    x.shape == (3,)\n" in str(report) and "___" not in str(report)


# ------------------------------------------------------- comprehensions over a break

def class_means(x, y):
    classes = np.unique(y)              # a data-dependent length: the loop breaks here
    means = [x[y == c].mean() for c in classes]
    return np.array(means) * 2.0


def class_sums_genexpr(x, y):
    classes = np.unique(y)
    return sum(x[y == c].sum() for c in classes) + 1.0


@pytest.mark.parametrize("fn", [class_means, class_sums_genexpr])
def test_a_comprehension_carried_over_a_break_does_not_retrace_per_call(fn, traces):
    """The comprehension's function (3.11's list comprehensions, every version's
    generator expressions) is a new object on each call: it is guarded by its code,
    globals and cells, not by identity, so twelve calls trace as often as two."""
    y = np.arange(20) % 3
    calls = [(arr(20, seed=i), y) for i in range(12)]
    n = counts(fn, calls, traces)
    assert n[-1] == n[1]

