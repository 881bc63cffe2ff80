"""``w @ u`` of two 1-D float64 vectors as a native call of NumPy's own BLAS ``ddot``,
not an object-mode call (calls.py): the per-sample recursions (an LMS adaptive filter's
``e[n] = d[n] - w @ x[n - k:n][::-1]``, a forward substitution's row) make one small
dot product per trip, and the object-mode call cost 4-5 us of each (boxing, the error
state), more than the whole trip in tier 1.

Same bits as eager: NumPy's ``matmul`` of two 1-D float64 vectors calls ``DOUBLE_dot``
(numpy/_core/src/multiarray/arraytypes.c.src), which for strides that are positive
multiples of 8 returns ``0.0 + cblas_ddot(n, a, sa / 8, b, sb / 8)`` and otherwise
(a reversed slice ``x[n - k:n][::-1]``, a stride 0) adds ``a[i] * b[i]`` one after the
other from ``0.0``; an empty dot is ``0.0``. ``blas_dot.dot`` does the same, calling
the very ``ddot`` NumPy links (the ``scipy_cblas_ddot64_`` of NumPy's bundled
scipy-openblas, the same CPU kernel, found by its address): not Numba's ``np.dot``,
which calls SciPy's BLAS. Where that library is not found, or where a check of it
against ``np.matmul`` on a few vectors differs in any bit (another NumPy, another
build), the dot stays NumPy's call from the kernel, as before. float32 is not done:
NumPy's float32 ``matmul`` of vectors differed from ``sdot`` and from a plain loop.

A result that is NaN or infinite flags the call (tier 1 reruns it: NumPy warns on
an overflow or an invalid operation in ``matmul``, and a NaN in the operands is
rare enough to leave to tier 1).

Example: ``e = d[n] - w @ x[n - 16:n][::-1]`` in a loop node lowers to::

    r12 = _bdot(w3, p0[(s5 + 15)::-1][:16])
    _nf |= r12 - r12 != 0.0
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os

import numpy as np

from dynamo.graph import CALL, Node

from .emitter import SEQ_FLAG
from .ops import Unsupported
from .values import Arr, Lazy, Scal, View

# The kernel module's header when a kernel makes such a dot (appended to ops.PRELUDE).
DOT_PRELUDE = '''
from dynamo.backends.native.blas_dot import dot as _bdot
from dynamo.backends.native.blas_dot import np_dot as _bdot_np
'''

SYMBOL = "scipy_cblas_ddot64_"   # NumPy's wheels: scipy-openblas, 64-bit integers


@functools.lru_cache(maxsize=1)
def ddot_address() -> int | None:
    """The address of the ``ddot`` NumPy's ``matmul`` calls, or None where it cannot
    be found or does not give ``np.matmul``'s bits on a few test vectors."""
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        if blas.get("name") != "scipy-openblas" or \
                "USE64BITINT" not in blas.get("openblas configuration", ""):
            return None
        libs = os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs")
        found = glob.glob(os.path.join(libs, "libscipy_openblas64_*.so"))
        if len(found) != 1:
            return None
        fn = getattr(ctypes.CDLL(found[0]), SYMBOL)
    except (OSError, AttributeError, KeyError, TypeError, ValueError):
        return None
    fn.restype = ctypes.c_double
    fn.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                   ctypes.c_int64]
    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 15, 16, 17, 33, 100, 1000):
        a, b = rng.standard_normal(n), rng.standard_normal(2 * n)
        got = 0.0 + fn(n, a.ctypes.data, 1, b.ctypes.data, 2)
        if np.float64(got).tobytes() != np.float64(a @ b[::2]).tobytes():
            return None
    return ctypes.cast(fn, ctypes.c_void_p).value


class RunSlice:
    """A 1-D slice whose length is known only at run time (``L[i, :i]``, ``x[:i]`` of a
    forward substitution's row), read only by native dots: its Numba expression."""

    def __init__(self, expr: str):
        self.expr = expr


def _vector(node) -> bool:
    meta = node.meta.get("array") if isinstance(node, Node) else None
    return meta is not None and not getattr(meta, "scalar", True) and \
        meta.dtype == np.float64 and len(meta.shape) == 1


def dot_form(node: Node) -> bool:
    """``a @ b`` or ``np.dot(a, b)`` of two 1-D float64 values, a float64 scalar
    (NumPy's ``DOUBLE_dot``; ``np.dot``: ``blas_dot.np_dot``)."""
    meta = node.meta.get("array")
    return node.op == CALL and node.target in ("matmul", "dot") and len(node.args) == 2 and \
        not node.kwargs and meta is not None and getattr(meta, "scalar", False) and \
        meta.dtype == np.float64 and all(_vector(a) for a in node.args)


def dot_only_slice(node: Node) -> bool:
    """A 1-D float64 slice of run-time length whose every reader is such a dot."""
    meta = node.meta.get("array")
    return _vector(node) and type(meta.shape[0]) is not int and bool(node.users) and \
        all(dot_form(u) for u in node.users) and ddot_address() is not None


