"""Static facts computed by calls (issue #19): everyday NumPy code asks for facts the
trace knows (``np.finfo(x.dtype).eps``, ``np.shape(x)``, ``np.mgrid[0:3, 0:4]``...).
Each program here runs plainly and compiled, on both backends, with one graph and no
break, and the same results; where a value depends on data, the break stays, with a
reason and a hint."""

from __future__ import annotations

import contextlib
import functools
import io

import numpy as np
import pytest
from harness import check, rand

import dynamo

BACKENDS = ["eager", "numpy"]


def one_graph(fn, *args, backend, **kw):
    """``fn`` compiled equals ``fn`` plain, in one graph with no break."""
    return check(fn, *args, graphs=1, breaks=0, backend=backend, **kw)


def no_break(fn, *args, backend):
    """Equal results and no break (a program with no array op has no graph)."""
    return check(fn, *args, breaks=0, backend=backend)


def break_reasons(fn, *args, backend="eager") -> list[str]:
    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(fn, backend=backend)(*args)
    return [str(b.reason) for b in report.break_reasons]


# ------------------------------------------------------------------ finfo, iinfo, dtype
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_finfo_fields(backend, dtype):
    def f(x):
        fi = np.finfo(x.dtype)
        return x + fi.eps, x * fi.tiny, fi.max, fi.min, fi.resolution, fi.bits, fi.dtype

    one_graph(f, rand(3, 4, dtype=dtype), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_finfo_eps_inline_and_of_a_type(backend):
    def f(x):
        return np.maximum(x, np.finfo(x.dtype).eps) + np.finfo(float).eps

    one_graph(f, rand(5), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_iinfo_fields(backend):
    def f(x):
        ii = np.iinfo(x.dtype)
        big = np.iinfo(np.int64)
        return np.clip(x, ii.min + 1, ii.max - 1), ii.bits, big.max, ii.dtype

    one_graph(f, rand(4, dtype=np.int16), backend=backend)


def _own_info(cls, dtype):
    """An info object of ``dtype`` that is not NumPy's cached one (written here)."""
    o = object.__new__(cls)
    o.__dict__.update(vars(cls(dtype)))
    return o


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cls,dtype", [(np.finfo, np.float64), (np.iinfo, np.int32)])
def test_an_info_attribute_set_after_compiling_is_seen(backend, cls, dtype):
    """``hasattr``/``getattr(.., default)`` of a name an info object lacks: its absence
    is guarded, so setting it later is seen (it read False before: round 24's
    info_setattr_getattr passed only through a guard on a dict of the object's keys)."""
    def f(x, info):
        return x + 1, hasattr(info, "made"), getattr(info, "scale", 2.0)

    mine, theirs = _own_info(cls, dtype), _own_info(cls, dtype)
    g = dynamo.compile(f, backend=backend)
    for step in range(3):
        got, want = g(np.ones(3), mine), f(np.ones(3), theirs)
        assert got[1:] == want[1:], step
        np.testing.assert_array_equal(got[0], want[0])
        setattr(mine, ("made", "scale", "other")[step], 0.5)
        setattr(theirs, ("made", "scale", "other")[step], 0.5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_dtype_calls_and_attributes(backend):
    def f(x):
        d = np.dtype("float32")
        same = np.dtype(x.dtype)
        return x.astype(d), d.itemsize, d.kind, d.name, same.char, np.dtype(np.int8).itemsize

    one_graph(f, rand(3, dtype=np.float64), backend=backend)


# ------------------------------------------------------------------ shape, ndim, size
@pytest.mark.parametrize("backend", BACKENDS)
def test_shape_ndim_size(backend):
    def f(x):
        n, m = np.shape(x)
        return (x.reshape(m, n) * np.ndim(x), np.size(x), np.size(x, 1), np.size(x, axis=0),
                np.size(x, axis=(0, 1)), np.shape(x[0]))

    one_graph(f, rand(3, 4), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_shape_of_a_numpy_scalar(backend):
    def f(x):
        s = x.sum()
        return s * 2, np.shape(s), np.ndim(s), np.size(s)

    one_graph(f, rand(3), backend=backend)


# ------------------------------------------------------------------ np.ndarray, grids
@pytest.mark.parametrize("backend", BACKENDS)
def test_ndarray_constructor_written_first(backend):
    def f(x):
        a = np.ndarray(x.shape, x.dtype)
        a[...] = x
        b = np.ndarray((2, 3), order="F")
        b[:] = 1.0
        return a + 1, b, b.dtype

    one_graph(f, rand(3, 4), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mgrid(backend):
    def f(x):
        g = np.mgrid[0:3, 0:4]
        h = np.mgrid[-1:1:5j]
        k = np.mgrid[0:2, 0.0:1.0:0.5]
        return x + g[0] * g[1], h, k

    one_graph(f, rand(3, 4), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ogrid(backend):
    def f(x):
        a, b = np.ogrid[0:3, 0:4]
        c = np.ogrid[0:1:3j]
        return x + a * b, c

    one_graph(f, rand(3, 4), backend=backend)


# ------------------------------------------------------------------ reductions of lists
@pytest.mark.parametrize("backend", BACKENDS)
def test_sum_of_a_list_of_arrays(backend):
    def f(x, y):
        return np.sum([x, y], axis=0), np.mean([x, y, x]), np.max((x, y), axis=0)

    one_graph(f, rand(3, 4), rand(3, 4, seed=1), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_max_of_a_list_of_constants(backend):
    def f(x):
        return x * np.max([1.0, 2.0]) + np.sum([1, 2, 3]), np.min([3, 1.5])

    one_graph(f, rand(3), backend=backend)


# ------------------------------------------------------------------ max/min of scalars
@pytest.mark.parametrize("backend", BACKENDS)
def test_max_min_of_numpy_scalars(backend):
    def f(x, y):
        a, b = x.sum(), y.sum()
        return max(a, b), min(a, b), max(a, b, x.mean()), min(a, a)

    one_graph(f, rand(3, 4), rand(3, 4, seed=1), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_max_of_numpy_scalars_nan_and_ties(backend):
    def f(x):
        s = x.sum()            # nan
        z = x[:0].sum()        # 0.0
        nz = -z                # -0.0
        return max(s, z), max(z, s), min(s, z), max(z, nz), max(nz, z), min(z, nz)

    one_graph(f, np.array([np.nan, 1.0]), backend=backend)


def test_max_of_python_constants_folds():
    def f(x):
        return x + max(2.0, 3), min(1, 2.5)

    one_graph(f, rand(3), backend="eager")


@pytest.mark.parametrize("program, reason", [
    # returned, or an operand beside an array, it needs no break (iteration.py
    # ChosenNumberVariable); a comparison needs the choice while tracing
    (lambda x: max(x.sum(), 0.0) > 0.5, "different types"),
    (lambda x: -max(x.sum(), 0.0), "different types"),
    (lambda x: max(x.sum(), x.astype(np.float64).sum()), "different dtypes"),
    (lambda x: max(x[0:1].reshape(()), x[1:2].reshape(())), "not a NumPy scalar"),
    (lambda x: max(x.sum(), x.mean(), key=abs), "key="),
])
def test_max_that_is_not_a_select_breaks_with_a_reason(program, reason):
    reasons = break_reasons(program, rand(3))
    assert any("max() of arrays compares array data" in r and reason in r
               for r in reasons), reasons
    check(program, rand(3))


# ------------------------------------------------------------------ constant arrays
@pytest.mark.parametrize("backend", BACKENDS)
def test_any_of_an_array_of_python_ints(backend):
    def f(x, i1, i2):
        if any(np.array([i1, i2]) < 0):
            raise ValueError("negative")
        return x + 1 if np.all(np.array([i1, i2]) > 0) else x - 1

    one_graph(f, rand(3), 2, 3, backend=backend)
    one_graph(f, rand(3), 0, 3, backend=backend)


def test_an_array_of_data_still_breaks_with_a_hint():
    def f(x):
        return x if any(x < 0) else x + 1

    reasons = break_reasons(f, rand(3))
    assert reasons and all("truth value of an array" in r for r in reasons), reasons
    check(f, rand(3))


def test_a_written_array_is_not_folded():
    def f(x, i):
        a = np.array([i, i])
        b = a[0:1]
        a[0] = -5              # b sees it: a view of a
        return x if b[0] < 0 else x + 1

    # (the `if` on b's data is a break without branch selects: not a folded constant)
    dynamo.config.branch_selects = False
    try:
        reasons = break_reasons(f, rand(3), 2)
    finally:
        dynamo.config.branch_selects = True
    assert any("truth value of an array" in r for r in reasons), reasons
    check(f, rand(3), 2)


# ------------------------------------------------------------------ always-true objects
def act(x):
    return x * 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_truth_of_a_function(backend):
    def f(x, fn):
        y = fn(x) if fn else x
        p = functools.partial(fn)
        y = p(y) if p else y
        return y + 1 if np.exp and map else y

    one_graph(f, rand(3), act, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_truth_of_a_lambda_and_a_method(backend):
    class Model:
        def act(self, x):
            return x - 1

    m = Model()

    def f(x):
        g = lambda v: v * 3  # noqa: E731
        return g(x) if g else x, m.act(x) if m.act else x

    one_graph(f, rand(3), backend=backend)


def test_truth_of_a_user_object_still_breaks():
    class Box:
        pass

    def f(x, b):
        return x + 1 if b else x

    reasons = break_reasons(f, rand(3), Box())
    assert any("truth value of" in r for r in reasons), reasons


# ------------------------------------------------------------------ strings
@pytest.mark.parametrize("backend", BACKENDS)
def test_str_and_formatting_of_static_values(backend):
    def f(x):
        eps = np.finfo(x.dtype).eps
        old_style = "%s %d %r" % (x.dtype, x.ndim, x.shape)  # noqa: UP031 (what is tested)
        return (x * 2, str(x.dtype), str(x.shape), f"{x.shape} {x.dtype} {x.ndim}", old_style,
                f"{eps:.3g}", "{}x{}".format(*x.shape), repr(x.dtype), str(np.iinfo(np.int8).max))

    one_graph(f, rand(3, 4), backend=backend)


# ------------------------------------------------------------------ map, zip, enumerate
@pytest.mark.parametrize("backend", BACKENDS)
def test_map_zip_enumerate(backend):
    def f(x, y):
        out = 0
        for i, (a, b) in enumerate(zip(map(np.exp, [x, y]), (1.0, 2.0)), start=1):
            out = out + a * b + i
        names = dict(zip(["x", "y"], map(lambda t: t.sum(), (x, y))))
        return out, names, list(map(np.add, [x, y], [y, x])), sum(map(len, [x, y]))

    one_graph(f, rand(3), rand(3, seed=1), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_enumerate_rows_and_zip_of_arrays(backend):
    def f(x, y):
        total = x[0] * 0
        for i, (r, s) in enumerate(zip(x, y)):
            total = total + r * s * i
        return total

    one_graph(f, rand(3, 4), rand(3, 4, seed=1), backend=backend)


def test_folded_array_truth_is_guarded_by_the_ints():
    def f(x, i1, i2):
        if any(np.array([i1, i2]) < 0):
            raise ValueError("negative")
        return x + 1

    compiled = dynamo.compile(f, backend="eager")
    np.testing.assert_array_equal(compiled(np.ones(2), 2, 3), np.full(2, 2.0))
    with pytest.raises(ValueError, match="negative"):
        compiled(np.ones(2), -1, 3)


def test_formatting_array_data_breaks_with_a_hint():
    def f(x):   # (a text only returned is made by the glue: test_formatted_builtins.py)
        return len(f"{x.sum()}"), len(str(x.max()))

    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(f, backend="eager")(rand(3))
    hints = [(str(b.reason), b.hint) for b in report.break_reasons]
    assert hints and all("format the result after the compiled call" in h for _, h in hints), \
        hints
    check(f, rand(3))


@pytest.mark.parametrize("program, reason", [
    (lambda x: x.sum() + np.ogrid[0:2_000_000][-1], "too big to probe"),
    (lambda x: np.ndarray((2,), buffer=x), "views existing memory"),
])
def test_grids_and_ndarray_that_are_not_ops_break_with_a_reason(program, reason):
    reasons = break_reasons(program, rand(4))
    assert any(reason in r for r in reasons), reasons
