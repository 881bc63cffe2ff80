"""Round 31, ``np.einsum`` in the native tier (``backends/native/einsums.py``): contractions
of two and three operands, traces (``"ii->"``), diagonals, ``...`` broadcasting, repeated
letters, ``optimize=`` and ``out=``, compiled with ``backend="native"`` and ``"auto"``,
tier 2 forced from the second call (``hostile_check.TIER2``), then called with operands
that are int8 (products that wrap), int32, bool, float32, complex, transposed (F order),
strided, empty along an axis, of one element, or of shapes einsum rejects.

    >>> def _matmul_like(a, b, c, o):
    ...     return np.einsum("ij,jk->ik", a, b) + 1
"""

import numpy as np
from hostile_check import TIER2, Programs

reg = Programs("round31_einsums")

RNG = np.random.default_rng(31)
A = RNG.standard_normal((4, 4))
B = RNG.standard_normal((4, 4))
C = RNG.standard_normal((4, 4))
BIG = RNG.standard_normal((8, 8))


# ----------------------------------------------------------------- bodies (a, b, c, o)

def _matmul_like(a, b, c, o):
    return np.einsum("ij,jk->ik", a, b) + 1


def _three_chain(a, b, c, o):
    return np.einsum("ij,jk,kl->il", a, b, c) * 0.5


def _three_rowdot(a, b, c, o):
    return np.einsum("ij,jk,ik->i", a, b, c)


def _trace(a, b, c, o):
    return np.einsum("ii->", a) + np.einsum("ii", b)


def _diagonal(a, b, c, o):
    return np.einsum("ii->i", a) * 2


def _diag_then_ufunc(a, b, c, o):
    return np.tanh(np.einsum("ii->i", a) + np.einsum("jj->j", b))


def _rowdot(a, b, c, o):
    return np.einsum("ij,ij->i", a, b)


def _outer(a, b, c, o):
    return np.einsum("i,j->ij", a[0], b[:, 1])


def _ellipsis(a, b, c, o):
    return np.einsum("...i,...i->...", a, b)


def _ellipsis_matmul(a, b, c, o):
    return np.einsum("...ij,...jk->...ik", a, b) - c


def _transposed_out(a, b, c, o):
    return np.einsum("ij,jk->ki", a, b)


def _transposed_operand(a, b, c, o):
    return np.einsum("ij,jk->ik", a.T, b) + np.einsum("ij,jk->ik", a, b.T)


def _strided_operand(a, b, c, o):
    return np.einsum("ij,jk->ik", a[::2], b[:, ::2]) if a.shape[0] > 1 else a


def _reversed_operand(a, b, c, o):
    return np.einsum("ij,jk->ik", a[::-1], b[:, ::-1])


def _sum_all(a, b, c, o):
    return np.einsum("ij->", a) + np.einsum("ij,ij->", b, c)


def _column_sums(a, b, c, o):
    return np.einsum("ij->j", a * b)


def _optimize_true(a, b, c, o):
    return np.einsum("ij,jk,kl->il", a, b, c, optimize=True)


def _optimize_greedy(a, b, c, o):
    return np.einsum("ij,jk,kl->il", a, b, c, optimize="greedy") + a


def _optimize_false(a, b, c, o):
    return np.einsum("ij,jk->ik", a, b, optimize=False) * c


def _into_out(a, b, c, o):
    r = np.einsum("ij,jk->ik", a, b, out=o)
    return r is o, o.sum()


def _out_then_read(a, b, c, o):
    np.einsum("ij,jk->ik", a, b, out=o)
    return o * 2 + a


def _dtype_arg(a, b, c, o):
    return np.einsum("ij,jk->ik", a, b, dtype=np.float64)


def _casting_arg(a, b, c, o):
    try:
        return np.einsum("ij,jk->ik", a, b, dtype=np.float32, casting="safe")
    except TypeError as e:
        return "TypeError", str(e)


def _bad_shape_caught(a, b, c, o):
    try:
        return np.einsum("ij,jk->ik", a, b[1:])
    except ValueError as e:
        return "ValueError", str(e)


def _einsum_in_loop(a, b, c, o):
    acc = a + 0
    for _ in range(3):
        acc = np.einsum("ij,jk->ik", acc, b) * 0.5
    return acc


def _einsum_of_gather(a, b, c, o):
    idx = np.array([2, 0, -1, 1])
    return np.einsum("ij,jk->ik", a[:, idx[: a.shape[1]]], b)


def _einsum_mean(a, b, c, o):
    return np.einsum("ij,jk->ik", a, b).mean(0), np.einsum("ij,jk->ik", a, c).max()


def _einsum_wrap(a, b, c, o):
    return np.einsum("ij,jk->ik", a * 3, b * 5)


