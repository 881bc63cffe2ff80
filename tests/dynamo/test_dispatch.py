"""The generated dispatcher (dynamo/dispatch.py): a hit runs the entry's glue inlined.

Each test compares compiled and plain results (``harness.check``) and reads the
dispatcher's source, where the shape of the hit path is the point: for an entry whose
whole frame was captured, no call of the entry's ``run`` (its glue statements are in
the dispatcher, their globals renamed per entry)."""

import sys

import numpy as np
import pytest
from dynamo.backends.numpy_backend import sizes
from harness import check, same

import dynamo

F4 = np.float32


def arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(F4)


def dispatcher_of(compiled, fn):
    return compiled._ctx.caches[fn.__code__].dispatch.__dynamo_source__


def test_a_simple_entry_runs_its_glue_inlined():
    def f(x, y):
        return np.tanh(x) + y, 2.5
    check(f, arr(4), arr(4, seed=1), graphs=1, breaks=0)
    compiled = dynamo.compile(f, backend="eager")
    compiled(arr(4), arr(4))
    src = dispatcher_of(compiled, f)
    assert "___e0_run(" not in src and "___e0_glue_graph(" in src, src


class Layer:
    def __init__(self):
        self.X = []

    def forward(self, x):
        self.X.append(x)
        return np.tanh(x)


def test_one_appended_item_is_replayed_as_the_programs_append():
    layer, plain = Layer(), Layer()
    compiled = dynamo.compile(layer.forward, backend="eager")
    xs = [arr(3, seed=i) for i in range(4)]
    for x in xs:
        same(compiled(x), plain.forward(x))
    assert len(layer.X) == 4 and all(a is b for a, b in zip(layer.X, xs))
    src = dispatcher_of(compiled.__func__, Layer.forward)
    # one statement, as the program wrote it (no temporaries), and the graph's one
    # output as the value of its call (the eager backend returns it bare: no
    # ``___out[0]``, no 1-tuple unpacked)
    assert "self.X.append(x)" in src and ".extend(" not in src and "___t0" not in src, src
    assert "___o0 = ___e0_glue_graph(x)" in src and "___out" not in src, src
    assert "return ___o0" in src and "___result" not in src, src   # a local: no copy


def test_two_appended_items_extend():
    def f(log, x):
        log.append(x)
        log.append(x + 1)
        return x * 2
    check(f, [], arr(3), graphs=1, breaks=0)


def test_every_entry_is_inlined_with_its_own_names():
    def f(x, n):
        return x * n, n
    compiled = dynamo.compile(f, dynamic=False, backend="eager")
    for n in (2, 3, 4):            # one entry per constant n
        same(compiled(arr(3), n), f(arr(3), n))
    src = dispatcher_of(compiled, f)
    assert all(f"___e{i}_glue_graph(" in src for i in range(3)), src
    for n in (2, 3, 4):            # every entry hits, and returns its own values
        same(compiled(arr(3), n), f(arr(3), n))


def test_a_graph_that_raises_reruns_the_frame_from_the_inlined_glue():
    def f(log, a):
        log.append("before")
        return np.linalg.inv(a)
    check(f, [], np.eye(3))
    check(f, [], np.zeros((3, 3)))   # singular: the program's own LinAlgError
    compiled = dynamo.compile(f, backend="eager")
    log = []
    compiled(log, np.eye(3))
    with pytest.raises(np.linalg.LinAlgError):
        compiled(log, np.zeros((3, 3)))
    assert log == ["before", "before"]   # once per call: the rerun made the append


def test_the_shared_read_the_guards_computed_is_the_graphs_input():
    def weighted(xs, a):
        return a * np.array(xs)
    compiled = dynamo.compile(weighted, backend="numpy")
    a = arr(8)
    for i in range(4):
        xs = [0.5 * i + k for k in range(8)]
        same(compiled(xs, a), weighted(xs, a))
    src = dispatcher_of(compiled, weighted)
    hit = src.split("if ___ok:")[1]
    assert "___e0_a0" in hit and "___e0_run(" not in hit, src


