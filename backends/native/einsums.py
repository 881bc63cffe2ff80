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


def einsum_callable(node: Node) -> bool:
    """An ``einsum`` node whose call a kernel may hand to NumPy (module docstring):
    the subscript form, two or three array operands, no keyword but ``optimize=False``.
    Its result may be laid out other than C (``"ij,jk->ki"``, ``"bpw,wc->bpc"`` of
    ``x[:, idx]``: strides (24, 144, 8)): the kernel's array has NumPy's strides
    (strided.py), and the call's check flags a result with others."""
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
    return not any(m is None or getattr(m, "scalar", True) for m in metas)
