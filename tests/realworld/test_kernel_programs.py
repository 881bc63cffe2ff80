"""The scientific-kernel corpus (``kernel_programs.py``): every kernel gives eager's
results on the eager and numpy backends, and breaks no more often than recorded here
(docs/realworld.md, "Scientific kernels").

The breaks that remain are ones the data decides: a loop to a tolerance (``while err >
tol``, ``if converged: break``), an accept/reject ``if`` of Metropolis, the pivot test
of LU and a scalar draw ``np.random.random()`` (a Python float); two ``np.bincount``
lengths of ``r.ravel()`` taken twice (two view nodes of one array) are one length now.
The corpus found ``np.fft``, the window functions, ``np.vander``, ``np.polyder`` and
``np.linalg.lstsq`` breaking (registered now), and ``np.bincount(x, w) /
np.bincount(x)`` (one length now); the tests after the corpus check those ops' edges,
and the legacy ``np.random`` stream's order (tests at the end).
"""

from __future__ import annotations

import contextlib
import copy
import io
import threading
import warnings

import numpy as np
import pytest
from harness import check, same
from kernel_programs import PROGRAMS

import dynamo

BACKENDS = ("eager", "numpy")
EXPECTED_BREAKS = {
    "cfl_adaptive_advection": 1, "random_walk_2d": 1,
    "ising_single_spin": 1, "metropolis_gaussian": 1, "lu_partial_pivoting": 1,
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_kernel_program(name, fn, args, backend):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check(fn, *args, breaks=breaks, backend=backend, **({"graphs": 1} if not breaks else {}))


def test_corpus_is_broad():
    assert len(PROGRAMS) >= 55
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)
    clean = sum(name not in EXPECTED_BREAKS for name, _, _ in PROGRAMS)
    assert clean >= 0.85 * len(PROGRAMS)


def test_remaining_breaks_say_why():
    """Each remaining break carries advice that fits it: a loop too long to unroll to
    vectorize (the random walk's draw, ``2 * np.pi * np.random.random()``, is an
    unbacked float now: tests/variables/test_drawn_numbers.py), a loop's exit test
    (tests/translator/test_loop_exits.py)."""
    by_name = {name: (fn, args) for name, fn, args in PROGRAMS}
    fn, args = by_name["random_walk_2d"]
    report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    (brk,) = report.break_reasons
    assert "would unroll" in brk.reason and "vectorize" in brk.hint
    fn, args = by_name["metropolis_gaussian"]
    report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    (brk,) = report.break_reasons
    assert "exit test" not in brk.reason and "np.where" in brk.hint


# ---------------------------------------------------------------- np.fft and windows


def fft_forms(x):
    return (np.fft.fft(x), np.fft.ifft(x, n=7), np.fft.rfft(x, axis=0),
            np.fft.irfft(x, n=9), np.fft.hfft(x), np.fft.ihfft(x, norm="ortho"),
            np.fft.fft2(x), np.fft.ifft2(x, s=(3, 4), axes=(0, 1)), np.fft.rfftn(x),
            np.fft.irfftn(x), np.fft.rfft2(x, s=(5, 5), axes=(-2, -1)), np.fft.irfft2(x),
            np.fft.fftshift(x), np.fft.ifftshift(x, axes=0),
            np.fft.fftfreq(x.shape[1], 0.1), np.fft.rfftfreq(x.shape[0]))


def windows(x):
    n = x.shape[0]
    return (np.hanning(n) * x, np.hamming(n), np.blackman(n), np.bartlett(5),
            np.kaiser(n, 2.0) * x, np.hanning(1), np.hamming(0))


X = np.random.default_rng(0).normal(size=(6, 10))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128])
def test_fft_forms(dtype, backend):
    x = X.astype(dtype) if dtype is not np.complex128 else X + 1j * X[::-1]
    rfft_of_complex = dtype is np.complex128     # TypeError: runs eagerly to raise it
    check(fft_forms, x, backend=backend, breaks=1 if rfft_of_complex else 0)
    check(fft_forms, x[:, :1], backend=backend)   # irfft of 1 point: ValueError
    check(windows, X[0], backend=backend, breaks=0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [
    lambda x: np.fft.fft(x, n=0), lambda x: np.fft.fft(x, axis=2),
    lambda x: np.fft.fft(x, norm="bad"), lambda x: np.fft.fftn(x, s=(4, 4)),
    lambda x: np.fft.fft2(x[0]), lambda x: np.fft.rfft(x + 1j),
    lambda x: np.fft.fftshift(x, axes=3), lambda x: np.fft.fft(x, out=np.empty(10, complex)),
], ids=["n0", "axis", "norm", "s_without_axes", "fft2_1d", "rfft_complex", "shift_axes",
        "out"])