def glue_names(x, ___out=1.0, ___result=2.0, ___cells=3.0, ___e0_glue_graph=4.0, ___o0=6.0,
               ___t0=5.0):
    return x * (___out + ___result + ___cells + ___e0_glue_graph + ___t0 + ___o0)


def test_parameters_named_like_the_glue_locals():
    check(glue_names, arr(3))
    check(glue_names, arr(3), kwargs={"___out": -1.0, "___t0": 7.0, "___o0": -2.0})


def test_a_closure_cell_written_in_the_inlined_glue():
    def make():
        count = 0

        def f(x):
            nonlocal count
            count += 1
            return x * count
        return f
    plain, compiled = make(), dynamo.compile(make(), backend="eager")
    for _ in range(3):
        same(compiled(arr(3)), plain(arr(3)))


def test_an_exception_of_a_write_back_passes_through():
    class Frozen:
        def __setattr__(self, name, value):
            raise AttributeError(f"frozen: {name}")

    def f(obj, x):
        obj.y = x
        return x + 1
    check(f, Frozen(), arr(3))


# ------------------------------------------------- a graph of symbolic sizes (numpy backend)
def python_frames(fn, *args) -> tuple:
    """``fn(*args)``'s result and the code objects of the Python frames it ran, in the
    order they started (``sys.setprofile``: C functions are not frames)."""
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


def softmax_rows(x):
    return np.exp(x - x.max(axis=-1, keepdims=True))


def size_runner(compiled, fn):
    """The numpy backend's ``PerSize`` runner of the newest entry of ``fn`` (the one
    of symbolic sizes, made at the second size)."""
    entry = compiled._ctx.caches[fn.__code__].entries[0]
    runner = entry.run.__globals__["___graph"]
    assert isinstance(runner, sizes.PerSize), runner
    return runner


def test_a_cached_call_of_a_symbolic_graph_runs_its_variant_with_no_frame_between():
    """The dispatcher looks the variant of the call's sizes up itself: a hit runs the
    wrapper, the dispatcher and the variant, and no frame of ``PerSize``."""
    compiled = dynamo.compile(softmax_rows, backend="numpy")
    for n in (3, 4, 5, 5):   # 3: static entry; 4: symbolic; 5: a variant compiled, then hit
        same(compiled(arr(n, 8, seed=n)), softmax_rows(arr(n, 8, seed=n)))
    runner = size_runner(compiled, softmax_rows)
    variant = runner.variants[((5, 8),)]
    result, codes = python_frames(compiled, arr(5, 8, seed=9))
    same(result, softmax_rows(arr(5, 8, seed=9)))
    assert [c.co_name for c in codes[:2]] == ["softmax_rows", "___dispatch"], codes
    assert codes[2:] == [variant.__code__], codes
    assert "variants.get(" in dispatcher_of(compiled, softmax_rows)


def test_sizes_past_the_static_variants_run_the_generic_code_directly():
    compiled = dynamo.compile(softmax_rows, backend="numpy")
    n = 3
    while n < 4 + sizes.GENERIC_AFTER:   # the static entry, the symbolic one, its variants
        for _ in range(2):   # (each size twice: sizes that recur keep their variants)
            same(compiled(arr(n, 8, seed=n)), softmax_rows(arr(n, 8, seed=n)))
        n += 1
    runner = size_runner(compiled, softmax_rows)
    assert runner.compiled == sizes.GENERIC_AFTER and runner.generic is None
    same(compiled(arr(n, 8)), softmax_rows(arr(n, 8)))   # compiles the generic code
    assert runner.generic is not None
    for m in (n + 1, n + 2, 4):   # new sizes, and one with a variant
        result, codes = python_frames(compiled, arr(m, 8, seed=m))
        same(result, softmax_rows(arr(m, 8, seed=m)))
        ran = runner.variants.get(((m, 8),)) or runner.generic
        assert codes[2:] == [ran.__code__], codes


def embed(ids, wte, ___in0=1.0, ___in1=2.0, ___in2=3.0, ___in3=4.0):
    """A token list read as data (``np.asarray(ids)`` and its length are the graph's
    inputs, the length computed from it); parameters named like the glue's locals
    for the inputs (``direct_graph_call``)."""
    return np.tanh(wte[ids] + len(ids)) * (___in0 + ___in1 * ___in2 - ___in3)


