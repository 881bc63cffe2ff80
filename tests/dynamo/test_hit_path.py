"""What a cached call runs (issue #16): the dispatcher's hit path, per signature.

A graph input whose symbolic size the entry's guards pin (``s0 == 64``) is marked
``meta["fixed"]`` (``glue.mark_fixed_inputs``): the numpy backend's ``PerSize`` leaves
it out of its variant key, so a graph whose sizes are all pinned runs its one variant
through ``only``, with no ``variants.get((shape, ))`` per call. The guards stay as
strong: another length misses and compiles, as before.

The rest checks results, mutations, prints and exceptions against plain Python for
single-result functions called positionally, with keyword-only defaults, ``*args``
and ``**kwargs``, on both CPU backends, through several cached calls each.
"""

import sys

import numpy as np
import pytest
from dynamo.backends.eager import eager
from dynamo.backends.numpy_backend import sizes
from harness import same

import dynamo

F4 = np.float32


def arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(F4)


def weighted(xs, a):
    """``a`` (static shape (64,)) times the list as an array: the broadcast pins the
    list's length, a symbol of the graph's input ``np.asarray(xs)``."""
    return a * np.array(xs)


def dispatcher_of(compiled, fn):
    return compiled._ctx.caches[fn.__code__].dispatch.__dynamo_source__


def test_an_input_whose_sizes_the_guards_pin_is_no_part_of_the_variant_key():
    compiled = dynamo.compile(weighted, backend="numpy")
    a = arr(64)
    for i in range(4):   # the first two compile (a constant list, then symbolic)
        xs = [0.5 * i + k for k in range(64)]
        same(compiled(xs, a), weighted(xs, a))
    cache = compiled._ctx.caches[weighted.__code__]
    entry = cache.entries[0]
    runner = entry.run.__globals__["___graph"]
    assert isinstance(runner, sizes.PerSize), runner
    (placeholder,) = [p for p in entry.record.graph.placeholders if p.meta.get("fixed")]
    assert "asarray" in str(placeholder.meta["source"]), placeholder.meta
    assert runner.keyless and runner.only is runner.variants[()], runner.variants
    src = dispatcher_of(compiled, weighted)
    # (the variant read into a local: a method-style call of an instance attribute
    # does not specialize)
    assert "variants.get(" not in src and "___o0 = (___only := ___e0_glue_graph.only)(" \
        in src, src
    assert "shape[0] == 64" in src, src   # the guard that makes the key constant


def test_a_pinned_size_still_guards_another_length_recompiles():
    compiled = dynamo.compile(weighted, backend="numpy")
    a64, a32 = arr(64), arr(32)
    for i in range(3):
        xs = [0.25 * i + k for k in range(64)]
        same(compiled(xs, a64), weighted(xs, a64))
    before = len(compiled._ctx.caches[weighted.__code__].entries)
    for i in range(3):
        xs = [0.25 * i - k for k in range(32)]
        same(compiled(xs, a32), weighted(xs, a32))
    assert len(compiled._ctx.caches[weighted.__code__].entries) > before
    with pytest.raises(ValueError, match="broadcast"):
        compiled([1.0] * 31, a32)   # no entry fits: the original code raises eager's error


def test_a_symbolic_size_that_is_not_pinned_keeps_its_variant_lookup():
    def rows(x):
        return np.exp(x - x.max(axis=-1, keepdims=True))
    compiled = dynamo.compile(rows, backend="numpy")
    # (past GENERIC_AFTER sizes, the size-generic code: it returns the output bare too)
    for n in (3, 4, 5, 5, 6, 7, 8, 9, 9, 3):
        got = compiled(arr(n, 8, seed=n))
        assert type(got) is np.ndarray, type(got)
        same(got, rows(arr(n, 8, seed=n)))
    assert "variants.get(" in dispatcher_of(compiled, rows)
    runner = compiled._ctx.caches[rows.__code__].entries[0].run.__globals__["___graph"]
    assert runner.generic is not None and runner.bare, vars(runner)


# ------------------------------------------------------- one result, no 1-tuple
def python_frames(fn, *args) -> tuple:
    """``fn(*args)``'s result and the code objects of the Python frames it ran."""
    codes = []

    def profile(frame, event, arg):
        if event == "call":
            codes.append(frame.f_code)
    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn(*args)
    finally:
        sys.setprofile(old)
    return result, codes