def _einsum_then_write(a, b, c, o):
    r = np.einsum("ij,jk->ik", a, b)
    a[...] = 0
    return r, np.einsum("ij,jk->ik", a, b)


def _einsum_bool_mask(a, b, c, o):
    return np.einsum("ij,jk->ik", a > 0, b > 0)


def _out_aliases_operand(a, b, c, o):
    r = np.einsum("ij,jk->ik", a, b, out=a)
    return r is a, a


def _out_transposed(a, b, c, o):
    np.einsum("ij,jk->ik", a, b, out=o.T)
    return o


def _sublist_format(a, b, c, o):
    return np.einsum(a, [0, 1], b, [1, 2], [0, 2]) - a


def _scalar_operand(a, b, c, o):
    return np.einsum("ij,->ij", a, 3) + np.einsum("ij,ij->", a, b) * 2


def _upper_and_spaces(a, b, c, o):
    return np.einsum("iJ, Jk -> ik", a, b)


EXTRA = (_out_aliases_operand, _out_transposed, _sublist_format, _scalar_operand,
         _upper_and_spaces)

BODIES = (_matmul_like, _three_chain, _three_rowdot, _trace, _diagonal, _diag_then_ufunc,
          _rowdot, _outer, _ellipsis, _ellipsis_matmul, _transposed_out,
          _transposed_operand, _strided_operand, _reversed_operand, _sum_all, _column_sums,
          _optimize_true, _optimize_greedy, _optimize_false, _into_out, _out_then_read,
          _dtype_arg, _casting_arg, _bad_shape_caught, _einsum_in_loop, _einsum_of_gather,
          _einsum_mean, _einsum_wrap, _einsum_then_write, _einsum_bool_mask) + EXTRA


def _make():
    return A.copy(), B.copy(), C.copy(), np.zeros((4, 4))


def _as(dtype, scale=1.0):
    def make():
        return tuple((v * scale).astype(dtype) for v in _make())
    return make


def _strided():
    big = BIG.copy()           # fresh: a body that writes its operand must not write BIG
    return big[::2, ::2], big[1::2, ::2], big[::2, 1::2], np.zeros((4, 4))


# two groups of hostile operands, each small enough that no call passes the cache limit
# (8 entries: a dtype, a layout and a shape are each an entry) and falls back uncompiled
DTYPES = (
    _as(np.int8, 40.0),                                                   # products wrap
    _as(np.int32, 10.0),
    lambda: (A > 0, B > 0, C > 0, np.zeros((4, 4), bool)),                # bool
    _as(np.float32),
    lambda: (A + 1j * B, B - 1j * C, C + 0j, np.zeros((4, 4), complex)),  # complex
    lambda: (np.full((4, 4), np.nan), B.copy(), np.full((4, 4), np.inf), np.zeros((4, 4))),
)
LAYOUTS = (
    lambda: (np.asfortranarray(A), B.T.copy().T, C.copy().T, np.zeros((4, 4))),  # F order
    _strided,
    lambda: (np.zeros((0, 0)), np.zeros((0, 0)), np.zeros((0, 0)), np.zeros((0, 0))),
    lambda: (A[:1, :1].copy(), B[:1, :1].copy(), C[:1, :1].copy(), np.zeros((1, 1))),
    lambda: (A[:, :3].copy(), B.copy(), C.copy(), np.zeros((4, 4))),      # mismatched
)


def _split(name, fn, first, groups):
    """Two programs: ``fn`` on backend "native" with the first group of hostile inputs and
    on "auto" with the second (tier 2 forced from the second call of an entry): calls on
    ``first()`` twice (tier 1, then tier 2), each hostile input twice (one that makes a
    new entry reaches tier 2 on its second call), then ``first()`` again."""
    for backend, group in zip(("native", "auto"), groups):
        def s(r, backend=backend, group=group):
            f = r.compile_on(fn, backend, options=TIER2)
            for make in (first, first, *[h for h in group for _ in "12"], first):
                r.call(f, *make())
        s.__name__ = f"{name}_{backend}"
        s.__doc__ = fn.__doc__
        reg.scenario(s)


for _fn in BODIES:
    _split(_fn.__name__[1:], _fn, _make, (DTYPES, LAYOUTS))

# hostile operands first (tier 1 traced on them), the groups the other way round
for _fn in (_matmul_like, _three_chain, _trace, _rowdot, _ellipsis, _into_out,
            _optimize_true, _einsum_wrap, _transposed_out, _sum_all):
    _split(f"{_fn.__name__[1:]}_hostile_first", _fn, DTYPES[0], (LAYOUTS, DTYPES[::-1]))