def test_graph_inputs_computed_in_the_dispatcher_are_read_once_in_order():
    compiled = dynamo.compile(embed, backend="numpy")
    wte = arr(32, 4)
    for n in range(2, 12):
        ids = [(7 * k) % 32 for k in range(n)]
        same(compiled(ids, wte), embed(ids, wte))
        same(compiled(ids, wte, 0.5, ___in3=1.5), embed(ids, wte, 0.5, ___in3=1.5))
    src = dispatcher_of(compiled, embed)
    assert "variants.get(" in src, src


def scaled_after_a_print(x):
    y = np.tanh(x) * 2
    print("break")
    return y + x.sum()


def test_a_resume_function_runs_its_variant_with_no_frame_between(capsys):
    """A resume function's glue is called (its arguments come boxed), not pasted into
    its dispatcher, and so is the glue of the code before the break: each looks the
    variant of its inputs' sizes up itself, so a hit runs the glue and the variant,
    and no frame of ``PerSize``."""
    compiled = dynamo.compile(scaled_after_a_print, backend="numpy")
    for n in (3, 4, 5, 5, 6):   # 3: static entries; 4: symbolic; 5 and 6: variants
        same(compiled(arr(n, seed=n)), scaled_after_a_print(arr(n, seed=n)))
    main = compiled._ctx.caches[scaled_after_a_print.__code__]
    resumes = [c for c in compiled._ctx.caches.values() if c is not main and c.entries]
    assert len(resumes) == 1, resumes
    glue = resumes[0].entries[0].run
    runner = glue.__globals__["___graph"]
    assert isinstance(runner, sizes.PerSize), runner
    assert "___graph.variants.get(" in glue.__dynamo_source__, glue.__dynamo_source__
    assert "___graph(" not in glue.__dynamo_source__, glue.__dynamo_source__
    result, codes = python_frames(compiled, arr(5, seed=9))
    same(result, scaled_after_a_print(arr(5, seed=9)))
    variant = runner.variants[((5,), (5,))]
    at = codes.index(glue.__code__)
    assert codes[at + 1] is variant.__code__, codes
    before = [c for c in codes if c.co_name.startswith("___glue_")]   # and before the break
    assert len(before) == 2 and "forward" in codes[codes.index(before[0]) + 1].co_name, codes
    same(compiled(arr(7)), scaled_after_a_print(arr(7)))   # a new size: the miss path
    assert capsys.readouterr().out == "break\n" * 14


# ------------------------------------------------- the frames of a cache hit (#16)
@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_hit_runs_the_functions_frame_the_dispatcher_and_the_graph_only(backend):
    """A cached call of a compiled method runs three Python frames: the method's own
    (the frame entry's prologue, in the frame the program's call made), the dispatcher
    (the guards and the glue, inlined) and the compiled graph. No frame of the compiled
    object's ``__call__`` (a slot), of a wrapper, of ``miss`` or of the glue function.
    (docs/benchmarks.md, "Per-call cost of a cached call, third round": what one frame
    less would save, measured.)"""
    layer, plain = Layer(), Layer()
    compiled = dynamo.compile(layer.forward, backend=backend)
    xs = [arr(4, seed=i) for i in range(3)]
    for x in xs[:2]:
        same(compiled(x), plain.forward(x))
    cache = compiled.__func__._ctx.caches[Layer.forward.__code__]
    assert len(cache.entries) == 1
    result, codes = python_frames(compiled, xs[2])
    same(result, plain.forward(xs[2]))
    assert len(layer.X) == 3 and layer.X[2] is xs[2]
    entry = compiled.__call__.__func__
    graph = cache.dispatch.__globals__.get("___e0_glue_graph")   # (its glue, inlined)
    assert codes == [entry.__code__, cache.dispatch.__code__,
                     getattr(graph, "__code__", None)], codes
    assert codes[0].co_name == "forward" and codes[0].co_filename == __file__
