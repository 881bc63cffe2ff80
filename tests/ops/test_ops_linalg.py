"""Linear algebra: matmul (1-d promotion, batch broadcasting, out=), dot, vdot, inner,
outer, tensordot, einsum, trace, diag, diagonal agree with NumPy; compiled programs
equal eager ones."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays

NUM = [d for d in DTYPES if d.kind != "b"]


@st.composite
def matmul_operands(draw):
    """Mostly compatible operands (shared core size, broadcastable batches)."""
    k = draw(st.integers(0, 3))
    batch = draw(st.lists(st.integers(0, 3), max_size=2))
    a_nd = draw(st.integers(1, 2 + len(batch)))
    b_nd = draw(st.integers(1, 2 + len(batch)))
    a_shape = ((tuple(batch) + (draw(st.integers(0, 3)),))[-(a_nd - 1):] if a_nd > 1 else ()) + (k,)
    b_core = (k,) if b_nd == 1 else (k, draw(st.integers(0, 3)))
    b_batch = tuple(draw(st.sampled_from([d, 1])) for d in batch)[-(b_nd - 2):] if b_nd > 2 else ()
    if draw(st.integers(0, 9)) == 0:
        b_core = (k + 1,) + b_core[1:]  # mismatch: both raise
    a = draw(arrays(NUM, shape=st.just(a_shape)))
    b = draw(arrays(NUM, shape=st.just(b_batch + b_core)))
    return a, b


@given(ab=matmul_operands())
@settings(max_examples=150, deadline=None)
def test_matmul_dot_inner(ab):
    a, b = ab
    agree(np.matmul, a, b)
    agree(np.dot, a, b)
    agree("method:dot", a, b)
    agree(np.inner, a, b.swapaxes(-1, -2) if b.ndim > 1 else b)


@given(a=arrays(NUM, max_dims=3, max_side=3), b=arrays(NUM, max_dims=3, max_side=3))
@settings(max_examples=100, deadline=None)
def test_products_of_any_shapes(a, b):
    """Random shapes: mostly errors, which both sides must raise."""
    agree(np.matmul, a, b)
    agree(np.dot, a, b)
    agree(np.inner, a, b)
    agree(np.outer, a, b)
    agree(np.vdot, a, b)
    agree(np.vdot, a, a)
    agree(np.dot, a, 2.5)


@given(ab=matmul_operands(), out_dtype=st.sampled_from(DTYPES))
@settings(max_examples=60, deadline=None)
def test_matmul_out_and_dtype(ab, out_dtype):
    a, b = ab
    try:
        shape = np.matmul(a, b).shape
    except ValueError:
        return
    agree(np.matmul, a, b, out=np.zeros(shape, out_dtype))
    agree(np.matmul, a, b, dtype=np.float64)


@given(a=arrays(NUM, max_dims=4, max_side=3), b=arrays(NUM, max_dims=4, max_side=3),
       axes=st.sampled_from([0, 1, 2, ([0], [0]), ([-1], [0]), ([0, 1], [1, 0]), ([1], [2])]))
@settings(max_examples=120, deadline=None)
def test_tensordot(a, b, axes):
    agree(np.tensordot, a, b, axes=axes)
    if a.ndim >= 1:
        agree(np.tensordot, a, a, axes=([a.ndim - 1], [a.ndim - 1]))


EINSUMS = ["ij,jk->ik", "ij,kj->ik", "i,i->", "i,i", "ij->ji", "ii->i", "ii", "ij->",
           "bij,bjk->bik", "...ij,...jk->...ik", "i,j->ij", "ij,j->i", "...i,...i->...",
           "ijk->kji", "ij,ij->ij", "ab,bc,cd->ad"]


@pytest.mark.parametrize("spec", EINSUMS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_einsum(spec, data):
    inputs = spec.split("->")[0].split(",")
    sizes = {c: data.draw(st.integers(0, 3)) for c in "abcdijk"}
    ell = tuple(data.draw(st.lists(st.integers(1, 3), max_size=2)))
    operands = []
    for term in inputs:
        shape = (ell if "..." in term else ()) + tuple(sizes[c] for c in term.replace(".", ""))
        if data.draw(st.integers(0, 7)) == 0 and shape:
            shape = shape[:-1] + (shape[-1] + 1,)  # a mismatch now and then
        operands.append(data.draw(arrays(NUM, shape=st.just(shape))))
    agree(np.einsum, spec, *operands)
    agree(np.einsum, spec, *operands, optimize=True)


@given(a=arrays(NUM, max_dims=4, max_side=4), offset=st.integers(-2, 2),
       axes=st.sampled_from([(0, 1), (1, 0), (-1, -2), (0, 2), (1, 1)]))
@settings(max_examples=100, deadline=None)
def test_trace_diagonal_diag(a, offset, axes):
    agree(np.trace, a, offset, *axes)
    agree("method:trace", a, offset, *axes)
    agree(np.diagonal, a, offset, *axes)
    agree("method:diagonal", a, offset, *axes)
    agree(np.diag, a, offset)


def test_einsum_interleaved_form_breaks():
    x = np.ones((2, 3))
    assert agree(np.einsum, x, [0, 1], x, [2, 1], may_break=True) == "break"


# --------------------------------------------------------------------------- compiled

A = rand(4, 5)
B = rand(5, 3, seed=1)
V5 = rand(5, seed=2)
BATCH = rand(2, 1, 4, 5, seed=3)
B3 = rand(3, 5, 6, seed=4)
SQ = rand(5, 5, seed=5)

PROGRAMS = [
    ("matmul_op", lambda a, b: a @ b, (A, B)),
    ("matmul_fn_out", lambda a, b: np.matmul(a, b, out=np.empty((4, 3), np.float32)), (A, B)),
    ("matvec_vecmat", lambda a, v: (a @ v, v @ a.T, v @ v), (A, V5)),
    ("batched_broadcast", lambda x, y: x @ y, (BATCH, B3)),
    ("dot_forms", lambda a, b, v: (np.dot(a, b), np.dot(v, v), a.dot(v), np.dot(a, 2.0)),
     (A, B, V5)),
    ("dot_nd", lambda x, b: np.dot(x, b), (BATCH, B)),
    ("vdot_inner_outer", lambda a, v: (np.vdot(a, a), np.inner(a, v), np.outer(v, v)), (A, V5)),
    ("tensordot", lambda x, y: (np.tensordot(x, y, axes=([3], [1])),
                                np.tensordot(y, y.transpose(1, 2, 0))),
     (BATCH, B3)),
    ("einsum", lambda a, b, x: (np.einsum("ij,jk->ik", a, b), np.einsum("...ij->...ji", x),
                                np.einsum("ij,ij->", a, a), np.einsum("ii->i", a[:, :4])),
     (A, B, BATCH)),
    ("einsum_optimize", lambda a, b, s: np.einsum("ij,jk,kl->il", a, s, b, optimize=True),
     (A, B, SQ)),
    ("trace_diag", lambda s, v: (np.trace(s), s.trace(1), np.diagonal(s, -1), s.diagonal(),
                                 np.diag(v), np.diag(s, 2)), (SQ, V5)),
    ("attention", lambda q, k: np.exp(q @ k.T / np.sqrt(5.0)).sum(-1), (A, A)),
]


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_compiled_equals_eager(name, fn, args):
    check(fn, *args, graphs=1, breaks=0)


def test_diagonal_is_a_view_of_the_input():
    import dynamo

    s = rand(4, 4)
    d = dynamo.compile(lambda s: np.diagonal(s), backend="eager")(s)
    assert np.shares_memory(d, s)


@given(v=arrays(NUM, max_dims=3, max_side=3), k=st.integers(-2, 2))
@settings(max_examples=60, deadline=None)
def test_diagflat(v, k):
    # issue #19 (kernels_corpus5.py jacobi_solve_checked: `A - np.diagflat(np.diag(A))`)
    agree(np.diagflat, v, k)
    agree(np.diagflat, v)


def test_diagflat_is_one_graph_and_a_new_array():
    import dynamo

    def jacobi_split(a):
        d = np.diag(a)
        return a - np.diagflat(d), np.diagflat(d, k=1)

    check(jacobi_split, SQ, graphs=1, breaks=0)
    d = rand(3)
    out = dynamo.compile(lambda d: np.diagflat(d), backend="eager")(d)
    assert not np.shares_memory(out, d)