def test_fft_errors_and_warnings_are_numpys(fn, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("error")     # fftn's deprecation of s without axes
        check(fn, X, backend=backend)


# ---------------------------------------------------------------- lstsq, polyder, vander


def lstsq_all(a, y):
    coef, res, rank, sv = np.linalg.lstsq(a, y, rcond=None)
    return coef, res, rank, sv, a @ coef


def lstsq_residual_size(a, y):
    res = np.linalg.lstsq(a, y, rcond=None)[1]
    return res.sum() if res.size else 0.0     # a choice the glue makes: no break


@pytest.mark.parametrize("backend", BACKENDS)
def test_lstsq(backend):
    A = X[:, :3].copy()
    y = A @ np.arange(3.0)
    for a, b in [(A, y), (A, np.stack([y, -y], 1)), (np.ones((6, 3)), y), (A[:2], y[:2]),
                 (A.astype(np.float32), y.astype(np.float32))]:
        check(lstsq_all, a, b, backend=backend, breaks=0)
    check(lstsq_residual_size, A, y, backend=backend, breaks=0)   # (1 before: the size)
    check(lstsq_residual_size, np.ones((6, 3)), y, backend=backend)   # rank 1: no residuals
    check(lstsq_all, A, y[:3], backend=backend)                       # LinAlgError
    check(lstsq_all, A[None], y, backend=backend)


def poly_forms(p, x):
    return (np.polyder(p), np.polyder(p, 2), np.polyder(p, 7), np.vander(x),
            np.vander(x, 3, increasing=True), np.vander(x.astype(int), 2))


@pytest.mark.parametrize("backend", BACKENDS)
def test_polyder_vander(backend):
    check(poly_forms, np.array([1.0, 2, 3, 4]), np.linspace(0, 1, 5), backend=backend,
          breaks=0)
    check(poly_forms, np.array([1, 2, 3]), np.linspace(0, 1, 4, dtype=np.float32),
          backend=backend, breaks=0)
    check(lambda p: np.polyder(p, -1), np.ones(3), backend=backend)
    check(lambda p: np.polyder(p, 0), np.ones(3), backend=backend)   # p itself: a break
    check(lambda x: np.vander(x.reshape(2, 2)), np.ones(4), backend=backend)
    check(lambda x: np.vander(x, -1), np.ones(4), backend=backend)


# ---------------------------------------------------------------- bincount lengths


def bincount_ratio(r, w):
    return np.bincount(r, w) / np.maximum(np.bincount(r), 1)


def bincount_minlength(r, w):
    sums = np.bincount(r, weights=w, minlength=5)
    return sums / np.maximum(np.bincount(r, minlength=5), 1)


def bincount_other_minlength(r):
    return np.bincount(r, minlength=7) + np.bincount(r, minlength=3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bincounts_of_one_array_have_one_length(backend):
    r, w = np.array([0, 3, 2, 2, 1]), np.arange(5.0)
    check(bincount_ratio, r, w, backend=backend, graphs=1, breaks=0)
    check(bincount_minlength, r, w, backend=backend, graphs=1, breaks=0)
    check(bincount_minlength, np.array([0, 9, 2]), w[:3], backend=backend)
    # lengths that may differ: checked equal when the graph runs (dynamo/equal_sizes.py)
    check(bincount_other_minlength, r, backend=backend, breaks=0)
    check(bincount_other_minlength, np.array([1, 8]), backend=backend)


# ---------------------------------------------------------------- the legacy np.random stream


def draws_in_a_loop(x, n):
    for _ in range(n):
        x = x * 0.9 + np.random.normal(0.0, 1.0, size=x.shape)
    return x


def seeded_inside(x, seed):
    np.random.seed(seed)
    a = np.random.rand(3)
    b = np.random.randint(0, 10, size=4)
    np.random.shuffle(x)
    return a, b, x, np.random.permutation(5), np.random.choice(5, size=3), \
        np.random.uniform(-1, 1, size=2), np.random.randn(2, 2)


def draws_around_a_break(x):
    a = np.random.randn(3)
    print("between")
    b = np.random.randn(3)
    return a, b, x * a.sum()


def _callee_draw(n):
    return np.random.uniform(size=n)


def draws_in_a_callee(x):
    a = _callee_draw(3)
    return x + a, np.random.random(size=2)


def unused_and_repeated_draws(x):
    np.random.rand(5)             # unused: it still takes its numbers from the stream
    y = np.random.rand(5)
    z = np.random.rand(5)         # the same call again: other numbers, never merged
    return x + y + z


def reseed_in_a_loop(x):
    for i in range(12):
        np.random.seed(i)
        x = x + np.random.random(x.shape)
    return x


def _stream_after(fn, args, calls):
    """(result, the next draw of the global stream) of each call, from one seed."""
    out = []
    for _ in range(calls):
        np.random.seed(123)
        result = fn(*copy.deepcopy(args))
        out.append((result, np.random.random(2)))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", [
    (draws_in_a_loop, (np.zeros(4), 20)), (seeded_inside, (np.arange(6.0), 3)),
    (draws_around_a_break, (np.ones(3),)), (draws_in_a_callee, (np.ones(3),)),
    (unused_and_repeated_draws, (np.ones(5),)), (reseed_in_a_loop, (np.zeros(3),)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_global_stream_is_eagers(fn, args, backend):
    """The same seed gives the same numbers compiled and plain, over several calls
    (trace, then cache hits), and leaves the global stream where eager leaves it."""
    expected = _stream_after(fn, args, 1)[0]
    compiled = dynamo.compile(fn, backend=backend)
    with contextlib.redirect_stdout(io.StringIO()):
        for got in _stream_after(compiled, args, 3):
            same(expected, got)
    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))
    assert report.graph_break_count == (fn is draws_around_a_break)


def walk(rng, x, n):
    for _ in range(n):
        x = x * 0.5 + rng.normal(size=x.shape)
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_generators_in_two_threads(backend):
    """Two threads, each with its own Generator, draw their own streams through one
    compiled function (a loop node in the graph)."""
    compiled = dynamo.compile(walk, backend=backend)
    results = {}

    def run(seed):
        results[seed] = [compiled(np.random.default_rng(seed), np.zeros(4), 30)
                         for _ in range(5)]

    threads = [threading.Thread(target=run, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for seed in (1, 2):
        expected = walk(np.random.default_rng(seed), np.zeros(4), 30)
        for got in results[seed]:
            np.testing.assert_array_equal(got, expected, strict=True)


NATIVE_NOW = {"after_calls": 1, "background": False, "prefer": "native"}


@pytest.mark.parametrize("fn,args", [
    (draws_in_a_loop, (np.zeros(4), 20)), (unused_and_repeated_draws, (np.ones(5),)),
    (reseed_in_a_loop, (np.zeros(3),)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_global_stream_on_the_native_tier(fn, args, tmp_path):
    """The native tier (docs/native.md) after its first call: random draws stay calls
    of NumPy in program order, so the stream is eager's on every call."""
    expected = _stream_after(fn, args, 1)[0]
    compiled = dynamo.compile(fn, backend="native",
                              options={**NATIVE_NOW, "cache_dir": str(tmp_path)})
    for got in _stream_after(compiled, args, 3):
        same(expected, got)


def made_here(x, seed):
    rng = np.random.default_rng(seed)
    for _ in range(15):
        x = x * 0.5 + rng.normal(size=x.shape)
    return x, rng.random(2)


def kept_generator(x, seed):
    rng = np.random.default_rng(seed)
    y = x + rng.random(x.shape)
    return y, rng                      # the very Generator the graph drew from


def generator_live_at_a_break(x):
    rng = np.random.default_rng(5)
    a = rng.random(3)
    print("between")
    return a, rng.random(3), x


def generator_per_trip(x):
    for i in range(12):
        rng = np.random.default_rng(i)
        x = x + rng.random(x.shape)
    return x, rng


def generator_and_global_stream(x):
    np.random.seed(0)
    rng = np.random.default_rng(0)
    same_seed = np.random.default_rng(0)
    return np.random.rand(2), rng.random(2), np.random.rand(2), same_seed.random(3) + x


class Layer:
    """A layer that draws its weights from a RandomState of its own (a common idiom)."""

    def __init__(self, n_in, n_out, seed=0):
        rs = np.random.RandomState(seed)
        self.W = rs.randn(n_in, n_out) * np.sqrt(2 / n_in)
        self.b = rs.uniform(-0.1, 0.1, size=n_out)


def two_layers(x, seed):
    first, second = Layer(3, 4, seed), Layer(4, 2, seed + 1)
    rs = np.random.RandomState(seed)
    noise = rs.normal(size=x.shape)
    h = np.maximum((x + noise) @ first.W + first.b, 0)
    return h @ second.W + second.b, rs


def generator_from_a_seed_sequence(x):
    return np.random.default_rng(np.random.SeedSequence(3)).random(3) + x


@pytest.mark.parametrize("backend", BACKENDS)
def test_generator_made_in_the_function(backend):
    """``np.random.default_rng(seed)`` in the function is an op: the graph makes the
    Generator, its draws follow in order, and the program gets the same object back."""
    x = np.zeros(3)
    check(made_here, x, 4, backend=backend, graphs=1, breaks=0)
    check(kept_generator, x, 4, backend=backend, graphs=1, breaks=0)
    check(generator_live_at_a_break, x, backend=backend, breaks=1)
    check(generator_per_trip, x, backend=backend, breaks=0)
    check(generator_and_global_stream, x, backend=backend, graphs=1, breaks=0)
    check(generator_from_a_seed_sequence, x, backend=backend, breaks=2)
    check(two_layers, np.ones((5, 3)), 3, backend=backend, graphs=1, breaks=0)
    compiled = dynamo.compile(made_here, backend=backend)
    for seed in (1, 2, 3, 4, 1):          # the seed an int argument: one entry
        same(made_here(x, seed), compiled(x, seed))
