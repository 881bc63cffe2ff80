"""The ``numpy`` backend against plain NumPy in the corner cases a hostile user finds.

Every test compares a compiled function with the same function run by plain NumPy:
results bit for bit (signed zeros and NaN positions included), dtypes and types,
exceptions (type and message), and every floating-point report: warnings recorded
under ``simplefilter("always")``, calls of the ``np.seterrcall`` function, lines
printed under ``np.errstate(all="print")``, writes under ``"log"``. Each runs on the
plain path (one NumPy call per op) and on the block-wise path with two threads.

- dead code: an unused op that may raise or warn still does (``np.linalg.inv`` of a
  singular matrix, an out-of-bounds index, ``1 / x`` under ``divide="raise"``);
- strength reduction: only exact rewrites (``np.float64(-inf) ** 0.5`` is ``inf``);
- floating-point reports: once per op per call, naming eager's op, in eager's order,
  with blocks, threads, merged and renamed ops, and in graphs with writes;
- exceptions: eager's, and the program's own ``try/except`` catches them;
- references: after a call, the backend keeps no argument alive.
"""

import gc
import threading
import warnings
import weakref

import numpy as np
import pytest
from dynamo.backends.common import python_function
from dynamo.backends.numpy_backend import numpy_backend
from dynamo.backends.numpy_backend import runtime as np_runtime

import dynamo

BLOCKED = {"min_blocked_elements": 0, "min_threaded_elements": 0, "cache_bytes": 2048,
        "min_block_elements": 1,
           "threads": 2}
PATHS = {"plain": {}, "blocked": BLOCKED}
FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64]


# --------------------------------------------------------------------------- helpers

def special(dtype, n: int = 600, seed: int = 0) -> np.ndarray:
    """Random values of ``dtype`` with zeros of both signs, infinities, NaN, the
    extremes and subnormals mixed in (complex: such parts)."""
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dtype.kind == "c":
        part = special(np.float32 if dtype == np.complex64 else np.float64, n, seed)
        with np.errstate(all="ignore"):
            return (part + 1j * np.roll(part, 7)).astype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        edge = np.array([0, 1, 2, 3, info.max, info.min, info.max - 1], dtype)
        body = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        return np.concatenate([edge, body, rng.integers(0, 5, n).astype(dtype)])
    info = np.finfo(dtype)
    edge = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0, info.max,
                     -info.max, info.smallest_normal, info.smallest_subnormal,
                     -info.smallest_subnormal, info.eps], dtype)
    scale = rng.choice([1e-30, 1e-4, 1.0, 1e4, 1e30], n)
    with np.errstate(all="ignore"):
        body = (rng.standard_normal(n) * scale).astype(dtype)
    return np.concatenate([edge, body])


def identical(a, b, path: str = "result") -> None:
    """``a`` and ``b`` are the same: type, dtype, shape, every bit but NaN payloads."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            identical(x, y, f"{path}[{i}]")
        return
    if not isinstance(a, (np.ndarray, np.generic)):
        assert a == b, f"{path}: {a!r} != {b!r}"
        return
    assert a.dtype == b.dtype, f"{path}: dtype {a.dtype} != {b.dtype}"
    assert np.shape(a) == np.shape(b), f"{path}: shape {np.shape(a)} != {np.shape(b)}"
    x, y = np.atleast_1d(a), np.atleast_1d(b)
    if x.dtype.kind in "fc":
        nan = np.isnan(x)
        assert (nan == np.isnan(y)).all(), f"{path}: NaN at other places"
        x, y = x[~nan], y[~nan]
        if x.size:
            same = x.view(np.uint8).reshape(x.size, -1) == y.view(np.uint8).reshape(y.size, -1)
            bad = ~same.all(axis=-1)
            assert not bad.any(), f"{path}: {x[bad][:5]} != {y[bad][:5]} (bit for bit)"
    else:
        assert (x == y).all(), f"{path}: values differ"


class Reports:
    """Everything a call reports besides its result: warnings and errcall calls."""

    def __init__(self):
        self.calls: list = []

    def __call__(self, kind, flag):        # the np.seterrcall function
        self.calls.append((kind, flag))

    def write(self, text):                 # the "log" object
        self.calls.append(("log", text))


def observe(fn, args, errstate=None):
    """(result or (exception type, message), warnings, errcall calls) of one call."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    reports = Reports()
    old_call = np.seterrcall(reports)
    try:
        with warnings.catch_warnings(record=True) as caught, \
                np.errstate(**(errstate or {})):
            warnings.simplefilter("always")
            try:
                result = fn(*args)
            except Exception as e:  # noqa: BLE001
                result = (type(e), str(e))
    finally:
        np.seterrcall(old_call)
    return result, [(w.category, str(w.message)) for w in caught], reports.calls


