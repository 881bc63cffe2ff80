"""Which ``np.einsum`` calls a kernel may hand to NumPy: a plain contraction of two
or three operands (``"bpw,wc->bpc"``, ``"ij,jk,ik->i"``), called through NumPy from
the kernel (calls.py), so its sums are NumPy's own, bit for bit.

Why not loops spelled out from the subscripts: NumPy's ``c_einsum`` (the default,
``optimize=False``) runs an ``nditer`` over the operands in the order their strides
pick (order ``K``) and adds each output element's products in a ``sum_of_products``
loop chosen by the inner strides, with SIMD partial sums on some of them (the float
contraction ``"ij,jk->ik"`` of a 20-long axis is not one chain of adds). A loop in
another order differs in the last bit; a float einsum would need NumPy's iterator
modelled per layout. So the kernel calls NumPy itself, on arrays of eager's strides.

What is refused (the op stays in tier 1, as before): one operand (``"ij->ji"`` and
``"ii->i"`` return views), more than three, the interleaved ``(operand, sublist)``
form, ``...``, a letter twice in one operand (a diagonal) or in the output, an output
letter no operand has, any keyword but ``optimize=False`` (``out=``, ``dtype=``,
``order=``, ``casting=``; ``optimize=True`` contracts through ``tensordot``: another
path, refused for now).

    plain_contraction("bpw,wc->bpc", 2)   -> True
    plain_contraction("ii,i->i", 2)       -> False   (a diagonal)
    plain_contraction("...i,i->...", 2)   -> False
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node


def plain_contraction(subscripts, n_operands: int) -> bool:
    """Whether ``subscripts`` (einsum's first argument) is a plain contraction of
    ``n_operands`` (2 or 3) arrays: letters only, each at most once per operand and in
    the output, the output's letters taken from the operands."""
    if not isinstance(subscripts, str) or n_operands not in (2, 3):
        return False
    text = subscripts.replace(" ", "")
    if "." in text:
        return False
    inputs, arrow, output = text.partition("->")
    terms = inputs.split(",")
    if len(terms) != n_operands or "->" in output:
        return False
    letters = set()
    for term in terms:
        if not term.isalpha() or len(set(term)) != len(term):
            return False
        letters |= set(term)
    if not arrow:
        return True   # implicit output: the letters seen once, sorted (NumPy's rule)
    if output and not output.isalpha():
        return False
    return len(set(output)) == len(output) and set(output) <= letters


def einsum_callable(node: Node, layouts: dict | None = None) -> bool:
    """An ``einsum`` node whose call a kernel may hand to NumPy (module docstring):
    the subscript form, two or three array operands, no keyword but ``optimize=False``,
    and a C-ordered result for operands in C order (``layouts``: operand node ->
    another layout, ``probe_c_result``'s): the call's check would flag every call of a
    kernel whose einsum NumPy lays out otherwise (``"ij,jk->ki"``)."""
    if not node.args or any(k != "optimize" for k in node.kwargs):
        return False
    if node.kwargs.get("optimize", False) is not False:
        return False
    operands = node.args[1:]
    if not all(isinstance(a, Node) for a in operands):
        return False
    if not plain_contraction(node.args[0], len(operands)):
        return False
    metas = [a.meta.get("array") for a in operands]
    if any(m is None or getattr(m, "scalar", True) for m in metas):
        return False
    if not all(type(d) is int for m in metas for d in m.shape):
        return True   # (a symbolic size: the call's own check decides)
    layouts = layouts or {}
    return probe_c_result(node.args[0], [(tuple(m.shape), m.dtype, layouts.get(a))
                                         for a, m in zip(operands, metas)])


def probe_c_result(subscripts: str, operands: list) -> bool:
    """Whether NumPy's einsum of arrays of the ``operands``' shapes and strides
    (each a ``(shape, dtype, layout)``: layout None for C order, else ``(buffer
    shape, transposition)``) returns a C-contiguous array.

    NumPy's output follows its operands' memory order (``order="K"``):
    ``"ij,jk->ik"`` of C arrays is C, ``"ij,jk->ki"`` is not, and
    ``"bpw,wc->bpc"`` of ``x[:, idx]`` (strides (8, 240, 48)) has strides (24, 144, 8).
    The probe runs NumPy's einsum on zeros with every length over 3 cut to 3 (a few
    hundred products, whatever the real sizes): the iterator orders axes by comparing
    strides, and a C buffer's strides keep their order when its lengths shrink
    (lengths 0 and 1, which the iterator treats apart, are kept). The call's own check
    (``npcall``) still flags any result that is not C-ordered."""
    def cut(shape):
        return tuple(min(d, 3) for d in shape)
    arrays = [np.zeros(cut(shape), dtype) if layout is None
              else np.zeros(cut(layout[0]), dtype).transpose(layout[1])
              for shape, dtype, layout in operands]
    return bool(np.einsum(subscripts, *arrays).flags.c_contiguous)
