"""``ufunc.at`` (``np.add.at(a, idx, b)``, ``np.maximum.at``...) as a sequential nest
that updates each selected element in place, in NumPy's order (tier 2).

Before, ``ufunc_at`` kept its graph in tier 1 (2 of the 279 graphs of the real-world
corpora, 2026-12-06: skip-gram's embedding updates, a particle-in-cell deposit).

    np.add.at(a, idx, b)      (a (n,) float64, idx (k,) int64, b (k,))   ->
        for i in range(k):                       # never prange: repeated indices
            t = idx[i]
            w = t + n if t < 0 else t
            bad = (w < 0) or (w >= n)
            nf |= bad                             # NumPy raises IndexError: tier 1 reruns
            v = b[i]
            if not bad:
                <save a[w] if a is an input>
                r = (a[w] + v)
                nf |= ((r - r) != 0)              # a NaN or infinity: tier 1 reruns
                a[w] = r

NumPy's semantics, which the nest keeps (``numpy/_core/src/umath/ufunc_object.c``,
``ufunc_at``):

- unlike ``a[idx] += b``, a repeated index **accumulates**: each selected element, in
  C order of the broadcast index, becomes ``op(a[w], b[i])`` with ``a[w]`` as the
  previous update left it (so the nest is sequential, never a ``prange``);
- the loop is the ufunc's for ``(a.dtype, b.dtype)`` (NEP 50: a Python scalar is
  weak), the result cast back to ``a.dtype`` at each update: ``np.add.at`` of a float32
  ``a`` and float64 values adds in float64 and rounds to float32 every time; int8 wraps;
- an index out of bounds raises ``IndexError`` before NumPy writes anything: the
  kernel flags the call and writes nothing there, and tier 1 reruns it on the inputs
  restored from their backups (saves.py), which raises as eager;
- NumPy warns for a NaN or infinity it makes (``maximum.at`` even for a NaN it only
  compares): the kernel flags any NaN or infinity in the values or the results, and
  tier 1 reruns the call (which warns as eager).

Forms: those of the scatters (scatters.py: index arrays and ints next to each other,
constant slices); a binary ufunc with a loop template here (ops._BINARY); a cast back
that the kernel can make (no float to integer). Anything else stays in tier 1.
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node

from .emitter import SEQ_FLAG
from .ops import _BINARY, _BOOL_ARITH, Unsupported, _cast, _dt, _kind, _meta, _nonfinite
from .scatters import serial_store
from .values import Arr, Const, Lazy, View


def at_loop(ufunc, a_dtype: np.dtype, b) -> tuple:
    """(the template over ``{a}``, ``{b}``, the loop's two operand dtypes) of
    ``ufunc.at`` into an array of ``a_dtype`` with values ``b`` (a dtype, or a Python
    scalar's type); Unsupported where the kernel has no exact loop for it.
    Example: ``at_loop(np.add, float32, float64)`` -> ``("({a} + {b})", (f8, f8))``."""
    name = getattr(ufunc, "__name__", None)
    if not isinstance(ufunc, np.ufunc) or ufunc.nin != 2 or name not in _BINARY:
        raise Unsupported(f"ufunc.at of {name}")
    kinds, template = _BINARY[name]
    try:
        loop = ufunc.resolve_dtypes((a_dtype, b, None))
    except (TypeError, ValueError, np.exceptions.DTypePromotionError) as e:
        raise Unsupported(f"{name}.at: {e}") from None
    if loop[0] == np.bool_ and name in _BOOL_ARITH:
        kinds, template = "b", _BOOL_ARITH[name]
    if template is None or _kind(loop[0]) not in kinds:
        raise Unsupported(f"{name}.at on {loop[0]}")
    _cast("x", loop[-1], a_dtype)   # raises for a cast back the kernel cannot make
    return template, loop


class UfuncAts:
    """Methods of ``_Block`` (block.py): ``ufunc.at``."""

    def ufunc_at(self, node: Node):
        if node.kwargs or len(node.args) != 4:
            raise Unsupported("ufunc.at of a unary ufunc or with keywords")
        base, ufunc, index, value = node.args
        target = self.val(base)
        if isinstance(target, Lazy):
            target = self.force(base)
        if isinstance(target, View) or not isinstance(target, Arr) or not target.shape:
            raise Unsupported("ufunc.at into a view or a non-array")
        dims = target.shape
        v = self.val(value) if isinstance(value, Node) else Const(value)
        if isinstance(v, Const):
            if isinstance(v.value, bool) or not isinstance(v.value, (int, float, np.generic)):
                raise Unsupported(f"ufunc.at of the constant {v.value!r}")
            vdt = v.value.dtype if isinstance(v.value, np.generic) else type(v.value)
        else:
            vdt = v.dtype
        template, loop = at_loop(ufunc, target.dtype, vdt)
        items = list(index if isinstance(index, tuple) else (index,))
        if len(items) == 1 and isinstance(items[0], Node) and \
                _meta(items[0]).dtype.kind == "b":
            raise Unsupported("ufunc.at with a mask")
        if isinstance(value, Node) and target.key in self._keys(value):
            raise Unsupported("ufunc.at of values that read the updated array")
        items, bshape, shape = self.indexed_region(target, items, dims)
        p, nb = next(k for k, it in enumerate(items) if not isinstance(it, slice)), len(bshape)
        vshape = () if isinstance(v, Const) else getattr(v, "shape", ())
        if len(vshape) > len(shape) or any(
                a not in (1, b) for a, b in zip(vshape[::-1], shape[::-1])):
            raise Unsupported("values that do not broadcast to the selection")
        if 0 in shape and isinstance(v, Lazy):
            v = self.force(value)   # eager computes the values whole (and warns) anyway
        self.written(target.key)
        inexact = loop[-1].kind in "fc"

        def combine(old: str, val: str, lines: list) -> str:
            r = self.em.new("t")
            expr = template.format(a=_cast(old, target.dtype, loop[0]), b=val)
            if loop[-1].kind in "iu" and loop[-1].itemsize < 8:
                expr = f"{_dt(loop[-1])}({expr})"   # wraps as NumPy's (Numba: int64)
            lines.append(f"{r} = {_cast(expr, loop[-1], target.dtype)}")
            if inexact:   # (``r - r``: NaN for a NaN or an infinity, complex too)
                lines.append(f"{SEQ_FLAG} |= {_nonfinite(r)}")
            return r
        serial_store(self, target, items, shape, p, nb, bshape, v,
                     combine=(loop[1], combine))
        return target