def compiled(fn, backend="numpy", **options):
    if backend == "eager":
        return dynamo.compile(fn, backend="eager")
    return dynamo.compile(fn, backend="numpy", options=options)


def agree(fn, *args, options=None, errstate=None, backend="numpy", calls=2):
    """``fn`` compiled reports and returns exactly what plain NumPy does, call by call."""
    want = observe(fn, args, errstate)
    c = compiled(fn, backend, **(options or {}))
    for call in range(calls):
        got = observe(c, args, errstate)
        identical(want[0], got[0], f"call {call + 1}: result")
        assert got[1] == want[1], f"call {call + 1}: warnings {got[1]} != {want[1]}"
        assert got[2] == want[2], f"call {call + 1}: errcall {got[2]} != {want[2]}"
    return want


def agree_on_each(fn, inputs, options=None):
    """``agree`` for one compiled ``fn`` called on each of ``inputs`` (one argument)."""
    c = compiled(fn, **(options or {}))
    for x in inputs:
        want, got = observe(fn, (x,)), observe(c, (x,))
        identical(want[0], got[0], f"{fn.__name__}({x!r})")
        assert got[1:] == want[1:], f"{fn.__name__}({x!r}): {got[1:]} != {want[1:]}"


def traced(fn, *args):
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    dynamo.compile(fn, backend=capture)(*args)
    assert len(graphs) == 1
    return graphs[0]


def source(fn, *args, **options) -> str:
    return numpy_backend(traced(fn, *args), args, options=options).__dynamo_source__


# --------------------------------------------------------------------------- 9: dead code

def unused_inverse(a):
    np.linalg.inv(a)               # a check for singularity: its value is not used
    return a * 2


def unused_cholesky(a):
    np.linalg.cholesky(a)
    return a + 1


def unused_fancy_index(x, idx):
    x[idx]
    return x + 1


def unused_integer_index(x, i):
    x[i]
    return x + 1


def unused_division_under_raise(x):
    with np.errstate(divide="raise"):
        1 / x
    return x + 1


def unused_division(x):
    1 / x
    return x + 1


def unused_floor_division(a, b):
    a // b
    return a + b


def unused_cast(x):
    x.astype(np.int32)
    return x * 2


LINALG = np.linalg.LinAlgError
DIVIDE = (RuntimeWarning, "divide by zero encountered in divide")


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn, args, expect", [
    (unused_inverse, (np.zeros((3, 3)),), (LINALG, "Singular matrix")),
    (unused_inverse, (np.eye(3) * 2,), None),
    (unused_cholesky, (-np.eye(3),), (LINALG, "Matrix is not positive definite")),
    (unused_cholesky, (np.eye(3),), None),
    (unused_fancy_index, (np.arange(3.0), np.array([0, 7])),
     (IndexError, "index 7 is out of bounds for axis 0 with size 3")),
    (unused_fancy_index, (np.arange(3.0), np.array([0, 2])), None),
    (unused_integer_index, (np.arange(3.0), np.int64(5)),
     (IndexError, "index 5 is out of bounds for axis 0 with size 3")),
    (unused_integer_index, (np.arange(3.0), np.int64(-3)), None),
    (unused_division_under_raise, (np.zeros(3),),
     (FloatingPointError, "divide by zero encountered in divide")),
    (unused_division, (np.array([1.0, 0.0, 2.0]),), DIVIDE),
    (unused_floor_division, (np.arange(4), np.array([1, 0, 2, 0])),
     (RuntimeWarning, "divide by zero encountered in floor_divide")),
    (unused_cast, (np.array([1.5, np.nan, np.inf], np.float32),),
     (RuntimeWarning, "invalid value encountered in cast")),
], ids=lambda v: getattr(v, "__name__", None))
def test_unused_ops_still_raise_and_warn(backend, fn, args, expect):
    result, warned, _ = agree(fn, *args, backend=backend)
    if expect is None:
        assert not warned and isinstance(result, np.ndarray)
    elif issubclass(expect[0], Warning):
        assert warned == [expect]
    else:
        assert result == expect


