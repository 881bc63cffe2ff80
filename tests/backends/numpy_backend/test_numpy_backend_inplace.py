"""In-place ops, views and reads through the ``numpy`` backend, against eager NumPy.

Every test compares compiled (``backend="numpy"``) with eager on its own copies of the
arguments: the result (values, dtypes, shapes, types, or the exception), the
caller's arrays after the call, and the warnings raised (category and text). Each
program runs on the plain path (default options) and block-wise on threads
(``BLOCKED``), so both code paths' buffer reuse is exercised.

The bugs these tests pin down (docs/realworld.md W2, W4):

- W2: the plain path reused the buffer of a "private" intermediate for the next op,
  but the result of an in-place op is the caller's array: ``pos += vel; t = pos * 2``
  became ``add = _add(pos, vel, out=pos); multiply = _multiply(add, 2, add)`` and
  overwrote ``pos``. Only fresh results of non-view ops that no caller, output, view
  or write can see may lend their memory.
- W4: the reused buffer was passed positionally (``np.maximum(a, 0, a)``), which NumPy
  2.4 deprecates with a DeprecationWarning eager code does not emit.
"""

import copy
import re
import textwrap
import warnings

import numpy as np
import pytest
from harness import _same_outcome, rand, same
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_numpy_backend import BLOCKED, compiled_graph

import dynamo

PLAIN = {}
OPTIONS = {"plain": PLAIN, "blocked": BLOCKED}