def test_a_graph_of_one_output_returns_it_bare_on_the_eager_backend():
    """The eager backend's function of a one-output graph keeps the contract (a
    tuple) and hands the glue the function that returns the output itself
    (``common.tuple_of_one``): a hit runs the function's frame, the dispatcher and
    that function, which builds no tuple, and the dispatcher unpacks none."""
    compiled = dynamo.compile(positional, backend="eager")
    x, y = Y + 1.0, Y * 3.0
    for _ in range(3):
        same(compiled(x, y), positional(x, y))
    cache = compiled._ctx.caches[positional.__code__]
    graph_fn = cache.entries[0].run.__globals__["___graph"]
    assert "return (" not in graph_fn.__dynamo_source__, graph_fn.__dynamo_source__
    src = dispatcher_of(compiled, positional)
    assert "___o0 = ___e0_glue_graph(x, y)" in src and "___o0, =" not in src, src
    result, codes = python_frames(compiled, x, y)
    same(result, positional(x, y))
    assert [c.co_name for c in codes[:2]] == ["positional", "___dispatch"], codes
    assert codes[2:] == [graph_fn.__code__], codes


def test_the_eager_backends_result_still_returns_a_tuple():
    seen = []

    def mine(graph, example_inputs):   # a user's backend over the eager one
        fn = eager(graph, example_inputs)
        seen.append(fn(*example_inputs))
        return fn
    compiled = dynamo.compile(positional, backend=mine)
    for _ in range(3):
        same(compiled(Y, Y + 2.0), positional(Y, Y + 2.0))
    assert len(seen) == 1 and type(seen[0]) is tuple and len(seen[0]) == 1, seen
    assert "___o0, = ___e0_glue_graph(" in dispatcher_of(compiled, positional)


def test_a_graph_of_one_output_returns_it_bare_on_the_numpy_backend():
    """The numpy backend's code of a one-output graph ends ``return add``, not ``return
    (add, )``, and the dispatcher unpacks no 1-tuple; a hit runs the function's frame,
    the dispatcher and the generated code, nothing else."""
    compiled = dynamo.compile(positional, backend="numpy")
    x, y = Y + 1.0, Y * 3.0
    for _ in range(3):
        same(compiled(x, y), positional(x, y))
    graph_fn = compiled._ctx.caches[positional.__code__].entries[0].run.__globals__[
        "___graph"]
    assert "return add\n" in graph_fn.__dynamo_source__ and "return (" not in \
        graph_fn.__dynamo_source__, graph_fn.__dynamo_source__
    src = dispatcher_of(compiled, positional)
    assert "___o0 = ___e0_glue_graph(x, y)" in src and "___o0, =" not in src, src
    result, codes = python_frames(compiled, x, y)
    same(result, positional(x, y))
    assert [c.co_name for c in codes[:2]] == ["positional", "___dispatch"], codes
    assert codes[2:] == [graph_fn.__code__], codes


def test_a_single_variant_runs_with_no_frame_of_its_runner():
    """``weighted``'s one variant (``PerSize.only``), read into a local and called: a
    hit runs the variant's code, which returns the product bare."""
    compiled = dynamo.compile(weighted, backend="numpy")
    a = arr(64)
    for i in range(4):
        xs = [0.5 * i + k for k in range(64)]
        same(compiled(xs, a), weighted(xs, a))
    runner = compiled._ctx.caches[weighted.__code__].entries[0].run.__globals__["___graph"]
    xs = [1.5 - k for k in range(64)]
    result, codes = python_frames(compiled, xs, a)
    assert type(result) is np.ndarray, type(result)
    same(result, weighted(xs, a))
    assert codes[2:] == [runner.only.__code__], codes
    assert "return (" not in runner.only.__dynamo_source__, runner.only.__dynamo_source__


def halved_log(x):
    return np.log(x) * 0.5


def test_the_numpy_backends_rerun_of_a_bare_graph_returns_the_output_bare():
    """The code of a one-output graph runs the graph again op by op when its fused code
    raised (``backend._Rerun``: a visible floating-point condition under the guard,
    an error with ``rerun_on_error``); that rerun returns the output bare too, and
    the contract's function still returns eager's 1-tuple. Cached calls give eager's
    value and warnings."""
    import warnings

    from dynamo.backends.numpy_backend import numpy_backend
    graphs = []

    def keep(graph, example_inputs):
        graphs.append((graph, example_inputs))
        return numpy_backend(graph, example_inputs)
    compiled = dynamo.compile(halved_log, backend=keep)
    x = np.array([1.0, -1.0, 4.0])
    for _ in range(3):
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            result = compiled(x)
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            expected = halved_log(x)
        assert type(result) is np.ndarray, result
        same(result, expected)
        assert [(w.category, str(w.message)) for w in got] == \
            [(w.category, str(w.message)) for w in want]
    (graph, example), = graphs
    fn = numpy_backend(graph, example)
    rerun = fn.__dynamo_bare__.__globals__["_rerun"]
    with np.errstate(invalid="ignore"):
        out, again, plain = fn(x), rerun(x), halved_log(x)
    assert type(out) is tuple and len(out) == 1 and type(again) is np.ndarray, (out, again)
    same(out[0], plain)
    same(again, plain)