@pytest.mark.parametrize("path", PATHS)
def test_unused_division_under_global_seterr_raise(path):
    x = np.linspace(-1, 1, 2001)    # holds 0.0
    old = np.seterr(all="raise")
    try:
        result, _, _ = agree(unused_division, x, options=PATHS[path])
    finally:
        np.seterr(**old)
    assert result == (FloatingPointError, "divide by zero encountered in divide")


@pytest.mark.parametrize("path", PATHS)
def test_unused_division_warns_once_per_call(path):
    x = np.linspace(-1, 1, 2001)
    _, warned, _ = agree(unused_division, x, options=PATHS[path])
    assert warned == [(RuntimeWarning, "divide by zero encountered in divide")]


def test_ops_that_cannot_fail_are_still_dropped():
    def f(x, a):
        x.T.reshape(-1)[1:]
        (a + 1) * a[::-1]           # integer arithmetic: no error case
        return x * 2

    src = source(f, np.ones((4, 3)), np.arange(5))
    assert "_transpose" not in src and "_add" not in src
    agree(f, np.ones((4, 3)), np.arange(5))


# --------------------------------------------------------------------------- 10: strength

POWER_EXPONENTS = [2, -1, 0.5, 2.0, 1, 3, -2, 0.25, np.float64(0.5), np.int64(2),
                   np.float32(2)]


def _power_programs(e):
    return [lambda x: x ** e, lambda x: np.power(x, e)]


@pytest.mark.parametrize("form", ["array", "0-d", "scalar"])
@pytest.mark.parametrize("dtype", FLOATS + [np.complex64, np.complex128])
def test_float_powers_equal_numpy(dtype, form):
    values = special(dtype)
    if form == "array":
        inputs = [values]
    else:
        inputs = [np.array(v) if form == "0-d" else v for v in values[:40]]
    for e in POWER_EXPONENTS:
        for fn in _power_programs(e):
            for options in PATHS.values():
                dynamo.reset()
                agree_on_each(fn, inputs, options)


@pytest.mark.parametrize("path", PATHS)
def test_the_issue_examples(path):
    """``np.float64(-inf) ** 0.5`` is inf and ``np.float64(-0.0) ** 0.5`` is 0.0 in
    eager (C pow), not sqrt's nan and -0.0."""
    def f(x):
        return x ** 0.5

    assert agree(f, np.float64(-np.inf), options=PATHS[path])[0] == np.inf
    result = agree(f, np.float64(-0.0), options=PATHS[path])[0]
    assert result == 0.0 and not np.signbit(result)


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_integer_powers_equal_numpy(dtype):
    values = special(dtype) if dtype is not np.bool_ else np.array([True, False] * 50)
    for n in list(range(0, 17)) + [-1, np.int64(3), 2.0]:
        for fn in _power_programs(n):
            for options in PATHS.values():
                dynamo.reset()
                agree_on_each(fn, [values, values[5], values[4], values[20]], options)


DIVISORS = [2, 4, 0.5, -8.0, 2.0 ** -20, 2.0 ** 20, 3, 0.1, np.float32(4), np.float64(0.25),
            np.int64(4), np.float16(2), 2.0 ** -127, 2.0 ** 127, 2.0 ** -1030]