def run(fn, args):
    """(result or exception, warnings as (category, text)) of one call on ``args``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001 (compared with eager's)
            result = e
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def strides(value):
    """The strides of every array in a result (memory layout is part of the result)."""
    if isinstance(value, np.ndarray):
        return value.strides
    if isinstance(value, (tuple, list)):
        return [strides(v) for v in value]
    return None


# Memory layouts of the arguments (each call gets its own copy in this layout); "F, C"
# makes the first array Fortran-ordered and leaves the others C-contiguous.
LAYOUTS = {
    "C": lambda a, i: np.ascontiguousarray(a),
    "F": lambda a, i: np.asfortranarray(a),
    "F, C": lambda a, i: np.asfortranarray(a) if i == 0 else np.ascontiguousarray(a),
    "reversed": lambda a, i: np.ascontiguousarray(a[::-1])[::-1] if a.ndim else a,
    "strided": lambda a, i: np.repeat(a, 2, axis=-1)[..., ::2] if a.ndim else a,
    # a window of a larger C array (A[1:-1, 2:-2]): C order, rows apart
    "window": lambda a, i: np.pad(a, 2)[(slice(2, -2),) * a.ndim] if a.ndim else a,
    # the first two axes swapped in memory: neither C nor F order
    "swapped": lambda a, i: np.ascontiguousarray(np.swapaxes(a, 0, 1)).swapaxes(0, 1)
    if a.ndim >= 2 else a,
}


def copies(args, layout):
    args = copy.deepcopy(args)
    return tuple(LAYOUTS[layout](a, i) if isinstance(a, np.ndarray) else a
                 for i, a in enumerate(args))


def differential(fn, *args, options=PLAIN, rtol=0.0, atol=0.0, graphs=1, calls=2,
                 layouts=("C",)):
    """Compiled == eager: result (and its layout), the arguments afterwards, warnings;
    ``graphs`` graphs. One compiled function runs every layout of the arguments in
    turn (guards do not look at layout: the same entry serves them all)."""
    dynamo.reset()
    compiled = dynamo.compile(fn, backend="numpy", options=options)
    for layout in layouts:
        _compare(fn, compiled, args, layout, rtol, atol, calls)
    if graphs is not None:
        report = dynamo.explain(fn, backend="numpy", options=options)(*copy.deepcopy(args))
        assert report.graph_count == graphs, str(report)
    dynamo.reset()


def _compare(fn, compiled, args, layout, rtol, atol, calls):
    eager_args = copies(args, layout)
    want, want_warnings = run(fn, eager_args)
    for call in range(calls):
        label = f"{layout} arguments, call {call + 1}"
        got_args = copies(args, layout)
        got, got_warnings = run(compiled, got_args)
        _same_outcome(want, got, rtol, atol, label)
        assert strides(got) == strides(want), f"{label}: strides {strides(got)}"
        same(eager_args, got_args, rtol, atol, f"{label}: arguments after the call")
        assert got_warnings == want_warnings, f"{label}: warnings {got_warnings}"


# ------------------------------------------------------------- the audit's forms (W2)

def iadd_then_read(pos, vel):
    pos += vel
    t = pos * 2
    return t + 1


def standardize_inplace(x):
    x -= x.mean(0)
    x /= x.std(0)
    return np.tanh(2 * x)


def maximum_out_then_read(x):
    np.maximum(x, 0, out=x)
    return x * 2 + 1


def maximum_out_result_read(x):
    r = np.maximum(x, 0, out=x)      # r is x
    return r * 2 + 1


def add_out_then_read(x, y):
    np.add(x, y, out=x)
    return x * 3 - y


def add_positional_out_then_read(x, y):
    np.add(x, y, x)                  # the third positional argument is the output
    return x * 3 - y


def reshape_view_imul(x):
    flat = x.reshape(-1)             # `x.reshape(-1) *= 2` is a SyntaxError
    flat *= 2
    return x * 2 + 1, flat + 1


def reshape_view_slice_imul(x):
    x.reshape(-1)[:] *= 2
    return x * 2 + 1


def slice_iadd(x):
    x[1:] += 1
    return x * 2 + 1


def transpose_view_iadd(x):
    t = x.T
    t += 1
    return t * 2 + 1, x - 1


def transpose_attribute_iadd(x):
    x.T += 1                         # eager: adds, then AttributeError (T is read-only)
    return x * 2


def view_of_view_imul(x):
    v = x[1:][:, ::2]
    v *= 3
    w = v.T
    w -= 1
    return v + 1, x * 2, w * 2


def leapfrog(pos, vel, dt=0.1):
    acc = -pos
    vel += 0.5 * dt * acc
    pos += dt * vel
    acc = -pos
    vel += 0.5 * dt * acc
    return 0.5 * (vel * vel).sum(-1), pos * 1.0


def write_into_intermediate(x):
    t = x * 2
    np.exp(t, out=t)                 # t is written: its buffer is t's, not a scratch
    t += 1
    return t * 3


def donor_then_write(x):
    t = np.exp(x)                    # a private intermediate: lends its buffer to u
    u = t * 2
    u += 1                           # u is written: it lends its buffer to no one
    return u * 3


def fresh_into_caller_array(x, y):
    t = y * 2                        # dies in the next line: a donor
    np.add(t, 1, out=x)              # writes x, not t
    return x + 0, y * 1


def einsum_diagonal_read(x):
    d = np.einsum("ii->i", x)        # a view of x's diagonal, not a fresh array
    e = d * 2
    return e + 1


def einsum_diagonal_write(x):
    d = np.einsum("ii->i", x)
    d += 1
    return x * 2


def same_expression_around_a_write(x):
    a = x * 2
    flat = x.reshape(-1)
    flat *= 3
    b = x * 2                        # not a: x changed through the view
    return a + 0, b + 0


def creation_written_then_read(x):
    z = np.arange(4.0)
    v = z[1:]
    v += x                           # z changes through a view at run time
    a = z * 2                        # cannot be folded at compile time
    return a + 1


def returns_the_written_input(x):
    return np.add(x, 1, out=x)


FORMS = [
    ("pos += vel", iadd_then_read, lambda: (rand(37, 23), rand(37, 23, seed=1))),
    ("pos += vel, f64", iadd_then_read,
     lambda: (rand(37, 23, dtype=np.float64), rand(23, dtype=np.float64, seed=1))),
    ("pos += vel, int", iadd_then_read,
     lambda: (rand(37, 23, dtype=np.int32), rand(37, 23, dtype=np.int32, seed=1))),
    ("x -= mean; x /= std", standardize_inplace, lambda: (rand(37, 23),)),
    ("maximum(x, 0, out=x)", maximum_out_then_read, lambda: (rand(37, 23),)),
    ("r = maximum(x, 0, out=x)", maximum_out_result_read, lambda: (rand(37, 23),)),
    ("add(x, y, out=x)", add_out_then_read, lambda: (rand(37, 23), rand(37, 23, seed=1))),
    ("add(x, y, x)", add_positional_out_then_read,
     lambda: (rand(37, 23), rand(23, seed=1))),
    ("x.reshape(-1) *= 2", reshape_view_imul, lambda: (rand(37, 23),)),
    ("x.reshape(-1)[:] *= 2", reshape_view_slice_imul, lambda: (rand(37, 23),)),
    ("x[1:] += 1", slice_iadd, lambda: (rand(37, 23),)),
    ("t = x.T; t += 1", transpose_view_iadd, lambda: (rand(37, 23),)),
    ("view of a view", view_of_view_imul, lambda: (rand(37, 23),)),
    ("leapfrog", leapfrog, lambda: (rand(37, 3, dtype=np.float64),
                                    rand(37, 3, dtype=np.float64, seed=1))),
    ("exp(t, out=t)", write_into_intermediate, lambda: (rand(37, 23),)),
    ("donor, then written", donor_then_write, lambda: (rand(37, 23),)),
    ("fresh into caller", fresh_into_caller_array,
     lambda: (rand(37, 23), rand(37, 23, seed=1))),
    ("einsum diagonal read", einsum_diagonal_read, lambda: (rand(23, 23),)),
    ("einsum diagonal write", einsum_diagonal_write, lambda: (rand(23, 23),)),
    ("cse around a write", same_expression_around_a_write, lambda: (rand(37, 23),)),
    ("fold around a write", creation_written_then_read, lambda: (rand(3),)),
    ("returns the written input", returns_the_written_input, lambda: (rand(37, 23),)),
]


@pytest.mark.parametrize("path", list(OPTIONS))
@pytest.mark.parametrize("name, fn, make", FORMS, ids=[f[0] for f in FORMS])
def test_inplace_forms_equal_eager(name, fn, make, path):
    differential(fn, *make(), options=OPTIONS[path])


@pytest.mark.parametrize("path", list(OPTIONS))
def test_attribute_assignment_raises_like_eager(path):
    # `x.T += 1` adds through the view, then fails to assign the attribute: compiled
    # raises eager's AttributeError with x written (the graph before the break ran)
    differential(transpose_attribute_iadd, rand(37, 23), options=OPTIONS[path], graphs=None)


def test_large_inplace_forms_take_the_block_path():
    # 512 x 300 float32, blocks from 2**17 elements: the reads after the writes run
    # block-wise
    blocked = {"min_blocked_elements": 1 << 17}
    x, v = rand(512, 300), rand(512, 300, seed=1)
    compiled = compiled_graph(iadd_then_read, x, v, **blocked)
    assert any(p is not None for _, p in compiled.__dynamo_groups__), \
        compiled.__dynamo_source__
    for fn, args in [(iadd_then_read, (x, v)), (standardize_inplace, (x,)),
                     (maximum_out_then_read, (x,)), (slice_iadd, (x,)),
                     (transpose_view_iadd, (x,)), (reshape_view_imul, (x,))]:
        differential(fn, *args, options=blocked, rtol=1e-5, atol=1e-6)


def test_generated_code_never_writes_into_a_write_result():
    # the generated source of the audit's repro: multiply gets a fresh array
    src = compiled_graph(iadd_then_read, rand(5), rand(5, seed=1)).__dynamo_source__
    assert "add = _add(pos, vel, out=pos)" in src, src
    assert "_multiply(add, 2)" in src, src


def test_private_intermediates_still_lend_their_buffers():
    # the speed this reuse buys stays: exp's result dies in the multiply, whose result
    # dies in the add, which is returned in it (exp's is the only allocation)
    def chain(x):
        return np.exp(x) * 2 + 1

    x = rand(5)
    fn = compiled_graph(chain, x)
    src = fn.__dynamo_source__
    assert "multiply = _multiply(exp, 2, exp)" in src, src
    assert "add = _add(multiply, 1, multiply)" in src, src
    (got,) = fn(x)
    # the returned array is one nobody else saw: fresh, as eager's
    assert got.flags.owndata and got.flags.c_contiguous and got.base is None
    assert not np.shares_memory(got, x)
    np.testing.assert_array_equal(got, chain(x))
    (again,) = fn(x)
    assert not np.shares_memory(got, again)


# ------------------------------------------------------------------ memory layout

def exp_chain(x, y):
    t = np.exp(x) * 2                # exp lends its buffer to the multiply
    u = t + y                        # multiply lends its buffer to the add
    return u * 2


def exp_plus(x, y):
    return np.exp(x) * 2 + y         # the returned add writes into multiply's buffer


def transposed_chain(x, y):
    t = np.exp(x.T)                  # Fortran-ordered for a C-contiguous x
    u = t + y.reshape(x.shape[::-1])  # eager: C-ordered (C wins a conflict of orders)
    return u * 2


def reduction_chain(x, y):
    s = x.sum(axis=0) * 2            # a fresh (C,) array lends its buffer
    return (s + y[0]) * 3, x @ y.T + 1


def matmul_chain(x, y):
    return np.maximum(x @ y.T + 1, 0) * 2


def roll_chain(x, y):
    # rolls and where/clip/astype results keep their operands' layout (K order)
    r = np.roll(x, 1, 0) + np.roll(y, -1, 1)
    w = np.where(r > 1.0, r, y).astype(np.float32)
    return np.clip(w * 2.0, 0.5, 1.5) + 1.0


def copy_chain(x, y):
    # x.copy() is C-contiguous whatever x's layout: so is what is computed from it alone
    c = x.copy()
    return np.exp(c[1:, :-1]) * 2.0 + c[:-1, 1:] + y[1:, 1:]


LAYOUT_FORMS = [("exp chain", exp_chain), ("exp plus", exp_plus),
                ("transposed chain", transposed_chain),
                ("reduction chain", reduction_chain), ("matmul chain", matmul_chain),
                ("roll chain", roll_chain), ("copy chain", copy_chain)]


@pytest.mark.parametrize("path", list(OPTIONS))
@pytest.mark.parametrize("name, fn", LAYOUT_FORMS, ids=[f[0] for f in LAYOUT_FORMS])
def test_results_keep_eagers_layout(name, fn, path):
    # a result written into a reused buffer has the buffer's layout; eager's has the
    # layout NumPy picks from all operands: they agree only for C-contiguous buffers
    differential(fn, rand(37, 23), rand(37, 23, seed=1), options=OPTIONS[path],
                 rtol=1e-5, atol=1e-5, layouts=list(LAYOUTS))


def test_layout_check_guards_only_what_reuse_needs():
    # the returned add borrows multiply's buffer: C order whenever x is, and so is
    # eager's (C wins a conflict of orders), whatever y's layout
    src = compiled_graph(exp_plus, rand(37, 23), rand(37, 23, seed=1)).__dynamo_source__
    assert "if not ((x.flags.c_contiguous or _row_major(x))):" in src, src
    assert "_add(multiply, y, multiply)" in src, src
    # exp_chain's last multiply reads add = multiply + y, whose eager layout follows y
    src = compiled_graph(exp_chain, rand(37, 23), rand(37, 23, seed=1)).__dynamo_source__
    assert "if not ((x.flags.c_contiguous or _row_major(x)) and " \
        "(y.flags.c_contiguous or _row_major(y))):" in src, src
    assert "_add(multiply, y, multiply)" in src, src
    one_d = compiled_graph(exp_chain, rand(37), rand(37, seed=1)).__dynamo_source__
    assert "flags" not in one_d and ", multiply)" in one_d, one_d   # 1-d buffers: no check


# ------------------------------------------------------ warnings the user never wrote (W4)

def relu_layer(x, w, b):
    return np.maximum(x @ w + b, 0) @ w.T


def clamp_chain(x):
    return np.minimum(np.maximum(x * 2, -1), 1) + np.maximum(x, 0) * 3


def relu_inplace_features(x, w):
    np.maximum(x, 0, out=x)
    return np.maximum(x + 1, 0.5) @ w


WARNING_FORMS = [
    ("relu layer", relu_layer, lambda n: (rand(n, 16), rand(16, 16, seed=1), rand(16, seed=2))),
    ("clamp chain", clamp_chain, lambda n: (rand(n, 16),)),
    ("relu in place", relu_inplace_features, lambda n: (rand(n, 16), rand(16, 4, seed=1))),
]


@pytest.mark.parametrize("path", list(OPTIONS))
@pytest.mark.parametrize("name, fn, make", WARNING_FORMS, ids=[f[0] for f in WARNING_FORMS])
def test_no_warning_eager_does_not_emit(name, fn, make, path):
    differential(fn, *make(37), options=OPTIONS[path], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name, fn, make", WARNING_FORMS, ids=[f[0] for f in WARNING_FORMS])
def test_runs_under_warnings_as_errors(name, fn, make):
    # `-W error`: a warning the user never wrote would be an exception (and graphs
    # with writes are not rerun op by op)
    for options, n in ((PLAIN, 37), (BLOCKED, 37), (PLAIN, 8192)):
        dynamo.reset()
        args = make(n)
        want = fn(*copy.deepcopy(args))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = dynamo.compile(fn, backend="numpy", options=options)(*copy.deepcopy(args))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    dynamo.reset()


def test_generated_code_passes_out_by_keyword_to_maximum_and_minimum():
    # NumPy 2.4 deprecates their positional outputs (eager's out= does not warn); other
    # ufuncs take the buffer positionally, which skips NumPy's keyword parser
    # (backends/numpy_backend/positional_out.py)
    for fn, make in [(relu_layer, WARNING_FORMS[0][2]), (clamp_chain, WARNING_FORMS[1][2])]:
        for options in (PLAIN, BLOCKED):
            src = compiled_graph(fn, *make(37), **options).__dynamo_source__
            assert "out=" in src, src   # a buffer is reused, by keyword
            assert not re.search(r"_(maximum|minimum)\([^\n]*, _s\d\)", src), src
    src = compiled_graph(relu_layer, *WARNING_FORMS[0][2](37), **BLOCKED).__dynamo_source__
    assert re.search(r"= _add\([^\n]*, _s0\)", src), src


# --------------------------------------------------------- random programs with writes

# Each step is a read (a fresh value), a view, or a write into a value or a view; the
# names and shapes of the values so far decide what may follow. Every write is followed
# by reads of what it wrote (the written name and the base of a view), so a buffer
# reused wrongly or a stale value shows up in the results; the arguments afterwards
# are compared too (the inputs' contents need no read in the program: a read at the
# end would keep a written input alive, and the W2 reuse only struck dead ones).
FLOAT_READS = ["{0} * 2", "np.tanh({0})", "{0} + {1}", "np.maximum({0}, {1})",
               "np.minimum({0}, 0.5)", "{0} - {1} * 0.5", "np.exp(np.tanh({0}))",
               "np.abs({0}) + 1", "np.sqrt(np.abs({0}))"]
INT_READS = ["{0} * 2", "{0} + {1}", "np.maximum({0}, {1})", "np.minimum({0}, 3)",
             "{0} - {1}", "np.abs({0}) + 1", "{0} % 7"]
# (positional outputs of np.maximum/np.minimum are left out: eager warns there, and
# the frontend passes out= by keyword, which drops eager's DeprecationWarning)
FLOAT_WRITES = ["{0} += {1}", "{0} *= 0.5", "{0} -= {0}.mean(0)", "np.maximum({0}, 0, out={0})",
                "np.add({0}, {1}, out={0})", "np.exp(np.tanh({1}), out={0})", "{0}[1:] += 1",
                "{0}[...] = {1}", "np.multiply({0}, {1}, {0})", "{0} /= np.abs({1}) + 1"]
INT_WRITES = ["{0} += {1}", "{0} *= 3", "np.maximum({0}, 0, out={0})",
              "np.add({0}, {1}, out={0})", "{0}[1:] += 1", "{0}[...] = {1}",
              "np.subtract({0}, {1}, {0})", "np.minimum({0}, {1}, out={0})"]
VIEWS = [("{0}.T", lambda s: s[::-1]), ("{0}[1:]", lambda s: (max(s[0] - 1, 0),) + s[1:]),
         ("{0}[:, ::2]", lambda s: (s[0], -(-s[1] // 2))),
         # a copy when the value is not contiguous (a transposed read): eager's choice
         ("{0}.reshape(-1)", lambda s: (s[0] * s[1],))]


@st.composite
def inplace_programs(draw):
    """(source of ``def prog(a, b)``, dtype, shape): reads, views and writes mixed."""
    dtype = draw(st.sampled_from([np.float32, np.float64, np.int32]))
    is_int = dtype == np.int32
    reads, writes = (INT_READS, INT_WRITES) if is_int else (FLOAT_READS, FLOAT_WRITES)
    shape = (draw(st.integers(1, 9)), draw(st.integers(1, 9)))
    shapes = {"a": shape, "b": shape}
    bases = {"a": "a", "b": "b"}       # the value each view's memory belongs to
    lines, fresh = [], []
    for i in range(draw(st.integers(2, 12))):
        kind = draw(st.sampled_from(["read", "read", "view", "write", "write"]))
        name = f"t{i}"
        x = draw(st.sampled_from(sorted(shapes)))
        y = draw(st.sampled_from(sorted(n for n in shapes if shapes[n] == shapes[x])))
        if kind == "view":
            if len(shapes[x]) != 2:
                continue
            src, shape_of = draw(st.sampled_from(VIEWS))
            lines.append(f"{name} = {src.format(x)}")
            shapes[name], bases[name] = shape_of(shapes[x]), bases[x]
            continue
        if kind == "write":
            form = draw(st.sampled_from(writes))
            if ("[1:]" in form or ".mean(0)" in form) and shapes[x][0] == 0:
                continue
            lines.append(form.format(x, y))
            lines.append(f"{name} = {x} * 2")          # read what was written
            if bases[x] != x:
                lines.append(f"{name}_base = {bases[x]} + 1")   # and the viewed base
                fresh.append(f"{name}_base")
        else:
            lines.append(f"{name} = {draw(st.sampled_from(reads)).format(x, y)}")
        fresh.append(name)
        shapes[name], bases[name] = shapes[x], name
    returned = draw(st.lists(st.sampled_from(fresh), max_size=3, unique=True)) if fresh else []
    if draw(st.booleans()) or not returned:
        returned.append("a - b")     # the inputs' final contents, read in the graph
    src = "def prog(a, b):\n" + textwrap.indent("\n".join(lines) or "pass", "    ") + \
        f"\n    return ({', '.join(returned)},)\n"
    return src, dtype, shape


def build(src: str):
    scope = {"np": np}
    exec(compile(src, "<random in-place program>", "exec"), scope)
    return scope["prog"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inplace_programs(), st.sampled_from(list(OPTIONS)), st.integers(0, 2**16),
       st.lists(st.sampled_from(list(LAYOUTS)), min_size=1, max_size=2))
def test_random_inplace_programs(program, path, seed, layouts):
    src, dtype, shape = program
    rng = np.random.default_rng(seed)
    if dtype == np.int32:
        args = tuple(rng.integers(-9, 10, shape).astype(dtype) for _ in range(2))
        tol = {}
    else:
        args = tuple(rng.uniform(-2, 2, shape).astype(dtype) for _ in range(2))
        # x -= x.mean(0) of a reshaped 1-d view reduces everything: block-wise sums
        # may round differently (docs/numpy_backend.md)
        tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == np.float32 else \
            {"rtol": 1e-12, "atol": 1e-12}
    with np.errstate(all="ignore"):
        differential(build(src), *args, options=OPTIONS[path], graphs=None, layouts=layouts,
                     **tol)


def flip_flop(x, y):
    # x is C-ordered on even trips and F-ordered (a transpose) on odd ones: each trip
    # checks the layout before writing into a dead buffer (LayoutCheck.per_trip)
    for _ in range(12):
        x = ((x + y) * 2.0 - y).T / 3.0
        y = y.T
    return x, y


def two_stencils(A, B):
    for _ in range(10):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1])
    return A


@pytest.mark.parametrize("fn", [flip_flop, two_stencils], ids=["flip-flop", "stencils"])
def test_loop_bodies_keep_eagers_layout_trip_by_trip(fn):
    differential(fn, rand(23, 23), rand(23, 23, seed=1), rtol=1e-12, atol=1e-12,
                 layouts=list(LAYOUTS))


def test_loop_bodies_reuse_buffers_of_checked_inputs(caplog):
    import logging
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        compiled_graph(two_stencils, rand(23, 23), rand(23, 23, seed=1))
    body = next(r.getMessage() for r in caplog.records if "_taking(" in r.getMessage())
    assert "_layout = " in body and "if _layout else None" in body, body


def prefix_sum(x):
    for i in range(1, x.shape[0]):
        x[i] += x[i - 1]
    return x


def strided_recurrence(x, y):
    for i in range(3, x.shape[0] - 1, 2):
        x[i] = 0.5 * x[i - 2] + y[i + 1] - x[i - 3]
    return x


@pytest.mark.parametrize("fn, n", [(prefix_sum, 40), (strided_recurrence, 41)],
                         ids=["prefix", "strided"])
def test_loop_variable_counts_like_the_programs_index(fn, n, caplog):
    """The loop variable starts where the index expressions need it (``trip_base``):
    the prefix sum runs ``for trip in range(2, trips + 2): x[trip] ... x[trip - 1]``,
    and a write into a carried array needs no name of its own."""
    import logging
    args = [rand(n, seed=s) for s in range(fn.__code__.co_argcount)]
    differential(fn, *args, rtol=0, atol=0)
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        compiled_graph(fn, *args)
    body = next(r.getMessage() for r in caplog.records if "_taking(" in r.getMessage())
    if fn is prefix_sum:
        assert "for trip in range(2, 2 + trips):" in body, body
        assert "x[(trip - 1)]" in body and "x = setitem" not in body, body