@pytest.mark.parametrize("static", [True, False])
def test_the_numpy_backends_result_still_returns_a_tuple(static):
    """The backend contract (docs/architecture.md): a user's backend over the numpy
    backend gets a function returning the tuple of the outputs, static or per size."""
    from dynamo.backends.numpy_backend import numpy_backend
    fn, calls = (positional, [(Y + 1.0, Y)] * 3) if static else \
        (weighted, [([0.5 * i + k for k in range(64)], arr(64)) for i in range(4)])
    seen = []

    def mine(graph, example_inputs):
        compiled_fn = numpy_backend(graph, example_inputs)
        seen.append(compiled_fn(*example_inputs))
        seen.append(compiled_fn(*example_inputs))   # (a PerSize's compiled variant)
        return compiled_fn
    compiled = dynamo.compile(fn, backend=mine)
    for args in calls:
        same(compiled(*args), fn(*args))
    assert seen and all(type(out) is tuple and len(out) == 1 for out in seen), seen
    assert "___o0, = " in dispatcher_of(compiled, fn)


# ------------------------------------------------ guards Python itself makes true
def test_no_guard_on_the_type_of_star_args_or_star_star_kwargs():
    """``*args`` is a tuple and ``**kwargs`` a dict on every call: the check does not
    test it (their lengths, and the keys read and items, are still guarded: a dict is
    guarded by the keys the trace touches, ``unread_dicts``)."""
    for fn, args, kwargs in [(star_args, (Y + 1.0, Y), {}),
                             (star_kwargs, (Y,), {"y": Y + 3.0})]:
        compiled = dynamo.compile(fn, backend="eager")
        for _ in range(3):
            same(compiled(*args, **kwargs), fn(*args, **kwargs))
        src = dispatcher_of(compiled, fn)
        assert "type(args) is" not in src and "type(kw) is" not in src, src
        assert "len(args)" in src or "'y' in kw" in src, src


# ------------------------------------------------------- signatures, against plain
Y = np.arange(10.0)


def positional(x, y):
    return x + y


def kw_only_default(x, *, y=Y):
    return x + y


def star_args(*args):
    return args[0] + args[1]


def star_kwargs(x, **kw):
    return x + kw["y"]


def mutates(log, x, *, scale=2.0):
    log.append(float(x[0]))
    x *= scale
    return x.sum()


def raises_on_shape(*args, **kw):
    return args[0] @ kw["w"]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn, calls", [
    (positional, [((Y + 1.0, Y), {})] * 4),
    (kw_only_default, [((Y + 1.0,), {})] * 3 + [((Y,), {"y": Y * 2})] * 2),
    (star_args, [((Y + 1.0, Y), {})] * 4 + [((Y, Y + 2.0, Y), {})] * 2),
    (star_kwargs, [((Y,), {"y": Y + 3.0})] * 4 + [((Y,), {"y": Y, "z": 1})] * 2),
])
def test_single_results_equal_plain_through_cached_calls(backend, fn, calls):
    compiled = dynamo.compile(fn, backend=backend)
    for args, kwargs in calls:
        got, want = compiled(*args, **kwargs), fn(*args, **kwargs)
        assert type(got) is type(want) and got.dtype == want.dtype
        same(got, want)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_mutations_and_exceptions_equal_plain_through_cached_calls(backend):
    compiled = dynamo.compile(mutates, backend=backend)
    log_c, log_p = [], []
    xc, xp = arr(6), arr(6)
    for scale in (2.0, 2.0, 2.0, 3.0, 3.0):
        same(compiled(log_c, xc, scale=scale), mutates(log_p, xp, scale=scale))
        assert log_c == log_p
        same(xc, xp)
    checked = dynamo.compile(raises_on_shape, backend=backend)
    w = arr(4, 3)
    for _ in range(3):
        same(checked(arr(2, 4), w=w), raises_on_shape(arr(2, 4), w=w))
    with pytest.raises(ValueError) as got:
        checked(arr(2, 5), w=w)
    with pytest.raises(ValueError) as want:
        raises_on_shape(arr(2, 5), w=w)
    assert str(got.value) == str(want.value)
