"""np.linalg's LAPACK functions (solve, inv, pinv, det, slogdet, cholesky, qr, eigh,
eigvalsh, svd, matrix_power, matrix_rank): the rules agree with NumPy on stacks of matrices of every
shape (incl. 0-size batches and 0x0 matrices, non-square and 1-d errors) and dtype
(ints, bool and float16 included); named-tuple results keep their type and fields in
compiled code; a call that raises from the data inside `try` is a graph break, so the
except clause sees the error."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays

import dynamo

L = np.linalg


@st.composite
def stacks(draw, square=True):
    """Stacks of matrices: batch dims 0-2 (sizes 0-2), matrices 0-3, mostly square."""
    batch = tuple(draw(st.lists(st.integers(0, 2), max_size=2)))
    m = draw(st.integers(0, 3))
    n = m if square and draw(st.integers(0, 5)) else draw(st.integers(0, 3))
    nd = draw(st.sampled_from([2, 2, 2, 1, 0]))
    shape = (batch + (m, n))[-nd:] if nd else ()
    a = draw(arrays(DTYPES, shape=st.just(shape)))
    if a.ndim >= 2 and a.shape[-1] == a.shape[-2]:
        # values are -3..3: +10 on the diagonal makes every matrix strictly diagonally
        # dominant, so invertible and (symmetrized, as cholesky reads it) positive
        # definite: LinAlgError from values would fail a shape test for no reason
        eye = np.eye(a.shape[-1], dtype=bool)
        a = np.where(eye, True, False).astype(a.dtype) if a.dtype == bool else \
            np.where(eye, a.real + 10, a).astype(a.dtype)
    return a


@given(a=stacks())
@settings(max_examples=120, deadline=None)
def test_square_functions(a):
    for fn in (L.inv, L.det, L.slogdet, L.eigvalsh, L.eigh):
        agree(fn, a)
    agree(L.cholesky, a, upper=True)
    agree(L.eigh, a, UPLO="U")
    agree(L.matrix_power, a, 2)
    agree(L.matrix_power, a, 0)
    agree(L.matrix_power, a, -1)


@given(a=stacks(square=False), full=st.booleans(), uv=st.booleans(),
       mode=st.sampled_from(["reduced", "complete", "r", "raw"]))
@settings(max_examples=120, deadline=None)
def test_rectangular_functions(a, full, uv, mode):
    agree(L.pinv, a)
    agree(L.pinv, a, hermitian=True)
    agree(L.pinv, a, rtol=None)
    agree(L.svd, a, full_matrices=full, compute_uv=uv)
    agree(L.svd, a, compute_uv=uv, hermitian=True)
    agree(L.qr, a, mode=mode)


@given(a=stacks(square=False), tol=st.sampled_from([None, 0.5]))
@settings(max_examples=80, deadline=None)
def test_matrix_rank(a, tol):
    """One count per matrix (a NumPy int for one); of a vector or a number NumPy
    returns a Python int: the rule refuses (a break)."""
    agree(L.matrix_rank, a, may_break=a.ndim < 2)
    agree(L.matrix_rank, a, tol=tol, may_break=a.ndim < 2)
    if a.ndim >= 2 and a.shape[-1] == a.shape[-2]:
        agree(L.matrix_rank, a, hermitian=True)


@given(a=stacks(), data=st.data())
@settings(max_examples=120, deadline=None)
def test_solve(a, data):
    m = a.shape[-1] if a.ndim else 0
    kind = data.draw(st.sampled_from(["vector", "stack", "random"]))
    if kind == "vector":
        shape = (m,)
    elif kind == "stack":
        batch = tuple(data.draw(st.sampled_from([d, 1])) for d in a.shape[:-2])
        shape = batch + (m, data.draw(st.integers(0, 2)))
    else:
        shape = tuple(data.draw(st.lists(st.integers(0, 3), max_size=3)))
    b = data.draw(arrays(DTYPES, shape=st.just(shape)))
    agree(L.solve, a, b)
    agree(L.solve, a, b.tolist())


def test_float16_and_unknown_modes():
    h = np.eye(2, dtype=np.float16)
    assert agree(L.inv, h) == "raised"
    assert agree(L.qr, np.eye(2), mode="economic", may_break=True) == "break"


# --------------------------------------------------------------------------- compiled

A = rand(4, 4, dtype=np.float64) + 4 * np.eye(4)
B = rand(4, 3, dtype=np.float64, seed=1)
BATCH = rand(2, 3, 3, seed=2) + 3 * np.eye(3, dtype=np.float32)


def decompositions(a, b):
    res = np.linalg.eigh(a + a.T)
    q, r = np.linalg.qr(a)
    s = np.linalg.slogdet(a)
    u, sv, vh = np.linalg.svd(b, full_matrices=False)
    return (np.linalg.solve(a, b), np.linalg.inv(a) @ b, res, res.eigenvalues.sum(),
            res[1][:, 0], q @ r, s, s.logabsdet * 2, s[:1], np.linalg.det(a),
            np.linalg.pinv(b), (u * sv) @ vh, np.linalg.cholesky(a @ a.T),
            np.linalg.matrix_power(a, 3), np.linalg.eigvalsh(a + a.T))


def batched(x):
    return np.linalg.solve(x, np.ones(3, np.float32)), np.linalg.det(x), np.linalg.inv(x)


def ridge(X, y, alphas=(0.1, 1.0)):
    gram = X.T @ X
    return {a: np.linalg.solve(gram + a * np.eye(X.shape[1]), X.T @ y) for a in alphas}


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn,args", [(decompositions, (A, B)), (batched, (BATCH,)),
                                     (ridge, (B, rand(4, seed=3, dtype=np.float64)))],
                         ids=["decompositions", "batched", "ridge"])
def test_compiled_equals_eager(fn, args, backend):
    check(fn, *args, graphs=1, breaks=0, backend=backend, rtol=1e-12, atol=1e-12)


def test_named_tuples_keep_their_type():
    out = dynamo.compile(lambda a: (np.linalg.eigh(a), np.linalg.qr(a, mode="raw")),
                         backend="eager")(A)
    assert type(out[0]).__name__ == "EighResult" and type(out[1]) is tuple


def test_singular_matrix_raises_when_the_graph_runs():
    def f(a):
        return np.linalg.inv(a) * 2

    check(f, np.ones((3, 3)), graphs=1, breaks=0)   # LinAlgError, as eagerly


def test_inside_try_the_except_sees_the_error_through_a_rerun():
    """``np.linalg.inv`` of a singular matrix inside ``try``: the graph raises, the frame's
    original code runs instead, and its except clause sees the error (issue #19: it was
    a graph break, the try block run eagerly)."""
    def f(a, b):
        try:
            x = np.linalg.inv(a) @ b
            method = "inv"
        except np.linalg.LinAlgError:
            x = np.linalg.pinv(a) @ b
            method = "pinv"
        return x, method

    check(f, np.ones((3, 3)), np.arange(3.0), graphs=1, breaks=0)
    check(f, A, B, graphs=1, breaks=0)


@pytest.mark.parametrize("fn", [np.linalg.eig, np.linalg.eigvals],
                         ids=lambda f: f.__name__)
def test_data_dependent_functions_break_and_say_why(fn):
    def f(a, b):
        return fn(a)

    check(f, A, B[:, 0])
    report = dynamo.explain(f, backend="eager")(A, B[:, 0])
    assert report.graph_break_count == 1
    assert f"np.linalg.{fn.__name__}()" in report.break_reasons[0].reason