def _divide_by(c):
    def f(x):
        return x / c
    return f


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", FLOATS + [np.int32])
def test_divisions_by_constants_equal_numpy(dtype, path):
    values = special(dtype)
    for c in DIVISORS:
        f = _divide_by(c)
        for x in (values, np.array(values[3]), np.array(values[10])):
            dynamo.reset()
            agree(f, x, options=PATHS[path], calls=1)
        # NumPy scalars: the frontend runs ``/`` as np.divide (a ufunc: "overflow
        # encountered in divide"), where plain Python's scalar division warns "...in
        # scalar divide"; the numpy backend must do exactly what the eager one does
        for x in (values[3], values[10], values[12]):
            dynamo.reset()
            want = observe(compiled(f, "eager"), (x,))
            dynamo.reset()
            got = observe(compiled(f, **PATHS[path]), (x,))
            identical(got[0], want[0])
            assert got[1:] == want[1:]


@pytest.mark.parametrize("path", PATHS)
def test_divisions_in_graphs_with_writes_warn_as_divide(path):
    """With writes in the graph nothing reruns: x / 0.5 stays a division, and its
    overflow warning names ``divide``."""
    def f(x, out):
        y = x / 0.5
        out[0] = 1.0
        return y + 1

    x = special(np.float32)
    _, warned, _ = agree(f, x, np.zeros(2), options=PATHS[path])
    assert (RuntimeWarning, "overflow encountered in divide") in warned


@pytest.mark.parametrize("path", PATHS)
def test_float_cubes_are_bit_identical_by_default(path):
    def gelu_like(x):
        return 0.5 * x * (1.0 + np.tanh(0.79788456 * (x + 0.044715 * x ** 3)))

    x = np.random.default_rng(1).standard_normal(5000).astype(np.float32)
    agree(gelu_like, x, options=PATHS[path])
    assert "_power" in source(gelu_like, x) or "_pow" in source(gelu_like, x)


@pytest.mark.parametrize("path", PATHS)
def test_fast_powers_option_is_close_and_warns_as_eager(path):
    def f(x):
        return x ** 3

    x = special(np.float32)
    want = observe(f, (x,))
    c = compiled(f, **PATHS[path], fast_powers=True)
    got = observe(c, (x,))
    assert got[1] == want[1] == [(RuntimeWarning, "overflow encountered in power")]
    np.testing.assert_allclose(got[0], want[0], rtol=4 * np.finfo(np.float32).eps,
                               equal_nan=True)
    y = np.random.default_rng(2).standard_normal(5000).astype(np.float32)
    assert "_multiply" in source(f, y, fast_powers=True)
    np.testing.assert_allclose(c(y), f(y), rtol=4 * np.finfo(np.float32).eps)


def test_literals_that_differ_in_bits_are_not_merged():
    nan_a = float(np.array(0x7FF8000000000001, np.uint64).view(np.float64))
    nan_b = float(np.array(0x7FF8000000000002, np.uint64).view(np.float64))

    def f(x):
        return x * 0.0 + 1, x * -0.0 + 1, x + nan_a, x + nan_b

    x = np.array([1.0, -2.0])
    want = f(x)
    got = compiled(f)(x)
    identical(got, want)
    assert [v.view(np.uint64)[0] for v in got[2:]] == [v.view(np.uint64)[0] for v in want[2:]]


def test_folded_reductions_use_the_callers_buffer_size():
    """A float16 sum accumulated in float32 is summed buffer by buffer, so it is not
    computed while compiling (under another buffer size than the call's)."""
    def f(x):
        v = (np.arange(5000) % 7).astype(np.float16) * np.float16(0.1)
        return x + v.sum(dtype=np.float32)

    x = np.zeros(3, np.float32)
    c = compiled(f)
    c(x)
    old = np.getbufsize()
    try:
        for size in (64, 8192):
            np.setbufsize(size)
            identical(c(x), f(x))
    finally:
        np.setbufsize(old)


# --------------------------------------------------------------------------- 11: reports

def log_and_sqrt(x):
    return np.log(x) * 2 + np.sqrt(x - 0.5)


def twice(x):                       # two equal ops: eager reports twice
    return np.log(x) + np.log(x)