def _numba_view(v) -> str | None:
    """A 1-D kernel value as a Numba array expression (a view, no copy), or None."""
    if isinstance(v, RunSlice):
        return v.expr
    if isinstance(v, Arr):
        return v.name if len(v.shape) == 1 else None
    if not isinstance(v, View) or len(v.shape) != 1:
        return None
    idx, tail = [], ""
    for part in v.parts:
        if part[0] == "int":
            idx.append(part[1])
        elif part[0] == "new":
            return None
        else:
            _, start, step = part
            count = v.shape[0]
            if step > 0:
                stop = f"{start} + {step * count}" if isinstance(start, str) \
                    else str(start + step * count)
                idx.append(f"{start}:{stop}:{step}")
            else:   # (a stop of -1 would wrap: take ``count`` from the start down)
                idx.append(f"{start}::{step}")
                tail = f"[:{count}]"
    return f"{v.base.name}[{', '.join(idx)}]{tail}"


class Dots:
    """Methods of ``_Block`` (block.py): a vector dot product as a native BLAS call."""

    def native_dot(self, node: Node):
        """The ``Scal`` of ``node`` (``matmul`` of two 1-D float64 vectors), emitted as
        ``_bdot``; None (nothing emitted) for any other form or without the BLAS."""
        if not dot_form(node) or ddot_address() is None:
            return None
        a, b = node.args
        sizes = [a.meta["array"].shape[0], b.meta["array"].shape[0]]
        if all(type(n) is int for n in sizes) and sizes[0] != sizes[1]:
            return None
        for x in (a, b):   # (an inlined value is computed into an array first)
            if isinstance(self.env[x], Lazy):
                self.force(x)
        exprs = [_numba_view(self.env[x]) for x in (a, b)]
        if None in exprs:
            return None
        em = self.em
        name = em.new("r")
        em.uses_blas_dot = True
        if not all(type(n) is int for n in sizes):   # NumPy raises on other lengths
            em.line(f"{SEQ_FLAG} |= {exprs[0]}.shape[0] != {exprs[1]}.shape[0]")
        fn = "_bdot" if node.target == "matmul" else "_bdot_np"
        em.line(f"{name} = {fn}({exprs[0]}, {exprs[1]})")
        em.line(f"{SEQ_FLAG} |= {name} - {name} != 0.0")
        return Scal(name, np.dtype(np.float64))

    def dot_slice(self, node: Node) -> RunSlice:
        """``L[i, :i]`` (``dot_only_slice``) as a Numba slice of the base: Numba's
        slices clamp their bounds as Python's ``slice.indices``; an integer index of
        the kernel is wrapped and checked as NumPy's (out of bounds: the call is
        flagged, tier 1 raises NumPy's ``IndexError``, row 0 is read meanwhile)."""
        # (not gathers.indexed_operand: its read of the result's metadata refuses the
        # run-time length this slice has)
        base, index = node.args
        if node.kwargs:
            raise Unsupported("getitem with keywords")
        v = self.val(base)
        if isinstance(v, Lazy):
            v = self.force(base)
        if not isinstance(v, Arr):
            raise Unsupported("a slice with a run-time length of a view")
        items = list(index if isinstance(index, tuple) else (index,))
        items += [slice(None)] * (len(v.shape) - len(items))
        if len(items) != len(v.shape) or sum(isinstance(it, slice) for it in items) != 1:
            raise Unsupported("a slice with a run-time length of more than one axis")
        em, subs = self.em, []
        for it, n in zip(items, v.shape):
            if isinstance(it, slice):
                # (a negative step: Numba's slice clamps its bounds as Python's too;
                # the dot of a reversed slice is NumPy's plain loop, or for ``np.dot``
                # its copy's ddot: blas_dot)
                if it.step is not None and (type(it.step) is not int or it.step == 0):
                    raise Unsupported("a slice step that is not a nonzero constant")
                bounds = []
                for b in (it.start, it.stop):
                    if b is None:
                        bounds.append("")
                        continue
                    name = em.new("s")
                    em.line(f"{name} = {self.bound(b)}")
                    bounds.append(name)
                subs.append(":".join(bounds) + ("" if it.step is None else f":{it.step}"))
                continue
            if isinstance(it, (bool, np.bool_)) or isinstance(it, (slice, type(None))):
                raise Unsupported(f"index {it!r}")
            name = em.new("s")
            em.line(f"{name} = {self.bound(it)}")
            em.line(f"{name} = {name} + {n} if {name} < 0 else {name}")
            em.line(f"{SEQ_FLAG} |= ({name} < 0) | ({name} >= {n})")
            em.line(f"{name} = {name} if 0 <= {name} < {n} else 0")
            subs.append(name)
        return RunSlice(f"{v.name}[{', '.join(subs)}]")
