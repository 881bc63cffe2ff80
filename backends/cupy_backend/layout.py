"""Array layouts the plan expects, and coalescing of a kernel's iteration space.

A kernel reads its inputs through strides baked into its source, so the plan must
know every input's layout when it generates code:

- graph inputs: the example input's strides (the backend asks for layout guards);
- outputs of our own kernels: C-contiguous, because we allocate them (certain);
- results of plain CuPy calls: C-contiguous, as CuPy returns them;
- views (reshape, transpose, basic indexing...): the view op run by NumPy on a
  zero-memory array with the base's expected strides (``reshape`` with
  ``copy=False``, so a reshape that would copy is known to give a fresh array).

Everything but our own outputs is checked at run time (one tuple compare); a
mismatch runs that kernel's ops as plain CuPy calls instead, so a wrong guess costs
speed, never correctness.

Example::

    >>> contiguous_strides((2, 3, 4))
    (12, 4, 1)
    >>> coalesce((2, 3, 4), [(12, 4, 1), (0, 0, 1)])
    ((6, 4), [(4, 1), (0, 1)])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import as_strided

from dynamo.graph import CALL, CONSTANT, PLACEHOLDER, Node
from dynamo.ops import VIEW
from dynamo.tree import tree_leaves

from .sizes import RuntimeStride, is_static, mul, shape_of


@dataclass(frozen=True)
class Layout:
    strides: tuple      # element strides
    certain: bool       # True only for arrays our kernels allocate


def contiguous_strides(shape: tuple) -> tuple:
    """Element strides of a C-contiguous array (dimensions may be ``Size``s)."""
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step = mul(step, max(d, 1) if is_static(d) else d)
    return tuple(reversed(strides))


def array_meta(node: Node):
    meta = node.meta.get("array")
    return None if meta is None or isinstance(meta, tuple) else meta


def _element_strides(value) -> tuple | None:
    itemsize = value.dtype.itemsize
    if any(s % itemsize for s in value.strides):
        return None
    return tuple(s // itemsize for s in value.strides)


def expected_layouts(graph, example_inputs, kernel_outputs: set) -> dict:
    """``{node: Layout}`` for every array value of ``graph`` the plan can predict."""
    layouts: dict[Node, Layout] = {}
    examples = dict(zip(graph.placeholders, example_inputs))
    for node in graph.nodes:
        meta = array_meta(node)
        if meta is None or meta.scalar:
            continue
        if node.op == PLACEHOLDER:
            value = examples.get(node)
            strides = _element_strides(value) if hasattr(value, "strides") else None
            if strides is not None:
                layouts[node] = Layout(_input_strides(node, value, strides), False)
        elif node.op == CONSTANT:
            value = node.args[0]
            if hasattr(value, "strides") and _element_strides(value) is not None:
                layouts[node] = Layout(_element_strides(value), False)
        elif node.op == CALL:
            shape = shape_of(node)
            if node in kernel_outputs:
                layouts[node] = Layout(contiguous_strides(shape), True)
            elif node.meta.get("kind") == VIEW and not _symbolic(node, layouts):
                strides = _view_strides(node, layouts)
                layouts[node] = Layout(strides or contiguous_strides(shape), False)
            elif node.meta.get("kind") == VIEW:
                # NumPy's view rules are not affine in the sizes: the kernel reads this
                # view's strides from the array at each call (nothing to check)
                itemsize = meta.dtype.itemsize
                layouts[node] = Layout(tuple(RuntimeStride(node.name, d, itemsize)
                                             for d in range(len(shape))), True)
            else:
                layouts[node] = Layout(contiguous_strides(shape), False)
    return layouts


def _input_strides(node: Node, value, strides: tuple) -> tuple:
    """A graph input's strides: the example's, or, for a contiguous input with a
    symbolic size (guarded by its contiguity flags only, ``layout_guards =
    "dynamic-contiguity"``), the contiguous strides of its symbolic shape."""
    shape = shape_of(node)
    if all(is_static(d) for d in shape):
        return strides
    if value.flags.c_contiguous:
        return contiguous_strides(shape)
    if value.flags.f_contiguous:
        return contiguous_strides(shape[::-1])[::-1]
    return strides


def _symbolic(node: Node, layouts: dict) -> bool:
    """Does a view's layout depend on symbolic sizes (its shape, its base's layout)?"""
    base = node.args[0] if node.args else None
    dims = shape_of(node) + (shape_of(base) if isinstance(base, Node) and
                             array_meta(base) is not None else ())
    strides = layouts[base].strides if isinstance(base, Node) and base in layouts else ()
    return not all(is_static(v) for v in dims + tuple(strides))


def _view_strides(node: Node, layouts: dict) -> tuple | None:
    """Strides of a view op's result, from NumPy on a zero-memory stand-in of its base."""
    from dynamo import ops
    base = node.args[0] if node.args else None
    if not isinstance(base, Node) or base not in layouts:
        return None
    rest = list(node.args[1:]) + list(node.kwargs.values())
    if any(isinstance(a, Node) for a in tree_leaves(rest)):
        return None  # an index array: advanced indexing copies
    meta, base_meta = array_meta(node), array_meta(base)
    itemsize = base_meta.dtype.itemsize
    fake = as_strided(np.zeros(1, base_meta.dtype), shape=base_meta.shape,
                      strides=[s * itemsize for s in layouts[base].strides],
                      writeable=False)
    kwargs = dict(node.kwargs)
    if node.target == "reshape":
        kwargs["copy"] = False
    try:
        result = ops.get(node.target).impl(fake, *node.args[1:], **kwargs)
    except (ValueError, TypeError):
        return None  # the real reshape copies: a fresh C-contiguous array
    if not isinstance(result, np.ndarray) or result.shape != tuple(meta.shape):
        return None
    return _element_strides(result)


def coalesce(shape: tuple, accesses: list[tuple], keep_last: bool = False):
    """Drop size-1 dimensions and merge neighbours every access walks contiguously.

    ``accesses`` are element strides over ``shape``; returns the new shape and the
    accesses over it. Sizes and strides may be ``Size``s (merged when the products
    match) or ``RuntimeStride``s (never merged). With ``keep_last``, the last
    dimension stays on its own (the reduced dimension of a row kernel, even when it
    has size 1).
    """
    dims = [i for i, d in enumerate(shape) if d != 1 or (keep_last and i == len(shape) - 1)]
    new_shape = [shape[i] for i in dims]
    new_acc = [[a[i] for i in dims] for a in accesses]
    i = len(new_shape) - 2
    while i >= 0:
        j = i + 1
        if keep_last and j == len(new_shape) - 1:
            i -= 1
            continue
        if all(a[i] == mul(a[j], new_shape[j]) for a in new_acc):
            new_shape[i] = mul(new_shape[i], new_shape[j])
            del new_shape[j]
            for a in new_acc:
                a[i] = a[j]
                del a[j]
        i -= 1
    if not new_shape:
        new_shape, new_acc = [1], [[0] for _ in new_acc]
    return tuple(new_shape), [tuple(a) for a in new_acc]