def interleaved(x, y):              # ops of two groups, in program order
    a = np.log(x)
    b = np.sqrt(y)
    c = a / 0.0
    return c + b


def with_write(x, out):
    a = np.log(x) * 2
    out[:2] = 1.0
    b = np.sqrt(x - 0.5) + a
    return b, np.log(x) + 1


def with_inner_errstate(x):
    a = np.log(x)
    with np.errstate(divide="ignore"):
        b = 1 / x
    return a + b


REPORTING = [(log_and_sqrt, 1), (twice, 1), (interleaved, 2), (with_write, 1),
             (with_inner_errstate, 1)]


def _args(fn, nargs):
    x = np.linspace(0, 1, 3001)     # 0.0 (log: divide), values under 0.5 (sqrt: invalid)
    if fn is with_write:
        return (x, np.zeros(4))
    return (x,) * nargs


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("fn, nargs", REPORTING, ids=lambda v: getattr(v, "__name__", None))
@pytest.mark.parametrize("mode", ["warn", "call", "log", "raise", "ignore"])
def test_reports_once_per_op_per_call(fn, nargs, mode, path):
    result, warned, calls = agree(fn, *_args(fn, nargs), options=PATHS[path],
                                  errstate={"all": mode})
    if mode == "warn":
        assert (RuntimeWarning, "divide by zero encountered in log") in warned
    if mode in ("call", "log"):
        assert calls and not warned


def complex_to_real(z):           # ComplexWarning: not a floating-point condition
    return z.astype(np.float32) * 2 + np.log(z.real)


def too_few_degrees(x):            # "Degrees of freedom <= 0", then divide by zero
    return x.var(axis=-1, ddof=600) + np.log(x).sum(axis=-1)


def all_nan_rows(x):               # "All-NaN slice encountered"
    return np.nanmax(x, axis=-1) + np.log(x[:, 0])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("fn, x", [
    (complex_to_real, (np.arange(3000) * (1 - 1j)).astype(np.complex64)),
    (too_few_degrees, np.linspace(0, 1, 40 * 500).reshape(40, 500)),
    (all_nan_rows, np.where(np.arange(40 * 500).reshape(40, 500) % 1000 < 500, np.nan, 0.0)),
], ids=lambda v: getattr(v, "__name__", None))
def test_other_warnings_once_per_call(fn, x, path):
    """Warnings that are not floating-point conditions come once per call too, also
    when a floating-point condition in the same call makes fused code run again."""
    _, warned, _ = agree(fn, x, options=PATHS[path], calls=3)
    assert len(warned) >= 2 and len(set(warned)) == len(warned)


@pytest.mark.parametrize("path", PATHS)
def test_errcall_runs_once_per_op(path):
    x = np.linspace(0, 1, 100_001)
    _, _, calls = agree(log_and_sqrt, x, options=PATHS[path], errstate={"all": "call"})
    assert calls == [("divide by zero", 1), ("invalid value", 8)]


@pytest.mark.parametrize("path", PATHS)
def test_printed_reports_once_per_op(path, capfd):
    """``np.errstate(all="print")`` writes from C (to standard error), pool threads too."""
    x = np.linspace(0, 1, 100_001)
    c = compiled(log_and_sqrt, **PATHS[path])
    with np.errstate(all="ignore"):
        c(x)
    capfd.readouterr()
    with np.errstate(all="print"):
        want = log_and_sqrt(x)
        eager_out = capfd.readouterr().err
        got = c(x)
        compiled_out = capfd.readouterr().err
    identical(got, want)
    assert eager_out == ("Warning: divide by zero encountered in log\n"
                         "Warning: invalid value encountered in sqrt\n")
    assert compiled_out == eager_out


@pytest.mark.parametrize("path", PATHS)
def test_default_warnings_name_the_op(path):
    def f(x):
        return np.log(x) * 2

    _, warned, _ = agree(f, np.linspace(0, 1, 3001), options=PATHS[path], calls=3)
    assert warned == [(RuntimeWarning, "divide by zero encountered in log")]


@pytest.mark.parametrize("path", PATHS)
def test_quiet_calls_are_not_rerun(path):
    """Nothing to report: the fused code's result, no op-by-op rerun."""
    from dynamo.backends.numpy_backend import backend
    from observe import calls_to
    c = compiled(log_and_sqrt, **PATHS[path])
    x = np.linspace(1, 2, 3001)
    with calls_to(backend._Rerun.failed) as reruns:
        identical(c(x), log_and_sqrt(x))
        with np.errstate(all="call"):                  # still nothing to report
            identical(c(x), log_and_sqrt(x))
    assert reruns == []


def test_guard_raises_only_what_the_caller_sees():
    with np.errstate(divide="call", over="ignore", under="print", invalid="warn"):
        before = np.geterr()
        token = np_runtime.guard()
        try:
            assert np.geterr() == {"divide": "raise", "over": "ignore", "under": "raise",
                                   "invalid": "raise"}
        finally:
            np_runtime.unguard(token)
        assert np.geterr() == before


# --------------------------------------------------------------------------- 12: exceptions

def divide_in_try(x):
    try:
        with np.errstate(divide="raise"):
            y = 1 / x
    except FloatingPointError as e:
        return ("caught", str(e))
    return y


def log_in_try(x):
    try:
        y = np.log(x) * 2
    except FloatingPointError as e:
        return ("caught", str(e))
    return y + 1


def log_under_raise(x):
    with np.errstate(divide="raise"):
        return np.exp(x) + np.log(x)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("fn", [divide_in_try, log_in_try, log_under_raise],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("global_raise", [False, True])
def test_floating_point_exceptions_are_eagers(fn, path, backend, global_raise):
    x = np.linspace(0, 1, 3001)
    old = np.seterr(all="raise") if global_raise else None
    try:
        options = {**PATHS[path], "rerun_on_error": False}
        result, _, _ = agree(fn, x, options=options, backend=backend)
    finally:
        if old:
            np.seterr(**old)
    if fn is not log_in_try or global_raise:
        assert result[0] in ("caught", FloatingPointError)


def singular_after_a_write(a, out):   # a graph with effects: its stretches run again
    out[0] = 1.0
    return np.linalg.inv(a) * out[1] + out[2]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("fn, args, error", [
    (log_under_raise, (np.linspace(0, 1, 3001),), FloatingPointError),
    (singular_after_a_write, (np.zeros((2, 2)), np.ones(3)), np.linalg.LinAlgError),
], ids=["pure", "writes"])
def test_exceptions_are_not_chained_to_the_fused_code(fn, args, error, path):
    c = compiled(fn, **PATHS[path])
    agree(fn, *args, options=PATHS[path])
    for f in (fn, c):
        with pytest.raises(error) as info:
            f(*[a.copy() for a in args])
        assert info.value.__context__ is None and info.value.__cause__ is None


# --------------------------------------------------------------------------- 15: references

def _freed(make, fn, *extra) -> bool:
    """Call ``fn`` on a fresh array; is the array freed as soon as the call returned
    (by reference counts alone: no ``gc.collect``)?"""
    x = make()
    ref = weakref.ref(x)
    try:
        result = fn(x, *extra)
    except Exception:  # noqa: BLE001
        result = None
    del x, result
    return ref() is None


@pytest.mark.filterwarnings("ignore::RuntimeWarning")   # (the calls rerun: they warn)
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("fn", [log_and_sqrt, with_write, log_under_raise,
                                lambda x: np.exp(x - x.max(-1, keepdims=True)).sum()],
                         ids=["pure", "writes", "raises", "reduction"])
def test_no_argument_is_kept_alive(fn, threads):
    c = compiled(fn, **{**BLOCKED, "threads": threads})
    extra = (np.zeros(4),) if fn is with_write else ()
    make = lambda: np.linspace(0, 1, 200_000).reshape(400, 500)  # noqa: E731
    _freed(make, c, *extra)
    gc.collect()   # (the first call traces: the frontend's cycles wait for gc)
    for _ in range(3):
        assert _freed(make, c, *extra)
    assert any(t.name.startswith("dynamo-numpy") for t in threading.enumerate()) or \
        threads == 1
